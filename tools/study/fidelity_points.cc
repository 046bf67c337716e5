// The points CSV of fidelity.py --points-csv (fidelity_points.h).
#include "tools/study/fidelity_points.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "sim/core/error.h"
#include "sim/report/tidy_csv.h"

namespace gms {

namespace {

/// A value within this of its bound is taken as the file says (the file's numbers are rounded).
constexpr double kWithinSlackPct = 1e-6;

/// One data row with the columns looked up by name, for messages naming the file and line.
class Row {
 public:
  Row(const TidyCsv& t, const std::vector<int>& cols, std::size_t i, const std::string& origin)
      : t_(t), cols_(cols), i_(i), origin_(origin) {}

  int line() const { return t_.row_line_numbers[i_]; }
  const std::string& cell(int col) const {
    return t_.rows[i_][static_cast<std::size_t>(cols_[static_cast<std::size_t>(col)])];
  }
  const std::string& name(int col) const {
    return t_.columns[static_cast<std::size_t>(cols_[static_cast<std::size_t>(col)])];
  }
  const std::string& text(int col) const {
    if (cell(col).empty()) fail("{}:{}: empty {}", origin_, line(), name(col));
    return cell(col);
  }
  std::optional<double> maybe_number(int col) const {
    const std::string& s = cell(col);
    if (s.empty()) return std::nullopt;
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size() || !std::isfinite(v))
      fail("{}:{}: {} '{}' is not a number", origin_, line(), name(col), s);
    return v;
  }
  double number(int col) const {
    const std::optional<double> v = maybe_number(col);
    if (!v) fail("{}:{}: empty {}", origin_, line(), name(col));
    return *v;
  }
  void require_empty(int col, const char* kind) const {
    if (!cell(col).empty())
      fail("{}:{}: {} '{}' on a {} row (it belongs to the other kind)", origin_, line(), name(col),
           cell(col), kind);
  }

 private:
  const TidyCsv& t_;
  const std::vector<int>& cols_;
  std::size_t i_;
  const std::string& origin_;
};

// Column indices into kColumns.
enum Col {
  kKind,
  kCurve,
  kPreset,
  kOverrides,
  kBoard,
  kSource,
  kXLabel,
  kUnit,
  kSeries,
  kX,
  kPublished,
  kSimulated,
  kErrorPct,
  kMetric,
  kValue,
  kBound,
  kTarget,
  kWithin,
  kRole,
};
constexpr const char* kColumns[] = {"kind",      "curve",     "preset",    "overrides", "board",
                                    "source",    "x_label",   "unit",      "series",    "x",
                                    "published", "simulated", "error_pct", "metric",    "value",
                                    "bound",     "target",    "within",    "role"};

/// The curve a row belongs to, made on its first row; later rows must agree on what it is.
FidelityCurve& curve_of(FidelityPoints& p, const Row& r, std::vector<int>& first_lines) {
  const std::string& name = r.text(kCurve);
  for (std::size_t i = 0; i < p.curves.size(); ++i) {
    FidelityCurve& c = p.curves[i];
    if (c.name != name) continue;
    for (const auto& [col, have] : {std::pair<int, const std::string*>{kPreset, &c.preset},
                                    {kOverrides, &c.overrides},
                                    {kBoard, &c.board},
                                    {kSource, &c.source}})
      if (r.cell(col) != *have)
        fail("{}:{}: curve {}: {} '{}' where line {} gave '{}'", p.origin, r.line(), name,
             r.name(col), r.cell(col), first_lines[i], *have);
    return c;
  }
  FidelityCurve c;
  c.name = name;
  c.preset = r.text(kPreset);
  c.overrides = r.cell(kOverrides);
  c.board = r.cell(kBoard);
  c.source = r.cell(kSource);
  p.curves.push_back(std::move(c));
  first_lines.push_back(r.line());
  return p.curves.back();
}

void add_point(FidelityCurve& c, const Row& r, const std::string& origin) {
  for (const int col : {kMetric, kValue, kBound, kTarget, kWithin}) r.require_empty(col, "point");
  FidelityPoint pt;
  pt.series = r.text(kSeries);
  pt.x = r.text(kX);
  pt.published = r.number(kPublished);
  pt.simulated = r.number(kSimulated);
  pt.error_pct = r.number(kErrorPct);
  pt.line = r.line();
  const std::string& role = r.text(kRole);
  if (role != "fit" && role != "check")
    fail("{}:{}: role '{}': expected fit or check", origin, pt.line, role);
  pt.fit = role == "fit";
  for (const FidelityPoint& q : c.points)
    if (q.series == pt.series && q.x == pt.x)
      fail("{}:{}: curve {}: a second point {} at x {} (line {} has one)", origin, pt.line, c.name,
           pt.series, pt.x, q.line);
  const std::string& unit = r.text(kUnit);
  const std::string& x_label = r.text(kXLabel);
  if (c.points.empty()) {
    c.unit = unit;
    c.x_label = x_label;
  } else if (unit != c.unit || x_label != c.x_label) {
    fail("{}:{}: curve {}: unit '{}' and x_label '{}' where line {} gave '{}' and '{}'", origin,
         pt.line, c.name, unit, x_label, c.points[0].line, c.unit, c.x_label);
  }
  c.points.push_back(std::move(pt));
}

void add_metric(FidelityCurve& c, const Row& r, const std::string& origin) {
  for (const int col : {kSeries, kX, kErrorPct, kRole}) r.require_empty(col, "metric");
  FidelityMetric m;
  m.name = r.text(kMetric);
  m.value_pct = r.number(kValue);
  m.bound_pct = r.maybe_number(kBound);
  m.target_pct = r.number(kTarget);
  m.unit = r.cell(kUnit);
  m.published = r.maybe_number(kPublished);
  m.simulated = r.maybe_number(kSimulated);
  m.line = r.line();
  const std::string& within = r.text(kWithin);
  if (within != "yes" && within != "no")
    fail("{}:{}: within '{}': expected yes or no", origin, m.line, within);
  m.within = within == "yes";
  // The file's rounded value decides only within a hair of the bound.
  if (m.within && (!m.bound_pct || m.value_pct > *m.bound_pct + kWithinSlackPct))
    fail("{}:{}: curve {}: {} {} is over its bound {} but within says yes", origin, m.line, c.name,
         m.name, r.cell(kValue), m.bound_pct ? r.cell(kBound) : "(none)");
  if (!m.within && m.bound_pct && m.value_pct < *m.bound_pct - kWithinSlackPct)
    fail("{}:{}: curve {}: {} {} is within its bound {} but within says no", origin, m.line, c.name,
         m.name, r.cell(kValue), r.cell(kBound));
  for (const FidelityMetric& q : c.metrics)
    if (q.name == m.name)
      fail("{}:{}: curve {}: a second metric {} (line {} has one)", origin, m.line, c.name, m.name,
           q.line);
  c.metrics.push_back(std::move(m));
}

}  // namespace

