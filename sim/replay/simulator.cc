#include "sim/replay/simulator.h"

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "sim/core/error.h"
#include "sim/model/address_map.h"
#include "sim/model/charging.h"
#include "sim/model/coalesce_memo.h"
#include "sim/model/coalescer.h"
#include "sim/model/dram_model.h"
#include "sim/model/memory_hierarchy.h"
#include "sim/model/placement.h"
#include "sim/model/scattered_warp.h"
#include "sim/model/smem_arbiter.h"
#include "sim/replay/instr_table.h"
#include "sim/replay/kernel_results.h"
#include "sim/replay/reference_engine.h"
#include "trace/import/formats.h"
#include "trace/io/read_ahead.h"

namespace gms {

namespace {

/// Records per batch handed from the reading thread (large: fewer hand-offs between cores).
constexpr std::size_t kReadAheadRecords = 4096;
/// Batches the reading thread may have ready: enough to keep it reading through a cached
/// replay's burst of L2 accesses (a batch of them, sim/model/line_batch.h, takes a few
/// milliseconds); with 3 it waited, and a reader-bound wtrace.zst stream replayed 7% slower.
constexpr std::size_t kReadAheadDepth = 8;
/// Records per batch read on the replay's own thread: few enough (19 KiB) that the decoded
/// records are still in the core's L1 cache when they are replayed.
constexpr std::size_t kDirectRecords = 64;
/// Records ahead of the replay whose cache lines it requests, when another thread decoded them.
constexpr std::size_t kPrefetchRecords = 4;

/// Replays a stream of kernels. `Hierarchy` is a MemoryHierarchy instantiation, or void for a
/// cold-only run.
template <class Hierarchy>
class Replayer {
 public:
  Replayer(const SimConfig& cfg, const RunOptions& opts)
      : cfg_(cfg),
        opts_(opts),
        coalescer_(cfg.coalescer),
        arbiter_(cfg.shared),
        sms_(cfg.gpu.sm_count),
        slices_(l2_slices(cfg.l2)),
        cold_dram_(cfg.dram),
        line_per_channel_(cfg.dram.interleave_bytes >= kLineBytes),
        slice_is_channel_(slices_.same_as(cold_dram_.channel_map())),
        lines_in_channels_(line_per_channel_ && !cold_dram_.row_model()),
        scattered_shortcut_(lines_in_channels_ && slice_is_channel_) {
    if constexpr (!std::is_void_v<Hierarchy>)
      hierarchy_ = std::make_unique<Hierarchy>(cfg, opts.cached_batch_lines);
  }

  void replay(trace::TraceReader& reader, std::vector<KernelStats>& out) {
    // Not from standard input: a failing replay waits for the reading thread to stop, and a
    // thread blocked on an idle pipe would only stop when the writer does.
    if (opts_.read_ahead && !reader.decodes_cheaply() && reader.source_name() != "-") {
      trace::ReadAhead ahead(reader, kReadAheadRecords, kReadAheadDepth);
      replay_from(ahead, out);
    } else {
      // Records replayed on this thread may come with partial strided lanes (add() completes
      // them when it needs them): a regular .gmt stream's records mostly repeat a memoized shape.
      struct PartialLanes {
        trace::TraceReader& r;
        explicit PartialLanes(trace::TraceReader& reader) : r(reader) {
          r.set_partial_strided_lanes(true);
        }
        ~PartialLanes() { r.set_partial_strided_lanes(false); }
      } partial(reader);
      DirectBatches direct{reader, std::vector<WarpInstr>(kDirectRecords)};
      replay_from(direct, out);
    }
  }

 private:
  /// The trace read on the replay's own thread, one batch at a time (the interface of
  /// trace::ReadAhead).
  struct DirectBatches {
    trace::TraceReader& reader;
    std::vector<WarpInstr> batch;
    bool next_kernel(KernelInfo& k) { return reader.next_kernel(k); }
    std::span<WarpInstr> next_batch() { return {batch.data(), reader.read(batch)}; }
  };

