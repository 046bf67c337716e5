// The replacement policies' victims against straightforward reference models, on random
// sequences of hits and fills in several sets at once.
#include "sim/model/replacement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <list>
#include <random>
#include <vector>

namespace gms {
namespace {

TEST(ReplacementTest, LruVictimIsTheLeastRecentlyUsedWay) {
  std::mt19937 rng(3);
  for (std::uint32_t ways : {1u, 2u, 3u, 16u, 57u, 64u}) {
    const std::uint32_t sets = 5;
    LruPolicy lru;
    lru.init(sets, ways);
    std::vector<std::list<std::uint32_t>> order(sets);  // front = most recent
    std::vector<std::uint32_t> filled(sets, 0);
    for (int step = 0; step < 20000; ++step) {
      const std::uint32_t set = rng() % sets;
      auto& o = order[set];
      if (filled[set] < ways) {  // the cache fills free ways in order first
        const std::uint32_t way = filled[set]++;
        lru.on_fill(set, way);
        o.push_front(way);
      } else if (rng() % 3 == 0) {  // a miss: the victim is refilled
        const std::uint32_t way = lru.victim(set);
        ASSERT_EQ(way, o.back()) << "ways " << ways << " step " << step;
        lru.on_fill(set, way);
        o.pop_back();
        o.push_front(way);
      } else {  // a hit on any present way
        const std::uint32_t way = rng() % ways;
        lru.on_hit(set, way);
        o.remove(way);
        o.push_front(way);
      }
    }
  }
}

/// Drives `chosen` and `direct` through the same random hits, fills and victims and expects the
/// same victim every time.
template <class Direct>
void expect_same_victims(ChosenPolicy chosen, Direct direct) {
  std::mt19937 rng(11);
  const std::uint32_t sets = 7, ways = 16;
  chosen.init(sets, ways);
  direct.init(sets, ways);
  for (int step = 0; step < 20000; ++step) {
    const std::uint32_t set = rng() % sets, way = rng() % ways;
    switch (rng() % 3) {
      case 0:
        chosen.on_hit(set, way);
        direct.on_hit(set, way);
        break;
      case 1:
        chosen.on_fill(set, way);
        direct.on_fill(set, way);
        break;
      default:
        ASSERT_EQ(chosen.victim(set), direct.victim(set)) << "step " << step;
    }
  }
}

TEST(ReplacementTest, ChosenPolicyActsAsThePolicyItNames) {
  expect_same_victims(ChosenPolicy(ReplacementKind::Fifo, 5), FifoPolicy{});
  expect_same_victims(ChosenPolicy(ReplacementKind::Random, 5), RandomPolicy(5));
  expect_same_victims(ChosenPolicy(ReplacementKind::Srrip, 5), SrripPolicy{});
  EXPECT_THROW(ChosenPolicy(ReplacementKind::Lru, 5), SimError);
}

}  // namespace
}  // namespace gms
