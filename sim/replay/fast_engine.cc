#include "sim/replay/fast_engine.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include <spdlog/spdlog.h>

#include "sim/core/error.h"
#include "sim/host/state_arena.h"
#include "sim/host/thread_team.h"
#include "sim/replay/fast/coalesce_ahead.h"
#include "sim/replay/fast/l1_stage.h"
#include "sim/replay/fast/memory_hierarchy.h"
#include "sim/replay/instr_table.h"
#include "sim/replay/kernel_frame.h"
#include "sim/replay/ordered_kernel.h"
#include "sim/replay/record_replay.h"
#include "sim/replay/trace_batches.h"
#include "trace/import/formats.h"
#include "trace/io/read_ahead.h"

namespace gms {

namespace {

/// Records per phase when several workers share it, or when another thread decodes them: a
/// phase's start and end cost a few microseconds, a batch's replay about a millisecond, and
/// fewer, larger hand-offs between cores.
constexpr std::size_t kBatchRecords = 4096;
/// Batches the reading thread may have ready: enough to keep it reading through a cached
/// replay's burst of L2 accesses (a window of them takes a few milliseconds); with 3 it waited,
/// and a reader-bound wtrace.zst stream replayed 7% slower.
constexpr std::size_t kReadAheadDepth = 8;
/// Records per batch read by one worker on its own thread: few enough (19 KiB) that the decoded
/// records are still in the core's L1 cache when they are replayed.
constexpr std::size_t kDirectRecords = 64;
/// The pipeline's windows double, window after window, up to this many times the first
/// (RunOptions::cached_batch_lines): longer windows replay more of each L2 slice at a time
/// (windows 4x as long replayed a cached random trace 1.3x as fast), while a kernel of few L2
/// accesses keeps short ones, the last of which waits for the kernel's end (with every window
/// 4x as long, a cached matrix product replayed 0.85x-0.89x as fast as one worker).
constexpr std::size_t kPipedWindowGrowth = 4;
/// ... once a kernel has closed this many windows: the longer windows' queues are fresh memory
/// (the 1 G cached stream's peak went from 33 to 58 MB), whose first touch cost a 0.3 s cached
/// Accel-Sim import 7% of its time (page clearing, `perf record`); a long replay pays it back.
constexpr std::size_t kWindowsBeforeGrowth = 16;
/// Records ahead of the replay whose cache lines one worker requests, when another thread
/// decoded them.
constexpr std::size_t kPrefetchRecords = 4;

/// Adds `from` to `into` element by element (`into` takes `from`'s size when empty).
void add_vector(std::vector<std::uint64_t>& into, const std::vector<std::uint64_t>& from) {
  if (into.empty()) into.assign(from.size(), 0);
  for (std::size_t i = 0; i < from.size(); ++i) into[i] += from[i];
}

/// Adds a worker's share of a kernel's statistics to the kernel's: every count is a sum.
void add_share(KernelStats& into, const KernelStats& from) {
  into.records += from.records;
  into.earlier_kernels_write_bytes += from.earlier_kernels_write_bytes;
  into.earlier_kernels_read_bytes += from.earlier_kernels_read_bytes;
  for (std::size_t r = 0; r < from.instructions.size(); ++r)
    into.instructions[r].c += from.instructions[r].c;
  add_vector(into.traffic.l2_slice_sectors, from.traffic.l2_slice_sectors);
  DramTraffic& d = into.traffic.dram;
  const DramTraffic& f = from.traffic.dram;
  add_vector(d.channel_bytes, f.channel_bytes);
  d.read_bytes += f.read_bytes;
  d.write_bytes += f.write_bytes;
  d.row_hits += f.row_hits;
  d.row_misses += f.row_misses;
  d.flush_write_bytes += f.flush_write_bytes;
  d.flush_read_bytes += f.flush_read_bytes;
}

void add_units(TrafficProfile& into, const TrafficProfile& from) {
  add_vector(into.sm_l1_sectors, from.sm_l1_sectors);
  add_vector(into.sm_l1_tag_lookups, from.sm_l1_tag_lookups);
  add_vector(into.sm_l1_data_wavefronts, from.sm_l1_data_wavefronts);
  add_vector(into.sm_shared_wavefronts, from.sm_shared_wavefronts);
  into.load_requests += from.load_requests;
}

/// The types of a run with the cached hierarchy.
template <ReplacementPolicy L1P, ReplacementPolicy L2Policy>
struct CachedRun {
  using Stage = L1Stage<L1P, L2Policy>;
  using StagePtr = std::unique_ptr<Stage>;
  using L2 = L2Cache<L2Policy>;
  using L2P = L2Policy;
};
/// ... and of a cold-only run.
struct ColdRun {
  using Stage = void;
  using StagePtr = int;
  using L2 = int;
  using L2P = void;
};

/// True when a cached replay takes its records in the warp scheduler's order (ordered_kernel.h)
/// rather than the file's.
bool ordered_replay(const RunOptions& opts) {
  return opts.mode != SimMode::Cold && opts.order != ReplayOrder::File;
}

/// The workers a replay takes: opts.threads where that is exact, else one. An ordered replay
/// takes one: its order comes from each record's replay, one after the other.
unsigned workers_for(const SimConfig& cfg, const RunOptions& opts) {
  return opts.threads > 1 && parallel_replay_exact(cfg) && !ordered_replay(opts) ? opts.threads : 1;
}

/// The fast engine's replay of a stream of kernels (fast_engine.h), `Run` one of the above.
template <class Run>
class FastReplayer {
  static constexpr bool kColdOnly = std::is_same_v<Run, ColdRun>;
  using Stage = typename Run::Stage;
  using L2P = typename Run::L2P;

