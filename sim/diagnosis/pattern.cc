#include "sim/diagnosis/pattern.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

namespace gms {

namespace {

/// Strides of at most this many bytes that are not a power of two read as one field of an array
/// of structures (a 12-byte {x, y, z}, a 24-byte record); longer ones as a plain stride (a
/// column of a matrix with a padded row).
constexpr std::uint64_t kMaxStructBytes = 256;

std::uint64_t magnitude(std::int64_t v) {
  return v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
}

/// The active lanes' indices and addresses, in lane order.
struct Lanes {
  std::array<unsigned, kWarpSize> lane{};
  std::array<Addr, kWarpSize> addr{};
  int n = 0;
};

Lanes active_lanes(const WarpInstr& w) {
  Lanes l;
  for (LaneMask m = w.mask; m != 0; m &= m - 1) {
    const auto t = static_cast<unsigned>(std::countr_zero(m));
    l.lane[l.n] = t;
    l.addr[l.n++] = w.addr[t];
  }
  return l;
}

/// The byte stride s with addr = addr[0] + (lane - lane[0]) x s for every active lane, if any.
bool uniform_stride(const Lanes& l, std::int64_t& s) {
  const auto d = static_cast<std::int64_t>(l.addr[1] - l.addr[0]);
  const auto dl = static_cast<std::int64_t>(l.lane[1] - l.lane[0]);
  if (d % dl != 0) return false;
  s = d / dl;
  for (int i = 2; i < l.n; ++i)
    if (l.addr[i] != l.addr[0] + static_cast<Addr>(s) * (l.lane[i] - l.lane[0])) return false;
  return true;
}

/// A full warp in rows of `row` consecutive elements (32 / row rows), one pitch between rows.
bool tile_rows(const WarpInstr& w, std::uint32_t& row, std::int64_t& pitch) {
  if (w.mask != 0xffffffffu) return false;
  unsigned r = 1;
  while (r < kWarpSize && w.addr[r] == w.addr[r - 1] + w.size) ++r;
  if (r < 2 || r >= kWarpSize || kWarpSize % r != 0) return false;
  const auto p = static_cast<std::int64_t>(w.addr[r] - w.addr[0]);
  if (magnitude(p) <= std::uint64_t{r} * w.size) return false;
  for (unsigned t = 1; t < kWarpSize; ++t) {
    const Addr expect = t % r == 0 ? w.addr[t - r] + static_cast<Addr>(p) : w.addr[t - 1] + w.size;
    if (w.addr[t] != expect) return false;
  }
  row = r;
  pitch = p;
  return true;
}

/// The sorted distinct lane start addresses; returns their count.
int distinct_starts(const WarpInstr& w, std::array<Addr, kWarpSize>& starts) {
  const int n = detail::sorted_lane_starts(w, starts);
  return static_cast<int>(std::unique(starts.begin(), starts.begin() + n) - starts.begin());
}

bool contiguous_block(const WarpInstr& w) {
  std::array<Addr, kWarpSize> s;
  const int n = detail::sorted_lane_starts(w, s);
  for (int i = 1; i < n; ++i)
    if (s[i] != s[i - 1] + w.size) return false;
  return true;
}

std::string elements(std::int64_t stride, unsigned size) {
  const std::uint64_t m = magnitude(stride);
  if (m % size == 0) return fmt::format("{}", stride / static_cast<std::int64_t>(size));
  return fmt::format("{}B", stride);
}

/// "every 8th 4-byte element" / "elements 12 bytes apart".
std::string every(std::int64_t stride, unsigned size) {
  const std::uint64_t m = magnitude(stride);
  const char* dir = stride < 0 ? " (descending)" : "";
  if (m % size == 0) {
    const std::uint64_t k = m / size;
    const char* suffix = (k % 10 == 1 && k % 100 != 11)   ? "st"
                         : (k % 10 == 2 && k % 100 != 12) ? "nd"
                         : (k % 10 == 3 && k % 100 != 13) ? "rd"
                                                          : "th";
    return fmt::format("every {}{} {}-byte element, {} bytes apart{}", k, suffix, size, m, dir);
  }
  return fmt::format("{}-byte elements {} bytes apart{}", size, m, dir);
}

/// ": 32 sectors where 4 would do (8.0x)" or ": 4 sectors, the minimum".
std::string cost_clause(std::uint64_t cost, std::uint64_t ideal, bool shared) {
  const char* unit = shared ? "wavefront" : "sector";
  const char* plural = cost == 1 ? "" : "s";
  if (cost <= ideal) return fmt::format(": {} {}{}, the minimum", cost, unit, plural);
  return fmt::format(
      ": {} {}{} where {} would do ({:.1f}x)", cost, unit, plural, ideal,
      static_cast<double>(cost) / static_cast<double>(std::max<std::uint64_t>(1, ideal)));
}

std::string shared_shape(const Pattern& p) {
  std::string shape;
  switch (p.kind) {
    case PatternKind::Broadcast:
      shape = fmt::format("all {} lanes read one shared address (a broadcast)", p.lanes);
      break;
    case PatternKind::Contiguous:
    case PatternKind::Misaligned:
      shape = fmt::format("lanes read consecutive {}-byte shared elements", p.size);
      break;
    case PatternKind::Reversed:
    case PatternKind::Permuted:
      shape = "lanes read one contiguous block of shared memory, out of lane order";
      break;
    case PatternKind::Strided:
    case PatternKind::StructField:
      shape =
          fmt::format("lanes read shared memory at a stride of {} words", elements(p.stride, 4));
      break;
    default:
      shape = "shared addresses follow no stride";
      break;
  }
  const std::string conflict = p.cost <= p.ideal ? std::string("no bank conflict")
                                                 : fmt::format("a {}-way bank conflict", p.cost);
  return fmt::format("{}, {}", shape, conflict);
}

}  // namespace

std::string_view pattern_kind_name(PatternKind k) {
  constexpr std::array<std::string_view, kPatternKindCount> names{
      "contiguous", "reversed",     "permuted", "misaligned", "broadcast",
      "strided",    "struct_field", "tile2d",   "scattered"};
  return names[static_cast<int>(k)];
}

Pattern classify(const WarpInstr& w, const Coalescer& coalescer, const SmemArbiter& arbiter) {
  Pattern p;
  p.shared = is_shared(w.op);
  p.size = w.size;
  p.lanes = static_cast<std::uint8_t>(std::popcount(w.mask));
  std::uint32_t transactions = 0, ideal_transactions = 0, segment = kSectorBytes;
  if (p.shared) {
    const BankAccess b = arbiter.arbitrate(w);
    p.cost = b.wavefronts;
    p.ideal = b.ideal_wavefronts;
  } else {
    CoalescedAccess c;
    coalescer.coalesce(w, c);
    p.cost = c.sectors;
    p.ideal = (c.bytes_distinct + kSectorBytes - 1) / kSectorBytes;
    segment = c.segment_bytes;
    transactions = c.transactions;
    ideal_transactions = (c.bytes_distinct + segment - 1) / segment;
    p.wasted_bytes = c.transactions * c.segment_bytes - c.bytes_distinct;
  }
  const bool wasteful = p.cost > p.ideal || transactions > ideal_transactions;
  const Lanes l = active_lanes(w);
  if (l.n == 1) return p;  // one element: contiguous
  std::int64_t s = 0;
  if (uniform_stride(l, s)) {
    p.stride = s;
    const std::uint64_t m = magnitude(s);
    if (s == 0) {
      p.kind = PatternKind::Broadcast;
    } else if (s == w.size) {
      p.kind = wasteful && !p.shared ? PatternKind::Misaligned : PatternKind::Contiguous;
    } else if (s == -static_cast<std::int64_t>(w.size)) {
      p.kind = PatternKind::Reversed;
    } else if (m < w.size) {
      p.kind = PatternKind::Scattered;  // lanes overlap
    } else if (p.shared || std::has_single_bit(m) || m > kMaxStructBytes) {
      p.kind = PatternKind::Strided;
    } else {
      p.kind = PatternKind::StructField;
    }
  } else if (!p.shared && tile_rows(w, p.row_elems, p.pitch)) {
    p.kind = PatternKind::Tile2D;
  } else if (contiguous_block(w)) {
    p.kind = wasteful && !p.shared ? PatternKind::Misaligned : PatternKind::Permuted;
  } else {
    p.kind = PatternKind::Scattered;
  }
  if (p.kind == PatternKind::Misaligned) {
    // The boundary the start misses: the transaction's where it costs transactions (128-byte
    // rules), else the sector's.
    p.boundary = transactions > ideal_transactions ? segment : kSectorBytes;
    p.misalign = static_cast<std::uint32_t>(
        *std::min_element(l.addr.begin(), l.addr.begin() + l.n) % p.boundary);
  }
  return p;
}

std::string pattern_label(const Pattern& p) {
  const std::string_view name = pattern_kind_name(p.kind);
  std::string label;
  switch (p.kind) {
    case PatternKind::Misaligned:
      label = fmt::format("{} +{}B", name, p.misalign);
      break;
    case PatternKind::Strided:
      label = p.shared ? fmt::format("{} {}w", name, elements(p.stride, 4))
                       : fmt::format("{} {}", name, elements(p.stride, p.size));
      break;
    case PatternKind::StructField:
      label = fmt::format("{} {}B", name, magnitude(p.stride));
      break;
    case PatternKind::Tile2D:
      label =
          fmt::format("{} {}x{} pitch {}B", name, p.row_elems, kWarpSize / p.row_elems, p.pitch);
      break;
    default:
      label = std::string(name);
  }
  if (p.shared && p.cost > p.ideal) label += fmt::format(" {}-way", p.cost);
  return label;
}

namespace {

/// The reading without its cost.
std::string pattern_shape(const Pattern& p) {
  if (p.shared) return shared_shape(p);
  std::string shape;
  switch (p.kind) {
    case PatternKind::Contiguous:
      shape = p.lanes == 1 ? fmt::format("one lane reads one {}-byte element", p.size)
                           : fmt::format("lanes read consecutive {}-byte elements", p.size);
      break;
    case PatternKind::Reversed:
      shape = fmt::format("lanes read consecutive {}-byte elements in reverse lane order", p.size);
      break;
    case PatternKind::Permuted:
      shape = "lanes read one contiguous block, out of lane order";
      break;
    case PatternKind::Misaligned:
      shape = fmt::format(
          "lanes read consecutive {}-byte elements starting {} bytes past a "
          "{}-byte boundary",
          p.size, p.misalign, p.boundary);
      break;
    case PatternKind::Broadcast:
      shape = fmt::format("all {} lanes read the same address (a broadcast)", p.lanes);
      break;
    case PatternKind::Strided:
      shape = fmt::format("lanes read {}", every(p.stride, p.size));
      break;
    case PatternKind::StructField:
      shape = fmt::format(
          "lanes read one {}-byte field of {}-byte structures (array of "
          "structures; a structure of arrays reads it contiguously)",
          p.size, magnitude(p.stride));
      break;
    case PatternKind::Tile2D:
      shape = fmt::format(
          "lanes read {} rows of {} consecutive {}-byte elements, rows {} bytes "
          "apart (a 2D tile)",
          kWarpSize / p.row_elems, p.row_elems, p.size, p.pitch);
      break;
    case PatternKind::Scattered:
      shape = "lane addresses follow no stride";
      break;
  }
  return shape;
}

}  // namespace

std::string pattern_reading(const Pattern& p) {
  return pattern_shape(p) + cost_clause(p.cost, p.ideal, p.shared);
}

void PatternSummary::add(const Pattern& p) {
  const auto k = static_cast<int>(p.kind);
  if (executions[k]++ == 0) first[k] = p;
  cost += p.cost;
  ideal += p.ideal;
  wasted_bytes += p.wasted_bytes;
}

std::uint64_t PatternSummary::total() const {
  std::uint64_t t = 0;
  for (std::uint64_t e : executions) t += e;
  return t;
}

PatternKind PatternSummary::dominant() const {
  return static_cast<PatternKind>(std::max_element(executions.begin(), executions.end()) -
                                  executions.begin());
}

std::string summary_label(const PatternSummary& s) {
  const std::uint64_t total = s.total();
  if (total == 0) return "-";
  std::array<int, kPatternKindCount> order;
  for (int k = 0; k < kPatternKindCount; ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return s.executions[a] > s.executions[b]; });
  if (s.executions[order[0]] == total) return pattern_label(s.first[order[0]]);
  std::string out;
  for (int i = 0; i < 2 && s.executions[order[i]] != 0; ++i)
    out += fmt::format("{}{} {:.0f}%", i == 0 ? "" : "; ", pattern_label(s.first[order[i]]),
                       100.0 * static_cast<double>(s.executions[order[i]]) / total);
  if (s.executions[order[2]] != 0) out += "; ...";
  return out;
}

