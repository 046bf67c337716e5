// Miss-ratio curves: every point of a one-pass curve (L1 and L2, per kernel and per
// instruction) equals a separate replay of that point's configuration; the CSV and the chart
// page hold the points; sizes that are no whole number of sets are named, not rounded.
#include "tools/study/curves.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/error.h"
#include "sim/replay/simulator.h"
#include "sim/report/study_stats.h"
#include "tests/e2e/random_trace.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

namespace gms {
namespace {

/// A random trace's file, which lasts as long as the test process.
std::string random_trace_file(std::uint64_t seed) {
  static const test::TempDir dir;
  const std::string p = dir.file(fmt::format("random{}.wtrace", seed));
  std::ofstream(p) << test::random_trace(seed);
  return p;
}

/// Each point's lookups and hits against simulate() of the point's configuration.
void expect_points_are_separate_runs(const CurveSpec& spec) {
  const Curves c = compute_curves(spec);
  ASSERT_FALSE(c.points.empty());
  RunOptions opts;
  opts.mode = SimMode::Cached;
  for (std::size_t p = 0; p < c.points.size(); ++p) {
    ConfigSources src = spec.base;
    src.overrides.insert(src.overrides.end(), c.points[p].overrides.begin(),
                         c.points[p].overrides.end());
    const std::vector<KernelStats> ks = simulate({spec.trace}, load_config(src), opts);
    std::size_t row = 0;
    for (const KernelStats& k : ks) {
      const AccessCounters m = kernel_sums(k).memory;
      const CurveRow& r = c.rows.at(row++);
      ASSERT_EQ(r.kernel_id, k.kernel.id);
      const bool l1 = spec.level == CurveLevel::L1;
      EXPECT_EQ(r.lookups[p], l1 ? m.l1_sector_hits + m.l1_sector_misses : m.l2_read_sectors);
      EXPECT_EQ(r.hits[p], l1 ? m.l1_sector_hits : m.l2_read_sector_hits) << "point " << p;
      for (; row < c.rows.size() && c.rows[row].instruction; ++row) {
        const CurveRow& ri = c.rows[row];
        const auto it =
            std::find_if(k.instructions.begin(), k.instructions.end(), [&](const InstrStats& i) {
              return i.inst == ri.inst && op_name(i.op) == ri.op && i.size == ri.size;
            });
        ASSERT_NE(it, k.instructions.end());
        EXPECT_EQ(ri.hits[p], l1 ? it->c.l1_sector_hits : it->c.l2_read_sector_hits);
      }
    }
    EXPECT_EQ(row, c.rows.size());
  }
}

TEST(CurvesTest, L2PointsAreSeparateRuns) {
  CurveSpec spec;
  spec.trace = random_trace_file(3);
  spec.base.overrides = {"gpu.sm_count=4", "l2.slices=2", "l2.ways=4", "l2.size_kb=16"};
  spec.ways = {1, 2, 8, 0};
  spec.sizes_kb = {2, 4, 8, 16, 32};
  spec.per_instruction = true;
  expect_points_are_separate_runs(spec);
}

TEST(CurvesTest, L1PointsAreSeparateRuns) {
  CurveSpec spec;
  spec.trace = random_trace_file(8);
  spec.base.overrides = {"gpu.sm_count=4"};
  spec.level = CurveLevel::L1;
  spec.ways = {1, 4, 0};
  spec.sizes_kb = {1, 2, 4, 8};
  spec.per_instruction = true;
  expect_points_are_separate_runs(spec);
}

TEST(CurvesTest, CsvAndChartsHoldThePoints) {
  CurveSpec spec;
  spec.trace = test::data_path("example_stream.wtrace");
  spec.ways = {4, 0};
  spec.sizes_kb = {960, 1920, 1000};  // 1000 KiB is no whole number of 96 slices' lines
  const Curves c = compute_curves(spec);
  ASSERT_EQ(c.points.size(), 4u);
  const std::string csv = curves_csv(c);
  EXPECT_NE(csv.find("# skipped (not a whole number of sets): 1000 KiB at 4 ways"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("level,kernel_id,kernel_name,ways,sets,capacity_kb,lookups,hits,hit_rate\n"),
            std::string::npos);
  EXPECT_NE(csv.find("\nl2,1,copy,full,1,960,"), std::string::npos) << csv;
  std::ostringstream html;
  print_curves_html(html, c);
  EXPECT_NE(html.str().find("<svg"), std::string::npos);
  EXPECT_NE(html.str().find("fully associative"), std::string::npos);
}

TEST(CurvesTest, ANonLruBaseIsAnError) {
  CurveSpec spec;
  spec.trace = test::data_path("example_stream.wtrace");
  spec.base.overrides = {"l2.policy=srrip"};
  spec.sizes_kb = {960, 1920};
  try {
    compute_curves(spec);
    FAIL() << "no error";
  } catch (const SimError& e) {
    EXPECT_NE(std::string(e.what()).find("l2.policy is not lru"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gms
