// The coalescer against the notes' worked examples (docs/examples.md A and B) and
// the edge cases of the definitions: unaligned, crossing, inactive lanes, any order.
#include "sim/model/coalescer.h"

#include <gtest/gtest.h>

#include "sim/config/config.h"
#include "tests/sim/warp_builder.h"

namespace gms {
namespace {

using test::strided;
using test::warp;

CoalescedAccess run(const WarpInstr& w, CoalesceRule rule = CoalesceRule::Sectors,
                    std::uint32_t segment = 0) {
  SimConfig cfg = default_config();
  cfg.coalescer.rule = rule;
  cfg.coalescer.segment_bytes = segment;
  validate(cfg);
  CoalescedAccess out;
  Coalescer(cfg.coalescer).coalesce(w, out);
  return out;
}

double eff(const CoalescedAccess& a) {
  return static_cast<double>(a.bytes_distinct) / (a.transactions * a.segment_bytes);
}

struct SectorCase {
  const char* name;
  WarpInstr w;
  std::uint32_t sectors;
  double efficiency;
};

TEST(CoalescerTest, NotesSectionAThirtyTwoByteSectors) {
  const SectorCase cases[] = {
      {"A1 sequential", strided(Op::LDG, 4, 0, 4), 4, 1.0},
      {"A2 misaligned", strided(Op::LDG, 4, 8, 4), 5, 0.8},
      {"A3 stride 2", strided(Op::LDG, 4, 0, 8), 8, 0.5},
      {"A4 stride 8", strided(Op::LDG, 4, 0, 32), 32, 0.125},
      {"A5 stride 1024", strided(Op::LDG, 4, 0, 4096), 32, 0.125},
      {"A6 reversed", warp(Op::LDG, 4, [](int t) { return Addr(4 * (31 - t)); }), 4, 1.0},
      {"A7 broadcast", strided(Op::LDG, 4, 0, 0), 1, 0.125},
      {"A8a column walk", strided(Op::LDG, 4, 0, 4096), 32, 0.125},
      {"A8a row walk", strided(Op::LDG, 4, 0, 4), 4, 1.0},
      {"A8b mixed warp",
       warp(Op::LDG, 4, [](int t) { return t < 16 ? Addr(4 * t) : Addr(4000 + 256 * (t - 16)); }),
       18, 128.0 / 576.0},
      {"A9 struct x", strided(Op::LDG, 4, 0, 12), 12, 1.0 / 3.0},
  };
  for (const SectorCase& c : cases) {
    const CoalescedAccess a = run(c.w);
    EXPECT_EQ(a.sectors, c.sectors) << c.name;
    EXPECT_EQ(a.transactions, c.sectors) << c.name;
    EXPECT_NEAR(eff(a), c.efficiency, 1e-9) << c.name;
    EXPECT_LE(eff(a), 1.0) << c.name;
  }
}

TEST(CoalescerTest, NotesSectionBOneHundredTwentyEightByteTransactions) {
  const SectorCase cases[] = {
      {"B1 consecutive", strided(Op::LDG, 4, 0, 4), 1, 1.0},
      {"B2a stride 2", strided(Op::LDG, 4, 0, 8), 2, 0.5},
      {"B2b stride 32", strided(Op::LDG, 4, 0, 128), 32, 0.03125},
      {"B3 one lane", strided(Op::LDG, 4, 0, 4, 0x1), 1, 0.03125},
      {"B4 broadcast", strided(Op::LDG, 4, 0, 0), 1, 0.03125},
      {"B5 24-byte struct", strided(Op::LDG, 4, 0, 24), 6, 128.0 / 768.0},
      {"B7 RGB red", strided(Op::LDG, 4, 0, 12), 3, 1.0 / 3.0},
      {"B7 planar red", strided(Op::LDG, 4, 0, 4), 1, 1.0},
      {"B9 base 64", strided(Op::LDG, 4, 64, 4), 2, 0.5},
  };
  for (const SectorCase& c : cases) {
    const CoalescedAccess a = run(c.w, CoalesceRule::KeplerL1);
    EXPECT_EQ(a.transactions, c.sectors) << c.name;
    EXPECT_EQ(a.segment_bytes, 128u) << c.name;
    EXPECT_NEAR(eff(a), c.efficiency, 1e-9) << c.name;
  }
}

TEST(CoalescerTest, AllSixStructFieldsAosVersusSoa) {
  // B5: reading all six fields of a 24-byte struct is 6 instructions of 6 transactions (36),
  // against 6 x 1 with one array per field.
  std::uint32_t aos = 0, soa = 0;
  for (int f = 0; f < 6; ++f) {
    aos += run(strided(Op::LDG, 4, 4 * f, 24), CoalesceRule::KeplerL1).transactions;
    soa += run(strided(Op::LDG, 4, 0x100000 * f, 4), CoalesceRule::KeplerL1).transactions;
  }
  EXPECT_EQ(aos, 36u);
  EXPECT_EQ(soa, 6u);
}

TEST(CoalescerTest, KeplerL1StoresUseThirtyTwoByteSegments) {
  const CoalescedAccess a = run(strided(Op::STG, 4, 0, 4), CoalesceRule::KeplerL1);
  EXPECT_EQ(a.segment_bytes, 32u);
  EXPECT_EQ(a.transactions, 4u);
}

TEST(CoalescerTest, SegmentSizeSweep) {
  const WarpInstr w = strided(Op::LDG, 4, 0, 8);  // 256 bytes spanned
  EXPECT_EQ(run(w, CoalesceRule::Sectors, 32).transactions, 8u);
  EXPECT_EQ(run(w, CoalesceRule::Sectors, 64).transactions, 4u);
  EXPECT_EQ(run(w, CoalesceRule::Sectors, 128).transactions, 2u);
  EXPECT_EQ(run(w, CoalesceRule::Sectors, 64).sectors, 8u);
  EXPECT_EQ(run(w, CoalesceRule::Sectors, 64).lines, 2u);
}

TEST(CoalescerTest, AccessCrossingSectorAndLineBoundaries) {
  // One lane, 16 bytes at 120: bytes 120..135 touch sectors 3 (line 0) and 4 (line 1).
  const CoalescedAccess a = run(strided(Op::LDG, 16, 120, 0, 0x1));
  EXPECT_EQ(a.sectors, 2u);
  EXPECT_EQ(a.lines, 2u);
  EXPECT_EQ(a.bytes_distinct, 16u);
  ASSERT_EQ(a.lines, 2u);
  EXPECT_EQ(a.line_list[0].line_addr, 0u);
  EXPECT_EQ(a.line_list[0].sector_mask, 0b1000);
  EXPECT_EQ(a.line_list[1].line_addr, 128u);
  EXPECT_EQ(a.line_list[1].sector_mask, 0b0001);
}

TEST(CoalescerTest, OverlappingWideAccessesCountDistinctBytes) {
  // 8-byte accesses at a 4-byte stride overlap: 32 lanes cover bytes 0..131.
  const CoalescedAccess a = run(strided(Op::LDG, 8, 0, 4));
  EXPECT_EQ(a.bytes_requested, 256u);
  EXPECT_EQ(a.bytes_distinct, 132u);
  EXPECT_EQ(a.sectors, 5u);
  EXPECT_EQ(a.lines, 2u);
}

TEST(CoalescerTest, InactiveLanesAndOrderDoNotMatter) {
  const LaneMask even = 0x55555555u;
  const CoalescedAccess ordered = run(strided(Op::LDG, 4, 0, 4, even));
  const CoalescedAccess shuffled = run(warp(
      Op::LDG, 4, [](int t) { return Addr(4 * ((t * 7) % 32)); }, even));
  EXPECT_EQ(ordered.active_threads, 16u);
  EXPECT_EQ(ordered.sectors, 4u);
  EXPECT_EQ(ordered.bytes_distinct, 64u);
  EXPECT_EQ(shuffled.active_threads, 16u);
  EXPECT_EQ(shuffled.bytes_distinct, 64u);
}

TEST(CoalescerTest, NegativeStrideMatchesReversedList) {
  const CoalescedAccess a = run(strided(Op::LDG, 4, 0x107c, -4));
  EXPECT_EQ(a.sectors, 4u);
  EXPECT_EQ(a.lines, 1u);
  EXPECT_EQ(a.line_list[0].line_addr, 0x1000u);
  EXPECT_EQ(a.line_list[0].sector_mask, 0xf);
}

TEST(CoalescerTest, LineMasksCoverEverySectorTouched) {
  const CoalescedAccess a = run(strided(Op::LDG, 4, 0, 32));  // one float per sector, 8 lines
  ASSERT_EQ(a.lines, 8u);
  for (std::uint32_t i = 0; i < a.lines; ++i) {
    EXPECT_EQ(a.line_list[i].line_addr, 128u * i);
    EXPECT_EQ(a.line_list[i].sector_mask, 0xf);
  }
}

TEST(CoalescerTest, TopOfAddressSpaceIsClipped) {
  const CoalescedAccess a = run(strided(Op::LDG, 16, ~Addr{0} - 3, 0, 0x1));
  EXPECT_EQ(a.sectors, 1u);
  EXPECT_EQ(a.bytes_distinct, 4u);
}

}  // namespace
}  // namespace gms
