#include "tools/cli/study_common.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "tools/study/presets.h"
#include "trace/io/input_progress.h"

namespace gms::cli {

std::vector<std::string> default_preset_dirs() {
  return preset_dirs(program_preset_dirs(current_program()));
}

std::vector<std::string> resolve_config_args(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  const std::vector<std::string> dirs = default_preset_dirs();
  for (const std::string& a : args) out.push_back(find_preset(a, dirs));
  return out;
}

void add_config_options(po::options_description& options) {
  options.add_options()("config", po::value<std::vector<std::string>>()->composing(),
                        "preset or configuration file (.ini); several are applied in order over "
                        "the built-in hopper-h200 preset")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override one key: --set section.key=value (see docs/config.md)");
}

SimConfig config_from_options(const po::variables_map& vm) {
  ConfigSources sources;
  if (vm.count("config"))
    sources.files = resolve_config_args(vm["config"].as<std::vector<std::string>>());
  if (vm.count("set")) sources.overrides = vm["set"].as<std::vector<std::string>>();
  return load_config(sources);
}

ProgressBar::ProgressBar(const SweepProgress& progress, bool enabled) : progress_(&progress) {
  start(enabled);
}

ProgressBar::ProgressBar(std::uint64_t total_bytes, bool enabled)
    : total_bytes_(total_bytes), start_bytes_(trace::input_bytes_read().load()) {
  start(enabled);
}

void ProgressBar::start(bool enabled) {
  if (!enabled || ::isatty(STDERR_FILENO) == 0) return;
  thread_ = std::thread([this] {
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    // Redraw every 250 ms; look for the stop request every 25 ms so that a short run ends at once.
    for (int tick = 1; !stop_.load(); ++tick) {
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
      if (tick % 10 == 0) draw(elapsed(), false);
    }
    draw(elapsed(), true);
  });
}

ProgressBar::~ProgressBar() {
  if (!thread_.joinable()) return;
  stop_.store(true);
  thread_.join();
}

void ProgressBar::draw(double elapsed_s, bool final_line) const {
  double fraction = -1;  // unknown
  std::string work, rate;
  if (progress_ != nullptr) {
    const std::uint64_t records = progress_->records.load(std::memory_order_relaxed);
    const std::size_t done = progress_->points_done.load(std::memory_order_relaxed);
    const std::size_t total = std::max<std::size_t>(progress_->points_total, 1);
    // Records of the whole run, estimated from the finished points.
    fraction = static_cast<double>(done) / total;
    if (done > 0 && done < total) {
      const double per_point =
          static_cast<double>(progress_->finished_records.load(std::memory_order_relaxed)) / done;
      if (per_point > 0) fraction = std::min(0.999, records / (per_point * total));
    }
    work = fmt::format("{}/{} points", done, total);
    rate = fmt::format("{:.3g} records/s", elapsed_s > 0 ? records / elapsed_s : 0);
  } else {
    const double read = static_cast<double>(trace::input_bytes_read().load() - start_bytes_);
    constexpr double kMiB = 1024.0 * 1024.0;
    // A list file (Accel-Sim's kernelslist.g) names more files than its own size counts.
    if (total_bytes_ > 0 && read <= static_cast<double>(total_bytes_)) {
      fraction = read / static_cast<double>(total_bytes_);
      work = fmt::format("{:.1f}/{:.1f} MiB", read / kMiB, total_bytes_ / kMiB);
    } else {
      work = fmt::format("{:.1f} MiB read", read / kMiB);
    }
    rate = fmt::format("{:.3g} MiB/s", elapsed_s > 0 ? read / kMiB / elapsed_s : 0);
  }
  std::string eta = "--:--";
  if (fraction > 0.001 && fraction < 1) {
    const auto left = static_cast<long>(elapsed_s * (1 - fraction) / fraction);
    eta = fmt::format("{}:{:02}", left / 60, left % 60);
  }
  constexpr int kWidth = 28;
  std::string line;
  if (fraction < 0) {
    line = fmt::format("\r{}  {}  ", work, rate);
  } else {
    const int filled = static_cast<int>(fraction * kWidth);
    line = fmt::format("\r[{}{}] {:5.1f}%  {}  {}  ETA {}  ", std::string(filled, '#'),
                       std::string(kWidth - filled, '.'), 100 * fraction, work, rate, eta);
  }
  std::fputs(line.c_str(), stderr);
  if (final_line) std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
}

}  // namespace gms::cli
