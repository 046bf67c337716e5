#include "sim/report/html/html_page.h"

#include <fmt/format.h>

#include <cstdlib>

#include "sim/report/html/svg_chart.h"

namespace gms::html {

namespace {

constexpr const char* kStyle = R"(
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 24px; color: #1a1a1a; max-width: 1200px; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ccc; }
h3 { font-size: 15px; margin-top: 22px; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 12px; }
th, td { border: 1px solid #d0d0d0; padding: 3px 7px; }
th { background: #f0f3f7; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.fail td { background: #fde2e2; }
svg.chart { display: block; margin: 8px 0 18px; max-width: 100%; height: auto; }
p.note { color: #555; font-size: 12px; }
details { margin: 8px 0; } summary { cursor: pointer; font-weight: bold; }
)";

bool numeric(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return *end == '\0' || *end == '%' || (end[0] == ' ' && end[1] == 'p');
}

}  // namespace

std::string table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows,
                  const std::vector<std::string>& row_classes) {
  std::string out = "<table>\n<thead><tr>";
  for (const std::string& h : header) out += "<th>" + svg::escape(h) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::string cls = r < row_classes.size() && !row_classes[r].empty()
                                ? " class=\"" + row_classes[r] + "\""
                                : "";
    out += "<tr" + cls + ">";
    for (const std::string& c : rows[r])
      out += (numeric(c) ? "<td class=\"num\">" : "<td>") + svg::escape(c) + "</td>";
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table>\n";
}

Page::Page(std::string title) : title_(std::move(title)) {
  body_ = "<h1>" + svg::escape(title_) + "</h1>\n";
}

Page& Page::heading(int level, const std::string& text) {
  body_ += fmt::format("<h{0}>{1}</h{0}>\n", level, svg::escape(text));
  return *this;
}

Page& Page::paragraph(const std::string& text) {
  body_ += "<p>" + svg::escape(text) + "</p>\n";
  return *this;
}

Page& Page::raw(const std::string& markup) {
  body_ += markup;
  return *this;
}

Page& Page::table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows,
                  const std::vector<std::string>& row_classes) {
  body_ += html::table(header, rows, row_classes);
  return *this;
}

Page& Page::details(const std::string& summary, const std::string& inner_markup) {
  body_ +=
      "<details><summary>" + svg::escape(summary) + "</summary>\n" + inner_markup + "</details>\n";
  return *this;
}

std::string Page::str() const {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         svg::escape(title_) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n" +
         body_ +
         "<p class=\"note\">Written by gpumemsim; self-contained (inline SVG, no "
         "script).</p>\n</body>\n</html>\n";
}

}  // namespace gms::html
