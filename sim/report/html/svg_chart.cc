// Inline SVG charts: axes with rounded ticks, grouped bars, lines, log-log scatter, roofline.
#include "sim/report/html/svg_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace gms::svg {

namespace {

constexpr double kWidth = 760, kHeight = 340;
constexpr double kLeft = 78, kRight = 20, kTop = 44, kBottom = 78;
constexpr double kPlotW = kWidth - kLeft - kRight, kPlotH = kHeight - kTop - kBottom;

/// A compact number: 1234567 -> 1.23M; fractions as percent when asked.
std::string short_num(double v, bool percent = false) {
  if (percent) return fmt::format("{:.0f}%", 100 * v);
  const double a = std::abs(v);
  if (a >= 1e12) return fmt::format("{:.3g}T", v / 1e12);
  if (a >= 1e9) return fmt::format("{:.3g}G", v / 1e9);
  if (a >= 1e6) return fmt::format("{:.3g}M", v / 1e6);
  if (a >= 1e4) return fmt::format("{:.3g}k", v / 1e3);
  return fmt::format("{:.4g}", v);
}

/// Exact value for data attributes and tooltips.
std::string exact(double v) {
  if (std::isnan(v)) return "nan";
  if (v == std::floor(v) && std::abs(v) < 1e15) return fmt::format("{:.0f}", v);
  return fmt::format("{:.6g}", v);
}

/// A tick step of 1, 2 or 5 x 10^k giving about `n` ticks up to `max`.
double nice_step(double max, int n) {
  if (max <= 0) return 1;
  const double raw = max / n;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

/// Where each legend entry goes: entries flow left to right and wrap under the plot.
struct LegendLayout {
  std::vector<std::pair<double, int>> at;  ///< x and row of each entry
  int rows = 0;
};

std::string legend_label(const std::string& name) {
  return name.size() > 48 ? name.substr(0, 47) + "…" : name;
}

LegendLayout layout_legend(const std::vector<std::string>& names) {
  LegendLayout l;
  double x = kLeft;
  int row = 0;
  for (const std::string& n : names) {
    const double w = 30 + 6.6 * static_cast<double>(legend_label(n).size());
    if (x + w > kWidth - kRight && x > kLeft) {
      x = kLeft;
      ++row;
    }
    l.at.emplace_back(x, row);
    x += w;
  }
  l.rows = names.empty() ? 0 : row + 1;
  return l;
}

constexpr double kLegendRow = 18;

std::string open_svg(const std::string& title, const std::string& kind, int legend_rows) {
  const double h = kHeight + legend_rows * kLegendRow + (legend_rows ? 6 : 0);
  return fmt::format(
      "<svg class=\"chart\" data-chart=\"{}\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" "
      "role=\"img\" aria-label=\"{}\">\n<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" "
      "fill=\"#ffffff\"/>\n<text x=\"{}\" y=\"24\" font-size=\"15\" font-weight=\"bold\" "
      "text-anchor=\"middle\">{}</text>\n",
      kind, kWidth, h, kWidth, h, escape(title), kWidth, h, kWidth / 2, escape(title));
}

/// The legend, under the plot (rows as layout_legend() placed them).
std::string legend(const std::vector<std::string>& names) {
  const LegendLayout l = layout_legend(names);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const double y = kHeight + l.at[i].second * kLegendRow + 16;
    out += fmt::format(
        "<g class=\"legend\"><rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"12\" height=\"12\" "
        "fill=\"{}\"/><text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"12\">{}</text></g>\n",
        l.at[i].first, y - 14, series_color(i), l.at[i].first + 16, y - 4,
        escape(legend_label(names[i])));
  }
  return out;
}

/// Linear y axis from 0 to a rounded maximum; returns the maximum the scale uses.
double y_axis(std::string& out, double max, bool percent, const std::string& label) {
  if (percent) max = std::max(max, 1.0);
  const double step = nice_step(max > 0 ? max : 1, 5);
  const double top = std::max(step, std::ceil((max > 0 ? max : 1) / step) * step);
  for (double v = 0; v <= top * 1.0001; v += step) {
    const double y = kTop + kPlotH * (1 - v / top);
    out += fmt::format(
        "<line x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#dddddd\"/><text "
        "x=\"{}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"end\">{}</text>\n",
        kLeft, kLeft + kPlotW, y, y, kLeft - 6, y + 4, short_num(v, percent));
  }
  out += fmt::format(
      "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#444444\"/><line x1=\"{0}\" "
      "x2=\"{3}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#444444\"/>\n",
      kLeft, kTop, kTop + kPlotH, kLeft + kPlotW);
  out += fmt::format(
      "<text transform=\"translate(16 {:.1f}) rotate(-90)\" font-size=\"12\" "
      "text-anchor=\"middle\">{}</text>\n",
      kTop + kPlotH / 2, escape(label));
  return top;
}

/// Category labels under the plot, slanted when crowded.
std::string x_labels(const std::vector<std::string>& labels, const std::string& axis_label) {
  std::string out;
  const double w = kPlotW / std::max<std::size_t>(labels.size(), 1);
  std::size_t longest = 0;
  for (const std::string& l : labels)
    longest = std::max(longest, std::min<std::size_t>(l.size(), 22));
  const bool slant = labels.size() > 6 || 6.5 * static_cast<double>(longest) > w - 8;
  const std::size_t every = labels.size() > 40 ? labels.size() / 20 : 1;
  for (std::size_t i = 0; i < labels.size(); i += every) {
    const double x = kLeft + (i + 0.5) * w;
    const std::string l = labels[i].size() > 22 ? labels[i].substr(0, 21) + "…" : labels[i];
    if (slant)
      out += fmt::format(
          "<text transform=\"translate({:.1f} {:.1f}) rotate(-35)\" font-size=\"11\" "
          "text-anchor=\"end\">{}</text>\n",
          x, kTop + kPlotH + 14, escape(l));
    else
      out += fmt::format(
          "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"middle\">{}</text>\n", x,
          kTop + kPlotH + 16, escape(l));
  }
  if (!axis_label.empty())
    out += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"12\" text-anchor=\"middle\">{}</text>\n",
        kLeft + kPlotW / 2, kHeight - 6, escape(axis_label));
  return out;
}