std::vector<std::string> FidelityCurve::series() const {
  std::vector<std::string> out;
  for (const FidelityPoint& p : points)
    if (std::find(out.begin(), out.end(), p.series) == out.end()) out.push_back(p.series);
  return out;
}

bool FidelityCurve::within() const {
  return std::all_of(metrics.begin(), metrics.end(),
                     [](const FidelityMetric& m) { return m.within; });
}

std::vector<FidelityGroup> FidelityPoints::groups() const {
  std::vector<std::string> presets;
  for (const FidelityCurve& c : curves)
    if (std::find(presets.begin(), presets.end(), c.preset) == presets.end())
      presets.push_back(c.preset);
  std::vector<FidelityGroup> out;
  for (const std::string& preset : presets)
    for (const char* kind : {"latency", "bandwidth"})
      for (const bool fit : {true, false}) {
        FidelityGroup g{preset, kind, fit, 0, 0, {}};
        double sum = 0;
        for (const FidelityCurve& c : curves) {
          if (c.preset != preset || (c.unit == "cycles/load") != (g.kind == "latency")) continue;
          bool any = false;
          for (const FidelityPoint& pt : c.points)
            if (pt.fit == fit) {
              sum += std::abs(pt.error_pct);
              ++g.points;
              any = true;
            }
          if (any) g.curves.push_back(c.name);
        }
        if (g.points == 0) continue;
        g.mae_pct = sum / static_cast<double>(g.points);
        out.push_back(std::move(g));
      }
  return out;
}

FidelityPoints parse_fidelity_points(const std::string& text, const std::string& origin) {
  const TidyCsv t = parse_tidy_csv(text, origin);
  FidelityPoints p;
  p.origin = origin;
  for (const std::string& c : t.comments) {
    const std::size_t from = c.find_first_not_of("# ");
    if (from != std::string::npos) p.notes.push_back(c.substr(from));
  }
  // The header is the line after the comments (parse_tidy_csv allows no blank line before it).
  const int header_line = static_cast<int>(t.comments.size()) + 1;
  std::vector<int> cols;
  for (const char* name : kColumns) {
    const int i = t.column(name);
    if (i < 0)
      fail("{}:{}: no column '{}' (a points CSV of tools/calibration/fidelity.py --points-csv)",
           origin, header_line, name);
    cols.push_back(i);
  }
  std::vector<int> first_lines;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const Row r(t, cols, i, origin);
    const std::string& kind = r.text(kKind);
    if (kind != "point" && kind != "metric")
      fail("{}:{}: kind '{}': expected point or metric", origin, r.line(), kind);
    FidelityCurve& c = curve_of(p, r, first_lines);
    if (kind == "point")
      add_point(c, r, origin);
    else
      add_metric(c, r, origin);
  }
  if (p.curves.empty()) fail("{}: no curve (no point or metric row)", origin);
  for (std::size_t i = 0; i < p.curves.size(); ++i)
    if (p.curves[i].points.empty())
      fail("{}:{}: curve {} has metrics but no point", origin, first_lines[i], p.curves[i].name);
  return p;
}

FidelityPoints read_fidelity_points(const std::string& path) {
  return parse_fidelity_points(read_text_file(path), path);
}

}  // namespace gms
