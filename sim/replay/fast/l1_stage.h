#pragma once
/// Cached mode's L1 side of one worker of the fast engine (sim/replay/fast_engine.h): the L1s of
/// the SMs the worker owns. What goes on to L2 is queued, tagged with the record's place in the
/// replay's window, for the worker that owns the line's slice (L2Queue), or, where batches are
/// not exact or not wanted, replayed in the L2 at once (one worker only).

#include <cstdint>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/records.h"
#include "sim/core/stats.h"
#include "sim/model/charging.h"
#include "sim/model/coalescer.h"
#include "sim/model/l2_cache.h"
#include "sim/replay/fast/append_buffer.h"
#include "sim/replay/fast/line_batch.h"
#include "sim/replay/fast/memory_hierarchy.h"

namespace gms {

/// The L2 accesses one worker queued in one window for one worker's slices (possibly its own), in
/// trace order, in runs by record (a record's lines are queued together: it has one SM, so one
/// worker).
struct L2Queue {
  struct Run {
    std::uint32_t record;  ///< the record's place in its window
    std::uint32_t begin;   ///< its first entry
  };
  AppendBuffer<QueuedAccess> entries;
  AppendBuffer<ByteMasks> write_bytes;  ///< the byte masks of the entries that write, in order
  AppendBuffer<Run> runs;

  void clear() {
    entries.clear();
    write_bytes.clear();
    runs.clear();
  }
};

template <ReplacementPolicy L1P, ReplacementPolicy L2P>
class L1Stage {
 public:
  /// `group_owner`: per batch group of L2 slices (L2Cache::batch_group_of), the worker that owns
  /// it, whose queue its accesses go to.
  L1Stage(const SimConfig& cfg, L2Cache<L2P>& l2, const std::vector<std::uint16_t>& group_owner)
      : cfg_(cfg), l1s_(cfg), l2_(l2), group_owner_(group_owner) {}

  void begin_kernel(std::uint64_t l1_bytes) { l1s_.begin_kernel(l1_bytes); }

  /// The queues (one per worker) the next accesses go to.
  void target(L2Queue* queues) { queues_ = queues; }
  /// Replays every L2 access at once, its DRAM traffic to `charges`, instead of queueing it (the
  /// only worker, where batches are not exact: line_batch.h).
  void replay_now(L2DramCharges* charges) { now_ = charges; }
  /// The number, in the queues' window, of the record whose accesses come next.
  void set_record(std::uint32_t record) { record_ = record; }
  /// Whether queued accesses are tagged with their record (L2Queue::runs): needed where a worker
  /// merges several workers' queues; the only worker's queue is in trace order already.
  void tag_records(bool tag) { tag_ = tag; }

  /// One global, local or atomic warp instruction `w` on SM `sm` whose lines are `a`, charging
  /// row `row` (whose counters are `c`): its L1 lookups, then its L2 accesses queued or replayed.
  void access(const WarpInstr& w, std::uint32_t sm, const CoalescedAccess& a, std::uint32_t row,
              AccessCounters& c) {
    const L2AccessKind kind = l2_access_kind(w.op, cfg_.l1);
    through_l1(
        kind, a, c, [&]() -> L1Cache<L1P>& { return l1s_.of(sm); },
        [&](const LineAccess& la, std::uint8_t want) {
          if (now_ != nullptr) {
            replay_l2_now(kind, la, want, row, l2_.near_partition_of(sm), c);
            return;
          }
          // By batch group (the slice, or with partitions its index in its partition), the
          // reader's near partition riding in the line address's low bits (line_batch.h).
          const auto group = static_cast<std::uint16_t>(l2_.batch_group_of(la.line_addr));
          L2Queue& q = queues_[group_owner_[group]];
          if (tag_ && (q.runs.empty() || q.runs.back().record != record_))
            q.runs.push_back({record_, static_cast<std::uint32_t>(q.entries.size())});
          q.entries.push_back({la.line_addr | l2_.near_partition_of(sm), row, group, want, kind});
          if (writes_l2(kind)) q.write_bytes.push_back(la.byte_mask);
        });
  }

 private:
  /// An L2 access replayed as it comes. Out of line: inlined into the per-record loop, the L2's
  /// code took so much of the compiler's inlining budget that the L1 lookup and the coalescing
  /// memo were left out of line (a cached matrix product replayed 5% slower).
  [[gnu::noinline]] void replay_l2_now(L2AccessKind kind, const LineAccess& la, std::uint8_t want,
                                       std::uint32_t row, std::uint32_t near, AccessCounters& c) {
    replay_l2_access(l2_, kind, la, want, now_->kernel_seq, row, near, c, *now_);
  }

  const SimConfig& cfg_;
  SmL1s<L1P> l1s_;
  /// Shared by the workers: only its maps are read here, except by the only worker in
  /// replay_now's mode.
  L2Cache<L2P>& l2_;
  const std::vector<std::uint16_t>& group_owner_;
  L2Queue* queues_ = nullptr;
  L2DramCharges* now_ = nullptr;
  std::uint32_t record_ = 0;
  bool tag_ = true;
};

}  // namespace gms
