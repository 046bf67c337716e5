#include "trace/text_reader.h"

#include <cstring>

#include "sim/error.h"
#include "trace/text_parse.h"

namespace gms::trace {

namespace {
constexpr std::size_t kMaxLineBytes = 64u << 20;  // a longer line is an error, not a reason to grow
}  // namespace

TextReader::TextReader(std::unique_ptr<InputStream> in)
    : in_(std::move(in)), buf_(kStreamChunkBytes) {
  std::string_view line;
  if (!next_line(line)) line = {};
  detail::check_magic_line(line, {in_->name(), 1});
}

bool TextReader::next_line(std::string_view& line) {
  for (;;) {
    const char* b = buf_.data() + pos_;
    const char* nl = static_cast<const char*>(std::memchr(b, '\n', end_ - pos_));
    std::size_t len;
    if (nl) {
      len = static_cast<std::size_t>(nl - b);
      pos_ += len + 1;
    } else if (eof_) {
      if (pos_ == end_) return false;
      len = end_ - pos_;  // last line without a newline
      pos_ = end_;
    } else {
      // Move the partial line to the front and refill behind it.
      std::size_t rest = end_ - pos_;
      std::memmove(buf_.data(), b, rest);
      pos_ = 0;
      end_ = rest;
      if (end_ == buf_.size()) {
        if (buf_.size() >= kMaxLineBytes)
          fail("{}:{}: line longer than {} bytes", in_->name(), line_no_ + 1, kMaxLineBytes);
        buf_.resize(buf_.size() * 2);
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

bool TextReader::next_kernel(KernelInfo& out) {
  std::string_view line;
  while (!have_pending_) {
    if (!next_line(line)) {
      in_kernel_ = false;
      return false;
    }
    switch (detail::classify_line(line)) {
      case detail::LineKind::Blank:
      case detail::LineKind::Comment:
        break;
      case detail::LineKind::Kernel:
        have_pending_ = true;
        pending_ = line;
        pending_line_ = line_no_;
        break;
      case detail::LineKind::Record:
        if (!seen_kernel_) fail("{}:{}: record before any #kernel line", in_->name(), line_no_);
        detail::parse_record(line, {in_->name(), line_no_}, scratch_);
        break;
    }
  }
  have_pending_ = false;
  detail::parse_kernel_line(pending_, {in_->name(), pending_line_}, out);
  if (!kernel_ids_.insert(out.id).second)
    fail("{}:{}: duplicate kernel id {}", in_->name(), pending_line_, out.id);
  in_kernel_ = true;
  seen_kernel_ = true;
  return true;
}

std::size_t TextReader::read(std::span<WarpInstr> out) {
  std::size_t n = 0;
  std::string_view line;
  while (n < out.size() && in_kernel_) {
    if (!next_line(line)) {
      in_kernel_ = false;
      break;
    }
    // Records start with a digit; everything else goes through the classifier.
    if (line.empty() || line[0] < '0' || line[0] > '9') {
      detail::LineKind kind = detail::classify_line(line);
      if (kind == detail::LineKind::Kernel) {
        have_pending_ = true;
        pending_ = line;
        pending_line_ = line_no_;
        in_kernel_ = false;
        break;
      }
      if (kind != detail::LineKind::Record) continue;
    }
    detail::parse_record(line, {in_->name(), line_no_}, out[n++]);
  }
  return n;
}

}  // namespace gms::trace
