#pragma once
/// An LRU tag store with the lines, hits and victims of SectorCache<LruPolicy> (the same
/// find / allocate / touch rules: ways fill in order, a full set evicts its least recently used
/// line) whose sets take memory only once a line maps to them: a set's ways are a block of a
/// dense pool, handed out in order of first use. A one-pass sweep keeps one such L2 per
/// configuration (the 491,520 lines of an H200's per L1 size of an L1 sweep): a trace that
/// touches few of its sets then faults in, scans and flushes the blocks of those sets only,
/// which lie together, instead of every set's. Its slots (slot()) are dense too, for a caller's
/// per-line side tables.
///
///   PooledLru tags(/*sets=*/30720, /*ways=*/16);
///   std::int32_t way = tags.find(set, key);
///   if (way == PooledLru::kMiss) { Eviction ev; way = tags.allocate(set, key, ev); }
///   else tags.touch(set, way);

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "sim/core/error.h"
#include "sim/model/sector_cache.h"

namespace gms {

class PooledLru {
 public:
  static constexpr std::int32_t kMiss = -1;

  /// `sets` sets of `ways` ways (at most 65535).
  PooledLru(std::uint32_t sets, std::uint32_t ways)
      : ways_(ways),
        block_(sets, 0),
        set_of_(std::make_unique_for_overwrite<std::uint32_t[]>(sets)),
        filled_(std::make_unique_for_overwrite<std::uint32_t[]>(sets)),
        keys_(std::make_unique_for_overwrite<std::uint64_t[]>(slots())),
        masks_(std::make_unique_for_overwrite<Masks[]>(slots())),
        order_(std::make_unique_for_overwrite<std::uint16_t[]>(slots())) {
    GMS_ASSERT(sets > 0 && ways > 0 && ways <= 0xffff, "PooledLru shape");
  }

  /// Slots: sets x ways; those of the blocks in use are the first.
  std::size_t slots() const { return block_.size() * std::size_t{ways_}; }

  /// The way of `set` holding `key`, or kMiss. Does not touch the recency order.
  std::int32_t find(std::uint32_t set, std::uint64_t key) const {
    const std::uint32_t b = block_[set];
    if (b == 0) return kMiss;
    return find_tag(keys_.get() + std::size_t{b - 1} * ways_, filled_[b - 1], key);
  }

  /// Makes (set, way), which holds a line, the most recently used of its set.
  void touch(std::uint32_t set, std::uint32_t way) {
    const std::uint32_t b = block_[set] - 1;
    to_front(order_.get() + std::size_t{b} * ways_, way, filled_[b]);
  }

  /// Allocates a way for `key` (absent from `set`): the next free way, else the least recently
  /// used one, whose key and dirty sectors `ev` reports. The line starts with no sector.
  std::uint32_t allocate(std::uint32_t set, std::uint64_t key, Eviction& ev) {
    if (block_[set] == 0) {  // the set's first line: the pool's next block
      set_of_[used_] = set;
      filled_[used_] = 0;
      block_[set] = ++used_;
    }
    const std::uint32_t b = block_[set] - 1;
    const std::size_t base = std::size_t{b} * ways_;
    std::uint16_t* order = order_.get() + base;
    std::uint32_t way;
    ev = {};
    if (filled_[b] < ways_) {
      way = filled_[b]++;
      order[way] = static_cast<std::uint16_t>(way);  // last: moved to the front below
    } else {
      way = order[ways_ - 1];
      ev = {true, keys_[base + way], masks_[base + way].dirty,
            static_cast<std::uint8_t>(masks_[base + way].dirty & ~masks_[base + way].valid)};
    }
    keys_[base + way] = key;
    masks_[base + way] = {};
    to_front(order, way, filled_[b]);
    return way;
  }

  /// A dense index of (set, way) for a set in use, in [0, slots()).
  std::size_t slot(std::uint32_t set, std::uint32_t way) const {
    return std::size_t{block_[set] - 1} * ways_ + way;
  }
  std::uint8_t& valid(std::size_t slot) { return masks_[slot].valid; }
  std::uint8_t& dirty(std::size_t slot) { return masks_[slot].dirty; }

  /// Calls f(slot, key, dirty_mask) for every line held.
  template <class F>
  void for_each_line(F f) const {
    for (std::uint32_t b = 0; b < used_; ++b)
      for (std::uint32_t w = 0; w < filled_[b]; ++w) {
        const std::size_t slot = std::size_t{b} * ways_ + w;
        f(slot, keys_[slot], masks_[slot].dirty);
      }
  }

  /// Empties every set.
  void clear() {
    for (std::uint32_t b = 0; b < used_; ++b) block_[set_of_[b]] = 0;
    used_ = 0;
  }

 private:
  struct Masks {  // trivial: allocated without being written
    std::uint8_t valid, dirty;
  };

  /// Moves `way` to the front of the recency order `order` of a block holding `n` lines.
  static void to_front(std::uint16_t* order, std::uint32_t way, std::uint32_t n) {
    if (order[0] == way) return;
    std::uint32_t p = 1;
    while (p + 1 < n && order[p] != way) ++p;  // it is among the n
    std::memmove(order + 1, order, p * sizeof *order);
    order[0] = static_cast<std::uint16_t>(way);
  }

  std::uint32_t ways_;
  std::vector<std::uint32_t> block_;  ///< per set: its block + 1, 0 while it holds no line
  std::uint32_t used_ = 0;            ///< blocks in use, from 0
  // Allocated, not written: a block's entries are written when it is handed out or fills a way.
  std::unique_ptr<std::uint32_t[]> set_of_;  ///< per block: its set
  std::unique_ptr<std::uint32_t[]> filled_;  ///< per block: ways in use (they fill in order)
  std::unique_ptr<std::uint64_t[]> keys_;    ///< per slot: its line's key
  std::unique_ptr<Masks[]> masks_;           ///< per slot: valid and dirty sectors
  /// Per block: its filled ways, most recent first (a new way is placed last, then moved).
  std::unique_ptr<std::uint16_t[]> order_;
};

}  // namespace gms
