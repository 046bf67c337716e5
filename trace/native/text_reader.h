#pragma once
/// Reader of wtrace v1 text traces, plain or zstd-compressed (spec:
/// docs/wtrace.md). Streams line by line with a fixed-size buffer.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "trace/io/line_reader.h"
#include "trace/io/reader.h"
#include "trace/io/zstd_stream.h"

namespace gms::trace {

/// Streams a wtrace v1 text trace. The constructor checks the `#wtrace 1` magic line; every
/// error is a SimError "<file>:<line>: <message>". Records of a kernel that the caller skips
/// (by calling next_kernel() early) are still validated.
class TextReader final : public TraceReader {
 public:
  /// Takes an open stream (already decompressing when the file is zstd).
  explicit TextReader(std::unique_ptr<InputStream> in);

  bool next_kernel(KernelInfo& out) override;
  std::size_t read(std::span<WarpInstr> out) override;
  const std::string& source_name() const override { return in_->name(); }
  std::span<const Allocation> allocations() const override { return allocations_; }

 private:
  std::unique_ptr<InputStream> in_;
  detail::LineReader lines_;  ///< reads *in_; declared after it

  bool in_kernel_ = false;     // records may be read
  bool seen_kernel_ = false;   // a #kernel line was seen
  bool have_pending_ = false;  // pending_ holds a #kernel line not yet parsed
  std::string_view pending_;   // points into the line buffer (valid until the next line is read)
  std::uint64_t pending_line_ = 0;
  std::unordered_set<std::uint32_t> kernel_ids_;
  WarpInstr scratch_;                    // target for records that are skipped
  std::vector<Allocation> allocations_;  // #alloc lines so far
};

}  // namespace gms::trace
