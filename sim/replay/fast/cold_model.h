#pragma once
/// The cold model: every global, local or atomic access misses everywhere. Each coalesced
/// access's counters are charged as misses (charge_cold_hierarchy), its sectors go to their L2
/// slices and its transactions to DRAM. A component with the cached hierarchy's interface
/// (begin_kernel, access, end_kernel), and a second entry, replay(), for cold-only runs, where
/// it coalesces records itself and owns the shortcuts that make such runs fast:
/// - repeats of a strided shape its memo holds charge their lines' traffic at once, but their
///   row's counters, load requests and (when lines map to channels) DRAM total only when the
///   row or the shape changes or the kernel ends: n repeats are one multiply-add per counter;
/// - scattered full-warp records are charged from their counts (analyze_scattered_warp) where
///   lines lie in channels that are their slices and the DRAM model keeps no row state.
/// The results equal access() of every record in order (the differential test, and
/// cold_repeat_test, hold them to it).

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/records.h"
#include "sim/core/stats.h"
#include "sim/model/address_map.h"
#include "sim/model/charging.h"
#include "sim/model/coalescer.h"
#include "sim/model/dram_model.h"
#include "sim/replay/fast/coalesce_memo.h"

namespace gms {

class ColdModel {
 public:
  /// `coalescer` (which must outlive the model) is the run's, under cfg.coalescer.
  ColdModel(const SimConfig& cfg, const Coalescer& coalescer);

  /// Starts a kernel. Its cold statistics and the unit traffic both modes share are passed to
  /// each call that charges them (no stored pointer: the replay's own objects, whose addresses
  /// the inlined calls see).
  void begin_kernel();

  /// Charges the coalesced access `a` of an `op` record to its row's counters `c`, its sectors
  /// to L2 slices and its transactions to DRAM. The caller charges the unit traffic both modes
  /// share.
  [[gnu::always_inline]] void access(Op op, const CoalescedAccess& a, AccessCounters& c) {
    charge_cold_hierarchy(op, a, c);
    charge_traffic(op, {a.line_list.data(), a.lines}, 0, a.transactions, a.segment_bytes);
  }

  /// Cold-only runs: the whole replay of global, local or atomic record `w` of row `row` on SM
  /// `sm`, into the kernel's cold statistics `stats` and unit traffic `units`, its record count
  /// included; some of it only at end_kernel (deferred repeats). Completes `w`'s lanes when it
  /// needs them.
  void replay(WarpInstr& w, std::uint32_t sm, std::uint32_t row, KernelStats& stats,
              TrafficProfile& units) {
    const std::uint32_t slot = CoalesceMemo::slot_of(row);
    Addr base_line;
    if (const CoalesceMemo::Entry* e = memo_.find(row, w, base_line)) {
      charge_repeat(*e, slot, row, sm, base_line, stats, units);
      return;
    }
    replay_unmemoized(w, slot, row, sm, stats, units);
  }

  /// Ends the kernel: the charges still deferred are made, and the kernel's L2 slice sectors and
  /// DRAM traffic go to its statistics.
  void end_kernel(KernelStats& stats, TrafficProfile& units);

 private:
  /// Cold-only replays of repeats whose counters are not yet in their row, per memo slot (all
  /// by one row).
  struct PendingRepeats {
    std::uint32_t row = 0;
    std::uint64_t count = 0;
  };

  /// A record the memo does not hold: a scattered warp charged from its counts, else the
  /// coalescer's result, which the memo keeps. Out of line: the regular replays' loop (memo
  /// hits) stays small enough for the compiler to inline its own charging.
  [[gnu::noinline]] void replay_unmemoized(WarpInstr& w, std::uint32_t slot, std::uint32_t row,
                                           std::uint32_t sm, KernelStats& stats,
                                           TrafficProfile& units);

  /// A repeat of memo entry `e` (slot `slot`) by row `row`, its first line at `base_line`: its
  /// lines' traffic now, the rest with the slot's other repeats (charge_pending).
  void charge_repeat(const CoalesceMemo::Entry& e, std::uint32_t slot, std::uint32_t row,
                     std::uint32_t sm, Addr base_line, KernelStats& stats, TrafficProfile& units) {
    PendingRepeats& p = pending_[slot];
    if (p.count != 0 && p.row != row) charge_pending(slot, stats, units);
    p.row = row;
    ++p.count;
    charge_l1_pipe(e.op, e.counts, sm, units);
    ++stats.records;
    const std::span<const LineAccess> lines{e.lines.data(), e.counts.lines};
    if (lines_in_channels_)
      charge_lines(e.op, lines, base_line, e.counts.segment_bytes);
    else
      charge_traffic(e.op, lines, base_line, e.counts.transactions, e.counts.segment_bytes);
  }

