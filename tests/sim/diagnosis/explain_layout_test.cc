// explain()'s layout what-ifs (sim/diagnosis/explain.h, issue 63): the diagnosis of B5's array
// of 24-byte structures suggests the structure of arrays, whose row ranks with the instruction
// rows by time saved and whose "after" figures are the replay of b5_soa24_all; an explicit
// --layout spec is replayed besides the suggestions, and a bad one is an error.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
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

// With #alloc lines the arrays are the trace's: the structure of arrays is sized by the whole
// allocation (4096 structures, of which the kernel reads the first 2048), so field y of
// structure i moves to points + 4096 x 4 + 4i, as the hand-written trace has it.
TEST(ExplainLayoutTest, ArraysFromAllocationLines) {
  constexpr std::uint64_t kPoints = 0x100000, kOut = 0x200000;
  auto write = [&](const std::string& name, bool soa) {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    const auto path = std::filesystem::temp_directory_path() /
                      fmt::format("{}_{}_{}.wtrace", ::getpid(), test->name(), name);
    std::ofstream out(path);
    out << fmt::format("#wtrace 1\n#alloc base={:#x} bytes=49152 name=points\n", kPoints);
    out << fmt::format("#alloc base={:#x} bytes=8192 name=out\n", kOut);
    out << "#kernel id=1 name=k grid=16,1,1 block=128,1,1 shmem=0\n";
    for (std::uint64_t w = 0; w < 64; ++w) {
      const std::string head = fmt::format("{} {} ffffffff", w / 4, w % 4);
      for (int f = 0; f < 2; ++f)
        out << fmt::format("{} LDG 4 - {} @{:#x}:{}\n", f, head,
                           soa ? kPoints + f * 4096 * 4 + 128 * w : kPoints + 384 * w + 4 * f,
                           soa ? 4 : 12);
      out << fmt::format("2 STG 4 - {} @{:#x}:4\n", head, kOut + 128 * w);
    }
    return path.string();
  };
  const std::string aos = write("aos", false);
  const std::string soa = write("soa", true);
  const SimConfig cfg = default_config();
  RunOptions opts;
  opts.mode = SimMode::Both;
  ExplainOptions eo;
  eo.jobs = 1;
  eo.layouts = {"soa:points"};
  const ExplainResult r = explain({aos}, cfg, opts, eo);
  ASSERT_EQ(r.arrays.size(), 2u);
  EXPECT_EQ(r.arrays[0].name, "points");
  EXPECT_TRUE(r.arrays[0].from_trace);
  ASSERT_FALSE(r.layouts.empty());
  const LayoutChange& c = r.layouts[0];
  EXPECT_EQ(c.label, "soa:points:12");
  EXPECT_EQ(c.count, 4096u);
  EXPECT_EQ(c.map(kPoints + 12 * 5 + 4), kPoints + 4096 * 4 + 4 * 5);
  const auto want = simulate(std::vector<std::string>{soa}, cfg, opts);
  int rows = 0;
  for (const WhatIf& w : r.rows) {
    if (w.layout != "soa:points:12") continue;
    ++rows;
    EXPECT_EQ(w.touched, 2u);  // the two loads; the store to `out` is another array's
    for (const KernelStats& k : want)
      if (k.mode == w.mode) {
        EXPECT_EQ(w.kernel_after.sectors, kernel_figures(k).sectors);
        EXPECT_EQ(w.kernel_after.dram_bytes, kernel_figures(k).dram_bytes);
        EXPECT_EQ(w.kernel_after.time_ns, kernel_figures(k).time_ns);
      }
  }
  EXPECT_EQ(rows, 2);
}

// Fields x and y of 8-byte structures, each warp reading y before x: the footprints suggest
// merging the two loads, but no warp's x follows its y, so the replay merges nothing and the
// suggestion is left out; named by --layout, its rows stay (nothing rewritten).
TEST(ExplainLayoutTest, SuggestionThatMovesNothingIsLeftOut) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const auto path = std::filesystem::temp_directory_path() /
                    fmt::format("{}_{}.wtrace", ::getpid(), test->name());
  {
    std::ofstream out(path);
    out << "#wtrace 1\n#kernel id=1 name=k grid=4,1,1 block=128,1,1 shmem=0\n";
    for (std::uint64_t w = 0; w < 16; ++w)
      for (int f : {1, 0})
        out << fmt::format("{} LDG 4 - {} {} ffffffff @{:#x}:8\n", f, w / 4, w % 4,
                           0x100000 + 256 * w + 4 * f);
  }
  const SimConfig cfg = default_config();
  RunOptions opts;
  ExplainOptions eo;
  eo.jobs = 1;
  const ExplainResult quiet = explain({path.string()}, cfg, opts, eo);
  EXPECT_TRUE(quiet.layouts.empty());
  for (const WhatIf& w : quiet.rows) EXPECT_EQ(w.kind, WhatIfKind::Instruction);
  eo.layouts = {"vector:0,1"};
  const ExplainResult named = explain({path.string()}, cfg, opts, eo);
  ASSERT_EQ(named.layouts.size(), 1u);
  int rows = 0;
  for (const WhatIf& w : named.rows)
    if (w.kind == WhatIfKind::Layout) {
      ++rows;
      EXPECT_EQ(w.rewritten, 0u);
      EXPECT_EQ(w.kernel_after.sectors, w.kernel_before.sectors);
    }
  EXPECT_EQ(rows, 1);
}

}  // namespace
}  // namespace gms
