#include "trace/io/line_reader.h"

#include <algorithm>
#include <cstring>

#include "sim/core/error.h"

namespace gms::trace::detail {

LineReader::LineReader(InputStream& in, std::size_t max_line_bytes)
    : in_(&in),
      max_line_bytes_(max_line_bytes),
      buf_(std::min<std::size_t>(64 * 1024, max_line_bytes)) {}

void LineReader::take_text(std::vector<char>& text, std::uint64_t line_before,
                           std::exception_ptr end_error) {
  buf_.swap(text);
  end_error_ = std::move(end_error);
  pos_ = 0;
  end_ = buf_.size();
  eof_ = true;  // nothing to refill from
  line_no_ = line_before;
}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    const char* b = buf_.data() + pos_;
    const char* nl = static_cast<const char*>(std::memchr(b, '\n', end_ - pos_));
    std::size_t len;
    if (nl) {
      len = static_cast<std::size_t>(nl - b);
      pos_ += len + 1;
    } else if (eof_) {
      if (pos_ == end_) {
        if (end_error_) std::rethrow_exception(end_error_);
        return false;
      }
      len = end_ - pos_;  // last line without a newline
      pos_ = end_;
    } else {
      // Move the partial line to the front and refill behind it.
      const std::size_t rest = end_ - pos_;
      std::memmove(buf_.data(), b, rest);
      pos_ = 0;
      end_ = rest;
      if (end_ == buf_.size()) {
        if (buf_.size() >= max_line_bytes_)
          fail("{}:{}: line longer than {} bytes", in_->name(), line_no_ + 1, max_line_bytes_);
        buf_.resize(std::min(buf_.size() * 2, max_line_bytes_));
      }
      std::size_t got = 0;
      try {
        got = in_->read(buf_.data() + end_, buf_.size() - end_);
      } catch (const StreamError& e) {
        fail("{}:{}: {}", in_->name(), line_no_ + 1, e.detail());
      }
      if (got == 0) eof_ = true;
      end_ += got;
      continue;
    }
    if (len > 0 && b[len - 1] == '\r') --len;
    line = std::string_view(b, len);
    ++line_no_;
    return true;
  }
}

}  // namespace gms::trace::detail
