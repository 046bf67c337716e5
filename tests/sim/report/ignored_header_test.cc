// A trace header value that cannot be true (an importer records it as header_<field>) shows in
// the run reports, and a kernel without one prints as before.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

#include "sim/config/config.h"
#include "sim/report/report.h"

namespace gms {
namespace {

RunReport one_kernel(std::vector<std::pair<std::string, std::string>> params) {
  RunReport r;
  r.config = default_config();
  KernelStats k;
  k.kernel.id = 593;
  k.kernel.params = std::move(params);
  r.kernels.push_back(k);
  return r;
}

std::string printed(const RunReport& r, ReportFormat f) {
  std::ostringstream out;
  print_report(out, r, f);
  return out.str();
}

TEST(IgnoredHeaderTest, JsonAndTableNameEachIgnoredValue) {
  const RunReport r =
      one_kernel({{"name", "pow"}, {"header_nregs", "21955"}, {"header_binary_version", "0"}});
  const auto j = nlohmann::json::parse(printed(r, ReportFormat::Json));
  const auto& ignored = j["kernels"][0]["header_ignored"];
  EXPECT_EQ(ignored["nregs"], "21955");
  EXPECT_EQ(ignored["binary_version"], "0");
  EXPECT_EQ(ignored.size(), 2u);
  const std::string table = printed(r, ReportFormat::Table);
  EXPECT_NE(table.find("trace header values ignored (they cannot be true): nregs=21955 "
                       "binary_version=0"),
            std::string::npos)
      << table;
}

TEST(IgnoredHeaderTest, KernelsWithoutThemHaveNoSuchKeyOrLine) {
  const RunReport r = one_kernel({{"name", "pow"}, {"regs", "32"}});
  const auto j = nlohmann::json::parse(printed(r, ReportFormat::Json));
  EXPECT_FALSE(j["kernels"][0].contains("header_ignored"));
  EXPECT_EQ(printed(r, ReportFormat::Table).find("header values ignored"), std::string::npos);
}

}  // namespace
}  // namespace gms