  struct Worker {
    Worker(const SimConfig& cfg, typename Run::StagePtr s)
        : stage(std::move(s)), r(cfg, raw(stage)), charges(cfg.dram) {}
    static auto raw(const typename Run::StagePtr& p) {
      if constexpr (kColdOnly)
        return p;
      else
        return p.get();
    }

    typename Run::StagePtr stage;
    RecordReplay<Stage> r;  ///< its share of the kernel's statistics in r.cold, r.cached
    // Cached mode's L2 side: per window parity, the batch groups [first, end) whose accesses
    // that window routed to this worker (a group is a slice, or with partitions the slices at
    // one index in every partition). Fixed, but for the pipeline's balance (rebalance).
    L2DramCharges charges;
    SliceGroups groups;
    struct Owned {
      std::uint32_t first = 0, end = 0;
    };
    std::array<Owned, 2> owns;
    std::vector<std::uint32_t> run_cursor, bytes_cursor;  ///< per source worker, while merging
    // Cold replays that deal the trace's blocks (replay_blocks): the rows of the worker's own
    // records, numbered by first appearance in its share, and where in the file each appeared
    // first; the kernel's row of each, once merged.
    InstrTable rows;
    std::vector<std::uint64_t> first_at;
    std::vector<std::uint32_t> row_map;
  };

 public:
  FastReplayer(const SimConfig& cfg, const RunOptions& opts)
      : cfg_(cfg),
        opts_(opts),
        team_(workers_for(cfg, opts)),
        piped_(!kColdOnly && team_.size() == 2),
        sms_(cfg.gpu.sm_count),
        drain_lines_(std::max<std::size_t>(opts.cached_batch_lines, 1)),
        frame_(cfg, opts) {
    const unsigned n = team_.size();
    sm_owner_.resize(cfg.gpu.sm_count);
    for (std::uint32_t s = 0; s < cfg.gpu.sm_count; ++s) sm_owner_[s] = piped_ ? 0 : s % n;
    // One worker replays its L2 accesses as they come where batches are not exact, or not
    // wanted (cached_batch_lines 0); several always queue them (workers_for).
    // An ordered replay needs each record's L2 outcome before the next record's turn.
    const bool now = n == 1 && (!parallel_replay_exact(cfg) || opts.cached_batch_lines == 0 ||
                                ordered_replay(opts));
    if constexpr (!kColdOnly) {
      std::vector<L2P> policies;
      for (std::uint32_t s = 0; s < cfg.l2.slices; ++s)
        policies.push_back(make_policy<L2P>(cfg.l2.policy, cfg.l2.seed + s));
      l2_ = std::make_unique<typename Run::L2>(cfg.l2, policies, cfg.gpu.sm_count,
                                               std::make_unique<StateArena>());
      queues_.resize(std::size_t{2} * n * n);
      group_owner_.resize(l2_->batch_groups());
    }
    for (unsigned t = 0; t < n; ++t) {
      if constexpr (kColdOnly) {
        workers_.push_back(std::make_unique<Worker>(cfg, 0));
      } else {
        workers_.push_back(
            std::make_unique<Worker>(cfg, std::make_unique<Stage>(cfg, *l2_, group_owner_)));
        Worker& w = *workers_.back();
        if (now) w.stage->replay_now(&w.charges);
        w.stage->tag_records(n > 1 && !piped_);
        // Contiguous ranges: the slices' per-slice counters of two workers share a host cache
        // line at most at the ranges' edges. The pipeline starts with worker 1 owning them all.
        const std::uint64_t groups = l2_->batch_groups();
        const std::uint64_t first = piped_ ? 0 : groups * t / n;
        const std::uint64_t end = piped_ ? (t == 1 ? groups : 0) : groups * (t + 1) / n;
        w.owns[0] =
            w.owns[1] = {static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(end)};
        for (std::uint32_t g = w.owns[0].first; g < w.owns[0].end; ++g)
          group_owner_[g] = static_cast<std::uint16_t>(t);
        w.run_cursor.resize(n);
        w.bytes_cursor.resize(n);
      }
    }
  }

  void replay(trace::TraceReader& reader, std::vector<KernelStats>& out) {
    const unsigned n = team_.size();
    if constexpr (kColdOnly)
      if (n > 1)
        if (auto others = block_shares(reader); others.size() + 1 == n) {
          replay_blocks(reader, others, out);
          return;
        }
    // A cold replay's second thread parses where the reader can (an Accel-Sim text's blocks):
    // the one worker that reads emits records it did not parse. Not beside the pipeline, whose
    // two workers already share the cores: a cached import ran 1.05x as long with it.
    if constexpr (kColdOnly)
      if (n > 1) reader.parse_alongside();
    if constexpr (!kColdOnly)
      if (piped_) {
        // Read as one worker would: where decoding is dear, on a thread of its own.
        if (reads_ahead(opts_, reader, 1)) {
          trace::ReadAhead ahead(reader, kBatchRecords, kReadAheadDepth);
          replay_piped(ahead, out);
        } else {
          PartialStridedLanes partial(reader);
          DirectThenAhead source(reader, kDirectRecords, kBatchRecords, kReadAheadDepth,
                                 may_read_ahead(opts_, reader));
          worker1_waited_ = filled_ = {};  // this trace's, as the source's reading time
          replay_piped(source, out);
        }
        return;
      }
    // Cold workers that cannot deal the trace's blocks leave it to the first, as one worker
    // would replay it: splitting the SMs, two replayed a cold stream 0.77x-0.84x as fast as one.
    alone_ = n == 1 || kColdOnly;
    const unsigned sharing = alone_ ? 1 : n;
    if (reads_ahead(opts_, reader, sharing)) {
      // Several workers take records with partial strided lanes (completed where needed); one
      // takes them whole from the reading thread, which completes them beside the replay.
      std::optional<PartialStridedLanes> partial;
      if (sharing > 1) partial.emplace(reader);
      trace::ReadAhead ahead(reader, kBatchRecords, kReadAheadDepth);
      replay_from(ahead, out);
    } else {
      // Records read on the replay's thread come with partial strided lanes: a regular .gmt
      // stream's records mostly repeat a memoized shape.
      PartialStridedLanes partial(reader);
      DirectBatches direct{reader,
                           std::vector<WarpInstr>(sharing > 1 ? kBatchRecords : kDirectRecords)};
      replay_from(direct, out);
    }
  }

