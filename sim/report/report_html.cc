// The HTML run report: one self-contained page with the configuration, per kernel the class
// totals, charts (sectors per request vs ideal, shared wavefronts vs ideal, hit rates per level,
// cold vs cached traffic) and the per-instruction table.
#include <fmt/format.h>

#include <algorithm>

#include "sim/report/html/html_page.h"
#include "sim/report/html/svg_chart.h"
#include "sim/report/report.h"
#include "sim/report/report_stats.h"
#include "sim/report/study_stats.h"

namespace gms::detail {

namespace {

std::string pct(double f) {
  return fmt::format("{:.1f}%", 100 * f);
}
std::string num(std::uint64_t v) {
  return fmt::format("{}", v);
}
std::string instr_label(const InstrStats& i) {
  return fmt::format("{} {}.{}", i.inst, op_name(i.op), i.size);
}
std::string kernel_label(const KernelStats& k) {
  return fmt::format("{} {}", k.kernel.id, k.kernel.name.empty() ? "-" : k.kernel.name);
}

bool cached(const KernelStats& k) {
  return k.mode == KernelMode::Cached;
}

/// Class totals of one kernel.
std::string totals_table(const KernelStats& k) {
  std::vector<std::string> header{"class",      "instructions", "requests",
                                  "sectors",    "transactions", "bytes fetched",
                                  "efficiency", "wavefronts",   "conflicts"};
  if (cached(k))
    header.insert(header.end(), {"L1 hit rate", "L2 hit rate", "DRAM read B", "DRAM write B"});
  std::vector<std::vector<std::string>> rows;
  for (int c = 0; c < kOpClassCount; ++c) {
    const AccessCounters& t = k.totals[c];
    if (t.instructions == 0) continue;
    const bool shared = is_shared_class(static_cast<OpClass>(c));
    std::vector<std::string> r{std::string(op_class_key(static_cast<OpClass>(c))),
                               num(t.instructions),
                               num(t.requests),
                               shared ? "" : num(t.sectors),
                               shared ? "" : num(t.transactions),
                               shared ? "" : num(t.bytes_fetched),
                               shared ? "" : pct(efficiency(t)),
                               shared ? num(t.wavefronts) : "",
                               shared ? num(conflicts(t)) : ""};
    if (cached(k)) {
      r.insert(r.end(),
               {shared ? "" : pct(l1_hit_rate(t)), shared ? "" : pct(l2_hit_rate(t)),
                shared ? "" : num(t.dram_read_bytes), shared ? "" : num(t.dram_write_bytes)});
    }
    rows.push_back(std::move(r));
  }
  return html::table(header, rows);
}

/// Instructions ranked by wasted bytes, then conflicts (as the text table); a pattern column last
/// under `run --pattern`.
std::string instructions_table(const RunReport& rep, const KernelStats& k) {
  std::vector<const InstrStats*> order;
  for (const InstrStats& i : k.instructions) order.push_back(&i);
  std::stable_sort(order.begin(), order.end(), [](const InstrStats* a, const InstrStats* b) {
    if (wasted_bytes(a->c) != wasted_bytes(b->c)) return wasted_bytes(a->c) > wasted_bytes(b->c);
    return conflicts(a->c) > conflicts(b->c);
  });
  std::vector<std::string> header{"inst",        "op",       "size",         "requests",
                                  "sectors/req", "ideal",    "transactions", "bytes fetched",
                                  "efficiency",  "wasted B", "wavefronts",   "conflicts"};
  if (cached(k)) header.insert(header.end(), {"L1 hit", "L2 hit", "DRAM read B", "DRAM write B"});
  if (!rep.patterns.empty()) header.push_back("pattern");
  std::vector<std::vector<std::string>> rows;
  for (const InstrStats* i : order) {
    const AccessCounters& c = i->c;
    const bool shared = is_shared(i->op);
    std::vector<std::string> r{num(i->inst),
                               std::string(op_name(i->op)),
                               num(i->size),
                               num(c.requests),
                               shared ? "" : fmt::format("{:.2f}", sectors_per_request(c)),
                               shared ? "" : fmt::format("{:.0f}", ideal_sectors_per_request(c)),
                               shared ? "" : num(c.transactions),
                               shared ? "" : num(c.bytes_fetched),
                               shared ? "" : pct(efficiency(c)),
                               shared ? "" : num(wasted_bytes(c)),
                               shared ? num(c.wavefronts) : "",
                               shared ? num(conflicts(c)) : ""};
    if (cached(k))
      r.insert(r.end(),
               {shared ? "" : pct(l1_hit_rate(c)), shared ? "" : pct(l2_hit_rate(c)),
                shared ? "" : num(c.dram_read_bytes), shared ? "" : num(c.dram_write_bytes)});
    if (!rep.patterns.empty()) r.push_back(rep.pattern_of(k.kernel.id, *i));
    rows.push_back(std::move(r));
  }
  return html::table(header, rows);
}

/// Sectors per request against the ideal, per global/local/atomic instruction.
std::string sectors_chart(const KernelStats& k) {
  svg::BarChart c{fmt::format("Kernel {}: sectors per request vs ideal", kernel_label(k)),
                  "sectors per request",
                  {},
                  {{"sectors/request", {}}, {"ideal", {}}},
                  false};
  for (const InstrStats& i : k.instructions) {
    if (is_shared(i.op)) continue;
    c.categories.push_back(instr_label(i));
    c.series[0].values.push_back(sectors_per_request(i.c));
    c.series[1].values.push_back(ideal_sectors_per_request(i.c));
  }
  return c.categories.empty() ? "" : svg::bar_chart(c);
}

/// Shared-memory wavefronts per request against the conflict-free ideal.
std::string wavefront_chart(const KernelStats& k) {
  svg::BarChart c{fmt::format("Kernel {}: shared wavefronts per request vs ideal", kernel_label(k)),
                  "wavefronts per request",
                  {},
                  {{"wavefronts/request", {}}, {"ideal", {}}},
                  false};
  for (const InstrStats& i : k.instructions) {
    if (!is_shared(i.op)) continue;
    c.categories.push_back(instr_label(i));
    c.series[0].values.push_back(
        safe_ratio(static_cast<double>(i.c.wavefronts), static_cast<double>(i.c.requests)));
    c.series[1].values.push_back(
        safe_ratio(static_cast<double>(i.c.ideal_wavefronts), static_cast<double>(i.c.requests)));
  }
  return c.categories.empty() ? "" : svg::bar_chart(c);
}

/// L1 and L2 hit rates of each load instruction.
std::string hit_rate_chart(const KernelStats& k) {
  svg::BarChart c{fmt::format("Kernel {}: hit rates per level", kernel_label(k)),
                  "hit rate",
                  {},
                  {{"L1", {}}, {"L2", {}}},
                  true};
  for (const InstrStats& i : k.instructions) {
    if (!is_global_load(i.op)) continue;
    c.categories.push_back(instr_label(i));
    c.series[0].values.push_back(l1_hit_rate(i.c));
    c.series[1].values.push_back(l2_hit_rate(i.c));
  }
  return c.categories.empty() ? "" : svg::bar_chart(c);
}

/// DRAM bytes per instruction, cold against cached.
std::string cold_cached_chart(const KernelStats& cold, const KernelStats& warm) {
  svg::BarChart c{fmt::format("Kernel {}: DRAM bytes, cold vs cached", kernel_label(warm)),
                  "DRAM bytes (read + write)",
                  {},
                  {{"cold", {}}, {"cached", {}}},
                  false};
  for (std::size_t i = 0; i < warm.instructions.size() && i < cold.instructions.size(); ++i) {
    if (is_shared(warm.instructions[i].op)) continue;
    c.categories.push_back(instr_label(warm.instructions[i]));
    c.series[0].values.push_back(static_cast<double>(dram_bytes(cold.instructions[i].c)));
    c.series[1].values.push_back(static_cast<double>(dram_bytes(warm.instructions[i].c)));
  }
  return c.categories.empty() ? "" : svg::bar_chart(c);
}

}  // namespace

void print_html(std::ostream& out, const RunReport& r) {
  html::Page page("gpumemsim run report");
  std::string traces;
  for (const std::string& t : r.traces) traces += (traces.empty() ? "" : ", ") + t;
  page.paragraph(fmt::format("Traces: {}. Configuration: {} ({} SMs). {} kernel result(s).", traces,
                             r.config.gpu.name, r.config.gpu.sm_count, r.kernels.size()));
  std::vector<std::vector<std::string>> cfg;
  for (const auto& [k, v] : effective_config(r.config)) cfg.push_back({k, v});
  page.details("Effective configuration", html::table({"key", "value"}, cfg));

  // Overview across kernels: hit rates per level and, with both modes, cold vs cached traffic.
  svg::BarChart hits{"Hit rates per level, per kernel (cached mode)",
                     "sector hit rate",
                     {},
                     {{"L1 (loads)", {}}, {"L2 (reads)", {}}},
                     true};
  svg::BarChart both{"DRAM bytes per kernel, cold vs cached",
                     "DRAM bytes (read + write)",
                     {},
                     {{"cold", {}}, {"cached", {}}},
                     false};
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    const KernelStats& k = r.kernels[i];
    if (!cached(k)) continue;
    const KernelSums s = kernel_sums(k);
    hits.categories.push_back(kernel_label(k));
    hits.series[0].values.push_back(l1_hit_rate(s.memory));
    hits.series[1].values.push_back(l2_hit_rate(s.memory));
    if (i > 0 && r.kernels[i - 1].mode == KernelMode::Cold &&
        r.kernels[i - 1].kernel.id == k.kernel.id) {
      both.categories.push_back(kernel_label(k));
      both.series[0].values.push_back(
          static_cast<double>(dram_bytes(kernel_sums(r.kernels[i - 1]).memory)));
      both.series[1].values.push_back(static_cast<double>(dram_bytes(s.memory)));
    }
  }
  if (!hits.categories.empty() || !both.categories.empty()) page.heading(2, "Overview");
  if (!hits.categories.empty()) page.raw(svg::bar_chart(hits));
  if (!both.categories.empty()) page.raw(svg::bar_chart(both));

