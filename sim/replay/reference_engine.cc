#include "sim/replay/reference_engine.h"

#include <bit>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

#include "sim/model/address_map.h"
#include "sim/model/charging.h"
#include "sim/model/coalescer.h"
#include "sim/model/dram_model.h"
#include "sim/model/l1_cache.h"
#include "sim/model/l2_cache.h"
#include "sim/model/memory_hierarchy.h"
#include "sim/model/placement.h"
#include "sim/model/smem_arbiter.h"
#include "sim/replay/kernel_results.h"
#include "trace/import/formats.h"

namespace gms {

namespace {

/// Replays a stream of kernels, one record at a time, under L1 and L2 replacement policies
/// `L1P` and `L2P`.
template <ReplacementPolicy L1P, ReplacementPolicy L2P>
class ReferenceEngine {
 public:
  ReferenceEngine(const SimConfig& cfg, const RunOptions& opts) : cfg_(cfg), opts_(opts) {
    if (opts.mode == SimMode::Cold) return;  // no hierarchy to build
    std::vector<L2P> policies;
    for (std::uint32_t s = 0; s < cfg.l2.slices; ++s)
      policies.push_back(make_policy<L2P>(cfg.l2.seed + s));
    l2_ = std::make_unique<L2Cache<L2P>>(cfg.l2, policies, cfg.gpu.sm_count);
  }

  /// Replays every selected kernel of `reader`, in order, appending their statistics to `out`.
  /// The L2 (when it persists across kernels) carries over from the previous call's last kernel.
  void replay(trace::TraceReader& reader, std::vector<KernelStats>& out) {
    replay_selected_kernels(
        reader, opts_, 64, [&](const KernelInfo& k) { begin_kernel(k); },
        [&](const WarpInstr& w) { replay_record(w); }, [&] { end_kernel(out); });
  }

 private:
  /// The L2's DramSink: its fetches and write-backs go to cached mode's DRAM model, write-back
  /// bytes to the instruction that dirtied the line (charge_write_back).
  struct L2Dram {
    ReferenceEngine& e;
    void dram_read(Addr addr, std::uint32_t bytes) { e.cached_dram_.access(addr, bytes, false); }
    void dram_write_back(const LineOwner& owner, Addr line_addr, std::uint8_t dirty) {
      charge_write_back(e.cached_dram_, *e.cached_, e.kernel_seq_, e.flushing_, owner, line_addr,
                        dirty);
    }
  };

  void begin_kernel(const KernelInfo& kernel) {
    start_kernel(kernel, cfg_, opts_, cold_, cached_, units_);
    cold_slices_.assign(cfg_.l2.slices, 0);
    rows_.clear();
    if (!cached_) return;
    ++kernel_seq_;
    // Where the kernel's CTAs run decides what the shared-memory carve-out leaves the L1s. Every
    // L1 starts the kernel empty; the L2 was emptied at the end of the previous one, unless it
    // persists.
    const KernelPlacement placement = place_kernel(cached_->kernel, cfg_);
    cached_->resident_ctas_per_sm = placement.resident_ctas_per_sm;
    cached_->carveout_kb = placement.carveout_kb;
    cached_->l1_bytes = placement.l1_bytes;
    l1_.clear();
    l1_.resize(cfg_.gpu.sm_count);
  }

  void end_kernel(std::vector<KernelStats>& out) {
    if (cached_) {
      // Dirty lines are written back, charged to the instructions that dirtied them, and the L2
      // is emptied, unless its contents persist into the next kernel.
      if (!cfg_.l2.persist_across_kernels) {
        L2Dram sink{*this};
        flushing_ = true;
        l2_->flush(sink, /*keep=*/false);
        flushing_ = false;
      }
      cached_->traffic.dram = cached_dram_.finish();
      cached_->traffic.l2_slice_sectors = l2_->take_slice_sectors();
      cached_->traffic.l2_far_hit_sectors = l2_->take_far_hit_sectors();
    }
    if (cold_) {
      cold_->traffic.l2_slice_sectors = cold_slices_;
      cold_->traffic.dram = cold_dram_.finish();
    }
    finish_kernel(cold_, cached_, units_, cfg_, opts_, out);
  }

  /// The row of `w`'s static instruction (inst id, operation, access size), created in each
  /// mode's statistics at its first record.
  std::uint32_t row_of(const WarpInstr& w) {
    const auto [it, created] = rows_.try_emplace(std::tuple{w.inst, w.op, w.size},
                                                 static_cast<std::uint32_t>(rows_.size()));
    if (created)
      for (auto* k : {&cold_, &cached_})
        if (*k)
          (*k)->instructions.push_back({w.inst, w.op, w.size, coalescer_.segment_bytes(w.op), {}});
    return it->second;
  }

