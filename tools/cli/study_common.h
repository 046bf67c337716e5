#pragma once
/// Plumbing the study commands (sweep, merge, compare, validate) share: where presets are
/// looked up, and a progress bar on standard error.

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "tools/study/sweep.h"

namespace gms::cli {

/// Where `preset=NAME` and `--config NAME` look for NAME.ini: gms::preset_dirs() of this
/// program (tools/study/presets.h).
std::vector<std::string> default_preset_dirs();

/// `--config` values: an existing file as is, otherwise a preset name.
std::vector<std::string> resolve_config_args(const std::vector<std::string>& args);

/// A one-line progress bar on standard error (percent, points, records/s, ETA), redrawn by its
/// own thread a few times a second from SweepProgress; shown only when standard error is a
/// terminal and `enabled`. Stops (and clears its line) when destroyed.
class ProgressBar {
 public:
  ProgressBar(const SweepProgress& progress, bool enabled);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

 private:
  void draw(double elapsed_s, bool final_line) const;

  const SweepProgress& progress_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace gms::cli
