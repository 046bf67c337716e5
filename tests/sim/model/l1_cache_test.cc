// The L1: sector vs line allocation, capacity, non-sectored lines.
#include "sim/model/l1_cache.h"

#include <gtest/gtest.h>

namespace gms {
namespace {

L1Config l1_config(std::uint32_t line, std::uint32_t sector, std::uint32_t sets) {
  L1Config c = default_config().l1;
  c.line_bytes = line;
  c.sector_bytes = sector;
  c.sets = sets;
  return c;
}

TEST(L1CacheTest, MissFetchesOnlyTheMissingSectors) {
  L1Cache<LruPolicy> l1(l1_config(128, 32, 1), 4 * 128, LruPolicy{});
  L1Outcome o = l1.read(0x1000, 0b0011);
  EXPECT_EQ(o.hit_mask, 0);
  EXPECT_EQ(o.fetch_mask, 0b0011);
  o = l1.read(0x1000, 0b0110);  // sector 1 present, sector 2 not: the tag hits, one sector misses
  EXPECT_EQ(o.hit_mask, 0b0010);
  EXPECT_EQ(o.fetch_mask, 0b0100);
}

TEST(L1CacheTest, NonSectoredLineFetchesTheWholeLine) {
  // Kepler: 128-byte lines without sectors; one requested sector brings in all four.
  L1Cache<LruPolicy> l1(l1_config(128, 128, 1), 4 * 128, LruPolicy{});
  L1Outcome o = l1.read(0x2000, 0b0001);
  EXPECT_EQ(o.fetch_mask, 0b1111);
  o = l1.read(0x2000, 0b1000);
  EXPECT_EQ(o.hit_mask, 0b1000);
  EXPECT_EQ(o.fetch_mask, 0);
}

TEST(L1CacheTest, CapacityEvictsWithLru) {
  // 2 lines of capacity, one set: the third distinct line evicts the first.
  L1Cache<LruPolicy> l1(l1_config(128, 32, 1), 2 * 128, LruPolicy{});
  l1.read(0x0000, 0xf);
  l1.read(0x0080, 0xf);
  l1.read(0x0100, 0xf);
  EXPECT_EQ(l1.read(0x0080, 0xf).hit_mask, 0xf);
  EXPECT_EQ(l1.read(0x0000, 0xf).hit_mask, 0);
}

TEST(L1CacheTest, ZeroCapacityMissesEverything) {
  L1Cache<LruPolicy> l1(l1_config(128, 32, 1), 0, LruPolicy{});
  l1.read(0x0, 0xf);
  const L1Outcome o = l1.read(0x0, 0xf);
  EXPECT_EQ(o.hit_mask, 0);
  EXPECT_EQ(o.fetch_mask, 0xf);
}

TEST(L1CacheTest, SmallerLinesSplitACoalescerLine) {
  // 64-byte lines of 32-byte sectors: one 128-byte coalescer line is two L1 lines.
  L1Cache<LruPolicy> l1(l1_config(64, 32, 2), 4 * 64, LruPolicy{});
  EXPECT_EQ(l1.read(0x0, 0b1111).fetch_mask, 0b1111);
  EXPECT_EQ(l1.read(0x0, 0b1010).hit_mask, 0b1010);
}

}  // namespace
}  // namespace gms
