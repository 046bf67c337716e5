#pragma once
/// CSV plumbing shared by the study commands (sweep, merge, compare, validate): RFC 4180 cells
/// and rows, and a reader for the tidy files gpumemsim writes ('#' comment lines, one header
/// row, data rows). No statistic names here.

#include <string>
#include <string_view>
#include <vector>

namespace gms {

/// One cell as RFC 4180 wants it: quoted (with doubled quotes) only when it holds a comma, a
/// quote or a line break.
std::string csv_cell(std::string_view text);

/// Splits one CSV line into cells (RFC 4180 quoting, no embedded line breaks; a trailing '\r'
/// is dropped).
std::vector<std::string> split_csv_row(std::string_view line);

/// A tidy CSV file: leading '#' lines, the column header, the data rows (kept verbatim too, so
/// a file can be re-emitted byte for byte).
struct TidyCsv {
  std::vector<std::string> comments;  ///< the '#' lines, without their line break
  std::string header_line;
  std::vector<std::string> columns;
  std::vector<std::string> row_lines;  ///< verbatim, without their line break
  std::vector<std::vector<std::string>> rows;
  std::vector<int> row_line_numbers;  ///< the 1-based line of each row in the text (for errors)

  /// Index of `name` in `columns`, or -1.
  int column(std::string_view name) const;
};

/// Parses a tidy CSV; `origin` names the file in errors (a row with the wrong number of cells,
/// no header). Throws SimError.
TidyCsv parse_tidy_csv(const std::string& text, const std::string& origin);

/// Reads a whole file; throws SimError naming it when it cannot be read.
std::string read_text_file(const std::string& path);

}  // namespace gms
