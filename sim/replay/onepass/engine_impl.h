#pragma once
/// The one-pass engine itself (sim/replay/onepass/engine.h), shared by its two translation
/// units: engine.cc instantiates it with StackL2 (kOwnL2 = false), own_l2.cc
/// with each configuration's own L2Cache (kOwnL2 = true). Apart, so that neither instantiation
/// changes what GCC inlines into the other: in one file, the L1 lookup, then called from both,
/// was left out of line in the stack engine (1.9% more instructions on an L2 ways sweep of a
/// random trace).

#include <algorithm>
#include <bit>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/error.h"
#include "sim/host/state_arena.h"
#include "sim/model/address_map.h"
#include "sim/model/charging.h"
#include "sim/model/coalescer.h"
#include "sim/model/dram_model.h"
#include "sim/model/l1_cache.h"
#include "sim/model/placement.h"
#include "sim/model/smem_arbiter.h"
#include "sim/replay/fast/coalesce_memo.h"
#include "sim/replay/fast/line_batch.h"
#include "sim/replay/fast/memory_hierarchy.h"
#include "sim/replay/kernel_frame.h"
#include "sim/replay/onepass/engine.h"
#include "sim/replay/onepass/stack_l1.h"
#include "sim/replay/onepass/stack_l2.h"
#include "sim/replay/trace_batches.h"

namespace gms::detail {

/// True when the L2 of configuration `cfg` cannot be a member of StackL2's recency stacks: it has
/// near/far partitions (what its home slices see depends on whether the near copy hit, so on the
/// capacity), or its lines are not 128 bytes. The one pass then replays each configuration's L2
/// with its own L2Cache.
inline bool l2_needs_own_model(const SimConfig& cfg) {
  return cfg.l2.partitions > 1 || cfg.l2.line_bytes != kLineBytes;
}

// Internal linkage in each including file, as when the engine was local to one: GCC inlines the
// per-record path (the L1 lookup, the cached lines) only so.
namespace {

constexpr const char* kL1Keys[] = {"l1.unified_kb", "l1.carveouts_kb", "l1.size_kb", "l1.sets"};

using Values = std::vector<std::pair<std::string, std::string>>;

bool is_l1_capacity_key(const std::string& key) {
  return std::find(std::begin(kL1Keys), std::end(kL1Keys), key) != std::end(kL1Keys);
}

/// The L1 capacity keys' values of a configuration: configurations with equal ones see the
/// same L1 (one variant).
std::vector<std::string> l1_variant_key(const Values& values) {
  std::vector<std::string> out;
  for (const auto& [key, value] : values)
    if (is_l1_capacity_key(key)) out.push_back(value);
  return out;
}

/// Replays a stream of kernels for every configuration at once; `L1P` is the L1 policy, used
/// when every configuration has the same L1 (then the model's L1Cache replays it). `kOwnL2`
/// (l2_needs_own_model): each configuration's L2 is the model's own L2Cache, fed by its L1
/// variant's miss stream; else each L1 variant's configurations share one StackL2.
template <ReplacementPolicy L1P, bool kOwnL2>
class OnePassEngine {
 public:
  OnePassEngine(const std::vector<SimConfig>& cfgs, const RunOptions& opts)
      : cfgs_(cfgs),
        cfg_(cfgs[0]),
        opts_(opts),
        k_(cfgs.size()),
        variant_of_(k_),
        frame_(cfgs[0], opts) {
    std::vector<std::vector<std::string>> keys;
    for (std::size_t c = 0; c < k_; ++c) {
      const std::vector<std::string> key = l1_variant_key(effective_config(cfgs[c]));
      std::size_t v = 0;
      while (v < keys.size() && keys[v] != key) ++v;
      if (v == keys.size()) {
        keys.push_back(key);
        members_.emplace_back();
      }
      variant_of_[c] = v;
      members_[v].push_back(c);
    }
    for (std::size_t c = 0; c < k_; ++c) dram_.emplace_back(cfgs[c].dram);
    if (opts.mode == SimMode::Cold) return;
    if constexpr (kOwnL2) {
      // The policies and SM split of a separate run (the fast engine), per configuration.
      std::vector<LruPolicy> policies(cfg_.l2.slices);
      for (const SimConfig& c : cfgs)
        own_l2_.push_back(std::make_unique<L2Cache<LruPolicy>>(c.l2, policies, c.gpu.sm_count,
                                                               std::make_unique<StateArena>()));
      batch_groups_ = own_l2_[0]->batch_groups();
    } else {
      for (const std::vector<std::size_t>& m : members_) {
        std::vector<L2Config> l2;
        for (const std::size_t c : m) l2.push_back(cfgs[c].l2);
        l2_.push_back(std::make_unique<StackL2>(l2));
      }
    }
    slice_sectors_.assign(members_.size(), std::vector<std::uint64_t>(cfg_.l2.slices, 0));
    outcomes_.resize(members_.size());
    // Room for at least one instruction's lines.
    if (l2_batches_exact(cfg_) && opts.cached_batch_lines > 0) {
      batch_lines_ = std::max(opts.cached_batch_lines, access_.line_list.size());
      queue_.resize(batch_lines_);
      queue_bytes_.resize(batch_lines_);
      wants_.resize(batch_lines_ * members_.size());
      by_slice_.resize(batch_lines_);
      by_slice_wants_.resize(batch_lines_ * members_.size());
      groups_.reset(batch_groups_);
    }
  }

