// The replacement policies' victims against straightforward reference models, on random
// sequences of hits and fills in several sets at once.
#include "sim/model/replacement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <list>
#include <random>
#include <vector>

namespace gms {
namespace {

TEST(ReplacementTest, LruVictimIsTheLeastRecentlyUsedWay) {  // fills at the front or ranked
  std::mt19937 rng(3);
  for (std::uint32_t ways : {1u, 2u, 3u, 16u, 57u, 64u})
    for (std::uint32_t rank : {1u, ways / 2 + 1, ways}) {
      const std::uint32_t sets = 5;
      LruPolicy lru;
      lru.init(sets, ways);
      for (std::uint32_t set = 0; set < sets; ++set) lru.start(set);
      std::vector<std::list<std::uint32_t>> order(sets);  // front = most recent
      std::vector<std::uint32_t> filled(sets, 0);
      for (int step = 0; step < 20000; ++step) {
        const std::uint32_t set = rng() % sets;
        auto& o = order[set];
        // A fill at the front, or (one in four) behind `rank` of the set's other lines: all of
        // them when it holds fewer (the policy's order counts never-used ways too, but those
        // are filled before any victim is chosen; a cache uses one rank, as the L2's copies do).
        const bool ranked = rng() % 4 == 0;
        auto fill = [&](std::uint32_t way) {
          if (ranked) {
            lru.on_fill_at(set, way, rank);
            o.insert(std::next(o.begin(), std::min<std::ptrdiff_t>(rank, std::ssize(o))), way);
          } else {
            lru.on_fill(set, way);
            o.push_front(way);
          }
        };
        if (filled[set] < ways) {  // the cache fills free ways in order first
          fill(filled[set]++);
        } else if (rng() % 3 == 0) {  // a miss: the victim is refilled
          const std::uint32_t way = lru.victim(set);
          ASSERT_EQ(way, o.back()) << "ways " << ways << " rank " << rank << " step " << step;
          o.pop_back();
          fill(way);
        } else {  // a hit on any present way
          const std::uint32_t way = rng() % ways;
          lru.on_hit(set, way);
          o.remove(way);
          o.push_front(way);
        }
      }
    }
}

TEST(ReplacementTest, NruVictimIsTheFirstWayNotUsedSinceTheEpochBegan) {
  std::mt19937 rng(5);
  for (std::uint32_t ways : {1u, 2u, 3u, 16u, 63u, 64u, 65u, 130u}) {
    const std::uint32_t sets = 3;
    NruPolicy nru;
    nru.init(sets, ways);
    for (std::uint32_t set = 0; set < sets; ++set) nru.start(set);
    std::vector<std::vector<bool>> recent(sets, std::vector<bool>(ways, false));
    auto use = [&](std::uint32_t set, std::uint32_t way) {
      std::vector<bool>& r = recent[set];
      r[way] = true;
      if (std::find(r.begin(), r.end(), false) == r.end()) {
        std::fill(r.begin(), r.end(), false);
        r[way] = true;
      }
    };
    for (int step = 0; step < 20000; ++step) {
      const std::uint32_t set = rng() % sets;
      const std::vector<bool>& r = recent[set];
      if (rng() % 2 == 0) {
        const auto first = std::find(r.begin(), r.end(), false);
        const std::uint32_t expected =
            first == r.end() ? 0 : static_cast<std::uint32_t>(first - r.begin());
        const std::uint32_t way = nru.victim(set);
        ASSERT_EQ(way, expected) << "ways " << ways << " step " << step;
        nru.on_fill(set, way);
        use(set, way);
      } else {
        const std::uint32_t way = rng() % ways;
        nru.on_hit(set, way);
        use(set, way);
      }
    }
  }
}

/// Hits of a cyclic sweep over `lines` lines in one set of `ways` ways under `policy`, over
/// `laps` laps after the first (which fills the set).
template <class Policy>
int cyclic_sweep_hits(Policy policy, std::uint32_t ways, std::uint32_t lines, int laps) {
  policy.init(1, ways);
  policy.start(0);
  std::vector<std::uint32_t> held;  // held[way] = line
  int hits = 0;
  for (int lap = 0; lap <= laps; ++lap)
    for (std::uint32_t line = 0; line < lines; ++line) {
      const auto at = std::find(held.begin(), held.end(), line);
      if (at != held.end()) {
        policy.on_hit(0, static_cast<std::uint32_t>(at - held.begin()));
        hits += lap > 0;
      } else if (held.size() < ways) {
        held.push_back(line);
        policy.on_fill(0, static_cast<std::uint32_t>(held.size() - 1));
      } else {
        const std::uint32_t way = policy.victim(0);
        held[way] = line;
        policy.on_fill(0, way);
      }
    }
  return hits;
}

// Five lines cycled through a 4-way set. Hand-derived, after the fill of lines 0-3 (way 3's
// fill turns every bit on, so a new epoch leaves only way 3's): line 4 replaces way 0, 0 way 1,
// 1 way 2 (a new epoch: only way 2's bit), 2 way 0, and 3 hits in way 3; 4 replaces way 1 (a
// new epoch: way 1's bit), 0 way 0, and 1 hits in way 2; and so on, one hit in every three
// accesses: laps 1-4 (20 accesses) hit 3 | 1, 4 | 2 | 0, 3. LRU keeps none.
TEST(ReplacementTest, NruKeepsPartOfASweepOneLineLargerThanTheSet) {
  EXPECT_EQ(cyclic_sweep_hits(NruPolicy{}, 4, 5, 4), 6);
  EXPECT_EQ(cyclic_sweep_hits(LruPolicy{}, 4, 5, 4), 0);
}

/// Drives `chosen` and `direct` through the same random hits, fills and victims and expects the
/// same victim every time.
template <class Direct>
void expect_same_victims(ChosenPolicy chosen, Direct direct) {
  std::mt19937 rng(11);
  const std::uint32_t sets = 7, ways = 16;
  chosen.init(sets, ways);
  direct.init(sets, ways);
  for (std::uint32_t set = 0; set < sets; ++set) {
    chosen.start(set);
    direct.start(set);
  }
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

/// `used`, after random hits, fills and victims in set 1 and then start(1), gives set 1 the
/// victims of a policy made and started afresh, through the same fills and hits.
template <class Policy>
void expect_start_renews_a_set(Policy used, Policy fresh) {
  std::mt19937 rng(13);
  const std::uint32_t ways = 16;
  used.init(2, ways);
  fresh.init(2, ways);
  for (std::uint32_t set = 0; set < 2; ++set) {
    used.start(set);
    fresh.start(set);
  }
  for (int step = 0; step < 500; ++step) {  // hits, fills and victims (FIFO's turn moves)
    const std::uint32_t way = rng() % ways;
    switch (rng() % 3) {
      case 0:
        used.on_hit(1, way);
        break;
      case 1:
        used.on_fill(1, way);
        break;
      default:
        used.on_fill(1, used.victim(1));
    }
  }
  used.start(1);
  for (int step = 0; step < 2000; ++step) {
    const std::uint32_t way = step < 16 ? static_cast<std::uint32_t>(step) : rng() % ways;
    if (step < 16 && step % 2 == 1) {  // behind two others (LRU: never-used ways count)
      used.on_fill_at(1, way, 2);
      fresh.on_fill_at(1, way, 2);
    } else if (step < 16 || rng() % 2 == 0) {
      used.on_fill(1, way);
      fresh.on_fill(1, way);
    } else if (rng() % 2 == 0) {
      used.on_hit(1, way);
      fresh.on_hit(1, way);
    } else {
      const std::uint32_t victim = fresh.victim(1);
      ASSERT_EQ(used.victim(1), victim) << "step " << step;
      used.on_fill(1, victim);
      fresh.on_fill(1, victim);
    }
  }
}

TEST(ReplacementTest, StartMakesASetAsNew) {
  expect_start_renews_a_set(LruPolicy{}, LruPolicy{});
  expect_start_renews_a_set(FifoPolicy{}, FifoPolicy{});
  expect_start_renews_a_set(SrripPolicy{}, SrripPolicy{});
  expect_start_renews_a_set(NruPolicy{}, NruPolicy{});
  expect_start_renews_a_set(ChosenPolicy(ReplacementKind::Srrip, 5),
                            ChosenPolicy(ReplacementKind::Srrip, 5));
}

TEST(ReplacementTest, ChosenPolicyActsAsThePolicyItNames) {
  expect_same_victims(ChosenPolicy(ReplacementKind::Fifo, 5), FifoPolicy{});
  expect_same_victims(ChosenPolicy(ReplacementKind::Random, 5), RandomPolicy(5));
  expect_same_victims(ChosenPolicy(ReplacementKind::Srrip, 5), SrripPolicy{});
  expect_same_victims(ChosenPolicy(ReplacementKind::Nru, 5), NruPolicy{});
  EXPECT_THROW(ChosenPolicy(ReplacementKind::Lru, 5), SimError);
}

}  // namespace
}  // namespace gms
