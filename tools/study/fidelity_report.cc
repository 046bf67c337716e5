// The calibration report, as text and as an HTML page (fidelity_report.h).
#include "tools/study/fidelity_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sim/report/html/html_page.h"
#include "sim/report/html/svg_chart.h"
#include "tools/study/fidelity_points.h"

namespace gms {

namespace {

const std::vector<std::string> kSummaryHeader{
    "curve", "preset", "points", "errors (%)", "gaps (bound above target)", "over bound"};

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const std::string& s : parts) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string percent(const std::optional<double>& v) {
  return v ? fmt::format("{:.1f}", *v) : "none";
}

/// "mae 12.41 > 12.3", or "mae 3.10 (no bound)".
std::string over_text(const FidelityMetric& m) {
  return m.bound_pct ? fmt::format("{} {:.2f} > {:.1f}", m.name, m.value_pct, *m.bound_pct)
                     : fmt::format("{} {:.2f} (no bound)", m.name, m.value_pct);
}

/// The summary row of a curve (the same cells in the text table and on the page).
std::vector<std::string> summary_row(const FidelityCurve& c) {
  std::vector<std::string> errors, gaps, over;
  for (const FidelityMetric& m : c.metrics) {
    errors.push_back(fmt::format("{} {:.1f}", m.name, m.value_pct));
    if (m.gap())
      gaps.push_back(
          fmt::format("{} (bound {:.1f}, target {:.1f})", m.name, *m.bound_pct, m.target_pct));
    if (!m.within) over.push_back(over_text(m));
  }
  return {c.name,
          c.preset,
          fmt::format("{}", c.points.size()),
          join(errors, ", "),
          gaps.empty() ? "-" : join(gaps, ", "),
          over.empty() ? "-" : join(over, ", ")};
}

struct Totals {
  std::size_t metrics = 0, gaps = 0, over = 0;
};

Totals totals(const FidelityPoints& p) {
  Totals t;
  for (const FidelityCurve& c : p.curves)
    for (const FidelityMetric& m : c.metrics) {
      ++t.metrics;
      t.gaps += m.gap();
      t.over += !m.within;
    }
  return t;
}

std::string totals_line(const FidelityPoints& p) {
  const Totals t = totals(p);
  return fmt::format("{} curves, {} metrics: {} over their bound, {} gaps (bound above target).",
                     p.curves.size(), t.metrics, t.over, t.gaps);
}

const std::vector<std::string> kGroupHeader{"preset", "kind", "role", "MAE %", "points", "curves"};

/// The fits and checks of each preset apart (FidelityPoints::groups).
std::vector<std::vector<std::string>> group_rows(const FidelityPoints& p) {
  std::vector<std::vector<std::string>> rows;
  for (const FidelityGroup& g : p.groups())
    rows.push_back({g.preset, g.kind, g.fit ? "fit" : "check", fmt::format("{:.1f}", g.mae_pct),
                    fmt::format("{}", g.points), join(g.curves, " ")});
  return rows;
}

void print_columns(std::ostream& out, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t i = 0; i < r.size(); ++i)
      line += i + 1 == r.size() ? r[i] : fmt::format("{:<{}}  ", r[i], width[i]);
    out << line << '\n';
  }
}

/// Published against simulated: one x position per x value (in order of first appearance), a
/// published and a simulated line per series.
svg::LineChart curve_chart(const FidelityCurve& c) {
  svg::LineChart chart;
  chart.title = fmt::format("{}: published vs simulated ({})", c.name, c.preset);
  chart.x_label = c.x_label;
  chart.y_label = c.unit;
  for (const FidelityPoint& p : c.points)
    if (std::find(chart.x.begin(), chart.x.end(), p.x) == chart.x.end()) chart.x.push_back(p.x);
  const std::vector<std::string> series = c.series();
  for (const std::string& s : series)
    for (const bool simulated : {false, true}) {
      svg::LineSeries line;
      const char* what = simulated ? "simulated" : "published";
      line.name = series.size() == 1 ? what : fmt::format("{} {}", s, what);
      line.y.assign(chart.x.size(), NAN);
      for (const FidelityPoint& p : c.points)
        if (p.series == s) {
          const auto at = std::find(chart.x.begin(), chart.x.end(), p.x) - chart.x.begin();
          line.y[static_cast<std::size_t>(at)] = simulated ? p.simulated : p.published;
        }
      chart.series.push_back(std::move(line));
    }
  return chart;
}

