// Layout what-ifs held to hand-checked pairs (issue 63): the study notes' examples come in two
// layouts of the same data, and tests/data holds both sides. A layout change applied to one side
// (sim/layout/layout_reader.h) must replay to the other side's counts exactly: B5 array of
// 24-byte structures against the structure of arrays, B7 RGB pixels against the planar red
// channel, B6 the 32-float shared tile against the padded tile[32][33], A8a a matrix's column
// walk against the row walk of its transpose. Each test also checks that the untouched side
// differs, so that it can fail.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/diagnosis/diagnose.h"
#include "sim/diagnosis/layout_candidates.h"
#include "sim/layout/arrays.h"
#include "sim/layout/layout_reader.h"
#include "sim/layout/resolve.h"
#include "sim/replay/simulator.h"
#include "tests/test_paths.h"

namespace gms {
namespace {

using test::data_path;

/// The change `spec` names in `trace` (its arrays and numbers from the diagnosis).
LayoutChange pair_change(const std::string& trace, const std::string& spec) {
  RunOptions opts;
  auto chain = open_run_chain({trace}, opts);
  const auto patterns = diagnose(*chain, default_config(), opts);
  const auto footprints = instruction_footprints(patterns);
  const auto arrays = find_arrays(chain->allocations(), footprints);
  return resolve_layout(parse_layout_spec(spec), arrays, footprints);
}

RunOptions both_modes() {
  RunOptions opts;
  opts.mode = SimMode::Both;
  return opts;
}

std::vector<KernelStats> replay_moved(const std::string& trace, const LayoutChange& c) {
  const RunOptions opts = both_modes();
  auto chain = open_run_chain({trace}, opts);
  LayoutReader moved(*chain, c);
  auto out = simulate(moved, default_config(), opts);
  EXPECT_GT(moved.rewritten(), 0u);
  return out;
}

std::vector<KernelStats> replay(const std::string& trace) {
  return simulate(std::vector<std::string>{trace}, default_config(), both_modes());
}

const InstrStats* instr(const KernelStats& k, std::uint32_t inst) {
  for (const InstrStats& i : k.instructions)
    if (i.inst == inst) return &i;
  return nullptr;
}

/// Every class total, every instruction's counters and the time estimate, in every mode.
void expect_same_counts(const std::vector<KernelStats>& got, const std::vector<KernelStats>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    SCOPED_TRACE(kernel_mode_name(got[k].mode));
    EXPECT_EQ(got[k].mode, want[k].mode);
    EXPECT_EQ(got[k].totals, want[k].totals);
    ASSERT_EQ(got[k].instructions.size(), want[k].instructions.size());
    for (const InstrStats& w : want[k].instructions) {
      const InstrStats* g = instr(got[k], w.inst);
      ASSERT_NE(g, nullptr) << "inst " << w.inst;
      EXPECT_EQ(g->c, w.c) << "inst " << w.inst;
    }
    EXPECT_EQ(got[k].time.estimate_ns, want[k].time.estimate_ns);
  }
}

bool same_totals(const std::vector<KernelStats>& a, const std::vector<KernelStats>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a[k].totals != b[k].totals) return false;
  return true;
}

// B5: field f of 24-byte structure t (byte 24t + 4f) moves to 128f + 4t, as b5_soa24_all reads
// it: 6 transactions per instruction become 1.
TEST(LayoutEqualityTest, AosToSoaEqualsTheStructureOfArrays) {
  const std::string aos = data_path("b5_aos24_all.wtrace");
  const std::string soa = data_path("b5_soa24_all.wtrace");
  const LayoutChange c = pair_change(aos, "soa:g0");
  EXPECT_EQ(c.label, "soa:g0:24");
  EXPECT_EQ(c.count, 32u);
  EXPECT_FALSE(same_totals(replay(aos), replay(soa)));
  expect_same_counts(replay_moved(aos, c), replay(soa));
}

// The opposite study: the six planes g0..g5 interleave back into the 24-byte structures.
TEST(LayoutEqualityTest, SoaToAosEqualsTheArrayOfStructures) {
  const std::string aos = data_path("b5_aos24_all.wtrace");
  const std::string soa = data_path("b5_soa24_all.wtrace");
  const LayoutChange c = pair_change(soa, "aos:g0,g1,g2,g3,g4,g5");
  EXPECT_EQ(c.struct_bytes, 24u);
  expect_same_counts(replay_moved(soa, c), replay(aos));
}

// One field alone (b5_aos24_field): the structure's bytes come from its stride, and the field
// reads what b5_soa24_all's first instruction reads.
TEST(LayoutEqualityTest, OneFieldOfTheStructuresEqualsItsPlane) {
  const std::string field = data_path("b5_aos24_field.wtrace");
  const LayoutChange c = pair_change(field, "soa:i0");
  EXPECT_EQ(c.struct_bytes, 24u);
  const auto got = replay_moved(field, c);
  const auto want = replay(data_path("b5_soa24_all.wtrace"));
  const auto before = replay(field);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    EXPECT_EQ(instr(got[k], 0)->c, instr(want[k], 0)->c) << kernel_mode_name(got[k].mode);
    EXPECT_NE(instr(before[k], 0)->c, instr(want[k], 0)->c);
  }
}

// B7: the red channel of 12-byte RGB pixels (12t) moves to the red plane (4t).
TEST(LayoutEqualityTest, RgbRedEqualsThePlanarRed) {
  const std::string rgb = data_path("b7_rgb_red.wtrace");
  const std::string planar = data_path("b7_planar_red.wtrace");
  const LayoutChange c = pair_change(rgb, "soa:g0");
  EXPECT_EQ(c.struct_bytes, 12u);
  EXPECT_FALSE(same_totals(replay(rgb), replay(planar)));
  expect_same_counts(replay_moved(rgb, c), replay(planar));
}

// B6: row i of tile[32][32] (byte 128i) moves to 132i, the padded tile's, and the kernel's shared
// memory from 4096 to 4224 bytes: 32 wavefronts become 1.
TEST(LayoutEqualityTest, PaddedTileEqualsTile33) {
  const std::string t32 = data_path("b6_tile32.wtrace");
  const std::string t33 = data_path("b6_tile33.wtrace");
  const LayoutChange c = pair_change(t32, "pad:smem");
  EXPECT_EQ(c.label, "pad:smem:1:128");
  EXPECT_EQ(c.shared_bytes(4096), 4224u);
  const auto got = replay_moved(t32, c);
  EXPECT_FALSE(same_totals(replay(t32), replay(t33)));
  expect_same_counts(got, replay(t33));
  // The XOR swizzle clears the same conflict without the extra column.
  const auto swizzled = replay_moved(t32, pair_change(t32, "swizzle:smem"));
  for (const KernelStats& k : swizzled)
    EXPECT_EQ(k.total(OpClass::SharedLoad).wavefronts, 1u) << kernel_mode_name(k.mode);
}

// A8a: the column walk of a row-major matrix (4096t) is the row walk of its transpose (4t).
TEST(LayoutEqualityTest, TransposedColumnEqualsTheRow) {
  const std::string column = data_path("a8a_column.wtrace");
  const std::string row = data_path("a8a_row.wtrace");
  const LayoutChange c = pair_change(column, "transpose:g0");
  EXPECT_EQ(c.pitch, 4096u);
  EXPECT_FALSE(same_totals(replay(column), replay(row)));
  expect_same_counts(replay_moved(column, c), replay(row));
}

}  // namespace
}  // namespace gms
