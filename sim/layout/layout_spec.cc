#include "sim/layout/layout_spec.h"

#include <charconv>

#include "sim/core/error.h"

namespace gms {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (std::size_t at = s.find(sep); at != std::string::npos; at = s.find(sep, from)) {
    out.push_back(s.substr(from, at - from));
    from = at + 1;
  }
  out.push_back(s.substr(from));
  return out;
}

std::uint64_t number(const std::string& spec, const std::string& field) {
  std::uint64_t v = 0;
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, v);
  if (ec != std::errc() || ptr != end || v == 0)
    fail("--layout {}: '{}' is not a positive number", spec, field);
  return v;
}

/// An instruction id, "N" or "iN" (0 allowed).
std::uint32_t instruction_id(const std::string& spec, const std::string& field) {
  const std::string digits = field.front() == 'i' ? field.substr(1) : field;
  std::uint32_t v = 0;
  const char* end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, v);
  if (digits.empty() || ec != std::errc() || ptr != end)
    fail("--layout {}: '{}' is not an instruction id", spec, field);
  return v;
}

constexpr const char* kGrammar =
    "soa:ARRAY[:STRUCT_BYTES], aos:ARRAY,ARRAY[,...], pad:smem[:ELEMENTS[:PITCH]], "
    "swizzle:smem[:PITCH], transpose:ARRAY[:PITCH] or vector:INST,INST[,...]";

}  // namespace

LayoutSpec parse_layout_spec(const std::string& text) {
  const std::vector<std::string> f = split(text, ':');
  LayoutSpec s;
  s.text = text;
  const std::string& kind = f[0];
  std::size_t max_numbers = 1;
  if (kind == "soa") {
    s.kind = LayoutKind::Soa;
  } else if (kind == "aos") {
    s.kind = LayoutKind::Aos;
    max_numbers = 0;
  } else if (kind == "pad") {
    s.kind = LayoutKind::Pad;
    max_numbers = 2;
  } else if (kind == "swizzle") {
    s.kind = LayoutKind::Swizzle;
  } else if (kind == "transpose") {
    s.kind = LayoutKind::Transpose;
  } else if (kind == "vector") {
    s.kind = LayoutKind::Vector;
    max_numbers = 0;
  } else {
    fail("--layout {}: unknown layout change '{}' (known: {})", text, kind, kGrammar);
  }
  if (f.size() < 2 || f[1].empty())
    fail("--layout {}: names no array (the forms: {})", text, kGrammar);
  if (f.size() - 2 > max_numbers)
    fail("--layout {}: too many fields (the forms: {})", text, kGrammar);
  s.arrays = split(f[1], ',');
  for (const std::string& a : s.arrays)
    if (a.empty()) fail("--layout {}: an empty array name", text);
  const bool shared = s.kind == LayoutKind::Pad || s.kind == LayoutKind::Swizzle;
  if (shared && (s.arrays.size() != 1 || s.arrays[0] != "smem"))
    fail("--layout {}: {} applies to shared memory: write {}:smem", text, kind, kind);
  if (!shared && s.arrays[0] == "smem")
    fail("--layout {}: {} applies to a global array, not shared memory", text, kind);
  if (s.kind == LayoutKind::Aos && s.arrays.size() < 2)
    fail("--layout {}: aos interleaves two arrays or more (aos:A,B[,...])", text);
  if (s.kind == LayoutKind::Vector) {
    for (std::string& a : s.arrays) a = std::to_string(instruction_id(text, a));
    return s;
  }
  if (s.kind != LayoutKind::Aos && s.arrays.size() != 1)
    fail("--layout {}: {} takes one array", text, kind);
  if (f.size() > 2) s.first = number(text, f[2]);
  if (f.size() > 3) s.second = number(text, f[3]);
  return s;
}

}  // namespace gms
