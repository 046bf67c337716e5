#pragma once
/// The layout what-if trace: a streaming wrapper around a trace reader that moves every access
/// of one array to the address a LayoutChange gives it (sim/layout/layout_change.h), in every
/// instruction alike. Records are rewritten in the caller's batch; no copy of the trace is made
/// and nothing is looked up per lane but the array's bounds.

#include <cstdint>

#include "sim/layout/layout_change.h"
#include "trace/io/reader.h"

namespace gms {

class LayoutReader final : public trace::TraceReader {
 public:
  LayoutReader(trace::TraceReader& inner, const LayoutChange& change)
      : inner_(inner), change_(change) {}

  bool next_kernel(KernelInfo& out) override;
  std::size_t read(std::span<WarpInstr> out) override;
  const std::string& source_name() const override { return inner_.source_name(); }
  bool decodes_cheaply() override { return inner_.decodes_cheaply(); }
  void set_partial_strided_lanes(bool on) override { inner_.set_partial_strided_lanes(on); }
  std::span<const Allocation> allocations() const override { return inner_.allocations(); }

  /// Records with at least one lane moved, so far.
  std::uint64_t rewritten() const { return rewritten_; }

 private:
  /// Moves the covered lanes of `w`; true when any moved.
  bool rewrite(WarpInstr& w) const;

  trace::TraceReader& inner_;
  const LayoutChange& change_;
  bool active_ = false;  ///< the current kernel is one the change applies to
  std::uint64_t rewritten_ = 0;
};

}  // namespace gms
