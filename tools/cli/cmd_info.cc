// gpumemsim info: summarise a trace without simulating it.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_set>
#include <vector>

#include "sim/core/error.h"
#include "sim/report/report_stats.h"
#include "tools/cli/commands.h"
#include "tools/cli/options.h"
#include "tools/cli/study_common.h"
#include "trace/import/accelsim_reader.h"
#include "trace/import/formats.h"
#include "trace/import/nvbit_reader.h"
#include "trace/io/input_progress.h"

namespace gms::cli {

namespace {

/// Counts distinct 64-bit keys in bounded memory: exactly while at most kExactLimit keys have
/// been seen, then by a HyperLogLog estimate (4096 registers, about 1.6% standard error).
class DistinctCount {
 public:
  void add(std::uint64_t key) {
    // The key just added again (the next lane of a coalesced access, mostly): neither the
    // registers nor the set would change.
    if (key == last_ && any_) return;
    last_ = key;
    any_ = true;
    const std::uint64_t h = mix(key);
    const std::size_t idx = h >> (64 - kBits);
    const int rank = std::countl_zero((h << kBits) | (std::uint64_t{1} << (kBits - 1))) + 1;
    regs_[idx] = std::max(regs_[idx], static_cast<std::uint8_t>(rank));
    if (exact_) {
      set_.insert(key);
      if (set_.size() > kExactLimit) {
        exact_ = false;
        set_ = {};
      }
    }
  }
  bool exact() const { return exact_; }
  std::uint64_t value() const {
    if (exact_) return set_.size();
    constexpr double m = kRegs;
    double sum = 0;
    int zeros = 0;
    for (std::uint8_t r : regs_) {
      sum += std::ldexp(1.0, -r);
      zeros += r == 0;
    }
    double e = 0.7213 / (1 + 1.079 / m) * m * m / sum;
    if (e <= 2.5 * m && zeros != 0) e = m * std::log(m / zeros);
    return static_cast<std::uint64_t>(std::llround(e));
  }

