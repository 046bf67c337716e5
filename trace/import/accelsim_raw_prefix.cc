#include "trace/import/accelsim_raw_prefix.h"

#include <cctype>
#include <cstdint>

#include "trace/import/import_parse.h"

namespace gms::trace::detail {

namespace {

bool all_hex(std::string_view tok) {
  if (tok.empty()) return false;
  for (const char c : tok)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

/// True when the tokens after `width` integers read as [line_num] PC mask dest_num dests opcode.
bool fits(std::string_view line, unsigned width, bool lineinfo) {
  Tokens t{line};
  for (unsigned i = 0; i < width; ++i) {
    std::uint64_t v = 0;
    if (!parse_dec_token(t.next(), v)) return false;
  }
  std::uint64_t v = 0;
  if (lineinfo && !parse_dec_token(t.next(), v)) return false;
  const std::string_view pc = t.next(), mask = t.next();
  if (pc.size() < 4 || pc.size() > 16 || !all_hex(pc) || mask.size() != 8 || !all_hex(mask))
    return false;
  std::uint32_t dests = 0;
  if (!parse_dec_token(t.next(), dests) || dests > 32) return false;
  for (std::uint32_t i = 0; i < dests; ++i) t.next();
  const std::string_view opcode = t.next();
  return !opcode.empty() && std::isalpha(static_cast<unsigned char>(opcode[0]));
}

}  // namespace

unsigned raw_prefix_ints(std::string_view line, bool lineinfo) {
  for (const unsigned width : kRawPrefixWidths)
    if (fits(line, width, lineinfo)) return width;
  return kRawPrefixWidths[0];
}

}  // namespace gms::trace::detail
