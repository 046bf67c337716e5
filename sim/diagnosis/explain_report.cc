// The printers of `gpumemsim explain`: a table (what-ifs ranked by kernel time saved, then each
// candidate's diagnosis), CSV (one row per what-if and mode), JSON (the what-ifs and every
// instruction's pattern summary) and an HTML page in the run report's family.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <nlohmann/json.hpp>

#include "sim/diagnosis/explain.h"
#include "sim/diagnosis/explain_picture.h"
#include "sim/report/html/html_page.h"
#include "sim/report/html/svg_chart.h"
#include "sim/report/report_stats.h"

namespace gms {

namespace {

using Json = nlohmann::ordered_json;

std::string pct(double f) {
  return fmt::format("{:.1f}%", 100.0 * f);
}
std::string us(double ns) {
  return fmt::format("{:.3f}", ns / 1000);
}
std::string inst_label(const WhatIf& w) {
  return w.line ? fmt::format("{}:L{}", w.target.inst, *w.line) : std::to_string(w.target.inst);
}
bool is_layout(const WhatIf& w) {
  return w.kind == WhatIfKind::Layout;
}
/// What the row changes: the instruction, or the layout change.
std::string what_label(const WhatIf& w) {
  return is_layout(w) ? w.layout : inst_label(w);
}
/// The instruction's own cost (a layout row: its instructions'): sectors, or wavefronts for
/// shared memory.
std::uint64_t inst_cost(const WhatIf& w, const AccessCounters& c) {
  return is_shared(w.target.op) ? c.wavefronts : c.sectors;
}
bool cached(const WhatIf& w) {
  return w.mode == KernelMode::Cached;
}

/// Rank of each row within its mode (rows are sorted by mode, then time saved).
std::vector<std::size_t> ranks(const ExplainResult& r) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < r.rows.size(); ++i)
    out.push_back(i > 0 && r.rows[i - 1].mode == r.rows[i].mode ? out.back() + 1 : 1);
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + '"';
}

template <class... Cells>
void row(std::ostream& out, const Cells&... cells) {
  fmt::print(out,
             "  {:>4} {:>6} {:<6} {:<6} {:<20} {:<5}{:>5}  "
             "{:<26}{:>6}{:>10}{:>10}{:>14}{:>14}{:>9}{:>9}{:>12}{:>12}{:>11}{:>8}\n",
             cells...);
}

void print_table(std::ostream& out, const ExplainResult& r) {
  fmt::print(out,
             "# gpumemsim explain: {} candidate instruction(s), each replayed with its accesses "
             "made ideal (the same bytes, coalesced and aligned; shared memory conflict-free)\n",
             r.candidates);
  if (!r.layouts.empty())
    fmt::print(out,
               "# and {} layout change(s) of an array, each replayed with every access to the "
               "array moved (kind layout; insts = the instructions it moves)\n",
               r.layouts.size());
  fmt::print(out,
             "# ranked by kernel time saved; cost = the instruction's sectors (shared: "
             "wavefronts; a layout: its instructions'); hit = L1 hit rate (cached mode); ' = "
             "with the fix\n");
  if (r.rows.empty()) {
    fmt::print(out, "\nno instruction wastes bytes or bank passes: nothing to fix\n");
    return;
  }
  out << '\n';
  row(out, "rank", "kernel", "mode", "kind", "inst/layout", "op", "size", "pattern", "insts",
      "cost", "cost'", "dram_B", "dram_B'", "hit", "hit'", "time_us", "time_us'", "saved_us",
      "saved");
  const auto rk = ranks(r);
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const WhatIf& w = r.rows[i];
    row(out, rk[i], w.target.kernel_id, kernel_mode_name(w.mode), is_layout(w) ? "layout" : "instr",
        what_label(w), is_layout(w) ? "-" : op_name(w.target.op),
        is_layout(w) ? std::string("-") : std::to_string(w.target.size),
        is_layout(w) ? std::string("-") : w.pattern, w.touched, inst_cost(w, w.before),
        inst_cost(w, w.after), w.kernel_before.dram_bytes, w.kernel_after.dram_bytes,
        cached(w) ? pct(w.kernel_before.l1_hit_rate) : "-",
        cached(w) ? pct(w.kernel_after.l1_hit_rate) : "-", us(w.kernel_before.time_ns),
        us(w.kernel_after.time_ns), us(w.saved_ns()), pct(w.saved_fraction()));
  }
  out << "\n  diagnosis:\n";
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const WhatIf& w = r.rows[i];
    if (i > 0 && r.rows[i - 1].mode != w.mode) break;  // one line per candidate
    if (is_layout(w))
      fmt::print(out, "  {:>4}. kernel {} layout {}: {}\n", rk[i], w.target.kernel_id, w.layout,
                 w.reading);
    else
      fmt::print(out, "  {:>4}. kernel {} inst {} {}.{}: {}\n", rk[i], w.target.kernel_id,
                 inst_label(w), op_name(w.target.op), w.target.size, w.reading);
  }
}

