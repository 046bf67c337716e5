// The fast engine (RunOptions::threads, sim/replay/fast_engine.h) must report the same, byte for
// byte, as the reference engine for any number of threads: on the suite's mixed traces and random
// traces, in every mode, with 1, 2, 3 and 8 threads.
// These tests are also built under ThreadSanitizer (.ci/tsan.sh).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <iterator>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/error.h"
#include "sim/host/thread_team.h"
#include "sim/replay/fast_engine.h"
#include "sim/replay/simulator.h"
#include "tests/e2e/mixed_traces.h"
#include "tests/e2e/random_trace.h"
#include "tests/e2e/report_text.h"
#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"
#include "tests/trace/gmt_in_blocks.h"
#include "trace/native/binary_format.h"

namespace gms {
namespace {

constexpr unsigned kThreadCounts[] = {1, 2, 3, 8};

/// The reference's report of `traces` (paths, or one path read through a reader) against the
/// fast engine's on every thread count, in `modes`; false after the first difference.
template <class Source = std::vector<std::string>>
bool thread_counts_agree(const Source& traces, const SimConfig& cfg, const std::string& what,
                         RunOptions opts = {}, std::span<const SimMode> modes = test::kAllModes) {
  for (const SimMode mode : modes) {
    opts.mode = mode;
    opts.engine = Engine::Reference;
    opts.threads = 1;
    const std::string reference = test::replay_text(traces, cfg, opts);
    opts.engine = Engine::Fast;
    for (const unsigned threads : kThreadCounts) {
      opts.threads = threads;
      if (!test::same_text(
              reference, test::replay_text(traces, cfg, opts),
              fmt::format("{}, mode {}, {} threads", what, test::mode_name(mode), threads)))
        return false;
    }
  }
  return true;
}

/// Whether the two-worker pipeline, its options changed by `vary`, replays `trace` in cached and
/// both modes as the reference engine does.
template <class Vary>
bool pipeline_agrees(const std::string& trace, const SimConfig& cfg, const std::string& what,
                     Vary vary) {
  for (const SimMode mode : {SimMode::Cached, SimMode::Both}) {
    RunOptions opts;
    opts.mode = mode;
    opts.engine = Engine::Reference;
    const std::string reference = test::replay_text(std::vector<std::string>{trace}, cfg, opts);
    opts.engine = Engine::Fast;
    opts.threads = 2;
    vary(opts);
    if (!test::same_text(reference, test::replay_text(std::vector<std::string>{trace}, cfg, opts),
                         fmt::format("{}, mode {}, {}", trace, test::mode_name(mode), what)))
      return false;
  }
  return true;
}

TEST(ParallelReplayTest, TheDefaultPresetReplaysInParallel) {
  // Otherwise the tests below would compare the sequential replay with itself.
  const SimConfig cfg = load_config({});
  EXPECT_TRUE(parallel_replay_exact(cfg));
  SimConfig rows = cfg;
  apply_config_text(rows, "[dram]\nrow_model = true\n", "test");
  EXPECT_FALSE(parallel_replay_exact(rows));
}

TEST(ParallelReplayTest, MixedTracesAgreeOnEveryThreadCountAndMode) {
  test::TempDir dir;
  const std::vector<std::string> traces = test::suite_traces(dir);
  // The mixed traces (the first three: more records than one batch of the parallel replay) on
  // two presets, the suite's small traces as one stream, and a sweep-like run of one kernel.
  for (const char* preset : {"hopper-h200", "ampere-a100"}) {  // A100: partitioned L2
    const SimConfig cfg =
        load_config({{test::source_path("configs/" + std::string(preset) + ".ini")}, {}});
    for (std::size_t t = 0; t < 3; ++t)
      ASSERT_TRUE(thread_counts_agree({traces[t]}, cfg, traces[t] + " on " + preset));
    ASSERT_TRUE(thread_counts_agree({traces.begin() + 3, traces.end()}, cfg,
                                    std::string("the suite's traces as one stream on ") + preset));
  }
  RunOptions one_kernel;
  one_kernel.kernel_ids = {1};
  one_kernel.flops[1] = 12345;
  EXPECT_TRUE(thread_counts_agree({traces[0]}, load_config({}), "kernel 1 only", one_kernel));
}

TEST(ParallelReplayTest, RandomTracesAgreeOnEveryThreadCountAndMode) {
  test::TempDir dir;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const std::string trace = dir.file("random" + std::to_string(seed) + ".wtrace");
    std::ofstream(trace) << test::random_trace(seed);
    // Seed 5 on the A100, whose L2 has partitions (workers own slices in both).
    SimConfig cfg = seed == 5 ? load_config({{test::source_path("configs/ampere-a100.ini")}, {}})
                              : load_config({});
    // Some with write-back-heavy small L2s, persisting across kernels, odd slice counts (one
    // partition: five slices do not split in two).
    if (seed % 2 == 0)
      apply_config_text(
          cfg, "[l2]\nsize_kb = 320\nslices = 5\npartitions = 1\npersist_across_kernels = true\n",
          "test");
    if (seed % 3 == 0)
      apply_config_text(cfg, "[l1]\npolicy = fifo\n[l2]\npolicy = random\n", "test");
    ASSERT_TRUE(thread_counts_agree({trace}, cfg, "random trace " + std::to_string(seed)));
  }
}

/// SMs that take turns on a small pool of lines, loads, stores and atomics of different
/// instructions: which of them hits, and which dirtied a line last, depends on the order in which
/// the L2 sees them, across the workers that own the SMs.
std::string shared_lines_trace() {
  std::string body = "#wtrace 1\n";
  const char* ops[] = {"LDG", "STG", "LDG", "ATOMG", "LDG", "STG", "RED"};
  for (int k = 0; k < 2; ++k) {
    body += fmt::format("#kernel id={} name=shared{} grid=64,1,1 block=128,1,1\n", k, k);
    for (std::uint64_t i = 0; i < 9000; ++i) {
      const std::uint64_t pool = i % 3 == 0 ? 4096 : 48;  // lines: beyond and within the L2
      const std::uint64_t line = (i * 2654435761u) % pool;
      body += fmt::format("{} {} 4 {} {} 0 {} @0x{:x}:4\n", i % 7, ops[i % 7], i % 5, i % 64,
                          i % 4 == 1 ? "0000ffff" : "ffffffff", 0x200000 + line * 128);
    }
  }
  return body;
}

TEST(ParallelReplayTest, SmsSharingLinesAgreeOnEveryThreadCountAndMode) {
  test::TempDir dir;
  const std::string trace = dir.file("shared.wtrace");
  std::ofstream(trace) << shared_lines_trace();
  SimConfig cfg = load_config({});
  apply_config_text(cfg, "[l2]\nsize_kb = 256\nslices = 4\n", "test");
  EXPECT_TRUE(thread_counts_agree({trace}, cfg, "SMs sharing lines"));
}

TEST(ParallelReplayTest, ThePipelinesL2SharesMoveWithoutChangingTheResults) {
  // Two workers form a pipeline whose reading worker takes a share of the L2's slices that
  // changes between windows: here one more slice each window of a few L2 accesses, round and
  // round, so that each slice changes hands many times within a kernel.
  test::TempDir dir;
  const std::string shared = dir.file("shared.wtrace");
  std::ofstream(shared) << shared_lines_trace();
  std::vector<std::pair<std::string, SimConfig>> cases;
  SimConfig small = load_config({});
  apply_config_text(small, "[l2]\nsize_kb = 256\nslices = 4\n", "test");
  cases.emplace_back(shared, small);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const std::string trace = dir.file("random" + std::to_string(seed) + ".wtrace");
    std::ofstream(trace) << test::random_trace(seed);
    cases.emplace_back(trace,
                       seed == 2 ? load_config({{test::source_path("configs/ampere-a100.ini")}, {}})
                                 : load_config({}));
  }
  for (const auto& [trace, cfg] : cases)
    for (const std::size_t lines : {3u, 40u})
      EXPECT_TRUE(pipeline_agrees(trace, cfg, fmt::format("windows of {} L2 accesses", lines),
                                  [&](RunOptions& opts) {
                                    opts.cached_batch_lines = lines;
                                    opts.cycle_pipeline_shares = true;
                                  }));
}

