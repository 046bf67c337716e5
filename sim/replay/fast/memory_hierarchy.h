#pragma once
/// Cached mode's pieces, as the fast engine (sim/replay/fast_engine.h) assembles them: one L1 per
/// SM, the L1 side of an access, an L2 access, the L2's DRAM charges, L2 accesses replayed by
/// slice. The replacement policies are template parameters, chosen once for the whole run (see
/// with_policies).

#include <algorithm>
#include <memory>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/huge_page_allocator.h"
#include "sim/core/stats.h"
#include "sim/host/state_arena.h"
#include "sim/model/charging.h"
#include "sim/model/coalescer.h"
#include "sim/model/dram_model.h"
#include "sim/model/l1_cache.h"
#include "sim/model/l2_cache.h"
#include "sim/model/placement.h"
#include "sim/replay/fast/line_batch.h"

namespace gms {

/// True when L2 accesses may be replayed grouped by slice (line_batch.h): each access stays in one
/// slice (a 128-byte L2 line per coalescer line) and DRAM order does not matter (no row model),
/// and slice numbers fit QueuedAccess's 16 bits.
inline bool l2_batches_exact(const SimConfig& cfg) {
  return cfg.l2.line_bytes == kLineBytes && !cfg.dram.row_model && cfg.l2.slices < 0xffff;
}

/// The policy object of one cache (an L1 or an L2 slice): `kind` and `seed` from its level's
/// configuration (the seed only for the random policy).
template <ReplacementPolicy P>
P make_policy(ReplacementKind kind, std::uint64_t seed) {
  if constexpr (std::is_same_v<P, ChosenPolicy>) {
    return P(kind, seed);
  } else if constexpr (std::is_same_v<P, RandomPolicy>) {
    return P(seed);
  } else {
    (void)kind;
    (void)seed;
    return P{};
  }
}

/// The L1s of the SMs, one per SM, created on first use in a kernel (most kernels use some SMs
/// only), sized by the kernel's carve-out, their state in one arena rewound at each kernel (a
/// host TLB miss fewer per array, as for the L2).
template <ReplacementPolicy L1P>
class SmL1s {
 public:
  explicit SmL1s(const SimConfig& cfg) : cfg_(cfg), l1_(cfg.gpu.sm_count) {}

  /// Empties every L1; those created from now on hold `l1_bytes`.
  void begin_kernel(std::uint64_t l1_bytes) {
    l1_bytes_ = l1_bytes;
    for (auto& l1 : l1_) l1.reset();
    arena_.rewind();  // the L1s it held are gone
  }

  L1Cache<L1P>& of(std::uint32_t sm) {
    auto& slot = l1_[sm];
    if (!slot) {
      const StateArenaScope in_arena(arena_);
      slot = std::make_unique<L1Cache<L1P>>(cfg_.l1, l1_bytes_,
                                            make_policy<L1P>(cfg_.l1.policy, cfg_.l1.seed + sm));
    }
    return *slot;
  }

 private:
  const SimConfig& cfg_;
  StateArena arena_;  ///< holds the L1s below (declared first: it goes last)
  std::vector<std::unique_ptr<L1Cache<L1P>>> l1_;
  std::uint64_t l1_bytes_ = 0;
};

/// The L1 side of the lines `a` of an access of kind `kind` (l2_access_kind) on an SM whose L1 is
/// `l1()`: a cached load looks its sectors up there, a load that bypasses L1 misses by
/// definition (both counted into `c`); then to_l2(la, want) for each line with sectors `want`
/// left for L2 (a cached load's misses, else every sector).
template <class L1Of, class ToL2>
[[gnu::always_inline]] inline void through_l1(L2AccessKind kind, const CoalescedAccess& a,
                                              AccessCounters& c, L1Of&& l1, ToL2&& to_l2) {
  for (std::uint32_t i = 0; i < a.lines; ++i) {
    const LineAccess& la = a.line_list[i];
    std::uint8_t want = la.sector_mask;
    if (kind == L2AccessKind::CachedLoad) {
      const L1Outcome o = l1().read(la.line_addr, want);
      count_l1(c, want, o.hit_mask);
      want = o.fetch_mask;
      if (want == 0) continue;
    } else if (kind == L2AccessKind::Load) {
      count_l1(c, want, 0);  // it bypasses L1: a miss by definition
    }
    to_l2(la, want);
  }
}

/// One L2 access of line `la` by row `row` of kernel `kernel_seq`, on an SM near L2 partition
/// `near`: a read of sectors `want`, or a store or atomic of its sectors, counted into `c`, its
/// DRAM traffic to `sink`.
template <class L2, class Sink>
[[gnu::always_inline]] inline void replay_l2_access(L2& l2, L2AccessKind kind, const LineAccess& la,
                                                    std::uint8_t want, std::uint32_t kernel_seq,
                                                    std::uint32_t row, std::uint32_t near,
                                                    AccessCounters& c, Sink& sink) {
  if (kind == L2AccessKind::Store)
    l2.write(la, {kernel_seq, row}, c, sink);
  else if (kind == L2AccessKind::Atomic)
    l2.atomic(la, {kernel_seq, row}, c, sink);
  else
    l2.read_in(la.line_addr, want, near, c, sink);
}

/// The L2's DramSink: its fetches and write-backs go to a DRAM model, write-back bytes to the
/// instruction that dirtied the line (charge_write_back) in the kernel's statistics.
struct L2DramCharges {
  explicit L2DramCharges(const DramConfig& cfg) : dram(cfg) {}
  void dram_read(Addr addr, std::uint32_t bytes) { dram.access(addr, bytes, false); }
  void dram_write_back(const LineOwner& owner, Addr line_addr, std::uint8_t dirty,
                       std::uint8_t partial) {
    charge_write_back(dram, *stats, kernel_seq, flushing, owner, line_addr, dirty, partial);
  }

