#pragma once
/// The reference's L1 data cache of one SM (sim/replay/reference_engine.h). Only loads that the
/// L1 caches reach it (LDL always, LDG when l1.caches_global_loads); stores write through to L2
/// without allocating, atomics go to L2 ([TG-Volta] and [NVF] in docs/hardware.md).
///
/// A load of some 32-byte sectors of a 128-byte line looks up each L1 line (l1.line_bytes) they
/// fall in, set = line number mod l1.sets, allocating the line on a miss; the L1 sectors
/// (l1.sector_bytes) a requested byte lies in become valid. A requested 32-byte sector hits when
/// its L1 sector was valid before; every 32-byte piece of an L1 sector that was not is read from
/// L2, so a non-sectored L1 fetches whole lines. The capacity is what the kernel's carve-out
/// leaves (sim/model/placement.h): ways = capacity / line size / sets (at least one); an L1
/// smaller than a line caches nothing.

#include <cstdint>

#include "sim/config/config.h"
#include "sim/core/types.h"
#include "sim/replay/reference/plain_sector_cache.h"

namespace gms::ref {

/// A load's result for one 128-byte line, in 32-byte sectors of the line.
struct L1Result {
  std::uint8_t hits = 0;   ///< requested sectors found
  std::uint8_t fetch = 0;  ///< sectors to read from L2
};

class PlainL1 {
 public:
  /// SM `sm`'s L1 of `capacity_bytes` (its random policy seeded l1.seed + sm).
  PlainL1(const L1Config& cfg, std::uint64_t capacity_bytes, std::uint32_t sm);

  /// A load of the 32-byte sectors `want` of the 128-byte line at `line_addr`.
  L1Result load(Addr line_addr, std::uint8_t want);

 private:
  L1Config cfg_;
  bool caches_;  ///< the capacity holds at least one line
  PlainSectorCache tags_;
};

}  // namespace gms::ref
