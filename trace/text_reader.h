#pragma once
/// Reader of wtrace v1 text traces, plain or zstd-compressed (spec:
/// shared/groundtruth/README.md, section 1). Streams line by line with a fixed-size buffer.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "trace/reader.h"
#include "trace/zstd_stream.h"

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

  /// Number of the last line read (1-based).
  std::uint64_t line_number() const { return line_no_; }

 private:
  /// Next line without its "\n" or "\r\n"; false at the end of the stream. The view stays valid
  /// until the next call.
  bool next_line(std::string_view& line);

  std::unique_ptr<InputStream> in_;
  std::vector<char> buf_;
  std::size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
  std::uint64_t line_no_ = 0;

  bool in_kernel_ = false;     // records may be read
  bool seen_kernel_ = false;   // a #kernel line was seen
  bool have_pending_ = false;  // pending_ holds a #kernel line not yet parsed
  std::string_view pending_;   // points into buf_ (valid: no next_line() since)
  std::uint64_t pending_line_ = 0;
  std::unordered_set<std::uint32_t> kernel_ids_;
  WarpInstr scratch_;  // target for records that are skipped
};

}  // namespace gms::trace
