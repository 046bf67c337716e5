#pragma once
/// Chart primitives for the HTML reports: each function returns one inline <svg> element (no
/// script, no external reference). Every data mark carries data-* attributes (data-series,
/// data-x or data-category, data-value or data-y) and a <title> tooltip, so a browser test can
/// count what was drawn and a reader can hover for exact values.

#include <string>
#include <vector>

namespace gms::svg {

/// Grouped bars: one group per category, one bar per series.
struct BarSeries {
  std::string name;
  std::vector<double> values;  ///< one per category
};
struct BarChart {
  std::string title, y_label;
  std::vector<std::string> categories;
  std::vector<BarSeries> series;
  bool percent = false;  ///< values are fractions, drawn as 0-100%
};
std::string bar_chart(const BarChart& chart);

/// Lines over categorical x positions (e.g. the values of a swept key, in sweep order).
struct LineSeries {
  std::string name;
  std::vector<double> y;  ///< one per x value; NaN leaves a gap
};
struct LineChart {
  std::string title, x_label, y_label;
  std::vector<std::string> x;
  std::vector<LineSeries> series;
  bool percent = false;
};
std::string line_chart(const LineChart& chart);

/// Points on log-log axes with the y = x diagonal (simulated vs measured).
struct ScatterPoint {
  double x = 0, y = 0;
  std::string label;  ///< tooltip
  std::string group;  ///< colour and legend entry
};
struct ScatterChart {
  std::string title, x_label, y_label;
  std::vector<ScatterPoint> points;
};
std::string scatter_chart(const ScatterChart& chart);

/// The roofline: kernels placed by arithmetic intensity (FLOP per byte) and GFLOP/s under the
/// bandwidth and compute ceilings (the run report places each kernel with known FLOPs at the
/// rate its time estimate implies).
struct RooflinePoint {
  std::string label;
  double intensity_flop_per_byte = 0;
  double gflops = 0;
};
struct Roofline {
  std::string title = "Roofline";
  double peak_gflops = 0;  ///< compute ceiling
  double peak_gbps = 0;    ///< DRAM bandwidth ceiling
  std::vector<RooflinePoint> points;
};
std::string roofline_chart(const Roofline& chart);

/// The colour of series `i` (a fixed palette readable in print and by most colour-blind readers).
const char* series_color(std::size_t i);

/// Escapes text for HTML/SVG content and attribute values.
std::string escape(const std::string& text);

}  // namespace gms::svg
