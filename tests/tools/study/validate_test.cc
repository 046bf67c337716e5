// The metric table and the error rule of validate, and one comparison worked out by hand.
// (tests/data/ncu/ holds parser fixtures for the CLI tests: the simulator's own output with one
// value changed, which test the readers and the tolerance check, not the simulator; see the
// README there. Nothing in this repository was measured on a GPU.)
#include "tools/study/validate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>

#include "sim/core/error.h"
#include "sim/replay/simulator.h"
#include "tests/tools/cli/cli_runner.h"

namespace gms {
namespace {

TEST(ValidateTest, MetricTableCoversTheGroundtruthCounters) {
  std::map<std::string, std::string> by_stat;
  for (const MetricMapping& m : metric_mappings()) by_stat[m.statistic] = m.ncu_metric;
  EXPECT_EQ(by_stat["global_load.requests"], "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  EXPECT_EQ(by_stat["global_load.sectors"], "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  EXPECT_EQ(by_stat["shared_load.wavefronts"],
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
  EXPECT_EQ(by_stat["shared_load.conflicts"],
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
  EXPECT_EQ(by_stat["l2.read_sectors"], "lts__t_sectors_srcunit_tex_op_read.sum");
  EXPECT_EQ(by_stat["dram.read_bytes"], "dram__bytes_read.sum");
  EXPECT_EQ(by_stat["dram.write_bytes"], "dram__bytes_write.sum");
  EXPECT_EQ(by_stat["global_load.l1_hit_rate"],
            "l1tex__t_sector_hit_rate_pipe_lsu_mem_global_op_ld.pct");
  std::set<std::string> metrics;
  for (const MetricMapping& m : metric_mappings()) {
    EXPECT_TRUE(metrics.insert(m.ncu_metric).second) << "one row per metric: " << m.ncu_metric;
    const std::string mode = m.mode;
    EXPECT_TRUE(mode == "cold" || mode == "cached" || mode == "launch") << m.statistic;
    EXPECT_EQ(m.percent, std::string(m.ncu_metric).ends_with(".pct")) << m.statistic;
  }
}

TEST(ValidateTest, ErrorIsRelativeForCountsAndInPointsForPercentages) {
  EXPECT_DOUBLE_EQ(check_error(110, 100, false), 10);
  EXPECT_DOUBLE_EQ(check_error(90, 100, false), 10);
  EXPECT_DOUBLE_EQ(check_error(0, 0, false), 0);
  EXPECT_TRUE(std::isinf(check_error(1, 0, false)));
  EXPECT_DOUBLE_EQ(check_error(52.5, 50, true), 2.5);
}

TEST(ValidateTest, HandWrittenCountersAgainstAHandWrittenTrace) {
  // One warp: a unit-stride 4-byte load of 128 aligned bytes (1 request, 4 sectors) and a 4-byte
  // store at a stride of 8 bytes over 256 aligned bytes (1 request, 8 sectors); 1 CTA of 32
  // threads. The "measured" row is written by hand, not measured: load sectors 5 where the
  // definitions give 4, so |4 - 5| / 5 = 20% off; the other five figures equal them.
  test::TempDir dir;
  const std::string trace = dir.file("unit.wtrace");
  std::ofstream(trace) << "#wtrace 1\n#kernel id=1 name=unit grid=1,1,1 block=32,1,1\n"
                          "0 LDG 4 - 0 0 ffffffff @0x10000:4\n"
                          "1 STG 4 - 0 0 ffffffff @0x20000:8\n";
  const MeasuredTable measured = parse_measured_csv(
      "kernel_id,name,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,"
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,launch__grid_size,launch__block_size\n"
      "1,unit,1,5,1,8,1,32\n",
      "hand.csv");
  RunOptions opts;
  opts.mode = SimMode::Both;
  const auto results =
      simulate(std::vector<std::string>{trace}, load_config(ConfigSources{}), opts);
  const Validation v = validate_kernels(measured, results, MatchBy::Id, 10.0);
  ASSERT_EQ(v.kernels.size(), 1u);
  EXPECT_TRUE(v.unmatched.empty());
  EXPECT_EQ(v.checks(), 6u);
  EXPECT_EQ(v.failures(), 1u);
  std::map<std::string, MetricCheck> by_stat;
  for (const MetricCheck& c : v.kernels[0].checks) by_stat[c.mapping->statistic] = c;
  ASSERT_EQ(by_stat.size(), 6u);
  const std::map<std::string, std::pair<double, double>> expected = {
      {"global_load.requests", {1, 1}},  {"global_load.sectors", {4, 5}},
      {"global_store.requests", {1, 1}}, {"global_store.sectors", {8, 8}},
      {"launch.grid_size", {1, 1}},      {"launch.block_size", {32, 32}}};
  for (const auto& [stat, sim_hw] : expected) {
    ASSERT_TRUE(by_stat.contains(stat)) << stat;
    const MetricCheck& c = by_stat.at(stat);
    EXPECT_EQ(c.simulated, sim_hw.first) << stat;
    EXPECT_EQ(c.measured, sim_hw.second) << stat;
    EXPECT_DOUBLE_EQ(c.error, stat == "global_load.sectors" ? 20.0 : 0.0) << stat;
    EXPECT_EQ(c.within, stat != "global_load.sectors") << stat;
  }
}

TEST(ValidateTest, MatchNames) {
  EXPECT_EQ(parse_match_by("order"), MatchBy::Order);
  EXPECT_EQ(parse_match_by("name"), MatchBy::Name);
  EXPECT_EQ(parse_match_by("id"), MatchBy::Id);
  EXPECT_THROW(parse_match_by("fuzzy"), SimError);
}

}  // namespace
}  // namespace gms
