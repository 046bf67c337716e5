#pragma once
/// Writer of wtrace v1 text traces, plain or zstd-compressed.

#include <cstdint>
#include <memory>
#include <unordered_set>
#include <vector>

#include "trace/io/writer.h"
#include "trace/io/zstd_stream.h"

namespace gms::trace {

/// Writes wtrace v1 text. Strided records use the `@BASE:STRIDE` form (BASE = lane 0's
/// address), others the address list. A kernel with empty `params` gets a `#kernel` line derived
/// from its typed fields; otherwise `params` is written as given. Formatting is hand-written into
/// a 64 KiB buffer (no allocation per record).
class TextWriter final : public TraceWriter {
 public:
  /// Takes an open stream (compressing when the file is .wtrace.zst) and writes the magic line.
  explicit TextWriter(std::unique_ptr<OutputStream> out);

  void begin_kernel(const KernelInfo& kernel) override;
  void write(std::span<const WarpInstr> records) override;
  void finish() override;
  bool add_allocation(const Allocation& allocation) override;  ///< an `#alloc` line

 private:
  void flush();

  std::unique_ptr<OutputStream> out_;
  std::vector<char> buf_;
  std::size_t len_ = 0;
  bool in_kernel_ = false;
  std::unordered_set<std::uint32_t> kernel_ids_;  // a repeated id would make the file unreadable
};

}  // namespace gms::trace