void print_csv(std::ostream& out, const ExplainResult& r) {
  for (const auto& [key, value] : effective_config(r.config))
    fmt::print(out, "# {}={}\n", key, value);
  fmt::print(out,
             "rank,kernel_id,kernel_name,mode,inst,line,op,size,pattern,executions,"
             "sectors_before,sectors_after,wavefronts_before,wavefronts_after,"
             "inst_dram_read_bytes_before,inst_dram_read_bytes_after,"
             "kernel_sectors_before,kernel_sectors_after,kernel_wavefronts_before,"
             "kernel_wavefronts_after,dram_bytes_before,dram_bytes_after,l1_hit_rate_before,"
             "l1_hit_rate_after,l2_hit_rate_before,l2_hit_rate_after,time_ns_before,"
             "time_ns_after,saved_ns,saved_fraction,reading,kind,layout,instructions_touched,"
             "conflicts_before,conflicts_after,l1_hits_before,l1_hits_after,l2_hits_before,"
             "l2_hits_after,records_rewritten\n");
  const auto rk = ranks(r);
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const WhatIf& w = r.rows[i];
    const KernelFigures &b = w.kernel_before, &a = w.kernel_after;
    fmt::print(out, "{},{},{},{},{},{},{},{},{},{},", rk[i], w.target.kernel_id,
               csv_field(w.kernel_name), kernel_mode_name(w.mode), w.target.inst,
               w.line ? std::to_string(*w.line) : std::string(), op_name(w.target.op),
               w.target.size, csv_field(w.pattern), w.before.instructions);
    fmt::print(out, "{},{},{},{},{},{},", w.before.sectors, w.after.sectors, w.before.wavefronts,
               w.after.wavefronts, w.before.dram_read_bytes, w.after.dram_read_bytes);
    fmt::print(out, "{},{},{},{},{},{},{:.6f},{:.6f},{:.6f},{:.6f},{:.3f},{:.3f},{:.3f},{:.6f},{},",
               b.sectors, a.sectors, b.wavefronts, a.wavefronts, b.dram_bytes, a.dram_bytes,
               b.l1_hit_rate, a.l1_hit_rate, b.l2_hit_rate, a.l2_hit_rate, b.time_ns, a.time_ns,
               w.saved_ns(), w.saved_fraction(), csv_field(w.reading));
    fmt::print(out, "{},{},{},{},{},{},{},{},{},{}\n", what_if_kind_name(w.kind),
               csv_field(w.layout), w.touched, b.conflicts, a.conflicts, b.l1_hits, a.l1_hits,
               b.l2_hits, a.l2_hits, w.rewritten);
  }
}

