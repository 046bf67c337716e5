#pragma once
/// The stack (Mattson) algorithm for a sectored LRU cache: one replay of an access stream gives
/// the state of the same cache at every associativity of one set count. LRU has the inclusion
/// property: a W-way LRU set holds exactly the W most recently used lines of that set, so one
/// recency stack per set (the Wmax most recent lines, most recent first) answers for every
/// W <= Wmax at once: a line at depth d is resident in the caches of more than d ways.
///
/// Tags are shared; sectors are not. Which sectors of a line are valid (and dirty) in a W-way
/// cache depends on W: a line that left the W-way cache and came back starts with no sector,
/// while in a larger cache it kept them; and a fill can differ too (a miss fetching a 64-byte
/// unit at W ways validates a neighbour sector that a hit at W' ways leaves invalid). So every
/// configuration keeps its own per-line sector state, cleared exactly when its line leaves it:
/// when an access moves a line to the top, the lines above it move down by one, and the line
/// that crosses from depth W - 1 to W leaves the W-way cache (its dirty sectors are written back
/// then, as the W-way cache would at that eviction). A sector therefore hits at W ways only if
/// its line stayed within the W most recent lines of its set since that sector was last filled.
///
/// Configurations are given by their ways (any order, repeats allowed); different set counts are
/// different StackLru objects (a caller keeps one per set count: see StackLevels).
///
///   StackLru s(/*sets=*/32, /*ways=*/{4, 8, 16}, /*sectors=*/4, /*byte_masks=*/false);
///   auto a = s.access(set, key, [](std::size_t c, std::uint64_t key, std::uint32_t slot) {});
///   for (std::size_t c = 0; c < 3; ++c) { std::uint8_t& v = s.state(a.slot, c).valid; ... }

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "sim/core/error.h"

namespace gms {

/// One configuration's state of one line: its valid and dirty sectors (bit s = sector s).
/// Trivial, so that the per-slot arrays are allocated without being written (see StackLru).
struct StackSectors {
  std::uint8_t valid;
  std::uint8_t dirty;
};

/// The per-line state of a one-pass stack, by slot: each configuration's sectors, the bytes
/// written into each sector (optional), and one caller's value per line. Allocated, not
/// written: a trace touches few of a large L2's lines, and the pages of the others are never
/// faulted in; a slot is written when a line takes it (clear_line), before anything reads it.
class StackSlots {
 public:
  StackSlots() = default;
  StackSlots(std::size_t slots, std::size_t configs, std::uint32_t sectors_per_line,
             bool byte_masks);

  StackSectors& state(std::uint32_t slot, std::size_t c) {
    return state_[std::size_t{slot} * k_ + c];
  }
  /// The bytes written into sector `s` of the line in configuration c (only with byte_masks).
  std::uint32_t& bytes(std::uint32_t slot, std::size_t c, unsigned s) {
    return bytes_[(std::size_t{slot} * k_ + c) * spl_ + s];
  }
  /// A caller's value per line (e.g. who dirtied it last), kept with the line, not per config.
  std::uint64_t& tag(std::uint32_t slot) { return tag_[slot]; }

 protected:
  /// No sector of the line in any configuration.
  void clear_line(std::uint32_t slot) {
    std::fill_n(state_.get() + std::size_t{slot} * k_, k_, StackSectors{});
  }

 private:
  std::size_t k_ = 0;
  std::uint32_t spl_ = 0;
  std::unique_ptr<StackSectors[]> state_;   ///< per slot and configuration
  std::unique_ptr<std::uint32_t[]> bytes_;  ///< per slot, configuration and sector (byte_masks)
  std::unique_ptr<std::uint64_t[]> tag_;    ///< per slot
};

class StackLru : public StackSlots {
 public:
  /// A depth that no configuration holds: the line was absent from every one.
  static constexpr std::uint32_t kAbsent = 0xffffffffu;

