// The tag store and its replacement policies on known access sequences.
#include "sim/model/sector_cache.h"

#include <gtest/gtest.h>

#include <vector>

namespace gms {
namespace {

/// One 2-way set: accesses keys in order (allocating on miss) and returns the hit pattern.
template <class Policy>
std::string run(const std::vector<std::uint64_t>& keys, Policy policy = {}) {
  SectorCache<Policy> c(CacheGeometry{1, 2, 4}, std::move(policy));
  std::string hits;
  for (std::uint64_t k : keys) {
    const std::int32_t w = c.find(0, k);
    if (w != SectorCache<Policy>::kMiss) {
      c.touch(0, static_cast<std::uint32_t>(w));
      hits += 'H';
    } else {
      Eviction ev;
      const std::uint32_t way = c.allocate(0, k, ev);
      c.valid(c.slot(0, way)) = 0xf;
      hits += 'M';
    }
  }
  return hits;
}

TEST(SectorCacheTest, FindsEveryFilledWayOfAWideSetAndNoOther) {
  // The search compares eight tags per step (SSE4.1) and the rest one by one: every fill of a
  // 64-way set (a multiple of eight or not), every position, and keys absent from it.
  for (std::uint32_t filled = 0; filled <= 64; ++filled) {
    SectorCache<LruPolicy> c(CacheGeometry{2, 64, 4});
    Eviction ev;
    for (std::uint32_t i = 0; i < filled; ++i) {
      ASSERT_EQ(c.allocate(1, 1000 + 7 * i, ev), i);
      c.allocate(0, 1000 + 7 * i + 1, ev);  // the other set holds neighbours of the keys
    }
    for (std::uint32_t i = 0; i < filled; ++i)
      ASSERT_EQ(c.find(1, 1000 + 7 * i), static_cast<std::int32_t>(i)) << filled;
    EXPECT_EQ(c.find(1, 1000 + 7 * filled), SectorCache<LruPolicy>::kMiss) << filled;
    EXPECT_EQ(c.find(1, 1001), SectorCache<LruPolicy>::kMiss) << filled;
    // A way not yet filled holds the memory's zeros: key 0 is not found there.
    EXPECT_EQ(c.find(1, 0), SectorCache<LruPolicy>::kMiss) << filled;
  }
}

TEST(SectorCacheTest, ClearEmptiesEverySetAndTheSetsRefillAsNew) {
  // Two sets of 4 ways under LRU: set 1 is filled past its ways (so its order has moved), then
  // cleared; its lines are gone, for_each_line sees only what is filled since, and the refilled
  // set takes ways 0, 1, 2, 3 and evicts as a new cache does (way 0 after hits on 1, 2 and 3).
  SectorCache<LruPolicy> c(CacheGeometry{2, 4, 4});
  Eviction ev;
  for (std::uint64_t key = 10; key < 16; ++key) c.allocate(1, key, ev);
  c.touch(1, 2);
  c.allocate(0, 99, ev);
  c.clear();
  for (std::uint64_t key = 10; key < 16; ++key)
    EXPECT_EQ(c.find(1, key), SectorCache<LruPolicy>::kMiss) << key;
  EXPECT_EQ(c.find(0, 99), SectorCache<LruPolicy>::kMiss);
  for (std::uint32_t w = 0; w < 4; ++w) EXPECT_EQ(c.allocate(1, 20 + w, ev), w);
  EXPECT_FALSE(ev.valid);
  std::vector<std::uint64_t> seen;
  c.for_each_line([&](std::size_t, std::uint64_t key, std::uint8_t) { seen.push_back(key); });
  EXPECT_EQ(seen, (std::vector<std::uint64_t>{20, 21, 22, 23}));
  for (std::uint32_t w = 1; w < 4; ++w) c.touch(1, w);
  EXPECT_EQ(c.allocate(1, 30, ev), 0u);
  EXPECT_TRUE(ev.valid);
  EXPECT_EQ(ev.key, 20u);
}

TEST(SectorCacheTest, LruEvictsTheLeastRecentlyUsed) {
  // A B A C: C evicts B (A was used more recently), so A still hits and B misses.
  EXPECT_EQ(run<LruPolicy>({1, 2, 1, 3, 1, 2}), "MMHMHM");
}

TEST(SectorCacheTest, FifoIgnoresHits) {
  // A B A C: C evicts A (first in) although A was just used.
  EXPECT_EQ(run<FifoPolicy>({1, 2, 1, 3, 1, 2}), "MMHMMM");
}

TEST(SectorCacheTest, RandomIsReproducibleForASeed) {
  const std::vector<std::uint64_t> keys{1, 2, 3, 1, 2, 3, 4, 1, 2, 5, 3, 1};
  EXPECT_EQ(run<RandomPolicy>(keys, RandomPolicy(7)), run<RandomPolicy>(keys, RandomPolicy(7)));
}

TEST(SectorCacheTest, SrripKeepsReusedLinesAgainstAScan) {
  // A is reused (promoted to 0), then a scan of new lines passes: SRRIP evicts the scan lines
  // and keeps A; LRU loses A to the scan.
  const std::vector<std::uint64_t> keys{1, 1, 2, 3, 4, 1};
  EXPECT_EQ(run<SrripPolicy>(keys).back(), 'H');
  EXPECT_EQ(run<LruPolicy>(keys).back(), 'M');
}

TEST(SectorCacheTest, EvictionReportsDirtySectors) {
  SectorCache<LruPolicy> c(CacheGeometry{1, 1, 4});
  Eviction ev;
  const std::uint32_t w = c.allocate(0, 10, ev);
  EXPECT_FALSE(ev.valid);
  c.dirty(c.slot(0, w)) = 0b0101;
  c.allocate(0, 11, ev);
  EXPECT_TRUE(ev.valid);
  EXPECT_EQ(ev.key, 10u);
  EXPECT_EQ(ev.dirty_mask, 0b0101);
  EXPECT_EQ(c.find(0, 10), SectorCache<LruPolicy>::kMiss);
}

TEST(SectorCacheTest, SetsAreIndependent) {
  SectorCache<LruPolicy> c(CacheGeometry{2, 1, 4});
  Eviction ev;
  c.allocate(0, 100, ev);
  c.allocate(1, 101, ev);
  EXPECT_NE(c.find(0, 100), SectorCache<LruPolicy>::kMiss);
  EXPECT_NE(c.find(1, 101), SectorCache<LruPolicy>::kMiss);
  EXPECT_EQ(c.find(1, 100), SectorCache<LruPolicy>::kMiss);
}

}  // namespace
}  // namespace gms