TEST(ParallelReplayTest, ThePipelinesReadingMovesToAThreadWithoutChangingTheResults) {
  // A pipeline reading a cheaply decoded .gmt file on its own thread hands the reading to a
  // thread of its own where worker 1 waits longer than the reading takes; here after a chosen
  // window of each kernel, in windows of a few L2 accesses, so that the move falls inside
  // kernels, at their ends and, for one-window kernels, not at all. The reading thread then
  // coalesces a share of each batch that turns through every value from none to all.
  test::TempDir dir;
  const std::vector<std::string> texts = test::suite_traces(dir);
  // Every trace, but under ThreadSanitizer (.ci/tsan.sh: this case took 172 of the stage's 379 s
  // on 2026-12-05) the three mixed traces and every eighth of the data files after them.
#if defined(__SANITIZE_THREAD__)
  constexpr std::size_t kSmallStep = 8;
#else
  constexpr std::size_t kSmallStep = 1;
#endif
  std::vector<std::string> gmts;
  for (std::size_t t = 0; t < texts.size(); ++t)
    if (t < 3 || (t - 3) % kSmallStep == 0)
      gmts.push_back(test::gmt_in_blocks(texts[t], dir.file(fmt::format("suite{}.gmt", t)), 4096));
  const SimConfig cfg = load_config({});
  for (const std::string& gmt : gmts)
    for (const std::size_t at : {1u, 2u, 5u})
      ASSERT_TRUE(pipeline_agrees(gmt, cfg, fmt::format("the reading moved after window {}", at),
                                  [&](RunOptions& opts) {
                                    opts.cached_batch_lines = 3;
                                    opts.pipeline_reads_ahead_at = at;
                                  }));
}

