#pragma once
/// The trace as the fast engines read it: in batches of records, from a reading thread
/// (trace::ReadAhead) or on the replay's own thread (DirectBatches, which has its interface).

#include <chrono>
#include <span>
#include <vector>

#include "sim/core/records.h"
#include "sim/replay/run_options.h"
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
inline bool reads_ahead(const RunOptions& opts, trace::TraceReader& reader, unsigned threads) {
  if (!opts.read_ahead || reader.source_name() == "-") return false;
  return threads > 1 || !reader.decodes_cheaply();
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
