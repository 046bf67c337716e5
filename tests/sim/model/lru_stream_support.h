#pragma once
// Random access streams and a plain LRU cache (the model's SectorCache<LruPolicy>) to hold the
// one-pass stacks to: stack_lru_test.cc and all_assoc_lru_test.cc.

#include <cstdint>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "sim/model/replacement.h"
#include "sim/model/sector_cache.h"

namespace gms::test {

struct TagOp {
  std::uint64_t key;
  std::uint8_t want;
  bool write;
};

/// The sector rule both sides apply to a resident line: a read of `want` hits its valid
/// sectors and fetches the 2-sector units holding a missing one (so a miss validates a
/// neighbour, which a hit does not: sector state is not monotone in the ways); a write
/// dirties and validates `want`. Returns the hit sectors.
inline std::uint8_t apply(std::uint8_t& valid, std::uint8_t& dirty, const TagOp& op) {
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

/// The group (L2 slice) of a key when a test has `groups` of them: independent of its set.
inline std::uint32_t group_of(std::uint64_t key, std::uint32_t groups) {
  return static_cast<std::uint32_t>(((key * 2654435761u) >> 20) % groups);
}

/// The stream through tag store `c` (SectorCache<LruPolicy>'s interface: find, allocate, touch,
/// slot, valid, dirty, for_each_line), key k in set set_of(k); on_access(set, slot) sees each
/// access's slot.
template <class Tags, class SetOf, class OnAccess>
Trace tag_store_trace(Tags& c, const std::vector<TagOp>& ops, SetOf set_of, OnAccess on_access) {
  Trace t;
  for (const TagOp& op : ops) {
    const std::uint32_t set = set_of(op.key);
    std::int32_t way = c.find(set, op.key);
    std::vector<Event> ev_list;
    if (way == Tags::kMiss) {
      Eviction ev;
      way = static_cast<std::int32_t>(c.allocate(set, op.key, ev));
      if (ev.valid) ev_list.emplace_back(ev.key, ev.dirty_mask);
    } else {
      c.touch(set, static_cast<std::uint32_t>(way));
    }
    const std::size_t slot = c.slot(set, static_cast<std::uint32_t>(way));
    on_access(set, slot);
    t.hits.push_back(apply(c.valid(slot), c.dirty(slot), op));
    t.evictions.push_back(ev_list);
  }
  c.for_each_line([&](std::size_t slot, std::uint64_t key, std::uint8_t dirty) {
    t.final_lines.emplace(key, c.valid(slot), dirty);
  });
  return t;
}

/// One plain LRU cache of `groups` x `sets` sets: key k lies in set k mod sets of its group.
inline Trace plain_lru(const std::vector<TagOp>& ops, std::uint32_t sets, std::uint32_t ways,
                       std::uint32_t groups = 1) {
  SectorCache<LruPolicy> c(CacheGeometry{groups * sets, ways, 8});
  return tag_store_trace(
      c, ops,
      [&](std::uint64_t key) {
        return static_cast<std::uint32_t>(group_of(key, groups) * sets + key % sets);
      },
      [](std::uint32_t, std::size_t) {});
}

inline std::vector<TagOp> random_ops(std::mt19937_64& rng, std::size_t n, std::uint64_t distinct) {
  std::vector<TagOp> ops;
  std::uniform_int_distribution<std::uint64_t> key(0, distinct - 1);
  std::uniform_int_distribution<int> mask(1, 255), coin(0, 3);
  for (std::size_t i = 0; i < n; ++i)
    ops.push_back({key(rng), static_cast<std::uint8_t>(mask(rng)), coin(rng) == 0});
  return ops;
}

}  // namespace gms::test