TEST(ParallelReplayTest, AnErrorIsTheSequentialReplaysError) {
  test::TempDir dir;
  const std::string trace = dir.file("bad.wtrace");
  std::ofstream(trace) << test::repeat_trace() << "3 LDG 4 0 0 0 ffffffff @0x100:4\n"
                       << "not a record\n";
  for (const SimMode mode : test::kAllModes) {
    RunOptions opts;
    opts.mode = mode;
    const std::string sequential =
        test::replay_text(std::vector<std::string>{trace}, load_config({}), opts);
    ASSERT_NE(sequential.find("error: "), std::string::npos) << sequential;
    for (const unsigned threads : {2u, 8u}) {
      opts.threads = threads;
      EXPECT_EQ(test::replay_text(std::vector<std::string>{trace}, load_config({}), opts),
                sequential);
    }
  }
}

TEST(ParallelReplayTest, ColdWorkersDealingAGmtFilesBlocksAgreeWithTheReference) {
  // Cold workers each read and replay their own blocks of a .gmt file (TraceReader::share_blocks)
  // and number the kernel's rows by where they first appear in the file.
  test::TempDir dir;
  std::vector<std::string> gmts;
  const std::vector<std::string> texts = test::suite_traces(dir);
  for (std::size_t t = 0; t < texts.size(); ++t)
    gmts.push_back(test::gmt_in_blocks(texts[t], dir.file(fmt::format("suite{}.gmt", t)), 1024));
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const std::string text = dir.file("random" + std::to_string(seed) + ".wtrace");
    std::ofstream(text) << test::random_trace(seed);
    gmts.push_back(
        test::gmt_in_blocks(text, dir.file(fmt::format("random{}.gmt", seed)), 256 << seed));
  }
  const SimConfig cfg = load_config({});
  const SimConfig a100 = load_config({{test::source_path("configs/ampere-a100.ini")}, {}});
  constexpr SimMode kCold[] = {SimMode::Cold};
  auto agree = [&](const auto& source, const SimConfig& c, const std::string& what,
                   RunOptions opts = {}) {
    return thread_counts_agree(source, c, what, opts, kCold);
  };
  for (const std::string& gmt : gmts) {
    ASSERT_TRUE(agree(std::vector<std::string>{gmt}, cfg, gmt));
    ASSERT_TRUE(agree(gmt, a100, gmt + " through a reader, on the A100"));
  }
  EXPECT_TRUE(agree(gmts, cfg, "every .gmt file as one stream"));
  // Text and .gmt files in one stream: the first worker replays the text alone.
  EXPECT_TRUE(agree(std::vector<std::string>{gmts[0], texts[1], gmts[2]}, cfg, "text among .gmt"));
  RunOptions one_kernel;
  one_kernel.kernel_ids = {1};
  EXPECT_TRUE(agree(std::vector<std::string>{gmts[0]}, cfg, "kernel 1 only", one_kernel));
}