  /// One record: a shared-memory access goes to the bank arbiter; a global, local or atomic one
  /// is coalesced, and its lines go to the cold model (a miss everywhere) and through the
  /// cached hierarchy, for the modes replayed. Per-SM L1 sectors, shared wavefronts and load
  /// requests are the same in both modes.
  void replay_record(const WarpInstr& w) {
    const std::uint32_t row = row_of(w);
    const std::uint32_t sm = sm_of(w, sms_);
    for (auto* k : {&cold_, &cached_})
      if (*k) ++(*k)->records;
    if (is_shared(w.op)) {
      const BankAccess b = arbiter_.arbitrate(w);
      units_.sm_shared_wavefronts[sm] += b.wavefronts;
      const auto active = static_cast<std::uint64_t>(std::popcount(w.mask));
      for (auto* k : {&cold_, &cached_})
        if (*k) charge_shared_access(b, active, w.size, (*k)->instructions[row].c);
      return;
    }
    coalescer_.coalesce(w, access_);
    units_.sm_l1_sectors[sm] += access_.sectors;
    if (!is_store(w.op)) ++units_.load_requests;  // loads and atomics wait for their data
    if (cold_) {
      AccessCounters& c = cold_->instructions[row].c;
      charge_access(access_, c);
      charge_cold_hierarchy(w.op, access_, c);
      replay_cold_lines(w.op);
    }
    if (cached_) {
      charge_access(access_, cached_->instructions[row].c);
      replay_cached_lines(w.op, sm, row);
    }
  }

  /// The cold model's traffic of the coalesced access: each line's sectors go to its L2 slice,
  /// its transactions to DRAM (request_cold_line).
  void replay_cold_lines(Op op) {
    replay_cold_access(access_, op, coalescer_, slices_, cold_slices_, cold_dram_,
                       cfg_.dram.interleave_bytes >= kLineBytes);
  }

  /// Cached mode: each line of the coalesced access, in order, through SM `sm`'s L1 (loads that
  /// it caches) and the L2, charged to row `row`.
  void replay_cached_lines(Op op, std::uint32_t sm, std::uint32_t row) {
    AccessCounters& c = cached_->instructions[row].c;
    const LineOwner owner{kernel_seq_, row};
    L2Dram sink{*this};
    for (std::uint32_t i = 0; i < access_.lines; ++i) {
      const LineAccess& la = access_.line_list[i];
      switch (line_kind(op, cfg_.l1)) {
        case LineKind::CachedLoad: {
          const L1Outcome o = l1_of(sm).read(la.line_addr, la.sector_mask);
          count_l1(c, la.sector_mask, o.hit_mask);
          if (o.fetch_mask != 0) l2_->read(la.line_addr, o.fetch_mask, sm, c, sink);
          break;
        }
        case LineKind::Load:
          count_l1(c, la.sector_mask, 0);
          l2_->read(la.line_addr, la.sector_mask, sm, c, sink);
          break;
        case LineKind::Store:
          l2_->write(la, owner, c, sink);
          break;
        case LineKind::Atomic:
          l2_->atomic(la, owner, c, sink);
          break;
      }
    }
  }

  /// SM `sm`'s L1, created empty at its first access in the kernel, as large as the kernel's
  /// placement leaves it.
  L1Cache<L1P>& l1_of(std::uint32_t sm) {
    std::optional<L1Cache<L1P>>& l1 = l1_[sm];
    if (!l1) l1.emplace(cfg_.l1, cached_->l1_bytes, make_policy<L1P>(cfg_.l1.seed + sm));
    return *l1;
  }

  const SimConfig& cfg_;
  const RunOptions& opts_;
  // The model's components (the caches, cached mode's, below):
  const Coalescer coalescer_{cfg_.coalescer};
  const SmemArbiter arbiter_{cfg_.shared};
  const FastDiv32 sms_{cfg_.gpu.sm_count};        ///< for sm_of
  const Interleave slices_ = l2_slices(cfg_.l2);  ///< the L2 slice of an address (cold model)
  DramModel cold_dram_{cfg_.dram}, cached_dram_{cfg_.dram};
  std::unique_ptr<L2Cache<L2P>> l2_;             ///< cached mode only
  std::vector<std::optional<L1Cache<L1P>>> l1_;  ///< per SM, for the current kernel
  std::uint32_t kernel_seq_ = 0;  ///< cached kernels replayed so far (L2 lines' owners)
  bool flushing_ = false;         ///< write-backs now come from the end-of-kernel flush
  // The current kernel:
  std::optional<KernelStats> cold_, cached_;
  TrafficProfile units_;  ///< unit traffic both modes share
  std::vector<std::uint64_t> cold_slices_;
  std::map<std::tuple<std::uint32_t, Op, std::uint8_t>, std::uint32_t> rows_;
  CoalescedAccess access_;  ///< the record being replayed, coalesced
};

template <class Feed>
std::vector<KernelStats> run_reference(const SimConfig& cfg, const RunOptions& opts, Feed feed) {
  std::vector<KernelStats> out;
  with_policies(cfg, [&]<class L1P, class L2P>() {
    ReferenceEngine<L1P, L2P> engine(cfg, opts);
    feed(engine, out);
  });
  return out;
}

}  // namespace

std::vector<KernelStats> simulate_reference(trace::TraceReader& reader, const SimConfig& cfg,
                                            const RunOptions& opts) {
  return run_reference(
      cfg, opts, [&](auto& engine, std::vector<KernelStats>& out) { engine.replay(reader, out); });
}

std::vector<KernelStats> simulate_reference(const std::vector<std::string>& traces,
                                            const SimConfig& cfg, const RunOptions& opts) {
  return run_reference(cfg, opts, [&](auto& engine, std::vector<KernelStats>& out) {
    for (const std::string& path : traces) engine.replay(*trace::open_trace_reader(path), out);
  });
}

}  // namespace gms