 private:
  template <class Batches>
  void replay_from(Batches& source, std::vector<KernelStats>& out) {
    // Records decoded on the reading thread arrive from the other core's cache.
    constexpr bool kFromOtherCore = std::is_same_v<Batches, trace::ReadAhead>;
    KernelInfo kernel;
    while (next_replayed_kernel(source, opts_, kernel)) {
      begin_kernel(kernel);
      if constexpr (!kColdOnly)
        if (ordered_replay(opts_)) ordered_.begin(kernel);
      for (auto batch = source.next_batch(); !batch.empty(); batch = source.next_batch()) {
        if constexpr (!kColdOnly)
          if (ordered_replay(opts_)) {
            // Rows are created in the file's order; the records wait for the kernel's end.
            for (const WarpInstr& record : batch) {
              row_of(record);
              ordered_.add(record, sm_of(record, sms_));
            }
            continue;
          }
        if (alone_) {
          // Alone: the phase is a call on this thread, which numbers each record as it replays
          // it (a separate numbering pass cost a cold stream 11% more instructions).
          Worker& w = *workers_[0];
          if constexpr (!kColdOnly) drain_l2(w, 0, parity_ ^ 1);
          replay_alone<kFromOtherCore>(w, batch);
        } else if constexpr (!kColdOnly) {
          replay_shared(batch);
        }
        window_records_ += batch.size();
        if constexpr (!kColdOnly)
          if (window_full()) {
            parity_ ^= 1;
            window_records_ = 0;
          }
      }
      end_kernel(out);
    }
  }

  /// Cold replays of several workers: a reader per other worker, each with its share of the
  /// trace's blocks (TraceReader::share_blocks, `reader` the first share); none where the trace
  /// cannot be dealt so.
  std::vector<std::unique_ptr<trace::TraceReader>> block_shares(trace::TraceReader& reader) {
    const unsigned n = team_.size();
    std::vector<std::unique_ptr<trace::TraceReader>> others;
    if (!reader.share_blocks(0, n)) return others;
    for (unsigned t = 1; t < n; ++t) {
      others.push_back(open_run_trace(reader.source_name(), opts_));
      if (!others.back()->share_blocks(t, n)) {
        reader.share_blocks(0, 1);
        others.clear();
        break;
      }
    }
    return others;
  }

  /// A cold replay whose workers each read and replay their own blocks of the trace, kernel by
  /// kernel, with no hand-off between them: cold counts are sums, whatever the order (the cold
  /// model has no state that order changes where workers are exact: no DRAM row model). Each
  /// worker numbers the rows of its records; the kernel's rows are then numbered by where in
  /// the file each first appeared, as one worker would have (merge_share_rows). Of the errors
  /// the workers meet, the earliest in the file is raised, as one reader would have.
  void replay_blocks(trace::TraceReader& first,
                     std::vector<std::unique_ptr<trace::TraceReader>>& others,
                     std::vector<KernelStats>& out) {
    const unsigned n = team_.size();
    std::vector<trace::TraceReader*> readers{&first};
    for (auto& r : others) readers.push_back(r.get());
    std::vector<std::unique_ptr<PartialStridedLanes>> partial;
    std::vector<std::vector<WarpInstr>> batches(n, std::vector<WarpInstr>(kDirectRecords));
    for (trace::TraceReader* r : readers)
      partial.push_back(std::make_unique<PartialStridedLanes>(*r));
    std::vector<KernelInfo> kernels(n);
    std::vector<char> more(n);
    std::vector<std::exception_ptr> errors(n);
    std::vector<std::uint64_t> error_at(n);
    auto guarded = [&](unsigned t, auto&& step) {
      try {
        step();
      } catch (...) {
        errors[t] = std::current_exception();
        error_at[t] = readers[t]->records_passed();
      }
    };
    auto raise_earliest = [&] {
      unsigned earliest = n;
      for (unsigned t = 0; t < n; ++t)
        if (errors[t] && (earliest == n || error_at[t] < error_at[earliest])) earliest = t;
      if (earliest != n) std::rethrow_exception(errors[earliest]);
    };
    for (;;) {
      auto advance = [&](unsigned t) {
        guarded(t, [&] { more[t] = readers[t]->next_kernel(kernels[t]); });
      };
      team_.run(advance);
      raise_earliest();
      for (unsigned t = 1; t < n; ++t)
        if (more[t] != more[0] || (more[0] && kernels[t].id != kernels[0].id))
          fail("{}: the file changed while it was read", first.source_name());
      if (!more[0]) return;
      if (!replays_kernel(opts_, kernels[0].id)) continue;
      begin_kernel(kernels[0]);
      auto share = [&](unsigned t) {
        guarded(t, [&] { replay_share(*workers_[t], *readers[t], batches[t]); });
      };
      team_.run(share);
      raise_earliest();
      merge_share_rows();
      sum_shares(out);
    }
  }

