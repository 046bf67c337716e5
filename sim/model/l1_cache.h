#pragma once
/// The L1 data cache of one SM, in 32-byte-sector terms. Loads look up their sectors, allocate
/// the line's tag on a miss and fetch only the missing L1 sectors from L2. Stores write through
/// and never allocate; a store to a resident line updates it in place (its valid sectors stay
/// valid). Atomics bypass L1.

#include <algorithm>
#include <bit>
#include <cstdint>

#include "sim/config/config.h"
#include "sim/model/coalescer.h"
#include "sim/model/sector_cache.h"

namespace gms {

/// Per 128-byte coalescer line: which requested 32-byte sectors hit, and which 32-byte sectors
/// must be read from L2 (whole missing L1 sectors, so a non-sectored L1 fetches full lines).
struct L1Outcome {
  std::uint8_t hit_mask = 0;
  std::uint8_t fetch_mask = 0;
};

template <ReplacementPolicy Policy>
class L1Cache {
 public:
  /// An L1 of `capacity_bytes`; 0 makes every access a miss that allocates nothing.
  L1Cache(const L1Config& cfg, std::uint64_t capacity_bytes, Policy policy)
      : line_bytes_(cfg.line_bytes),
        line_shift_(static_cast<unsigned>(std::countr_zero(cfg.line_bytes))),
        sector_shift_(static_cast<unsigned>(std::countr_zero(cfg.sector_bytes))),
        sets_(cfg.sets),
        enabled_(capacity_bytes >= cfg.line_bytes),
        cache_(CacheGeometry{cfg.sets, ways_for(cfg, capacity_bytes),
                             cfg.line_bytes / cfg.sector_bytes},
               std::move(policy)) {}

  /// The largest capacity any kernel's carve-out leaves this L1.
  static std::uint64_t largest_capacity_bytes(const L1Config& cfg) {
    return std::uint64_t{std::max(cfg.unified_kb, cfg.size_kb)} * 1024;
  }

  /// A load of the sectors `want` (bit s = 32-byte sector s) of the 128-byte line `line_addr`.
  L1Outcome read(Addr line_addr, std::uint8_t want) {
    L1Outcome out;
    if (!enabled_) {
      out.fetch_mask = want;
      return out;
    }
    // Line and sector sizes are powers of two (validated): shifts, not divisions, on this path.
    if (line_bytes_ == kLineBytes && sector_shift_ == 5) {  // the coalescer's own geometry
      const std::uint8_t valid = access_line(line_addr >> line_shift_, want);
      out.hit_mask = want & valid;
      out.fetch_mask = want & static_cast<std::uint8_t>(~valid);
      return out;
    }
    // Walk the 32-byte sectors; consecutive ones that fall in the same L1 line share a lookup.
    for (std::uint8_t rest = want; rest != 0;) {
      const unsigned s = static_cast<unsigned>(std::countr_zero(rest));
      const std::uint64_t key = (line_addr + Addr{s} * kSectorBytes) >> line_shift_;
      std::uint8_t group = 0;  // 32-byte sectors of this 128-byte line inside L1 line `key`
      std::uint8_t l1_want = 0;
      for (std::uint8_t r = rest; r != 0; r &= r - 1) {
        const unsigned t = static_cast<unsigned>(std::countr_zero(r));
        const Addr a = line_addr + Addr{t} * kSectorBytes;
        if (a >> line_shift_ != key) continue;
        group |= std::uint8_t(1u << t);
        l1_want |= l1_sector_bit(a);
      }
      rest &= static_cast<std::uint8_t>(~group);
      const std::uint8_t valid_before = access_line(key, l1_want);
      const std::uint8_t missing = l1_want & static_cast<std::uint8_t>(~valid_before);
      // Back to 32-byte sectors of the coalescer line: hits are requested sectors whose L1
      // sector was valid; fetches are every 32-byte piece of the missing L1 sectors in this line.
      for (unsigned t = 0; t < kSectorsPerLine; ++t) {
        const Addr a = line_addr + Addr{t} * kSectorBytes;
        if (a >> line_shift_ != key) continue;
        const std::uint8_t bit = l1_sector_bit(a);
        if ((group >> t & 1u) && !(missing & bit)) out.hit_mask |= std::uint8_t(1u << t);
        if (missing & bit) out.fetch_mask |= std::uint8_t(1u << t);
      }
    }
    return out;
  }

 private:
  static std::uint32_t ways_for(const L1Config& cfg, std::uint64_t capacity_bytes) {
    const std::uint64_t lines = capacity_bytes / cfg.line_bytes;
    return lines < cfg.sets ? 1u : static_cast<std::uint32_t>(lines / cfg.sets);
  }

  std::uint32_t set_of(std::uint64_t key) const {
    return static_cast<std::uint32_t>((sets_ & (sets_ - 1)) == 0 ? key & (sets_ - 1) : key % sets_);
  }

  /// The bit of the L1 sector (of its L1 line) that byte address `a` falls in.
  std::uint8_t l1_sector_bit(Addr a) const {
    return static_cast<std::uint8_t>(1u << ((a & (line_bytes_ - 1)) >> sector_shift_));
  }

  /// Looks up (allocating on a miss) L1 line `key` and makes its sectors `want` valid; returns
  /// the line's valid sectors before the access. Always inlined: it is each lane's L1 step, and
  /// the compiler's inlining budget for the replay loop is easily spent elsewhere.
  [[gnu::always_inline]] std::uint8_t access_line(std::uint64_t key, std::uint8_t want) {
    const std::uint32_t set = set_of(key);
    std::int32_t way = cache_.find(set, key);
    if (way == Tags::kMiss) {
      Eviction ev;  // L1 lines are never dirty (write-through): nothing to write back
      way = static_cast<std::int32_t>(cache_.allocate(set, key, ev));
    } else {
      cache_.touch(set, static_cast<std::uint32_t>(way));
    }
    std::uint8_t& valid = cache_.valid(cache_.slot(set, static_cast<std::uint32_t>(way)));
    const std::uint8_t before = valid;
    valid |= want;
    return before;
  }

  std::uint32_t line_bytes_;
  unsigned line_shift_, sector_shift_;
  std::uint32_t sets_;
  bool enabled_;  ///< false for a zero-capacity L1: every load misses and allocates nothing
  using Tags = SectorCache<Policy, /*kWriteBack=*/false>;  // write-through: no dirty state
  Tags cache_;
};

}  // namespace gms
