// The replay engines (RunOptions::engine) must report the same, byte for byte: the reference
// (sim/replay/reference_engine.h, record by record, the model's specification) against the
// one-pass engine (or its refusal) and the fast
// one (its coalescing memo and deferred charges, the scattered-warp shortcut, L2 accesses
// batched by slice, partial strided lanes, read-ahead), on every trace of the suite, every
// preset and every mode, and on random traces over random configurations. Compared: the whole
// JSON report and what it leaves out (per-unit traffic, DRAM rows, the kernel's parameters).
//
// Fixed seeds here; GMS_DIFF_SECONDS=600 replays fresh seeds for that long (and prints each
// failing seed), GMS_DIFF_SEED=N replays seed N alone.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "sim/config/config.h"
#include "sim/core/error.h"
#include "sim/replay/onepass/engine.h"
#include "sim/replay/simulator.h"
#include "sim/report/report.h"
#include "tests/e2e/mixed_traces.h"
#include "tests/e2e/random_trace.h"
#include "tests/e2e/report_text.h"
#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"
#include "trace/import/formats.h"

namespace gms {
namespace {

namespace fs = std::filesystem;
using test::files_in;
using test::replay_text;
using test::same_text;
using test::suite_traces;

/// The reference's report of `traces` in `opts.mode`, against the fast engine's as it comes
/// (read-ahead, the default batches) and the one-pass engine's (or, where the configuration
/// refuses the pass, its refusal); `both_ways`, the fast engine also without read-ahead, with
/// tiny batches, and on 2, 3 and 8 threads (the parallel replay).
bool engines_agree(const std::vector<std::string>& traces, const SimConfig& cfg, RunOptions opts,
                   const std::string& what, bool both_ways = true) {
  opts.engine = Engine::Reference;
  const std::string reference = replay_text(traces, cfg, opts);
  opts.engine = Engine::Fast;
  if (!same_text(reference, replay_text(traces, cfg, opts), what + " (fast)")) return false;
  RunOptions pass = opts;
  pass.engine = Engine::OnePass;
  const std::string onepass = replay_text(traces, cfg, pass);
  std::string refusal = onepass_refusal({cfg});
  if (refusal.empty()) refusal = onepass_order_refusal(opts);
  if (!refusal.empty()) {
    if (onepass.find(refusal) == std::string::npos) {
      ADD_FAILURE() << what << " (one pass): expected the refusal '" << refusal << "', got\n"
                    << onepass;
      return false;
    }
  } else if (!same_text(reference, onepass, what + " (one pass)")) {
    return false;
  }
  if (!both_ways) return true;
  opts.read_ahead = false;
  if (opts.mode != SimMode::Cold && opts.order != ReplayOrder::File)
    // An ordered replay takes one worker and replays the L2 as it comes, whatever the batches
    // and threads asked for (fast_engine.cc, ordered_replay): only the reading differs.
    return same_text(reference, replay_text(traces, cfg, opts), what + " (fast, no read-ahead)");
  opts.cached_batch_lines = 64;
  if (!same_text(reference, replay_text(traces, cfg, opts), what + " (fast, 64-line batches)"))
    return false;
  for (const unsigned threads : {2u, 3u, 8u}) {  // parallel_replay_test.cc tries more
    opts.threads = threads;
    if (!same_text(reference, replay_text(traces, cfg, opts),
                   fmt::format("{} (fast, {} threads)", what, threads)))
      return false;
  }
  return true;
}

class PresetTest : public testing::TestWithParam<std::string> {};

TEST_P(PresetTest, EnginesAgreeOnEverySuiteTraceAndMode) {
  const SimConfig cfg = load_config({{GetParam()}, {}});
  test::TempDir dir;
  const std::vector<std::string> traces = suite_traces(dir);
  ASSERT_GT(traces.size(), 30u);
  for (std::size_t t = 0; t < traces.size(); ++t)
    for (const SimMode mode : test::kAllModes)
      for (const ReplayOrder order :
           {ReplayOrder::File, ReplayOrder::Lockstep, ReplayOrder::Timed}) {
        if (mode == SimMode::Cold && order != ReplayOrder::File) continue;  // file order always
        RunOptions opts;
        opts.mode = mode;
        opts.order = order;
        // The mixed traces (the first three) span batches; the others are a few records each.
        if (!engines_agree(
                {traces[t]}, cfg, opts,
                fmt::format("{} on {}, mode {}, order {}", fs::path(traces[t]).filename().string(),
                            fs::path(GetParam()).filename().string(), test::mode_name(mode),
                            order_name(order)),
                /*both_ways=*/t < 3))
          return;  // one report is enough
      }
}

INSTANTIATE_TEST_SUITE_P(EngineDifferentialTest, PresetTest,
                         testing::ValuesIn(files_in(test::source_path("configs"), ".ini")),
                         [](const testing::TestParamInfo<std::string>& p) {
                           std::string name = fs::path(p.param).stem().string();
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(EngineDifferentialTest, TmaTracesAgreeOnEveryModeAndOrder) {
  // The Accel-Sim importer's bulk records (TMA copies: tests/e2e/tma_replay_test.cc works their
  // counts out) on the Hopper presets and a partitioned-L2 one; the suite's traces are converted
  // to .gmt elsewhere, which has no bulk op, so these two are compared here.
  const std::vector<std::string> traces = {test::data_path("accelsim/tma_tiles.traceg"),
                                           test::data_path("accelsim/tma_reuse.traceg")};
  for (const char* preset : {"hopper-h100", "hopper-h200", "ampere-a100"}) {
    const SimConfig cfg =
        load_config({{test::source_path("configs/" + std::string(preset) + ".ini")}, {}});
    for (const SimMode mode : test::kAllModes)
      for (const ReplayOrder order :
           {ReplayOrder::File, ReplayOrder::Lockstep, ReplayOrder::Timed}) {
        if (mode == SimMode::Cold && order != ReplayOrder::File) continue;
        RunOptions opts;
        opts.mode = mode;
        opts.order = order;
        for (const std::string& t : traces)
          ASSERT_TRUE(engines_agree(
              {t}, cfg, opts,
              fmt::format("{} on {}, mode {}, order {}", fs::path(t).filename().string(), preset,
                          test::mode_name(mode), order_name(order))));
        ASSERT_TRUE(engines_agree(traces, cfg, opts,
                                  fmt::format("both TMA traces on {}, mode {}, order {}", preset,
                                              test::mode_name(mode), order_name(order))));
      }
  }
}

/// A random configuration: a preset under random overrides (the groups that are valid there).
SimConfig random_config(test::TestRng& r, std::string& described) {
  const std::vector<std::string> presets = files_in(test::source_path("configs"), ".ini");
  const std::string preset = presets[r.below(presets.size())];
  SimConfig cfg = load_config({{preset}, {}});
  described = fs::path(preset).filename().string();
  for (const std::vector<std::string>& group : test::random_overrides(r)) {
    SimConfig trial = cfg;
    std::string ini;
    for (const std::string& o : group) ini += o + "\n";
    try {
      apply_config_text(trial, ini, "random overrides");
    } catch (const SimError&) {
      continue;  // invalid here
    }
    cfg = trial;
    for (const std::string& o : group) described += " " + o;
  }
  return cfg;
}

/// Seed `seed`: a random trace (as text and as .gmt) under a random configuration, every mode,
/// some kernels selected or given FLOPs; the fast engine from the text (read-ahead), from the
/// .gmt through the reader overload (partial strided lanes), and both files as one stream.
/// Returns false (after adding a failure that names the seed) when the engines differ.
bool random_case_agrees(std::uint64_t seed) {
  test::TestRng r(seed);
  test::TempDir dir;
  const std::string text = dir.file("random.wtrace"), binary = dir.file("random.gmt");
  std::ofstream(text) << test::random_trace(seed);
  {
    auto in = trace::open_trace_reader(text);
    auto out = trace::open_trace_writer(binary);
    std::vector<WarpInstr> batch(256);
    for (KernelInfo k; in->next_kernel(k);) {
      out->begin_kernel(k);
      while (const std::size_t n = in->read(batch)) out->write({batch.data(), n});
    }
    out->finish();
  }
  std::string described;
  const SimConfig cfg = random_config(r, described);
  RunOptions base;
  // Each order in turn, by seed (drawing it would change every seed's other draws).
  base.order = static_cast<ReplayOrder>(seed % 3);
  if (r.chance(20)) base.kernel_ids = {static_cast<std::uint32_t>(r.below(4))};
  if (r.chance(30)) base.flops[static_cast<std::uint32_t>(r.below(4))] = r.below(1u << 20);
  const std::string what = fmt::format("seed {} ({})", seed, described);
  for (const SimMode mode : test::kAllModes) {
    RunOptions opts = base;
    opts.mode = mode;
    const std::string in_mode = what + ", mode " + test::mode_name(mode);
    bool ok = engines_agree({text}, cfg, opts, in_mode);
    if (ok) {
      opts.engine = Engine::Reference;
      const std::string reference = replay_text(binary, cfg, opts);
      opts.engine = Engine::Fast;
      opts.read_ahead = r.chance(50);
      opts.cached_batch_lines = r.chance(50) ? 0 : 1 + r.below(300);
      opts.threads = 1 + static_cast<unsigned>(r.below(4));
      ok = same_text(reference, replay_text(binary, cfg, opts), in_mode + " (fast, .gmt)");
    }
    if (ok) ok = engines_agree({text, binary}, cfg, opts, in_mode + " (two traces)");
    if (!ok) {
      std::cerr << "engine_differential_test: seed " << seed << " fails (GMS_DIFF_SEED=" << seed
                << " replays it alone)\n";
      return false;
    }
  }
  return true;
}

class RandomTest : public testing::TestWithParam<int> {};

TEST_P(RandomTest, EnginesAgreeOnRandomTracesAndConfigurations) {
  constexpr int kSeedsPerBlock = 12;
  for (int i = 0; i < kSeedsPerBlock; ++i)
    if (!random_case_agrees(std::uint64_t(GetParam()) * kSeedsPerBlock + i + 1)) return;
}

INSTANTIATE_TEST_SUITE_P(EngineDifferentialTest, RandomTest, testing::Range(0, 4));

TEST(EngineDifferentialTest, FreshSeedsForAWhile) {
  if (const char* seed = std::getenv("GMS_DIFF_SEED")) {
    random_case_agrees(std::strtoull(seed, nullptr, 10));
    return;
  }
  const char* seconds = std::getenv("GMS_DIFF_SECONDS");
  if (seconds == nullptr) GTEST_SKIP() << "set GMS_DIFF_SECONDS (or GMS_DIFF_SEED) to run";
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(std::atoi(seconds));
  std::random_device device;
  std::uint64_t cases = 0;
  while (std::chrono::steady_clock::now() < until) {
    const std::uint64_t seed = (std::uint64_t{device()} << 32) | device();
    if (!random_case_agrees(seed)) break;
    ++cases;
  }
  std::cerr << "engine_differential_test: " << cases << " random cases agreed\n";
}

TEST(EngineDifferentialTest, CliRunTakesTheEngine) {
  const std::string trace = test::data_path("d_tiled_n8_t4.wtrace");
  const test::CliResult fast = test::run_cli("run " + trace + " --mode both --format json");
  const test::CliResult reference =
      test::run_cli("run " + trace + " --mode both --format json --engine reference");
  ASSERT_EQ(fast.status, 0) << fast.err;
  ASSERT_EQ(reference.status, 0) << reference.err;
  EXPECT_EQ(fast.out, reference.out);
  const test::CliResult bad = test::run_cli("run " + trace + " --engine quick");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("--engine 'quick': expected auto, fast, reference or onepass"),
            std::string::npos)
      << bad.err;
  EXPECT_NE(test::run_cli("run --help").out.find("--engine"), std::string::npos);
}

TEST(EngineDifferentialTest, CliRunTakesTheOrder) {
  const std::string trace = test::data_path("d_tiled_n8_t4.wtrace");
  for (const char* order : {"lockstep", "timed"}) {
    const std::string run =
        fmt::format("run {} --mode cached --format json --order {}", trace, order);
    const test::CliResult fast = test::run_cli(run);
    const test::CliResult reference = test::run_cli(run + " --engine reference");
    ASSERT_EQ(fast.status, 0) << fast.err;
    EXPECT_EQ(fast.out, reference.out) << order;
    const test::CliResult onepass = test::run_cli(run + " --engine onepass");
    EXPECT_EQ(onepass.status, 1);
    EXPECT_NE(onepass.err.find(fmt::format("--order {}: it replays the file's order only", order)),
              std::string::npos)
        << onepass.err;
  }
  // Cold counts do not depend on the order: a cold run is the same in every order.
  EXPECT_EQ(test::run_cli("run " + trace + " --format json --order timed").out,
            test::run_cli("run " + trace + " --format json").out);
  const test::CliResult bad = test::run_cli("run " + trace + " --order random");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("--order 'random': expected file, lockstep or timed"), std::string::npos)
      << bad.err;
}

/// The schedule's cycles in a timed JSON report (its last kernel's).
double schedule_cycles(const std::string& json) {
  const std::size_t schedule = json.rfind("\"schedule\": {");
  const std::size_t at = json.find("\"cycles\": ", schedule == std::string::npos ? 0 : schedule);
  EXPECT_NE(schedule, std::string::npos);
  return at == std::string::npos ? 0 : std::strtod(json.c_str() + at + 10, nullptr);
}

TEST(EngineDifferentialTest, TheInstructionsBetweenLoadsTakeTheirWarpsCyclesInTheTimedOrder) {
  // The Accel-Sim seed pattern has an IMAD before each load and stores of loaded values: its
  // records carry the instructions before them (+N in wtrace) and the loads they wait for (^K).
  // Timed, both engines count them, so the schedule is longer than that of the same records
  // without them; lockstep ignores them.
  test::TempDir dir;
  const std::string with = dir.file("with.wtrace"), without = dir.file("without.wtrace");
  const test::CliResult converted = test::run_cli(
      fmt::format("convert {} {}", test::data_path("accelsim/tiled_matmul/kernelslist.g"), with));
  ASSERT_EQ(converted.status, 0) << converted.err;
  std::ifstream in(with);
  std::ofstream out(without);
  std::size_t carried = 0;
  for (std::string line; std::getline(in, line);) {
    const std::size_t plus = std::min(line.find(" +"), line.find(" ^"));
    if (plus != std::string::npos && line[0] != '#') {
      ++carried;
      line.resize(plus);
    }
    out << line << '\n';
  }
  out.close();
  ASSERT_GT(carried, 0u);
  std::string timed[2], lockstep[2];
  for (int i = 0; i < 2; ++i) {
    const std::string trace = i == 0 ? with : without;
    for (const char* order : {"timed", "lockstep"}) {
      const std::string run =
          fmt::format("run {} --mode cached --format json --order {}", trace, order);
      const test::CliResult fast = test::run_cli(run);
      ASSERT_EQ(fast.status, 0) << fast.err;
      EXPECT_EQ(fast.out, test::run_cli(run + " --engine reference").out) << order << " " << i;
      (order == std::string("timed") ? timed : lockstep)[i] = fast.out;
    }
  }
  EXPECT_GT(schedule_cycles(timed[0]), schedule_cycles(timed[1]));
  // Lockstep's report is the same but for the file's name.
  for (std::size_t at; (at = lockstep[1].find("without.wtrace")) != std::string::npos;)
    lockstep[1].replace(at, 14, "with.wtrace");
  EXPECT_EQ(lockstep[0], lockstep[1]);
}

}  // namespace
}  // namespace gms
