#pragma once
/// The L1 data cache of one SM, in 32-byte-sector terms. Loads look up their sectors, allocate
/// the line's tag on a miss and fetch only the missing L1 sectors from L2. Stores write through
/// and never allocate; a store to a resident line updates it in place (its valid sectors stay
/// valid). Atomics bypass L1.

#include <bit>
#include <cstdint>

#include "sim/coalescer.h"
#include "sim/config.h"
#include "sim/sector_cache.h"

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
        sector_bytes_(cfg.sector_bytes),
        sets_(cfg.sets),
        enabled_(capacity_bytes >= cfg.line_bytes),
        cache_(CacheGeometry{cfg.sets, ways_for(cfg, capacity_bytes),
                             cfg.line_bytes / cfg.sector_bytes},
               std::move(policy)) {}

  /// A load of the sectors `want` (bit s = 32-byte sector s) of the 128-byte line `line_addr`.
  L1Outcome read(Addr line_addr, std::uint8_t want) {
    L1Outcome out;
    if (!enabled_) {
      out.fetch_mask = want;
      return out;
    }
    // Walk the 32-byte sectors; consecutive ones that fall in the same L1 line share a lookup.
    for (std::uint8_t rest = want; rest != 0;) {
      const unsigned s = static_cast<unsigned>(std::countr_zero(rest));
      const Addr first = line_addr + Addr{s} * kSectorBytes;
      const std::uint64_t key = first / line_bytes_;
      std::uint8_t group = 0;  // 32-byte sectors of this 128-byte line inside L1 line `key`
      for (std::uint8_t r = rest; r != 0; r &= r - 1) {
        const unsigned t = static_cast<unsigned>(std::countr_zero(r));
        if ((line_addr + Addr{t} * kSectorBytes) / line_bytes_ == key)
          group |= std::uint8_t(1u << t);
      }
      rest &= static_cast<std::uint8_t>(~group);
      access_line(line_addr, key, group, out);
    }
    return out;
  }

 private:
  static std::uint32_t ways_for(const L1Config& cfg, std::uint64_t capacity_bytes) {
    const std::uint64_t lines = capacity_bytes / cfg.line_bytes;
    return lines < cfg.sets ? 1u : static_cast<std::uint32_t>(lines / cfg.sets);
  }

  /// L1 sector mask (bit = L1 sector of line `key`) of the 32-byte sectors in `group`.
  std::uint8_t l1_sectors(Addr line_addr, std::uint8_t group) const {
    std::uint8_t m = 0;
    for (std::uint8_t r = group; r != 0; r &= r - 1) {
      const Addr a = line_addr + Addr{static_cast<unsigned>(std::countr_zero(r))} * kSectorBytes;
      m |= static_cast<std::uint8_t>(1u << ((a % line_bytes_) / sector_bytes_));
    }
    return m;
  }

  void access_line(Addr line_addr, std::uint64_t key, std::uint8_t group, L1Outcome& out) {
    const auto set = static_cast<std::uint32_t>(key % sets_);
    std::int32_t way = cache_.find(set, key);
    if (way == SectorCache<Policy>::kMiss) {
      Eviction ev;  // L1 lines are never dirty (write-through): nothing to write back
      way = static_cast<std::int32_t>(cache_.allocate(set, key, ev));
    } else {
      cache_.touch(set, static_cast<std::uint32_t>(way));
    }
    std::uint8_t& valid = cache_.valid(cache_.slot(set, static_cast<std::uint32_t>(way)));
    const std::uint8_t want = l1_sectors(line_addr, group);
    const std::uint8_t missing = want & static_cast<std::uint8_t>(~valid);
    valid |= missing;
    // Back to 32-byte sectors of the coalescer line: hits are requested sectors whose L1 sector
    // was valid; fetches are every 32-byte piece of the missing L1 sectors inside this line.
    for (unsigned t = 0; t < kSectorsPerLine; ++t) {
      const Addr a = line_addr + Addr{t} * kSectorBytes;
      if (a / line_bytes_ != key) continue;
      const std::uint8_t bit = static_cast<std::uint8_t>(1u << ((a % line_bytes_) / sector_bytes_));
      if ((group >> t & 1u) && !(missing & bit)) out.hit_mask |= std::uint8_t(1u << t);
      if (missing & bit) out.fetch_mask |= std::uint8_t(1u << t);
    }
  }

  std::uint32_t line_bytes_, sector_bytes_, sets_;
  bool enabled_;  ///< false for a zero-capacity L1: every load misses and allocates nothing
  SectorCache<Policy> cache_;
};

}  // namespace gms
