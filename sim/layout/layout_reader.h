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

  /// Keep the first moved record of this instruction, before and after (for a picture of one
  /// warp's accesses); without a call, the first moved record of any.
  void sample_instruction(std::uint32_t inst, Op op, std::uint8_t size) {
    sample_inst_ = inst;
    sample_op_ = op;
    sample_size_ = size;
    any_sample_ = false;
  }
  /// The kept record; false when none was moved.
  bool sample(WarpInstr& before, WarpInstr& after) const {
    before = sample_before_;
    after = sample_after_;
    return has_sample_;
  }

 private:
  /// Vector: keeps the first record of the sampled instruction and what the merge makes of it.
  void sample_vector(std::span<WarpInstr> batch);
  /// Moves the covered lanes of `w`; true when any moved.
  bool rewrite(WarpInstr& w) const;

  trace::TraceReader& inner_;
  const LayoutChange& change_;
  bool active_ = false;  ///< the current kernel is one the change applies to
  std::uint64_t rewritten_ = 0;
  bool any_sample_ = true;  ///< sample the first moved record, whichever instruction
  std::uint32_t sample_inst_ = 0;
  Op sample_op_ = Op::LDG;
  std::uint8_t sample_size_ = 0;
  bool has_sample_ = false;
  int sample_tries_ = 0;
  WarpInstr sample_before_, sample_after_;
};

}  // namespace gms
