#include "sim/replay/simulator.h"

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "sim/core/error.h"
#include "sim/model/charging.h"
#include "sim/model/coalescer.h"
#include "sim/model/placement.h"
#include "sim/model/smem_arbiter.h"
#include "sim/replay/fast/coalesce_memo.h"
#include "sim/replay/fast/cold_model.h"
#include "sim/replay/fast/memory_hierarchy.h"
#include "sim/replay/instr_table.h"
#include "sim/replay/kernel_results.h"
#include "sim/replay/onepass/engine.h"
#include "sim/replay/parallel_engine.h"
#include "sim/replay/record_replay.h"
#include "sim/replay/reference_engine.h"
#include "sim/replay/thread_choice.h"
#include "sim/replay/trace_batches.h"
#include "trace/import/formats.h"
#include "trace/io/read_ahead.h"

namespace gms {

namespace {

/// Records per batch handed from the reading thread (large: fewer hand-offs between cores).
constexpr std::size_t kReadAheadRecords = 4096;
/// Batches the reading thread may have ready: enough to keep it reading through a cached
/// replay's burst of L2 accesses (a batch of them, sim/replay/fast/line_batch.h, takes a few
/// milliseconds); with 3 it waited, and a reader-bound wtrace.zst stream replayed 7% slower.
constexpr std::size_t kReadAheadDepth = 8;
/// Records per batch read on the replay's own thread: few enough (19 KiB) that the decoded
/// records are still in the core's L1 cache when they are replayed.
constexpr std::size_t kDirectRecords = 64;
/// Records ahead of the replay whose cache lines it requests, when another thread decoded them.
constexpr std::size_t kPrefetchRecords = 4;

/// Replays a stream of kernels through the model's sinks (RecordReplay): the cold model for cold
/// mode, the cached hierarchy (`Hierarchy`, a MemoryHierarchy instantiation, or void for a
/// cold-only run) for cached mode, on this thread.
template <class Hierarchy>
class Replayer {
  static constexpr bool kColdOnly = std::is_void_v<Hierarchy>;

 public:
  Replayer(const SimConfig& cfg, const RunOptions& opts)
      : cfg_(cfg),
        opts_(opts),
        sms_(cfg.gpu.sm_count),
        hierarchy_(make_hierarchy(cfg, opts)),
        r_(cfg, hierarchy_ptr()) {}

  void replay(trace::TraceReader& reader, std::vector<KernelStats>& out) {
    if (reads_ahead(opts_, reader, 1)) {
      trace::ReadAhead ahead(reader, kReadAheadRecords, kReadAheadDepth);
      replay_from(ahead, out);
    } else {
      // Records replayed on this thread may come with partial strided lanes (completed where
      // they are needed): a regular .gmt stream's records mostly repeat a memoized shape.
      PartialStridedLanes partial(reader);
      DirectBatches direct{reader, std::vector<WarpInstr>(kDirectRecords)};
      replay_from(direct, out);
    }
  }

 private:
  static auto make_hierarchy(const SimConfig& cfg, const RunOptions& opts) {
    if constexpr (kColdOnly)
      return 0;
    else
      return std::make_unique<Hierarchy>(cfg, opts.cached_batch_lines);
  }
  auto hierarchy_ptr() {
    if constexpr (kColdOnly)
      return 0;
    else
      return hierarchy_.get();
  }

  template <class Batches>
  void replay_from(Batches& source, std::vector<KernelStats>& out) {
    constexpr bool kFromOtherCore = std::is_same_v<Batches, trace::ReadAhead>;
    KernelInfo kernel;
    while (source.next_kernel(kernel)) {
      if (!replays_kernel(opts_, kernel.id)) continue;
      start_kernel(kernel, cfg_, opts_, r_.cold, r_.cached, r_.traffic);
      rows_ = InstrTable();
      if (r_.cold) r_.cold_model.begin_kernel();
      if constexpr (!kColdOnly)
        if (r_.cached) hierarchy_->begin_kernel(*r_.cached);
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
      if (r_.cold) r_.cold_model.end_kernel(*r_.cold, r_.traffic);
      if constexpr (!kColdOnly)
        if (r_.cached) hierarchy_->end_kernel();
      finish_kernel(r_.cold, r_.cached, r_.traffic, cfg_, opts_, out);
    }
  }

  /// Replays one record: its row (added to the statistics when new), then RecordReplay::add.
  [[gnu::always_inline]] void add(WarpInstr& w) {
    bool created = false;
    const std::uint32_t r = rows_.row(w, created);
    if (created) r_.add_row(w);
    r_.add(w, r, sm_of(w, sms_));
  }

  const SimConfig& cfg_;
  const RunOptions& opts_;
  FastDiv32 sms_;
  std::conditional_t<kColdOnly, int, std::unique_ptr<Hierarchy>> hierarchy_;
  RecordReplay<Hierarchy> r_;
  InstrTable rows_;
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

/// The engine and thread count of one configuration's replay: the dispatcher's one choice.
RunOptions resolved(const SimConfig& cfg, const RunOptions& opts,
                    const std::vector<std::string>& traces) {
  RunOptions r = opts;
  if (r.engine == Engine::Auto) r.engine = Engine::Fast;
  r.threads = replay_threads(cfg, r, traces);
  return r;
}

}  // namespace

std::vector<KernelStats> simulate(trace::TraceReader& reader, const SimConfig& cfg,
                                  const RunOptions& options) {
  const RunOptions opts = resolved(cfg, options, {});
  if (opts.engine == Engine::Reference) return simulate_reference(reader, cfg, opts);
  if (opts.engine == Engine::OnePass) return std::move(simulate_onepass(reader, {cfg}, opts)[0]);
  if (opts.threads > 1 && parallel_replay_exact(cfg)) return simulate_parallel(reader, cfg, opts);
  return run_with_replayer(cfg, opts, [&](auto& replayer, std::vector<KernelStats>& out) {
    replayer.replay(reader, out);
  });
}

std::vector<KernelStats> simulate(const std::vector<std::string>& traces, const SimConfig& cfg,
                                  const RunOptions& options) {
  const RunOptions opts = resolved(cfg, options, traces);
  if (opts.engine == Engine::Reference) return simulate_reference(traces, cfg, opts);
  if (opts.engine == Engine::OnePass) {
    auto chain = open_run_chain(traces, opts);
    return std::move(simulate_onepass(*chain, {cfg}, opts)[0]);
  }
  if (opts.threads > 1 && parallel_replay_exact(cfg)) return simulate_parallel(traces, cfg, opts);
  return run_with_replayer(cfg, opts, [&](auto& replayer, std::vector<KernelStats>& out) {
    for (const std::string& path : traces) {
      auto reader = open_run_trace(path, opts);
      replayer.replay(*reader, out);
    }
  });
}

std::vector<std::vector<KernelStats>> simulate_many(const std::vector<std::string>& traces,
                                                    const std::vector<SimConfig>& cfgs,
                                                    const RunOptions& opts) {
  const bool pass =
      opts.engine == Engine::OnePass ||
      (opts.engine == Engine::Auto && cfgs.size() > 1 && onepass_refusal(cfgs).empty());
  if (pass && !cfgs.empty()) {
    auto chain = open_run_chain(traces, opts);
    return simulate_onepass(*chain, cfgs, opts);
  }
  std::vector<std::vector<KernelStats>> out;
  out.reserve(cfgs.size());
  for (const SimConfig& cfg : cfgs) out.push_back(simulate(traces, cfg, opts));
  return out;
}

}  // namespace gms
