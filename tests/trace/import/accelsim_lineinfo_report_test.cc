// Line numbers of an Accel-Sim trace (enable lineinfo = 1) reach the per-instruction report.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/tools/cli/cli_runner.h"

namespace gms::test {
namespace {

TEST(AccelSimLineInfoReportTest, LinesReachJsonCsvAndTable) {
  const std::string trace = data_path("accelsim/lineinfo.traceg");
  const CliResult json = run_cli("run " + trace + " --format json");
  ASSERT_EQ(json.status, 0) << json.err;
  int with_line = 0;
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  for (const auto& row : doc["kernels"][0]["instructions"])
    if (row.contains("line")) {
      EXPECT_GT(row["line"].get<int>(), 0);
      ++with_line;
    }
  EXPECT_GT(with_line, 0);
  const CliResult csv = run_cli("run " + trace + " --format csv");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_NE(csv.out.find(",line\n"), std::string::npos);
  const CliResult table = run_cli("run " + trace);
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find(":L"), std::string::npos) << table.out;
}

}  // namespace
}  // namespace gms::test
