#include "sim/replay/reference_engine.h"

// The reference shares with the fast engine only the configuration, the records, the address
// maps and placement (pure functions of the configuration), the statistics structures, and the
// kernel's frame (kernel_frame.h: the kernels selected, their start, rows and finish, which runs
// the time model on the counters). Its
// model is its own, in sim/replay/reference/: no header of the fast engine's model
// (sim/model/coalescer.h, l1_cache.h, l2_cache.h, memory_hierarchy.h, dram_model.h, charging.h,
// sector_cache.h, replacement.h, cold_model.h, smem_arbiter.h) may be included here or there
// (tests/layering/check_reference_independent.py holds it to that).

#include <bit>
#include <memory>
#include <optional>

#include "sim/replay/kernel_frame.h"
#include "sim/replay/reference/plain_coalescer.h"
#include "sim/replay/reference/plain_cold.h"
#include "sim/replay/reference/plain_dram.h"
#include "sim/replay/reference/plain_l1.h"
#include "sim/replay/reference/plain_l1_pipe.h"
#include "sim/replay/reference/plain_l2.h"
#include "sim/replay/reference/plain_order.h"
#include "sim/replay/reference/plain_smem.h"
#include "trace/import/formats.h"

namespace gms {

namespace {

using ref::PlainAccess;
using ref::PlainLine;

std::uint64_t count(std::uint8_t mask) {
  return static_cast<std::uint64_t>(std::popcount(mask));
}

/// Cached mode's DRAM: the L2's fetches and write-backs, a write-back's bytes charged to the
/// instruction that wrote the line last (or, for a line an earlier kernel wrote, which
/// persisted, to the kernel itself).
class CachedMemory : public ref::L2Memory {
 public:
  explicit CachedMemory(const DramConfig& cfg)
      : dram(cfg), partial_reads(cfg.partial_write_reads) {}

  void read(Addr addr, std::uint32_t bytes) override { dram.access(addr, bytes, false); }

  void write_back(const ref::Owner& owner, Addr line_addr, std::uint8_t dirty,
                  std::uint8_t partial) override {
    // Where the memory reads a partly written sector before writing it back
    // (dram.partial_write_reads), that read comes first, charged as the write is.
    if (partial_reads && partial != 0) {
      const auto read = static_cast<std::uint32_t>(count(partial)) * ref::kSector;
      if (flushing) {
        dram.flush_read(read);
      } else {
        for (unsigned s = 0; s < 8; ++s)
          if (partial >> s & 1u) dram.access(line_addr + s * ref::kSector, ref::kSector, false);
      }
      if (owner.kernel == kernel_seq)
        stats->instructions[owner.row].c.dram_read_bytes += read;
      else
        stats->earlier_kernels_read_bytes += read;
    }
    const auto bytes = static_cast<std::uint32_t>(count(dirty)) * ref::kSector;
    if (flushing) {
      dram.flush_write(bytes);  // counted, not timed
    } else {
      // One DRAM write per dirty sector, in address order.
      for (unsigned s = 0; s < 8; ++s)
        if (dirty >> s & 1u) dram.access(line_addr + s * ref::kSector, ref::kSector, true);
    }
    if (owner.kernel == kernel_seq)
      stats->instructions[owner.row].c.dram_write_bytes += bytes;
    else
      stats->earlier_kernels_write_bytes += bytes;
  }

  ref::PlainDram dram;
  bool partial_reads;            ///< dram.partial_write_reads
  KernelStats* stats = nullptr;  ///< the current kernel's cached statistics
  std::uint32_t kernel_seq = 0;  ///< the current kernel's sequence number (1, 2, ...)
  bool flushing = false;         ///< write-backs now come from the end-of-kernel flush
};

/// Replays a stream of kernels, one record at a time, in trace order.
class ReferenceEngine {
 public:
  ReferenceEngine(const SimConfig& cfg, const RunOptions& opts)
      : cfg_(cfg), opts_(opts), frame_(cfg, opts), cold_model_(cfg), memory_(cfg.dram) {
    if (opts.mode != SimMode::Cold) l2_ = std::make_unique<ref::PlainL2>(cfg.l2, cfg.gpu.sm_count);
  }

  /// Replays every selected kernel of `reader`, in order, appending their statistics to `out`.
  /// The L2 (when it persists across kernels) carries over from the previous call's last kernel.
  void replay(trace::TraceReader& reader, std::vector<KernelStats>& out) {
    replay_selected_kernels(
        reader, opts_, 64, [&](const KernelInfo& k) { begin_kernel(k); },
        [&](const WarpInstr& w) { take_record(w); }, [&] { end_kernel(out); });
  }

 private:
  void begin_kernel(const KernelInfo& kernel) {
    frame_.begin(kernel);
    if (frame_.cold) cold_model_.begin_kernel();
    if (!frame_.cached) return;
    ++memory_.kernel_seq;
    memory_.stats = &*frame_.cached;
    // Every L1 starts the kernel empty, as large as the placement leaves it; the L2 was emptied
    // at the end of the previous kernel, unless it persists.
    l1_.clear();
    l1_.resize(cfg_.gpu.sm_count);
  }

