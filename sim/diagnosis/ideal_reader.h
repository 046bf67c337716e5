#pragma once
/// The what-if trace: a streaming wrapper around a trace reader that hands every record through
/// unchanged except the executions of one static instruction of one kernel, whose addresses it
/// rewrites to the ideal layout of the same data (sim/diagnosis/pattern.h). Records are
/// rewritten in the caller's batch; no copy of the trace is made.
///
/// Where the packed data goes:
/// - Shared memory: in place (make_ideal): bank conflicts depend on one execution's words only.
/// - Global and local memory: in a region of its own, from kIdealRegion, one block per distinct
///   lowest address in order of first appearance (each block aligned as the packing says). So
///   executions that read the same data still read the same block (the reuse the caches see is
///   kept), and executions of different data never land on one block, as packing each in place
///   would do when their addresses interleave (a transposed write: warp y writes column y,
///   4 bytes from warp y + 1's). The table of blocks, one entry per distinct lowest address of
///   the one instruction, is the only memory that grows with the trace. The instruction no longer
///   shares lines with other instructions' data (a fixed layout would move it too).

#include <cstdint>
#include <unordered_map>

#include "sim/core/records.h"
#include "trace/io/reader.h"

namespace gms {

/// A static instruction of one kernel: what a what-if replay fixes.
struct InstrTarget {
  std::uint32_t kernel_id = 0;
  std::uint32_t inst = 0;
  Op op = Op::LDG;
  std::uint8_t size = 4;

  bool matches(const WarpInstr& w) const { return w.inst == inst && w.op == op && w.size == size; }
};

class IdealizingReader final : public trace::TraceReader {
 public:
  IdealizingReader(trace::TraceReader& inner, const InstrTarget& target)
      : inner_(inner), target_(target) {}

  bool next_kernel(KernelInfo& out) override;
  std::size_t read(std::span<WarpInstr> out) override;
  const std::string& source_name() const override { return inner_.source_name(); }
  std::span<const Allocation> allocations() const override { return inner_.allocations(); }
  bool decodes_cheaply() override { return inner_.decodes_cheaply(); }
  void set_partial_strided_lanes(bool on) override { inner_.set_partial_strided_lanes(on); }

  /// Records rewritten so far.
  std::uint64_t rewritten() const { return rewritten_; }

  /// Where the fixed instruction's global and local data go: 2^52, assumed above the trace's
  /// own addresses, so that they share no line with the rest of the trace.
  static constexpr Addr kIdealRegion = Addr{1} << 52;

 private:
  void rewrite(WarpInstr& w);

  trace::TraceReader& inner_;
  InstrTarget target_;
  std::unordered_map<Addr, Addr> blocks_;  ///< lowest address -> its packed block
  Addr cursor_ = kIdealRegion;
  bool in_target_kernel_ = false;
  std::uint64_t rewritten_ = 0;
};

}  // namespace gms