  void replay(trace::TraceReader& reader, std::vector<std::vector<KernelStats>>& out) {
    // Strided records may come with their first and last lanes only (the fast engine's reading):
    // the memo's repeats never need the others, replay_record completes them where it does.
    const PartialStridedLanes partial(reader);
    replay_selected_kernels(
        reader, opts_, 256, [&](const KernelInfo& k) { begin_kernel(k); },
        [&](WarpInstr& w) { replay_record(w); }, [&] { end_kernel(out); });
  }

 private:
  /// StackL2's sink for variant v: its configurations' counters of row `row`, DRAM models and
  /// write-back charges (charge_write_back, as both replay engines charge them).
  struct Sink {
    OnePassEngine& e;
    std::size_t v;
    std::uint32_t row;
    std::size_t global(std::size_t c) const { return e.members_[v][c]; }
    AccessCounters& counters(std::size_t c) { return e.cached_[global(c)]->instructions[row].c; }
    /// Every configuration reads the same fetch units of a line: the channel of the last one
    /// is kept (DramModel::access of it, without computing it again).
    void dram_read(std::size_t c, Addr addr, std::uint32_t bytes) {
      if (addr != e.read_addr_) {
        e.read_addr_ = addr;
        e.read_channel_ = e.dram_[0].channel_map().unit_of(addr);
      }
      e.dram_[global(c)].access_channel(e.read_channel_, addr, bytes, false);
    }
    void dram_write_back(std::size_t c, const LineOwner& owner, Addr addr, std::uint8_t dirty,
                         std::uint8_t partial) {
      const std::size_t g = global(c);
      charge_write_back(e.dram_[g], *e.cached_[g], e.kernel_seq_, e.flushing_, owner, addr, dirty,
                        partial);
    }
  };

  /// The DramSink of configuration g's own L2 (kOwnL2): as a separate run's (L2DramCharges).
  struct OwnSink {
    OnePassEngine& e;
    std::size_t g;
    void dram_read(Addr addr, std::uint32_t bytes) { e.dram_[g].access(addr, bytes, false); }
    void dram_write_back(const LineOwner& owner, Addr addr, std::uint8_t dirty,
                         std::uint8_t partial) {
      charge_write_back(e.dram_[g], *e.cached_[g], e.kernel_seq_, e.flushing_, owner, addr, dirty,
                        partial);
    }
  };