  /// Charges the repeats of memo slot `slot` not yet in their row's counters: every repeat of
  /// an entry adds the same counts.
  void charge_pending(std::uint32_t slot, KernelStats& stats, TrafficProfile& units);

  /// scattered_shortcut_: charges `w` from analyze_scattered_warp as the coalescer's result
  /// would be (each distinct sector to its line's slice, each segment's bytes to that slice's
  /// channel: the same sums as per line) and returns true, or returns false when `w` does not
  /// qualify.
  bool charge_scattered(const WarpInstr& w, std::uint32_t sm, AccessCounters& c,
                        TrafficProfile& units);

  /// Adds the sectors that charge_scattered counted per unit to their slices and, 32 bytes
  /// each, to their channels (the slice and channel maps agree there).
  void charge_scattered_sectors();

  /// lines_in_channels_: each line (at its line_addr + `offset`) adds its sectors to its L2
  /// slice and its transactions' bytes to its DRAM channel. No read-modify-write of a total per
  /// line: the caller adds the access's total once.
  void charge_lines(Op op, std::span<const LineAccess> lines, Addr offset, std::uint32_t seg) {
    std::uint64_t* slice_sectors = slice_sectors_.data();
    auto each_line = [&]<bool kSameMap>() {
      for (const LineAccess& la : lines) {
        const Addr line_addr = la.line_addr + offset;
        const std::uint32_t slice = slices_.unit_of(line_addr);
        slice_sectors[slice] += static_cast<std::uint64_t>(std::popcount(la.sector_mask));
        dram_.add_channel_bytes(kSameMap ? slice : dram_.channel_map().unit_of(line_addr),
                                coalescer_.line_transactions(op, la.sector_mask) * seg);
      }
    };
    if (slice_is_channel_)
      each_line.template operator()<true>();
    else
      each_line.template operator()<false>();
  }

  /// Every sector of `lines` (each at its line_addr + `offset`) goes to L2, every transaction
  /// (`transactions` of `seg` bytes in all) to DRAM.
  void charge_traffic(Op op, std::span<const LineAccess> lines, Addr offset,
                      std::uint32_t transactions, std::uint32_t seg) {
    if (lines_in_channels_) {
      // The common case. Kept apart from the loop below: folded into it (one row-model test and
      // call site per line), the cold random trace replayed 10% slower.
      charge_lines(op, lines, offset, seg);
      // The lines' transactions add up to the access's.
      dram_.add_total_bytes(std::uint64_t{transactions} * seg, is_store(op));
      return;
    }
    for (const LineAccess& la : lines) {
      const Addr line_addr = la.line_addr + offset;
      const std::uint32_t slice = slices_.unit_of(line_addr);
      slice_sectors_[slice] += static_cast<std::uint64_t>(std::popcount(la.sector_mask));
      request_cold_line(
          dram_, coalescer_, op, line_addr, la.sector_mask, seg, line_per_channel_,
          [&] { return slice_is_channel_ ? slice : dram_.channel_map().unit_of(line_addr); });
    }
  }

  const Coalescer& coalescer_;
  Interleave slices_;
  DramModel dram_;
  bool line_per_channel_;  ///< the DRAM interleave is at least a line
  bool slice_is_channel_;  ///< the L2 slice and DRAM channel maps agree on every address
  /// Each line lies in one DRAM channel and the DRAM model has no row state: channels are
  /// charged per line and the DRAM total per access, in any order.
  bool lines_in_channels_;
  /// Scattered warps may be charged from their counts: lines map to channels that are their
  /// slices, and the DRAM model keeps no row state.
  bool scattered_shortcut_;
  std::vector<std::uint64_t> slice_sectors_;  ///< the kernel's L2 sectors per slice
  /// Per slice: sectors of scattered warps with 32-byte segments not yet charged to it and its
  /// channel (charge_scattered_sectors).
  std::vector<std::uint64_t> scattered_sectors_;
  CoalesceMemo memo_;  ///< cold-only runs: per instruction row, the last strided shape
  std::array<PendingRepeats, CoalesceMemo::kSlots> pending_{};
  CoalescedAccess access_;  ///< cold-only runs: the record being replayed, coalesced
};

}  // namespace gms
