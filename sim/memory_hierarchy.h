#pragma once
/// Cached mode: one L1 per SM, the sliced L2 and the DRAM traffic they cause, fed with the
/// coalescer's lines. Built once per run from SimConfig; the replacement policies are template
/// parameters, chosen once for the whole run (see with_policies).

#include <bit>
#include <memory>
#include <vector>

#include "sim/coalescer.h"
#include "sim/config.h"
#include "sim/dram_model.h"
#include "sim/l1_cache.h"
#include "sim/l2_cache.h"
#include "sim/placement.h"
#include "sim/state_arena.h"
#include "sim/stats.h"

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
  explicit MemoryHierarchy(const SimConfig& cfg)
      : cfg_(cfg),
        l1_arena_(cfg.gpu.sm_count *
                  L1Cache<L1P>::state_bytes(cfg.l1, L1Cache<L1P>::largest_capacity_bytes(cfg.l1))),
        l1_(cfg.gpu.sm_count),
        dram_(cfg.dram) {
    std::vector<L2P> policies;
    for (std::uint32_t s = 0; s < cfg.l2.slices; ++s)
      policies.push_back(make_policy<L2P>(cfg.l2.seed + s));
    l2_ = std::make_unique<L2Cache<L2P>>(cfg.l2, policies);
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

  /// Replays one global, local or atomic warp instruction whose lines are `a`, charging row `row`.
  /// `sm` is sm_of(w).
  void access(const WarpInstr& w, std::uint32_t sm, const CoalescedAccess& a, std::uint32_t row,
              AccessCounters& c) {
    const LineOwner owner{kernel_seq_, row};
    const bool load = is_global_load(w.op);
    const bool cached_load = w.op == Op::LDL || (w.op == Op::LDG && cfg_.l1.caches_global_loads);
    for (std::uint32_t i = 0; i < a.lines; ++i) {
      const LineAccess& la = a.line_list[i];
      if (load) {
        // A bypassing load misses L1 by definition and reads its sectors from L2.
        std::uint8_t fetch = la.sector_mask;
        std::uint8_t hits = 0;
        if (cached_load) {
          const L1Outcome o = l1_for(sm).read(la.line_addr, la.sector_mask);
          hits = o.hit_mask;
          fetch = o.fetch_mask;
        }
        c.l1_sector_hits += static_cast<std::uint64_t>(std::popcount(hits));
        c.l1_sector_misses +=
            static_cast<std::uint64_t>(std::popcount(la.sector_mask) - std::popcount(hits));
        if (fetch != 0) l2_->read(la.line_addr, fetch, c, *this);
      } else if (w.op == Op::ATOMG || w.op == Op::RED) {
        l2_->atomic(la, owner, c, *this);
      } else {
        l2_->write(la, owner, c, *this);
      }
    }
  }

  /// Ends the kernel: dirty L2 lines are written back (charged to the instructions that dirtied
  /// them) and the L2 is emptied, unless its contents persist into the next kernel.
  void end_kernel() {
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
    const std::uint32_t bytes = static_cast<std::uint32_t>(std::popcount(dirty)) * kSectorBytes;
    if (flushing_)
      dram_.flush_write(bytes);
    else
      dram_.write_sectors(line_addr, dirty);
    if (owner.kernel == kernel_seq_)
      stats_->instructions[owner.row].c.dram_write_bytes += bytes;
    else
      stats_->earlier_kernels_write_bytes += bytes;
  }

 private:
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
