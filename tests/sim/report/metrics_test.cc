// The metric table (sim/report/metrics.h) against the manual's definitions and the outputs:
// docs/statistics.md defines exactly the table's statistics, the sweep CSV has a column for each,
// and each row computes what its definition says on hand-made counters.
#include "sim/report/metrics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "tests/test_paths.h"
#include "tools/study/sweep.h"

namespace gms {
namespace {

/// The statistic names in the first column of the definition tables of the manual's statistics
/// page, docs/statistics.md (tables whose header says "statistic").
std::set<std::string> doc_statistics() {
  std::ifstream in(std::string(GMS_SOURCE_DIR) + "/docs/statistics.md");
  std::string line;
  bool in_table = false;
  std::set<std::string> names;
  while (std::getline(in, line)) {
    if (!line.starts_with("|")) {
      in_table = false;
      continue;
    }
    if (line.starts_with("| statistic")) {
      in_table = true;
      continue;
    }
    if (!in_table || line.starts_with("|---")) continue;
    // Every `name` in the first cell.
    const std::string first = line.substr(1, line.find('|', 1) - 1);
    for (std::size_t open = first.find('`'); open != std::string::npos;) {
      const std::size_t close = first.find('`', open + 1);
      if (close == std::string::npos) break;
      names.insert(first.substr(open + 1, close - open - 1));
      open = first.find('`', close + 1);
    }
  }
  return names;
}

TEST(MetricsTest, TheManualDefinesExactlyTheTablesStatistics) {
  std::set<std::string> table;
  for (const Metric& m : all_metrics()) table.insert(std::string(m.name));
  const std::set<std::string> doc = doc_statistics();
  ASSERT_FALSE(doc.empty()) << "no definition tables found in docs/statistics.md";
  for (const std::string& name : table)
    EXPECT_TRUE(doc.count(name))
        << name << " is in sim/report/metrics.h but docs/statistics.md does not define it";
  for (const std::string& name : doc)
    EXPECT_TRUE(table.count(name))
        << name << " is defined in docs/statistics.md but not in sim/report/metrics.h";
}

TEST(MetricsTest, TheSweepCsvHasAColumnForEveryStatistic) {
  const std::vector<std::string> columns = sweep_stat_columns();
  for (const Metric& m : all_metrics())
    EXPECT_NE(std::find(columns.begin(), columns.end(), m.name), columns.end()) << m.name;
}

TEST(MetricsTest, NamesAreUniqueAndEachRowHasOneWayToCompute) {
  std::set<std::string_view> seen;
  for (const Metric& m : all_metrics()) {
    EXPECT_TRUE(seen.insert(m.name).second) << m.name;
    EXPECT_NE(m.count == nullptr, m.ratio == nullptr) << m.name;
    EXPECT_EQ(m.percent(), m.unit == "fraction") << m.name;
    EXPECT_FALSE(m.meaning.empty()) << m.name;
  }
}

TEST(MetricsTest, RowsComputeTheirDefinitions) {
  // One 8-lane, 4-byte load over a 64-byte stride: 8 sectors, 8 x 32 bytes fetched, 32 used.
  AccessCounters c;
  c.requests = 1;
  c.sectors = 8;
  c.bytes_distinct = 32;
  c.bytes_fetched = 256;
  c.wavefronts = 5;
  c.ideal_wavefronts = 2;
  c.l1_sector_hits = 3;
  c.l1_sector_misses = 1;
  c.l2_read_sectors = 4;
  c.l2_read_sector_hits = 1;
  EXPECT_DOUBLE_EQ(find_metric("efficiency")->value(c), 0.125);
  EXPECT_EQ(find_metric("wasted_bytes")->count(c), 224u);
  EXPECT_DOUBLE_EQ(find_metric("sectors_per_request")->value(c), 8.0);
  EXPECT_DOUBLE_EQ(find_metric("ideal_sectors_per_request")->value(c), 1.0);
  EXPECT_EQ(find_metric("conflicts")->count(c), 3u);
  EXPECT_DOUBLE_EQ(find_metric("l1_hit_rate")->value(c), 0.75);
  EXPECT_DOUBLE_EQ(find_metric("l2_hit_rate")->value(c), 0.25);
  EXPECT_EQ(find_metric("no_such_statistic"), nullptr);
  // Nothing fetched, nothing looked up: ratios are 0, not NaN.
  const AccessCounters zero;
  for (const Metric& m : all_metrics()) EXPECT_EQ(m.value(zero), 0.0) << m.name;
}

}  // namespace
}  // namespace gms
