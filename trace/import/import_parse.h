#pragma once
/// Token and number parsing shared by the Accel-Sim and NVBit importers: whole-token decimal and
/// hex parsers that never throw, and a whitespace tokenizer over a line. Allocation-free.

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace gms::trace::detail {

constexpr bool is_space(char c) {
  return c == ' ' || c == '\t';
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

/// The whole token as hex digits, with or without a 0x prefix; at most 64 bits.
inline bool parse_hex_token(std::string_view tok, std::uint64_t& v, bool require_prefix = false) {
  if (tok.size() > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) {
    tok.remove_prefix(2);
  } else if (require_prefix) {
    return false;
  }
  if (tok.empty() || tok.front() == '-' || tok.front() == '+') return false;
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