  void end_kernel(std::vector<KernelStats>& out) {
    if (frame_.ordered()) replay_ordered();
    if (frame_.cached) {
      // Dirty lines are written back, charged to the instructions that wrote them, and the L2
      // is emptied, unless its contents persist into the next kernel.
      if (!cfg_.l2.persist_across_kernels) {
        memory_.flushing = true;
        l2_->flush(memory_);
        memory_.flushing = false;
      }
      frame_.cached->traffic.dram = memory_.dram.finish();
      take_l2_traffic(*l2_, *frame_.cached);
      memory_.stats = nullptr;
    }
    if (frame_.cold) cold_model_.end_kernel(frame_.cold->traffic);
    frame_.finish(out);
  }

  /// The row of `w`'s static instruction, created in each mode's statistics at its first record.
  std::uint32_t row_of(const WarpInstr& w) {
    bool created = false;
    return frame_.row(
        w, [&](Op op) { return ref::segment_bytes(cfg_.coalescer, op); }, created);
  }

  /// The SM of a record: the trace's SM id when it has one (modulo the SM count, so traces from
  /// a bigger GPU replay on a smaller one), else CTA c runs on SM c mod SMs (round-robin
  /// dispatch, wave after wave).
  std::uint32_t sm_of(const WarpInstr& w) const {
    return (w.sm != kUnknownSm ? w.sm : w.cta) % cfg_.gpu.sm_count;
  }

  /// A record read from the trace: replayed now, or, in an ordered replay, kept for the
  /// kernel's end (its row created now, so that rows keep the file's order).
  void take_record(const WarpInstr& record) {
    if (frame_.ordered()) {
      row_of(record);
      kernel_records_.push_back(record);
      return;
    }
    replay_record(record, sm_of(record));
  }

  /// The kernel's records in the order of its warps' progress (plain_order.h), each record's
  /// use of the memory measured from what its replay counted.
  void replay_ordered() {
    auto replay = [&](WarpInstr& w, std::uint32_t sm) {
      const AccessCounters before = frame_.cached->instructions[row_of(w)].c;
      const std::uint64_t far = l2_->far_hit_sectors(), dram = memory_.dram.bytes();
      const std::uint64_t data = frame_.units.sm_l1_data_wavefronts[sm];
      const std::uint64_t shared = frame_.units.sm_shared_wavefronts[sm];
      const std::uint64_t tags = frame_.units.sm_l1_tag_lookups[sm];
      replay_record(w, sm);
      return ref::plain_use(cfg_, w.op, before, frame_.cached->instructions[row_of(w)].c,
                            l2_->far_hit_sectors() - far, memory_.dram.bytes() - dram,
                            frame_.units.sm_l1_data_wavefronts[sm] - data,
                            frame_.units.sm_shared_wavefronts[sm] - shared,
                            frame_.units.sm_l1_tag_lookups[sm] - tags);
    };
    frame_.cached->schedule = ref::replay_in_progress_order(
        kernel_records_, cfg_, frame_.cached->kernel, frame_.placement().resident_ctas_per_sm,
        opts_.order == ReplayOrder::Timed, replay);
    kernel_records_.clear();
  }