  DramModel dram;
  KernelStats* stats = nullptr;
  std::uint32_t kernel_seq = 0;
  bool flushing = false;  ///< write-backs now come from the end-of-kernel flush
};

using ByteMasks = decltype(LineAccess::byte_mask);

/// Queued L2 accesses replayed one slice at a time, in trace order within each slice
/// (line_batch.h): each access is counted by its slice's group (count), the groups closed, each
/// access placed in trace order (place), and the whole replayed (replay). Slices are numbered
/// from `first_slice` (a parallel replay's worker owns a range of them). Sized on use; no
/// allocation once grown.
class SliceGroups {
 public:
  void reset(std::uint32_t first_slice, std::uint32_t slices) {
    first_slice_ = first_slice;
    groups_.reset(slices);
    placed_ = 0;
  }
  void count(std::uint16_t slice) {
    groups_.count(slice - first_slice_);
    ++placed_;
  }
  void close() {
    groups_.close();
    if (by_slice_.size() < placed_) {
      // By doubling: a pipeline's windows grow, and each size would otherwise be a new block.
      const std::size_t size = std::max(placed_, 2 * by_slice_.size());
      by_slice_.resize(size);
      by_slice_bytes_.resize(size);
    }
  }
  void place(const QueuedAccess& q, const ByteMasks& bytes) {
    const std::uint32_t k = groups_.place(q.slice - first_slice_);
    by_slice_[k] = q;
    if (writes_l2(q.kind)) by_slice_bytes_[k] = bytes;
  }

  /// Replays the placed accesses through `l2` into the rows `rows` of kernel `kernel_seq`, DRAM
  /// traffic to `sink`.
  template <class L2, class Sink>
  void replay(L2& l2, std::vector<InstrStats>& rows, std::uint32_t kernel_seq, Sink& sink) {
    LineAccess la;
    for (std::size_t k = 0; k < placed_; ++k) {
      const QueuedAccess& q = by_slice_[k];
      la.line_addr = q.line_addr & ~Addr{kLineBytes - 1};
      la.sector_mask = q.want;
      if (writes_l2(q.kind)) la.byte_mask = by_slice_bytes_[k];
      const auto near = static_cast<std::uint32_t>(q.line_addr & (kLineBytes - 1));
      replay_l2_access(l2, q.kind, la, q.want, kernel_seq, q.row, near, rows[q.row].c, sink);
    }
  }

 private:
  std::uint32_t first_slice_ = 0;
  std::size_t placed_ = 0;
  StableGroups groups_;
  std::vector<QueuedAccess, HugePageAllocator<QueuedAccess>> by_slice_;
  std::vector<ByteMasks, HugePageAllocator<ByteMasks>> by_slice_bytes_;
};

/// Calls f.template operator()<L1Policy, L2Policy>() with the policy types the config names:
/// the one place where a policy name becomes a type. LRU (every preset's) is a type of its own;
/// the others are one type, ChosenPolicy, that switches at run time.
template <class F>
decltype(auto) with_policies(const SimConfig& cfg, F&& f) {
  auto l2 = [&]<class L1P>() -> decltype(auto) {
    if (cfg.l2.policy == ReplacementKind::Lru) return f.template operator()<L1P, LruPolicy>();
    return f.template operator()<L1P, ChosenPolicy>();
  };
  if (cfg.l1.policy == ReplacementKind::Lru) return l2.template operator()<LruPolicy>();
  return l2.template operator()<ChosenPolicy>();
}

}  // namespace gms