 private:
  static constexpr int kBits = 12;
  static constexpr std::size_t kRegs = std::size_t{1} << kBits;
  static constexpr std::size_t kExactLimit = std::size_t{1} << 16;
  static std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }
  std::array<std::uint8_t, kRegs> regs_{};
  std::unordered_set<std::uint64_t> set_;
  bool exact_ = true;
  std::uint64_t last_ = 0;  // the last key added, when any_
  bool any_ = false;
};

/// Lowest and highest byte touched.
struct AddrRange {
  std::uint64_t lo = std::numeric_limits<std::uint64_t>::max(), hi = 0;
  void add(std::uint64_t a, std::uint64_t last) {
    lo = std::min(lo, a);
    hi = std::max(hi, last);
  }
  std::string str() const {
    return lo > hi ? std::string("-") : fmt::format("{:#x}-{:#x}", lo, hi);
  }
};

/// What an Accel-Sim or NVBit import skipped and warned about, after its last kernel.
std::string import_summary(const trace::ImportCounts& c, const std::vector<std::string>& warnings,
                           bool accelsim) {
  std::string text = "  skipped instructions:\n";
  auto row = [&](std::string_view label, std::uint64_t n, std::string_view more = {}) {
    text += fmt::format("    {:<26}{:>14}{}\n", label, n, more);
  };
  if (accelsim) row("non-memory (mem_width 0)", c.non_memory);
  std::string by_opcode;
  for (const auto& [opcode, n] : c.unsupported_by_opcode)
    by_opcode += fmt::format("{}{} {}", by_opcode.empty() ? " (" : ", ", opcode, n);
  if (!by_opcode.empty()) by_opcode += ")";
  row("unsupported memory space", c.unsupported, by_opcode);
  row("no active lane", c.inactive);
  auto listed = [](const std::map<std::string, std::uint64_t, std::less<>>& by) {
    std::string t;
    for (const auto& [name, n] : by) t += fmt::format("{}{} {}", t.empty() ? " (" : ", ", name, n);
    return t.empty() ? t : t + ")";
  };
  // The rows below appear only when an import met what they count (older outputs unchanged).
  if (c.bulk_copies != 0) row("TMA bulk copies", c.bulk_copies, listed(c.bulk_by_opcode));
  // What tracer 6's TMA operands name, per class (docs/accelsim-2.md): the copies the replay
  // carries as the tma class, shared copies but counted only.
  constexpr std::array<std::string_view, trace::kBulkClassCount> kBulkLabels{
      "TMA loads", "TMA stores", "TMA prefetches", "TMA reductions", "TMA shared copies"};
  std::string bulk_rows;
  for (int i = 0; i < trace::kBulkClassCount; ++i) {
    const trace::BulkTraffic& b = c.bulk_traffic[static_cast<std::size_t>(i)];
    if (b.requests == 0) continue;
    bulk_rows += fmt::format(
        "    {:<26}{:>14} ({} bytes, {} out of bounds, {} elements, {} L2 sectors, {} multicast, "
        "shared {} written, {} read)\n",
        kBulkLabels[static_cast<std::size_t>(i)], b.requests, b.bytes, b.oob_bytes, b.elements,
        b.sectors, b.multicast, b.shared_written, b.shared_read);
  }
  if (accelsim) {
    row("memcpy commands ignored", c.memcpy_commands);
    row("generic LD/ST as shared", c.generic_unresolved, " (no shmem/local base addresses)");
  }
  if (c.ldgsts != 0 ||
      c.trailing_by_field.size() + c.block_keys + c.replay_markers + c.other_lines != 0)
    text += "  read past:\n";
  if (c.ldgsts != 0) row("LDGSTS shared writes", c.ldgsts, " (the global reads are replayed)");
  if (!c.trailing_by_field.empty()) {
    std::uint64_t n = 0;
    for (const auto& [field, lines] : c.trailing_by_field) n += lines;
    row("trailing fields", n, listed(c.trailing_by_field));
  }
  if (c.block_keys != 0) row("block key lines", c.block_keys, " (cluster id, rank, ...)");
  if (c.replay_markers != 0)
    row("REPLAY markers", c.replay_markers, " (REPLAY_START/END: not instructions)");
  if (c.other_lines != 0) row("non-record lines", c.other_lines, " (banner, program output)");
  if (!bulk_rows.empty())
    text += "  TMA operands (replayed as the tma class; shared copies counted only):\n" + bulk_rows;
  text += fmt::format("  warnings: {}\n", warnings.size());
  for (const std::string& w : warnings) text += fmt::format("    {}\n", w);
  return text;
}

}  // namespace

