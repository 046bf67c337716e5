// HTML pages for sweep, compare and validate (see study_html.h).
#include "tools/study/study_html.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "sim/report/html/html_page.h"
#include "sim/report/html/svg_chart.h"
#include "sim/report/metrics.h"
#include "sim/report/study_stats.h"
#include "sim/report/tidy_csv.h"
#include "tools/study/compare.h"
#include "tools/study/validate.h"

namespace gms {

namespace {

constexpr std::size_t kMaxSeries = 12;
constexpr std::size_t kMaxTableRows = 400;
constexpr std::size_t kMaxBars = 24;

double to_double(const std::string& s) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  return end == s.c_str() ? NAN : v;
}

std::string fmt_cell(const CompareMetric& m, double v) {
  return m.percent() ? fmt::format("{:.1f}%", 100 * v) : fmt::format("{}", v);
}

}  // namespace

void print_sweep_html(std::ostream& out, const TidyCsv& t) {
  html::Page page("gpumemsim sweep report");
  std::vector<int> cfg_cols;
  for (std::size_t i = 0; i < t.columns.size(); ++i)
    if (t.columns[i].starts_with("cfg.")) cfg_cols.push_back(static_cast<int>(i));
  std::string notes;
  for (const std::string& c : t.comments)
    if (c.starts_with("# traces=") || c.starts_with("# mode=") || c.starts_with("# vary "))
      notes += (notes.empty() ? "" : "; ") + c.substr(2);
  page.paragraph(fmt::format("{} rows. {}", t.rows.size(), notes));

  const int trace = t.column("trace"), mode = t.column("mode"), kid = t.column("kernel_id"),
            kname = t.column("kernel_name"), inst = t.column("inst"), op = t.column("op");
  if (!cfg_cols.empty() && trace >= 0 && kid >= 0) {
    const int x_col = cfg_cols[0];
    std::vector<std::string> xs;
    for (const auto& r : t.rows)
      if (std::find(xs.begin(), xs.end(), r[x_col]) == xs.end()) xs.push_back(r[x_col]);
    bool any_cached = false, any_cold = false;
    for (const auto& r : t.rows) {
      any_cached |= mode >= 0 && r[mode] == "cached";
      any_cold |= mode >= 0 && r[mode] == "cold";
    }
    const bool both_modes = any_cached && any_cold;
    // One series per everything that identifies a row except the x key.
    bool many_traces = false;
    for (const auto& r : t.rows) many_traces |= r[trace] != t.rows[0][trace];
    auto series_key = [&](const std::vector<std::string>& r) {
      std::string k = fmt::format("kernel {} {}", r[kid], kname >= 0 ? r[kname] : "");
      if (many_traces) k = std::filesystem::path(r[trace]).filename().string() + " " + k;
      if (inst >= 0) k += fmt::format(" i{} {}", r[inst], op >= 0 ? r[op] : "");
      for (std::size_t c = 1; c < cfg_cols.size(); ++c)
        k += fmt::format(" {}={}", t.columns[cfg_cols[c]].substr(4), r[cfg_cols[c]]);
      return k;
    };
    std::vector<const Metric*> metrics{metric("transactions"), metric("bytes_fetched"),
                                       metric("efficiency"), metric("sectors_per_request"),
                                       metric("conflicts")};
    if (any_cached)
      metrics.insert(metrics.end(), {metric("l1_hit_rate"), metric("l2_hit_rate"),
                                     metric("dram_read_bytes"), metric("dram_write_bytes")});
    page.heading(2, fmt::format("Sweep curves against {}", t.columns[x_col]));
    for (const Metric* m : metrics) {
      const std::string metric(m->name);
      const int col = t.column(metric);
      if (col < 0) continue;
      svg::LineChart chart{fmt::format("{} vs {}", metric, t.columns[x_col].substr(4)),
                           t.columns[x_col].substr(4),
                           metric,
                           xs,
                           {},
                           m->percent()};
      std::map<std::string, std::size_t> index;
      bool nonzero = false;
      for (const auto& r : t.rows) {
        // With both modes, the coalescer's figures from the cold rows, the hierarchy's from the
        // cached ones.
        if (both_modes && (r[mode] == "cold") == m->hierarchy) continue;
        const std::string key = series_key(r);
        auto it = index.find(key);
        if (it == index.end()) {
          if (chart.series.size() >= kMaxSeries) continue;
          it = index.emplace(key, chart.series.size()).first;
          chart.series.push_back({key, std::vector<double>(xs.size(), NAN)});
        }
        const std::size_t xi =
            static_cast<std::size_t>(std::find(xs.begin(), xs.end(), r[x_col]) - xs.begin());
        chart.series[it->second].y[xi] = to_double(r[col]);
        nonzero |= to_double(r[col]) != 0;
      }
      if (nonzero) page.raw(svg::line_chart(chart));
    }
    page.raw("<p class=\"note\">At most " + std::to_string(kMaxSeries) +
             " lines per chart; the table below holds every row.</p>\n");
  }
  std::vector<std::vector<std::string>> rows(
      t.rows.begin(), t.rows.begin() + static_cast<long>(std::min(t.rows.size(), kMaxTableRows)));
  page.heading(2, "Rows");
  if (t.rows.size() > kMaxTableRows)
    page.paragraph(fmt::format("The first {} of {} rows (the CSV has them all).", kMaxTableRows,
                               t.rows.size()));
  page.table(t.columns, rows);
  out << page.str();
}

