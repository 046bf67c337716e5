#include "trace/native/text_parse.h"

#include <array>
#include <bit>
#include <charconv>
#include <limits>

#include "sim/core/error.h"
#include "trace/io/record_util.h"

namespace gms::trace::detail {

namespace {

constexpr bool is_ws(char c) {
  return c == ' ' || c == '\t';
}

/// Hex digit values; -1 for anything else.
constexpr std::array<std::int8_t, 256> kHexValue = [] {
  std::array<std::int8_t, 256> t{};
  t.fill(-1);
  for (int i = 0; i < 10; ++i) t['0' + i] = static_cast<std::int8_t>(i);
  for (int i = 0; i < 6; ++i) {
    t['a' + i] = static_cast<std::int8_t>(10 + i);
    t['A' + i] = static_cast<std::int8_t>(10 + i);
  }
  return t;
}();

inline int hex_value(char c) {
  return kHexValue[static_cast<unsigned char>(c)];
}

/// A token shown in an error message, shortened when it is very long.
std::string_view shown(std::string_view tok) {
  return tok.size() > 48 ? tok.substr(0, 48) : tok;
}

template <class... Args>
[[noreturn]] void line_fail(const LineContext& ctx, fmt::format_string<Args...> f, Args&&... args) {
  throw SimError(
      fmt::format("{}:{}: {}", ctx.file, ctx.line, fmt::format(f, std::forward<Args>(args)...)));
}

/// Splits a line into whitespace-separated tokens.
struct Tokenizer {
  const char* p;
  const char* end;
  std::string_view next() {
    while (p < end && is_ws(*p)) ++p;
    const char* b = p;
    while (p < end && !is_ws(*p)) ++p;
    return {b, static_cast<std::size_t>(p - b)};
  }
};

/// Parses a whole token as a decimal integer of type T.
template <class T>
bool parse_dec(std::string_view tok, T& v) {
  if (tok.empty()) return false;
  auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  return ec == std::errc{} && ptr == tok.data() + tok.size();
}

/// Parses hex digits at `p` (no prefix) into `v`; returns false when there are none or the value
/// needs more than 64 bits. `p` ends on the first non-hex character.
inline bool parse_hex_digits(const char*& p, const char* end, std::uint64_t& v) {
  const char* b = p;
  v = 0;
  while (p < end) {
    int d = hex_value(*p);
    if (d < 0) break;
    if (v >> 60) return false;
    v = (v << 4) | static_cast<unsigned>(d);
    ++p;
  }
  return p != b;
}

/// Parses "0x<hex>" starting at `p`, stopping at `stop` or the end; errors name the address.
inline std::uint64_t parse_address(const char*& p, const char* end, char stop,
                                   const LineContext& ctx) {
  const char* b = p;
  std::uint64_t v = 0;
  bool ok = end - p > 2 && p[0] == '0' && p[1] == 'x';
  if (ok) {
    p += 2;
    ok = parse_hex_digits(p, end, v) && (p == end || *p == stop);
  }
  if (!ok) {
    const char* e = b;
    while (e < end && *e != stop) ++e;
    std::string_view tok(b, static_cast<std::size_t>(e - b));
    if (p > b + 2 && hex_value(p[-1]) >= 0 && p < end && hex_value(*p) >= 0)
      line_fail(ctx, "address '{}' does not fit in 64 bits", shown(tok));
    line_fail(ctx, "non-hex address '{}' (expected 0x followed by hex digits)", shown(tok));
  }
  return v;
}

void parse_strided(std::string_view tok, const LineContext& ctx, WarpInstr& out) {
  const char* p = tok.data() + 1;  // after '@'
  const char* end = tok.data() + tok.size();
  std::uint64_t base = parse_address(p, end, ':', ctx);
  if (p == end) line_fail(ctx, "strided address '{}' lacks ':STRIDE'", shown(tok));
  std::int64_t stride = 0;
  if (!parse_dec(std::string_view(p + 1, static_cast<std::size_t>(end - p - 1)), stride))
    line_fail(ctx, "bad stride in '{}' (expected a signed decimal byte count)", shown(tok));
  if (!detail::strided_lanes_fit(base, stride, out.mask))
    line_fail(ctx, "address of lane {} in '{}' overflows 64 bits", 31 - std::countl_zero(out.mask),
              shown(tok));
  out.strided = true;
  out.stride = stride;
  fill_strided_lanes(out, base);
}

void parse_list(std::string_view tok, const LineContext& ctx, WarpInstr& out) {
  const char* p = tok.data();
  const char* end = tok.data() + tok.size();
  int lanes = std::popcount(out.mask);
  int count = 0;
  LaneMask m = out.mask;
  for (;;) {
    std::uint64_t a = parse_address(p, end, ',', ctx);
    if (count < lanes) {
      out.addr[static_cast<unsigned>(std::countr_zero(m))] = a;
      m &= m - 1;
    }
    ++count;
    if (p == end) break;
    ++p;  // ','
  }
  if (count != lanes)
    line_fail(ctx, "address list has {} address{} but mask {:08x} has {} active lane{}", count,
              count == 1 ? "" : "es", out.mask, lanes, lanes == 1 ? "" : "s");
  out.strided = false;
  out.stride = 0;
}

void parse_dim3(std::string_view key, std::string_view v, const LineContext& ctx, Dim3& d) {
  std::uint32_t xyz[3];
  std::size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    std::size_t comma = i < 2 ? v.find(',', start) : v.size();
    if (comma == std::string_view::npos || !parse_dec(v.substr(start, comma - start), xyz[i]))
      line_fail(ctx, "bad {} '{}' (expected X,Y,Z decimal integers)", key, shown(v));
    start = comma + 1;
  }
  d = Dim3{xyz[0], xyz[1], xyz[2]};
}

template <class T>
void parse_kernel_number(std::string_view key, std::string_view v, const LineContext& ctx, T& out) {
  if (!parse_dec(v, out))
    line_fail(ctx, "bad {} '{}' in #kernel line (expected a decimal integer)", key, shown(v));
}

}  // namespace

