#pragma once
/// Deterministic synthetic traces for tests and benchmarks of the trace formats.

#include <cstdint>

#include "trace/io/writer.h"

namespace gms::trace {

/// The address pattern of a synthetic trace.
enum class SyntheticPattern : std::uint8_t {
  UnitStride,  ///< copy kernel: LDG and STG of 4-byte elements, strided form, full warps
  Random,  ///< 8-byte gathers/scatters at random addresses in 1 GiB, list form, some partial masks
};

/// Writes one kernel (`kernel_id`) of `records` records of `pattern` to `w`, in batches; the same
/// seed gives the same trace. Does not call finish().
void write_synthetic_kernel(TraceWriter& w, SyntheticPattern pattern, std::uint64_t records,
                            std::uint32_t kernel_id = 1, std::uint64_t seed = 42);

}  // namespace gms::trace
