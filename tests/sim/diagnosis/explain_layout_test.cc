// explain()'s layout what-ifs (sim/diagnosis/explain.h, issue 63): the diagnosis of B5's array
// of 24-byte structures suggests the structure of arrays, whose row ranks with the instruction
// rows by time saved and whose "after" figures are the replay of b5_soa24_all; an explicit
// --layout spec is replayed besides the suggestions, and a bad one is an error.
#include <gtest/gtest.h>

#include <string>

#include "sim/core/error.h"
#include "sim/diagnosis/explain.h"
#include "sim/replay/simulator.h"
#include "tests/test_paths.h"

namespace gms {
namespace {

using test::data_path;

TEST(ExplainLayoutTest, SuggestedStructureOfArraysIsTheOtherLayoutsReplay) {
  const SimConfig cfg = default_config();
  RunOptions opts;
  opts.mode = SimMode::Both;
  ExplainOptions eo;
  eo.jobs = 2;
  const ExplainResult r = explain({data_path("b5_aos24_all.wtrace")}, cfg, opts, eo);
  // The structure of arrays, and the six loads (fields 4 bytes apart) merged into vectors.
  ASSERT_EQ(r.layouts.size(), 2u);
  EXPECT_EQ(r.layouts[0].label, "soa:g0:24");
  EXPECT_EQ(r.layouts[1].label, "vector:0,1,2,3,4,5");
  ASSERT_EQ(r.arrays.size(), 1u);
  EXPECT_EQ(r.arrays[0].bytes, 768u);
  const auto soa = simulate(std::vector<std::string>{data_path("b5_soa24_all.wtrace")}, cfg, opts);
  int layout_rows = 0;
  for (const WhatIf& w : r.rows) {
    if (w.kind != WhatIfKind::Layout || w.layout != "soa:g0:24") continue;
    ++layout_rows;
    EXPECT_EQ(w.touched, 6u);
    EXPECT_EQ(w.rewritten, 6u);
    for (const KernelStats& k : soa) {
      if (k.mode != w.mode) continue;
      const KernelFigures want = kernel_figures(k);
      EXPECT_EQ(w.kernel_after.sectors, want.sectors);
      EXPECT_EQ(w.kernel_after.dram_bytes, want.dram_bytes);
      EXPECT_EQ(w.kernel_after.time_ns, want.time_ns);
      EXPECT_LT(w.kernel_after.sectors, w.kernel_before.sectors);
    }
  }
  EXPECT_EQ(layout_rows, 2);  // cold and cached
  // One ranking per mode: most time saved first, whatever the kind.
  for (std::size_t i = 1; i < r.rows.size(); ++i) {
    if (r.rows[i].mode == r.rows[i - 1].mode) {
      EXPECT_GE(r.rows[i - 1].saved_ns(), r.rows[i].saved_ns());
    }
  }
}

TEST(ExplainLayoutTest, ExplicitSpecsBesideTheSuggestions) {
  const SimConfig cfg = default_config();
  RunOptions opts;
  ExplainOptions eo;
  eo.jobs = 1;
  eo.layouts = {"swizzle:smem"};
  const ExplainResult r = explain({data_path("b6_tile32.wtrace")}, cfg, opts, eo);
  ASSERT_EQ(r.layouts.size(), 2u);
  EXPECT_EQ(r.layouts[0].label, "swizzle:smem:128");
  EXPECT_EQ(r.layouts[1].label, "pad:smem:1:128");
  eo.suggest_layouts = false;
  EXPECT_EQ(explain({data_path("b6_tile32.wtrace")}, cfg, opts, eo).layouts.size(), 1u);
  eo.layouts = {"soa:smem"};
  EXPECT_THROW(explain({data_path("b6_tile32.wtrace")}, cfg, opts, eo), SimError);
}

}  // namespace
}  // namespace gms
