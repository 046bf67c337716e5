// The distinct keys a quarter-warp holds (sim/lanes/quarter_distinct.h): both implementations
// against a count with std::set, on keys with many repeats, partial masks and shifts.
#include "sim/lanes/quarter_distinct.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "sim/lanes/cpu_features.h"

namespace gms {
namespace {

unsigned by_set(const std::array<Addr, kWarpSize>& keys, LaneMask mask, unsigned shift) {
  unsigned d = 0;
  for (unsigned q = 0; q < kWarpSize; q += 8) {
    std::set<Addr> seen;
    for (unsigned i = q; i < q + 8; ++i)
      if (mask >> i & 1u) seen.insert(keys[i] >> shift);
    d += static_cast<unsigned>(seen.size());
  }
  return d;
}

TEST(QuarterDistinctTest, HandCases) {
  std::array<Addr, kWarpSize> keys{};
  EXPECT_EQ(distinct_per_quarter(keys, 0xffffffffu), 4u);  // one key a quarter
  EXPECT_EQ(distinct_per_quarter(keys, 0x00000100u), 1u);  // one lane
  for (unsigned i = 0; i < kWarpSize; ++i) keys[i] = i * 128;
  EXPECT_EQ(distinct_per_quarter(keys, 0xffffffffu, 7), 32u);  // a line a lane
  for (unsigned i = 0; i < kWarpSize; ++i) keys[i] = i * 48;   // lines 0-11: 3, 3, 3, 3
  EXPECT_EQ(distinct_per_quarter(keys, 0xffffffffu, 7), 12u);
}

TEST(QuarterDistinctTest, BothImplementationsCountLikeASet) {
  std::mt19937_64 rng(8);
  for (int round = 0; round < 20000; ++round) {
    std::array<Addr, kWarpSize> keys;
    const Addr range = Addr{1} << (rng() % 12);
    for (Addr& k : keys) k = rng() % range * (rng() % 2 == 0 ? 1 : 128);
    if (round % 3 == 0) std::sort(keys.begin(), keys.end());
    const LaneMask mask = round % 2 == 0 ? 0xffffffffu : static_cast<LaneMask>(rng());
    const unsigned shift = round % 4 == 0 ? 7 : 0;
    const unsigned want = by_set(keys, mask, shift);
    ASSERT_EQ(detail::distinct_per_quarter_portable(keys, mask, shift), want) << round;
    if (cpu_has_avx512cd()) {
      ASSERT_EQ(detail::distinct_per_quarter_avx512(keys, mask, shift), want) << round;
    }
  }
}

}  // namespace
}  // namespace gms