/// log10 axis ticks at decades between lo and hi (both powers of ten).
void log_axes(std::string& out, double lo, double hi, const std::string& x_label,
              const std::string& y_label) {
  const double span = std::log10(hi) - std::log10(lo);
  for (double d = std::log10(lo); d <= std::log10(hi) + 1e-9; d += 1) {
    const double f = (d - std::log10(lo)) / span;
    const double x = kLeft + f * kPlotW, y = kTop + kPlotH * (1 - f);
    const std::string t = short_num(std::pow(10, d));
    out += fmt::format(
        "<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#dddddd\"/>"
        "<text x=\"{0:.1f}\" y=\"{3}\" font-size=\"11\" text-anchor=\"middle\">{4}</text>\n",
        x, kTop, kTop + kPlotH, kTop + kPlotH + 16, t);
    out += fmt::format(
        "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" stroke=\"#dddddd\"/>"
        "<text x=\"{3}\" y=\"{4:.1f}\" font-size=\"11\" text-anchor=\"end\">{5}</text>\n",
        kLeft, kLeft + kPlotW, y, kLeft - 6, y + 4, t);
  }
  out += fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#444444\"/>\n",
      kLeft, kTop, kPlotW, kPlotH);
  out += fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"12\" text-anchor=\"middle\">{}</text>\n"
      "<text transform=\"translate(16 {:.1f}) rotate(-90)\" font-size=\"12\" "
      "text-anchor=\"middle\">{}</text>\n",
      kLeft + kPlotW / 2, kTop + kPlotH + 40, escape(x_label), kTop + kPlotH / 2, escape(y_label));
}

/// Decades enclosing every positive value (at least one decade).
std::pair<double, double> decades(const std::vector<double>& values) {
  double lo = INFINITY, hi = 0;
  for (double v : values)
    if (v > 0) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  if (hi == 0) return {1, 10};
  lo = std::pow(10, std::floor(std::log10(lo)));
  hi = std::pow(10, std::ceil(std::log10(hi)));
  if (hi <= lo) hi = lo * 10;
  return {lo, hi};
}

}  // namespace

