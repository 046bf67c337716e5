#pragma once
/// Plumbing the study commands (sweep, merge, compare, validate) share: where presets are
/// looked up, and a progress bar on standard error.

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "sim/config/config.h"
#include "tools/cli/options.h"
#include "tools/study/sweep.h"

namespace gms::cli {

/// Where `preset=NAME` and `--config NAME` look for NAME.ini: gms::preset_dirs() of this
/// program (tools/study/presets.h).
std::vector<std::string> default_preset_dirs();

/// `--config` values: an existing file as is, otherwise a preset name.
std::vector<std::string> resolve_config_args(const std::vector<std::string>& args);

/// `--config NAME|FILE` (repeatable) and `--set KEY=VALUE` (repeatable), as run, explain and
/// validate take them.
void add_config_options(po::options_description& options);

/// The configuration those options name: the built-in preset, then each --config in order, then
/// each --set.
SimConfig config_from_options(const po::variables_map& vm);

/// A one-line progress bar on standard error (percent, work done, rate, ETA), redrawn by its own
/// thread a few times a second; shown only when standard error is a terminal and `enabled`.
/// Stops (and clears its line) when destroyed. Two kinds of work:
/// - a sweep: points done of SweepProgress's total, records replayed per second;
/// - one pass over trace files (run, convert, info): the file bytes read since the bar started
///   (trace::input_bytes_read()) of `total_bytes`; with total_bytes 0 (standard input) it shows
///   the bytes and the rate, without a fraction or ETA.
class ProgressBar {
 public:
  ProgressBar(const SweepProgress& progress, bool enabled);
  ProgressBar(std::uint64_t total_bytes, bool enabled);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

 private:
  void start(bool enabled);
  void draw(double elapsed_s, bool final_line) const;

  const SweepProgress* progress_ = nullptr;
  std::uint64_t total_bytes_ = 0, start_bytes_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace gms::cli
