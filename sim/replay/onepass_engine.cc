#include "sim/replay/onepass_engine.h"

#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

#include "sim/core/error.h"
#include "sim/model/address_map.h"
#include "sim/model/charging.h"
#include "sim/model/coalescer.h"
#include "sim/model/dram_model.h"
#include "sim/model/l1_cache.h"
#include "sim/model/memory_hierarchy.h"
#include "sim/model/placement.h"
#include "sim/model/smem_arbiter.h"
#include "sim/model/stack_l1.h"
#include "sim/model/stack_l2.h"
#include "sim/replay/kernel_results.h"

namespace gms {

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
/// when every configuration has the same L1 (then the model's L1Cache replays it).
template <ReplacementPolicy L1P>
class OnePassEngine {
 public:
  OnePassEngine(const std::vector<SimConfig>& cfgs, const RunOptions& opts)
      : cfgs_(cfgs), cfg_(cfgs[0]), opts_(opts), k_(cfgs.size()), variant_of_(k_) {
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
    row_counters_.resize(k_);
    if (opts.mode == SimMode::Cold) return;
    for (const std::vector<std::size_t>& m : members_) {
      std::vector<L2Config> l2;
      for (const std::size_t c : m) l2.push_back(cfgs[c].l2);
      l2_.push_back(std::make_unique<StackL2>(l2));
    }
    slice_sectors_.assign(members_.size(), std::vector<std::uint64_t>(cfg_.l2.slices, 0));
    outcomes_.resize(members_.size());
  }

  void replay(trace::TraceReader& reader, std::vector<std::vector<KernelStats>>& out) {
    replay_selected_kernels(
        reader, opts_, 256, [&](const KernelInfo& k) { begin_kernel(k); },
        [&](const WarpInstr& w) { replay_record(w); }, [&] { end_kernel(out); });
  }

 private:
  /// StackL2's sink for variant v: its configurations' counters of the current row, DRAM
  /// models and write-back charges (charge_write_back, as both replay engines charge them).
  struct Sink {
    OnePassEngine& e;
    std::size_t v;
    std::size_t global(std::size_t c) const { return e.members_[v][c]; }
    AccessCounters& counters(std::size_t c) { return *e.row_counters_[global(c)]; }
    /// Every configuration reads the same fetch units of a line: the channel of the last one
    /// is kept (DramModel::access of it, without computing it again).
    void dram_read(std::size_t c, Addr addr, std::uint32_t bytes) {
      if (addr != e.read_addr_) {
        e.read_addr_ = addr;
        e.read_channel_ = e.dram_[0].channel_map().unit_of(addr);
      }
      e.dram_[global(c)].access_channel(e.read_channel_, addr, bytes, false);
    }
    void dram_write_back(std::size_t c, const LineOwner& owner, Addr addr, std::uint8_t dirty) {
      const std::size_t g = global(c);
      charge_write_back(e.dram_[g], *e.cached_[g], e.kernel_seq_, e.flushing_, owner, addr, dirty);
    }
  };

  void begin_kernel(const KernelInfo& kernel) {
    std::optional<KernelStats> cached;
    start_kernel(kernel, cfg_, opts_, cold_, cached, units_);
    cold_slices_.assign(cfg_.l2.slices, 0);
    rows_.clear();
    cached_.assign(k_, std::nullopt);
    if (!cached) return;
    for (auto& c : cached_) c = *cached;
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
      if (!cfg_.l2.persist_across_kernels) {
        flushing_ = true;
        for (std::size_t v = 0; v < l2_.size(); ++v) {
          Sink sink{*this, v};
          l2_[v]->flush(sink);
        }
        flushing_ = false;
      }
      for (std::size_t c = 0; c < k_; ++c) {
        cached_[c]->traffic.dram = dram_[c].finish();
        cached_[c]->traffic.l2_slice_sectors = slice_sectors_[variant_of_[c]];
      }
      for (auto& s : slice_sectors_) std::fill(s.begin(), s.end(), 0);
    }
    if (cold_) {  // the same in every configuration: replayed once, copied to each
      cold_->traffic.l2_slice_sectors = cold_slices_;
      cold_->traffic.dram = cold_dram_.finish();
    }
    for (std::size_t c = 0; c < k_; ++c) {
      std::optional<KernelStats> cold = cold_;
      finish_kernel(cold, cached_[c], units_, cfgs_[c], opts_, out[c]);
    }
  }

