// The wide tag search (AVX-512 where the CPU has it) against a plain scan, and a 64-way set
// through SectorCache, whose lookups use it.
#include "sim/host/tag_search.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "sim/host/cpu_features.h"
#include "sim/model/sector_cache.h"

namespace gms {
namespace {

std::int32_t plain_find(const std::vector<std::uint64_t>& tags, std::uint32_t n,
                        std::uint64_t key) {
  for (std::uint32_t w = 0; w < n; ++w)
    if (tags[w] == key) return static_cast<std::int32_t>(w);
  return -1;
}

TEST(TagSearchTest, AgreesWithAPlainScanForEveryFillAndPosition) {
  if (!cpu_has_avx512f())
    GTEST_SKIP() << "AVX-512F paths off: the CPU has none, or GMS_PORTABLE is set";
  std::mt19937_64 rng(7);
  std::vector<std::uint64_t> tags(64);
  for (auto& t : tags) t = rng() >> 8;
  // Keys present at every way, absent keys, and keys present only beyond the filled ways.
  for (std::uint32_t n = 0; n <= 64; ++n) {
    for (std::uint32_t w = 0; w < 64; ++w)
      EXPECT_EQ(detail::find_tag_avx512(tags.data(), n, tags[w]), plain_find(tags, n, tags[w]))
          << "n " << n << " way " << w;
    EXPECT_EQ(detail::find_tag_avx512(tags.data(), n, 1ull << 60), -1) << "n " << n;
  }
  // The first of two equal tags is found (a set never holds two, but the scan is defined so).
  tags[40] = tags[3];
  EXPECT_EQ(detail::find_tag_avx512(tags.data(), 64, tags[3]), 3);
}

TEST(TagSearchTest, SixtyFourWaySetFindsEveryLineItHolds) {
  SectorCache<LruPolicy, false> c(CacheGeometry{2, 64, 4});
  Eviction ev;
  for (std::uint64_t k = 0; k < 45; ++k) c.allocate(1, 1000 + 7 * k, ev);
  for (std::uint64_t k = 0; k < 45; ++k) EXPECT_EQ(c.find(1, 1000 + 7 * k), std::int32_t(k));
  EXPECT_EQ(c.find(1, 1001), SectorCache<LruPolicy>::kMiss);
  EXPECT_EQ(c.find(0, 1000), SectorCache<LruPolicy>::kMiss);                // another set
  for (std::uint64_t k = 45; k < 70; ++k) c.allocate(1, 1000 + 7 * k, ev);  // 6 evictions
  EXPECT_EQ(c.find(1, 1000 + 7 * 69), 5);  // the sixth victim's way
  EXPECT_EQ(c.find(1, 1000), SectorCache<LruPolicy>::kMiss);
}

}  // namespace
}  // namespace gms
