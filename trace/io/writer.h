#pragma once
/// Streaming trace output.

#include <span>

#include "sim/core/records.h"

namespace gms::trace {

/// Writes one trace. Call begin_kernel() before the kernel's records, then write() any number of
/// times, then finish() once (which flushes and closes the stream; errors throw SimError).
class TraceWriter {
 public:
  virtual ~TraceWriter() = default;
  virtual void begin_kernel(const KernelInfo& kernel) = 0;
  virtual void write(std::span<const WarpInstr> records) = 0;
  virtual void finish() = 0;
  /// Writes an allocation the trace names (TraceReader::allocations()) before what follows;
  /// false where the format has no place for it (it is then not kept).
  virtual bool add_allocation(const Allocation& allocation) {
    (void)allocation;
    return false;
  }
};

}  // namespace gms::trace
