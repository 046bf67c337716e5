#pragma once
/// Cached mode: one L1 per SM, the sliced L2 and the DRAM traffic they cause, fed with the
/// coalescer's lines. Built once per run from SimConfig; the replacement policies are template
/// parameters, chosen once for the whole run (see with_policies).

#include <memory>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/host/state_arena.h"
#include "sim/model/charging.h"
#include "sim/model/coalescer.h"
#include "sim/model/dram_model.h"
#include "sim/model/l1_cache.h"
#include "sim/model/l2_cache.h"
#include "sim/model/line_batch.h"
#include "sim/model/placement.h"

namespace gms {

template <ReplacementPolicy P>
P make_policy(std::uint64_t seed) {
  if constexpr (std::is_same_v<P, RandomPolicy>) {
    return P(seed);
  } else {
    (void)seed;
    return P{};
  }
}

template <ReplacementPolicy L1P, ReplacementPolicy L2P>
class MemoryHierarchy {
 public:
  /// `batch_lines`: L2 accesses replayed per batch, where batches are exact (line_batch.h); 0
  /// replays each access as it comes. The results are the same either way.
  MemoryHierarchy(const SimConfig& cfg, std::size_t batch_lines)
      : cfg_(cfg), l1_(cfg.gpu.sm_count), dram_(cfg.dram) {
    std::vector<L2P> policies;
    for (std::uint32_t s = 0; s < cfg.l2.slices; ++s)
      policies.push_back(make_policy<L2P>(cfg.l2.seed + s));
    l2_ = std::make_unique<L2Cache<L2P>>(cfg.l2, policies);
    const bool exact =  // (and slice numbers fit the queue's 16 bits)
        cfg.l2.line_bytes == kLineBytes && !cfg.dram.row_model && cfg.l2.slices < 0xffff;
    // Room for at least one instruction's lines.
    batch_lines_ = exact && batch_lines > 0 ? std::max(batch_lines, kMaxLinesPerAccess) : 0;
    for (auto* v : {&queue_, &by_slice_}) v->resize(batch_lines_);
    for (auto* v : {&store_bytes_, &by_slice_bytes_}) v->resize(batch_lines_);
    groups_.reset(cfg.l2.slices);
  }

  /// Starts a kernel: empty L1s sized by the kernel's carve-out; the L2 was emptied at the end
  /// of the previous kernel unless l2.persist_across_kernels.
  void begin_kernel(KernelStats& stats) {
    stats_ = &stats;
    ++kernel_seq_;
    placement_ = place_kernel(stats.kernel, cfg_);
    stats.resident_ctas_per_sm = placement_.resident_ctas_per_sm;
    stats.carveout_kb = placement_.carveout_kb;
    stats.l1_bytes = placement_.l1_bytes;
    for (auto& l1 : l1_) l1.reset();
    l1_arena_.rewind();  // the L1s it held are gone
  }

  /// Replays one global, local or atomic warp instruction whose lines are `a`, charging row `row`
  /// (whose counters are `c`). `sm` is sm_of(w). Where batches are exact (line_batch.h) its L2
  /// accesses are queued and replayed with the batch: the counters are complete at end_kernel().
  void access(const WarpInstr& w, std::uint32_t sm, const CoalescedAccess& a, std::uint32_t row,
              AccessCounters& c) {
    const LineKind kind = line_kind(w.op, cfg_.l1);
    if (batch_lines_ > 0 && queued_ + a.lines > batch_lines_) replay_batch();
    for (std::uint32_t i = 0; i < a.lines; ++i) {
      const LineAccess& la = a.line_list[i];
      std::uint8_t want = la.sector_mask;
      if (kind == LineKind::CachedLoad) {
        const L1Outcome o = l1_for(sm).read(la.line_addr, want);
        count_l1(c, want, o.hit_mask);
        want = o.fetch_mask;
        if (want == 0) continue;
      } else if (kind == LineKind::Load) {
        count_l1(c, want, 0);  // it bypasses L1: a miss by definition
      }
      if (batch_lines_ == 0) {
        replay_l2_now(kind, la, want, row, c);
        continue;
      }
      const auto slice = static_cast<std::uint16_t>(l2_->slice_of(la.line_addr));
      groups_.count(slice);
      if (writes_l2(kind)) store_bytes_[queued_] = la.byte_mask;
      queue_[queued_++] = {la.line_addr, row, slice, want, kind};
    }
  }

  /// Ends the kernel: dirty L2 lines are written back (charged to the instructions that dirtied
  /// them) and the L2 is emptied, unless its contents persist into the next kernel.
  void end_kernel() {
    replay_batch();
    flushing_ = true;
    if (!cfg_.l2.persist_across_kernels) l2_->flush(*this, /*keep=*/false);
    flushing_ = false;
    stats_->traffic.dram = dram_.finish();
    stats_->traffic.l2_slice_sectors = l2_->take_slice_sectors();
    stats_ = nullptr;
  }

  // The L2's DramSink: its fetches and write-backs go to the DRAM model, write-back bytes to the
  // instruction that dirtied the line.
  void dram_read(Addr addr, std::uint32_t bytes) { dram_.access(addr, bytes, false); }

