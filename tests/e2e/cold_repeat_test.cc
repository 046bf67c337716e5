// A cold-only replay charges repeated strided shapes to their rows in bulk (the memo's pending
// repeats); a cold+cached replay charges every record as it comes. Both must agree exactly.
#include <gtest/gtest.h>

#include <fstream>

#include "sim/replay/simulator.h"
#include "tests/e2e/mixed_traces.h"
#include "tests/tools/cli/cli_runner.h"
#include "tests/trace/trace_test_util.h"

namespace gms {
namespace {

std::vector<KernelStats> replay_file(const std::string& path, SimMode mode,
                                     const ConfigSources& config = {}) {
  const SimConfig cfg = load_config(config);
  RunOptions opts;
  opts.mode = mode;
  return simulate(std::vector<std::string>{path}, cfg, opts);
}

/// Replays `path` cold-only and in mode both under each of `configs` and expects the cold
/// results to agree: every row's counters, the totals, and what the per-unit traffic decides
/// (the time model's busiest slice and channel).
void expect_cold_agrees_with_both(const std::string& path,
                                  const std::vector<ConfigSources>& configs, std::size_t kernels) {
  for (const ConfigSources& config : configs) {
    SCOPED_TRACE(config.files.empty() ? (config.overrides.empty() ? "h200" : config.overrides[0])
                                      : config.files[0]);
    const auto cold = replay_file(path, SimMode::Cold, config);
    const auto both = replay_file(path, SimMode::Both, config);
    ASSERT_EQ(cold.size(), kernels);
    ASSERT_EQ(both.size(), 2 * kernels);
    for (std::size_t k = 0; k < cold.size(); ++k) {
      const KernelStats& a = cold[k];
      const KernelStats& b = both[2 * k];  // each kernel's cold result comes first
      ASSERT_EQ(b.mode, KernelMode::Cold);
      EXPECT_EQ(a.records, b.records);
      ASSERT_EQ(a.instructions.size(), b.instructions.size());
      for (std::size_t r = 0; r < a.instructions.size(); ++r)
        EXPECT_EQ(a.instructions[r].c, b.instructions[r].c) << "kernel " << k << " row " << r;
      EXPECT_EQ(a.totals, b.totals);
      EXPECT_EQ(a.traffic.load_requests, b.traffic.load_requests);
      EXPECT_EQ(a.traffic.dram.read_bytes, b.traffic.dram.read_bytes);
      EXPECT_EQ(a.traffic.dram.write_bytes, b.traffic.dram.write_bytes);
      EXPECT_EQ(a.traffic.dram.row_hits, b.traffic.dram.row_hits);
      // The busiest slice and channel decide these: sectors charged to the wrong unit show.
      EXPECT_EQ(a.time.l2_ns, b.time.l2_ns);
      EXPECT_EQ(a.time.dram_ns, b.time.dram_ns);
      EXPECT_EQ(a.time.l1_ns, b.time.l1_ns);
      EXPECT_EQ(a.time.estimate_ns, b.time.estimate_ns);
    }
  }
}

TEST(ColdRepeatTest, ScatteredWarpsChargedFromCountsAgreeWithTheColdHalfOfBoth) {
  test::TempDir dir;
  const std::string path = dir.file("scattered.wtrace");
  std::ofstream(path) << test::scattered_trace();
  // The H200 (the shortcut on), with 64- and 128-byte transactions (segments unlike sectors),
  // and with the DRAM row model (the shortcut off: the coalescer's path in both).
  const std::vector<ConfigSources> configs = {{{}, {}},
                                              {{}, {"coalescer.segment_bytes=64"}},
                                              {{}, {"coalescer.segment_bytes=128"}},
                                              {{}, {"dram.row_model=true"}}};
  expect_cold_agrees_with_both(path, configs, 2);
}

TEST(ColdRepeatTest, ColdOnlyAgreesWithTheColdHalfOfBoth) {
  test::TempDir dir;
  const std::string path = dir.file("repeat.wtrace");
  std::ofstream(path) << test::repeat_trace();
  // The H200 (lines map to channels, no row state: DRAM totals are charged in bulk too), the
  // DRAM row model, channels finer than a line, and Kepler's 128-byte load transactions.
  const std::vector<ConfigSources> configs = {
      {{}, {}},
      {{}, {"dram.row_model=true"}},
      {{}, {"dram.interleave_bytes=64"}},
      {{test::source_path("configs/kepler-k40-ca.ini")}, {}}};
  expect_cold_agrees_with_both(path, configs, 3);
}

}  // namespace
}  // namespace gms

namespace gms {
namespace {

TEST(ColdRepeatTest, GmtReplayWithPartialLanesAgreesWithText) {
  // Records replayed straight from a .gmt reader come with partial strided lanes; every use
  // but the memo's (a memo miss, shared memory) must complete them first.
  test::TempDir dir;
  const std::string text = dir.file("repeat.wtrace"), gmt = dir.file("repeat.gmt");
  std::ofstream(text) << test::repeat_trace();
  trace::test::write_trace(gmt, trace::test::read_trace(text));
  for (SimMode mode : {SimMode::Cold, SimMode::Both}) {
    const auto a = replay_file(text, mode);
    const auto b = replay_file(gmt, mode);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
      ASSERT_EQ(a[k].instructions.size(), b[k].instructions.size());
      for (std::size_t r = 0; r < a[k].instructions.size(); ++r)
        EXPECT_EQ(a[k].instructions[r].c, b[k].instructions[r].c) << "kernel " << k << " row " << r;
      EXPECT_EQ(a[k].time.estimate_ns, b[k].time.estimate_ns);
    }
  }
}

}  // namespace
}  // namespace gms
