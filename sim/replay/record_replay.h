#pragma once
/// One warp instruction's replay once its row and SM are known: shared-memory records to the bank
/// arbiter, global, local and atomic ones coalesced (through the shape memo) and handed to the
/// cold model and the cached hierarchy, each mode's counters charged to the row. The fast
/// engine (fast_engine.cc) has one per worker, for the records of the SMs it owns, with the
/// worker's L1 stage (fast/l1_stage.h) as its hierarchy.

#include <bit>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "sim/config/config.h"
#include "sim/core/records.h"
#include "sim/core/stats.h"
#include "sim/model/charging.h"
#include "sim/model/coalescer.h"
#include "sim/model/smem_arbiter.h"
#include "sim/replay/fast/coalesce_memo.h"
#include "sim/replay/fast/cold_model.h"

namespace gms {

/// `Hierarchy` receives cached mode's accesses (access(w, sm, a, row, c)); void for a cold-only
/// replay, whose cold model coalesces records itself (ColdModel::replay).
template <class Hierarchy>
struct RecordReplay {
  static constexpr bool kColdOnly = std::is_void_v<Hierarchy>;
  using HierarchyPtr = std::conditional_t<kColdOnly, int, Hierarchy*>;

  RecordReplay(const SimConfig& cfg, HierarchyPtr hierarchy)
      : coalescer(cfg.coalescer),
        arbiter(cfg.shared),
        cold_model(cfg, coalescer),
        hierarchy(hierarchy) {}
  RecordReplay(const RecordReplay&) = delete;  // the cold model holds the coalescer's address
  RecordReplay& operator=(const RecordReplay&) = delete;

  /// The row of static instruction (w.inst, w.op, w.size), with no counts yet.
  InstrStats new_row(const WarpInstr& w) const {
    return {w.inst, w.op, w.size, coalescer.segment_bytes(w.op), {}};
  }

  /// Adds row (w.inst, w.op, w.size), the next of the kernel, to each mode's statistics.
  void add_row(const WarpInstr& w) {
    const InstrStats row = new_row(w);
    if (cold) cold->instructions.push_back(row);
    if (cached) cached->instructions.push_back(row);
  }

  /// Replays record `w` of row `row` on SM `sm`, completing its strided lanes (lanes_complete)
  /// where they are needed. Always inlined into the engines' batch loops: called once per
  /// record, the cold stream took 4.3% more instructions (callgrind, 2 M records).
  [[gnu::always_inline]] void add(WarpInstr& w, std::uint32_t r, std::uint32_t sm) {
    // Charged straight into the rows (building a zeroed 160-byte record and adding it was 15% of
    // a cold replay).
    if (w.op == Op::TMAMC) {  // a multicast delivery: shared-memory bytes only
      const auto active = static_cast<std::uint64_t>(std::popcount(w.mask));
      for (auto* k : {&cold, &cached})
        if (*k) {
          charge_bulk_delivery(active, (*k)->instructions[r].c);
          ++(*k)->records;
        }
      return;
    }
    if (is_shared(w.op)) {
      if (!w.lanes_complete) complete_strided_lanes(w);
      const BankAccess b = arbiter.arbitrate(w);
      const auto active = static_cast<std::uint64_t>(std::popcount(w.mask));
      traffic.sm_shared_wavefronts[sm] += b.wavefronts;
      for (auto* k : {&cold, &cached})
        if (*k) {
          charge_shared_access(b, active, w.size, (*k)->instructions[r].c);
          ++(*k)->records;
        }
      return;
    }
    if constexpr (kColdOnly) {
      cold_model.replay(w, sm, r, *cold, traffic);  // its own memo, deferred repeats, shortcut
    } else {
      memo.coalesce(coalescer, r, w, access);
      add_access(w, r, sm);
    }
  }

  /// As add, for a global, local or atomic record whose coalescing the caller has put in
  /// `access` (fast/coalesce_ahead.h).
  [[gnu::always_inline]] void add_access(const WarpInstr& w, std::uint32_t r, std::uint32_t sm) {
    if constexpr (!kColdOnly) {
      charge_l1_pipe(w.op, access, sm, traffic);
      if (waits_for_data(w.op)) ++traffic.load_requests;  // loads and atomics wait for their data
      if (cold) {
        AccessCounters& c = cold->instructions[r].c;
        charge_access(w.op, access, c);
        cold_model.access(w.op, access, c);
        ++cold->records;
      }
      if (cached) {
        AccessCounters& c = cached->instructions[r].c;
        charge_access(w.op, access, c);
        hierarchy->access(w, sm, access, r, c);
        ++cached->records;
      }
    }
  }

  Coalescer coalescer;
  SmemArbiter arbiter;
  ColdModel cold_model;
  HierarchyPtr hierarchy;
  TrafficProfile traffic;  ///< the unit traffic both modes share
  CoalescedAccess access;  ///< cached runs: the record being replayed, coalesced
  CoalesceMemo memo;       ///< cached runs: per instruction row, the last strided shape
  std::optional<KernelStats> cold, cached;
};

}  // namespace gms
