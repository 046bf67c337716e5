#include "sim/report/tidy_csv.h"

#include <fstream>
#include <sstream>

#include "sim/core/error.h"

namespace gms {

std::string csv_cell(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::vector<std::string> split_csv_row(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

int TidyCsv::column(std::string_view name) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return static_cast<int>(i);
  return -1;
}

TidyCsv parse_tidy_csv(const std::string& text, const std::string& origin) {
  TidyCsv t;
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  bool have_header = false;
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!have_header) {
      if (line.starts_with("#")) {
        t.comments.push_back(line);
        continue;
      }
      if (line.empty()) fail("{}:{}: empty line before the CSV header", origin, lineno);
      t.header_line = line;
      t.columns = split_csv_row(line);
      have_header = true;
      continue;
    }
    if (line.empty()) continue;
    std::vector<std::string> cells = split_csv_row(line);
    if (cells.size() != t.columns.size())
      fail("{}:{}: {} cells where the header has {} columns", origin, lineno, cells.size(),
           t.columns.size());
    t.row_lines.push_back(line);
    t.row_line_numbers.push_back(lineno);
    t.rows.push_back(std::move(cells));
  }
  if (!have_header) fail("{}: no CSV header", origin);
  return t;
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("{}: cannot open", path);
  std::stringstream s;
  s << in.rdbuf();
  if (in.bad()) fail("{}: read failed", path);
  return s.str();
}

}  // namespace gms
