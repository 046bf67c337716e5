#pragma once
/// One SM's L1 for several LRU configurations in one pass: the rules of L1Cache::read (a load
/// looks up its sectors, allocates the line's tag on a miss and fetches only the missing
/// sectors; L1 lines are never dirty) on StackLru stacks, one per distinct set count, or on one
/// AllAssocLru for all of them when they nest (l1.sets = 1, 2, 4, ...) and AllAssocLru::pays. Only
/// the coalescer's own geometry (128-byte lines of 32-byte sectors); an L1 below one line is off
/// (every load misses, nothing is allocated), as in L1Cache.

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/config/config.h"
#include "sim/model/coalescer.h"
#include "sim/model/l1_cache.h"
#include "sim/replay/onepass/all_assoc_lru.h"
#include "sim/replay/onepass/stack_lru.h"

namespace gms {

class StackL1 {
 public:
  /// Variant v has `sets[v]` sets and `capacity_bytes[v]` (its ways: L1Cache::ways_for).
  StackL1(const L1Config& geometry, const std::vector<std::uint32_t>& sets,
          const std::vector<std::uint64_t>& capacity_bytes)
      : variants_(sets.size()) {
    std::vector<std::uint32_t> level_sets;
    std::vector<std::vector<std::size_t>> members;
    std::vector<std::vector<std::uint32_t>> ways;
    for (std::size_t v = 0; v < sets.size(); ++v) {
      L1Config c = geometry;
      c.sets = sets[v];
      if (capacity_bytes[v] < c.line_bytes) {  // L1Cache: an L1 below one line is off
        off_.push_back(v);
        continue;
      }
      std::size_t i = 0;
      while (i < level_sets.size() && level_sets[i] != sets[v]) ++i;
      if (i == level_sets.size()) {
        level_sets.push_back(sets[v]);
        members.emplace_back();
        ways.emplace_back();
      }
      members[i].push_back(v);
      // L1Cache's ways: the capacity in lines over the sets, at least 1.
      const std::uint64_t lines = capacity_bytes[v] / c.line_bytes;
      ways[i].push_back(lines < c.sets ? 1u : static_cast<std::uint32_t>(lines / c.sets));
    }
    std::vector<AllAssocLru::Shape> shapes;
    for (std::size_t i = 0; i < level_sets.size(); ++i)
      for (std::size_t c = 0; c < members[i].size(); ++c) {
        shapes.push_back({level_sets[i], ways[i][c]});
        all_variants_.push_back(members[i][c]);
      }
    if (AllAssocLru::pays(shapes)) {
      all_.emplace(1, shapes, kSectorsPerLine, false);
      return;
    }
    all_variants_.clear();
    for (std::size_t i = 0; i < level_sets.size(); ++i)
      levels_.push_back(
          {StackLru(level_sets[i], ways[i], kSectorsPerLine, false), level_sets[i], members[i]});
  }

  /// A load of the sectors `want` of the 128-byte line `line_addr`; out[v] is variant v's
  /// outcome (out holds one per variant).
  void read(Addr line_addr, std::uint8_t want, L1Outcome* out) {
    const std::uint64_t key = line_addr >> 7;
    for (const std::size_t v : off_) out[v] = {0, want};
    if (all_) {
      const std::uint32_t slot =
          all_->access(0, static_cast<std::uint32_t>(key % all_->max_sets()), key,
                       [](std::size_t, std::uint64_t, std::uint32_t) {});
      for (std::size_t c = 0; c < all_variants_.size(); ++c)
        out[all_variants_[c]] = fill(all_->state(slot, c).valid, want);
      return;
    }
    for (Level& l : levels_) {
      const auto set = static_cast<std::uint32_t>(key % l.sets);
      const StackLru::Found f =
          l.stack.access(set, key, [](std::size_t, std::uint64_t, std::uint32_t) {});
      for (std::size_t c = 0; c < l.variants.size(); ++c)
        out[l.variants[c]] = fill(l.stack.state(f.slot, c).valid, want);
    }
  }

  std::size_t variants() const { return variants_; }

 private:
  struct Level {
    StackLru stack;
    std::uint32_t sets;
    std::vector<std::size_t> variants;  ///< the stack's configuration c is variant variants[c]
  };
  /// Hits the valid sectors of `want`, fetches and validates the others.
  static L1Outcome fill(std::uint8_t& valid, std::uint8_t want) {
    const L1Outcome o{static_cast<std::uint8_t>(want & valid),
                      static_cast<std::uint8_t>(want & ~valid)};
    valid |= want;
    return o;
  }

  std::size_t variants_;
  std::vector<Level> levels_;
  std::optional<AllAssocLru> all_;         ///< instead of levels_ when their set counts nest
  std::vector<std::size_t> all_variants_;  ///< all_'s configuration c is variant all_variants_[c]
  std::vector<std::size_t> off_;           ///< variants whose L1 is off this kernel
};

}  // namespace gms