  template <class Batches>
  void replay_from(Batches& source, std::vector<KernelStats>& out) {
    constexpr bool kFromOtherCore = std::is_same_v<Batches, trace::ReadAhead>;
    KernelInfo kernel;
    while (source.next_kernel(kernel)) {
      if (!replays_kernel(opts_, kernel.id)) continue;
      start_kernel(kernel, cfg_, opts_, cold_, cached_, traffic_, cold_slices_);
      rows_ = InstrTable();
      scattered_sectors_.assign(cfg_.l2.slices, 0);
      if constexpr (!std::is_void_v<Hierarchy>) hierarchy_->begin_kernel(*cached_);
      for (auto batch = source.next_batch(); !batch.empty(); batch = source.next_batch())
        for (std::size_t i = 0; i < batch.size(); ++i) {
          // Records decoded on the reading thread arrive from the other core's cache: request
          // a few ahead (296 bytes each) so that the transfers overlap the replay.
          if (kFromOtherCore && i + kPrefetchRecords < batch.size()) {
            const char* next = reinterpret_cast<const char*>(&batch[i + kPrefetchRecords]);
            for (std::size_t b = 0; b < sizeof(WarpInstr); b += 64) __builtin_prefetch(next + b);
          }
          add(batch[i]);
        }
      for (std::uint32_t slot = 0; slot < CoalesceMemo::kSlots; ++slot) charge_pending(slot);
      charge_scattered_sectors();
      if constexpr (!std::is_void_v<Hierarchy>) hierarchy_->end_kernel();
      finish_kernel(cold_, cached_, traffic_, cold_slices_, cold_dram_.finish(), cfg_, opts_, out);
    }
  }

  /// Replays one record. `Record` is WarpInstr for records read on this thread, whose strided
  /// lanes may be partial (completed here before any use but the memo's), or const WarpInstr
  /// for complete ones.
  template <class Record>
  void add(Record& w) {
    auto complete_lanes = [&] {
      if constexpr (!std::is_const_v<Record>)
        if (w.strided) complete_strided_lanes(w);
    };
    bool created = false;
    const std::uint32_t r = rows_.row(w, created);
    if (created) {
      const InstrStats row{w.inst, w.op, w.size, coalescer_.segment_bytes(w.op), {}};
      if (cold_) cold_->instructions.push_back(row);
      if (cached_) cached_->instructions.push_back(row);
    }
    // Charged straight into the rows (building a zeroed 160-byte record and adding it was 15% of
    // a cold replay).
    const std::uint32_t sm = sm_of(w, sms_);
    AccessCounters* cold = cold_ ? &cold_->instructions[r].c : nullptr;
    AccessCounters* cached = cached_ ? &cached_->instructions[r].c : nullptr;
    if (is_shared(w.op)) {
      complete_lanes();
      const BankAccess b = arbiter_.arbitrate(w);
      const auto active = static_cast<std::uint64_t>(std::popcount(w.mask));
      traffic_.sm_shared_wavefronts[sm] += b.wavefronts;
      for (AccessCounters* c : {cold, cached})
        if (c != nullptr) charge_shared_access(b, active, w.size, *c);
    } else {
      if constexpr (std::is_void_v<Hierarchy>) {  // a cold-only replay
        const std::uint32_t slot = CoalesceMemo::slot_of(r);
        Addr base_line;
        if (const CoalesceMemo::Entry* e = memo_.find(r, w, base_line)) {
          charge_cold_repeat(*e, slot, r, sm, base_line);
          return;
        }
        replay_cold_miss(w, slot, r, sm);
        return;
      } else if (!memo_.lookup(r, w, access_)) {
        complete_lanes();
        coalescer_.coalesce(w, access_);
        memo_.store(r, w, access_);
      }
      charge_coalesced(w.op, sm, cold, cached);
      if constexpr (!std::is_void_v<Hierarchy>)
        if (cached) hierarchy_->access(w, sm, access_, r, *cached);
    }
    if (cold_) ++cold_->records;
    if (cached_) ++cached_->records;
  }

