#pragma once
/// The replay driver: streams a trace through the coalescer, the shared-memory arbiter and (in
/// cached mode) the memory hierarchy, and accumulates per-instruction and per-kernel statistics.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "trace/io/reader.h"

namespace gms {

/// cold: every access misses everywhere (the notes' model); cached: L1/L2/DRAM; both: each
/// kernel twice, cold then cached, from one pass over the trace.
enum class SimMode { Cold, Cached, Both };

/// Parses "cold", "cached" or "both"; throws SimError otherwise.
SimMode parse_sim_mode(const std::string& name);

/// Which replay produces the results (the same, byte for byte: a test compares them on every
/// trace, preset and mode). fast: the memo, batches and shortcuts of this file's engine;
/// reference: sim/replay/reference_engine.h, record by record in trace order, the model's
/// executable specification.
enum class Engine { Fast, Reference };

struct RunOptions {
  std::vector<std::uint32_t> kernel_ids;  ///< replay only these kernels (empty = all)
  SimMode mode = SimMode::Cold;
  std::map<std::uint32_t, std::uint64_t> flops;  ///< FLOPs per kernel id, over the trace's flops=
  /// Read and decode the trace on a second thread, ahead of the replay (same results), unless
  /// its records decode cheaply (TraceReader::decodes_cheaply: compact .gmt records) or it is
  /// standard input. Off
  /// where the caller already runs one replay per core (sweeps).
  bool read_ahead = true;
  /// Cached mode replays L2 accesses in batches of this many, one slice's share at a time
  /// (sim/model/line_batch.h); 0 replays each as it comes. The results are the same: a test
  /// compares them. On the H200 preset 2^16 replayed the scattered benchmark trace 1.4x and the
  /// stream 1.2x faster than none; 2^14, 2^15, 2^17 and 2^18 were slower (bench/RESULTS.md).
  std::size_t cached_batch_lines = std::size_t{1} << 16;
  Engine engine = Engine::Fast;
  /// The fast engine's threads: above 1, the parallel replay (sim/replay/parallel_engine.h), with
  /// the same results, where the configuration allows it exactly (parallel_replay_exact); else,
  /// and with the reference engine, the replay runs on one thread.
  unsigned threads = 1;
  /// Keep each kernel's per-unit traffic (TrafficProfile's vectors) in the results; by default
  /// they are dropped once the time estimate is made (tests compare them).
  bool keep_unit_traffic = false;
};

/// Replays every (selected) kernel of `reader` with opts.engine and returns their statistics in
/// trace order (in mode both: each kernel's cold entry, then its cached one). Memory use does not
/// grow with the number of records. Calls of simulate() are independent: the caches start empty.
std::vector<KernelStats> simulate(trace::TraceReader& reader, const SimConfig& cfg,
                                  const RunOptions& opts = {});

/// The same over several traces as one stream of kernels (the L2 may persist from one trace's
/// last kernel into the next trace's first).
std::vector<KernelStats> simulate(const std::vector<std::string>& traces, const SimConfig& cfg,
                                  const RunOptions& opts = {});

}  // namespace gms
