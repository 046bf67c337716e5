#include "sim/replay/reference/plain_cold.h"

#include <bit>

namespace gms::ref {

PlainCold::PlainCold(const SimConfig& cfg)
    : cfg_(cfg), slices_(l2_slices(cfg.l2)), dram_(cfg.dram) {}

void PlainCold::begin_kernel() {
  slice_sectors_.assign(cfg_.l2.slices, 0);
}

void PlainCold::access(Op op, const PlainAccess& a, AccessCounters& c) {
  const std::uint64_t bytes = std::uint64_t{a.transactions} * a.segment_bytes;
  if (is_global_load(op)) {
    c.l1_sector_misses += a.sectors;
    c.l2_read_sectors += a.sectors;
    c.l2_read_sector_misses += a.sectors;
    c.dram_read_bytes += bytes;
  } else if (is_store(op)) {
    c.l2_write_sectors += a.sectors;
    c.dram_write_bytes += bytes;
  } else {  // ATOMG, RED
    c.l2_atomic_sectors += a.sectors;
    c.dram_read_bytes += bytes;
  }
  const bool write = is_store(op);
  const std::uint32_t seg = a.segment_bytes;
  for (const PlainLine& l : a.line_list) {
    slice_sectors_[slices_.unit_of(l.addr)] += static_cast<std::uint64_t>(std::popcount(l.sectors));
    if (cfg_.dram.interleave_bytes >= kLine) {
      dram_.access(l.addr, line_transactions(seg, l.sectors) * seg, write);
      continue;
    }
    for (std::uint32_t off = 0; off < kLine; off += seg) {
      bool touched = false;
      for (std::uint32_t s = off; s < off + seg; s += kSector)
        if (l.sectors >> (s / kSector) & 1u) touched = true;
      if (touched) dram_.access(l.addr + off, seg, write);
    }
  }
}

void PlainCold::end_kernel(TrafficProfile& traffic) {
  traffic.l2_slice_sectors = slice_sectors_;
  traffic.dram = dram_.finish();
}

}  // namespace gms::ref
