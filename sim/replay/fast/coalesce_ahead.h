#pragma once
/// Coalescing on the reading thread: where the two-worker pipeline has moved the trace's reading
/// to a thread of its own (fast_engine.cc, choose_reading), that thread also coalesces each
/// batch's global, local and atomic records (prepare, a trace::ReadAhead::Prepare), and worker 0
/// takes the results (take) instead of coalescing them itself. Coalescing depends on nothing
/// but the record and the coalescer's configuration, so the results are the ones worker 0 would
/// have computed; a cached matrix product spent about half its time there.
///
/// The reading thread coalesces the first share() sixteenths of each batch's records and leaves
/// the rest to worker 0, which moves the share between windows (fast_engine.cc): decoding and
/// all the coalescing were 2.5x worker 0's remaining work on the matrix product.
///
/// Results are kept per ReadAhead slot (a slot is never reused while the replay may hold its
/// batch): per record, its counts and where its lines start in the slot's line list.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/core/records.h"
#include "sim/replay/fast/coalesce_memo.h"

namespace gms {

class CoalesceAhead {
 public:
  CoalesceAhead(const CoalescerConfig& cfg, std::size_t slots) : coalescer_(cfg), slots_(slots) {}

  /// On the reading thread: coalesces the first share() sixteenths of the records of `batch`,
  /// the batch of slot `slot`, completing their strided lanes where the coalescer needs them.
  /// Shared-memory records are left to the replay.
  void prepare(std::span<WarpInstr> batch, std::size_t slot) {
    Slot& s = slots_[slot];
    s.coalesced = batch.size() * share_.load(std::memory_order_relaxed) / kWhole;
    s.counts.resize(s.coalesced);
    s.first_line.resize(s.coalesced);
    s.lines.clear();
    for (std::size_t i = 0; i < s.coalesced; ++i) {
      WarpInstr& w = batch[i];
      s.first_line[i] = static_cast<std::uint32_t>(s.lines.size());
      if (!is_global_access(w.op)) continue;
      // The memo's key is any number: it compares the whole shape (the replay keys by row).
      memo_.coalesce(coalescer_, w.inst, w, access_);
      s.counts[i] = access_;
      s.lines.insert(s.lines.end(), access_.line_list.begin(),
                     access_.line_list.begin() + access_.lines);
    }
  }

  /// The records of the batch in slot `slot` that prepare coalesced: the first ones.
  std::size_t coalesced(std::size_t slot) const { return slots_[slot].coalesced; }

  /// The share of each batch the reading thread coalesces, in sixteenths (set between
  /// batches by the replay's thread; a batch takes the share of when it was read).
  std::uint32_t share() const { return share_.load(std::memory_order_relaxed); }
  void set_share(std::uint32_t sixteenths) {
    share_.store(std::min(sixteenths, kWhole), std::memory_order_relaxed);
  }
  static constexpr std::uint32_t kWhole = 16;

  /// On the replay's thread: record i (below coalesced(slot), not of shared memory) of the
  /// batch in slot `slot`, coalesced, into `out`.
  void take(std::size_t slot, std::size_t i, CoalescedAccess& out) const {
    const Slot& s = slots_[slot];
    static_cast<CoalesceCounts&>(out) = s.counts[i];
    const std::uint32_t first = s.first_line[i];
    for (std::uint32_t k = 0; k < out.lines; ++k) out.line_list[k] = s.lines[first + k];
  }

 private:
  struct Slot {
    std::size_t coalesced = 0;
    std::vector<CoalesceCounts> counts;
    std::vector<std::uint32_t> first_line;  ///< per record: its first line in `lines`
    std::vector<LineAccess> lines;
  };
  Coalescer coalescer_;
  CoalesceMemo memo_;
  CoalescedAccess access_;
  std::vector<Slot> slots_;
  std::atomic<std::uint32_t> share_{kWhole / 2};
};

}  // namespace gms
