// The threads rule (sim/replay/thread_choice.h) and the dispatcher that applies it
// (sim/replay/simulator.h): the threads it picks, and that a chosen count replays exactly what
// one thread does.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "sim/config/config.h"
#include "sim/core/error.h"
#include "sim/replay/run_options.h"
#include "sim/replay/simulator.h"
#include "sim/replay/thread_choice.h"
#include "tests/e2e/report_text.h"
#include "tests/test_paths.h"
#include "tests/trace/gmt_in_blocks.h"

namespace gms {
namespace {

/// A wtrace of `records` full-warp 4-byte loads, lane i at base + i * stride, one warp per CTA. The
/// file's name carries the process and the test, since CTest runs these tests side by side; the
/// files are removed when the process ends.
std::string write_trace(const std::string& name, std::int64_t stride, int records) {
  struct RemovedAtExit {
    std::vector<std::filesystem::path> files;
    ~RemovedAtExit() {
      std::error_code ec;
      for (const auto& f : files) std::filesystem::remove(f, ec);
    }
  };
  static RemovedAtExit written;
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const auto path = std::filesystem::temp_directory_path() /
                    fmt::format("{}_{}_{}", ::getpid(), test->name(), name);
  written.files.push_back(path);
  std::ofstream out(path);
  out << "#wtrace 1\n#kernel id=1 name=k grid=64,1,1 block=32,1,1 shmem=4096\n";
  for (int r = 0; r < records; ++r) {
    out << fmt::format("0 LDG 4 - {} 0 ffffffff @0x{:x}:{}\n", r % 64,
                       0x7f0000000000ull + static_cast<unsigned long long>(r) * 32 * 4096, stride);
  }
  return path.string();
}

unsigned cores() {
  return std::max(1u, std::thread::hardware_concurrency());
}

TEST(ThreadChoiceTest, ACachedReplayTakesTwoAndAColdOneEveryCoreAnImportTheOtherWayRound) {
  const SimConfig cfg = load_config({});
  const std::string scattered = write_trace("gms_choice_scattered.wtrace", 128, 200);
  const std::string unit = write_trace("gms_choice_unit.wtrace", 4, 200);
  RunOptions opts;
  opts.threads = 0;
  opts.max_threads = 2;
  opts.mode = SimMode::Cached;
  EXPECT_EQ(replay_threads(cfg, opts, {scattered}), std::min(2u, cores()));
  opts.mode = SimMode::Both;
  EXPECT_EQ(replay_threads(cfg, opts, {scattered}), std::min(2u, cores()));
  opts.max_threads = 0;  // one per core: still the pipeline of two, scattered warps too
  EXPECT_EQ(replay_threads(cfg, opts, {scattered}), std::min(2u, cores()));
  EXPECT_EQ(replay_threads(cfg, opts, {unit}), std::min(2u, cores()));
  EXPECT_EQ(replay_threads(cfg, opts, {}), std::min(2u, cores()));     // a reader without a path
  EXPECT_EQ(replay_threads(cfg, opts, {"-"}), std::min(2u, cores()));  // standard input
  opts.max_threads = 1;
  EXPECT_EQ(replay_threads(cfg, opts, {unit}), 1u);
  opts.max_threads = 0;
  // Cold: one per core for plain .gmt files (the workers deal their blocks), else one.
  opts.mode = SimMode::Cold;
  EXPECT_EQ(replay_threads(cfg, opts, {scattered}), 1u);
  const std::string gmt = test::gmt_in_blocks(unit, unit + ".gmt", 4096);
  EXPECT_EQ(replay_threads(cfg, opts, {gmt}), cores());
  EXPECT_EQ(replay_threads(cfg, opts, {gmt, gmt}), cores());
  EXPECT_EQ(replay_threads(cfg, opts, {gmt, scattered}), 1u);
  EXPECT_EQ(replay_threads(cfg, opts, {"-"}), 1u);
  EXPECT_EQ(replay_threads(cfg, opts, {}), 1u);
  std::filesystem::remove(gmt);
  // Two for an uncompressed Accel-Sim text (its blocks parsed on the second), else one.
  const std::string traceg = test::data_path("accelsim/tiled_matmul/kernel-1.traceg");
  const std::string list = test::data_path("accelsim/tiled_matmul/kernelslist.g");
  EXPECT_EQ(replay_threads(cfg, opts, {traceg}), std::min(2u, cores()));
  EXPECT_EQ(replay_threads(cfg, opts, {list, traceg}), std::min(2u, cores()));
  EXPECT_EQ(replay_threads(cfg, opts, {traceg, scattered}), 1u);
  EXPECT_EQ(replay_threads(cfg, opts,
                           {test::data_path("thirdparty/mgpusim_vectoradd_v5/kernel-1.traceg.xz")}),
            1u);
  opts.mode = SimMode::Cached;  // the import's replay is its parse: the pipeline does not pay
  EXPECT_EQ(replay_threads(cfg, opts, {traceg}), 1u);
  EXPECT_EQ(replay_threads(cfg, opts, {traceg, scattered}), std::min(2u, cores()));
  opts.mode = SimMode::Both;
  EXPECT_EQ(replay_threads(cfg, opts, {list}), 1u);

  opts.mode = SimMode::Cached;
  SimConfig rows = cfg;  // the row model: the parallel replay is not exact
  apply_config_text(rows, "[dram]\nrow_model = true\n", "test");
  EXPECT_EQ(replay_threads(rows, opts, {scattered}), 1u);
  opts.engine = Engine::Reference;
  EXPECT_EQ(replay_threads(cfg, opts, {scattered}), 1u);
  opts.engine = Engine::Fast;
  opts.threads = 3;  // asked for: taken as it is
  EXPECT_EQ(replay_threads(cfg, opts, {unit}), 3u);
}

TEST(ThreadChoiceTest, AChosenCountReplaysWhatOneThreadDoes) {
  const SimConfig cfg = load_config({});
  const std::string scattered = write_trace("gms_choice_scattered.wtrace", 128, 500);
  for (const SimMode mode : {SimMode::Cold, SimMode::Cached, SimMode::Both}) {
    RunOptions one;
    one.mode = mode;
    RunOptions chosen = one;
    chosen.threads = 0;
    const std::vector<std::string> traces{scattered};
    EXPECT_TRUE(test::same_text(test::replay_text(traces, cfg, one),
                                test::replay_text(traces, cfg, chosen), "chosen threads"));
  }
}

TEST(ThreadChoiceTest, ManyConfigurationsGiveWhatSeparateRunsGive) {
  const std::string unit = write_trace("gms_choice_unit.wtrace", 4, 300);
  std::vector<SimConfig> cfgs;
  for (const char* kb : {"l2.size_kb=1536", "l2.size_kb=3072"})
    cfgs.push_back(load_config({{}, {"l2.partitions=1", kb}}));
  RunOptions opts;
  opts.mode = SimMode::Both;
  for (const Engine engine : {Engine::Auto, Engine::OnePass, Engine::Fast, Engine::Reference}) {
    opts.engine = engine;
    const std::vector<std::vector<KernelStats>> many = simulate_many({unit}, cfgs, opts);
    ASSERT_EQ(many.size(), cfgs.size());
    for (std::size_t c = 0; c < cfgs.size(); ++c) {
      RunOptions alone = opts;
      alone.engine = Engine::Fast;
      EXPECT_EQ(test::report_text(many[c], cfgs[c]),
                test::report_text(simulate({unit}, cfgs[c], alone), cfgs[c]))
          << engine_name(engine) << ", configuration " << c;
    }
  }
  // A key other than a capacity differs: the one pass is refused with the reason.
  cfgs.push_back(load_config({{}, {"l2.partitions=1", "coalescer.segment_bytes=64"}}));
  opts.engine = Engine::OnePass;
  EXPECT_THROW(simulate_many({unit}, cfgs, opts), SimError);
  opts.engine = Engine::Auto;  // separate runs instead
  EXPECT_EQ(simulate_many({unit}, cfgs, opts).size(), 3u);
}

TEST(ThreadChoiceTest, EngineNamesParseBack) {
  for (const Engine e : {Engine::Auto, Engine::Fast, Engine::Reference, Engine::OnePass})
    EXPECT_EQ(parse_engine(std::string(engine_name(e))), e);
  EXPECT_THROW(parse_engine("quick"), SimError);
}

}  // namespace
}  // namespace gms