int cmd_info(const std::vector<std::string>& args) {
  po::options_description visible("options");
  add_trace_reading_options(visible);
  po::variables_map vm;
  const std::vector<std::string> traces = parse_trace_args(
      args, "info",
      "usage: gpumemsim info TRACE...\n"
      "Lists each trace's kernels with their records per operation, active threads,\n"
      "whether SM ids are known, the warps seen and the footprint: distinct 128-byte lines\n"
      "of global/local/atomic accesses (exact up to 65536, then a HyperLogLog estimate\n"
      "marked ~) and the byte ranges touched; the allocations the trace names (wtrace\n"
      "#alloc, Accel-Sim memcpy and NVBit alloc lines). For Accel-Sim and NVBit inputs the\n"
      "format generation of each kernel, the instructions skipped by reason and the\n"
      "warnings of the import.",
      visible, vm);
  const TraceReading reading = trace_reading(vm);
  if (traces.empty()) return 0;

  std::string text;
  std::vector<WarpInstr> batch(4096);
  {  // the bar is cleared before the text is written
    const ProgressBar bar(trace::input_bytes_total(traces), reading.progress);
    for (const std::string& path : traces) {
      auto reader = trace::open_trace_reader(path, reading.format, reading.import);
      const auto* accelsim = dynamic_cast<const trace::AccelSimReader*>(reader.get());
      const auto* nvbit = dynamic_cast<const trace::NvbitReader*>(reader.get());
      text += fmt::format("{}\n", path);
      KernelInfo k;
      while (reader->next_kernel(k)) {
        std::array<std::uint64_t, kAllOpCount> per_op{};
        std::uint64_t records = 0, threads = 0, with_sm = 0;
        DistinctCount warps, lines;
        AddrRange global, shared;
        while (const std::size_t n = reader->read(batch)) {
          for (std::size_t i = 0; i < n; ++i) {
            const WarpInstr& w = batch[i];
            ++per_op[static_cast<int>(w.op)];
            threads += static_cast<std::uint64_t>(std::popcount(w.mask));
            with_sm += w.sm != kUnknownSm;
            warps.add((std::uint64_t{w.cta} << 32) | w.warp);
            for (LaneMask m = w.mask; m != 0; m &= m - 1) {
              const std::uint64_t a = w.addr[std::countr_zero(m)];
              const std::uint64_t last =
                  a + (w.size - 1u) < a ? ~std::uint64_t{0} : a + w.size - 1u;
              if (is_shared(w.op)) {
                shared.add(a, last);
                continue;
              }
              global.add(a, last);
              lines.add(a >> 7);
              if ((last >> 7) != (a >> 7)) lines.add(last >> 7);
            }
          }
          records += n;
        }
        // After the records: a raw Accel-Sim file or an NVBit variant shows in its first lines.
        const std::string format_line = accelsim ? accelsim->layout_description()
                                        : nvbit  ? nvbit->format_description()
                                                 : std::string();
        text += fmt::format("  kernel {} {}: grid {},{},{} block {},{},{} shmem {} B\n", k.id,
                            k.name.empty() ? "-" : k.name, k.grid.x, k.grid.y, k.grid.z, k.block.x,
                            k.block.y, k.block.z, k.shmem_bytes);
        text += fmt::format("    {} warp instructions, {} active threads, SM ids {}\n", records,
                            threads,
                            with_sm == records ? "known"
                            : with_sm == 0     ? "unknown"
                                               : "partial");
        const char* approx = lines.exact() ? "" : "~";
        text += fmt::format(
            "    {}{} warps, footprint {}{} lines of 128 B ({}{} B), global/local "
            "bytes {}, shared offsets {}\n",
            warps.exact() ? "" : "~", warps.value(), approx, lines.value(), approx,
            lines.value() * 128, global.str(), shared.str());
        for (int op = 0; op < kAllOpCount; ++op)
          if (per_op[op] != 0)
            text += fmt::format("    {:<6}{:>14}\n", op_name(static_cast<Op>(op)), per_op[op]);
        if (!format_line.empty()) text += fmt::format("    format: {}\n", format_line);
        for (const auto& [field, value] : detail::ignored_header_values(k))
          text += fmt::format("    header value ignored: {}={}\n", field, value);
      }
      // The blocks the trace names (wtrace #alloc, Accel-Sim memcpy, NVBit alloc lines): shown
      // only where there are some (older outputs unchanged).
      if (const auto named = reader->allocations(); !named.empty()) {
        text += fmt::format("  allocations: {}\n", named.size());
        for (const Allocation& a : named)
          text += fmt::format("    0x{:x} + {} B{}{}\n", a.base, a.bytes, a.name.empty() ? "" : " ",
                              a.name);
      }
      if (accelsim) text += import_summary(accelsim->counts(), accelsim->warnings(), true);
      if (nvbit) text += import_summary(nvbit->counts(), nvbit->warnings(), false);
    }
  }
  write_output("-", text);
  return 0;
}

}  // namespace gms::cli