const char* series_color(std::size_t i) {
  static const char* kPalette[] = {"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9",
                                   "#d55e00", "#f0e442", "#000000", "#999999", "#882255"};
  return kPalette[i % std::size(kPalette)];
}

std::string escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string bar_chart(const BarChart& c) {
  std::vector<std::string> names;
  for (const BarSeries& s : c.series) names.push_back(s.name);
  std::string out = open_svg(c.title, "bar", layout_legend(names).rows);
  double max = 0;
  for (const BarSeries& s : c.series)
    for (double v : s.values)
      if (std::isfinite(v)) max = std::max(max, v);
  const double top = y_axis(out, max, c.percent, c.y_label);
  const double group = kPlotW / std::max<std::size_t>(c.categories.size(), 1);
  const double bar = group * 0.8 / std::max<std::size_t>(c.series.size(), 1);
  for (std::size_t si = 0; si < c.series.size(); ++si) {
    const BarSeries& s = c.series[si];
    for (std::size_t ci = 0; ci < c.categories.size() && ci < s.values.size(); ++ci) {
      const double v = std::isfinite(s.values[ci]) ? s.values[ci] : 0;
      const double h = kPlotH * v / top;
      const double x = kLeft + ci * group + group * 0.1 + si * bar;
      out += fmt::format(
          "<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
          "fill=\"{}\" data-series=\"{}\" data-category=\"{}\" data-value=\"{}\"><title>{} / "
          "{}: {}</title></rect>\n",
          x, kTop + kPlotH - h, std::max(bar - 1, 1.0), h, series_color(si), escape(s.name),
          escape(c.categories[ci]), exact(v), escape(s.name), escape(c.categories[ci]),
          c.percent ? fmt::format("{:.2f}%", 100 * v) : exact(v));
    }
  }
  out += x_labels(c.categories, "");
  out += legend(names);
  return out + "</svg>\n";
}

std::string line_chart(const LineChart& c) {
  std::vector<std::string> names;
  for (const LineSeries& s : c.series) names.push_back(s.name);
  std::string out = open_svg(c.title, "line", layout_legend(names).rows);
  double max = 0;
  for (const LineSeries& s : c.series)
    for (double v : s.y)
      if (std::isfinite(v)) max = std::max(max, v);
  const double top = y_axis(out, max, c.percent, c.y_label);
  const double w = kPlotW / std::max<std::size_t>(c.x.size(), 1);
  for (std::size_t si = 0; si < c.series.size(); ++si) {
    const LineSeries& s = c.series[si];
    std::string d, marks;
    bool pen = false;
    for (std::size_t i = 0; i < c.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.y[i])) {
        pen = false;
        continue;
      }
      const double x = kLeft + (i + 0.5) * w, y = kTop + kPlotH * (1 - s.y[i] / top);
      d += fmt::format("{}{:.1f} {:.1f} ", pen ? "L" : "M", x, y);
      pen = true;
      marks += fmt::format(
          "<circle class=\"point\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"{}\" "
          "data-series=\"{}\" data-x=\"{}\" data-y=\"{}\"><title>{}, {} = {}: {}</title>"
          "</circle>\n",
          x, y, series_color(si), escape(s.name), escape(c.x[i]), exact(s.y[i]), escape(s.name),
          escape(c.x_label), escape(c.x[i]),
          c.percent ? fmt::format("{:.2f}%", 100 * s.y[i]) : exact(s.y[i]));
    }
    if (!d.empty())
      out += fmt::format(
          "<path class=\"series\" d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\" "
          "data-series=\"{}\"/>\n",
          d, series_color(si), escape(s.name));
    out += marks;
  }
  out += x_labels(c.x, c.x_label);
  out += legend(names);
  return out + "</svg>\n";
}

