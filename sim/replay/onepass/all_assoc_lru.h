#pragma once
/// All-associativity simulation (Hill and Smith, "Evaluating Associativity in CPU Caches", IEEE
/// Trans. Computers 38(12), 1989) for a sectored LRU cache: one replay of an access stream gives
/// the state of the cache at every associativity of every set count s0 x 2^e at once, where
/// StackLru (stack_lru.h) needs one stack per set count.
///
/// Set counts that double nest: two lines in the same set of 2s sets are in the same set of s
/// sets. So the lines of one set of the smallest count s0 (a region) are kept in one recency list,
/// most recent first, and a line's depth in its set at set count s0 x 2^e (its LRU position there)
/// is the number of lines above it in the list that share that set. Lines x and y of one region
/// share the set at s0 x 2^e exactly when their quotients local / s0 agree in the low e bits, so
/// one xor and one count of trailing zeros give every set count a line above shares with the
/// accessed one. When an access moves line x to the top, every line above it that shares x's set at
/// a set count moves down one there; the one crossing from depth W - 1 to W leaves the W-way cache
/// of that set count (its sectors are written back and cleared then, as in StackLru). Each line
/// keeps its depth per set count while it is resident in the largest cache of that set count; a
/// line resident in none is dropped, so a region holds at most sum over set counts of 2^e x max
/// ways.
///
/// The cost of an access is the number of lines above it in its region (all of them on a miss),
/// against the sum of the ways of the set counts for one stack per set count: it pays where the
/// region is short (a footprint that fits) and the stacks would be far apart in memory.
///
///   AllAssocLru a(/*groups=*/1, {{32, 4}, {64, 2}, {64, 8}}, /*sectors=*/4, /*byte_masks=*/false);
///   const std::uint32_t slot = a.access(0, key % 64, key, [](std::size_t c, auto key, auto slot)
///   {}); for (std::size_t c = 0; c < 3; ++c) { std::uint8_t& v = a.state(slot, c).valid; ... }

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "sim/core/error.h"
#include "sim/core/fast_div.h"
#include "sim/replay/onepass/stack_lru.h"

namespace gms {

class AllAssocLru : public StackSlots {
 public:
  /// One configuration: `sets` sets per group, `ways` ways.
  struct Shape {
    std::uint32_t sets;
    std::uint32_t ways;
  };

  /// True when these set counts can share one AllAssocLru: each is the smallest times a power of
  /// two, and there are at most 8 distinct ones.
  static bool nests(const std::vector<std::uint32_t>& sets);

  /// True when one AllAssocLru is expected to be faster than one stack or tag store per set count:
  /// there are several set counts, they nest, and a region's lines (sum over set counts of
  /// 2^e x max ways, which a miss walks when the footprint overflows the caches) are at most
  /// 8 times the ways the separate stacks search (sum of max ways). The L2's ways 1 to 128 at one
  /// size (5120 / ways sets) pass; its sizes at one associativity (sets 40 x 2^k) do not, where
  /// bench/RESULTS.md measured the walk slower on a trace that overflows the L2.
  static bool pays(const std::vector<Shape>& shapes);

  /// `groups` independent groups (L2 slices) of sets; configuration c is `shapes[c]` (set counts
  /// that nest()); lines of `sectors_per_line` sectors (at most 8); `byte_masks` as in StackLru.
  AllAssocLru(std::uint32_t groups, const std::vector<Shape>& shapes,
              std::uint32_t sectors_per_line, bool byte_masks);

  std::size_t configs() const { return level_of_.size(); }
  /// The largest set count: pass `local` modulo it, or any value congruent to it.
  std::uint32_t max_sets() const { return s0_ << max_shift_; }

  /// Accesses line `key` of `group`, whose set in configuration c is local mod sets(c), and makes
  /// it the most recent; returns its slot (for state(), bytes() and tag()). First, for every
  /// configuration the access evicts a line from, calls on_evict(c, key, slot) while that line's
  /// state for c is readable, if the line was ever note_dirty(): a clean line leaves without a
  /// call, and without its state being touched (the state of a line in a configuration it is
  /// absent from is stale, and cleared when it comes back). A line new to every configuration
  /// starts with no state anywhere; resident_before(c) tells whether it was in configuration c.
  template <class OnEvict>
  std::uint32_t access(std::uint32_t group, std::uint32_t local, std::uint64_t key,
                       OnEvict&& on_evict) {
    const std::uint32_t region = group * s0_ + s0_div_.mod(local);
    const std::uint32_t q = s0_div_.div(local) & q_mask_;
    Entry* e = entries_.get() + std::size_t{region} * cap_;
    const std::uint32_t n = fill_[region];
    std::uint32_t i = 0;
    while (i < n && e[i].key != key) ++i;
    // The lines above it: each level they share with it and hold them moves them down one.
    std::uint32_t kept = 0;
    for (std::uint32_t j = 0; j < i; ++j) {
      Entry y = e[j];
      const std::uint32_t z = (q ^ y.q) & q_mask_;
      const Depths inc =
          shared_[z == 0 ? 32 : std::countr_zero(z)] & reinterpret_cast<Depths>(y.depth != kDead);
      y.depth -= inc;  // inc is 0xffff (-1) where it moves down
      const Depths evicting = inc & reinterpret_cast<Depths>(y.depth >= min_ways_);
      if (any(evicting)) {  // some configuration of some level evicts it, or it leaves one
        for (std::uint32_t l = 0; l < levels_; ++l) {
          if (evicting[l] == 0) continue;
          const std::uint32_t d = y.depth[l];
          if (y.q & kDirty) {
            const std::uint32_t* cut = cuts_.data() + cut_at_[l] + d;
            for (std::uint32_t k = cut[0]; k < cut[1]; ++k)
              on_evict(std::size_t{by_level_[k]}, y.key, y.slot);
          }
          if (d >= max_ways_[l]) y.depth[l] = kDead;
        }
        if (!any(reinterpret_cast<Depths>(y.depth !=
                                          kDead))) {  // resident nowhere: its slot is free
          next_free_[y.slot] = free_;
          free_ = y.slot;
          continue;
        }
      }
      e[kept++] = y;
    }
    std::uint32_t slot;
    std::uint32_t left;  // lines below the accessed one, which keep their places
    if (i < n) {
      slot = e[i].slot;
      was_ = e[i];
      left = n - i - 1;
      if (kept != i) std::memmove(e + kept + 1, e + i + 1, left * sizeof *e);
      for (std::size_t c = 0; c < k_; ++c)
        if (!resident_before(c)) state(slot, c) = {};
    } else {
      was_.depth = Depths{} + kDead;  // absent: dead everywhere
      was_.q = 0;
      left = 0;
      if (free_ != kNone) {
        slot = free_;
        free_ = next_free_[slot];
      } else {
        slot = used_++;
      }
      clear_line(slot);
    }
    std::memmove(e + 1, e, kept * sizeof *e);
    e[0] = {key, slot, q | (was_.q & kDirty), fresh_};
    last_ = e;
    fill_[region] = kept + 1 + left;
    GMS_ASSERT(fill_[region] <= cap_, "all-associativity region overflow");
    return slot;
  }

