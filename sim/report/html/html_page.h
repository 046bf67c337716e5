#pragma once
/// A self-contained HTML page for the reports: inline CSS, no script, no external reference.
/// Text is escaped by the helpers; raw() takes markup (an <svg> from svg_chart.h).

#include <string>
#include <vector>

namespace gms::html {

class Page {
 public:
  explicit Page(std::string title);
  Page& heading(int level, const std::string& text);
  Page& paragraph(const std::string& text);
  Page& raw(const std::string& markup);
  /// A table; cells that look like numbers are right-aligned. `row_classes[i]`, when given,
  /// becomes the class of row i (e.g. "fail").
  Page& table(const std::vector<std::string>& header,
              const std::vector<std::vector<std::string>>& rows,
              const std::vector<std::string>& row_classes = {});
  /// A collapsed section.
  Page& details(const std::string& summary, const std::string& inner_markup);
  /// The whole document.
  std::string str() const;

 private:
  std::string title_;
  std::string body_;
};

/// A table as markup (what Page::table appends).
std::string table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows,
                  const std::vector<std::string>& row_classes = {});

}  // namespace gms::html
