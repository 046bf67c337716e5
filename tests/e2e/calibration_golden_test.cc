// Outputs on the calibration kernels' access patterns must not change by accident either: the
// modelled trace of every calibration kernel up to 300k records (gms_gt_recipe --model: the
// capture's records at made-up base addresses, no SM ids; not ground truth), in both modes,
// gives exactly the JSON in tests/golden/calibration/ (tools/update_golden.sh writes it). The
// stream, window and pointer-chase kernels exercise the caches the way the H200 captures will.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"

namespace gms::test {
namespace {

constexpr std::uint64_t kMaxRecords = 300000;  // keep in step with tools/update_golden.sh

TEST(CalibrationGoldenTest, ModelledCalibrationTracesMatchTheirRecordedOutput) {
  TempDir tmp;
  ASSERT_EQ(std::system((recipe_path() + " --list > " + tmp.file("list")).c_str()), 0);
  std::istringstream list(slurp(tmp.file("list")));
  int id = 0, compared = 0;
  std::string name;
  std::uint64_t records = 0;
  while (list >> id >> name >> records) {
    if (records > kMaxRecords) continue;
    const std::string stem = std::to_string(id) + "-" + name;
    const std::filesystem::path golden = source_path("tests/golden/calibration/" + stem + ".json");
    ASSERT_TRUE(std::filesystem::exists(golden))
        << golden << " missing: run tools/update_golden.sh";
    const std::string trace = tmp.file(stem + ".wtrace");
    ASSERT_EQ(
        std::system((recipe_path() + " --model " + std::to_string(id) + " > " + trace).c_str()), 0);
    const CliResult r =
        run_cli("run " + trace + " --mode both --format json -o " + tmp.file("o.json"));
    ASSERT_EQ(r.status, 0) << stem << ": " << r.err;
    nlohmann::json got = nlohmann::json::parse(slurp(tmp.file("o.json")));
    nlohmann::json want = nlohmann::json::parse(slurp(golden.string()));
    got.erase("traces");
    want.erase("traces");
    EXPECT_EQ(got, want) << stem << ": output changed; if intended, run tools/update_golden.sh";
    std::filesystem::remove(trace);
    ++compared;
  }
  EXPECT_GE(compared, 28);
}

}  // namespace
}  // namespace gms::test
