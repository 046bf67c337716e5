#include "sim/replay/reference/plain_sector_cache.h"

#include <algorithm>
#include <cstddef>

namespace gms::ref {

PlainSectorCache::PlainSectorCache(std::uint32_t sets, std::uint32_t ways, ReplacementKind policy,
                                   std::uint64_t seed)
    : sets_(sets),
      tags_(sets),
      ways_(ways),
      policy_(policy),
      // A zero seed would stop xorshift for ever: it gets a fixed non-zero one.
      random_state_(seed != 0 ? seed : 0x9e3779b97f4a7c15ull) {}

int PlainSectorCache::find(std::uint32_t set, std::uint64_t key) const {
  const std::vector<std::uint64_t>& tags = tags_[set];
  for (std::size_t w = 0; w < tags.size(); ++w)
    if (tags[w] == key) return static_cast<int>(w);
  return -1;
}

void PlainSectorCache::touch(std::uint32_t set, int w) {
  Way& line = way(set, w);
  line.last_use = ++uses_;
  line.rrpv = 0;  // SRRIP: a hit predicts a near re-reference
  mark_recent(set, w);
}

void PlainSectorCache::mark_recent(std::uint32_t set, int w) {
  std::vector<Way>& ways = sets_[set];
  ways[static_cast<std::size_t>(w)].recent = true;
  for (const Way& way : ways)
    if (!way.recent) return;
  for (Way& way : ways) way.recent = false;
  ways[static_cast<std::size_t>(w)].recent = true;
}

int PlainSectorCache::allocate(std::uint32_t set, std::uint64_t key, Evicted& evicted,
                               std::uint32_t rank) {
  std::vector<Way>& ways = sets_[set];
  if (ways.empty()) {  // the set's first line since the cache was made or emptied
    ways.resize(ways_);
    tags_[set].assign(ways_, kNoLine);
  }
  evicted = {};
  int chosen = -1;
  for (std::size_t w = 0; w < ways.size() && chosen < 0; ++w)
    if (tags_[set][w] == kNoLine) chosen = static_cast<int>(w);  // never used since the clear
  if (chosen < 0) {
    chosen = victim(set);
    evicted.any = true;
    evicted.line = ways[static_cast<std::size_t>(chosen)];
  }
  Way fresh;
  fresh.used = true;
  fresh.key = key;
  fresh.last_use = fresh.filled_at = ++uses_;
  fresh.rrpv = 2;  // SRRIP: a new line predicts a long re-reference interval
  ways[static_cast<std::size_t>(chosen)] = fresh;
  tags_[set][static_cast<std::size_t>(chosen)] = key;
  mark_recent(set, chosen);
  if (rank > 0 && policy_ == ReplacementKind::Lru) enter_lru_at(set, chosen, rank);
  return chosen;
}

void PlainSectorCache::enter_lru_at(std::uint32_t set, int w, std::uint32_t rank) {
  // The set's other lines from the least recently used on; the new one goes in behind the
  // `rank` most recent, and the set's use counts are renumbered in that order, below the next
  // use's (only their order within the set matters).
  std::vector<Way>& ways = sets_[set];
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < ways.size(); ++i)
    if (ways[i].used && static_cast<int>(i) != w) order.push_back(i);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return ways[a].last_use < ways[b].last_use; });
  const std::size_t ahead = std::min<std::size_t>(rank, order.size());
  order.insert(order.end() - static_cast<std::ptrdiff_t>(ahead), static_cast<std::size_t>(w));
  std::uint64_t use = uses_ - order.size();
  for (std::size_t i : order) ways[i].last_use = ++use;
}

int PlainSectorCache::victim(std::uint32_t set) {
  std::vector<Way>& ways = sets_[set];
  switch (policy_) {
    case ReplacementKind::Lru:
    case ReplacementKind::Fifo: {
      // The oldest use (LRU) or the oldest fill (FIFO).
      std::size_t best = 0;
      for (std::size_t w = 1; w < ways.size(); ++w) {
        const bool older = policy_ == ReplacementKind::Lru
                               ? ways[w].last_use < ways[best].last_use
                               : ways[w].filled_at < ways[best].filled_at;
        if (older) best = w;
      }
      return static_cast<int>(best);
    }
    case ReplacementKind::Random:
      random_state_ ^= random_state_ << 13;
      random_state_ ^= random_state_ >> 7;
      random_state_ ^= random_state_ << 17;
      return static_cast<int>(random_state_ % ways.size());
    case ReplacementKind::Nru:
      for (std::size_t w = 0; w < ways.size(); ++w)
        if (!ways[w].recent) return static_cast<int>(w);
      return 0;
    case ReplacementKind::Srrip:
      break;
  }
  for (;;) {
    for (std::size_t w = 0; w < ways.size(); ++w)
      if (ways[w].rrpv == 3) return static_cast<int>(w);
    for (Way& w : ways) ++w.rrpv;
  }
}

void PlainSectorCache::clear() {
  // A set with no ways is empty (allocate() gives it its ways again); clear() keeps the memory.
  for (std::uint32_t set = 0; set < sets_.size(); ++set) {
    sets_[set].clear();
    tags_[set].clear();
  }
}

}  // namespace gms::ref
