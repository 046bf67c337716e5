#pragma once
/// The trace as the fast engines read it: in batches of records, from a reading thread
/// (trace::ReadAhead) or on the replay's own thread (DirectBatches, which has its interface).

#include <chrono>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "sim/core/records.h"
#include "sim/replay/run_options.h"
#include "trace/io/read_ahead.h"
#include "trace/io/reader.h"

namespace gms {

/// The one read-ahead rule of the fast engines: decode the trace on a second thread, ahead of
/// the replay (same results), when the caller allows it (RunOptions::read_ahead), the trace is
/// not standard input (a failing replay waits for the reading thread to stop, and a thread
/// blocked on an idle pipe would stop only when the writer does), and either the replay runs on
/// several threads (decoding before each phase held every worker up: a 2-core run of a stream, a
/// scattered trace and a matrix product were as fast or faster with it) or the records do not
/// decode cheaply (TraceReader::decodes_cheaply: compact .gmt records replay 2x slower on one
/// thread with read-ahead, text and scattered .gmt ones faster).
inline bool may_read_ahead(const RunOptions& opts, const trace::TraceReader& reader) {
  return opts.read_ahead && reader.source_name() != "-";
}
inline bool reads_ahead(const RunOptions& opts, trace::TraceReader& reader, unsigned threads) {
  return may_read_ahead(opts, reader) && (threads > 1 || !reader.decodes_cheaply());
}

/// The trace read on the replay's own thread, one batch at a time (the interface of
/// trace::ReadAhead).
struct DirectBatches {
  trace::TraceReader& reader;
  std::vector<WarpInstr> batch;
  bool next_kernel(KernelInfo& k) { return reader.next_kernel(k); }
  std::span<WarpInstr> next_batch() { return {batch.data(), reader.read(batch)}; }
  /// Never waits for another thread.
  std::chrono::steady_clock::duration waited() const { return {}; }
};

/// The trace read on the replay's own thread, as DirectBatches, until the replay hands the
/// rest to a reading thread (read_ahead_now: the two-worker pipeline, when its second worker
/// waits longer than the decoding takes; fast_engine.cc). Kernels and records come in the
/// reader's order either way.
class DirectThenAhead {
 public:
  using Clock = std::chrono::steady_clock;
  /// `may_move`: whether the reading may move at all (may_read_ahead); else this is
  /// DirectBatches, untimed.
  DirectThenAhead(trace::TraceReader& reader, std::size_t direct_records, std::size_t ahead_records,
                  std::size_t depth, bool may_move)
      : direct_{reader, std::vector<WarpInstr>(direct_records)},
        ahead_records_(ahead_records),
        depth_(depth),
        may_move_(may_move) {}

  bool next_kernel(KernelInfo& k) {
    in_kernel_ = ahead_ ? ahead_->next_kernel(k) : direct_.next_kernel(k);
    return in_kernel_;
  }
  /// Timed while read on this thread and the reading may move (decoding()).
  std::span<WarpInstr> next_batch() {
    if (ahead_) return ahead_->next_batch();
    if (!may_move_) return direct_.next_batch();
    const Clock::time_point start = Clock::now();
    const std::span<WarpInstr> batch = direct_.next_batch();
    decoding_ += Clock::now() - start;
    in_kernel_ = !batch.empty();
    return batch;
  }
  Clock::duration waited() const { return ahead_ ? ahead_->waited() : Clock::duration{}; }

  /// The time spent reading on this thread so far.
  Clock::duration decoding() const { return decoding_; }
  bool reading_ahead() const { return ahead_.has_value(); }
  bool may_move() const { return may_move_; }
  /// Where the reading may move: from the next batch on, the trace is read on a thread of its
  /// own, which runs `prepare` on each batch (trace::ReadAhead::Prepare). Between batches only:
  /// the last one returned is not used again.
  void read_ahead_now(trace::ReadAhead::Prepare prepare = {}) {
    if (may_move_ && !ahead_)
      ahead_.emplace(direct_.reader, ahead_records_, depth_, in_kernel_, std::move(prepare));
  }
  /// Once reading ahead: the slot of the last batch (trace::ReadAhead::batch_slot), below
  /// slots().
  std::size_t batch_slot() const { return ahead_->batch_slot(); }
  std::size_t slots() const { return trace::ReadAhead::slots_for(depth_); }

 private:
  DirectBatches direct_;
  std::size_t ahead_records_, depth_;
  bool may_move_;
  bool in_kernel_ = false;
  Clock::duration decoding_{};
  std::optional<trace::ReadAhead> ahead_;
};

/// While alive, `reader` may hand out records with partial strided lanes (the replay completes
/// them where it needs them: a regular .gmt stream's records mostly repeat a memoized shape).
class PartialStridedLanes {
 public:
  explicit PartialStridedLanes(trace::TraceReader& reader) : reader_(reader) {
    reader_.set_partial_strided_lanes(true);
  }
  ~PartialStridedLanes() { reader_.set_partial_strided_lanes(false); }
  PartialStridedLanes(const PartialStridedLanes&) = delete;
  PartialStridedLanes& operator=(const PartialStridedLanes&) = delete;

 private:
  trace::TraceReader& reader_;
};

}  // namespace gms
