// The stack engine against the model's own LRU tag store (SectorCache<LruPolicy>), one plain
// cache per associativity, on random access streams: every access's hits, every eviction (line
// and dirty sectors) and the final contents must agree for every associativity and set count.
// So must the one pass's pooled tag store (PooledLru), before and after a clear(), its slots
// dense (the blocks of the sets in use).
#include "sim/replay/onepass/stack_lru.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include "sim/replay/onepass/pooled_lru.h"

#include "tests/sim/model/lru_stream_support.h"

namespace gms {
namespace {

using test::apply;
using test::Event;
using test::plain_lru;
using test::random_ops;
using test::TagOp;
using test::Trace;

std::vector<Trace> stack_lru(const std::vector<TagOp>& ops, std::uint32_t sets,
                             const std::vector<std::uint32_t>& ways) {
  StackLru s(sets, ways, 8, false);
  std::vector<Trace> t(ways.size());
  for (const TagOp& op : ops) {
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

void expect_same(const std::vector<TagOp>& ops, std::uint32_t sets,
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
  const std::vector<TagOp> ops = {{1, 1, false}, {2, 1, false}, {1, 1, false}};
  const std::vector<Trace> t = stack_lru(ops, 1, {1, 2});
  EXPECT_EQ(t[0].hits, (std::vector<std::uint8_t>{0, 0, 0}));
  EXPECT_EQ(t[1].hits, (std::vector<std::uint8_t>{0, 0, 1}));
  EXPECT_EQ(t[0].evictions[1], (std::vector<Event>{{1, 0}}));
}

/// The stream through a PooledLru (set: key mod sets), as plain_lru records it; `max_slot` is
/// the largest slot used, `sets_used` the sets that held a line.
Trace pooled(PooledLru& c, const std::vector<TagOp>& ops, std::uint32_t sets, std::size_t& max_slot,
             std::set<std::uint32_t>& sets_used) {
  return test::tag_store_trace(
      c, ops, [&](std::uint64_t key) { return static_cast<std::uint32_t>(key % sets); },
      [&](std::uint32_t set, std::size_t slot) {
        sets_used.insert(set);
        max_slot = std::max(max_slot, slot);
      });
}

TEST(PooledLruTest, MatchesTheModelsLruTagStore) {
  std::mt19937_64 rng(2022);
  for (const std::uint32_t sets : {1u, 3u, 32u, 320u})
    for (const std::uint32_t ways : {1u, 2u, 5u, 16u, 40u})
      for (const std::uint64_t distinct : {2ull, 6ull, 50ull}) {
        SCOPED_TRACE(::testing::Message()
                     << sets << " sets, " << ways << " ways, " << distinct << " lines a set");
        // Few sets touched of many: a stream over sets [0, sets / 8) only, at times.
        const std::uint32_t spread = distinct == 6 ? std::max(1u, sets / 8) : sets;
        std::vector<TagOp> ops = random_ops(rng, 1500, distinct * spread);
        for (TagOp& op : ops) op.key = op.key / spread * sets + op.key % spread;
        PooledLru c(sets, ways);
        for (int round = 0; round < 2; ++round) {  // the second after a clear()
          std::size_t max_slot = 0;
          std::set<std::uint32_t> sets_used;
          const Trace t = pooled(c, ops, sets, max_slot, sets_used);
          const Trace plain = plain_lru(ops, sets, ways);
          ASSERT_EQ(t.hits, plain.hits);
          ASSERT_EQ(t.evictions, plain.evictions);
          ASSERT_EQ(t.final_lines, plain.final_lines);
          EXPECT_LT(max_slot, sets_used.size() * ways);  // dense: the used sets' blocks
          c.clear();
          std::size_t lines = 0;
          c.for_each_line([&](std::size_t, std::uint64_t, std::uint8_t) { ++lines; });
          EXPECT_EQ(lines, 0u);
        }
      }
}

}  // namespace
}  // namespace gms
