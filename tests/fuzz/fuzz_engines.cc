// libFuzzer target: the replay engines against each other. The input drives every choice of a
// small random configuration (a preset under the random overrides of tests/e2e/random_trace.h,
// then an L2 of a few sets per slice and at most 16 SMs, where those are valid) and of a random
// trace (random_trace_from: every operation, size, mask and address form; at most 300 records
// a kernel). The trace is replayed in one mode and one order (--order) by the reference engine
// (sim/replay/reference_engine.h, its own plain model) and by the fast one on one, two and three
// threads, and again on two and three from a .gmt copy of small blocks (which cold workers deal
// among themselves); the whole outputs (tests/e2e/whole_report.h) must be equal. A difference is a
// finding, and so is an error: the input is valid by construction, so a replay that fails (even all
// three alike) has a bug.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/error.h"
#include "sim/replay/simulator.h"
#include "tests/e2e/random_trace.h"
#include "tests/e2e/whole_report.h"
#include "tests/fuzz/fuzz_support.h"
#include "tests/trace/gmt_in_blocks.h"

namespace gms::fuzz {
namespace {

/// The choices of random_trace_from and random_overrides, taken from the input: each draw uses
/// the input's next two bytes (mixed by splitmix64 with the draw's number, so that every value a
/// mutation gives them is a different choice); once the input is used up, the draws go on
/// pseudo-randomly from the draw's number, so that a short input still makes a whole trace.
class InputRng {
 public:
  InputRng(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::uint64_t next() {
    std::uint64_t x = ++draws_ * 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 2 && pos_ < size_; ++i) x ^= std::uint64_t{data_[pos_++]} << (40 + 8 * i);
    // splitmix64's finaliser (Steele, Lea and Flood, OOPSLA 2014).
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  bool chance(unsigned percent) { return below(100) < percent; }
  template <class T, std::size_t N>
  const T& pick(const T (&items)[N]) {
    return items[below(N)];
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  std::uint64_t draws_ = 0;
};

/// The presets (configs/*.ini of the source tree), loaded once.
const std::vector<SimConfig>& presets() {
  static const std::vector<SimConfig> all = [] {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(GMS_SOURCE_DIR "/configs"))
      if (e.path().extension() == ".ini") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    std::vector<SimConfig> out;
    for (const std::string& f : files) out.push_back(load_config({{f}, {}}));
    if (out.empty()) std::abort();
    return out;
  }();
  return all;
}

/// Applies the ini `text` to `cfg` when it is valid there.
void try_apply(SimConfig& cfg, const std::string& text) {
  SimConfig trial = cfg;
  try {
    apply_config_text(trial, text, "fuzz overrides");
  } catch (const SimError&) {
    return;
  }
  cfg = trial;
}

SimConfig random_small_config(InputRng& r) {
  SimConfig cfg = presets()[r.below(presets().size())];
  for (const std::vector<std::string>& group : test::random_overrides(r)) {
    std::string ini;
    for (const std::string& o : group) ini += o + "\n";
    try_apply(cfg, ini);
  }
  // A few sets per slice (evictions and write-backs within a short trace; a small state to
  // build per replay) and few SMs.
  // (A size of a whole number of KiB: 2 to 16 sets where that gives one, else 16.)
  for (const std::uint64_t sets : {std::uint64_t{2} << r.below(4), std::uint64_t{16}}) {
    const std::uint64_t bytes =
        std::uint64_t{cfg.l2.slices} * cfg.l2.ways * cfg.l2.line_bytes * sets;
    if (bytes % 1024 != 0 || bytes / 1024 >= cfg.l2.size_kb) continue;
    try_apply(cfg, "[l2]\nsize_kb = " + std::to_string(bytes / 1024) + "\n");
    break;
  }
  if (cfg.gpu.sm_count > 16)
    try_apply(cfg, "[gpu]\nsm_count = " + std::to_string(1 + r.below(16)) + "\n");
  return cfg;
}

/// `trace` (wtrace text) with at most `cap` records per kernel: each input then replays in well
/// under a second under the sanitizers (random_trace_from makes up to 3,200 a kernel).
std::string capped(const std::string& trace, unsigned cap) {
  std::string out;
  unsigned records = 0;
  for (std::size_t at = 0; at < trace.size();) {
    const std::size_t end = std::min(trace.find('\n', at), trace.size());
    const std::string_view line(trace.data() + at, end - at);
    if (line.starts_with("#kernel")) records = 0;
    if (line.starts_with("#") || records++ < cap) (out += line) += '\n';
    at = end + 1;
  }
  return out;
}

std::string replay(const std::string& trace, const SimConfig& cfg, const RunOptions& opts) {
  try {
    return test::report_text(simulate(std::vector<std::string>{trace}, cfg, opts), cfg);
  } catch (const SimError& e) {
    return std::string("error: ") + e.what() + "\n";
  }
}

[[noreturn]] void finding(const char* what, const std::string& a, const std::string& b) {
  std::size_t at = 0;
  while (at < a.size() && at < b.size() && a[at] == b[at]) ++at;
  const std::size_t from = at > 200 ? at - 200 : 0;
  std::fprintf(stderr, "fuzz_engines: %s\n--- reference, from byte %zu:\n%s\n--- other:\n%s\n",
               what, from, a.substr(from, 400).c_str(), b.substr(from, 400).c_str());
  __builtin_trap();
}

}  // namespace
}  // namespace gms::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gms;
  fuzz::InputRng r(data, size);
  const SimConfig cfg = fuzz::random_small_config(r);
  const std::string trace = (fuzz::work_dir() / "engines.wtrace").string();
  std::ofstream(trace) << fuzz::capped(test::random_trace_from(r), 300);
  RunOptions opts;
  static const SimMode kModes[] = {SimMode::Cold, SimMode::Cached, SimMode::Both};
  opts.mode = r.pick(kModes);
  // Every order (sim/model/warp_scheduler.h): the engines' schedulers must agree too.
  static const ReplayOrder kOrders[] = {ReplayOrder::File, ReplayOrder::Lockstep,
                                        ReplayOrder::Timed};
  opts.order = r.pick(kOrders);
  opts.keep_unit_traffic = true;
  opts.engine = Engine::Reference;
  const std::string reference = fuzz::replay(trace, cfg, opts);
  if (reference.starts_with("error: ")) fuzz::finding("the reference failed", reference, "");
  opts.engine = Engine::Fast;
  opts.read_ahead = r.chance(50);
  opts.cached_batch_lines = r.chance(50) ? 0 : 1 + r.below(300);
  // Two workers: the pipeline, its slices handed round every window or where its timings say;
  // three: the SMs split.
  opts.cycle_pipeline_shares = r.chance(50);
  // The pipeline reading a .gmt file itself: its reading (and a turning share of the coalescing)
  // moved to a thread after window 1 to 3, or where its timings say.
  opts.pipeline_reads_ahead_at = r.chance(50) ? 1 + r.below(3) : 0;
  // And the same trace as a .gmt file of small blocks, which cold workers deal among themselves.
  const std::string gmt =
      test::gmt_in_blocks(trace, (fuzz::work_dir() / "engines.gmt").string(), 64 + r.below(4096));
  const std::pair<const std::string*, unsigned> runs[] = {
      {&trace, 1}, {&trace, 2}, {&trace, 3}, {&gmt, 2}, {&gmt, 3}};
  for (const auto& [path, threads] : runs) {
    opts.threads = threads;
    const std::string fast = fuzz::replay(*path, cfg, opts);
    if (fast != reference) {
      const std::string what =
          fmt::format("the fast engine ({} thread{}{}) differs", threads, threads == 1 ? "" : "s",
                      path == &gmt ? ", .gmt blocks" : "");
      fuzz::finding(what.c_str(), reference, fast);
    }
  }
  return 0;
}