  /// Worker w's records of the kernel from its share of the blocks, and its cold model's end of
  /// the kernel. Out of line and flattened, as replay_alone.
  [[gnu::noinline, gnu::flatten]] void replay_share(Worker& w, trace::TraceReader& reader,
                                                    std::vector<WarpInstr>& batch) {
    w.rows = InstrTable();
    w.first_at.clear();
    for (std::size_t n; (n = reader.read(batch)) != 0;) {
      const std::uint64_t first = reader.records_passed() - n;
      for (std::size_t i = 0; i < n; ++i) {
        bool created = false;
        const std::uint32_t r = w.rows.row(batch[i], created);
        if (created) [[unlikely]]
          add_share_row(w, batch[i], first + i);
        w.r.add(batch[i], r, sm_of(batch[i], sms_));
      }
    }
    w.r.cold_model.end_kernel(*w.r.cold, w.r.traffic);
  }
  [[gnu::noinline]] static void add_share_row(Worker& w, const WarpInstr& record,
                                              std::uint64_t at) {
    w.r.add_row(record);
    w.first_at.push_back(at);
  }

  /// The kernel's rows in order of first appearance in the file, each worker's counters moved
  /// to them.
  void merge_share_rows() {
    struct First {
      std::uint64_t at;
      std::uint32_t worker, row;
    };
    std::vector<First> firsts;
    for (std::uint32_t t = 0; t < workers_.size(); ++t) {
      Worker& w = *workers_[t];
      w.row_map.assign(w.first_at.size(), 0);
      for (std::uint32_t row = 0; row < w.first_at.size(); ++row)
        firsts.push_back({w.first_at[row], t, row});
    }
    std::sort(firsts.begin(), firsts.end(),
              [](const First& a, const First& b) { return a.at < b.at; });
    for (const First& f : firsts) {
      Worker& w = *workers_[f.worker];
      const InstrStats& local = w.r.cold->instructions[f.row];
      WarpInstr key;
      key.inst = local.inst;
      key.op = local.op;
      key.size = local.size;
      bool created = false;
      w.row_map[f.row] = frame_.row(key, segment_bytes(), created);
    }
    for (auto& worker : workers_) {
      std::vector<InstrStats> rows = frame_.cold->instructions;  // no counts yet
      const std::vector<InstrStats>& local = worker->r.cold->instructions;
      for (std::size_t row = 0; row < local.size(); ++row)
        rows[worker->row_map[row]].c += local[row].c;
      worker->r.cold->instructions = std::move(rows);
    }
  }

  /// The pipeline of two workers, a window per phase: worker 0 reads and replays every record
  /// (its L1 side) until the window's queues hold a batch of L2 accesses or the kernel ends;
  /// worker 1 meanwhile replays the previous window's L2 accesses. Each unit still sees its
  /// accesses in trace order, and the rows a window creates reach worker 1 before its L2
  /// accesses do (sync_rows, between phases).
  template <class Batches>
  void replay_piped(Batches& source, std::vector<KernelStats>& out) {
    KernelInfo kernel;
    while (next_replayed_kernel(source, opts_, kernel)) {
      begin_kernel(kernel);
      for (bool more = true; more;) {
        sync_rows();
        using Clock = std::chrono::steady_clock;
        Clock::duration drained[2]{}, filled{}, waited{};
        auto phase = [&](unsigned t) {
          const Clock::time_point start = Clock::now();
          drain_l2(*workers_[t], t, parity_ ^ 1);
          drained[t] = Clock::now() - start;
          if (t != 0) return;
          const Clock::duration waited_before = source.waited();
          more = fill_window(source, *workers_[0]);
          filled = Clock::now() - start - drained[0];
          waited = source.waited() - waited_before;
        };
        team_.run(phase);
        parity_ ^= 1;
        window_records_ = 0;
        if (++windows_ >= kWindowsBeforeGrowth)
          window_lines_ = std::min(2 * window_lines_, kPipedWindowGrowth * drain_lines_);
        rebalance(drained[0] + drained[1], filled, waited);
        if constexpr (std::is_same_v<Batches, DirectThenAhead>)
          if (more) choose_reading(source, drained[0] + filled, drained[1], waited);
      }
      sync_rows();
      end_kernel(out);
      if (coalesce_ahead_)
        spdlog::debug(
            "pipeline: kernel {} ended with the reading thread coalescing {}/{} of each batch",
            kernel.id, coalesce_ahead_->share(), CoalesceAhead::kWhole);
    }
  }

