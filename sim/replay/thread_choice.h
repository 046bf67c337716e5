#pragma once
/// The one rule for how many threads a replay takes when the caller leaves it to the program
/// (RunOptions::threads = 0: `gpumemsim run` without --threads, the Python module's
/// threads=None, a sweep with cores to spare).
///
/// Cold replays of plain .gmt files (trace::plain_gmt_file, read from their first 8 bytes) take
/// one thread per core (at most max_threads): the workers deal the files' blocks
/// (TraceReader::share_blocks), each reads and replays its own, nothing passes between cores but
/// each kernel's sums, and two workers replayed the 2-core machine's cold .gmt cases 1.2x-1.9x
/// as fast as one (bench/RESULTS.md, "Cold replays by blocks"). Other cold replays take one:
/// their records would be read by one worker anyway (fast_engine.h), and more would only add a
/// phase per kernel.
///
/// A cached or both-mode replay takes at least two: two workers form a pipeline (fast_engine.h),
/// one core reading and replaying the L1s while the other replays the L2, which on the 2-core
/// machine was 1.0x-1.1x (a matrix product, mostly coalescing; an Accel-Sim import, mostly
/// parsing) to 1.5x-2.0x (streams, scattered warps) as fast as one worker, by median
/// (bench/RESULTS.md, "The pipeline's windows grow"). Past two, the workers split the SMs and
/// slices (every one both reads L1 and L2), which paid on scattered warps (1.5x-1.7x on 2 cores,
/// bench/RESULTS.md "Parallel replay") but not on regular traces: so a cached replay whose global
/// accesses touch, on average, at least kScatteredSectors distinct 32-byte sectors per record over
/// its first records takes one thread per core (at most max_threads), and every other one, and
/// every trace that cannot be read twice (standard input, a reader handed over by the caller), two.

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
/// Mean distinct sectors per record from which a cached replay takes every core (past two): half a
/// warp of lanes in sectors of their own (a unit-stride 4-byte load touches 4, a scattered warp
/// 32).
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
