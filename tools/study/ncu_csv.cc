#include "tools/study/ncu_csv.h"
#include "tools/study/ncu_metric_names.h"

#include <cstdlib>
#include <sstream>

#include "sim/core/error.h"
#include "sim/report/tidy_csv.h"

namespace gms {

namespace {

/// A number as ncu prints it ("1,234,567", "12.5", " 3 "); false for "n/a" and the like.
bool parse_value(const std::string& cell, double& v) {
  std::string t;
  for (char c : cell)
    if (c != ',' && c != ' ' && c != '"') t += c;
  if (t.empty()) return false;
  char* end = nullptr;
  v = std::strtod(t.c_str(), &end);
  return end == t.c_str() + t.size();
}

/// The factor that brings a value in `unit` to base units (1 when unknown or already base).
double unit_scale(const std::string& unit) {
  if (unit.size() > 1 && unit.substr(1) == "byte") {
    switch (unit[0]) {
      case 'K':
        return 1e3;
      case 'M':
        return 1e6;
      case 'G':
        return 1e9;
      case 'T':
        return 1e12;
      default:
        break;
    }
  }
  return 1.0;
}

int index_of(const std::vector<std::string>& cols, const std::string& name) {
  for (std::size_t i = 0; i < cols.size(); ++i)
    if (cols[i] == name) return static_cast<int>(i);
  return -1;
}

}  // namespace

const char* layout_name(MeasuredLayout layout) {
  switch (layout) {
    case MeasuredLayout::NcuRaw:
      return "ncu raw";
    case MeasuredLayout::NcuLong:
      return "ncu long";
    case MeasuredLayout::Groundtruth:
      return "groundtruth";
  }
  return "?";
}

MeasuredTable parse_measured_csv(const std::string& text, const std::string& origin) {
  std::vector<std::string> lines;
  {
    std::istringstream in(text);
    std::string l;
    while (std::getline(in, l)) {
      if (!l.empty() && l.back() == '\r') l.pop_back();
      lines.push_back(l);
    }
  }
  // The header: the first line whose first cell is "ID" (ncu) or "kernel_id" (groundtruth);
  // everything before it is the profiled program's output or ncu's ==PROF== lines.
  std::size_t h = 0;
  std::vector<std::string> cols;
  for (; h < lines.size(); ++h) {
    if (lines[h].starts_with("==")) continue;
    cols = split_csv_row(lines[h]);
    if (cols[0] == "ID" || cols[0] == "kernel_id") break;
  }
  if (h == lines.size())
    fail("{}: no CSV header (a row starting with \"ID\" as ncu --csv writes, or kernel_id,name)",
         origin);

  MeasuredTable t;
  const bool groundtruth = cols[0] == "kernel_id";
  const int name_col = groundtruth ? index_of(cols, "name") : index_of(cols, "Kernel Name");
  if (name_col < 0)
    fail("{}:{}: no '{}' column", origin, h + 1, groundtruth ? "name" : "Kernel Name");
  const int metric_name = index_of(cols, "Metric Name");
  const int metric_value = index_of(cols, "Metric Value");
  const int metric_unit = index_of(cols, "Metric Unit");
  t.layout = groundtruth                               ? MeasuredLayout::Groundtruth
             : (metric_name >= 0 && metric_value >= 0) ? MeasuredLayout::NcuLong
                                                       : MeasuredLayout::NcuRaw;
  std::vector<double> scale(cols.size(), 1.0);
  // Columns that are not metrics in the raw layout (ncu's identification columns).
  const int first_metric = [&] {
    if (groundtruth) return 2;
    for (std::size_t i = 0; i < cols.size(); ++i)
      if (cols[i].find("__") != std::string::npos) return static_cast<int>(i);
    return static_cast<int>(cols.size());
  }();

  for (std::size_t i = h + 1; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.empty() || line.starts_with("==")) continue;
    const std::vector<std::string> cells = split_csv_row(line);
    if (cells.size() != cols.size()) {
      // ncu quotes every cell: an unquoted line is the program talking after the header.
      if (!groundtruth && !line.starts_with("\"")) continue;
      fail("{}:{}: {} cells where the header has {} columns", origin, i + 1, cells.size(),
           cols.size());
    }
    double id = 0;
    if (!parse_value(cells[0], id)) {
      if (t.layout == MeasuredLayout::NcuRaw && t.kernels.empty()) {  // the units row
        for (std::size_t c = 0; c < cells.size(); ++c) scale[c] = unit_scale(cells[c]);
        continue;
      }
      fail("{}:{}: '{}' is not a launch id", origin, i + 1, cells[0]);
    }
    if (t.layout == MeasuredLayout::NcuLong) {
      if (t.kernels.empty() || t.kernels.back().id != cells[0])
        t.kernels.push_back({cells[0], cells[name_col], {}, static_cast<int>(i + 1)});
      double v = 0;
      if (parse_value(cells[metric_value], v))
        t.kernels.back().metrics[canonical_metric(cells[metric_name])] =
            v * (metric_unit >= 0 ? unit_scale(cells[metric_unit]) : 1.0);
      continue;
    }
    MeasuredKernel k{cells[0], cells[name_col], {}, static_cast<int>(i + 1)};
    for (std::size_t c = static_cast<std::size_t>(first_metric); c < cells.size(); ++c) {
      double v = 0;
      if (static_cast<int>(c) == name_col || !parse_value(cells[c], v)) continue;
      k.metrics[canonical_metric(cols[c])] = v * scale[c];
    }
    t.kernels.push_back(std::move(k));
  }
  if (t.kernels.empty()) fail("{}: no kernel rows after the header", origin);
  return t;
}

MeasuredTable read_measured_csv(const std::string& path) {
  return parse_measured_csv(read_text_file(path), path);
}

}  // namespace gms
