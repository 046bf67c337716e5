#pragma once
/// Token and number parsing shared by the Accel-Sim and NVBit importers: whole-token decimal and
/// hex parsers that never throw, and a whitespace tokenizer over a line. Allocation-free.

#include <array>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace gms::trace::detail {

constexpr bool is_space(char c) {
  return c == ' ' || c == '\t';
}

/// The value of each hex digit character, 0xff for every other character.
inline constexpr std::array<std::uint8_t, 256> kHexDigitValue = [] {
  std::array<std::uint8_t, 256> t{};
  t.fill(0xff);
  for (int c = 0; c < 10; ++c) t['0' + c] = static_cast<std::uint8_t>(c);
  for (int c = 0; c < 6; ++c) {
    t['a' + c] = static_cast<std::uint8_t>(10 + c);
    t['A' + c] = static_cast<std::uint8_t>(10 + c);
  }
  return t;
}();

/// Reads the hex digits from `p` on into `x` (the low 64 bits of their value) and returns where
/// they stop: `end` or the first character that is not a hex digit.
inline const char* hex_run(const char* p, const char* end, std::uint64_t& x) {
  x = 0;
  for (; p != end; ++p) {
    const std::uint8_t d = kHexDigitValue[static_cast<unsigned char>(*p)];
    if (d > 15) break;
    x = (x << 4) | d;
  }
  return p;
}

/// Splits a line into tokens separated by spaces or tabs.
struct Tokens {
  std::string_view rest;
  std::string_view next() {
    std::size_t i = 0;
    while (i < rest.size() && is_space(rest[i])) ++i;
    std::size_t j = i;
    while (j < rest.size() && !is_space(rest[j])) ++j;
    std::string_view tok = rest.substr(i, j - i);
    rest.remove_prefix(j);
    return tok;
  }
  /// next() and parse_hex_token(tok, v, prefix) in one pass, for a token of 1 to 16 hex digits
  /// (after a "0x" when `prefix`): the importers' hot path (every PC, mask and address). False,
  /// with nothing consumed, for any other token (the caller then reads it with next() and
  /// parses or reports it as before).
  bool next_hex(std::uint64_t& v, bool prefix) {
    const char* p = rest.data();
    const char* const end = p + rest.size();
    while (p != end && is_space(*p)) ++p;
    if (prefix) {
      if (end - p < 2 || p[0] != '0' || p[1] != 'x') return false;
      p += 2;
    }
    const char* const first = p;
    std::uint64_t x = 0;
    p = hex_run(first, end, x);
    if (p == first || p - first > 16 || (p != end && !is_space(*p))) return false;
    v = x;
    rest = std::string_view(p, static_cast<std::size_t>(end - p));
    return true;
  }
  bool done() {
    while (!rest.empty() && is_space(rest.front())) rest.remove_prefix(1);
    return rest.empty();
  }
};

/// The whole token as a decimal integer of type T (a leading '-' only for signed T).
template <class T>
bool parse_dec_token(std::string_view tok, T& v) {
  if (tok.empty()) return false;
  auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  return ec == std::errc{} && ptr == tok.data() + tok.size();
}

/// The whole token as hex digits, with or without a 0x prefix; at most 64 bits. On false, `v`
/// is unspecified.
inline bool parse_hex_token(std::string_view tok, std::uint64_t& v, bool require_prefix = false) {
  if (tok.size() > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) {
    tok.remove_prefix(2);
  } else if (require_prefix) {
    return false;
  }
  if (tok.empty() || tok.front() == '-' || tok.front() == '+') return false;
  if (tok.size() <= 16) {
    // Up to 16 digits cannot overflow: one table look-up per digit, without from_chars'
    // per-digit overflow check (the importers' hot path: every PC, mask and address).
    std::uint64_t x = 0;
    if (hex_run(tok.data(), tok.data() + tok.size(), x) != tok.data() + tok.size()) return false;
    v = x;
    return true;
  }
  auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v, 16);
  return ec == std::errc{} && ptr == tok.data() + tok.size();
}

/// Trims spaces and tabs at both ends.
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

/// A token shown in an error message, cut to 48 characters.
inline std::string_view shown_token(std::string_view tok) {
  return tok.size() > 48 ? tok.substr(0, 48) : tok;
}

/// `s` with every space or tab replaced by '_', so it can be a wtrace #kernel value.
inline std::string without_spaces(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (is_space(c) || c == '\r' || c == '\n') c = '_';
  return out;
}

/// Parses "X,Y,Z" (three decimal u32 values).
inline bool parse_xyz(std::string_view s, std::uint32_t (&xyz)[3]) {
  for (int i = 0; i < 3; ++i) {
    const std::size_t comma = i < 2 ? s.find(',') : s.size();
    if (comma == std::string_view::npos || !parse_dec_token(trim(s.substr(0, comma)), xyz[i]))
      return false;
    s = i < 2 ? s.substr(comma + 1) : std::string_view{};
  }
  return true;
}

}  // namespace gms::trace::detail
