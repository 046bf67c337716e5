// The run, convert, gen and info commands end to end, as a user calls them.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "tests/tools/cli/cli_runner.h"

namespace gms::test {
namespace {

nlohmann::json run_json(const std::string& args) {
  const CliResult r = run_cli("run " + args + " --format json");
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(CliRunTest, JsonContractKeys) {
  const nlohmann::json j = run_json(data_path("example_stream.wtrace"));
  EXPECT_EQ(j["schema"], 1);
  EXPECT_EQ(j["config"]["gpu"]["name"], "hopper-h200");
  ASSERT_FALSE(j["kernels"].empty());
  for (const auto& k : j["kernels"]) {
    EXPECT_TRUE(k["id"].is_number_integer());
    EXPECT_TRUE(k["name"].is_string());
    EXPECT_EQ(k["mode"], "cold");
    for (const char* cls :
         {"global_load", "global_store", "local_load", "local_store", "global_atomic"})
      for (const char* key :
           {"instructions", "requests", "sectors", "transactions", "lines", "bytes_requested"})
        EXPECT_TRUE(k["totals"][cls][key].is_number_integer()) << cls << "." << key;
    for (const char* cls : {"shared_load", "shared_store"})
      for (const char* key : {"instructions", "wavefronts", "ideal_wavefronts"})
        EXPECT_TRUE(k["totals"][cls][key].is_number_integer()) << cls << "." << key;
    for (const auto& i : k["instructions"]) {
      EXPECT_TRUE(i["inst"].is_number_integer());
      EXPECT_TRUE(i["op"].is_string());
      EXPECT_TRUE(i["size"].is_number_integer());
      EXPECT_TRUE(i["instructions"].is_number_integer());
    }
  }
}

TEST(CliRunTest, TotalsAreSumsOfInstructionRows) {
  // Every row carries its class's counts and every kernel the totals of every class: a key
  // missing on either side fails (json::at throws), and so does a trace without rows to sum.
  const std::vector<std::pair<std::string, std::vector<std::string>>> keys = {
      {"global_load", {"instructions", "requests", "sectors", "transactions", "lines"}},
      {"global_store", {"instructions", "requests", "sectors", "transactions", "lines"}},
      {"global_atomic", {"instructions", "requests", "sectors", "transactions", "lines"}},
      {"local_load", {"instructions", "requests", "sectors", "transactions", "lines"}},
      {"local_store", {"instructions", "requests", "sectors", "transactions", "lines"}},
      {"shared_load", {"instructions", "wavefronts", "ideal_wavefronts", "conflicts"}},
      {"shared_store", {"instructions", "wavefronts", "ideal_wavefronts", "conflicts"}}};
  const nlohmann::json j = run_json(data_path("example_stream.wtrace"));
  ASSERT_EQ(j.at("kernels").size(), 5u);
  std::set<std::string> classes_seen;
  for (const auto& k : j.at("kernels")) {
    SCOPED_TRACE(k.at("name").get<std::string>());
    std::map<std::string, std::map<std::string, std::uint64_t>> sums;
    for (const auto& [cls, names] : keys)
      for (const std::string& key : names) sums[cls][key] = 0;
    ASSERT_FALSE(k.at("instructions").empty());
    for (const auto& i : k.at("instructions")) {
      const std::string cls = i.at("class");
      ASSERT_TRUE(sums.contains(cls)) << cls;
      classes_seen.insert(cls);
      for (auto& [key, sum] : sums[cls]) sum += i.at(key).get<std::uint64_t>();
    }
    for (const auto& [cls, by_key] : sums)
      for (const auto& [key, sum] : by_key)
        EXPECT_EQ(k.at("totals").at(cls).at(key).get<std::uint64_t>(), sum) << cls << "." << key;
  }
  // The trace's rows cover every class but local memory.
  EXPECT_EQ(classes_seen, (std::set<std::string>{"global_load", "global_store", "global_atomic",
                                                 "shared_load", "shared_store"}));
}

TEST(CliRunTest, KeplerAndVoltaGiveModelsBAndA) {
  // A stride-2 warp: model A (sectors) 8 transactions, model B (128-byte) 2.
  const std::string trace = data_path("a3_stride2.wtrace");
  const auto a = run_json(trace + " --config " + source_path("configs/volta-v100.ini"));
  const auto b = run_json(trace + " --config " + source_path("configs/kepler-k40-ca.ini"));
  EXPECT_EQ(a["kernels"][0]["totals"]["global_load"]["transactions"], 8);
  EXPECT_EQ(b["kernels"][0]["totals"]["global_load"]["transactions"], 2);
  EXPECT_EQ(b["config"]["coalescer"]["rule"], "kepler-l1");
}

TEST(CliRunTest, SeveralTracesAndKernelSelection) {
  const std::string a = data_path("a1_sequential.wtrace"), b = data_path("b6_tile32.wtrace");
  EXPECT_EQ(run_json(a + " " + b)["kernels"].size(), 2u);
  EXPECT_EQ(run_json(a + " " + b + " --kernel 1")["kernels"].size(), 2u);  // both have id 1
  const CliResult r = run_cli("run - --format json < " + a);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["kernels"][0]["totals"]["global_load"]["sectors"], 4);
}

TEST(CliRunTest, TableAndCsvCarryTheConfiguration) {
  const CliResult table = run_cli("run " + data_path("a2_misaligned.wtrace"));
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("# [coalescer] rule=sectors"), std::string::npos);
  EXPECT_NE(table.out.find("80.0%"), std::string::npos) << table.out;
  const CliResult csv = run_cli("run " + data_path("a2_misaligned.wtrace") + " --format csv");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_NE(csv.out.find("# gpu.name=hopper-h200"), std::string::npos);
  EXPECT_NE(csv.out.find(
                "\n1,sequential,cold,0,LDG,4,global_load,32,1,32,1,5,5,2,128,128,160,0.800000,32,"),
            std::string::npos)
      << csv.out;
}

TEST(CliRunTest, OutputFileIsWritten) {
  TempDir tmp;
  ASSERT_EQ(run_cli("run " + data_path("a1_sequential.wtrace") + " --format json -o " +
                    tmp.file("o.json"))
                .status,
            0);
  EXPECT_EQ(nlohmann::json::parse(
                slurp(tmp.file("o.json")))["kernels"][0]["totals"]["global_load"]["sectors"],
            4);
}

TEST(CliRunTest, ConvertRoundTripsEveryFormat) {
  TempDir tmp;
  const std::string src = data_path("example_stream.wtrace");
  ASSERT_EQ(run_cli("convert " + src + " " + tmp.file("a.gmt")).status, 0);
  ASSERT_EQ(run_cli("convert " + tmp.file("a.gmt") + " " + tmp.file("b.wtrace.zst")).status, 0);
  ASSERT_EQ(run_cli("convert " + tmp.file("b.wtrace.zst") + " " + tmp.file("c.wtrace")).status, 0);
  ASSERT_EQ(run_cli("convert " + tmp.file("c.wtrace") + " " + tmp.file("d.gmt")).status, 0);
  EXPECT_EQ(slurp(tmp.file("a.gmt")), slurp(tmp.file("d.gmt")));
  // The statistics are identical whatever the format.
  const auto x = run_json(src), y = run_json(tmp.file("a.gmt")), z = run_json(tmp.file("c.wtrace"));
  EXPECT_EQ(x["kernels"], y["kernels"]);
  EXPECT_EQ(x["kernels"], z["kernels"]);
}

TEST(CliRunTest, GeneratedMatrixProductsReadTwoNCubedOverT) {
  // docs/examples.md D at N = 64, T = 16: 2N^3 = 524288 thread reads naive, 2N^3 / T = 32768 tiled.
  TempDir tmp;
  ASSERT_EQ(run_cli("gen matmul_naive --n 64 --tile 16 -o " + tmp.file("n.gmt")).status, 0);
  ASSERT_EQ(run_cli("gen matmul_tiled --n 64 --tile 16 -o " + tmp.file("t.gmt")).status, 0);
  EXPECT_EQ(run_json(tmp.file("n.gmt"))["kernels"][0]["totals"]["global_load"]["active_threads"],
            524288);
  EXPECT_EQ(run_json(tmp.file("t.gmt"))["kernels"][0]["totals"]["global_load"]["active_threads"],
            32768);
}

TEST(CliRunTest, ZstdLevelChangesTheBytesNotTheRecords) {
  // tools/calibration/fidelity.py writes its throwaway chases at a fast level: the file differs,
  // its replay does not; convert takes the level too. A level zstd lacks, or one for an
  // uncompressed output, is an error naming the file.
  TempDir tmp;
  const std::string chase = "gen pointer_chase --elem 8 --stride 8 --footprint 1048576 -o ";
  ASSERT_EQ(run_cli(chase + tmp.file("d.gmt")).status, 0);
  ASSERT_EQ(run_cli(chase + tmp.file("f.gmt") + " --zstd-level -1").status, 0);
  ASSERT_EQ(
      run_cli("convert " + tmp.file("d.gmt") + " " + tmp.file("c.gmt") + " --zstd-level 19").status,
      0);
  EXPECT_NE(slurp(tmp.file("d.gmt")), slurp(tmp.file("f.gmt")));
  EXPECT_NE(slurp(tmp.file("d.gmt")), slurp(tmp.file("c.gmt")));
  const nlohmann::json d = run_json(tmp.file("d.gmt") + " --mode cached");
  EXPECT_EQ(d["kernels"], run_json(tmp.file("f.gmt") + " --mode cached")["kernels"]);
  EXPECT_EQ(d["kernels"], run_json(tmp.file("c.gmt") + " --mode cached")["kernels"]);
  const CliResult text = run_cli(chase + tmp.file("t.wtrace") + " --zstd-level 1");
  EXPECT_NE(text.status, 0);
  EXPECT_NE(text.err.find("t.wtrace: a zstd level is for a compressed output"), std::string::npos)
      << text.err;
  const CliResult high = run_cli(chase + tmp.file("h.gmt") + " --zstd-level 99");
  EXPECT_NE(high.status, 0);
  EXPECT_NE(high.err.find("h.gmt: zstd level 99 is not one zstd has"), std::string::npos)
      << high.err;
}

TEST(CliRunTest, RewarmedChaseReplaysAsItsTwoTraces) {
  // tools/calibration/fidelity.py's two warm-up laps on a partitioned L2: the one trace of
  // `gen --rewarm 2` replays as the traces of --n 2 and --n N one after the other, kernel ids
  // aside (the four kernels of one trace need four ids).
  TempDir tmp;
  const std::string chase = "gen pointer_chase --elem 8 --stride 8 --footprint 262144 ";
  ASSERT_EQ(run_cli(chase + "--n 2 -o " + tmp.file("b.gmt")).status, 0);
  ASSERT_EQ(run_cli(chase + "--n 5000 -o " + tmp.file("c.gmt")).status, 0);
  ASSERT_EQ(run_cli(chase + "--rewarm 2 --n 5000 -o " + tmp.file("one.gmt")).status, 0);
  const std::string how =
      " --mode cached --format json --config hopper-h100 --set l2.persist_across_kernels=true";
  const CliResult two = run_cli("run " + tmp.file("b.gmt") + " " + tmp.file("c.gmt") + how);
  const CliResult one = run_cli("run " + tmp.file("one.gmt") + how);
  ASSERT_EQ(two.status, 0) << two.err;
  ASSERT_EQ(one.status, 0) << one.err;
  nlohmann::json a = nlohmann::json::parse(two.out)["kernels"];
  nlohmann::json b = nlohmann::json::parse(one.out)["kernels"];
  ASSERT_EQ(a.size(), 4u);
  ASSERT_EQ(b.size(), 4u);
  for (std::size_t k = 0; k < 4; ++k) {
    a[k].erase("id");
    b[k].erase("id");
    EXPECT_EQ(a[k], b[k]) << "kernel " << k;
  }
}

TEST(CliRunTest, InfoSummarisesKernels) {
  const CliResult r = run_cli("info " + data_path("d_tiled_n8_t4.wtrace"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("kernel 1 matmul_tiled"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("LDS"), std::string::npos) << r.out;
}

TEST(CliRunTest, InfoListsAllocationsAndConvertSaysWhatGmtLeavesOut) {
  TempDir tmp;
  std::ofstream(tmp.file("a.wtrace")) << "#wtrace 1\n#alloc base=0x10000 bytes=4096 name=x\n"
                                         "#kernel id=1\n0 LDG 4 - 0 0 ffffffff @0x10000:4\n";
  const CliResult info = run_cli("info " + tmp.file("a.wtrace"));
  ASSERT_EQ(info.status, 0) << info.err;
  EXPECT_NE(info.out.find("  allocations: 1\n    0x10000 + 4096 B x\n"), std::string::npos)
      << info.out;
  const CliResult gmt = run_cli("convert " + tmp.file("a.wtrace") + " " + tmp.file("a.gmt"));
  ASSERT_EQ(gmt.status, 0) << gmt.err;
  EXPECT_NE(gmt.err.find("1 allocation left out"), std::string::npos) << gmt.err;
  ASSERT_EQ(run_cli("convert " + tmp.file("a.wtrace") + " " + tmp.file("b.wtrace")).status, 0);
  EXPECT_EQ(slurp(tmp.file("a.wtrace")), slurp(tmp.file("b.wtrace")));
}

}  // namespace
}  // namespace gms::test
