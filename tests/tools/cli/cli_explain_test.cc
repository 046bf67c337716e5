// `gpumemsim explain` and `run --pattern` through the program, in every output format.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/tools/cli/cli_runner.h"

namespace gms::test {
namespace {

// A4 (lane t at 32t): 32 sectors where the 128 bytes need 4; the what-if reads them as 4t.
TEST(CliExplainTest, TableCsvJsonAndHtml) {
  const std::string trace = data_path("a4_stride8.wtrace");
  const CliResult table = run_cli("explain " + trace + " --mode cold");
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("strided 8"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("lanes read every 8th 4-byte element, 32 bytes apart; 1 executions: "
                           "32 sectors where 4 would do (8.0x)"),
            std::string::npos)
      << table.out;

  const CliResult json = run_cli("explain " + trace + " --mode both --format json");
  ASSERT_EQ(json.status, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  ASSERT_EQ(j["what_ifs"].size(), 2u);  // one candidate, in cold and cached mode
  for (const auto& w : j["what_ifs"]) {
    EXPECT_EQ(w["pattern"], "strided 8");
    EXPECT_EQ(w["instruction_before"]["sectors"], 32);
    EXPECT_EQ(w["instruction_after"]["sectors"], 4);
    EXPECT_EQ(w["rank"], 1);
  }
  EXPECT_EQ(j["patterns"][0]["instructions"][0]["executions"]["strided"], 1);

  const CliResult csv = run_cli("explain " + trace + " --mode cold --format csv");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_NE(csv.out.find("\nrank,kernel_id,kernel_name,mode,inst,line,op,size,pattern,"),
            std::string::npos);
  EXPECT_NE(csv.out.find("\n1,1,strided,cold,0,,LDG,4,strided 8,1,32,4,"), std::string::npos)
      << csv.out;

  const CliResult html = run_cli("explain " + trace + " --format html");
  ASSERT_EQ(html.status, 0) << html.err;
  EXPECT_NE(html.out.find("What to fix first"), std::string::npos);
  EXPECT_NE(html.out.find("<svg"), std::string::npos);
}

// --order reaches every replay: the base kernel's time is `run`'s in the same order.
TEST(CliExplainTest, TakesTheOrder) {
  const std::string trace = data_path("a4_stride8.wtrace");
  for (const char* order : {"file", "timed"}) {
    const CliResult e = run_cli("explain " + trace + " --format json --order " + order);
    ASSERT_EQ(e.status, 0) << e.err;
    const CliResult r =
        run_cli("run " + trace + " --mode cached --format json --order " + std::string(order));
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(e.out);
    const auto k = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["what_ifs"][0]["kernel_before"]["time_ns"],
              k["kernels"][0]["totals"]["time"]["estimate_ns"])
        << order;
  }
}

// The source line of a trace with line info (`lineinfo=ID:LINE`) labels the candidate in every
// format.
TEST(CliExplainTest, SourceLines) {
  TempDir tmp;
  const std::string trace = tmp.file("lines.wtrace");
  {
    std::ofstream out(trace);
    out << "#wtrace 1\n#kernel id=1 name=k grid=1,1,1 block=32,1,1 lineinfo=7:42\n"
        << "7 LDG 4 - 0 0 ffffffff @0x0:32\n";
  }
  const CliResult table = run_cli("explain " + trace);
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find(" 7:L42 "), std::string::npos) << table.out;
  const CliResult json = run_cli("explain " + trace + " --format json");
  EXPECT_EQ(nlohmann::json::parse(json.out)["what_ifs"][0]["line"], 42);
  const CliResult html = run_cli("explain " + trace + " --format html");
  EXPECT_NE(html.out.find("<td class=\"num\">42</td>"), std::string::npos) << html.out;
}

TEST(CliExplainTest, NothingToFixAndStandardInput) {
  const CliResult ideal = run_cli("explain " + data_path("a1_sequential.wtrace"));
  ASSERT_EQ(ideal.status, 0) << ideal.err;
  EXPECT_NE(ideal.out.find("nothing to fix"), std::string::npos) << ideal.out;

  TempDir tmp;
  const std::string high = tmp.file("high.wtrace");
  {
    std::ofstream out(high);
    out << "#wtrace 1\n#kernel id=3 name=k grid=1,1,1 block=32,1,1\n"
        << "0 LDG 4 - 0 0 ffffffff @0x10000000000000:32\n";
  }
  const CliResult clash = run_cli("explain " + high);
  EXPECT_EQ(clash.status, 1);
  EXPECT_NE(clash.err.find("kernel 3 of " + high + " reaches address 0x100000000003e3"),
            std::string::npos)
      << clash.err;

  const CliResult in = run_cli("explain - < " + data_path("a1_sequential.wtrace"));
  EXPECT_EQ(in.status, 1);
  EXPECT_NE(in.err.find("standard input"), std::string::npos) << in.err;
}

// The column appears only when asked for; the rest of the table is the same.
TEST(CliExplainTest, RunPatternColumnIsOptIn) {
  const std::string trace = data_path("a9_aos12.wtrace");
  const CliResult plain = run_cli("run " + trace);
  const CliResult with = run_cli("run " + trace + " --pattern");
  ASSERT_EQ(plain.status, 0) << plain.err;
  ASSERT_EQ(with.status, 0) << with.err;
  EXPECT_EQ(plain.out.find("pattern"), std::string::npos);
  EXPECT_NE(with.out.find("  struct_field 12B\n"), std::string::npos) << with.out;

  const CliResult csv = run_cli("run " + trace + " --pattern --format csv");
  EXPECT_NE(csv.out.find(",line,pattern\n"), std::string::npos);
  EXPECT_NE(csv.out.find(",struct_field 12B\n"), std::string::npos) << csv.out;
  const CliResult json = run_cli("run " + trace + " --pattern --format json");
  EXPECT_EQ(nlohmann::json::parse(json.out)["kernels"][0]["instructions"][0]["pattern"],
            "struct_field 12B");
  const CliResult html = run_cli("run " + trace + " --pattern --format html");
  EXPECT_NE(html.out.find("<td>struct_field 12B</td>"), std::string::npos) << html.out;
  EXPECT_EQ(run_cli("run " + trace + " --format html").out.find("struct_field"), std::string::npos);
  const CliResult cached = run_cli("run " + trace + " --pattern --mode cached");
  EXPECT_NE(cached.out.find("  struct_field 12B\n"), std::string::npos) << cached.out;
}

}  // namespace
}  // namespace gms::test