  void begin_kernel(const KernelInfo& kernel) {
    frame_.begin(kernel);
    cold_slices_.assign(cfg_.l2.slices, 0);
    cached_.assign(k_, std::nullopt);
    common_.clear();
    variant_l1_.clear();
    cached_records_ = 0;
    if (!frame_.cached) return;
    // Each configuration's cached statistics start as the frame's (which then keeps the cold
    // mode's only), placed by its own configuration.
    for (auto& c : cached_) c = *frame_.cached;
    frame_.cached.reset();
    ++kernel_seq_;
    std::vector<std::uint32_t> sets(members_.size());
    std::vector<std::uint64_t> bytes(members_.size());
    for (std::size_t c = 0; c < k_; ++c) {
      const KernelPlacement p = place_kernel(kernel, cfgs_[c]);
      cached_[c]->resident_ctas_per_sm = p.resident_ctas_per_sm;
      cached_[c]->carveout_kb = p.carveout_kb;
      cached_[c]->l1_bytes = p.l1_bytes;
      sets[variant_of_[c]] = cfgs_[c].l1.sets;
      bytes[variant_of_[c]] = p.l1_bytes;
    }
    variant_sets_ = sets;
    variant_l1_bytes_ = bytes;
    l1_.clear();
    l1_.resize(cfg_.gpu.sm_count);
    stack_l1_.clear();
    stack_l1_.resize(cfg_.gpu.sm_count);
  }

  void end_kernel(std::vector<std::vector<KernelStats>>& out) {
    if (cached_[0]) {
      add_common_counts();
      replay_batch();
      if (!cfg_.l2.persist_across_kernels) {
        flushing_ = true;
        for (std::size_t v = 0; v < l2_.size(); ++v) {
          Sink sink{*this, v, 0};
          l2_[v]->flush(sink);
        }
        for (std::size_t c = 0; c < own_l2_.size(); ++c) {
          OwnSink sink{*this, c};
          own_l2_[c]->flush(sink, /*keep=*/false);
        }
        flushing_ = false;
      }
      for (std::size_t c = 0; c < k_; ++c) {
        cached_[c]->traffic.dram = dram_[c].finish();
        if constexpr (kOwnL2) {
          take_l2_traffic(*own_l2_[c], *cached_[c]);
        } else {
          cached_[c]->traffic.l2_slice_sectors = slice_sectors_[variant_of_[c]];
        }
      }
      for (auto& s : slice_sectors_) std::fill(s.begin(), s.end(), 0);
    }
    if (frame_.cold) {  // the same in every configuration: replayed once, copied to each
      frame_.cold->traffic.l2_slice_sectors = cold_slices_;
      frame_.cold->traffic.dram = cold_dram_.finish();
    }
    for (std::size_t c = 0; c < k_; ++c) {
      std::optional<KernelStats> cold = frame_.cold;
      KernelFrame::finish_kernel(cold, cached_[c], frame_.units, cfgs_[c], opts_, out[c]);
    }
  }

  /// Record w's row, added to every configuration's statistics and the common counts when new.
  std::uint32_t row_of(const WarpInstr& w) {
    bool created = false;
    const std::uint32_t r = frame_.row(
        w, [this](Op op) { return coalescer_.segment_bytes(op); }, created);
    if (created && cached_[0]) {
      const InstrStats row{w.inst, w.op, w.size, coalescer_.segment_bytes(w.op), {}};
      for (auto& c : cached_) c->instructions.push_back(row);
      common_.emplace_back();
      variant_l1_.resize(variant_l1_.size() + members_.size());
    }
    return r;
  }

