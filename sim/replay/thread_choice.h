#pragma once
/// The one rule for how many threads a replay takes when the caller leaves it to the program
/// (RunOptions::threads = 0: `gpumemsim run` without --threads, the Python module's
/// threads=None, a sweep with cores to spare).
///
/// The parallel replay pays only where a record's own work outweighs handing it between cores:
/// on the project's 2-core machine (bench/RESULTS.md, "Parallel replay" and "One replay core")
/// it was 1.73x faster on a cached replay of scattered warps (32 sectors each, 1 GiB footprint)
/// and 0.76x-0.89x as fast on cold replays and on cached replays of regular or L1-resident
/// traces. So the choice reads the first records of the trace: a cached replay (modes cached and
/// both) whose global accesses touch, on average, at least kScatteredSectors distinct 32-byte
/// sectors per record takes one thread per core (at most max_threads); everything else, and
/// every trace that cannot be read twice (standard input, a reader handed over by the caller),
/// one.

#include <cstddef>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/replay/run_options.h"

namespace gms {

/// What the rule reads of a trace.
struct TraceSample {
  std::size_t records = 0;        ///< global-memory records read (shared-memory ones skipped)
  double sectors_per_record = 0;  ///< their mean count of distinct 32-byte sectors
};

/// Records the rule reads at most (shared-memory ones included), from the first kernels of the
/// first trace.
inline constexpr std::size_t kSampleRecords = 4096;
/// Kernels the rule opens at most (a trace of many empty kernels is not read to its end).
inline constexpr std::size_t kSampleKernels = 64;
/// Mean distinct sectors per record from which a cached replay takes every core: half a warp of
/// lanes in sectors of their own (a unit-stride 4-byte load touches 4, a scattered warp 32).
inline constexpr double kScatteredSectors = 16;

/// The global records among the first kSampleRecords records of traces[0] (none for an empty
/// list or standard input), read as `opts` asks (trace_format, import) but quietly.
TraceSample sample_trace(const std::vector<std::string>& traces, const RunOptions& opts = {});

/// The threads a replay of `traces` (empty: a reader with no path) with `cfg` and `opts` runs
/// on: opts.threads when it is not 0, else the rule above. Reads the trace's first records only
/// when the rule needs them.
unsigned replay_threads(const SimConfig& cfg, const RunOptions& opts,
                        const std::vector<std::string>& traces);

}  // namespace gms