  void dram_write_back(const LineOwner& owner, Addr line_addr, std::uint8_t dirty) {
    charge_write_back(dram_, *stats_, kernel_seq_, flushing_, owner, line_addr, dirty);
  }

 private:
  /// One L2 access of line `la`: a read of sectors `want`, or a store or atomic of its sectors.
  void replay_l2(LineKind kind, const LineAccess& la, std::uint8_t want, std::uint32_t row,
                 AccessCounters& c) {
    if (kind == LineKind::Store)
      l2_->write(la, {kernel_seq_, row}, c, *this);
    else if (kind == LineKind::Atomic)
      l2_->atomic(la, {kernel_seq_, row}, c, *this);
    else
      l2_->read(la.line_addr, want, c, *this);
  }

  /// replay_l2 for an access replayed as it comes. Out of line: inlined into the per-record
  /// loop, the L2's code took so much of the compiler's inlining budget that the L1 lookup and
  /// the coalescing memo were left out of line (a cached matrix product replayed 5% slower).
  [[gnu::noinline]] void replay_l2_now(LineKind kind, const LineAccess& la, std::uint8_t want,
                                       std::uint32_t row, AccessCounters& c) {
    replay_l2(kind, la, want, row, c);
  }

  /// Replays the queued L2 accesses grouped by slice, in trace order within each slice, and
  /// empties the queue.
  void replay_batch() {
    if (queued_ == 0) return;
    groups_.close();
    for (std::size_t i = 0; i < queued_; ++i) {
      const QueuedAccess& q = queue_[i];
      const std::uint32_t k = groups_.place(q.slice);
      by_slice_[k] = q;
      if (writes_l2(q.kind)) by_slice_bytes_[k] = store_bytes_[i];
    }
    std::vector<InstrStats>& rows = stats_->instructions;
    LineAccess la;
    for (std::size_t k = 0; k < queued_; ++k) {
      const QueuedAccess& q = by_slice_[k];
      la.line_addr = q.line_addr;
      la.sector_mask = q.want;
      if (writes_l2(q.kind)) la.byte_mask = by_slice_bytes_[k];
      replay_l2(q.kind, la, q.want, q.row, rows[q.row].c);
    }
    queued_ = 0;
    groups_.reset(cfg_.l2.slices);
  }

  L1Cache<L1P>& l1_for(std::uint32_t sm) {
    auto& slot = l1_[sm];
    if (!slot) {
      const StateArenaScope in_arena(l1_arena_);
      slot = std::make_unique<L1Cache<L1P>>(cfg_.l1, placement_.l1_bytes,
                                            make_policy<L1P>(cfg_.l1.seed + sm));
    }
    return *slot;
  }

  const SimConfig& cfg_;
  /// The L1s' state (a host TLB miss fewer per array, as for the L2), rewound at each kernel.
  StateArena l1_arena_;
  std::vector<std::unique_ptr<L1Cache<L1P>>> l1_;  ///< per SM, created on first use in a kernel
  std::unique_ptr<L2Cache<L2P>> l2_;
  DramModel dram_;
  KernelPlacement placement_;
  KernelStats* stats_ = nullptr;
  std::uint32_t kernel_seq_ = 0;
  bool flushing_ = false;  ///< write-backs now come from the end-of-kernel flush
  static constexpr std::size_t kMaxLinesPerAccess = CoalescedAccess{}.line_list.size();
  /// L2 accesses per batch; 0: none, each is replayed as it comes. Batches are exact when each
  /// access stays in one slice (a 128-byte L2 line per coalescer line) and DRAM order does not
  /// matter (no row model).
  std::size_t batch_lines_ = 0;
  using ByteMasks = decltype(LineAccess::byte_mask);
  // A batch in trace order (stores' and atomics' byte masks beside it, by queue place), and the
  // same grouped by slice. Sized once.
  std::vector<QueuedAccess> queue_, by_slice_;
  std::vector<ByteMasks> store_bytes_, by_slice_bytes_;
  std::size_t queued_ = 0;
  StableGroups groups_;  ///< the queue's accesses counted by slice
};

/// Calls f.template operator()<L1Policy, L2Policy>() with the policy types the config names:
/// the one place where a policy name becomes a type.
template <class F>
decltype(auto) with_policies(const SimConfig& cfg, F&& f) {
  auto l2 = [&]<class L1P>() -> decltype(auto) {
    switch (cfg.l2.policy) {
      case ReplacementKind::Fifo:
        return f.template operator()<L1P, FifoPolicy>();
      case ReplacementKind::Random:
        return f.template operator()<L1P, RandomPolicy>();
      case ReplacementKind::Srrip:
        return f.template operator()<L1P, SrripPolicy>();
      case ReplacementKind::Lru:
        break;
    }
    return f.template operator()<L1P, LruPolicy>();
  };
  switch (cfg.l1.policy) {
    case ReplacementKind::Fifo:
      return l2.template operator()<FifoPolicy>();
    case ReplacementKind::Random:
      return l2.template operator()<RandomPolicy>();
    case ReplacementKind::Srrip:
      return l2.template operator()<SrripPolicy>();
    case ReplacementKind::Lru:
      break;
  }
  return l2.template operator()<LruPolicy>();
}

}  // namespace gms