void print_comparison_html(std::ostream& out, const Comparison& c) {
  html::Page page("gpumemsim comparison");
  auto mode = [](SimMode m) { return m == SimMode::Cached ? "cached" : "cold"; };
  std::string traces;
  for (const std::string& t : c.traces) traces += (traces.empty() ? "" : ", ") + t;
  page.paragraph(fmt::format("A = {} ({}), B = {} ({}). Traces: {}.", c.a.label, mode(c.a.mode),
                             c.b.label, mode(c.b.mode), traces));
  // Series names; the mode tells the sides apart when the configuration is the same.
  const bool same = c.a.label == c.b.label;
  const std::string name_a = "A: " + c.a.label + (same ? std::string(" ") + mode(c.a.mode) : "");
  const std::string name_b = "B: " + c.b.label + (same ? std::string(" ") + mode(c.b.mode) : "");
  const bool dram = c.hierarchy();
  const char* traffic = dram ? "DRAM bytes (read + write)" : "bytes fetched";
  auto traffic_of = [&](const AccessCounters& x) {
    return static_cast<double>(dram ? dram_bytes(x) : x.bytes_fetched);
  };
  svg::BarChart overview{fmt::format("{} per kernel: A vs B", traffic),
                         traffic,
                         {},
                         {{name_a, {}}, {name_b, {}}},
                         false};
  svg::BarChart trans{
      "Transactions per kernel: A vs B", "transactions", {}, {{name_a, {}}, {name_b, {}}}, false};
  for (const KernelComparison& k : c.kernels) {
    const std::string label = fmt::format("{} {}", k.a.kernel.id, k.a.kernel.name);
    overview.categories.push_back(label);
    trans.categories.push_back(label);
    overview.series[0].values.push_back(traffic_of(kernel_sums(k.a).memory));
    overview.series[1].values.push_back(traffic_of(kernel_sums(k.b).memory));
    trans.series[0].values.push_back(static_cast<double>(kernel_sums(k.a).memory.transactions));
    trans.series[1].values.push_back(static_cast<double>(kernel_sums(k.b).memory.transactions));
  }
  page.heading(2, "Overview");
  page.raw(svg::bar_chart(overview));
  page.raw(svg::bar_chart(trans));

  std::vector<const CompareMetric*> metrics;
  for (const CompareMetric& m : compare_metrics())
    if (!m.hierarchy || dram) metrics.push_back(&m);
  for (const KernelComparison& k : c.kernels) {
    page.heading(2, fmt::format("Kernel {} {}", k.a.kernel.id, k.a.kernel.name));
    svg::BarChart bars{
        fmt::format("Kernel {}: {} per instruction, most changed first", k.a.kernel.id, traffic),
        traffic,
        {},
        {{name_a, {}}, {name_b, {}}},
        false};
    for (const InstrComparison& r : k.instructions) {
      if (is_shared(r.op) || bars.categories.size() >= kMaxBars) continue;
      bars.categories.push_back(fmt::format("{} {}.{}", r.inst, op_name(r.op), r.size));
      bars.series[0].values.push_back(traffic_of(r.a));
      bars.series[1].values.push_back(traffic_of(r.b));
    }
    if (!bars.categories.empty()) page.raw(svg::bar_chart(bars));
    const KernelSums sa = kernel_sums(k.a), sb = kernel_sums(k.b);
    std::vector<std::vector<std::string>> totals;
    for (const CompareMetric* m : metrics) {
      const bool shared = m->space == MetricSpace::Shared;
      totals.push_back({std::string(m->name),
                        fmt_cell(*m, m->value(shared ? sa.shared : sa.memory)),
                        fmt_cell(*m, m->value(shared ? sb.shared : sb.memory))});
    }
    page.table({"total", "A", "B"}, totals);
    std::vector<std::string> header{"rank", "inst", "op", "size"};
    for (const CompareMetric* m : metrics) {
      header.push_back(std::string(m->name) + " A");
      header.push_back(std::string(m->name) + " B");
    }
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 0; i < k.instructions.size(); ++i) {
      const InstrComparison& r = k.instructions[i];
      std::vector<std::string> row{std::to_string(i + 1), std::to_string(r.inst),
                                   std::string(op_name(r.op)), std::to_string(r.size)};
      for (const CompareMetric* m : metrics) {
        row.push_back(fmt_cell(*m, m->value(r.a)));
        row.push_back(fmt_cell(*m, m->value(r.b)));
      }
      rows.push_back(std::move(row));
    }
    page.heading(3, "Instructions, most changed first");
    page.table(header, rows);
  }
  out << page.str();
}

