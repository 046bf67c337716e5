#include "trace/io/line_reader.h"

#include <string.h>  // memrchr: a GNU extension

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

void LineReader::refill() {
  // Move the partial line to the front and read behind it.
  const std::size_t rest = end_ - pos_;
  std::memmove(buf_.data(), buf_.data() + pos_, rest);
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
}

namespace {
// Newlines in [p, end): 255-byte chunks counted in bytes, which compilers vectorize (a count into
// 64 bits is not).
std::uint64_t newlines(const char* p, const char* end) {
  std::uint64_t n = 0;
  while (p != end) {
    const std::size_t chunk = std::min<std::size_t>(static_cast<std::size_t>(end - p), 255);
    std::uint8_t c = 0;
    for (std::size_t i = 0; i < chunk; ++i) c = static_cast<std::uint8_t>(c + (p[i] == '\n'));
    n += c;
    p += chunk;
  }
  return n;
}
}  // namespace

void LineReader::take_lines(std::size_t end, std::vector<char>& out) {
  const char* b = buf_.data();
  out.insert(out.end(), b + pos_, b + end);
  line_no_ += newlines(b + pos_, b + end);
  pos_ = end;
}

bool LineReader::append_through(std::string_view prefix, std::vector<char>& out) {
  for (;;) {
    const char* b = buf_.data();
    // A match of `prefix` with only spaces and tabs before it back to a line's start (pos_ is
    // one), whose line ends in the buffer (or the stream ends with it).
    for (std::size_t from = pos_; from < end_;) {
      // The prefix's first character (a '#' in an Accel-Sim block is rare), then the rest.
      const void* hit = std::memchr(b + from, prefix.front(), end_ - from);
      if (hit == nullptr) break;
      const auto at = static_cast<std::size_t>(static_cast<const char*>(hit) - b);
      if (end_ - at < prefix.size() && !eof_) break;  // it may go on past the buffer
      if (std::string_view(b + at, std::min(prefix.size(), end_ - at)) != prefix) {
        from = at + 1;
        continue;
      }
      std::size_t start = at;
      while (start > pos_ && (b[start - 1] == ' ' || b[start - 1] == '\t')) --start;
      if (start != pos_ && b[start - 1] != '\n') {
        from = at + 1;
        continue;
      }
      const char* nl = static_cast<const char*>(std::memchr(b + at, '\n', end_ - at));
      if (nl != nullptr) {
        take_lines(static_cast<std::size_t>(nl - b) + 1, out);
        return true;
      }
      if (!eof_) break;  // the line goes on past the buffer
      take_lines(end_, out);
      out.push_back('\n');
      ++line_no_;
      return true;
    }
    // None: take the complete lines, then read on.
    if (const void* last = ::memrchr(b + pos_, '\n', end_ - pos_))
      take_lines(static_cast<std::size_t>(static_cast<const char*>(last) - b) + 1, out);
    if (eof_) {
      if (pos_ != end_) {  // a last line without a newline
        take_lines(end_, out);
        out.push_back('\n');
        ++line_no_;
      }
      return false;
    }
    refill();
  }
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
      refill();
      continue;
    }
    if (len > 0 && b[len - 1] == '\r') --len;
    line = std::string_view(b, len);
    ++line_no_;
    return true;
  }
}

}  // namespace gms::trace::detail