  /// The pipeline's balance, between phases: worker 0 fills a window in `fill` while the two
  /// replay the previous one's L2 accesses in `drain` together; the next window gives worker 0
  /// the share of the batch groups that would have ended both at once (half the difference, and
  /// none where filling alone takes longer), moving half way there. Where worker 0 spent longer
  /// than the whole drain waiting for a reading thread (`waited`), it takes every group: the
  /// trace is read slower than it is replayed, and worker 1 would only take a core from the
  /// reading thread (a cached Accel-Sim import, mostly parsing, replayed 0.89x-0.92x as fast as
  /// one worker so). Which worker replays a group changes nothing but the time: each window's
  /// accesses go to the owners of its routing (Worker::owns), and one window is replayed before
  /// the next.
  template <class Duration>
  void rebalance(Duration drain, Duration fill, Duration waited) {
    const auto groups = static_cast<std::uint32_t>(group_owner_.size());
    std::uint32_t mine = workers_[0]->owns[parity_ ^ 1].end;
    if (opts_.cycle_pipeline_shares) {
      mine = (mine + 1) % (groups + 1);
    } else if (waited > drain) {
      mine = (mine + groups + 1) / 2;
    } else if (drain.count() > 0) {
      const double share = std::clamp(
          (1.0 - static_cast<double>(fill.count()) / static_cast<double>(drain.count())) / 2, 0.0,
          1.0);
      const auto target = static_cast<std::uint32_t>(share * groups + 0.5);
      mine = (mine + target + (target > mine ? 1 : 0)) / 2;
    }
    std::fill(group_owner_.begin(), group_owner_.begin() + mine, std::uint16_t{0});
    std::fill(group_owner_.begin() + mine, group_owner_.end(), std::uint16_t{1});
    workers_[0]->owns[parity_] = {0, mine};
    workers_[1]->owns[parity_] = {mine, groups};
  }

  /// The pipeline's reading, between the phases of a trace read on worker 0's thread: worker 1
  /// waits for worker 0 whenever filling a window (with worker 0's drain, `busy0`) outlasts its
  /// own drain (`busy1`). Where that waiting, over the phases that drained a window, exceeds
  /// twice worker 0's reading and the reading is at least a tenth of the filling, the rest of
  /// the trace is read on a thread of its own, on the core worker 1 leaves idle: a cached matrix
  /// product, whose L2 is 3% of its work, moves from window 2 and replays in 0.88x-0.93x the
  /// time (bench/RESULTS.md). A stream, whose worker 1 is as busy as worker 0, does not move: read
  /// on a thread from the start it replayed 1.14x slower (its records from the other core's
  /// cache cost more than decoding them).
  template <class Duration>
  void choose_reading(DirectThenAhead& source, Duration busy0, Duration busy1, Duration waited) {
    if (source.reading_ahead()) {
      share_coalescing(busy0, waited);
      return;
    }
    if (!source.may_move()) return;
    if (opts_.pipeline_reads_ahead_at != 0) {
      if (windows_ == opts_.pipeline_reads_ahead_at) move_reading(source);
      return;
    }
    if (windows_ < 2) return;  // the kernel's first phase had nothing to drain
    worker1_waited_ += std::max(busy0 - busy1, Duration{});
    filled_ += busy0;
    const auto reading = source.decoding();
    if (worker1_waited_ > 2 * reading && 10 * reading >= filled_) {
      using Ms = std::chrono::duration<double, std::milli>;
      spdlog::debug(
          "pipeline: the trace read on a thread of its own from window {} (worker 1 waited {:.1f} "
          "ms, worker 0 read for {:.1f} ms and filled for {:.1f} ms)",
          windows_, Ms(worker1_waited_).count(), Ms(reading).count(), Ms(filled_).count());
      move_reading(source);
    }
  }

  /// Once the reading has moved: where worker 0 waited for the reading thread for more than
  /// 1/64 of its phase (`busy0`), the reading thread coalesces a sixteenth of each batch less,
  /// else a sixteenth more; the share settles where the reading thread just keeps ahead.
  template <class Duration>
  void share_coalescing(Duration busy0, Duration waited) {
    const std::uint32_t share = coalesce_ahead_->share();
    if (opts_.pipeline_reads_ahead_at != 0)  // tests: every share from none to all, in turn
      coalesce_ahead_->set_share((share + 5) % (CoalesceAhead::kWhole + 1));
    else if (64 * waited > busy0)
      coalesce_ahead_->set_share(share == 0 ? 0 : share - 1);
    else
      coalesce_ahead_->set_share(share + 1);
  }

  /// The trace read, and its records coalesced, on a thread of its own from the next batch on.
  void move_reading(DirectThenAhead& source) {
    coalesce_ahead_.emplace(cfg_.coalescer, source.slots());
    source.read_ahead_now([this](std::span<WarpInstr> batch, std::size_t slot) {
      coalesce_ahead_->prepare(batch, slot);
    });
  }

  /// Worker 0's part of a piped phase: batches until the window closes (true) or the kernel
  /// ends (false).
  template <class Batches>
  bool fill_window(Batches& source, Worker& w) {
    if constexpr (std::is_same_v<Batches, DirectThenAhead>)
      if (source.reading_ahead()) return fill_window_from<true, true>(source, w);
    return fill_window_from<std::is_same_v<Batches, trace::ReadAhead>, false>(source, w);
  }
  template <bool kFromOtherCore, bool kCoalesced, class Batches>
  bool fill_window_from(Batches& source, Worker& w) {
    for (auto batch = source.next_batch(); !batch.empty(); batch = source.next_batch()) {
      if constexpr (kCoalesced)
        replay_alone<true, true>(w, batch, source.batch_slot());
      else
        replay_alone<kFromOtherCore>(w, batch);
      window_records_ += batch.size();
      if (window_full()) return true;
    }
    return false;
  }