  /// One record on SM `sm`: a shared-memory access goes to the bank arbiter; a global, local or
  /// atomic one is coalesced, and its lines go to the cold model and through the cached
  /// hierarchy, for the modes replayed. Per-SM L1 sectors, shared wavefronts and load requests
  /// are the same in both modes.
  void replay_record(const WarpInstr& record, std::uint32_t sm) {
    WarpInstr w = record;
    if (!w.lanes_complete) complete_strided_lanes(w);
    const std::uint32_t row = row_of(w);
    for (auto* k : {&frame_.cold, &frame_.cached})
      if (*k) ++(*k)->records;
    if (w.op == Op::TMAMC) {
      // A multicast load's delivery to one more CTA of its mask: shared-memory bytes only (the
      // TMALD records before it read the data once).
      for (auto* k : {&frame_.cold, &frame_.cached}) {
        if (!*k) continue;
        AccessCounters& c = (*k)->instructions[row].c;
        const auto active = static_cast<std::uint64_t>(std::popcount(w.mask));
        c.instructions += 1;
        c.shared_bytes_written += active * kBulkLaneBytes;
      }
      return;
    }
    if (is_shared(w.op)) {
      const ref::Wavefronts b = ref::arbitrate(cfg_.shared, w);
      frame_.units.sm_shared_wavefronts[sm] += b.actual;
      const auto active = static_cast<std::uint64_t>(std::popcount(w.mask));
      for (auto* k : {&frame_.cold, &frame_.cached}) {
        if (!*k) continue;
        AccessCounters& c = (*k)->instructions[row].c;
        c.instructions += 1;
        c.requests += 1;
        c.active_threads += active;
        c.bytes_requested += active * w.size;
        c.wavefronts += b.actual;
        c.ideal_wavefronts += b.ideal;
      }
      return;
    }
    const PlainAccess a = ref::coalesce(cfg_.coalescer, w);
    if (!is_bulk(w.op)) {  // the TMA unit moves bulk bytes past the L1TEX pipeline
      frame_.units.sm_l1_sectors[sm] += a.sectors;
      const ref::PlainPipe pipe = ref::l1_pipe(w);
      frame_.units.sm_l1_tag_lookups[sm] += pipe.tag_lookups;
      frame_.units.sm_l1_data_wavefronts[sm] += pipe.data_wavefronts;
    }
    // Loads and atomics wait for their data; a bulk copy completes on an mbarrier instead.
    if (!is_store(w.op) && !is_bulk(w.op)) ++frame_.units.load_requests;
    for (auto* k : {&frame_.cold, &frame_.cached}) {
      if (!*k) continue;
      AccessCounters& c = (*k)->instructions[row].c;
      c.instructions += 1;
      c.requests += 1;
      c.active_threads += a.active_threads;
      c.bytes_requested += a.bytes_requested;
      c.bytes_distinct += a.bytes_distinct;
      c.sectors += a.sectors;
      c.transactions += a.transactions;
      c.lines += a.lines;
      c.bytes_fetched += std::uint64_t{a.transactions} * a.segment_bytes;
      if (w.op == Op::TMALD) c.shared_bytes_written += a.bytes_requested;  // the issuing CTA's
    }
    if (frame_.cold) cold_model_.access(w.op, a, frame_.cold->instructions[row].c);
    if (frame_.cached) replay_cached_lines(w.op, sm, row, a);
  }

  /// Cached mode: each line of the access, in address order, through SM `sm`'s L1 (loads it
  /// caches: LDL, and LDG when l1.caches_global_loads) and the L2, charged to row `row`. Other
  /// loads (bulk reads and prefetches included) bypass the L1 (their sectors miss there by
  /// definition); stores (bulk ones included) write through to L2; atomics and reductions (bulk
  /// ones included) are read-modify-writes at L2.
  void replay_cached_lines(Op op, std::uint32_t sm, std::uint32_t row, const PlainAccess& a) {
    AccessCounters& c = frame_.cached->instructions[row].c;
    const ref::Owner owner{memory_.kernel_seq, row};
    const bool l1_caches = op == Op::LDL || (op == Op::LDG && cfg_.l1.caches_global_loads);
    for (const PlainLine& line : a.line_list) {
      if (l1_caches) {
        const ref::L1Result r = l1_of(sm).load(line.addr, line.sectors);
        c.l1_sector_hits += count(r.hits);
        c.l1_sector_misses += count(line.sectors) - count(r.hits);
        if (r.fetch != 0) l2_->read(line.addr, r.fetch, sm, c, memory_);
      } else if (is_global_load(op)) {
        c.l1_sector_misses += count(line.sectors);
        l2_->read(line.addr, line.sectors, sm, c, memory_);
      } else if (is_store(op)) {
        l2_->write(line, owner, c, memory_);
      } else {
        l2_->atomic(line, owner, c, memory_);
      }
    }
  }

  /// SM `sm`'s L1, created empty at its first access in the kernel, as large as the kernel's
  /// placement leaves it.
  ref::PlainL1& l1_of(std::uint32_t sm) {
    std::optional<ref::PlainL1>& l1 = l1_[sm];
    if (!l1) l1.emplace(cfg_.l1, frame_.cached->l1_bytes, sm);
    return *l1;
  }

  const SimConfig& cfg_;
  const RunOptions& opts_;
  KernelFrame frame_;                            ///< the current kernel
  ref::PlainCold cold_model_;                    ///< cold mode
  CachedMemory memory_;                          ///< cached mode's DRAM
  std::unique_ptr<ref::PlainL2> l2_;             ///< cached mode
  std::vector<std::optional<ref::PlainL1>> l1_;  ///< per SM, for the current kernel
  std::vector<WarpInstr> kernel_records_;        ///< an ordered replay's, until the kernel's end
};

}  // namespace

std::vector<KernelStats> simulate_reference(trace::TraceReader& reader, const SimConfig& cfg,
                                            const RunOptions& opts) {
  std::vector<KernelStats> out;
  ReferenceEngine engine(cfg, opts);
  engine.replay(reader, out);
  return out;
}

std::vector<KernelStats> simulate_reference(const std::vector<std::string>& traces,
                                            const SimConfig& cfg, const RunOptions& opts) {
  std::vector<KernelStats> out;
  ReferenceEngine engine(cfg, opts);
  for (const std::string& path : traces) engine.replay(*open_run_trace(path, opts), out);
  return out;
}

}  // namespace gms