std::string summary_reading(const PatternSummary& s) {
  const std::uint64_t total = s.total();
  if (total == 0) return "";
  Pattern p = s.first[static_cast<int>(s.dominant())];
  std::string head;
  if (s.executions[static_cast<int>(p.kind)] != total)
    head = fmt::format("{:.0f}% of executions: ",
                       100.0 * static_cast<double>(s.executions[static_cast<int>(p.kind)]) / total);
  return fmt::format("{}{}; {} executions{}", head, pattern_shape(p), total,
                     cost_clause(s.cost, s.ideal, p.shared));
}

IdealPacking ideal_packing(const WarpInstr& w) {
  std::array<Addr, kWarpSize> starts;
  const int n = distinct_starts(w, starts);
  IdealPacking p;
  p.lowest = starts[0];
  p.packed = static_cast<Addr>(n) * w.size;
  p.align = std::min<Addr>(kLineBytes, std::bit_ceil(p.packed));
  return p;
}

void make_ideal_at(WarpInstr& w, Addr base) {
  if (!w.lanes_complete) complete_strided_lanes(w);
  std::array<Addr, kWarpSize> starts;
  const int n = distinct_starts(w, starts);
  for (LaneMask m = w.mask; m != 0; m &= m - 1) {
    Addr& a = w.addr[std::countr_zero(m)];
    const auto rank = std::lower_bound(starts.begin(), starts.begin() + n, a) - starts.begin();
    a = base + static_cast<Addr>(rank) * w.size;
  }
  w.strided = false;
  w.stride = 0;
}

void make_ideal(WarpInstr& w) {
  if (!w.lanes_complete) complete_strided_lanes(w);
  const IdealPacking p = ideal_packing(w);
  make_ideal_at(w, p.lowest & ~(p.align - 1));
}

}  // namespace gms