  /// Brings every worker's rows up to the kernel's (piped, worker 0 adds rows while the others
  /// replay; they take them between phases).
  void sync_rows() {
    for (std::size_t t = 1; t < workers_.size(); ++t) {
      RecordReplay<Stage>& r = workers_[t]->r;
      for (auto [mine, all] :
           {std::pair{&r.cold, &frame_.cold}, std::pair{&r.cached, &frame_.cached}}) {
        if (!*all) continue;
        auto& rows = (*mine)->instructions;
        const auto& template_rows = (*all)->instructions;
        rows.insert(rows.end(), template_rows.begin() + static_cast<std::ptrdiff_t>(rows.size()),
                    template_rows.end());
      }
    }
  }

  void begin_kernel(const KernelInfo& kernel) {
    frame_.begin(kernel);
    window_lines_ = drain_lines_;
    windows_ = 0;
    for (auto& worker : workers_) {
      RecordReplay<Stage>& r = worker->r;
      r.cold = frame_.cold ? std::make_optional<KernelStats>() : std::nullopt;
      r.cached = frame_.cached ? std::make_optional<KernelStats>() : std::nullopt;
      r.traffic = zero_units(cfg_.gpu.sm_count);
      if (frame_.cold) r.cold_model.begin_kernel();
      if constexpr (!kColdOnly)
        if (frame_.cached) {
          worker->stage->begin_kernel(frame_.placement().l1_bytes);
          worker->charges.stats = &*r.cached;
          ++worker->charges.kernel_seq;
        }
    }
  }

  /// Record w's row, added to the kernel's and every worker's statistics when new.
  [[gnu::always_inline]] std::uint32_t row_of(const WarpInstr& w) {
    bool created = false;
    const std::uint32_t r = frame_.row(w, segment_bytes(), created);
    if (created) [[unlikely]]
      add_worker_rows(w);
    return r;
  }
  /// A row's transaction size: the coalescer's (looked up only for a new row).
  auto segment_bytes() const {
    return [this](Op op) { return workers_[0]->r.coalescer.segment_bytes(op); };
  }
  [[gnu::noinline]] void add_worker_rows(const WarpInstr& w) {
    if (piped_)
      workers_[0]->r.add_row(w);  // the others' come between phases (sync_rows)
    else
      for (auto& worker : workers_) worker->r.add_row(w);
  }

  /// A phase of several workers: the batch numbered on this thread, then each worker's share.
  /// Out of line, as replay_alone.
  [[gnu::noinline]] void replay_shared(std::span<WarpInstr> batch) {
    number(batch);
    auto phase = [&](unsigned t) {
      Worker& w = *workers_[t];
      if constexpr (!kColdOnly) drain_l2(w, t, parity_ ^ 1);
      replay_records(w, t, batch);
    };
    team_.run(phase);
  }

  /// Before a phase, on this thread: each record's row, SM and worker.
  void number(std::span<WarpInstr> batch) {
    rows_of_.resize(batch.size());
    sm_of_.resize(batch.size());
    owner_of_.resize(batch.size());
    for (std::size_t i = 0; i < batch.size(); ++i) {
      rows_of_[i] = row_of(batch[i]);
      sm_of_[i] = sm_of(batch[i], sms_);
      owner_of_[i] = sm_owner_[sm_of_[i]];
    }
  }

  /// The only worker's phase: every record, numbered as it comes, in trace order. Out of line
  /// (a call per batch): the record loop gets the compiler's whole inlining budget, which the
  /// kernel loop around it, with its several instantiations, would otherwise share.
  /// kCoalesced: the batch of slot `slot`, coalesced on the reading thread (coalesce_ahead_).
  template <bool kFromOtherCore, bool kCoalesced = false>
  [[gnu::noinline, gnu::flatten]] void replay_alone(Worker& w, std::span<WarpInstr> batch,
                                                    std::size_t slot = 0) {
    if constexpr (!kColdOnly) w.stage->target(&queue(parity_, 0, 0));
    [[maybe_unused]] std::size_t coalesced = 0;
    if constexpr (kCoalesced) coalesced = coalesce_ahead_->coalesced(slot);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      // Records decoded on the reading thread arrive from the other core's cache: request a few
      // ahead (296 bytes each) so that the transfers overlap the replay. Of a record coalesced
      // there, only the fields before its addresses are read here.
      if (kFromOtherCore && i + kPrefetchRecords < batch.size()) {
        const char* next = reinterpret_cast<const char*>(&batch[i + kPrefetchRecords]);
        const std::size_t bytes = kCoalesced && i + kPrefetchRecords < coalesced
                                      ? offsetof(WarpInstr, addr)
                                      : sizeof(WarpInstr);
        for (std::size_t b = 0; b < bytes; b += 64) __builtin_prefetch(next + b);
      }
      if constexpr (!kColdOnly)
        w.stage->set_record(static_cast<std::uint32_t>(window_records_ + i));
      if constexpr (kCoalesced) {
        if (i < coalesced && is_global_access(batch[i].op)) {
          coalesce_ahead_->take(slot, i, w.r.access);
          w.r.add_access(batch[i], row_of(batch[i]), sm_of(batch[i], sms_));
          continue;
        }
      }
      w.r.add(batch[i], row_of(batch[i]), sm_of(batch[i], sms_));
    }
  }

  /// Worker t's share of a phase's records: those of its SMs, in trace order.
  void replay_records(Worker& w, unsigned t, std::span<WarpInstr> batch) {
    if constexpr (!kColdOnly) w.stage->target(&queue(parity_, t, 0));
    for (std::size_t i = 0; i < batch.size(); ++i) {
      if (owner_of_[i] != t) continue;
      if constexpr (!kColdOnly)
        w.stage->set_record(static_cast<std::uint32_t>(window_records_ + i));
      w.r.add(batch[i], rows_of_[i], sm_of_[i]);
    }
  }

