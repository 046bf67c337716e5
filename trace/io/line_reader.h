#pragma once
/// Line-by-line reading of a text trace stream (Accel-Sim, NVBit) with one buffer that grows only
/// up to a fixed line limit; memory does not depend on the file's size.

#include <cstdint>
#include <exception>
#include <memory>
#include <string_view>
#include <vector>

#include "trace/io/zstd_stream.h"

namespace gms::trace::detail {

/// Streams the lines of an InputStream. Stream errors (a cut zstd or xz stream, a read error)
/// become SimErrors "<file>:<line>: <detail>"; a line longer than `max_line_bytes` is an error.
class LineReader {
 public:
  explicit LineReader(InputStream& in, std::size_t max_line_bytes = std::size_t{1} << 20);

  /// Lines held in memory (a thread block another reader cut from a file), given by
  /// take_text().
  LineReader() = default;
  /// Reads `text` from now on (taken: swapped with this reader's buffer), its first line
  /// numbered `line_before + 1`; at its end, `end_error` is thrown when given (the error the
  /// stream it was cut from raised there), else next() returns false. A reader of memory only.
  void take_text(std::vector<char>& text, std::uint64_t line_before,
                 std::exception_ptr end_error = nullptr);

  /// Next line without its "\n" or "\r\n"; false at the end. The view stays valid until the
  /// next call.
  bool next(std::string_view& line);

  /// Appends the lines up to and including the first whose text, after any spaces and tabs,
  /// starts with `prefix` (or, when none does, up to the end of the stream) to `out`, each
  /// ending in '\n' as read (a '\r' before it kept): what next() would return line by line,
  /// without looking at each. True when that line was found; line_no() counts the lines taken.
  /// A reader of a stream only.
  bool append_through(std::string_view prefix, std::vector<char>& out);

  /// 1-based number of the last line returned (0 before the first).
  std::uint64_t line_no() const { return line_no_; }

  /// The stream's name, for messages (a reader of a stream only).
  const std::string& name() const { return in_->name(); }

 private:
  void refill();  // keeps the partial line from pos_, reads behind it (grows up to the limit)
  void take_lines(std::size_t end, std::vector<char>& out);  // [pos_, end) to out, counted

  InputStream* in_ = nullptr;  // null: lines held in memory
  std::size_t max_line_bytes_ = 0;
  std::vector<char> buf_;
  std::size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
  std::uint64_t line_no_ = 0;
  std::exception_ptr end_error_;  // see take_text
};

}  // namespace gms::trace::detail
