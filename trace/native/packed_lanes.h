#pragma once
/// The 31 packed lane deltas of a full-warp `.gmt` list record (binary_format.h: W bits each,
/// zigzag-mapped, shifted left by S, added lane after lane), unpacked eight lanes at a time with
/// AVX-512 where the CPU has it. A scattered warp's deltas were the reader's largest cost: 31
/// dependent scalar steps, against four gathers, shifts and a prefix sum here.

#include <cstdint>

namespace gms::trace::detail {

/// Widest deltas unpack_full_warp takes (8 bytes read per value, at any bit offset).
inline constexpr unsigned kVectorUnpackMaxBits = 56;

/// True when unpack_full_warp may run (AVX-512F on this CPU).
bool vector_unpack_available();

/// Writes addr[0] = first and addr[i] = addr[i - 1] + (unzigzag(value i - 1) << shift) for the
/// 31 values of `bits` (1 to kVectorUnpackMaxBits) bits packed LSB-first at `p`. Reads up to 8
/// bytes past the last value (the reader's block buffer is padded).
void unpack_full_warp(const std::uint8_t* p, unsigned bits, unsigned shift, std::uint64_t first,
                      std::uint64_t* addr);

}  // namespace gms::trace::detail
