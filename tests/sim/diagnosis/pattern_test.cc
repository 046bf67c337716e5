// Access-pattern diagnosis (sim/diagnosis/pattern.h) on the worked examples of docs/examples.md:
// each named as the notes name it, with its cost and its ideal worked out by hand below. One
// warp of 32 lanes, 4-byte floats, the H200 preset (32-byte sectors; 32 banks of 4 bytes).
#include "sim/diagnosis/pattern.h"

#include <gtest/gtest.h>

#include "sim/config/config.h"
#include "tests/sim/warp_builder.h"

namespace gms {
namespace {

using test::warp;

class PatternTest : public ::testing::Test {
 protected:
  PatternTest() : cfg_(default_config()), coalescer_(cfg_.coalescer), arbiter_(cfg_.shared) {}
  Pattern global(const std::function<Addr(int)>& addr, LaneMask mask = 0xffffffffu,
                 unsigned size = 4) {
    return classify(warp(Op::LDG, size, addr, mask), coalescer_, arbiter_);
  }
  Pattern shared(const std::function<Addr(int)>& addr, unsigned size = 4) {
    return classify(warp(Op::LDS, size, addr), coalescer_, arbiter_);
  }
  SimConfig cfg_;
  Coalescer coalescer_;
  SmemArbiter arbiter_;
};

// A1, 4t: bytes 0..127 are sectors 0..3; 128 distinct bytes need ceil(128 / 32) = 4.
TEST_F(PatternTest, SequentialIsContiguousAndIdeal) {
  const Pattern p = global([](int t) { return Addr(4 * t); });
  EXPECT_EQ(p.kind, PatternKind::Contiguous);
  EXPECT_EQ(p.cost, 4u);
  EXPECT_EQ(p.ideal, 4u);
  EXPECT_EQ(pattern_label(p), "contiguous");
  EXPECT_EQ(pattern_reading(p), "lanes read consecutive 4-byte elements: 4 sectors, the minimum");
}

// A2, 8 + 4t: bytes 8..135 reach sectors 0..4 (135 / 32 = 4), 5 sectors; the same 128 bytes
// aligned need 4. The start is 8 bytes past the sector boundary.
TEST_F(PatternTest, MisalignedStartIsNamedWithItsOffset) {
  const Pattern p = global([](int t) { return Addr(8 + 4 * t); });
  EXPECT_EQ(p.kind, PatternKind::Misaligned);
  EXPECT_EQ(p.misalign, 8u);
  EXPECT_EQ(p.boundary, 32u);
  EXPECT_EQ(p.cost, 5u);
  EXPECT_EQ(p.ideal, 4u);
  EXPECT_EQ(pattern_label(p), "misaligned +8B");
}

// A3, 8t: lane t in sector 8t / 32 = t / 4, so sectors 0..7: 8; ideal 4.
// A4, 32t: one sector per lane: 32; ideal 4.
// A5, 4096t: one sector per lane: 32; ideal 4.
TEST_F(PatternTest, StridesOf2And8And1024Elements) {
  const Pattern s2 = global([](int t) { return Addr(8 * t); });
  EXPECT_EQ(s2.kind, PatternKind::Strided);
  EXPECT_EQ(s2.stride, 8);
  EXPECT_EQ(s2.cost, 8u);
  EXPECT_EQ(s2.ideal, 4u);
  EXPECT_EQ(pattern_label(s2), "strided 2");

  const Pattern s8 = global([](int t) { return Addr(32 * t); });
  EXPECT_EQ(s8.kind, PatternKind::Strided);
  EXPECT_EQ(s8.cost, 32u);
  EXPECT_EQ(s8.ideal, 4u);
  EXPECT_EQ(pattern_label(s8), "strided 8");
  EXPECT_EQ(pattern_reading(s8),
            "lanes read every 8th 4-byte element, 32 bytes apart: 32 sectors where 4 would do "
            "(8.0x)");

  const Pattern s1024 = global([](int t) { return Addr(4096 * t); });
  EXPECT_EQ(s1024.kind, PatternKind::Strided);
  EXPECT_EQ(s1024.cost, 32u);
  EXPECT_EQ(s1024.ideal, 4u);
  EXPECT_EQ(pattern_label(s1024), "strided 1024");
}

// A6, 4(31 - t): the bytes of A1 in reverse lane order: 4 sectors, ideal 4.
TEST_F(PatternTest, ReversedLanes) {
  const Pattern p = global([](int t) { return Addr(4 * (31 - t)); });
  EXPECT_EQ(p.kind, PatternKind::Reversed);
  EXPECT_EQ(p.stride, -4);
  EXPECT_EQ(p.cost, 4u);
  EXPECT_EQ(p.ideal, 4u);
}

// A7: every lane at 0: 4 distinct bytes, 1 sector; ceil(4 / 32) = 1.
TEST_F(PatternTest, Broadcast) {
  const Pattern p = global([](int) { return Addr(0); });
  EXPECT_EQ(p.kind, PatternKind::Broadcast);
  EXPECT_EQ(p.cost, 1u);
  EXPECT_EQ(p.ideal, 1u);
}

// A9, 12t (field x of {x, y, z}): 32 x 12 = 384 bytes, lane 31 at 372..375 in sector 11, and a
// stride under 32 leaves no sector untouched: 12 sectors; ideal 4.
// B5, 24t (one field of 6-float structs): lane 31 at 744..747 in sector 23: 24 sectors; ideal 4.
TEST_F(PatternTest, ArrayOfStructuresFields12And24Bytes) {
  const Pattern a12 = global([](int t) { return Addr(12 * t); });
  EXPECT_EQ(a12.kind, PatternKind::StructField);
  EXPECT_EQ(a12.stride, 12);
  EXPECT_EQ(a12.cost, 12u);
  EXPECT_EQ(a12.ideal, 4u);
  EXPECT_EQ(pattern_label(a12), "struct_field 12B");

  const Pattern a24 = global([](int t) { return Addr(24 * t); });
  EXPECT_EQ(a24.kind, PatternKind::StructField);
  EXPECT_EQ(a24.cost, 24u);
  EXPECT_EQ(a24.ideal, 4u);
  EXPECT_EQ(pattern_label(a24), "struct_field 24B");
}

// A 16 x 2 thread block over rows of 1025 floats (pitch 4100 bytes): row 0 at 0..63 is sectors
// 0..1; row 1 at 4100..4163 is sectors 128..130 (4100 / 32 = 128, 4163 / 32 = 130): 5 sectors;
// 128 distinct bytes need 4.
TEST_F(PatternTest, TileRowsWithAPitch) {
  const Pattern p = global([](int t) { return Addr(t < 16 ? 4 * t : 4100 + 4 * (t - 16)); });
  EXPECT_EQ(p.kind, PatternKind::Tile2D);
  EXPECT_EQ(p.row_elems, 16u);
  EXPECT_EQ(p.pitch, 4100);
  EXPECT_EQ(p.cost, 5u);
  EXPECT_EQ(p.ideal, 4u);
  EXPECT_EQ(pattern_label(p), "tile2d 16x2 pitch 4100B");
}

// A8b: t < 16 at 4t (sectors 0..1), t >= 16 at 4000 + 256(t - 16), one sector each: 2 + 16 =
// 18; 128 distinct bytes need 4. Neither one stride nor rows of one width: scattered.
TEST_F(PatternTest, MixedWarpIsScattered) {
  const Pattern p = global([](int t) { return Addr(t < 16 ? 4 * t : 4000 + 256 * (t - 16)); });
  EXPECT_EQ(p.kind, PatternKind::Scattered);
  EXPECT_EQ(p.cost, 18u);
  EXPECT_EQ(p.ideal, 4u);
}

// Neighbouring lanes swapped, 4(t xor 1): the bytes of A1, 4 sectors, out of order.
TEST_F(PatternTest, PermutedBlock) {
  const Pattern p = global([](int t) { return Addr(4 * (t ^ 1)); });
  EXPECT_EQ(p.kind, PatternKind::Permuted);
  EXPECT_EQ(p.cost, 4u);
}

// B3, lane 0 alone at 0: one element, 1 sector, ideal 1.
TEST_F(PatternTest, OneLaneIsContiguous) {
  const Pattern p = global([](int) { return Addr(0); }, 1u);
  EXPECT_EQ(p.kind, PatternKind::Contiguous);
  EXPECT_EQ(p.lanes, 1);
  EXPECT_EQ(p.cost, 1u);
}

// B6: float tile[32][32], lane i reads tile[i][0] = word 32i, bank 32i mod 32 = 0 for every lane:
// 32 wavefronts; 32 distinct words need ceil(32 / 32) = 1. float tile[32][33]: word 33i, bank
// 33i mod 32 = i: 1 wavefront. C5, stride 24 words: gcd(24, 32) = 8 wavefronts. B4s: one word,
// 1 wavefront.
TEST_F(PatternTest, SharedTiles32And33AndStrides) {
  const Pattern t32 = shared([](int i) { return Addr(4 * 32 * i); });
  EXPECT_EQ(t32.kind, PatternKind::Strided);
  EXPECT_TRUE(t32.shared);
  EXPECT_EQ(t32.cost, 32u);
  EXPECT_EQ(t32.ideal, 1u);
  EXPECT_EQ(pattern_label(t32), "strided 32w 32-way");
  EXPECT_EQ(pattern_reading(t32),
            "lanes read shared memory at a stride of 32 words, a 32-way bank conflict: 32 "
            "wavefronts where 1 would do (32.0x)");

  const Pattern t33 = shared([](int i) { return Addr(4 * 33 * i); });
  EXPECT_EQ(t33.kind, PatternKind::Strided);
  EXPECT_EQ(t33.cost, 1u);
  EXPECT_EQ(t33.ideal, 1u);
  EXPECT_EQ(pattern_label(t33), "strided 33w");

  const Pattern s24 = shared([](int i) { return Addr(4 * 24 * i); });
  EXPECT_EQ(s24.cost, 8u);
  EXPECT_EQ(pattern_label(s24), "strided 24w 8-way");

  const Pattern b = shared([](int) { return Addr(64); });
  EXPECT_EQ(b.kind, PatternKind::Broadcast);
  EXPECT_EQ(b.cost, 1u);
}

// Three executions at a stride of 8 elements and one contiguous: 75% / 25%; the costs add up:
// 3 x 32 + 4 = 100 sectors against 4 x 4 = 16.
TEST_F(PatternTest, SummaryGivesTheShareOfEachKind) {
  PatternSummary s;
  for (int i = 0; i < 3; ++i) s.add(global([](int t) { return Addr(32 * t); }));
  s.add(global([](int t) { return Addr(4 * t); }));
  EXPECT_EQ(s.total(), 4u);
  EXPECT_EQ(s.dominant(), PatternKind::Strided);
  EXPECT_EQ(s.cost, 100u);
  EXPECT_EQ(s.ideal, 16u);
  EXPECT_EQ(summary_label(s), "strided 8 75%; contiguous 25%");
  EXPECT_EQ(summary_reading(s),
            "75% of executions: lanes read every 8th 4-byte element, 32 bytes apart; 4 "
            "executions: 100 sectors where 16 would do (6.2x)");
}

// The ideal layout: A4's lanes (32t) packed from 0 (the lowest address, rounded down to 128, the
// packed size) become A1's 4t: 4 sectors. A2's 8 + 4t become 4t too. A contiguous aligned access
// and a broadcast are unchanged. The shared tile[32][32] column becomes words 0..31: 1 wavefront.
TEST_F(PatternTest, IdealLayoutPacksTheSameElements) {
  WarpInstr a4 = test::strided(Op::LDG, 4, 0, 32);
  make_ideal(a4);
  EXPECT_FALSE(a4.strided);
  for (int t = 0; t < kWarpSize; ++t) EXPECT_EQ(a4.addr[t], Addr(4 * t));
  EXPECT_EQ(classify(a4, coalescer_, arbiter_).cost, 4u);

  WarpInstr a2 = warp(Op::LDG, 4, [](int t) { return Addr(8 + 4 * t); });
  make_ideal(a2);
  for (int t = 0; t < kWarpSize; ++t) EXPECT_EQ(a2.addr[t], Addr(4 * t));

  const WarpInstr aligned = warp(Op::LDG, 4, [](int t) { return Addr(1 << 20) + 4 * t; });
  WarpInstr copy = aligned;
  make_ideal(copy);
  EXPECT_EQ(copy, aligned);

  const WarpInstr bc = warp(Op::LDG, 4, [](int) { return Addr(4100); });
  copy = bc;
  make_ideal(copy);
  EXPECT_EQ(copy, bc);

  WarpInstr tile = warp(Op::LDS, 4, [](int i) { return Addr(4 * 32 * i); });
  make_ideal(tile);
  const Pattern p = classify(tile, coalescer_, arbiter_);
  EXPECT_EQ(p.cost, 1u);
  EXPECT_EQ(p.kind, PatternKind::Contiguous);

  // Reversed lanes keep their order of elements: lane t still reads the element of rank 31 - t.
  WarpInstr rev = warp(Op::LDG, 4, [](int t) { return Addr(4 * (31 - t)); });
  make_ideal(rev);
  for (int t = 0; t < kWarpSize; ++t) EXPECT_EQ(rev.addr[t], Addr(4 * (31 - t)));
}

}  // namespace
}  // namespace gms