Json figures_json(const KernelFigures& f) {
  return {
      {"sectors", f.sectors},         {"wavefronts", f.wavefronts},   {"conflicts", f.conflicts},
      {"dram_bytes", f.dram_bytes},   {"l1_hits", f.l1_hits},         {"l2_hits", f.l2_hits},
      {"l1_hit_rate", f.l1_hit_rate}, {"l2_hit_rate", f.l2_hit_rate}, {"time_ns", f.time_ns}};
}

Json inst_json(const AccessCounters& c) {
  return {{"sectors", c.sectors},
          {"transactions", c.transactions},
          {"bytes_fetched", c.bytes_fetched},
          {"wavefronts", c.wavefronts},
          {"l1_sector_hits", c.l1_sector_hits},
          {"l2_read_sectors", c.l2_read_sectors},
          {"dram_read_bytes", c.dram_read_bytes},
          {"dram_write_bytes", c.dram_write_bytes}};
}

void print_json(std::ostream& out, const ExplainResult& r) {
  Json root;
  root["schema"] = 1;
  root["traces"] = r.traces;
  root["candidates"] = r.candidates;
  Json rows = Json::array();
  const auto rk = ranks(r);
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const WhatIf& w = r.rows[i];
    Json j;
    j["rank"] = rk[i];
    j["kind"] = what_if_kind_name(w.kind);
    if (is_layout(w)) {
      j["layout"] = w.layout;
      j["instructions_touched"] = w.touched;
    }
    j["records_rewritten"] = w.rewritten;
    j["kernel_id"] = w.target.kernel_id;
    j["kernel_name"] = w.kernel_name;
    j["mode"] = kernel_mode_name(w.mode);
    j["inst"] = w.target.inst;
    if (w.line) j["line"] = *w.line;
    j["op"] = op_name(w.target.op);
    j["size"] = w.target.size;
    j["pattern"] = w.pattern;
    j["reading"] = w.reading;
    j["executions"] = w.before.instructions;
    j["instruction_before"] = inst_json(w.before);
    j["instruction_after"] = inst_json(w.after);
    j["kernel_before"] = figures_json(w.kernel_before);
    j["kernel_after"] = figures_json(w.kernel_after);
    j["saved_ns"] = w.saved_ns();
    j["saved_fraction"] = w.saved_fraction();
    rows.push_back(std::move(j));
  }
  root["what_ifs"] = std::move(rows);
  Json arrays = Json::array();
  for (const LayoutArray& a : r.arrays)
    arrays.push_back({{"name", a.name},
                      {"base", a.base},
                      {"bytes", a.bytes},
                      {"source", a.from_trace ? "trace" : "addresses"}});
  root["arrays"] = std::move(arrays);
  Json kernels = Json::array();
  for (const KernelPatterns& k : r.patterns) {
    Json jk;
    jk["id"] = k.kernel.id;
    jk["name"] = k.kernel.name;
    Json insts = Json::array();
    for (const PatternSummary& s : k.instructions) {
      Json ji;
      ji["inst"] = s.inst;
      ji["op"] = op_name(s.op);
      ji["size"] = s.size;
      ji["pattern"] = summary_label(s);
      ji["reading"] = summary_reading(s);
      ji["cost"] = s.cost;
      ji["ideal"] = s.ideal;
      Json kinds = Json::object();
      for (int kind = 0; kind < kPatternKindCount; ++kind)
        if (s.executions[kind] != 0)
          kinds[std::string(pattern_kind_name(static_cast<PatternKind>(kind)))] =
              s.executions[kind];
      ji["executions"] = std::move(kinds);
      insts.push_back(std::move(ji));
    }
    jk["instructions"] = std::move(insts);
    kernels.push_back(std::move(jk));
  }
  root["patterns"] = std::move(kernels);
  out << root.dump(2) << '\n';
}