  /// `sets` sets; configuration c has `ways[c]` ways (each at least 1); lines of
  /// `sectors_per_line` sectors (at most 8). `byte_masks`: keep a 32-bit written-bytes mask per
  /// sector of every line and configuration (the L2's partial writes).
  StackLru(std::uint32_t sets, std::vector<std::uint32_t> ways, std::uint32_t sectors_per_line,
           bool byte_masks);

  /// What access() found: the line's slot (an index for state(), bytes() and tag()) and its
  /// depth before the access (kAbsent when it was in no configuration's set).
  struct Found {
    std::uint32_t slot = 0;
    std::uint32_t depth = kAbsent;
  };

  std::size_t configs() const { return ways_.size(); }
  std::uint32_t ways(std::size_t c) const { return ways_[c]; }
  std::uint32_t sets() const { return sets_; }

  /// Accesses line `key` of `set` and makes it the most recent. First, for every configuration
  /// the access evicts a line from (its set was full and the line moves from depth ways - 1 to
  /// ways), calls on_evict(c, key, slot) while that line's state for c is still readable, then
  /// clears it. A line absent from configuration c (depth >= ways(c)) has no sector there:
  /// resident(found, c) tells. A line new to the stack starts with no state anywhere.
  template <class OnEvict>
  Found access(std::uint32_t set, std::uint64_t key, OnEvict&& on_evict) {
    const std::size_t base = std::size_t{set} * wmax_;
    std::uint64_t* keys = keys_.get() + base;
    std::uint32_t* slots = slots_.get() + base;
    const std::uint32_t n = fill_[set];
    std::uint32_t d = 0;
    while (d < n && keys[d] != key) ++d;
    const bool hit = d < n;
    // Lines at depths [0, d) move down one (on a miss, every line: the last leaves the stack).
    for (const std::uint32_t c : by_ways_) {
      const std::uint32_t w = ways_[c];
      if (w > d) break;
      const std::uint32_t slot = slots[w - 1];
      on_evict(std::size_t{c}, keys[w - 1], slot);
      state(slot, c) = {};
    }
    std::uint32_t slot, from;
    if (hit) {
      slot = slots[d];
      from = d;
    } else if (n < wmax_) {
      slot = static_cast<std::uint32_t>(base + n);
      from = n;
      ++fill_[set];
    } else {
      slot = slots[n - 1];  // it left every configuration above
      from = n - 1;
    }
    std::memmove(keys + 1, keys, from * sizeof *keys);
    std::memmove(slots + 1, slots, from * sizeof *slots);
    keys[0] = key;
    slots[0] = slot;
    if (!hit) clear_line(slot);
    return {slot, hit ? d : kAbsent};
  }

  /// True when the line access() found was resident in configuration c before the access.
  bool resident(const Found& f, std::size_t c) const {
    return f.depth != kAbsent && f.depth < ways_[c];
  }

  /// Calls f(slot, key) for every line resident in configuration c.
  template <class F>
  void for_each_resident(std::size_t c, F f) const {
    for (std::uint32_t set = 0; set < sets_; ++set) {
      const std::size_t base = std::size_t{set} * wmax_;
      const std::uint32_t n = std::min(fill_[set], ways_[c]);
      for (std::uint32_t d = 0; d < n; ++d) f(slots_[base + d], keys_[base + d]);
    }
  }

  /// Empties every set of every configuration.
  void clear() { std::fill(fill_.begin(), fill_.end(), 0u); }

 private:
  std::uint32_t sets_;
  std::vector<std::uint32_t> ways_;
  std::vector<std::uint32_t> by_ways_;  ///< configurations in increasing ways
  std::size_t k_;                       ///< configurations
  std::uint32_t wmax_;
  // Allocated, not written (as StackSlots): nothing is read before it is written, keys and
  // slots below a set's fill, a slot's state from its allocation on, its written bytes and
  // tag while it is dirty (they were written when it became dirty).
  std::unique_ptr<std::uint64_t[]> keys_;   ///< per set: its lines' keys, most recent first
  std::unique_ptr<std::uint32_t[]> slots_;  ///< beside keys_: each line's slot
  std::vector<std::uint32_t> fill_;         ///< per set: lines in the stack
};

}  // namespace gms