LineKind classify_line(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && is_ws(line[i])) ++i;
  if (i == line.size()) return LineKind::Blank;
  if (line[i] != '#') return LineKind::Record;
  std::string_view rest = line.substr(i);
  if (rest.starts_with("#kernel") && (rest.size() == 7 || is_ws(rest[7]))) return LineKind::Kernel;
  if (rest.starts_with("#alloc") && (rest.size() == 6 || is_ws(rest[6]))) return LineKind::Alloc;
  return LineKind::Comment;
}

void check_magic_line(std::string_view line, const LineContext& ctx) {
  if (line == "#wtrace 1") return;
  if (line.starts_with("#wtrace") && line.size() > 7 && is_ws(line[7])) {
    Tokenizer t{line.data() + 7, line.data() + line.size()};
    std::string_view num = t.next();
    std::uint64_t version = 0;
    if (parse_dec(num, version) && t.next().empty()) {
      if (version == 1) return;
      if (version > 1) line_fail(ctx, "unsupported wtrace version {} (reads 1)", version);
    }
  }
  line_fail(ctx, "missing '#wtrace 1' magic line");
}

void parse_record(std::string_view line, const LineContext& ctx, WarpInstr& out) {
  Tokenizer t{line.data(), line.data() + line.size()};
  static constexpr const char* kFields[] = {"inst", "op",   "size", "sm",
                                            "cta",  "warp", "mask", "addrs"};
  std::string_view tok[8];
  for (int i = 0; i < 8; ++i) {
    tok[i] = t.next();
    if (tok[i].empty())
      line_fail(ctx, "record lacks field '{}' (has {} of 8 fields)", kFields[i], i);
  }
  if (!parse_dec(tok[0], out.inst))
    line_fail(ctx, "bad instruction id '{}' (expected a decimal u32)", shown(tok[0]));
  std::optional<Op> op = parse_op(tok[1]);
  if (!op) line_fail(ctx, "unknown op '{}'", shown(tok[1]));
  out.op = *op;
  unsigned size = 0;
  if (!parse_dec(tok[2], size) || !valid_access_size(size))
    line_fail(ctx, "bad access size '{}' (must be 1, 2, 4, 8 or 16)", shown(tok[2]));
  out.size = static_cast<std::uint8_t>(size);
  if (tok[3] == "-") {
    out.sm = kUnknownSm;
  } else if (!parse_dec(tok[3], out.sm) || out.sm == kUnknownSm) {
    line_fail(ctx, "bad sm '{}' (expected a decimal integer or -)", shown(tok[3]));
  }
  if (!parse_dec(tok[4], out.cta))
    line_fail(ctx, "bad cta '{}' (expected a decimal u32)", shown(tok[4]));
  if (!parse_dec(tok[5], out.warp))
    line_fail(ctx, "bad warp '{}' (expected a decimal u32)", shown(tok[5]));
  std::uint64_t mask = 0;
  const char* mp = tok[6].data();
  if (tok[6].size() != 8 || !parse_hex_digits(mp, tok[6].data() + 8, mask) ||
      mp != tok[6].data() + 8)
    line_fail(ctx, "bad mask '{}' (expected 8 hex digits)", shown(tok[6]));
  if (mask == 0) line_fail(ctx, "mask is 00000000 (a record needs at least one active lane)");
  out.mask = static_cast<LaneMask>(mask);
  out.addr.fill(0);
  if (tok[7][0] == '@')
    parse_strided(tok[7], ctx, out);
  else
    parse_list(tok[7], ctx, out);
  // An optional last field, +N: the warp's N instructions since its previous record that are
  // not records (WarpInstr::instrs_before).
  std::string_view extra = t.next();
  out.instrs_before = 0;
  if (!extra.empty() && extra[0] == '+') {
    if (!parse_dec(extra.substr(1), out.instrs_before))
      line_fail(ctx, "bad instruction count '{}' (expected +N, N a decimal u32)", shown(extra));
    extra = t.next();
  }
  // Then ^K: the record waits for the data of its warp's K-th most recent load
  // (WarpInstr::waits_for_load).
  out.waits_for_load = 0;
  if (!extra.empty() && extra[0] == '^') {
    if (!parse_dec(extra.substr(1), out.waits_for_load) || out.waits_for_load == 0)
      line_fail(ctx, "bad load dependency '{}' (expected ^K, K a decimal u32 of at least 1)",
                shown(extra));
    extra = t.next();
  }
  if (!extra.empty()) line_fail(ctx, "unexpected text '{}' after the addresses", shown(extra));
}