  /// Adds what every configuration counts alike (common_, variant_l1_, the records) to each
  /// configuration's rows.
  void add_common_counts() {
    for (std::size_t c = 0; c < k_; ++c) {
      KernelStats& ks = *cached_[c];
      ks.records += cached_records_;
      const std::size_t m = members_.size(), v = variant_of_[c];
      for (std::size_t r = 0; r < common_.size(); ++r) {
        AccessCounters& rc = ks.instructions[r].c;
        rc += common_[r];
        rc.l1_sector_hits += variant_l1_[r * m + v].hits;
        rc.l1_sector_misses += variant_l1_[r * m + v].misses;
      }
    }
  }

  /// One record, as the reference engine replays it (sim/replay/reference_engine.cc), its
  /// cached part for every configuration; coalesced through the fast engine's shape memo.
  void replay_record(WarpInstr& w) {
    const std::uint32_t row = row_of(w);
    const std::uint32_t sm = sm_of(w, sms_);
    if (frame_.cold) ++frame_.cold->records;
    ++cached_records_;
    if (w.op == Op::TMAMC) {  // a multicast delivery: shared-memory bytes only
      const auto active = static_cast<std::uint64_t>(std::popcount(w.mask));
      if (frame_.cold) charge_bulk_delivery(active, frame_.cold->instructions[row].c);
      if (cached_[0]) charge_bulk_delivery(active, common_[row]);
      return;
    }
    if (is_shared(w.op)) {
      if (!w.lanes_complete) complete_strided_lanes(w);
      const BankAccess b = arbiter_.arbitrate(w);
      frame_.units.sm_shared_wavefronts[sm] += b.wavefronts;
      const auto active = static_cast<std::uint64_t>(std::popcount(w.mask));
      if (frame_.cold) charge_shared_access(b, active, w.size, frame_.cold->instructions[row].c);
      if (cached_[0]) charge_shared_access(b, active, w.size, common_[row]);
      return;
    }
    memo_.coalesce(coalescer_, row, w, access_);
    charge_l1_pipe(w.op, access_, sm, frame_.units);
    if (waits_for_data(w.op)) ++frame_.units.load_requests;
    if (frame_.cold) {
      AccessCounters& c = frame_.cold->instructions[row].c;
      charge_access(w.op, access_, c);
      charge_cold_hierarchy(w.op, access_, c);
      replay_cold_lines(w.op);
    }
    if (cached_[0]) {
      charge_access(w.op, access_, common_[row]);
      replay_cached_lines(w.op, sm, row);
    }
  }

  void replay_cold_lines(Op op) {
    replay_cold_access(access_, op, coalescer_, slices_, cold_slices_, cold_dram_,
                       cfg_.dram.interleave_bytes >= kLineBytes);
  }

  /// Variant v's L2 access of kind `kind` to line `la` (its sectors `la.sector_mask`, in slice
  /// `slice`) by row `row`; a cached load that missed no sector at v has none.
  void l2_access(std::size_t v, L2AccessKind kind, const LineAccess& la, std::uint32_t slice,
                 std::uint32_t row) {
    const std::uint8_t want = la.sector_mask;
    if (kind == L2AccessKind::CachedLoad && want == 0) return;
    slice_sectors_[v][slice] += static_cast<std::uint64_t>(std::popcount(want));
    Sink sink{*this, v, row};
    switch (kind) {
      case L2AccessKind::CachedLoad:
      case L2AccessKind::Load:
        l2_[v]->read(la.line_addr, want, sink);
        break;
      case L2AccessKind::Store:
        l2_[v]->write(la, {kernel_seq_, row}, sink);
        break;
      case L2AccessKind::Atomic:
        l2_[v]->atomic(la, {kernel_seq_, row}, sink);
        break;
    }
  }

  /// Configuration c's access of kind `kind` to line `la` (its sectors `la.sector_mask`) by row
  /// `row` from an SM near L2 partition `near`, in its own L2 (kOwnL2), as a separate run replays
  /// it (replay_l2_access); a cached load that missed no sector has none.
  void own_l2_access(std::size_t c, L2AccessKind kind, const LineAccess& la, std::uint32_t near,
                     std::uint32_t row) {
    if (kind == L2AccessKind::CachedLoad && la.sector_mask == 0) return;
    OwnSink sink{*this, c};
    replay_l2_access(*own_l2_[c], kind, la, la.sector_mask, kernel_seq_, row, near,
                     cached_[c]->instructions[row].c, sink);
  }