std::string scatter_chart(const ScatterChart& c) {
  std::vector<std::string> groups;
  for (const ScatterPoint& p : c.points)
    if (std::find(groups.begin(), groups.end(), p.group) == groups.end()) groups.push_back(p.group);
  std::string out = open_svg(c.title, "scatter", layout_legend(groups).rows);
  std::vector<double> all;
  for (const ScatterPoint& p : c.points) {
    all.push_back(p.x);
    all.push_back(p.y);
  }
  const auto [lo, hi] = decades(all);
  log_axes(out, lo, hi, c.x_label, c.y_label);
  auto pos = [&, lo = lo, hi = hi](double v) {
    const double f =
        (std::log10(std::max(v, lo)) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
    return std::clamp(f, 0.0, 1.0);
  };
  out += fmt::format(
      "<line class=\"diagonal\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888888\" "
      "stroke-dasharray=\"4 3\"/>\n",
      kLeft, kTop + kPlotH, kLeft + kPlotW, kTop);
  for (const ScatterPoint& p : c.points) {
    const auto g =
        static_cast<std::size_t>(std::find(groups.begin(), groups.end(), p.group) - groups.begin());
    out += fmt::format(
        "<circle class=\"point\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4.5\" fill=\"{}\" "
        "fill-opacity=\"0.8\" data-series=\"{}\" data-x=\"{}\" data-y=\"{}\"><title>{}: measured "
        "{}, simulated {}</title></circle>\n",
        kLeft + pos(p.x) * kPlotW, kTop + kPlotH * (1 - pos(p.y)), series_color(g), escape(p.group),
        exact(p.x), exact(p.y), escape(p.label), exact(p.x), exact(p.y));
  }
  out += legend(groups);
  return out + "</svg>\n";
}

std::string roofline_chart(const Roofline& c) {
  std::string out = open_svg(c.title, "roofline", 0);
  std::vector<double> xs{c.peak_gbps > 0 ? c.peak_gflops / c.peak_gbps : 1};
  std::vector<double> ys{c.peak_gflops};
  for (const RooflinePoint& p : c.points) {
    xs.push_back(p.intensity_flop_per_byte);
    ys.push_back(p.gflops);
  }
  // Plain variables, not structured bindings: the lambdas below capture them, which clang 14
  // (the fuzz build's compiler) refuses for bindings (C++20 allows it from clang 16).
  double xlo, xhi, ylo, yhi;
  std::tie(xlo, xhi) = decades(xs);
  std::tie(ylo, yhi) = decades(ys);
  xlo /= 10;
  xhi *= 10;
  ylo /= 10;
  auto fx = [&](double v) {
    return kLeft + kPlotW * std::clamp((std::log10(v) - std::log10(xlo)) /
                                           (std::log10(xhi) - std::log10(xlo)),
                                       0.0, 1.0);
  };
  auto fy = [&](double v) {
    return kTop + kPlotH * (1 - std::clamp((std::log10(std::max(v, ylo)) - std::log10(ylo)) /
                                               (std::log10(yhi) - std::log10(ylo)),
                                           0.0, 1.0));
  };
  out += fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#444444\"/>\n",
      kLeft, kTop, kPlotW, kPlotH);
  std::string d;
  for (int i = 0; i <= 60; ++i) {
    const double x = xlo * std::pow(xhi / xlo, i / 60.0);
    d += fmt::format("{}{:.1f} {:.1f} ", i ? "L" : "M", fx(x),
                     fy(std::min(c.peak_gflops, x * c.peak_gbps)));
  }
  out += fmt::format(
      "<path class=\"ceiling\" d=\"{}\" fill=\"none\" stroke=\"#444444\" stroke-width=\"2\" "
      "data-peak-gflops=\"{}\" data-peak-gbps=\"{}\"/>\n",
      d, exact(c.peak_gflops), exact(c.peak_gbps));
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    const RooflinePoint& p = c.points[i];
    out += fmt::format(
        "<circle class=\"point\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"{}\" "
        "data-series=\"{}\" data-x=\"{}\" data-y=\"{}\"><title>{}: {} FLOP/B, {} GFLOP/s"
        "</title></circle>\n",
        fx(p.intensity_flop_per_byte), fy(p.gflops), series_color(i), escape(p.label),
        exact(p.intensity_flop_per_byte), exact(p.gflops), escape(p.label),
        exact(p.intensity_flop_per_byte), exact(p.gflops));
  }
  out += fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"12\" text-anchor=\"middle\">arithmetic "
      "intensity (FLOP per DRAM byte, log)</text>\n<text transform=\"translate(16 {:.1f}) "
      "rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">GFLOP/s (log)</text>\n",
      kLeft + kPlotW / 2, kTop + kPlotH + 40, kTop + kPlotH / 2);
  return out + "</svg>\n";
}

}  // namespace gms::svg
