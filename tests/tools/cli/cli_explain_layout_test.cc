// `gpumemsim explain` with layout what-ifs (issue 63), through the program: --layout rows ranked
// in the one table with a kind column, the CSV's and JSON's new fields, one clear error for an
// unknown spec, and the importer's summary logged once however many replays run.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/tools/cli/cli_runner.h"

namespace gms::test {
namespace {

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// B6's 32-way column conflict: the diagnosis suggests the padding (a tie with the swizzle,
// which --layout adds), and both rows say what they touch.
TEST(CliExplainLayoutTest, LayoutRowsInTheOneTable) {
  const std::string trace = data_path("b6_tile32.wtrace");
  const CliResult table = run_cli("explain " + trace + " --mode cold --layout swizzle:smem");
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find(" layout pad:smem:1:128 "), std::string::npos) << table.out;
  EXPECT_NE(table.out.find(" layout swizzle:smem:128 "), std::string::npos) << table.out;
  EXPECT_NE(table.out.find(" instr  0 "), std::string::npos) << table.out;

  const CliResult json = run_cli("explain " + trace + " --mode cold --format json");
  ASSERT_EQ(json.status, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  int layouts = 0;
  for (const auto& w : j["what_ifs"]) {
    if (w["kind"] != "layout") continue;
    ++layouts;
    EXPECT_EQ(w["layout"], "pad:smem:1:128");
    EXPECT_EQ(w["instructions_touched"], 1);
    EXPECT_EQ(w["kernel_before"]["conflicts"], 31);
    EXPECT_EQ(w["kernel_after"]["conflicts"], 0);
    EXPECT_EQ(w["instruction_after"]["wavefronts"], 1);
  }
  EXPECT_EQ(layouts, 1);

  const CliResult csv = run_cli("explain " + trace + " --mode cold --format csv");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_NE(csv.out.find(",kind,layout,instructions_touched,conflicts_before,"), std::string::npos)
      << csv.out;
  EXPECT_NE(csv.out.find(",layout,pad:smem:1:128,1,31,0,"), std::string::npos) << csv.out;

  const CliResult html = run_cli("explain " + trace + " --format html");
  ASSERT_EQ(html.status, 0) << html.err;
  EXPECT_NE(html.out.find("<td>pad:smem:1:128</td>"), std::string::npos);
  // The picture of the warp: all 32 lanes in bank 0 before, one bank each after.
  EXPECT_NE(html.out.find("Layout pad:smem:1:128: one warp before and after"), std::string::npos);
  EXPECT_NE(html.out.find(">before: 32 wavefront(s)</text>"), std::string::npos) << html.out;
  EXPECT_NE(html.out.find(">after pad:smem:1:128: 1 wavefront(s)</text>"), std::string::npos);

  const CliResult none = run_cli("explain " + trace + " --mode cold --no-suggested-layouts");
  ASSERT_EQ(none.status, 0) << none.err;
  EXPECT_EQ(none.out.find(" layout "), std::string::npos) << none.out;
}

TEST(CliExplainLayoutTest, UnknownSpecIsOneError) {
  const std::string trace = data_path("b5_aos24_all.wtrace");
  const CliResult bad = run_cli("explain " + trace + " --layout vectorize:3");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.err.find("--layout vectorize:3: unknown layout change 'vectorize'"),
            std::string::npos)
      << bad.err;
  const CliResult missing = run_cli("explain " + trace + " --layout soa:weights");
  EXPECT_NE(missing.status, 0);
  EXPECT_NE(missing.err.find("no array named 'weights' (the trace's arrays: g0 (0x0, 768 bytes))"),
            std::string::npos)
      << missing.err;
}

// An Accel-Sim trace logs its import summary once, though explain reads it once for the
// diagnosis and once per replay.
TEST(CliExplainLayoutTest, ImporterSummaryOnce) {
  const CliResult r =
      run_cli("explain " + data_path("accelsim/lineinfo.traceg") + " --mode both --jobs 2");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(occurrences(r.err, "Accel-Sim import:"), 1u) << r.err;
}

}  // namespace
}  // namespace gms::test