void print_validation_html(std::ostream& out, const Validation& v) {
  html::Page page("gpumemsim validation against Nsight Compute");
  std::string traces;
  for (const std::string& t : v.traces) traces += (traces.empty() ? "" : ", ") + t;
  page.paragraph(fmt::format(
      "Measured: {} ({} layout). Simulated: {} with {}. {} of {} comparisons within {}.",
      v.ncu_file, layout_name(v.layout), traces, v.config.gpu.name, v.checks() - v.failures(),
      v.checks(),
      v.tolerance ? fmt::format("{}% (points for percentages)", *v.tolerance)
                  : std::string("(no tolerance given)")));
  svg::ScatterChart scatter{"Simulated vs measured (log-log; the dashed line is y = x)",
                            "measured (ncu)",
                            "simulated",
                            {}};
  for (const KernelValidation& k : v.kernels)
    for (const MetricCheck& c : k.checks)
      scatter.points.push_back({c.measured, c.simulated,
                                fmt::format("kernel {} {}", k.kernel.id, c.mapping->statistic),
                                c.mapping->statistic});
  page.raw(svg::scatter_chart(scatter));
  for (const KernelValidation& k : v.kernels) {
    page.heading(2, fmt::format("Kernel {} {}  /  ncu {} {}", k.kernel.id, k.kernel.name,
                                k.measured_id, k.measured_name));
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> classes;
    for (const MetricCheck& c : k.checks) {
      rows.push_back({c.mapping->statistic, c.mapping->mode, fmt::format("{}", c.simulated),
                      fmt::format("{}", c.measured),
                      std::isinf(c.error)  ? "inf"
                      : c.mapping->percent ? fmt::format("{:.2f} pt", c.error)
                                           : fmt::format("{:.2f}%", c.error),
                      c.within ? "ok" : "FAIL", c.mapping->ncu_metric});
      classes.push_back(c.within ? "" : "fail");
    }
    page.table({"statistic", "mode", "simulated", "measured", "error", "", "ncu metric"}, rows,
               classes);
  }
  if (!v.unmatched.empty()) {
    page.heading(2, "Unmatched");
    std::vector<std::vector<std::string>> rows;
    for (const std::string& s : v.unmatched) rows.push_back({s});
    page.table({"kernel"}, rows);
  }
  out << page.str();
}

}  // namespace gms
