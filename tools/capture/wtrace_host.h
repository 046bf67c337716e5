#pragma once
/// Host side of the capture library: the record a warp appends on the device, and its
/// conversion into wtrace v1 text (docs/wtrace.md).
///
/// Plain C++20, no CUDA and no project headers, so a CUDA user can include it from capture.cuh
/// and the CPU-only tests can exercise it. Usage:
///   std::vector<gms::capture::CaptureRecord> recs = ...;   // downloaded from the device
///   gms::capture::sort_records(recs);                      // deterministic order, see below
///   std::string text = gms::capture::wtrace_magic();
///   text += gms::capture::kernel_line(header);
///   for (const auto& r : recs) gms::capture::append_record_line(r, text);
///
/// Order: the device appends records in global execution order, which changes from run to run.
/// The capture therefore writes them sorted by (seq, cta, warp, inst, mask), where `seq` is the
/// per-warp program-order counter of the recording lane: the order of a lockstep schedule, every
/// warp's seq-th memory instruction (warps by CTA, then warp index) before any warp's next. Every
/// warp's records stay in program order. It is not the execution order, but the cached modes
/// replay it as one: warps that run together interleave, as on the GPU, where grouping each warp's
/// records (the order before) made a warp reuse its own lines at once and every other warp's
/// lines only after its whole run (the H200's L1 window kernels then hit where the GPU missed).

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gms::capture {

/// Memory operations, numbered like the wtrace mnemonics (LDG STG LDS STS LDL STL ATOMG RED).
enum class CaptureOp : std::uint8_t { LDG = 0, STG, LDS, STS, LDL, STL, ATOMG, RED };

inline constexpr std::uint32_t kUnknownSm = 0xffffffffu;  ///< written as "-"

/// One execution of a recorded memory instruction by one warp, as the leader lane writes it
/// into the device buffer. Standard layout, 288 bytes; `addr[i]` is meaningful only for lanes
/// set in `mask` (the device leaves the others untouched, the host ignores them).
struct CaptureRecord {
  std::uint64_t addr[32];  ///< byte address per lane (shared: offset in the CTA's window)
  std::uint32_t mask;      ///< active lanes, bit i = lane i; never 0
  std::uint32_t sm;        ///< %smid, or kUnknownSm
  std::uint32_t cta;       ///< linear CTA id x + y*gridX + z*gridX*gridY
  std::uint32_t warp;      ///< warp index inside the CTA (linear thread index / 32)
  std::uint32_t inst;      ///< instruction id chosen by the user
  std::uint32_t seq;       ///< per-warp program-order counter of the recording lane
  std::uint8_t op;         ///< a CaptureOp
  std::uint8_t size;       ///< bytes per active lane: 1, 2, 4, 8 or 16
  std::uint8_t pad[6];
};
static_assert(sizeof(CaptureRecord) == 288, "device and host must agree on the record layout");

/// A device array the kernel uses (its cudaMalloc'd block, or the part of one it uses): written
/// as a wtrace `#alloc` line before the `#kernel` line, for the tools that group accesses by
/// array (gpumemsim's layout what-ifs). `name` without blanks or '='.
struct Buffer {
  std::uint64_t base = 0;
  std::uint64_t bytes = 0;
  std::string name;
};

/// The `#kernel` line of one launch. `extra` keys are written after the known ones, in order.
struct KernelHeader {
  std::uint32_t id = 0;
  std::string name;
  std::array<std::uint32_t, 3> grid{1, 1, 1};
  std::array<std::uint32_t, 3> block{1, 1, 1};
  std::uint64_t shmem_bytes = 0;  ///< static + dynamic shared memory per CTA
  std::string arch;               ///< e.g. "sm_90"; omitted when empty
  std::vector<std::pair<std::string, std::string>> extra;
  std::vector<Buffer> buffers;  ///< written as `#alloc` lines before the kernel line
};

constexpr std::string_view op_mnemonic(std::uint8_t op) {
  constexpr std::array<std::string_view, 8> names{"LDG", "STG", "LDS",   "STS",
                                                  "LDL", "STL", "ATOMG", "RED"};
  return op < names.size() ? names[op] : std::string_view{"?"};
}

/// Strict weak order of the written trace: (seq, cta, warp, inst, mask).
constexpr bool record_less(const CaptureRecord& a, const CaptureRecord& b) {
  if (a.seq != b.seq) return a.seq < b.seq;
  if (a.cta != b.cta) return a.cta < b.cta;
  if (a.warp != b.warp) return a.warp < b.warp;
  if (a.inst != b.inst) return a.inst < b.inst;
  return a.mask < b.mask;
}

/// Sorts records into the order the capture writes (see the file comment). Sorts an index and
/// permutes once, since records are large.
inline void sort_records(std::vector<CaptureRecord>& records) {
  std::vector<std::uint32_t> order(records.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return record_less(records[a], records[b]);
  });
  std::vector<CaptureRecord> sorted;
  sorted.reserve(records.size());
  for (std::uint32_t i : order) sorted.push_back(records[i]);
  records.swap(sorted);
}