  /// The L2 accesses of line `la` by row `row` from SM `sm`, variant v's of sectors want(v):
  /// replayed now, or queued for the batch where batches are exact.
  template <class Want>
  void to_l2(L2AccessKind kind, const LineAccess& la, std::uint32_t sm, std::uint32_t row,
             Want&& want) {
    if constexpr (kOwnL2) {
      // Queued as the fast engine (fast/l1_stage.h) queues it: by batch group (with partitions the
      // slice's index inside its partition), the reader's near partition in the line address's low
      // bits.
      const std::uint32_t near = own_l2_[0]->near_partition_of(sm);
      if (batch_lines_ == 0) {
        LineAccess each = la;
        for (std::size_t c = 0; c < k_; ++c) {
          each.sector_mask = want(variant_of_[c]);
          own_l2_access(c, kind, each, near, row);
        }
        return;
      }
      const std::uint32_t group = own_l2_[0]->batch_group_of(la.line_addr);
      groups_.count(group);
      queue_[queued_] = {la.line_addr | near, row, static_cast<std::uint16_t>(group), 0, kind};
    } else {
      (void)sm;
      const std::uint32_t slice = slices_.unit_of(la.line_addr);
      if (batch_lines_ == 0) {
        LineAccess each = la;
        for (std::size_t v = 0; v < members_.size(); ++v) {
          each.sector_mask = want(v);
          l2_access(v, kind, each, slice, row);
        }
        return;
      }
      groups_.count(slice);
      queue_[queued_] = {la.line_addr, row, static_cast<std::uint16_t>(slice), 0, kind};
    }
    if (writes_l2(kind)) queue_bytes_[queued_] = la.byte_mask;
    std::uint8_t* wants = wants_.data() + queued_ * members_.size();
    for (std::size_t v = 0; v < members_.size(); ++v) wants[v] = want(v);
    ++queued_;
  }

  /// Replays the queued L2 accesses one variant at a time, each slice's in trace order
  /// (line_batch.h: what a slice does depends on nothing else's order), and empties the queue.
  void replay_batch() {
    if (queued_ == 0) return;
    groups_.close();
    // Copied into slice order once (each variant's pass then reads it in sequence), a store's
    // byte masks left in place and found by the queue index the copy keeps.
    const std::size_t m = members_.size();
    for (std::size_t i = 0; i < queued_; ++i) {
      const std::uint32_t k = groups_.place(queue_[i].slice);
      by_slice_[k] = {queue_[i], static_cast<std::uint32_t>(i)};
      std::copy_n(wants_.data() + i * m, m, by_slice_wants_.data() + std::size_t{k} * m);
    }
    LineAccess la;
    if constexpr (kOwnL2) {
      // One configuration after the other, each its own L2 (its state stays in the host's
      // caches for its whole share of the batch), its variant's sectors.
      for (std::size_t c = 0; c < k_; ++c) {
        const std::size_t v = variant_of_[c];
        for (std::size_t k = 0; k < queued_; ++k) {
          const QueuedAccess& q = by_slice_[k].q;
          la.line_addr = q.line_addr & ~Addr{kLineBytes - 1};
          la.sector_mask = by_slice_wants_[k * m + v];
          if (writes_l2(q.kind)) la.byte_mask = queue_bytes_[by_slice_[k].index];
          const auto near = static_cast<std::uint32_t>(q.line_addr & (kLineBytes - 1));
          own_l2_access(c, q.kind, la, near, q.row);
        }
      }
    } else {
      for (std::size_t v = 0; v < m; ++v)
        for (std::size_t k = 0; k < queued_; ++k) {
          const QueuedAccess& q = by_slice_[k].q;
          la.line_addr = q.line_addr;
          la.sector_mask = by_slice_wants_[k * m + v];
          if (writes_l2(q.kind)) la.byte_mask = queue_bytes_[by_slice_[k].index];
          l2_access(v, q.kind, la, q.slice, q.row);
        }
    }
    queued_ = 0;
    groups_.reset(batch_groups_);
  }