  /// A cold-only replay of a record the memo does not hold (row `row`, memo slot `slot`): a
  /// scattered warp charged from its counts, else the coalescer's result. Out of line: the
  /// regular replays' loop (memo hits) stays small enough for the compiler to inline its own
  /// charging.
  template <class Record>
  [[gnu::noinline]] void replay_cold_miss(Record& w, std::uint32_t slot, std::uint32_t row,
                                          std::uint32_t sm) {
    AccessCounters& c = cold_->instructions[row].c;
    ++cold_->records;
    // A shape the memo keeps goes through the coalescer, which fills the memo; a scattered warp
    // never is memoized, so the memo slot stays as it is.
    if (scattered_shortcut_ && !CoalesceMemo::takes(w) && charge_scattered(w, sm, c)) return;
    charge_pending(slot);  // its entry is about to change
    if constexpr (!std::is_const_v<Record>)
      if (w.strided) complete_strided_lanes(w);
    coalescer_.coalesce(w, access_);
    memo_.store(row, w, access_);
    charge_coalesced(w.op, sm, &c, nullptr);
  }

  /// The coalescer's result in access_: its unit traffic, and the counters of the modes replayed
  /// (null: not replayed). Always inlined (a call cost a cached replay 1.4% more instructions).
  [[gnu::always_inline]] void charge_coalesced(Op op, std::uint32_t sm, AccessCounters* cold,
                                               AccessCounters* cached) {
    const CoalescedAccess& a = access_;
    traffic_.sm_l1_sectors[sm] += a.sectors;
    if (!is_store(op)) ++traffic_.load_requests;  // loads and atomics wait for their data
    for (AccessCounters* c : {cold, cached})
      if (c != nullptr) charge_access(a, *c);
    if (cold) {
      charge_cold_traffic(op, {a.line_list.data(), a.lines}, 0, a.transactions, a.segment_bytes);
      charge_cold_hierarchy(op, a, *cold);
    }
  }

  /// A cold-only replay of a record whose shape memo entry `e` (slot `slot`) holds: the unit
  /// traffic of its lines is charged now; its row's counters, its load request and (when lines
  /// map to channels) its DRAM total later, all repeats at once (charge_pending).
  void charge_cold_repeat(const CoalesceMemo::Entry& e, std::uint32_t slot, std::uint32_t row,
                          std::uint32_t sm, Addr base_line) {
    PendingRepeats& p = pending_[slot];
    if (p.count != 0 && p.row != row) charge_pending(slot);
    p.row = row;
    ++p.count;
    traffic_.sm_l1_sectors[sm] += e.counts.sectors;
    ++cold_->records;
    const std::span<const LineAccess> lines{e.lines.data(), e.counts.lines};
    if (lines_in_channels_)
      charge_cold_lines(e.op, lines, base_line, e.counts.segment_bytes);
    else
      charge_cold_traffic(e.op, lines, base_line, e.counts.transactions, e.counts.segment_bytes);
  }

