#pragma once
/// The replay driver: streams a trace through the coalescer and the shared-memory arbiter and
/// accumulates per-instruction and per-kernel statistics.

#include <cstdint>
#include <vector>

#include "sim/config.h"
#include "sim/stats.h"
#include "trace/reader.h"

namespace gms {

struct RunOptions {
  std::vector<std::uint32_t> kernel_ids;  ///< replay only these kernels (empty = all)
};

/// Replays every (selected) kernel of `reader` in cold mode and returns their statistics in trace
/// order. Memory use does not grow with the number of records.
std::vector<KernelStats> simulate(trace::TraceReader& reader, const SimConfig& cfg,
                                  const RunOptions& opts = {});

}  // namespace gms
