#include "trace/native/text_reader.h"

#include "sim/core/error.h"
#include "trace/native/text_parse.h"

namespace gms::trace {

namespace {
constexpr std::size_t kMaxLineBytes = 64u << 20;  // a longer line is an error, not a reason to grow
}  // namespace

TextReader::TextReader(std::unique_ptr<InputStream> in)
    : in_(std::move(in)), lines_(*in_, kMaxLineBytes) {
  in_->decode_ahead();  // parsing overlaps the xz or zstd decoding (nothing is read yet)
  std::string_view line;
  if (!lines_.next(line)) line = {};
  detail::check_magic_line(line, {in_->name(), 1});
}

bool TextReader::next_kernel(KernelInfo& out) {
  std::string_view line;
  while (!have_pending_) {
    if (!lines_.next(line)) {
      in_kernel_ = false;
      return false;
    }
    switch (detail::classify_line(line)) {
      case detail::LineKind::Blank:
      case detail::LineKind::Comment:
        break;
      case detail::LineKind::Alloc:
        detail::parse_alloc_line(line, {in_->name(), lines_.line_no()},
                                 allocations_.emplace_back());
        break;
      case detail::LineKind::Kernel:
        have_pending_ = true;
        pending_ = line;
        pending_line_ = lines_.line_no();
        break;
      case detail::LineKind::Record:
        if (!seen_kernel_)
          fail("{}:{}: record before any #kernel line", in_->name(), lines_.line_no());
        detail::parse_record(line, {in_->name(), lines_.line_no()}, scratch_);
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
    if (!lines_.next(line)) {
      in_kernel_ = false;
      break;
    }
    // Records start with a digit; everything else goes through the classifier.
    if (line.empty() || line[0] < '0' || line[0] > '9') {
      detail::LineKind kind = detail::classify_line(line);
      if (kind == detail::LineKind::Kernel) {
        have_pending_ = true;
        pending_ = line;
        pending_line_ = lines_.line_no();
        in_kernel_ = false;
        break;
      }
      if (kind == detail::LineKind::Alloc)
        detail::parse_alloc_line(line, {in_->name(), lines_.line_no()},
                                 allocations_.emplace_back());
      if (kind != detail::LineKind::Record) continue;
    }
    detail::parse_record(line, {in_->name(), lines_.line_no()}, out[n++]);
  }
  return n;
}

}  // namespace gms::trace
