// The memo of strided shapes gives exactly what the coalescer computes, for every operation,
// size, mask, stride and offset, including bases where a result cannot be shifted (near the top
// of the address space), and only reuses a shape whose key fields all match.
#include "sim/replay/fast/coalesce_memo.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <utility>

#include "sim/config/config.h"
#include "tests/sim/same_counts.h"
#include "tests/sim/warp_builder.h"

namespace gms {
namespace {

void expect_same(const CoalescedAccess& a, const CoalescedAccess& b, Op op, int round) {
  ASSERT_TRUE(test::same_counts(a, b)) << round;
  for (std::uint32_t i = 0; i < a.lines; ++i) {
    ASSERT_EQ(a.line_list[i].line_addr, b.line_list[i].line_addr) << round;
    ASSERT_EQ(a.line_list[i].sector_mask, b.line_list[i].sector_mask) << round;
    if (is_global_load(op)) continue;  // byte masks are for writes only
    ASSERT_EQ(a.line_list[i].byte_mask, b.line_list[i].byte_mask) << round;
  }
}

TEST(CoalesceMemoTest, MatchesTheCoalescerOnRandomStridedRecords) {
  CoalescerConfig cfg = default_config().coalescer;
  cfg.store_segment_bytes = 64;  // loads and stores of different transaction sizes
  const Coalescer coalescer(cfg);
  CoalesceMemo memo;
  std::mt19937_64 rng(5);
  const Op ops[] = {Op::LDG, Op::STG, Op::ATOMG, Op::LDL};
  const unsigned sizes[] = {1, 2, 4, 8, 16};
  const std::int64_t strides[] = {0, 1, 4, 8, 16, -4, -8, 32, 128, 132, -256, 4096};
  int hits = 0;
  struct Shape {
    Op op;
    unsigned size;
    std::int64_t stride;
    LaneMask mask;
    Addr offset;
  };
  auto random_shape = [&] {
    return Shape{ops[rng() % 4], sizes[rng() % 5], strides[rng() % 12],
                 rng() % 3 == 0 ? static_cast<LaneMask>(rng() | 1) : 0xffffffffu,
                 (rng() % 128) & ~Addr{15}};
  };
  std::array<Shape, 8> usual;  // the shape each slot mostly sees
  for (Shape& shape : usual) shape = random_shape();
  for (int round = 0; round < 20000; ++round) {
    const std::uint32_t key = static_cast<std::uint32_t>(rng() % usual.size());
    const Shape shape = rng() % 5 == 0 ? random_shape() : usual[key];
    const Op op = shape.op;
    const unsigned size = shape.size;
    const std::int64_t stride = shape.stride;
    const LaneMask mask = shape.mask;
    Addr base = ((rng() >> 24) & ~Addr{kLineBytes - 1}) + (shape.offset & ~Addr{size - 1});
    // Around 2^63, the memo's bound: such records are never memoized, whatever the shape.
    if (round % 11 == 0) base = (Addr{1} << 63) - kLineBytes + (base & (kLineBytes - 1));
    WarpInstr w = test::strided(op, size, base, stride, mask);
    // The same addresses as a list: a full warp's list steps by `stride`, so it is memoized
    // like the strided record (a partial one is not).
    if (rng() % 4 == 0) w.strided = false;
    CoalescedAccess direct, memoized;
    coalescer.coalesce(w, direct);
    if (memo.lookup(key, w, memoized)) {
      ++hits;
      expect_same(memoized, direct, op, round);
    } else {
      memo.store(key, w, direct);
    }
  }
  EXPECT_GT(hits, 5000);  // the comparison above ran often
}

TEST(CoalesceMemoTest, FullWarpListsThatStepByOneAmountShareTheStridedShape) {
  const Coalescer coalescer(default_config().coalescer);
  CoalesceMemo memo;
  CoalescedAccess a, out;
  const WarpInstr strided = test::strided(Op::LDG, 4, 0x10000, 8);
  coalescer.coalesce(strided, a);
  memo.store(0, strided, a);
  WarpInstr list = test::strided(Op::LDG, 4, 0x10000 + 4 * kLineBytes, 8);
  list.strided = false;
  ASSERT_TRUE(memo.lookup(0, list, out));
  EXPECT_EQ(out.line_list[0].line_addr, 0x10000 + 4 * kLineBytes);
  EXPECT_EQ(out.sectors, a.sectors);
  list.addr[17] += 4;  // one lane off the step: not this shape
  EXPECT_FALSE(memo.lookup(0, list, out));
  WarpInstr partial = test::strided(Op::LDG, 4, 0x10000, 8, 0x0000ffffu);
  partial.strided = false;  // a partial warp's list is never memoized
  coalescer.coalesce(partial, a);
  memo.store(1, partial, a);
  EXPECT_FALSE(memo.lookup(1, partial, out));
}

TEST(CoalesceMemoTest, RecordsNearTheTopOfTheAddressSpaceAreNotShifted) {
  // The last lane's 8 bytes at 2^64 - 4 are clipped to 4: this record does not coalesce to
  // the shifted result of the same shape lower down, so the memo must not serve it.
  const Coalescer coalescer{default_config().coalescer};
  CoalesceMemo memo;
  const WarpInstr low = test::strided(Op::LDG, 8, 0x1000, 4);
  const WarpInstr top = test::strided(Op::LDG, 8, ~Addr{0} - 127, 4);
  CoalescedAccess a, b, out;
  coalescer.coalesce(low, a);
  coalescer.coalesce(top, b);
  ASSERT_EQ(a.bytes_distinct, 132u);
  ASSERT_EQ(b.bytes_distinct, 128u);
  memo.store(0, low, a);
  EXPECT_FALSE(memo.lookup(0, top, out));
  memo.store(0, top, b);  // nor remember it
  EXPECT_TRUE(memo.lookup(0, low, out));
  EXPECT_EQ(out.bytes_distinct, 132u);
}

TEST(CoalesceMemoTest, ReusesOnlyAnIdenticalShapeAtTheSameOffset) {
  const Coalescer coalescer{default_config().coalescer};
  CoalesceMemo memo;
  const WarpInstr first = test::strided(Op::LDG, 4, 0x1000, 4);
  CoalescedAccess a;
  coalescer.coalesce(first, a);
  memo.store(0, first, a);
  CoalescedAccess out;
  EXPECT_TRUE(memo.lookup(0, test::strided(Op::LDG, 4, 0x5000, 4), out));
  EXPECT_EQ(out.line_list[0].line_addr, 0x5000u);
  EXPECT_FALSE(memo.lookup(0, test::strided(Op::LDG, 4, 0x5004, 4), out));          // offset
  EXPECT_FALSE(memo.lookup(0, test::strided(Op::STG, 4, 0x5000, 4), out));          // operation
  EXPECT_FALSE(memo.lookup(0, test::strided(Op::LDG, 8, 0x5000, 4), out));          // size
  EXPECT_FALSE(memo.lookup(0, test::strided(Op::LDG, 4, 0x5000, 8), out));          // stride
  EXPECT_FALSE(memo.lookup(0, test::strided(Op::LDG, 4, 0x5000, 4, 0xffff), out));  // mask
  EXPECT_FALSE(memo.lookup(1, test::strided(Op::LDG, 4, 0x5000, 4), out));          // another slot
  WarpInstr listed = test::strided(Op::LDG, 4, 0x5000, 4);
  listed.strided = false;
  std::swap(listed.addr[3], listed.addr[4]);  // the same addresses, not in steps: a list
  EXPECT_FALSE(memo.lookup(0, listed, out));
}

}  // namespace
}  // namespace gms