TEST(ParallelReplayTest, ColdWorkersDealingBlocksMeetTheFaultOneReaderMeets) {
  test::TempDir dir;
  const std::string text = dir.file("random.wtrace");
  std::ofstream(text) << test::random_trace(3);
  const std::string gmt = test::gmt_in_blocks(text, dir.file("random.gmt"), 512);
  std::string bytes;
  {
    std::ifstream in(gmt, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  // Every block from the fourth on: a fault in each; one reader meets the fourth's first.
  std::size_t at = sizeof(trace::GmtFileHeader);
  for (int block = 1;; ++block) {
    trace::GmtBlockHeader h;
    std::memcpy(&h, bytes.data() + at, sizeof h);
    if (h.is_end()) break;
    if (block >= 4) bytes[at + sizeof h + h.compressed_bytes / 2] ^= 0x5a;
    at += sizeof h + h.compressed_bytes;
  }
  std::ofstream(gmt, std::ios::binary) << bytes;
  RunOptions opts;
  opts.mode = SimMode::Cold;
  opts.threads = 1;
  const std::string one = test::replay_text(std::vector<std::string>{gmt}, load_config({}), opts);
  ASSERT_NE(one.find(": corrupt block 4 at byte offset"), std::string::npos) << one;
  for (const unsigned threads : {2u, 3u, 8u}) {
    opts.threads = threads;
    EXPECT_EQ(test::replay_text(std::vector<std::string>{gmt}, load_config({}), opts), one)
        << threads << " threads";
  }
}

TEST(ParallelReplayTest, CliTakesTheThreads) {
  const std::string trace = test::data_path("d_tiled_n8_t4.wtrace");
  const test::CliResult one =
      test::run_cli("run " + trace + " --mode both --format json --threads 1");
  const test::CliResult four =
      test::run_cli("run " + trace + " --mode both --format json --threads 4");
  const test::CliResult all = test::run_cli("run " + trace + " --mode both --format json");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(four.out, one.out);
  EXPECT_EQ(all.out, one.out);
  const test::CliResult reference =
      test::run_cli("run " + trace + " --engine reference --threads 2");
  EXPECT_EQ(reference.status, 1);
  EXPECT_NE(reference.err.find("--threads 2: the reference engine replays on one thread"),
            std::string::npos)
      << reference.err;
  EXPECT_NE(test::run_cli("run --help").out.find("--threads"), std::string::npos);
}

TEST(ThreadTeamTest, RunsEveryMemberInEveryPhase) {
  ThreadTeam team(4);
  ASSERT_EQ(team.size(), 4u);
  std::vector<std::atomic<int>> calls(4);
  auto count = [&](unsigned m) { ++calls[m]; };
  for (int phase = 0; phase < 1000; ++phase) team.run(count);
  for (const auto& c : calls) EXPECT_EQ(c.load(), 1000);
}

TEST(ThreadTeamTest, RethrowsTheLowestMembersErrorAfterAllReturn) {
  ThreadTeam team(3);
  std::atomic<int> returned{0};
  auto fail_two = [&](unsigned m) {
    ++returned;
    if (m >= 1) throw std::runtime_error("member " + std::to_string(m));
  };
  try {
    team.run(fail_two);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "member 1");
  }
  EXPECT_EQ(returned.load(), 3);
  // The team still works.
  std::atomic<int> again{0};
  auto count = [&](unsigned) { ++again; };
  team.run(count);
  EXPECT_EQ(again.load(), 3);
}

}  // namespace
}  // namespace gms