  void replay_cached_lines(Op op, std::uint32_t sm, std::uint32_t row) {
    const L2AccessKind kind = l2_access_kind(op, cfg_.l1);
    if (batch_lines_ > 0 && queued_ + access_.lines > batch_lines_) replay_batch();
    for (std::uint32_t i = 0; i < access_.lines; ++i) {
      const LineAccess& la = access_.line_list[i];
      const std::uint8_t want = la.sector_mask;
      if (kind != L2AccessKind::CachedLoad) {
        if (kind == L2AccessKind::Load) count_l1(common_[row], want, 0);
        to_l2(kind, la, sm, row, [want](std::size_t) { return want; });
        continue;
      }
      if (members_.size() == 1)
        outcomes_[0] = l1_of(sm).read(la.line_addr, want);
      else
        stack_l1_of(sm).read(la.line_addr, want, outcomes_.data());
      std::uint8_t fetched = 0;
      L1Counts* counts = variant_l1_.data() + std::size_t{row} * members_.size();
      const auto n = static_cast<std::uint32_t>(std::popcount(want));
      for (std::size_t v = 0; v < members_.size(); ++v) {
        const L1Outcome o = outcomes_[v];
        const auto h = static_cast<std::uint32_t>(std::popcount(o.hit_mask));
        counts[v].hits += h;
        counts[v].misses += n - h;
        fetched |= o.fetch_mask;
      }
      if (fetched != 0)
        to_l2(kind, la, sm, row, [this](std::size_t v) { return outcomes_[v].fetch_mask; });
    }
  }

  /// SM `sm`'s L1 when every configuration has the same one: the model's L1Cache.
  L1Cache<L1P>& l1_of(std::uint32_t sm) {
    std::optional<L1Cache<L1P>>& l1 = l1_[sm];
    if (!l1)
      l1.emplace(cfg_.l1, cached_[0]->l1_bytes,
                 make_policy<L1P>(cfg_.l1.policy, cfg_.l1.seed + sm));
    return *l1;
  }

  /// SM `sm`'s L1 for every variant, in one stack per set count.
  StackL1& stack_l1_of(std::uint32_t sm) {
    std::optional<StackL1>& l1 = stack_l1_[sm];
    if (!l1) l1.emplace(cfg_.l1, variant_sets_, variant_l1_bytes_);
    return *l1;
  }