  /// Cold-only replays, scattered_shortcut_: charges `w` from analyze_scattered_warp as the
  /// coalescer's result would be (each distinct sector to its line's slice, each segment's bytes
  /// to that slice's channel: the same sums as per line) and returns true, or returns false
  /// when `w` does not qualify. Out of line: inlined, it slowed the regular replays' loop.
  [[gnu::noinline]] bool charge_scattered(const WarpInstr& w, std::uint32_t sm, AccessCounters& c) {
    ScatteredWarp s;
    if (!analyze_scattered_warp(w, coalescer_.segment_bytes(w.op), slices_, s)) return false;
    const Op op = w.op;
    traffic_.sm_l1_sectors[sm] += s.sectors;
    if (!is_store(op)) ++traffic_.load_requests;
    charge_access(s, c);
    charge_cold_hierarchy(op, s, c);
    std::uint64_t* slice_sectors = cold_slices_.data();
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
      for (std::uint32_t m = s.sector_starts; m != 0; m &= m - 1) ++slice_sectors[unit(m)];
      for (std::uint32_t m = s.segment_starts; m != 0; m &= m - 1)
        cold_dram_.add_channel_bytes(unit(m), s.segment_bytes);
    }
    cold_dram_.add_total_bytes(std::uint64_t{s.transactions} * s.segment_bytes, is_store(op));
    return true;
  }

  /// Adds the sectors that charge_scattered counted per unit to their slices and, 32 bytes
  /// each, to their channels (the slice and channel maps agree there).
  void charge_scattered_sectors() {
    for (std::size_t u = 0; u < scattered_sectors_.size(); ++u) {
      const std::uint64_t n = scattered_sectors_[u];
      if (n == 0) continue;
      cold_slices_[u] += n;
      cold_dram_.add_channel_bytes(static_cast<std::uint32_t>(u), n * kSectorBytes);
      scattered_sectors_[u] = 0;
    }
  }

  /// Charges the repeats of memo slot `slot` not yet in their row's counters: every repeat of
  /// an entry adds the same counts, so n of them are one multiply-add per counter.
  void charge_pending(std::uint32_t slot) {
    PendingRepeats& p = pending_[slot];
    if (p.count == 0) return;
    const CoalesceMemo::Entry& e = memo_.entry(slot);
    AccessCounters once;
    charge_access(e.counts, once);
    charge_cold_hierarchy(e.op, e.counts, once);
    cold_->instructions[p.row].c.add_scaled(once, p.count);
    if (!is_store(e.op)) traffic_.load_requests += p.count;
    if (lines_in_channels_)
      cold_dram_.add_total_bytes(p.count * e.counts.transactions * e.counts.segment_bytes,
                                 is_store(e.op));
    p.count = 0;
  }

  /// Cold mode, lines_in_channels_: each line (at its line_addr + `offset`) adds its sectors to
  /// its L2 slice and its transactions' bytes to its DRAM channel. No read-modify-write of a
  /// total per line: the caller adds the access's total once.
  void charge_cold_lines(Op op, std::span<const LineAccess> lines, Addr offset, std::uint32_t seg) {
    std::uint64_t* slice_sectors = cold_slices_.data();
    auto each_line = [&]<bool kSameMap>() {
      for (const LineAccess& la : lines) {
        const Addr line_addr = la.line_addr + offset;
        const std::uint32_t slice = slices_.unit_of(line_addr);
        slice_sectors[slice] += static_cast<std::uint64_t>(std::popcount(la.sector_mask));
        cold_dram_.add_channel_bytes(kSameMap ? slice : cold_dram_.channel_map().unit_of(line_addr),
                                     coalescer_.line_transactions(op, la.sector_mask) * seg);
      }
    };
    if (slice_is_channel_)
      each_line.template operator()<true>();
    else
      each_line.template operator()<false>();
  }

  /// Cold mode: every sector of `lines` (each at its line_addr + `offset`) goes to L2, every
  /// transaction (`transactions` of `seg` bytes in all) to DRAM.
  void charge_cold_traffic(Op op, std::span<const LineAccess> lines, Addr offset,
                           std::uint32_t transactions, std::uint32_t seg) {
    const bool write = is_store(op);
    if (lines_in_channels_) {
      // The common case. Kept apart from the loop below: folded into it (one row-model test and
      // call site per line), the cold random trace replayed 10% slower.
      charge_cold_lines(op, lines, offset, seg);
      // The lines' transactions add up to the access's.
      cold_dram_.add_total_bytes(std::uint64_t{transactions} * seg, write);
      return;
    }
    for (const LineAccess& la : lines) {
      const Addr line_addr = la.line_addr + offset;
      const std::uint32_t slice = slices_.unit_of(line_addr);
      cold_slices_[slice] += static_cast<std::uint64_t>(std::popcount(la.sector_mask));
      request_cold_line(
          cold_dram_, coalescer_, op, line_addr, la.sector_mask, seg, line_per_channel_,
          [&] { return slice_is_channel_ ? slice : cold_dram_.channel_map().unit_of(line_addr); });
    }
  }

