// The human table: the configuration, then per kernel the class totals and the instructions
// ranked by wasted bytes (like cg_annotate); cached kernels add the hierarchy, and with --mode
// both each cached kernel is followed by a cold-vs-cached comparison per instruction.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <vector>

#include "sim/report/report.h"
#include "sim/report/report_stats.h"

namespace gms::detail {

namespace {

/// Fixed-width rows; every cell is preformatted, so shared and global rows share a layout.
template <class... Cells>
void class_row(std::ostream& out, const Cells&... cells) {
  fmt::print(out, "  {:<14}{:>10}{:>12}{:>12}{:>12}{:>10}{:>14}{:>14}{:>8}{:>12}{:>10}\n",
             cells...);
}
/// Instruction rows end with the pattern column only under `run --pattern` (`pattern` not null),
/// so that the default table is as it was.
template <class... Cells>
void instr_row(std::ostream& out, const std::string* pattern, const Cells&... cells) {
  fmt::print(
      out,
      "  {:>10} {:<6}{:>5}{:>10}{:>10}{:>10}{:>10}{:>8}{:>14}{:>14}{:>8}{:>14}{:>11}{:>7}{:>10}",
      cells...);
  fmt::print(out, "{}\n", pattern == nullptr ? std::string() : "  " + *pattern);
}
template <class... Cells>
void hierarchy_row(std::ostream& out, const std::string* pattern, const Cells&... cells) {
  fmt::print(out, "  {:>8} {:<6}{:>5}{:>12}{:>9}{:>12}{:>9}{:>12}{:>16}{:>16}", cells...);
  fmt::print(out, "{}\n", pattern == nullptr ? std::string() : "  " + *pattern);
}
template <class... Cells>
void compare_row(std::ostream& out, const Cells&... cells) {
  fmt::print(out, "  {:>8} {:<6}{:>5}{:>14}{:>14}{:>16}{:>16}{:>16}\n", cells...);
}

std::string percent(double f) {
  return fmt::format("{:.1f}%", 100.0 * f);
}
std::string efficiency_cell(const AccessCounters& c) {
  return c.bytes_fetched == 0 ? "-" : percent(efficiency(c));
}

void print_config(std::ostream& out, const SimConfig& cfg) {
  std::string section, line;
  for (const auto& [key, value] : effective_config(cfg)) {
    const auto dot = key.find('.');
    if (key.substr(0, dot) != section) {
      if (!line.empty()) fmt::print(out, "{}\n", line);
      section = key.substr(0, dot);
      line = fmt::format("# [{}]", section);
    }
    line += fmt::format(" {}={}", key.substr(dot + 1), value);
  }
  fmt::print(out, "{}\n", line);
}

void print_class_totals(std::ostream& out, const KernelStats& k) {
  out << '\n';
  class_row(out, "class", "instrs", "threads", "sectors", "trans", "lines", "bytes_req",
            "bytes_fetch", "eff", "wavefronts", "conflicts");
  for (int ci = 0; ci < kOpClassCount; ++ci) {
    const AccessCounters& c = k.totals[ci];
    if (c.instructions == 0) continue;
    const auto cls = static_cast<OpClass>(ci);
    if (is_shared_class(cls))
      class_row(out, op_class_key(cls), c.instructions, c.active_threads, "-", "-", "-",
                c.bytes_requested, "-", "-", c.wavefronts, conflicts(c));
    else
      class_row(out, op_class_key(cls), c.instructions, c.active_threads, c.sectors, c.transactions,
                c.lines, c.bytes_requested, c.bytes_fetched, efficiency_cell(c), "-", "-");
  }
  // The TMA class's own line (docs/statistics.md, "TMA and bulk copies"), only where it has
  // records.
  if (const AccessCounters& t = k.total(OpClass::Tma); t.instructions != 0)
    fmt::print(out,
               "  tma: {} requests, {} bytes, L2 sectors {} read ({} hit), {} written, {} atomic; "
               "DRAM {} bytes read, {} written; {} shared-memory bytes written\n",
               t.requests, t.bytes_requested, t.l2_read_sectors, t.l2_read_sector_hits,
               t.l2_write_sectors, t.l2_atomic_sectors, t.dram_read_bytes, t.dram_write_bytes,
               t.shared_bytes_written);
}

void print_time(std::ostream& out, const KernelStats& k) {
  const TimeEstimate& t = k.time;
  fmt::print(out,
             "\n  time: {:.3f} us, {} (DRAM {:.3f}, L2 {:.3f}, L1 {:.3f}, latency {:.3f}, overhead "
             "{:.3f} us; "
             "{:.0f} waves, {:g} loads in flight per warp)\n",
             t.estimate_ns / 1000, bound_name(t.bound), t.dram_ns / 1000, t.l2_ns / 1000,
             t.l1_ns / 1000, t.latency_ns / 1000, t.overhead_ns / 1000, t.waves, t.loads_in_flight);
  fmt::print(out, "  achieved: DRAM {:.1f} GB/s, L2 {:.1f} GB/s, L1 {:.1f} GB/s\n", t.dram_gbps,
             t.l2_gbps, t.l1_gbps);
  if (const ScheduleTotals& s = k.schedule; s.timed && s.cycles > 0)
    fmt::print(
        out, "  schedule (--order timed): {:.0f} cycles; busy: busiest L1TEX {}, L2 {}, DRAM {}\n",
        s.cycles, percent(s.busiest_pipe_cycles / s.cycles), percent(s.l2_busy_cycles / s.cycles),
        percent(s.dram_busy_cycles / s.cycles));
  const DramTraffic& d = k.traffic.dram;
  if (d.row_hits + d.row_misses != 0)
    fmt::print(out, "  DRAM rows: {} hits, {} misses ({} hit rate)\n", d.row_hits, d.row_misses,
               percent(ratio(d.row_hits, d.row_hits + d.row_misses)));
  const Roofline& r = k.roofline;
  if (r.known)
    fmt::print(out,
               "  roofline: {} FLOP, intensity {:.3f} FLOP/B (cold {:.3f}), balance {:.2f}, "
               "attainable {:.1f} GFLOP/s, {}\n",
               r.flops, r.intensity, r.intensity_cold, r.balance, r.attainable_flops_per_s / 1e9,
               roofline_bound_name(r.bound));
}

void print_traffic(std::ostream& out, const KernelStats& k) {
  const AccessCounters& ld = k.total(OpClass::GlobalLoad);
  const AccessCounters t = kernel_traffic(k);
  fmt::print(
      out,
      "\n  L1: resident CTAs/SM {}, carve-out {} KiB, L1 {} KiB; global-load sector hit rate {}\n",
      k.resident_ctas_per_sm, k.carveout_kb, k.l1_bytes / 1024,
      percent(ratio(ld.l1_sector_hits, ld.l1_sector_hits + ld.l1_sector_misses)));
  fmt::print(out, "  L2: {} read sectors ({} hit), {} write sectors, {} atomic sectors\n",
             t.l2_read_sectors, percent(ratio(t.l2_read_sector_hits, t.l2_read_sectors)),
             t.l2_write_sectors, t.l2_atomic_sectors);
  fmt::print(out, "  DRAM: {} bytes read, {} bytes written\n", t.dram_read_bytes,
             t.dram_write_bytes);
}

std::vector<const InstrStats*> ranked(const KernelStats& k) {
  std::vector<const InstrStats*> rows;
  for (const InstrStats& i : k.instructions) rows.push_back(&i);
  std::stable_sort(rows.begin(), rows.end(), [](const InstrStats* a, const InstrStats* b) {
    if (wasted_bytes(a->c) != wasted_bytes(b->c)) return wasted_bytes(a->c) > wasted_bytes(b->c);
    return conflicts(a->c) > conflicts(b->c);
  });
  return rows;
}

/// The instruction's label: its id, and its source line when the trace carries line numbers.
std::string inst_label(const InstrStats& i, const std::map<std::uint32_t, std::uint32_t>& lines) {
  const auto l = lines.find(i.inst);
  return l == lines.end() ? std::to_string(i.inst) : fmt::format("{}:L{}", i.inst, l->second);
}

/// The pattern cell of `i` under `run --pattern`, else null.
const std::string* pattern_cell(const RunReport& r, const KernelStats& k, const InstrStats& i) {
  return r.patterns.empty() ? nullptr : &r.pattern_of(k.kernel.id, i);
}

void print_instructions(std::ostream& out, const RunReport& r, const KernelStats& k) {
  const auto lines = line_map(k.kernel);
  const std::string head = "pattern";
  out << '\n';
  instr_row(out, r.patterns.empty() ? nullptr : &head, "inst", "op", "size", "execs", "threads",
            "sectors", "trans", "lines", "bytes_req", "bytes_fetch", "eff", "wasted", "wavefront",
            "ideal", "conflicts");
  for (const InstrStats* i : ranked(k)) {
    const AccessCounters& c = i->c;
    if (is_shared(i->op))
      instr_row(out, pattern_cell(r, k, *i), inst_label(*i, lines), op_name(i->op), i->size,
                c.instructions, c.active_threads, "-", "-", "-", c.bytes_requested, "-", "-", "-",
                c.wavefronts, c.ideal_wavefronts, conflicts(c));
    else
      instr_row(out, pattern_cell(r, k, *i), inst_label(*i, lines), op_name(i->op), i->size,
                c.instructions, c.active_threads, c.sectors, c.transactions, c.lines,
                c.bytes_requested, c.bytes_fetched, efficiency_cell(c), wasted_bytes(c), "-", "-",
                "-");
  }
}

void print_hierarchy_instructions(std::ostream& out, const RunReport& r, const KernelStats& k) {
  const std::string head = "pattern";
  out << '\n';
  hierarchy_row(out, r.patterns.empty() ? nullptr : &head, "inst", "op", "size", "l1_hits",
                "l1_hit%", "l2_sectors", "l2_hit%", "l2_writes", "dram_read_B", "dram_write_B");
  for (const InstrStats* i : ranked(k)) {
    if (is_shared(i->op)) continue;
    const AccessCounters& c = i->c;
    hierarchy_row(out, pattern_cell(r, k, *i), i->inst, op_name(i->op), i->size, c.l1_sector_hits,
                  percent(ratio(c.l1_sector_hits, c.l1_sector_hits + c.l1_sector_misses)),
                  c.l2_read_sectors, percent(ratio(c.l2_read_sector_hits, c.l2_read_sectors)),
                  c.l2_write_sectors + c.l2_atomic_sectors, c.dram_read_bytes, c.dram_write_bytes);
  }
}

/// What caching saves, instruction by instruction: cold and cached L2 sectors and DRAM bytes.
void print_comparison(std::ostream& out, const KernelStats& cold, const KernelStats& cached) {
  fmt::print(out, "\n  cold vs cached, per instruction (DRAM bytes saved by the caches):\n");
  compare_row(out, "inst", "op", "size", "cold_l2_rd", "cached_l2_rd", "cold_dram_B",
              "cached_dram_B", "saved_B");
  for (std::size_t r = 0; r < cold.instructions.size() && r < cached.instructions.size(); ++r) {
    const InstrStats& a = cold.instructions[r];
    const InstrStats& b = cached.instructions[r];
    if (is_shared(a.op)) continue;
    const std::uint64_t cold_dram = a.c.dram_read_bytes + a.c.dram_write_bytes;
    const std::uint64_t cached_dram = b.c.dram_read_bytes + b.c.dram_write_bytes;
    compare_row(out, a.inst, op_name(a.op), a.size, a.c.l2_read_sectors, b.c.l2_read_sectors,
                cold_dram, cached_dram,
                static_cast<std::int64_t>(cold_dram) - static_cast<std::int64_t>(cached_dram));
  }
}

}  // namespace

void print_table(std::ostream& out, const RunReport& r) {
  fmt::print(out, "# gpumemsim run\n");
  print_config(out, r.config);
  for (std::size_t n = 0; n < r.kernels.size(); ++n) {
    const KernelStats& k = r.kernels[n];
    fmt::print(
        out,
        "\nkernel {} {} ({} mode): grid {},{},{} block {},{},{} shmem {} B, {} warp instructions\n",
        k.kernel.id, k.kernel.name.empty() ? "-" : k.kernel.name, kernel_mode_name(k.mode),
        k.kernel.grid.x, k.kernel.grid.y, k.kernel.grid.z, k.kernel.block.x, k.kernel.block.y,
        k.kernel.block.z, k.kernel.shmem_bytes, k.records);
    if (const auto ignored = ignored_header_values(k.kernel); !ignored.empty()) {
      fmt::print(out, "  trace header values ignored (they cannot be true):");
      for (const auto& [field, value] : ignored) fmt::print(out, " {}={}", field, value);
      fmt::print(out, "\n");
    }
    print_class_totals(out, k);
    print_time(out, k);
    if (k.mode == KernelMode::Cached) {
      print_traffic(out, k);
      print_hierarchy_instructions(out, r, k);
      const KernelStats* prev = n > 0 ? &r.kernels[n - 1] : nullptr;
      if (prev != nullptr && prev->mode == KernelMode::Cold && prev->kernel.id == k.kernel.id)
        print_comparison(out, *prev, k);
    } else {
      print_instructions(out, r, k);
    }
  }
}

}  // namespace gms::detail
