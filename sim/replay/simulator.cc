#include "sim/replay/simulator.h"

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "sim/core/error.h"
#include "sim/model/charging.h"
#include "sim/model/coalesce_memo.h"
#include "sim/model/coalescer.h"
#include "sim/model/cold_model.h"
#include "sim/model/memory_hierarchy.h"
#include "sim/model/placement.h"
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

/// Replays a stream of kernels through the model's sinks: the cold model for cold mode, the
/// cached hierarchy (`Hierarchy`, a MemoryHierarchy instantiation, or void for a cold-only run)
/// for cached mode. Shared-memory records go to the bank arbiter in both modes.
template <class Hierarchy>
class Replayer {
  static constexpr bool kColdOnly = std::is_void_v<Hierarchy>;

 public:
  Replayer(const SimConfig& cfg, const RunOptions& opts)
      : cfg_(cfg),
        opts_(opts),
        coalescer_(cfg.coalescer),
        arbiter_(cfg.shared),
        sms_(cfg.gpu.sm_count),
        cold_model_(cfg, coalescer_) {
    if constexpr (!kColdOnly)
      hierarchy_ = std::make_unique<Hierarchy>(cfg, opts.cached_batch_lines);
  }

  void replay(trace::TraceReader& reader, std::vector<KernelStats>& out) {
    // Not from standard input: a failing replay waits for the reading thread to stop, and a
    // thread blocked on an idle pipe would only stop when the writer does.
    if (opts_.read_ahead && !reader.decodes_cheaply() && reader.source_name() != "-") {
      trace::ReadAhead ahead(reader, kReadAheadRecords, kReadAheadDepth);
      replay_from(ahead, out);
    } else {
      // Records replayed on this thread may come with partial strided lanes (completed where
      // they are needed): a regular .gmt stream's records mostly repeat a memoized shape.
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
      start_kernel(kernel, cfg_, opts_, cold_, cached_, traffic_);
      rows_ = InstrTable();
      if (cold_) cold_model_.begin_kernel();
      if constexpr (!kColdOnly)
        if (cached_) hierarchy_->begin_kernel(*cached_);
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
      if (cold_) cold_model_.end_kernel(*cold_, traffic_);
      if constexpr (!kColdOnly)
        if (cached_) hierarchy_->end_kernel();
      finish_kernel(cold_, cached_, traffic_, cfg_, opts_, out);
    }
  }

  /// Replays one record, completing its strided lanes (lanes_complete) where they are needed.
  /// Always inlined into both batch loops: called once per record, the cold stream took 4.3%
  /// more instructions (callgrind, 2 M records).
  [[gnu::always_inline]] void add(WarpInstr& w) {
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
    if (is_shared(w.op)) {
      if (!w.lanes_complete) complete_strided_lanes(w);
      const BankAccess b = arbiter_.arbitrate(w);
      const auto active = static_cast<std::uint64_t>(std::popcount(w.mask));
      traffic_.sm_shared_wavefronts[sm] += b.wavefronts;
      for (auto* k : {&cold_, &cached_})
        if (*k) {
          charge_shared_access(b, active, w.size, (*k)->instructions[r].c);
          ++(*k)->records;
        }
      return;
    }
    if constexpr (kColdOnly) {
      cold_model_.replay(w, sm, r, *cold_, traffic_);  // its own memo, deferred repeats, shortcut
    } else {
      if (!memo_.lookup(r, w, access_)) {
        if (!w.lanes_complete) complete_strided_lanes(w);
        coalescer_.coalesce(w, access_);
        memo_.store(r, w, access_);
      }
      traffic_.sm_l1_sectors[sm] += access_.sectors;
      if (!is_store(w.op)) ++traffic_.load_requests;  // loads and atomics wait for their data
      if (cold_) {
        AccessCounters& c = cold_->instructions[r].c;
        charge_access(access_, c);
        cold_model_.access(w.op, access_, c);
        ++cold_->records;
      }
      if (cached_) {
        AccessCounters& c = cached_->instructions[r].c;
        charge_access(access_, c);
        hierarchy_->access(w, sm, access_, r, c);
        ++cached_->records;
      }
    }
  }

  const SimConfig& cfg_;
  const RunOptions& opts_;
  Coalescer coalescer_;
  SmemArbiter arbiter_;
  FastDiv32 sms_;
  ColdModel cold_model_;
  std::conditional_t<kColdOnly, int, std::unique_ptr<Hierarchy>> hierarchy_{};
  TrafficProfile traffic_;  ///< the unit traffic both modes share
  InstrTable rows_;
  CoalescedAccess access_;  ///< cached runs: the record being replayed, coalesced
  CoalesceMemo memo_;       ///< cached runs: per instruction row, the last strided shape
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
