#pragma once
/// The tag search of a highly associative set (an H200 L1 set has up to 64 ways): on a CPU with
/// AVX-512F (checked at run time) eight tags per compare into a mask register, so a miss that
/// scans all 64 ways is eight compares instead of thirty-two SSE ones and their reductions.

#include <cstdint>

namespace gms::detail {

/// The index of `key` among `tags[0, n)`, or -1. Requires AVX-512F (cpu_has_avx512f); where
/// the compiler has no AVX-512, a plain loop.
std::int32_t find_tag_avx512(const std::uint64_t* tags, std::uint32_t n, std::uint64_t key);

}  // namespace gms::detail