  std::uint32_t row_of(const WarpInstr& w) {
    const auto [it, created] = rows_.try_emplace(std::tuple{w.inst, w.op, w.size},
                                                 static_cast<std::uint32_t>(rows_.size()));
    if (created) {
      const InstrStats row{w.inst, w.op, w.size, coalescer_.segment_bytes(w.op), {}};
      if (cold_) cold_->instructions.push_back(row);
      for (auto& c : cached_)
        if (c) c->instructions.push_back(row);
    }
    return it->second;
  }

  /// One record, as the reference engine replays it (sim/replay/reference_engine.cc), its
  /// cached part for every configuration.
  void replay_record(const WarpInstr& w) {
    const std::uint32_t row = row_of(w);
    const std::uint32_t sm = sm_of(w, sms_);
    if (cold_) ++cold_->records;
    for (auto& c : cached_)
      if (c) ++c->records;
    if (is_shared(w.op)) {
      const BankAccess b = arbiter_.arbitrate(w);
      units_.sm_shared_wavefronts[sm] += b.wavefronts;
      const auto active = static_cast<std::uint64_t>(std::popcount(w.mask));
      if (cold_) charge_shared_access(b, active, w.size, cold_->instructions[row].c);
      for (auto& c : cached_)
        if (c) charge_shared_access(b, active, w.size, c->instructions[row].c);
      return;
    }
    coalescer_.coalesce(w, access_);
    units_.sm_l1_sectors[sm] += access_.sectors;
    if (!is_store(w.op)) ++units_.load_requests;
    if (cold_) {
      AccessCounters& c = cold_->instructions[row].c;
      charge_access(access_, c);
      charge_cold_hierarchy(w.op, access_, c);
      replay_cold_lines(w.op);
    }
    if (cached_[0]) {
      for (std::size_t c = 0; c < k_; ++c) {
        row_counters_[c] = &cached_[c]->instructions[row].c;
        charge_access(access_, *row_counters_[c]);
      }
      replay_cached_lines(w.op, sm, row);
    }
  }

  void replay_cold_lines(Op op) {
    replay_cold_access(access_, op, coalescer_, slices_, cold_slices_, cold_dram_,
                       cfg_.dram.interleave_bytes >= kLineBytes);
  }

  /// Variant v's L2 read of sectors `want` (its slice's sector count included).
  void l2_read(std::size_t v, Addr line_addr, std::uint8_t want) {
    slice_sectors_[v][slices_.unit_of(line_addr)] +=
        static_cast<std::uint64_t>(std::popcount(want));
    Sink sink{*this, v};
    l2_[v]->read(line_addr, want, sink);
  }

  void replay_cached_lines(Op op, std::uint32_t sm, std::uint32_t row) {
    const LineOwner owner{kernel_seq_, row};
    const LineKind kind = line_kind(op, cfg_.l1);
    for (std::uint32_t i = 0; i < access_.lines; ++i) {
      const LineAccess& la = access_.line_list[i];
      const std::uint8_t want = la.sector_mask;
      switch (kind) {
        case LineKind::CachedLoad:
          if (members_.size() == 1) {
            const L1Outcome o = l1_of(sm).read(la.line_addr, want);
            outcomes_[0] = o;
          } else {
            stack_l1_of(sm).read(la.line_addr, want, outcomes_.data());
          }
          for (std::size_t v = 0; v < members_.size(); ++v) {
            const L1Outcome o = outcomes_[v];
            for (const std::size_t c : members_[v])
              count_l1(cached_[c]->instructions[row].c, want, o.hit_mask);
            if (o.fetch_mask != 0) l2_read(v, la.line_addr, o.fetch_mask);
          }
          break;
        case LineKind::Load:
          for (auto& c : cached_) count_l1(c->instructions[row].c, want, 0);
          for (std::size_t v = 0; v < members_.size(); ++v) l2_read(v, la.line_addr, want);
          break;
        case LineKind::Store:
        case LineKind::Atomic:
          for (std::size_t v = 0; v < members_.size(); ++v) {
            slice_sectors_[v][slices_.unit_of(la.line_addr)] +=
                static_cast<std::uint64_t>(std::popcount(want));
            Sink sink{*this, v};
            if (kind == LineKind::Store)
              l2_[v]->write(la, owner, sink);
            else
              l2_[v]->atomic(la, owner, sink);
          }
          break;
      }
    }
  }