  /// The line of the last access() may now have dirty sectors in some configuration: its
  /// evictions are reported to on_evict from now on.
  void note_dirty() { last_->q |= kDirty; }

  /// True when the line of the last access() was resident in configuration c before it.
  bool resident_before(std::size_t c) const {
    const std::uint32_t l = level_of_[c];
    return was_.depth[l] < ways_[c];
  }

  /// Calls f(slot, key) for every line resident in configuration c.
  template <class F>
  void for_each_resident(std::size_t c, F f) const {
    const std::uint32_t l = level_of_[c];
    for (std::size_t r = 0; r < fill_.size(); ++r) {
      const Entry* e = entries_.get() + r * cap_;
      for (std::uint32_t i = 0; i < fill_[r]; ++i)
        if (e[i].depth[l] < ways_[c]) f(e[i].slot, e[i].key);
    }
  }

  /// Empties every configuration.
  void clear();

 private:
  static constexpr std::uint32_t kNone = 0xffffffffu;
  static constexpr std::uint32_t kMaxLevels = 8;
  /// A line's depth in its set at each level (set count), in one vector; kDead at a level whose
  /// largest cache does not hold it (and at the lanes of no level).
  using Depths = std::uint16_t __attribute__((vector_size(2 * kMaxLevels)));
  static constexpr std::uint16_t kDead = 0xffff;
  static constexpr std::uint32_t kDirty = 0x80000000u;  ///< in Entry::q: note_dirty() was called
  /// A line of a region. Its depths travel with it, so that the walk reads one array in order.
  struct Entry {
    std::uint64_t key;
    std::uint32_t slot;
    std::uint32_t q;  ///< (local / s0) mod 2^max_shift, and kDirty
    Depths depth;
  };
  template <class V>
  static bool any(V v) {
    std::uint64_t w[2];
    std::memcpy(w, &v, sizeof w);
    return (w[0] | w[1]) != 0;
  }

  std::uint32_t s0_;  ///< the smallest set count
  FastDiv32 s0_div_;
  std::uint32_t max_shift_ = 0;
  std::uint32_t q_mask_;
  std::uint32_t levels_;                 ///< distinct set counts, in increasing order
  std::vector<std::uint32_t> max_ways_;  ///< per level
  std::vector<std::uint32_t> level_of_;  ///< per configuration
  std::vector<std::uint32_t> ways_;      ///< per configuration
  std::vector<std::uint32_t> by_level_;  ///< configurations by level, then ways
  std::vector<std::uint32_t> cut_at_;    ///< per level: its row of cuts_
  std::vector<std::uint32_t> cuts_;      ///< [cut_at_[l] + w, +1): by_level_ of level l, w ways
  Depths shared_[33];  ///< 0xffff at the levels of shift <= b, for b trailing zeros (32: all)
  Depths min_ways_;    ///< per level, the fewest ways of its configurations (kDead: no level)
  Depths fresh_;       ///< a line just accessed: depth 0 at every level, kDead at the others
  std::size_t k_;
  std::uint32_t cap_;  ///< lines a region can hold: sum over levels of 2^shift x max ways
  std::vector<std::uint32_t> fill_;  ///< per region: its lines
  /// Slots are taken from one pool, densely (slots ever used, then a free list), so that the
  /// per-slot arrays touch as many pages as there are lines, not one per region.
  std::uint32_t used_ = 0, free_ = kNone;
  // Per-slot arrays are allocated, not written (as in StackLru): a slot is written when a line
  // takes it, before anything reads it.
  std::unique_ptr<Entry[]> entries_;  ///< per region, cap_ of them, most recent first
  std::unique_ptr<std::uint32_t[]> next_free_;
  Entry* last_ = nullptr;  ///< the line of the last access
  Entry was_{};            ///< the line of the last access, as it was before it
};

}  // namespace gms