  // The time model per kernel, and the roofline for kernels whose FLOPs are known (placed at
  // their intensity and the FLOP rate the time estimate implies).
  std::vector<std::vector<std::string>> times;
  svg::Roofline roof{
      "Roofline (FP32, DRAM)", r.config.gpu.fp32_gflops, r.config.dram.peak_gbps, {}};
  for (const KernelStats& k : r.kernels) {
    const TimeEstimate& t = k.time;
    times.push_back({kernel_label(k), std::string(kernel_mode_name(k.mode)),
                     fmt::format("{:.3f}", t.estimate_ns / 1000), std::string(bound_name(t.bound)),
                     fmt::format("{:.3f}", t.dram_ns / 1000), fmt::format("{:.3f}", t.l2_ns / 1000),
                     fmt::format("{:.3f}", t.l1_ns / 1000),
                     fmt::format("{:.3f}", t.latency_ns / 1000),
                     fmt::format("{:.3f}", t.overhead_ns / 1000)});
    if (k.roofline.known && t.estimate_ns > 0)
      roof.points.push_back({fmt::format("{} ({})", kernel_label(k), kernel_mode_name(k.mode)),
                             k.roofline.intensity,
                             static_cast<double>(k.roofline.flops) / t.estimate_ns});
  }
  if (!times.empty()) {
    page.heading(2, "Time model");
    page.raw(html::table({"kernel", "mode", "estimate us", "bound", "DRAM us", "L2 us", "L1 us",
                          "latency us", "overhead us"},
                         times));
  }
  if (!roof.points.empty()) page.raw(svg::roofline_chart(roof));

  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    const KernelStats& k = r.kernels[i];
    const bool after_cold = i > 0 && r.kernels[i - 1].mode == KernelMode::Cold &&
                            r.kernels[i - 1].kernel.id == k.kernel.id;
    page.heading(2, fmt::format("Kernel {} ({})", kernel_label(k), kernel_mode_name(k.mode)));
    page.paragraph(fmt::format(
        "grid {},{},{}  block {},{},{}  shared memory {} B  records {}{}", k.kernel.grid.x,
        k.kernel.grid.y, k.kernel.grid.z, k.kernel.block.x, k.kernel.block.y, k.kernel.block.z,
        k.kernel.shmem_bytes, k.records,
        cached(k) ? fmt::format("  L1 {} B per SM (carve-out {} KiB)", k.l1_bytes, k.carveout_kb)
                  : ""));
    page.raw(totals_table(k));
    if (!after_cold) {  // the coalescer's figures are the same in both modes: draw them once
      page.raw(sectors_chart(k));
      page.raw(wavefront_chart(k));
    }
    if (cached(k)) page.raw(hit_rate_chart(k));
    if (after_cold) page.raw(cold_cached_chart(r.kernels[i - 1], k));
    page.heading(3, "Instructions, most wasted bytes first");
    page.raw(instructions_table(r, k));
  }
  out << page.str();
}

}  // namespace gms::detail
