#pragma once
/// Reads tests/groundtruth/h200_counters.csv (written by tools/groundtruth/capture.sh): one row
/// per calibration launch, columns kernel_id,name then one column per ncu metric, base units.
///
///   auto t =
///   gms::test::load_counters_csv(gms::test::source_path("tests/groundtruth/h200_counters.csv"));
///   if (t.rows.empty()) GTEST_SKIP() << t.reason;
///   double sectors = t.find(1)->metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
///
/// An empty cell (ncu reported nothing) leaves the metric out of the row's map. Plain C++20.

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>
#include "sim/report/tidy_csv.h"

namespace gms::test {

struct CounterRow {
  int kernel_id = 0;
  std::string name;
  std::map<std::string, double> metrics;  ///< ncu metric name -> value in base units
};

struct CounterTable {
  std::vector<CounterRow> rows;
  std::string reason;  ///< why `rows` is empty (file absent, malformed); "" otherwise

  const CounterRow* find(int kernel_id) const {
    for (const auto& r : rows)
      if (r.kernel_id == kernel_id) return &r;
    return nullptr;
  }
};

namespace detail {

/// Parses a number, dropping thousands separators; false when it is not one.
inline bool parse_number(std::string s, double& v) {
  std::string t;
  for (char c : s)
    if (c != ',' && c != ' ') t += c;
  if (t.empty()) return false;
  char* end = nullptr;
  v = std::strtod(t.c_str(), &end);
  return end == t.c_str() + t.size();
}
}  // namespace detail

/// Loads the counters CSV; on any problem returns no rows and the reason.
inline CounterTable load_counters_csv(const std::string& path) {
  CounterTable t;
  std::ifstream in(path);
  if (!in) {
    t.reason = path + " does not exist (the GPU capture is pending: tests/groundtruth/PENDING.md)";
    return t;
  }
  std::string line;
  if (!std::getline(in, line)) {
    t.reason = path + " is empty";
    return t;
  }
  const auto header = gms::split_csv_row(line);
  if (header.size() < 2 || header[0] != "kernel_id" || header[1] != "name") {
    t.reason = path + ": the header does not start with kernel_id,name";
    return t;
  }
  int lineno = 1;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line == "\r") continue;
    const auto cells = gms::split_csv_row(line);
    double id = 0;
    if (cells.size() != header.size() || !detail::parse_number(cells[0], id)) {
      t.rows.clear();
      t.reason = path + ":" + std::to_string(lineno) + ": malformed row";
      return t;
    }
    CounterRow r;
    r.kernel_id = static_cast<int>(id);
    r.name = cells[1];
    for (std::size_t i = 2; i < cells.size(); ++i) {
      double v = 0;
      if (cells[i].empty()) continue;
      if (!detail::parse_number(cells[i], v)) {
        t.rows.clear();
        t.reason = path + ":" + std::to_string(lineno) + ": '" + cells[i] + "' in column " +
                   header[i] + " is not a number";
        return t;
      }
      r.metrics[header[i]] = v;
    }
    t.rows.push_back(std::move(r));
  }
  if (t.rows.empty()) t.reason = path + " has no rows";
  return t;
}

}  // namespace gms::test