void curve_section(html::Page& page, const FidelityCurve& c) {
  page.heading(3, c.name);
  page.paragraph("Board: " + c.board);
  page.paragraph("Source: " + c.source);
  page.paragraph("Replayed on preset " + c.preset +
                 (c.overrides.empty() ? "" : " with --set " + c.overrides));
  page.raw(svg::line_chart(curve_chart(c)));

  const bool edges = std::any_of(c.metrics.begin(), c.metrics.end(), [](const FidelityMetric& m) {
    return m.published || m.simulated;
  });
  std::vector<std::string> header{"metric", "error %", "bound %", "target %", "within", "note"};
  if (edges) header.insert(header.begin() + 1, {"published", "simulated"});
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> classes;
  for (const FidelityMetric& m : c.metrics) {
    std::vector<std::string> row{m.name,
                                 fmt::format("{:.2f}", m.value_pct),
                                 percent(m.bound_pct),
                                 fmt::format("{:.1f}", m.target_pct),
                                 m.within ? "yes" : "no",
                                 !m.bound_pct ? "no bound"
                                 : m.gap()    ? "gap: the bound is the error when it was written"
                                              : ""};
    if (edges) {
      auto edge = [&](const std::optional<double>& v) {
        return v ? fmt::format("{:g} {}", *v, m.unit)
                 : std::string(m.published || m.simulated ? "none" : "");
      };
      row.insert(row.begin() + 1, {edge(m.published), edge(m.simulated)});
    }
    rows.push_back(std::move(row));
    classes.push_back(m.within ? "" : "fail");
  }
  // The note column only where a metric has one.
  if (std::all_of(rows.begin(), rows.end(), [](const auto& r) { return r.back().empty(); })) {
    header.pop_back();
    for (auto& r : rows) r.pop_back();
  }
  page.table(header, rows, classes);

  std::vector<std::vector<std::string>> points;
  for (const FidelityPoint& p : c.points)
    points.push_back({p.series, p.x, fmt::format("{:.1f}", p.published),
                      fmt::format("{:.1f}", p.simulated), fmt::format("{:+.1f}%", p.error_pct)});
  page.details(fmt::format("{} points ({})", c.points.size(), c.unit),
               html::table({"series", c.x_label, "published", "simulated", "error"}, points));
}

}  // namespace

void print_fidelity_table(std::ostream& out, const FidelityPoints& p) {
  std::vector<std::vector<std::string>> rows{kSummaryHeader};
  for (const FidelityCurve& c : p.curves) rows.push_back(summary_row(c));
  print_columns(out, rows);
  out << totals_line(p) << '\n';
  out << "Fits and checks apart (the points a constant was set on, and the others):\n";
  std::vector<std::vector<std::string>> groups{kGroupHeader};
  for (auto& r : group_rows(p)) groups.push_back(std::move(r));
  print_columns(out, groups);
}

void print_fidelity_html(std::ostream& out, const FidelityPoints& p) {
  html::Page page("gpumemsim fidelity: published measurements against the simulator");
  page.paragraph(
      "Each published curve replayed through gpumemsim by tools/calibration/fidelity.py, on the "
      "preset (and board overrides) of tests/fidelity/boards.txt, with its errors: mean absolute "
      "relative error (mae, per stream kernel too) and, for latency curves, the L1 and L2 edges. "
      "Each bound is at most 1.5x the error the model had when the bound was written (at least "
      "0.5), so a regression fails; a gap is a bound above issue 20's target (README "
      "\"Fidelity\" says why each remains). Each point is marked as fitted (a model constant was "
      "set on it) or kept as a check (tests/fidelity/roles.txt): the checks show the fidelity "
      "past the points the model was fitted to.");
  if (!p.notes.empty())
    page.raw("<p class=\"note\">" + svg::escape(join(p.notes, "; ")) + "</p>\n");
  page.heading(2, "Summary");
  page.paragraph(totals_line(p));
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> classes;
  for (const FidelityCurve& c : p.curves) {
    rows.push_back(summary_row(c));
    classes.push_back(c.within() ? "" : "fail");
  }
  page.table(kSummaryHeader, rows, classes);
  page.heading(2, "Fits and checks apart");
  page.paragraph(
      "Mean absolute error over the points of each preset, kind and role: fit (a model constant "
      "was set on the point) or check (no constant was).");
  page.table(kGroupHeader, group_rows(p), {});

  std::vector<std::string> presets;
  for (const FidelityCurve& c : p.curves)
    if (std::find(presets.begin(), presets.end(), c.preset) == presets.end())
      presets.push_back(c.preset);
  for (const std::string& preset : presets) {
    page.heading(2, "Preset " + preset);
    for (const FidelityCurve& c : p.curves)
      if (c.preset == preset) curve_section(page, c);
  }
  out << page.str();
}

}  // namespace gms