  /// The window's queues are replayed in the next phase once they hold a batch of L2 accesses
  /// (fewer measured slower) or their record numbers approach 32 bits.
  bool window_full() {
    return queued(parity_) >= window_lines_ || window_records_ >= (std::size_t{1} << 30);
  }

  /// The L2 accesses in the queues of `parity`.
  std::size_t queued(unsigned parity) {
    std::size_t total = 0;
    for (unsigned from = 0; from < team_.size(); ++from)
      for (unsigned to = 0; to < team_.size(); ++to)
        total += queue(parity, from, to).entries.size();
    return total;
  }

  /// Worker t replays the L2 accesses queued for its slices in the queues of `from_parity`:
  /// merged back into trace order by record, one slice at a time.
  void drain_l2(Worker& w, unsigned t, unsigned from_parity) {
    const unsigned n = team_.size();
    const auto [first, end] = w.owns[from_parity];
    w.groups.reset(first, end - first);
    std::size_t total = 0;
    for (unsigned s = 0; s < n; ++s) {
      const L2Queue& q = queue(from_parity, s, t);
      for (const QueuedAccess& e : q.entries) w.groups.count(e.slice);
      total += q.entries.size();
    }
    if (total == 0) return;
    w.groups.close();
    if (n == 1 || piped_)
      place_in_order(w, queue(from_parity, 0, t));  // one source: its queue is in trace order
    else
      merge(w, t, from_parity);
    w.groups.replay(*l2_, w.r.cached->instructions, w.charges.kernel_seq, w.charges);
    for (unsigned s = 0; s < n; ++s) queue(from_parity, s, t).clear();
  }

  static constexpr ByteMasks kNoBytes{};

  /// Places the accesses of one queue in trace order, as they are.
  static void place_in_order(Worker& w, const L2Queue& q) {
    std::size_t bytes = 0;
    for (const QueuedAccess& e : q.entries)
      w.groups.place(e, writes_l2(e.kind) ? q.write_bytes[bytes++] : kNoBytes);
  }

  /// Places the accesses of the queues of `from_parity` for worker t, merged by record: the
  /// source whose next run is the earliest record first (records of different sources differ).
  void merge(Worker& w, unsigned t, unsigned from_parity) {
    const unsigned n = team_.size();
    std::fill(w.run_cursor.begin(), w.run_cursor.end(), 0);
    std::fill(w.bytes_cursor.begin(), w.bytes_cursor.end(), 0);
    for (;;) {
      unsigned best = n;
      std::uint32_t best_record = 0;
      for (unsigned s = 0; s < n; ++s) {
        const L2Queue& q = queue(from_parity, s, t);
        if (w.run_cursor[s] == q.runs.size()) continue;
        const std::uint32_t record = q.runs[w.run_cursor[s]].record;
        if (best == n || record < best_record) {
          best = s;
          best_record = record;
        }
      }
      if (best == n) return;
      const L2Queue& q = queue(from_parity, best, t);
      const std::size_t run = w.run_cursor[best]++;
      const std::size_t end = run + 1 < q.runs.size() ? q.runs[run + 1].begin : q.entries.size();
      for (std::size_t k = q.runs[run].begin; k < end; ++k) {
        const QueuedAccess& e = q.entries[k];
        w.groups.place(e, writes_l2(e.kind) ? q.write_bytes[w.bytes_cursor[best]++] : kNoBytes);
      }
    }
  }

  /// Worker t's end of the kernel: its last L2 accesses, its slices flushed (unless the L2
  /// persists), its cold model's deferred charges, its DRAM traffic.
  void end_share(Worker& w, unsigned t) {
    if (frame_.cold) w.r.cold_model.end_kernel(*w.r.cold, w.r.traffic);
    if constexpr (!kColdOnly) {
      if (!frame_.cached) return;
      drain_l2(w, t, parity_ ^ 1);  // the older queues first
      drain_l2(w, t, parity_);
      w.charges.flushing = true;
      // The groups of the last window, the latest routing (drained above: the flush follows).
      const auto [mine, end] = w.owns[parity_ ^ 1];
      if (!cfg_.l2.persist_across_kernels)
        for (std::uint32_t first = 0; first < cfg_.l2.slices; first += l2_->batch_groups())
          l2_->flush(w.charges, /*keep=*/false, first + mine, first + end);
      w.charges.flushing = false;
      w.r.cached->traffic.dram = w.charges.dram.finish();
      w.charges.stats = nullptr;
    }
  }

  /// Every worker's end of the kernel (end_share), then the shares summed in worker order and
  /// the kernel finished.
  void end_kernel(std::vector<KernelStats>& out) {
    if constexpr (!kColdOnly)
      if (ordered_replay(opts_)) replay_ordered();
    auto last = [&](unsigned t) { end_share(*workers_[t], t); };
    team_.run(last);
    sum_shares(out);
  }

  /// The workers' shares of the kernel summed in worker order, and the kernel finished.
  void sum_shares(std::vector<KernelStats>& out) {
    window_records_ = 0;
    for (auto& worker : workers_) {
      if (frame_.cold) add_share(*frame_.cold, *worker->r.cold);
      if (frame_.cached) add_share(*frame_.cached, *worker->r.cached);
      add_units(frame_.units, worker->r.traffic);
    }
    if constexpr (!kColdOnly)
      if (frame_.cached) take_l2_traffic(*l2_, *frame_.cached);
    frame_.finish(out);
  }

