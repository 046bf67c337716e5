#pragma once
/// The diagnosis pass: one read of a trace that classifies every execution of every memory
/// instruction (sim/diagnosis/pattern.h) and summarises them per instruction. Separate from the
/// replay, so a normal run's counts and outputs never depend on it.

#include <cstdint>
#include <vector>

#include "sim/config/config.h"
#include "sim/diagnosis/pattern.h"
#include "sim/replay/run_options.h"
#include "trace/io/reader.h"

namespace gms {

struct KernelPatterns {
  KernelInfo kernel;
  /// One per static instruction (inst, op, size), in order of first appearance, as the run's
  /// KernelStats::instructions.
  std::vector<PatternSummary> instructions;
  /// The highest byte a global or local access of the kernel reaches (0 when none).
  Addr highest_address = 0;

  /// The summary of (inst, op, size); null when the kernel has none.
  const PatternSummary* find(std::uint32_t inst, Op op, std::uint8_t size) const;
};

/// Classifies every record of the kernels of `reader` that a replay with `opts` replays
/// (opts.kernel_ids, as replays_kernel reads them).
std::vector<KernelPatterns> diagnose(trace::TraceReader& reader, const SimConfig& cfg,
                                     const RunOptions& opts = {});

}  // namespace gms