  /// SM `sm`'s L1 when every configuration has the same one: the model's L1Cache.
  L1Cache<L1P>& l1_of(std::uint32_t sm) {
    std::optional<L1Cache<L1P>>& l1 = l1_[sm];
    if (!l1) l1.emplace(cfg_.l1, cached_[0]->l1_bytes, make_policy<L1P>(cfg_.l1.seed + sm));
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
  std::vector<DramModel> dram_;                   ///< per configuration (cached mode)
  std::vector<std::unique_ptr<StackL2>> l2_;      ///< per L1 variant
  std::vector<std::optional<L1Cache<L1P>>> l1_;   ///< per SM (one variant)
  std::vector<std::optional<StackL1>> stack_l1_;  ///< per SM (several variants)
  std::vector<std::uint32_t> variant_sets_;
  std::vector<std::uint64_t> variant_l1_bytes_;  ///< this kernel's L1 per variant
  std::vector<L1Outcome> outcomes_;              ///< per variant, of the line being replayed
  std::uint32_t kernel_seq_ = 0;
  bool flushing_ = false;
  std::vector<AccessCounters*> row_counters_;  ///< per configuration, the row being replayed
  Addr read_addr_ = ~Addr{0};                  ///< the last DRAM read (Sink::dram_read)
  std::uint32_t read_channel_ = 0;
  std::optional<KernelStats> cold_;
  std::vector<std::optional<KernelStats>> cached_;  ///< per configuration
  TrafficProfile units_;
  std::vector<std::uint64_t> cold_slices_;
  std::vector<std::vector<std::uint64_t>> slice_sectors_;  ///< per variant, per slice
  std::map<std::tuple<std::uint32_t, Op, std::uint8_t>, std::uint32_t> rows_;
  CoalescedAccess access_;
};

}  // namespace

const std::vector<std::string>& onepass_capacity_keys() {
  static const std::vector<std::string> keys = {"l1.unified_kb", "l1.carveouts_kb", "l1.size_kb",
                                                "l1.sets",       "l2.size_kb",      "l2.ways"};
  return keys;
}

std::string onepass_refusal(const std::vector<SimConfig>& cfgs) {
  if (cfgs.empty()) return "no configuration";
  const auto& cap = onepass_capacity_keys();
  const Values first = effective_config(cfgs[0]);
  bool l1_varies = false, l2_varies = false;
  for (std::size_t c = 1; c < cfgs.size(); ++c) {
    const Values v = effective_config(cfgs[c]);
    if (v.size() != first.size()) return "the configurations have different keys";
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i].second == first[i].second) continue;
      const std::string& key = v[i].first;
      if (std::find(cap.begin(), cap.end(), key) == cap.end())
        return fmt::format("{} differs ({} and {}); only L1 and L2 capacities may", key,
                           first[i].second, v[i].second);
      (key.starts_with("l1.") ? l1_varies : l2_varies) = true;
    }
  }
  (void)l2_varies;  // the L2 is a stack in every case
  const SimConfig& c = cfgs[0];
  if (c.l2.policy != ReplacementKind::Lru) return "l2.policy is not lru";
  if (c.l2.partitions > 1) return "the L2 has near/far partitions (l2.partitions), not a stack";
  if (c.l2.line_bytes != kLineBytes || c.l2.sector_bytes != kSectorBytes)
    return "the L2 lines are not 128-byte lines of 32-byte sectors";
  if (l1_varies) {
    if (c.l1.policy != ReplacementKind::Lru) return "l1.policy is not lru";
    if (c.l1.line_bytes != kLineBytes || c.l1.sector_bytes != kSectorBytes)
      return "the L1 lines are not 128-byte lines of 32-byte sectors";
  }
  return "";
}

std::vector<std::vector<KernelStats>> simulate_onepass(trace::TraceReader& reader,
                                                       const std::vector<SimConfig>& cfgs,
                                                       const RunOptions& opts) {
  const std::string why = onepass_refusal(cfgs);
  if (!why.empty()) fail("one-pass replay: {}", why);
  std::vector<std::vector<KernelStats>> out(cfgs.size());
  auto run = [&]<class L1P>() {
    OnePassEngine<L1P> engine(cfgs, opts);
    engine.replay(reader, out);
  };
  switch (cfgs[0].l1.policy) {
    case ReplacementKind::Fifo:
      run.template operator()<FifoPolicy>();
      break;
    case ReplacementKind::Random:
      run.template operator()<RandomPolicy>();
      break;
    case ReplacementKind::Srrip:
      run.template operator()<SrripPolicy>();
      break;
    case ReplacementKind::Lru:
      run.template operator()<LruPolicy>();
      break;
  }
  return out;
}

}  // namespace gms
