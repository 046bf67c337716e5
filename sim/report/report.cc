#include "sim/report/report.h"

#include "sim/core/error.h"
#include "sim/report/report_stats.h"

namespace gms {

namespace detail {
void print_table(std::ostream& out, const RunReport& r);
void print_csv(std::ostream& out, const RunReport& r);
void print_json(std::ostream& out, const RunReport& r);
void print_html(std::ostream& out, const RunReport& r);
}  // namespace detail

double efficiency(const AccessCounters& c) {
  return fetch_efficiency(c);
}

ReportFormat parse_report_format(const std::string& name) {
  if (name == "table") return ReportFormat::Table;
  if (name == "csv") return ReportFormat::Csv;
  if (name == "json") return ReportFormat::Json;
  if (name == "html") return ReportFormat::Html;
  fail("unknown output format '{}' (table, csv, json, html)", name);
}

void print_report(std::ostream& out, const RunReport& report, ReportFormat format) {
  switch (format) {
    case ReportFormat::Table:
      detail::print_table(out, report);
      break;
    case ReportFormat::Csv:
      detail::print_csv(out, report);
      break;
    case ReportFormat::Json:
      detail::print_json(out, report);
      break;
    case ReportFormat::Html:
      detail::print_html(out, report);
      break;
  }
}

}  // namespace gms
