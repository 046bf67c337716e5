// The stack engine against the model's own LRU tag store (SectorCache<LruPolicy>), one plain
// cache per associativity, on random access streams: every access's hits, every eviction (line
// and dirty sectors) and the final contents must agree for every associativity and set count.
#include "sim/model/stack_lru.h"

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "sim/model/replacement.h"
#include "sim/model/sector_cache.h"

namespace gms {
namespace {

struct Op {
  std::uint64_t key;
  std::uint8_t want;
  bool write;
};

/// The sector rule both sides apply to a resident line: a read of `want` hits its valid
/// sectors and fetches the 2-sector units holding a missing one (so a miss validates a
/// neighbour, which a hit does not: sector state is not monotone in the ways); a write
/// dirties and validates `want`. Returns the hit sectors.
std::uint8_t apply(std::uint8_t& valid, std::uint8_t& dirty, const Op& op) {
  if (op.write) {
    dirty |= op.want;
    valid |= op.want;
    return 0;
  }
  const std::uint8_t hit = op.want & valid;
  const auto miss = static_cast<std::uint8_t>(op.want & ~valid);
  for (unsigned u = 0; u < 8; u += 2)
    if (miss & (3u << u)) valid |= static_cast<std::uint8_t>(3u << u);
  return hit;
}

using Event = std::tuple<std::uint64_t, int>;  // evicted key, its dirty sectors

/// Per access: the hit mask, then the eviction (or none), for one configuration.
struct Trace {
  std::vector<std::uint8_t> hits;
  std::vector<std::vector<Event>> evictions;
  std::set<std::tuple<std::uint64_t, int, int>> final_lines;  // key, valid, dirty
};

Trace plain_lru(const std::vector<Op>& ops, std::uint32_t sets, std::uint32_t ways) {
  SectorCache<LruPolicy> c(CacheGeometry{sets, ways, 8});
  Trace t;
  for (const Op& op : ops) {
    const auto set = static_cast<std::uint32_t>(op.key % sets);
    std::int32_t way = c.find(set, op.key);
    std::vector<Event> ev_list;
    if (way == SectorCache<LruPolicy>::kMiss) {
      Eviction ev;
      way = static_cast<std::int32_t>(c.allocate(set, op.key, ev));
      if (ev.valid) ev_list.emplace_back(ev.key, ev.dirty_mask);
    } else {
      c.touch(set, static_cast<std::uint32_t>(way));
    }
    const std::size_t slot = c.slot(set, static_cast<std::uint32_t>(way));
    t.hits.push_back(apply(c.valid(slot), c.dirty(slot), op));
    t.evictions.push_back(ev_list);
  }
  c.for_each_line([&](std::size_t slot, std::uint64_t key, std::uint8_t dirty) {
    t.final_lines.emplace(key, c.valid(slot), dirty);
  });
  return t;
}

std::vector<Trace> stack_lru(const std::vector<Op>& ops, std::uint32_t sets,
                             const std::vector<std::uint32_t>& ways) {
  StackLru s(sets, ways, 8, false);
  std::vector<Trace> t(ways.size());
  for (const Op& op : ops) {
    for (Trace& x : t) x.evictions.emplace_back();
    const auto set = static_cast<std::uint32_t>(op.key % sets);
    const StackLru::Found f =
        s.access(set, op.key, [&](std::size_t c, std::uint64_t key, std::uint32_t slot) {
          t[c].evictions.back().emplace_back(key, s.state(slot, c).dirty);
        });
    for (std::size_t c = 0; c < ways.size(); ++c) {
      StackSectors& st = s.state(f.slot, c);
      if (!s.resident(f, c)) {
        EXPECT_EQ(st.valid | st.dirty, 0);
      }
      t[c].hits.push_back(apply(st.valid, st.dirty, op));
    }
  }
  for (std::size_t c = 0; c < ways.size(); ++c)
    s.for_each_resident(c, [&](std::uint32_t slot, std::uint64_t key) {
      t[c].final_lines.emplace(key, s.state(slot, c).valid, s.state(slot, c).dirty);
    });
  return t;
}

std::vector<Op> random_ops(std::mt19937_64& rng, std::size_t n, std::uint64_t distinct) {
  std::vector<Op> ops;
  std::uniform_int_distribution<std::uint64_t> key(0, distinct - 1);
  std::uniform_int_distribution<int> mask(1, 255), coin(0, 3);
  for (std::size_t i = 0; i < n; ++i)
    ops.push_back({key(rng), static_cast<std::uint8_t>(mask(rng)), coin(rng) == 0});
  return ops;
}

void expect_same(const std::vector<Op>& ops, std::uint32_t sets,
                 const std::vector<std::uint32_t>& ways) {
  const std::vector<Trace> one_pass = stack_lru(ops, sets, ways);
  for (std::size_t c = 0; c < ways.size(); ++c) {
    const Trace plain = plain_lru(ops, sets, ways[c]);
    SCOPED_TRACE(::testing::Message() << sets << " sets, " << ways[c] << " ways");
    ASSERT_EQ(one_pass[c].hits, plain.hits);
    ASSERT_EQ(one_pass[c].evictions, plain.evictions);
    ASSERT_EQ(one_pass[c].final_lines, plain.final_lines);
  }
}

TEST(StackLruTest, EveryAssociativityMatchesAPlainLruCache) {
  std::mt19937_64 rng(22);
  const std::vector<std::uint32_t> ways = {1, 2, 3, 4, 5, 8, 16, 4};  // a repeat, unordered
  for (const std::uint32_t sets : {1u, 2u, 4u, 8u, 32u})
    for (const std::uint64_t distinct : {4ull, 24ull, 300ull})
      expect_same(random_ops(rng, 4000, distinct * sets), sets, ways);
}

TEST(StackLruTest, ManyRandomStreamsAndShapes) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::uint32_t> pick_ways(1, 12), pick_count(1, 6);
  for (int round = 0; round < 60; ++round) {
    const std::uint32_t sets = 1u << (round % 6);
    std::vector<std::uint32_t> ways;
    for (std::uint32_t i = pick_count(rng); i-- > 0;) ways.push_back(pick_ways(rng));
    expect_same(random_ops(rng, 1500, sets * (2 + static_cast<std::uint64_t>(round % 20))), sets,
                ways);
  }
}

TEST(StackLruTest, ALineThatLeftASmallCacheComesBackWithoutItsSectors) {
  // Two ways and one way, one set: A B A. At 1 way B evicted A, so A's sector misses again; at
  // 2 ways it hits.
  const std::vector<Op> ops = {{1, 1, false}, {2, 1, false}, {1, 1, false}};
  const std::vector<Trace> t = stack_lru(ops, 1, {1, 2});
  EXPECT_EQ(t[0].hits, (std::vector<std::uint8_t>{0, 0, 0}));
  EXPECT_EQ(t[1].hits, (std::vector<std::uint8_t>{0, 0, 1}));
  EXPECT_EQ(t[0].evictions[1], (std::vector<Event>{{1, 0}}));
}

}  // namespace
}  // namespace gms