  const std::vector<SimConfig>& cfgs_;
  const SimConfig& cfg_;  ///< the first: every key but the capacities is the same in all
  const RunOptions& opts_;
  std::size_t k_;
  std::vector<std::size_t> variant_of_;            ///< per configuration: its L1 variant
  std::vector<std::vector<std::size_t>> members_;  ///< per L1 variant: its configurations
  const Coalescer coalescer_{cfg_.coalescer};
  const SmemArbiter arbiter_{cfg_.shared};
  const FastDiv32 sms_{cfg_.gpu.sm_count};
  const Interleave slices_ = l2_slices(cfg_.l2);
  DramModel cold_dram_{cfg_.dram};
  std::vector<DramModel> dram_;                              ///< per configuration (cached mode)
  std::vector<std::unique_ptr<StackL2>> l2_;                 ///< per L1 variant (not kOwnL2)
  std::vector<std::unique_ptr<L2Cache<LruPolicy>>> own_l2_;  ///< per configuration (kOwnL2)
  std::vector<std::optional<L1Cache<L1P>>> l1_;              ///< per SM (one variant)
  std::vector<std::optional<StackL1>> stack_l1_;             ///< per SM (several variants)
  std::vector<std::uint32_t> variant_sets_;
  std::vector<std::uint64_t> variant_l1_bytes_;  ///< this kernel's L1 per variant
  std::vector<L1Outcome> outcomes_;              ///< per variant, of the line being replayed
  std::uint32_t kernel_seq_ = 0;
  bool flushing_ = false;
  Addr read_addr_ = ~Addr{0};  ///< the last DRAM read (Sink::dram_read)
  std::uint32_t read_channel_ = 0;
  /// The current kernel: its cold statistics, rows and unit traffic (the first configuration's
  /// frame; every configuration counts them alike).
  KernelFrame frame_;
  std::vector<std::optional<KernelStats>> cached_;  ///< per configuration
  // What every configuration counts alike, kept once and added to each at the kernel's end
  // (add_common_counts) rather than to each of them per record: per row, the coalescer's counts,
  // shared-memory charges and the L1 misses of loads that bypass it; per row and L1 variant,
  // its L1 sector hits and misses; the records.
  struct L1Counts {
    std::uint64_t hits = 0, misses = 0;
  };
  std::vector<AccessCounters> common_;
  std::vector<L1Counts> variant_l1_;
  std::uint64_t cached_records_ = 0;
  std::vector<std::uint64_t> cold_slices_;
  std::vector<std::vector<std::uint64_t>> slice_sectors_;  ///< per variant, per slice
  CoalesceMemo memo_;  ///< per instruction row, the last strided shape (as the fast engine's)
  CoalescedAccess access_;
  // L2 accesses queued in trace order where batches are exact (l2_batches_exact), then replayed
  // by slice (replay_batch); batch_lines_ == 0: each is replayed as it comes. Sized once.
  std::size_t batch_lines_ = 0;
  /// The batch groups: the slices, or with partitions the slice indices inside a partition.
  std::uint32_t batch_groups_ = cfg_.l2.slices;
  std::vector<QueuedAccess> queue_;     ///< line, row, slice and kind (its want: wants_)
  std::vector<ByteMasks> queue_bytes_;  ///< beside queue_: a store's or atomic's byte masks
  std::vector<std::uint8_t> wants_;     ///< per queued access, per variant: its sectors (0 none)
  struct Placed {
    QueuedAccess q;
    std::uint32_t index;  ///< its place in queue_ (a store's byte masks)
  };
  std::vector<Placed> by_slice_;              ///< the queue in slice order
  std::vector<std::uint8_t> by_slice_wants_;  ///< beside by_slice_: its wants_
  std::size_t queued_ = 0;
  StableGroups groups_;
};

/// out[c] for every configuration, from one pass of `reader` by the engine with kOwnL2, for the
/// configurations' L1 policy.
template <bool kOwnL2>
void replay_onepass(trace::TraceReader& reader, const std::vector<SimConfig>& cfgs,
                    const RunOptions& opts, std::vector<std::vector<KernelStats>>& out) {
  auto run = [&]<class L1P>() {
    OnePassEngine<L1P, kOwnL2> engine(cfgs, opts);
    engine.replay(reader, out);
  };
  // LRU, every preset's, has its engine; FIFO, random and SRRIP share one (ChosenPolicy).
  if (cfgs[0].l1.policy == ReplacementKind::Lru)
    run.template operator()<LruPolicy>();
  else
    run.template operator()<ChosenPolicy>();
}

}  // namespace

/// replay_onepass<false> (engine.cc) and replay_onepass<true> (own_l2.cc).
void replay_onepass_stack(trace::TraceReader& reader, const std::vector<SimConfig>& cfgs,
                          const RunOptions& opts, std::vector<std::vector<KernelStats>>& out);
void replay_onepass_own_l2(trace::TraceReader& reader, const std::vector<SimConfig>& cfgs,
                           const RunOptions& opts, std::vector<std::vector<KernelStats>>& out);

}  // namespace gms::detail