  /// An ordered replay's kernel, at its end: the records, by the only worker, in the warp
  /// scheduler's order, each one's use of the memory measured from what its replay counted.
  void replay_ordered() {
    Worker& w = *workers_[0];
    RecordReplay<Stage>& r = w.r;
    const bool partitioned = cfg_.l2.partitions > 1;
    std::uint64_t far_before = l2_->far_hit_sectors();
    auto replay_one = [&](WarpInstr& record, std::uint32_t sm) {
      const std::uint32_t row = row_of(record);
      const AccessCounters before = r.cached->instructions[row].c;
      const std::uint64_t dram = w.charges.dram.bytes();
      const TrafficProfile& u = r.traffic;
      const std::uint64_t data = u.sm_l1_data_wavefronts[sm], shared = u.sm_shared_wavefronts[sm],
                          tags = u.sm_l1_tag_lookups[sm];
      r.add(record, row, sm);
      const double pipe =
          l1_pipe_cycles(cfg_, u.sm_l1_data_wavefronts[sm] - data,
                         u.sm_shared_wavefronts[sm] - shared, u.sm_l1_tag_lookups[sm] - tags);
      const AccessCounters& after = r.cached->instructions[row].c;
      // Far hits are L2 hits (the sum over the slices only then, and only with partitions).
      std::uint64_t far = 0;
      if (partitioned && after.l2_read_sector_hits != before.l2_read_sector_hits)
        far = l2_->far_hit_sectors() - far_before;
      far_before += far;
      return record_use(record.op, before, after, far, w.charges.dram.bytes() - dram, pipe);
    };
    const bool timed = opts_.order == ReplayOrder::Timed;
    frame_.cached->schedule = ordered_.replay(
        cfg_, frame_.cached->kernel, frame_.placement().resident_ctas_per_sm, timed, replay_one);
    frame_.cached->schedule.timed = timed;
  }

  L2Queue& queue(unsigned parity, unsigned from, unsigned to) {
    const std::size_t n = team_.size();
    return queues_[(parity * n + from) * n + to];
  }

  const SimConfig& cfg_;
  const RunOptions& opts_;
  ThreadTeam team_;
  /// Two workers as a pipeline (cached runs): worker 0 reads the trace and replays every SM's
  /// records and L1 for one window while worker 1 replays the previous window's L2 accesses.
  bool piped_;
  /// The pipeline may hand the trace's reading to a thread of its own (choose_reading): what it
  /// measured so far of this trace, over the phases that drained a window.
  std::chrono::steady_clock::duration worker1_waited_{}, filled_{};
  std::optional<CoalesceAhead> coalesce_ahead_;  ///< once moved, the reading thread's coalescing
  /// This trace's records are all replayed by worker 0 (one worker, or cold workers that cannot
  /// deal the trace's blocks).
  bool alone_ = true;
  FastDiv32 sms_;
  std::unique_ptr<typename Run::L2> l2_;    ///< cached mode's, shared by the workers
  std::vector<std::uint16_t> group_owner_;  ///< per batch group of L2 slices: its worker
  std::vector<std::uint32_t> sm_owner_;     ///< per SM: its worker
  std::vector<L2Queue> queues_;             ///< [window parity][from worker][to worker]
  unsigned parity_ = 0;                     ///< the queues this phase's records fill
  std::size_t window_records_ = 0;          ///< records queued into them so far
  std::size_t drain_lines_;                 ///< L2 accesses that close a kernel's first window
  std::size_t window_lines_ = 0;            ///< ... and this one (the pipeline's grow)
  std::size_t windows_ = 0;                 ///< the kernel's windows closed so far
  std::vector<std::unique_ptr<Worker>> workers_;
  KernelFrame frame_;  ///< the current kernel: its statistics (the workers' sums), rows, placement
  OrderedKernel ordered_;  ///< an ordered replay's kernel (ordered_replay)
  std::vector<std::uint32_t> rows_of_, sm_of_, owner_of_;  ///< per record of the batch
};

template <class F>
std::vector<KernelStats> run_fast(const SimConfig& cfg, const RunOptions& opts, F feed) {
  std::vector<KernelStats> out;
  if (opts.mode == SimMode::Cold) {
    FastReplayer<ColdRun> r(cfg, opts);
    feed(r, out);
    return out;
  }
  with_policies(cfg, [&]<class L1P, class L2P>() {
    FastReplayer<CachedRun<L1P, L2P>> r(cfg, opts);
    feed(r, out);
  });
  return out;
}

}  // namespace

bool parallel_replay_exact(const SimConfig& cfg) {
  return l2_batches_exact(cfg);
}

std::vector<KernelStats> simulate_fast(trace::TraceReader& reader, const SimConfig& cfg,
                                       const RunOptions& opts) {
  return run_fast(cfg, opts, [&](auto& replayer, std::vector<KernelStats>& out) {
    replayer.replay(reader, out);
  });
}

std::vector<KernelStats> simulate_fast(const std::vector<std::string>& traces, const SimConfig& cfg,
                                       const RunOptions& opts) {
  return run_fast(cfg, opts, [&](auto& replayer, std::vector<KernelStats>& out) {
    for (const std::string& path : traces) {
      auto reader = open_run_trace(path, opts);
      replayer.replay(*reader, out);
    }
  });
}

}  // namespace gms
