#include "sim/replay/reference/plain_l1.h"

#include "sim/replay/reference/plain_coalescer.h"

namespace gms::ref {

namespace {

std::uint32_t ways_for(const L1Config& cfg, std::uint64_t capacity_bytes) {
  const std::uint64_t lines = capacity_bytes / cfg.line_bytes;
  return lines < cfg.sets ? 1u : static_cast<std::uint32_t>(lines / cfg.sets);
}

}  // namespace

PlainL1::PlainL1(const L1Config& cfg, std::uint64_t capacity_bytes, std::uint32_t sm)
    : cfg_(cfg),
      caches_(capacity_bytes >= cfg.line_bytes),
      tags_(cfg.sets, ways_for(cfg, capacity_bytes), cfg.policy, cfg.seed + sm) {}

L1Result PlainL1::load(Addr line_addr, std::uint8_t want) {
  L1Result out;
  if (!caches_) {
    out.fetch = want;
    return out;
  }
  // The 32-byte sectors of the line, in address order; those in one L1 line make one lookup.
  for (unsigned s = 0; s < kLine / kSector; ++s) {
    if (!(want >> s & 1u)) continue;
    const Addr a = line_addr + s * kSector;
    const std::uint64_t key = a / cfg_.line_bytes;
    // Is this the first requested sector of its L1 line? Else the line was looked up already.
    bool first = true;
    for (unsigned t = 0; t < s; ++t)
      if ((want >> t & 1u) && (line_addr + t * kSector) / cfg_.line_bytes == key) first = false;
    if (!first) continue;
    auto l1_sector = [&](unsigned t) {
      return static_cast<unsigned>((line_addr + t * kSector) % cfg_.line_bytes / cfg_.sector_bytes);
    };
    auto in_line = [&](unsigned t) { return (line_addr + t * kSector) / cfg_.line_bytes == key; };
    std::uint8_t l1_want = 0;  // the L1 sectors of this L1 line that the load needs
    for (unsigned t = 0; t < kLine / kSector; ++t)
      if ((want >> t & 1u) && in_line(t))
        l1_want = static_cast<std::uint8_t>(l1_want | 1u << l1_sector(t));
    const auto set = static_cast<std::uint32_t>(key % cfg_.sets);
    int way = tags_.find(set, key);
    if (way < 0) {
      Evicted gone;  // L1 lines are never dirty (write-through): nothing to write back
      way = tags_.allocate(set, key, gone);
    } else {
      tags_.touch(set, way);
    }
    Way& line = tags_.way(set, way);
    const std::uint8_t valid_before = line.valid;
    line.valid = static_cast<std::uint8_t>(line.valid | l1_want);
    for (unsigned t = 0; t < kLine / kSector; ++t) {
      if (!in_line(t)) continue;
      const bool was_valid = valid_before >> l1_sector(t) & 1u;
      const bool missing = (l1_want >> l1_sector(t) & 1u) && !was_valid;
      if ((want >> t & 1u) && !missing) out.hits = static_cast<std::uint8_t>(out.hits | 1u << t);
      if (missing) out.fetch = static_cast<std::uint8_t>(out.fetch | 1u << t);
    }
  }
  return out;
}

}  // namespace gms::ref