  const SimConfig& cfg_;
  const RunOptions& opts_;
  Coalescer coalescer_;
  SmemArbiter arbiter_;
  FastDiv32 sms_;
  std::conditional_t<std::is_void_v<Hierarchy>, int, std::unique_ptr<Hierarchy>> hierarchy_{};
  Interleave slices_;
  DramModel cold_dram_;
  bool line_per_channel_;
  bool slice_is_channel_;  ///< the L2 slice and DRAM channel maps agree on every address
  /// Each line lies in one DRAM channel and the DRAM model has no row state: the cold model
  /// charges channels per line and the DRAM total per access, in any order.
  bool lines_in_channels_;
  /// Cold-only replays may charge scattered warps from their counts (analyze_scattered_warp):
  /// lines map to channels that are their slices, and the DRAM model keeps no row state.
  bool scattered_shortcut_;
  /// Per slice: sectors of scattered warps with 32-byte segments not yet charged to it and its
  /// channel (charge_scattered_sectors).
  std::vector<std::uint64_t> scattered_sectors_;
  TrafficProfile traffic_;
  std::vector<std::uint64_t> cold_slices_;
  InstrTable rows_;
  CoalescedAccess access_;
  CoalesceMemo memo_;  ///< per instruction row: the last strided shape and its result
  /// Cold-only replays: per memo slot, the repeats of its entry (all by one row) whose counters
  /// are not yet in that row.
  struct PendingRepeats {
    std::uint32_t row = 0;
    std::uint64_t count = 0;
  };
  std::array<PendingRepeats, CoalesceMemo::kSlots> pending_{};
  std::optional<KernelStats> cold_, cached_;
};

template <class F>
std::vector<KernelStats> run_with_replayer(const SimConfig& cfg, const RunOptions& opts, F feed) {
  std::vector<KernelStats> out;
  if (opts.mode == SimMode::Cold) {
    Replayer<void> r(cfg, opts);
    feed(r, out);
    return out;
  }
  with_policies(cfg, [&]<class L1P, class L2P>() {
    Replayer<MemoryHierarchy<L1P, L2P>> r(cfg, opts);
    feed(r, out);
  });
  return out;
}

}  // namespace

SimMode parse_sim_mode(const std::string& name) {
  if (name == "cold") return SimMode::Cold;
  if (name == "cached") return SimMode::Cached;
  if (name == "both") return SimMode::Both;
  fail("unknown mode '{}' (cold, cached, both)", name);
}

std::vector<KernelStats> simulate(trace::TraceReader& reader, const SimConfig& cfg,
                                  const RunOptions& opts) {
  if (opts.engine == Engine::Reference) return simulate_reference(reader, cfg, opts);
  return run_with_replayer(cfg, opts, [&](auto& replayer, std::vector<KernelStats>& out) {
    replayer.replay(reader, out);
  });
}

std::vector<KernelStats> simulate(const std::vector<std::string>& traces, const SimConfig& cfg,
                                  const RunOptions& opts) {
  if (opts.engine == Engine::Reference) return simulate_reference(traces, cfg, opts);
  return run_with_replayer(cfg, opts, [&](auto& replayer, std::vector<KernelStats>& out) {
    for (const std::string& path : traces) {
      auto reader = trace::open_trace_reader(path);
      replayer.replay(*reader, out);
    }
  });
}

}  // namespace gms
