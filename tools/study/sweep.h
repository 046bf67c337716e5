#pragma once
/// Sweeps: the cross product of configuration values over traces, run in parallel, written as
/// one tidy CSV (one row per trace x configuration x kernel, or x instruction). Shards of a
/// sweep (`--shard I/N`) are deterministic slices whose CSVs merge_sweep_csv() joins into the
/// bytes a single run writes.
///
///   SweepSpec s;
///   s.traces = {"t.wtrace"};
///   s.axes = {parse_sweep_axis("coalescer.segment_bytes=32,64,128")};
///   std::string csv = run_sweep_csv(s, {}, 4);

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/error.h"
#include "sim/core/logger_ready.h"
#include "sim/replay/simulator.h"
#include "tools/study/presets.h"  // find_preset (preset=NAME)

namespace gms {

/// Runs `worker` on `threads` threads (on the calling one when `threads` <= 1) and returns when
/// every one has: the sweep's pools of points and of one-pass groups.
template <class Worker>
void run_on_threads(std::size_t threads, Worker& worker) {
  if (threads <= 1) {
    worker();
    return;
  }
  make_logger_before_threads();
  std::vector<std::jthread> pool;
  for (std::size_t i = 0; i < threads; ++i) pool.emplace_back(worker);
}

class SweepJournal;

/// One varied key and its values, in the order given. The key "preset" names configs/<v>.ini
/// files, applied after the base configuration and before every other key.
struct SweepAxis {
  std::string key;
  std::vector<std::string> values;
};

/// Parses "key=v1,v2,..." (values split at ';' instead when the list holds one, for list-valued
/// keys such as l1.carveouts_kb). Checks the key exists (or is "preset"); throws SimError.
SweepAxis parse_sweep_axis(const std::string& spec);

/// Which slice of the points a run computes: point p belongs to shard p mod count.
struct SweepShard {
  std::size_t index = 0;
  std::size_t count = 1;
};

/// Parses "I/N" with 0 <= I < N; throws SimError.
SweepShard parse_sweep_shard(const std::string& text);

struct SweepSpec {
  std::vector<std::string> traces;
  ConfigSources base;  ///< files and --set overrides under every configuration
  std::vector<SweepAxis> axes;
  SimMode mode = SimMode::Cold;
  bool per_instruction = false;
  std::vector<std::string> preset_dirs;  ///< where preset=NAME looks for NAME.ini, in order
  /// One replay per point even where one pass would give the same rows (sweep_onepass.h).
  bool separate_runs = false;
};

/// Configurations = product of the axis sizes (1 with no axis); points = traces x configurations,
/// numbered trace-major: point = trace * configurations + configuration.
std::size_t sweep_configurations(const SweepSpec& spec);
std::size_t sweep_points(const SweepSpec& spec);

/// The axis values of configuration `c` (the first axis varies slowest).
std::vector<std::string> sweep_values(const SweepSpec& spec, std::size_t c);

/// Builds configuration `c`: built-in preset, base files, the preset value (if varied), base
/// overrides, then the other varied keys. Throws SimError naming the key and value.
SimConfig sweep_config(const SweepSpec& spec, std::size_t c);

/// Counters a progress display reads while a sweep runs (updated once per batch of records and
/// once per point, never per record).
struct SweepProgress {
  std::atomic<std::uint64_t> records{0};           ///< records replayed so far, all workers
  std::atomic<std::uint64_t> finished_records{0};  ///< records of the finished points
  std::atomic<std::size_t> points_done{0};
  std::size_t points_total = 0;    ///< points of this shard; set before any work starts
  std::size_t points_resumed = 0;  ///< of them, taken from the journal; set before any work
};

/// Thrown by run_sweep_csv when a signal asked it to stop (a trace::StopRequestScope was alive):
/// every worker finished its current point first, and those points are in the journal, if any.
class SweepStopped : public SimError {
 public:
  SweepStopped(int signal, std::string message) : SimError(std::move(message)), signal_(signal) {}
  int signal() const { return signal_; }

 private:
  int signal_;
};

/// Runs the points of `shard` on `jobs` threads (0 = all cores) and returns the CSV text. The
/// text does not depend on `jobs`. Every configuration is built before any simulation starts, so
/// a bad key fails at once; the first failing point (in point order) is the error reported.
/// With a `journal`, it is started with the sweep's fingerprint (sweep_journal.h), the points it
/// already holds are not run again (their rows are taken from it; progress->points_resumed
/// counts them) and every point run is recorded in it as it ends; the text is the same.
/// trace::stop_requested() (a signal) makes the workers take no new point: SweepStopped.
std::string run_sweep_csv(const SweepSpec& spec, const SweepShard& shard, unsigned jobs,
                          SweepProgress* progress = nullptr, SweepJournal* journal = nullptr);

/// Joins shard CSVs (`texts[i]` read from `origins[i]`) into the CSV the unsharded sweep
/// writes. Throws SimError when the pieces come from different sweeps, a shard is missing or
/// repeated, or a row is out of place.
std::string merge_sweep_csv(const std::vector<std::string>& texts,
                            const std::vector<std::string>& origins);

/// The CSV rows of point `point`, whose replay gave `kernels` (progress: the point is done).
std::string sweep_point_rows(const SweepSpec& spec, std::size_t point,
                             const std::vector<KernelStats>& kernels, SweepProgress* progress);

/// The statistic columns of a sweep row, after the identifying ones.
std::vector<std::string> sweep_stat_columns();

}  // namespace gms
