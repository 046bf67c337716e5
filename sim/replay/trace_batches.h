#pragma once
/// The trace as the fast engines read it: in batches of records, from a reading thread
/// (trace::ReadAhead) or on the replay's own thread (DirectBatches, which has its interface).

#include <span>
#include <vector>

#include "sim/core/records.h"
#include "trace/io/reader.h"

namespace gms {

/// The trace read on the replay's own thread, one batch at a time (the interface of
/// trace::ReadAhead).
struct DirectBatches {
  trace::TraceReader& reader;
  std::vector<WarpInstr> batch;
  bool next_kernel(KernelInfo& k) { return reader.next_kernel(k); }
  std::span<WarpInstr> next_batch() { return {batch.data(), reader.read(batch)}; }
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
