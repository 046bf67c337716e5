#pragma once
/// Maps a record's static instruction (inst id, op, size) to its dense row in a kernel's
/// per-instruction statistics. Small inst ids (the common case: PCs / capture indices) use a flat
/// table; anything else falls back to a hash map. One lookup per warp instruction, none per lane.

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/core/records.h"

namespace gms {

class InstrTable {
 public:
  static constexpr std::uint32_t kFlatIds = 1u << 16;

  /// The row of (inst, op, size); `created` tells whether it is new (rows are numbered in order
  /// of first appearance from 0).
  [[gnu::always_inline]] std::uint32_t row(const WarpInstr& w, bool& created) {
    const std::uint64_t key = key_of(w);
    // The common case inline: a known small id (the rest is a call, kept out of the replay loop).
    if (w.inst < flat_.size()) {
      const std::uint32_t slot = flat_[w.inst];
      if (slot != kNone && keys_[slot] == key) [[likely]] {
        created = false;
        return slot;
      }
    }
    return row_slow(w.inst, key, created);
  }

 private:
  static constexpr std::uint32_t kNone = 0xffffffffu;

  static std::uint64_t key_of(const WarpInstr& w) {
    return (std::uint64_t{w.inst} << 16) | (std::uint64_t(w.op) << 8) | w.size;
  }

  [[gnu::noinline]] std::uint32_t row_slow(std::uint32_t inst, std::uint64_t key, bool& created) {
    if (inst < kFlatIds) {
      if (flat_.empty()) flat_.assign(kFlatIds, kNone);
      std::uint32_t& slot = flat_[inst];
      if (slot == kNone) {
        slot = add(key);
        created = true;
        return slot;
      }
    }
    auto [it, inserted] = overflow_.try_emplace(key, 0);
    if (inserted) it->second = add(key);
    created = inserted;
    return it->second;
  }

  std::uint32_t add(std::uint64_t key) {
    keys_.push_back(key);
    return static_cast<std::uint32_t>(keys_.size() - 1);
  }
  std::vector<std::uint32_t> flat_;
  std::vector<std::uint64_t> keys_;
  std::unordered_map<std::uint64_t, std::uint32_t> overflow_;
};

}  // namespace gms
