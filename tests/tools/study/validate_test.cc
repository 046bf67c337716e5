// The metric table and the error rule of validate.
#include "tools/study/validate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "sim/core/error.h"

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

TEST(ValidateTest, MatchNames) {
  EXPECT_EQ(parse_match_by("order"), MatchBy::Order);
  EXPECT_EQ(parse_match_by("name"), MatchBy::Name);
  EXPECT_EQ(parse_match_by("id"), MatchBy::Id);
  EXPECT_THROW(parse_match_by("fuzzy"), SimError);
}

}  // namespace
}  // namespace gms
