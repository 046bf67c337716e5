#include "sim/replay/fast/cold_model.h"

#include <bit>

#include "sim/replay/fast/scattered_warp.h"

namespace gms {

ColdModel::ColdModel(const SimConfig& cfg, const Coalescer& coalescer)
    : coalescer_(coalescer),
      slices_(l2_slices(cfg.l2)),
      dram_(cfg.dram),
      line_per_channel_(cfg.dram.interleave_bytes >= kLineBytes),
      slice_is_channel_(slices_.same_as(dram_.channel_map())),
      lines_in_channels_(line_per_channel_ && !dram_.row_model()),
      scattered_shortcut_(lines_in_channels_ && slice_is_channel_) {}

void ColdModel::begin_kernel() {
  slice_sectors_.assign(slices_.units(), 0);
  scattered_sectors_.assign(slices_.units(), 0);
}

void ColdModel::end_kernel(KernelStats& stats, TrafficProfile& units) {
  for (std::uint32_t slot = 0; slot < CoalesceMemo::kSlots; ++slot)
    charge_pending(slot, stats, units);
  charge_scattered_sectors();
  stats.traffic.l2_slice_sectors = slice_sectors_;
  stats.traffic.dram = dram_.finish();
}

void ColdModel::replay_unmemoized(WarpInstr& w, std::uint32_t slot, std::uint32_t row,
                                  std::uint32_t sm, KernelStats& stats, TrafficProfile& units) {
  AccessCounters& c = stats.instructions[row].c;
  ++stats.records;
  // A shape the memo keeps goes through the coalescer, which fills the memo; a scattered warp
  // never is memoized, so the memo slot stays as it is.
  if (scattered_shortcut_ && !CoalesceMemo::takes(w) && charge_scattered(w, sm, c, units)) return;
  charge_pending(slot, stats, units);  // its entry is about to change
  if (!w.lanes_complete) complete_strided_lanes(w);
  coalescer_.coalesce(w, access_);
  memo_.store(row, w, access_);
  charge_l1_pipe(w.op, access_, sm, units);
  if (waits_for_data(w.op)) ++units.load_requests;  // loads and atomics wait for their data
  charge_access(w.op, access_, c);
  access(w.op, access_, c);
}

void ColdModel::charge_pending(std::uint32_t slot, KernelStats& stats, TrafficProfile& units) {
  PendingRepeats& p = pending_[slot];
  if (p.count == 0) return;
  const CoalesceMemo::Entry& e = memo_.entry(slot);
  AccessCounters once;
  charge_access(e.op, e.counts, once);
  charge_cold_hierarchy(e.op, e.counts, once);
  stats.instructions[p.row].c.add_scaled(once, p.count);
  if (waits_for_data(e.op)) units.load_requests += p.count;
  if (lines_in_channels_)
    dram_.add_total_bytes(p.count * e.counts.transactions * e.counts.segment_bytes, is_store(e.op));
  p.count = 0;
}

bool ColdModel::charge_scattered(const WarpInstr& w, std::uint32_t sm, AccessCounters& c,
                                 TrafficProfile& units) {
  ScatteredWarp s;
  if (!analyze_scattered_warp(w, coalescer_.segment_bytes(w.op), slices_, s)) return false;
  const Op op = w.op;
  charge_l1_pipe(op, s, sm, units);
  if (waits_for_data(op)) ++units.load_requests;
  charge_access(op, s, c);
  charge_cold_hierarchy(op, s, c);
  auto unit = [&](std::uint32_t m) { return s.unit[static_cast<unsigned>(std::countr_zero(m))]; };
  if (s.segment_bytes == kSectorBytes) {
    // Segments are sectors: one count per unit now, its slice's sectors and its channel's
    // bytes at the kernel's end (charge_scattered_sectors).
    std::uint64_t* sectors = scattered_sectors_.data();
    if (s.sector_starts == 0xffffffffu) {  // every lane its own sector: no mask walk
      for (const std::uint32_t u : s.unit) ++sectors[u];
    } else {
      for (std::uint32_t m = s.sector_starts; m != 0; m &= m - 1) ++sectors[unit(m)];
    }
  } else {
    std::uint64_t* slice_sectors = slice_sectors_.data();
    for (std::uint32_t m = s.sector_starts; m != 0; m &= m - 1) ++slice_sectors[unit(m)];
    for (std::uint32_t m = s.segment_starts; m != 0; m &= m - 1)
      dram_.add_channel_bytes(unit(m), s.segment_bytes);
  }
  dram_.add_total_bytes(std::uint64_t{s.transactions} * s.segment_bytes, is_store(op));
  return true;
}

void ColdModel::charge_scattered_sectors() {
  for (std::size_t u = 0; u < scattered_sectors_.size(); ++u) {
    const std::uint64_t n = scattered_sectors_[u];
    if (n == 0) continue;
    slice_sectors_[u] += n;
    dram_.add_channel_bytes(static_cast<std::uint32_t>(u), n * kSectorBytes);
    scattered_sectors_[u] = 0;
  }
}

}  // namespace gms
