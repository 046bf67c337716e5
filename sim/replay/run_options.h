#pragma once
/// What a replay is asked to do, apart from the machine (SimConfig) and the trace: the mode, the
/// kernels, the engine and its threads, and how the trace files are read. Parsed from the CLI and
/// the Python module by the functions here, so that both read the same words the same way.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "trace/import/formats.h"
#include "trace/import/import_options.h"

namespace gms {

/// cold: every access misses everywhere (the notes' model); cached: L1/L2/DRAM; both: each
/// kernel twice, cold then cached, from one pass over the trace.
enum class SimMode { Cold, Cached, Both };

/// Parses "cold", "cached" or "both"; throws SimError otherwise.
SimMode parse_sim_mode(const std::string& name);

/// Which replay produces the results; every engine gives the same, byte for byte (the
/// differential tests compare them on every trace, preset and mode).
/// - Auto: chosen by simulate()/simulate_many() (sim/replay/simulator.h): one configuration
///   replays on the fast engine; several replay in one pass where that is exact, else one run
///   each.
/// - Fast: the coalescing memo, L2 batches and shortcuts, on RunOptions::threads threads.
/// - Reference: record by record in trace order (sim/replay/reference_engine.h), one thread.
/// - OnePass: several configurations that differ only in cache capacities in one replay
///   (sim/replay/onepass/engine.h); refused with the reason where that is not exact.
enum class Engine { Auto, Fast, Reference, OnePass };

/// Parses "auto", "fast", "reference" or "onepass"; throws SimError naming `what` otherwise.
Engine parse_engine(const std::string& name, std::string_view what = "--engine");

/// "auto", "fast", "reference" or "onepass".
std::string_view engine_name(Engine engine);

/// The order in which a cached replay takes each SM's records (`--order`):
/// - File: the trace's order (lockstep for captured and generated traces, warp after warp for
///   Accel-Sim ones): the replay of every earlier version.
/// - Lockstep: each SM's resident warps take turns, one record each (sim/model/warp_scheduler.h).
/// - Timed: the order of the warps' progress under the warp scheduler's timing rules
///   (sim/model/warp_scheduler.h); the kernel's time estimate comes from that schedule.
/// Cold mode's counts do not depend on the order: a cold-only run replays in file order.
enum class ReplayOrder : std::uint8_t { File, Lockstep, Timed };

/// Parses "file", "lockstep" or "timed"; throws SimError naming `what` otherwise.
ReplayOrder parse_order(const std::string& name, std::string_view what = "--order");

/// "file", "lockstep" or "timed".
std::string_view order_name(ReplayOrder order);

struct RunOptions {
  std::vector<std::uint32_t> kernel_ids;  ///< replay only these kernels (empty = all)
  SimMode mode = SimMode::Cold;
  std::map<std::uint32_t, std::uint64_t> flops;  ///< FLOPs per kernel id, over the trace's flops=
  /// Read and decode the trace on a second thread, ahead of the replay (same results), unless
  /// its records decode cheaply (TraceReader::decodes_cheaply: compact .gmt records) or it is
  /// standard input. Off where the caller already runs one replay per core (sweeps).
  bool read_ahead = true;
  /// Cached mode replays L2 accesses in batches of this many, one slice's share at a time
  /// (sim/replay/fast/line_batch.h); 0 replays each as it comes. The results are the same: a test
  /// compares them. On the H200 preset 2^16 replayed the scattered benchmark trace 1.4x and the
  /// stream 1.2x faster than none; 2^14, 2^15, 2^17 and 2^18 were slower (bench/RESULTS.md).
  std::size_t cached_batch_lines = std::size_t{1} << 16;
  Engine engine = Engine::Auto;
  /// The order of a cached replay's records (ReplayOrder). Lockstep and timed replay on one
  /// thread (the fast engine's workers need the file's order) and not on the one-pass engine.
  ReplayOrder order = ReplayOrder::File;
  /// The fast engine's threads (the results are the same for any number). 0: the program
  /// chooses (replay_threads, sim/replay/thread_choice.h), at most max_threads. Above 1, that
  /// many workers (sim/replay/fast_engine.h) where the configuration allows it exactly
  /// (parallel_replay_exact); else, and with the reference engine, one thread.
  unsigned threads = 1;
  /// The most threads a choice (threads = 0) may take; 0: one per core.
  unsigned max_threads = 0;
  /// For tests: the two-worker pipeline (sim/replay/fast_engine.h) hands the reading worker one
  /// more of the L2's batch groups each window, round and round from none to all, instead of the
  /// share its timings ask for (the results are the same either way).
  bool cycle_pipeline_shares = false;
  /// For tests: the two-worker pipeline, reading a trace on its own thread, hands the reading
  /// to a thread of its own after this window of a kernel, which then coalesces a share of each
  /// batch that moves by 5 sixteenths (mod 17) each window, taking every share from none to all
  /// (0: both where its timings ask; the results are the same either way).
  std::size_t pipeline_reads_ahead_at = 0;
  /// Keep each kernel's per-unit traffic (TrafficProfile's vectors) in the results; by default
  /// they are dropped once the time estimate is made (tests compare them).
  bool keep_unit_traffic = false;
  /// How the trace files are read (`--trace-format`, `--strict`): every engine opens them through
  /// open_run_trace() below, so they all read a file alike.
  trace::TraceFormat trace_format = trace::TraceFormat::Auto;
  trace::ImportOptions import;
};

/// traces[i] opened as `opts` asks (trace_format, import; an Accel-Sim trace's load
/// dependencies only for a cached timed replay, the one that uses them).
std::unique_ptr<trace::TraceReader> open_run_trace(const std::string& path, const RunOptions& opts);
/// Several traces as one stream of kernels, as `opts` asks.
std::unique_ptr<trace::TraceReader> open_run_chain(const std::vector<std::string>& traces,
                                                   const RunOptions& opts);

}  // namespace gms
