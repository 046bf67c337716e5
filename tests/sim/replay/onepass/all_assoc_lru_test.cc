// All-associativity simulation against the model's own LRU tag store (SectorCache<LruPolicy>),
// one plain cache per configuration of several set counts and ways, on random access streams:
// every access's hits, every eviction (line and dirty sectors), residency before each access
// and the final contents must agree for every configuration.
#include "sim/replay/onepass/all_assoc_lru.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "sim/core/error.h"
#include "tests/sim/model/lru_stream_support.h"

namespace gms {
namespace {

using test::apply;
using test::Event;
using test::group_of;
using test::plain_lru;
using test::random_ops;
using test::TagOp;
using test::Trace;
using Shape = AllAssocLru::Shape;

/// `every`: note_dirty() after every access, so that every eviction is reported; otherwise after
/// writes only, so that only dirty ones are (the caller compares those).
std::vector<Trace> all_assoc(const std::vector<TagOp>& ops, const std::vector<Shape>& shapes,
                             std::uint32_t groups, bool every = true) {
  AllAssocLru a(groups, shapes, 8, false);
  std::vector<Trace> t(shapes.size());
  for (const TagOp& op : ops) {
    for (Trace& x : t) x.evictions.emplace_back();
    const std::uint32_t slot =
        a.access(group_of(op.key, groups), static_cast<std::uint32_t>(op.key % a.max_sets()),
                 op.key, [&](std::size_t c, std::uint64_t key, std::uint32_t s) {
                   t[c].evictions.back().emplace_back(key, a.state(s, c).dirty);
                 });
    for (std::size_t c = 0; c < shapes.size(); ++c) {
      StackSectors& st = a.state(slot, c);
      if (!a.resident_before(c)) {
        EXPECT_EQ(st.valid | st.dirty, 0);
      }
      t[c].hits.push_back(apply(st.valid, st.dirty, op));
    }
    if (every || op.write) a.note_dirty();
  }
  for (std::size_t c = 0; c < shapes.size(); ++c)
    a.for_each_resident(c, [&](std::uint32_t slot, std::uint64_t key) {
      t[c].final_lines.emplace(key, a.state(slot, c).valid, a.state(slot, c).dirty);
    });
  return t;
}

/// The evictions of dirty lines only.
std::vector<std::vector<Event>> dirty_only(std::vector<std::vector<Event>> ev) {
  for (std::vector<Event>& e : ev)
    std::erase_if(e, [](const Event& x) { return std::get<1>(x) == 0; });
  return ev;
}

void expect_same(const std::vector<TagOp>& ops, const std::vector<Shape>& shapes,
                 std::uint32_t groups) {
  const std::vector<Trace> one_pass = all_assoc(ops, shapes, groups);
  const std::vector<Trace> written = all_assoc(ops, shapes, groups, false);
  for (std::size_t c = 0; c < shapes.size(); ++c) {
    const Trace plain = plain_lru(ops, shapes[c].sets, shapes[c].ways, groups);
    SCOPED_TRACE(::testing::Message() << groups << " groups of " << shapes[c].sets << " sets, "
                                      << shapes[c].ways << " ways");
    ASSERT_EQ(one_pass[c].hits, plain.hits);
    ASSERT_EQ(one_pass[c].evictions, plain.evictions);
    ASSERT_EQ(one_pass[c].final_lines, plain.final_lines);
    ASSERT_EQ(written[c].hits, plain.hits);
    ASSERT_EQ(dirty_only(written[c].evictions), dirty_only(plain.evictions));
    ASSERT_EQ(written[c].final_lines, plain.final_lines);
  }
}

TEST(AllAssocLruTest, EverySetCountAndAssociativityMatchesAPlainLruCache) {
  std::mt19937_64 rng(22);
  // Set counts 1 to 16 and 3 to 24 (the L2's 5120 / ways is 40 x a power of two), ways in any
  // order, with repeats and configurations of one set count only.
  const std::vector<std::vector<Shape>> grids = {
      {{1, 1}, {1, 8}, {2, 4}, {4, 2}, {8, 1}, {16, 3}, {4, 2}, {2, 16}},
      {{3, 4}, {6, 2}, {12, 1}, {24, 5}, {3, 1}, {12, 8}},
      {{8, 1}, {8, 2}, {8, 4}},
      {{2, 7}},
  };
  for (const std::vector<Shape>& shapes : grids)
    for (const std::uint32_t groups : {1u, 3u})
      for (const std::uint64_t distinct : {6ull, 40ull, 400ull})
        expect_same(random_ops(rng, 2000, distinct * groups), shapes, groups);
}

TEST(AllAssocLruTest, ManyRandomStreamsAndShapes) {
  std::mt19937_64 rng(9);
  std::uniform_int_distribution<std::uint32_t> pick_ways(1, 12), pick_count(1, 7), shift(0, 4),
      base(1, 5);
  for (int round = 0; round < 40; ++round) {
    const std::uint32_t s0 = base(rng);
    std::vector<Shape> shapes;
    for (std::uint32_t i = pick_count(rng); i-- > 0;)
      shapes.push_back({s0 << shift(rng), pick_ways(rng)});
    shapes.push_back({s0, pick_ways(rng)});  // the smallest is s0 itself or not: both are fine
    const std::uint32_t groups = 1 + static_cast<std::uint32_t>(round % 3);
    expect_same(random_ops(rng, 1000, s0 * groups * (2 + static_cast<std::uint64_t>(round % 40))),
                shapes, groups);
  }
}

TEST(AllAssocLruTest, ALineKeepsItsSectorsOnlyWhereItStayedResident) {
  // Keys 0 and 2 share the set of one set and of two sets; key 1 shares only the one set. At 1
  // set x 2 ways, 0 1 2 evicts 0; at 2 sets x 2 ways 0 stays, so its sector hits on return.
  const std::vector<TagOp> ops = {{0, 1, false}, {1, 1, false}, {2, 1, false}, {0, 1, false}};
  const std::vector<Trace> t = all_assoc(ops, {{1, 2}, {2, 2}}, 1);
  EXPECT_EQ(t[0].hits, (std::vector<std::uint8_t>{0, 0, 0, 0}));
  EXPECT_EQ(t[1].hits, (std::vector<std::uint8_t>{0, 0, 0, 1}));
  EXPECT_EQ(t[0].evictions[2], (std::vector<Event>{{0, 0}}));
  EXPECT_TRUE(t[1].evictions[2].empty());
}

TEST(AllAssocLruTest, ItIsChosenWhereItsRegionsAreNotFarLongerThanTheSeparateStacks) {
  std::vector<Shape> ways, sizes;
  for (std::uint32_t w = 1; w <= 128; w *= 2) ways.push_back({5120 / w, w});  // the H200's L2
  for (std::uint32_t s = 40; s <= 1280; s *= 2) sizes.push_back({s, 16});
  EXPECT_TRUE(AllAssocLru::pays(ways));
  EXPECT_FALSE(AllAssocLru::pays(sizes));
  EXPECT_FALSE(AllAssocLru::pays({{40, 4}, {40, 8}}));  // one set count: StackLru
  EXPECT_FALSE(AllAssocLru::pays({{40, 4}, {120, 8}}));
}

TEST(AllAssocLruTest, SetCountsThatDoNotNestAreRefused) {
  EXPECT_TRUE(AllAssocLru::nests({40, 80, 5120, 40}));
  EXPECT_FALSE(AllAssocLru::nests({40, 120}));
  EXPECT_FALSE(AllAssocLru::nests({3, 4}));
  EXPECT_TRUE(AllAssocLru::nests({1, 2, 4, 8, 16, 32, 64, 128}));
  EXPECT_FALSE(AllAssocLru::nests({1, 2, 4, 8, 16, 32, 64, 128, 256}));  // at most 8 levels
  try {
    AllAssocLru a(1, {{4, 2}, {6, 2}}, 4, false);
    FAIL() << "no error";
  } catch (const SimError& e) {
    EXPECT_STREQ(e.what(),
                 "all-associativity LRU: set counts that are not the smallest times powers of two");
  }
}

}  // namespace
}  // namespace gms