void parse_kernel_line(std::string_view line, const LineContext& ctx, KernelInfo& out) {
  out = KernelInfo{};
  Tokenizer t{line.data(), line.data() + line.size()};
  t.next();  // "#kernel"
  bool has_id = false;
  for (std::string_view tok = t.next(); !tok.empty(); tok = t.next()) {
    std::size_t eq = tok.find('=');
    if (eq == std::string_view::npos || eq == 0)
      line_fail(ctx, "bad #kernel field '{}' (expected key=value)", shown(tok));
    std::string_view key = tok.substr(0, eq), v = tok.substr(eq + 1);
    out.params.emplace_back(std::string(key), std::string(v));
    if (key == "id") {
      if (!parse_dec(v, out.id))
        line_fail(ctx, "bad kernel id '{}' (expected a decimal u32)", shown(v));
      has_id = true;
    } else if (key == "name") {
      out.name = v;
    } else if (key == "arch") {
      out.arch = v;
    } else if (key == "grid") {
      parse_dim3(key, v, ctx, out.grid);
    } else if (key == "block") {
      parse_dim3(key, v, ctx, out.block);
    } else if (key == "shmem") {
      parse_kernel_number(key, v, ctx, out.shmem_bytes);
    } else if (key == "regs") {
      parse_kernel_number(key, v, ctx, out.regs);
    } else if (key == "flops") {
      parse_kernel_number(key, v, ctx, out.flops);
    }
  }
  if (!has_id) line_fail(ctx, "#kernel line without the required id=N");
}

void parse_alloc_line(std::string_view line, const LineContext& ctx, Allocation& out) {
  out = Allocation{};
  Tokenizer t{line.data(), line.data() + line.size()};
  t.next();  // "#alloc"
  bool has_base = false, has_bytes = false;
  for (std::string_view tok = t.next(); !tok.empty(); tok = t.next()) {
    const std::size_t eq = tok.find('=');
    if (eq == std::string_view::npos || eq == 0)
      line_fail(ctx, "bad #alloc field '{}' (expected key=value)", shown(tok));
    const std::string_view key = tok.substr(0, eq), v = tok.substr(eq + 1);
    if (key == "base") {
      const char* p = v.data() + 2;
      const char* end = v.data() + v.size();
      if (!v.starts_with("0x") || !parse_hex_digits(p, end, out.base) || p != end)
        line_fail(ctx, "bad #alloc base '{}' (expected 0x followed by hex digits)", shown(v));
      has_base = true;
    } else if (key == "bytes") {
      if (!parse_dec(v, out.bytes) || out.bytes == 0)
        line_fail(ctx, "bad #alloc bytes '{}' (expected a decimal integer of at least 1)",
                  shown(v));
      has_bytes = true;
    } else if (key == "name") {
      out.name = v;
    } else {
      line_fail(ctx, "unknown #alloc key '{}' (base, bytes, name)", shown(key));
    }
  }
  if (!has_base || !has_bytes) line_fail(ctx, "#alloc line without the required base= and bytes=");
  if (out.bytes - 1 > ~out.base)
    line_fail(ctx, "#alloc block 0x{:x} + {} bytes does not fit in 64 bits", out.base, out.bytes);
}

}  // namespace gms::trace::detail
