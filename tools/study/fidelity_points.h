#pragma once
/// Reads the points CSV of `tools/calibration/fidelity.py --points-csv`: every published point
/// it replayed, with the simulator's value and the error, and every error metric of each curve
/// with its bound. A tidy CSV ('#' lines, one header row, RFC 4180 rows), one row per point or
/// metric; the columns (any order, others ignored):
///
///   kind      point | metric
///   curve, preset, overrides, board, source   the curve and what it was replayed on
///   x_label   the x axis of a point ("footprint (KiB)", "block size (threads)")
///   unit      of published/simulated ("cycles/load", "GB/s"; "KiB" on an edge metric)
///   series    a point's line: latency, or the stream kernel (init, read, scale, triad)
///   x         a point's footprint in KiB or block size, as written
///   published, simulated, error_pct   a point's values; an edge metric's edges (KiB, either
///             may be empty when that curve has no edge); empty on other metrics
///   metric, value, bound, target      a metric's name and error, its bound in the bounds file
///             (empty: none) and issue 20's target, all in percent
///   within    yes | no: the value is within its bound (no bound: no)
///   role      a point's role: fit (a model constant was set on it) | check
///             (tests/fidelity/roles.txt); empty on a metric
///
///   const FidelityPoints p = read_fidelity_points("points.csv");
///   for (const FidelityCurve& c : p.curves) ...

#include <optional>
#include <string>
#include <vector>

namespace gms {

/// One published point and the simulator's value for it.
struct FidelityPoint {
  std::string series;  ///< latency, or a stream kernel
  std::string x;       ///< the x value as written (footprint KiB, block size)
  double published = 0, simulated = 0;
  double error_pct = 0;  ///< (simulated - published) / published x 100
  bool fit = false;      ///< role fit: a constant was set on it (else a check)
  int line = 0;          ///< line of the file
};

/// One error metric of a curve (mae, l1_edge, mae_read, ...), in percent.
struct FidelityMetric {
  std::string name;
  double value_pct = 0;
  std::optional<double> bound_pct;  ///< absent: the bounds file has none
  double target_pct = 0;
  bool within = false;
  std::string unit;                            ///< of published/simulated below
  std::optional<double> published, simulated;  ///< the quantities compared (edges), if any
  int line = 0;

  /// A gap: the bound is above the target (the error the model had when it was written).
  bool gap() const { return bound_pct && *bound_pct > target_pct; }
};

/// One published curve: its points in file order and its metrics.
struct FidelityCurve {
  std::string name, preset, overrides, board, source;
  std::string unit, x_label;  ///< of the points
  std::vector<FidelityPoint> points;
  std::vector<FidelityMetric> metrics;

  /// The series of the points, in order of first appearance.
  std::vector<std::string> series() const;
  /// Every metric within its bound.
  bool within() const;
};

/// The points of one preset, kind and role pooled (fits and checks apart, issue 34).
struct FidelityGroup {
  std::string preset;
  std::string kind;  ///< latency (a curve in cycles/load) | bandwidth (any other unit)
  bool fit = false;
  double mae_pct = 0;  ///< mean of |error_pct| over the group's points
  std::size_t points = 0;
  std::vector<std::string> curves;  ///< with a point in the group, in file order
};

struct FidelityPoints {
  std::string origin;                 ///< the file read
  std::vector<std::string> notes;     ///< the '#' lines, without the '#' and leading blanks
  std::vector<FidelityCurve> curves;  ///< in file order

  /// Per preset (in order of first appearance), kind (latency first) and role (fit first): the
  /// groups that have points.
  std::vector<FidelityGroup> groups() const;
};

/// Parses the CSV text read from `origin`. Throws SimError naming origin and the line: a missing
/// column, a row with the wrong number of cells, an unknown kind, an empty or non-numeric value,
/// a curve whose rows disagree on its preset, board or source, a repeated point or metric, a
/// `within` that contradicts value and bound, a curve with metrics but no point, no curve.
FidelityPoints parse_fidelity_points(const std::string& text, const std::string& origin);

/// Reads and parses a file.
FidelityPoints read_fidelity_points(const std::string& path);

}  // namespace gms