void print_html(std::ostream& out, const ExplainResult& r) {
  html::Page page("gpumemsim explain");
  std::string traces;
  for (const std::string& t : r.traces) traces += (traces.empty() ? "" : ", ") + t;
  page.heading(1, "What to fix first");
  page.paragraph(fmt::format(
      "Traces: {}. Configuration: {}. {} candidate instruction(s), each replayed with its "
      "accesses made ideal (the same bytes, coalesced and aligned; shared memory "
      "conflict-free), ranked by the kernel time the fix saves.",
      traces, r.config.gpu.name, r.candidates));
  const auto rk = ranks(r);
  for (KernelMode mode : {KernelMode::Cold, KernelMode::Cached}) {
    svg::BarChart chart;
    chart.title = fmt::format("Kernel time saved per fixed instruction or layout ({} mode)",
                              kernel_mode_name(mode));
    chart.y_label = "time saved (us)";
    svg::BarSeries saved{"time saved", {}};
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
      const WhatIf& w = r.rows[i];
      if (w.mode != mode) continue;
      chart.categories.push_back(is_layout(w) ? fmt::format("k{} {}", w.target.kernel_id, w.layout)
                                              : fmt::format("k{} inst {} {}", w.target.kernel_id,
                                                            inst_label(w), op_name(w.target.op)));
      saved.values.push_back(w.saved_ns() / 1000);
      rows.push_back({std::to_string(rk[i]), std::to_string(w.target.kernel_id),
                      is_layout(w) ? "layout" : "instruction",
                      is_layout(w) ? w.layout : std::to_string(w.target.inst),
                      w.line && !is_layout(w) ? std::to_string(*w.line) : std::string(),
                      is_layout(w) ? std::string("-")
                                   : fmt::format("{}.{}", op_name(w.target.op), w.target.size),
                      is_layout(w) ? std::string("-") : w.pattern, std::to_string(w.touched),
                      std::to_string(inst_cost(w, w.before)), std::to_string(inst_cost(w, w.after)),
                      std::to_string(w.kernel_before.dram_bytes),
                      std::to_string(w.kernel_after.dram_bytes), us(w.kernel_before.time_ns),
                      us(w.kernel_after.time_ns), us(w.saved_ns()), pct(w.saved_fraction()),
                      w.reading});
    }
    if (rows.empty()) continue;
    chart.series.push_back(std::move(saved));
    page.heading(2, fmt::format("{} mode", kernel_mode_name(mode)));
    page.raw(svg::bar_chart(chart));
    page.table({"rank", "kernel", "kind", "inst or layout", "source line", "op", "pattern",
                "instructions", "cost", "cost fixed", "DRAM B", "DRAM B fixed", "time us",
                "time us fixed", "saved us", "saved", "diagnosis"},
               rows);
  }
  for (std::size_t c = 0; c < r.layouts.size(); ++c) {
    const LayoutSample& s = r.samples[c];
    if (!s.found) continue;
    page.heading(2, fmt::format("Layout {}: one warp before and after", r.layouts[c].label));
    page.paragraph(fmt::format(
        "Instruction {} ({}.{}), its first execution the change moves: warp {} of CTA {}. Each "
        "lane joins what it reaches.",
        s.before.inst, op_name(s.before.op), s.before.size, s.before.warp, s.before.cta));
    page.raw(warp_picture(s.before, r.config, "before") +
             warp_picture(s.after, r.config, "after " + r.layouts[c].label));
  }
  if (r.rows.empty()) page.paragraph("No instruction wastes bytes or bank passes: nothing to fix.");
  out << page.str();
}

}  // namespace

void print_explain(std::ostream& out, const ExplainResult& r, ReportFormat format) {
  switch (format) {
    case ReportFormat::Table:
      print_table(out, r);
      break;
    case ReportFormat::Csv:
      print_csv(out, r);
      break;
    case ReportFormat::Json:
      print_json(out, r);
      break;
    case ReportFormat::Html:
      print_html(out, r);
      break;
  }
}

}  // namespace gms