/// The stride form of a record: when every active lane i accesses base + i*stride (BASE a
/// non-negative 64-bit value), returns {base, stride}; a single active lane gives stride 0.
inline std::optional<std::pair<std::uint64_t, std::int64_t>> strided_form(const CaptureRecord& r) {
  if (r.mask == 0) return std::nullopt;
  const int first = std::countr_zero(r.mask);
  const std::uint32_t rest = r.mask & (r.mask - 1);
  std::int64_t stride = 0;
  if (rest != 0) {
    const int second = std::countr_zero(rest);
    const std::int64_t diff = static_cast<std::int64_t>(r.addr[second] - r.addr[first]);
    if (diff % (second - first) != 0) return std::nullopt;
    stride = diff / (second - first);
  }
  // base = addr[first] - first*stride must not wrap below 0 or above 2^64 - 1.
  const std::uint64_t a0 = r.addr[first];
  const std::int64_t back = static_cast<std::int64_t>(first) * stride;
  if (back > 0 && static_cast<std::uint64_t>(back) > a0) return std::nullopt;
  if (back < 0 && static_cast<std::uint64_t>(-back) > ~a0) return std::nullopt;
  const std::uint64_t base = a0 - static_cast<std::uint64_t>(back);
  for (std::uint32_t m = r.mask; m != 0; m &= m - 1) {
    const int lane = std::countr_zero(m);
    if (r.addr[lane] != base + static_cast<std::uint64_t>(lane * stride)) return std::nullopt;
  }
  return std::make_pair(base, stride);
}

namespace detail {
inline void append_dec(std::string& out, std::uint64_t v) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}
inline void append_hex(std::string& out, std::uint64_t v) {
  char buf[20];
  auto res = std::to_chars(buf, buf + sizeof buf, v, 16);
  out += "0x";
  out.append(buf, res.ptr);
}
}  // namespace detail

/// The first line of every wtrace v1 file.
inline std::string wtrace_magic() {
  return "#wtrace 1\n";
}

/// `#kernel id=... name=... grid=X,Y,Z block=X,Y,Z shmem=N [arch=...] [extra...]` plus newline.
inline std::string kernel_line(const KernelHeader& k) {
  std::string s = "#kernel id=";
  detail::append_dec(s, k.id);
  if (!k.name.empty()) s += " name=" + k.name;
  auto dims = [&s](const char* key, const std::array<std::uint32_t, 3>& d) {
    s += key;
    for (int i = 0; i < 3; ++i) {
      if (i) s += ',';
      detail::append_dec(s, d[i]);
    }
  };
  dims(" grid=", k.grid);
  dims(" block=", k.block);
  s += " shmem=";
  detail::append_dec(s, k.shmem_bytes);
  if (!k.arch.empty()) s += " arch=" + k.arch;
  for (const auto& [key, value] : k.extra) s += " " + key + "=" + value;
  s += '\n';
  return s;
}

/// The `#alloc base=0x... bytes=N [name=...]` lines of the header's buffers, in order.
inline std::string alloc_lines(const KernelHeader& k) {
  std::string s;
  for (const Buffer& b : k.buffers) {
    s += "#alloc base=";
    detail::append_hex(s, b.base);
    s += " bytes=";
    detail::append_dec(s, b.bytes);
    if (!b.name.empty()) s += " name=" + b.name;
    s += '\n';
  }
  return s;
}

/// Appends the wtrace line of one record: the strided form `@BASE:STRIDE` when the active lanes
/// allow it, the comma list otherwise. `sm` is written as "-" when it is kUnknownSm. The line is
/// formatted in place, in room made for the longest line and trimmed after (appending a character
/// at a time was most of the time of regenerating a recipe's hundreds of MB of text).
inline void append_record_line(const CaptureRecord& r, std::string& out) {
  // The longest line: six numbers, a mnemonic and a mask (under 100 bytes), then 32 addresses
  // of at most "0x" + 16 digits + ',' each.
  constexpr std::size_t kLongest = 128 + 32 * 19;
  const std::size_t at = out.size();
  out.resize(at + kLongest);
  char* p = out.data() + at;
  char* const end = p + kLongest;
  auto dec = [&](std::uint64_t v) { p = std::to_chars(p, end, v).ptr; };
  auto hex = [&](std::uint64_t v) {
    *p++ = '0';
    *p++ = 'x';
    p = std::to_chars(p, end, v, 16).ptr;
  };
  auto put = [&](std::string_view t) { p = std::copy(t.begin(), t.end(), p); };
  dec(r.inst);
  *p++ = ' ';
  put(op_mnemonic(r.op));
  *p++ = ' ';
  dec(r.size);
  *p++ = ' ';
  if (r.sm == kUnknownSm)
    *p++ = '-';
  else
    dec(r.sm);
  *p++ = ' ';
  dec(r.cta);
  *p++ = ' ';
  dec(r.warp);
  *p++ = ' ';
  static constexpr char kDigits[] = "0123456789abcdef";
  for (int shift = 28; shift >= 0; shift -= 4) *p++ = kDigits[(r.mask >> shift) & 0xf];
  *p++ = ' ';
  if (auto sf = strided_form(r)) {
    *p++ = '@';
    hex(sf->first);
    *p++ = ':';
    p = std::to_chars(p, end, sf->second).ptr;
  } else {
    bool first = true;
    for (std::uint32_t m = r.mask; m != 0; m &= m - 1) {
      if (!first) *p++ = ',';
      first = false;
      hex(r.addr[std::countr_zero(m)]);
    }
  }
  *p++ = '\n';
  out.resize(static_cast<std::size_t>(p - out.data()));
}

/// A record with all fields set and the addresses of the active lanes given by `addr_of(lane)`.
template <class AddrOf>
CaptureRecord make_record(std::uint32_t cta, std::uint32_t warp, std::uint32_t seq,
                          std::uint32_t inst, CaptureOp op, std::uint8_t size, std::uint32_t mask,
                          std::uint32_t sm, AddrOf&& addr_of) {
  CaptureRecord r{};
  r.cta = cta;
  r.warp = warp;
  r.seq = seq;
  r.inst = inst;
  r.op = static_cast<std::uint8_t>(op);
  r.size = size;
  r.mask = mask;
  r.sm = sm;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const int lane = std::countr_zero(m);
    r.addr[lane] = addr_of(lane);
  }
  return r;
}

}  // namespace gms::capture
