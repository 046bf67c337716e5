#pragma once
/// Cached mode's batches: the L2 accesses of many warp instructions, queued in trace order and
/// then replayed one slice at a time, so that the slice's simulated state stays in the host's
/// caches while its share is replayed. An H200's L2 holds about 6 MB of tags, valid masks and
/// replacement state (beyond the host's own L2) that scattered accesses read at random, a few
/// host lines each; in trace order the replay was bound by how many such lines the host serves
/// per second.
///
/// Exact: every slice sees its own accesses in trace order, and what a slice does depends on
/// nothing else's order (statistics are sums; the DRAM model without its row model adds bytes).
/// With L2 partitions one access may touch a home slice and its mirrors in other partitions
/// (l2_cache.h): the group is then the slice's index inside its partition, which all of them
/// share, so each group's slices still see their accesses in trace order.
/// The fast engine batches only where that holds. The L1s are not batched: grouping their
/// lookups by SM as well measured no faster.

#include <cstdint>
#include <vector>

#include "sim/core/types.h"
#include "sim/model/charging.h"  // L2AccessKind

namespace gms {

/// One L2 access (the sectors of one 128-byte line that one warp instruction reads from or
/// writes to L2), as queued.
struct QueuedAccess {
  /// The 128-byte line; its 7 low bits hold the reader's near L2 partition (0 without them).
  Addr line_addr = 0;
  std::uint32_t row = 0;  ///< the instruction row charged
  /// The line's L2 slice; with L2 partitions, its batch group (the slice's index inside its
  /// partition, L2Cache::batch_group_of).
  std::uint16_t slice = 0;
  std::uint8_t want = 0;  ///< the sectors read (a load's L1 misses) or written
  L2AccessKind kind = L2AccessKind::Load;
};
static_assert(sizeof(QueuedAccess) == 16);

/// A stable counting sort's bookkeeping: count each element's group, then place each element,
/// in the same order, at its group's next slot. Groups keep their elements' order. The counters
/// persist between uses (no allocation per batch once grown).
class StableGroups {
 public:
  void reset(std::uint32_t groups) { next_.assign(std::size_t{groups} + 1, 0); }
  void count(std::uint32_t group) { ++next_[group + 1]; }
  /// After the counts: each group's slot counter starts where the groups before it end.
  void close() {
    for (std::size_t k = 1; k < next_.size(); ++k) next_[k] += next_[k - 1];
  }
  /// The slot of the next element of `group`.
  std::uint32_t place(std::uint32_t group) { return next_[group]++; }

 private:
  std::vector<std::uint32_t> next_;  ///< per group: its next slot (counts until close())
};

}  // namespace gms
