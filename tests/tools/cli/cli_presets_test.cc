// Presets by name: every command that takes --config finds NAME.ini (next to the program, the
// install's data folder, ./configs; GPUMEMSIM_PRESETS replaces them), an unknown name is one
// error listing the known ones, and `gpumemsim presets` lists what it finds.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"

namespace gms::test {
namespace {

const std::string kPresetsTrace = data_path("a3_stride2.wtrace");

/// Every configs/*.ini name.
std::set<std::string> source_presets() {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(source_path("configs")))
    if (e.path().extension() == ".ini") names.insert(e.path().stem().string());
  return names;
}

TEST(CliPresetsTest, RunTakesANameAsItTakesTheFile) {
  const CliResult by_name =
      run_cli("run " + kPresetsTrace + " --config kepler-k40-ca --format json");
  const CliResult by_file = run_cli("run " + kPresetsTrace + " --config " +
                                    source_path("configs/kepler-k40-ca.ini") + " --format json");
  ASSERT_EQ(by_name.status, 0) << by_name.err;
  ASSERT_EQ(by_file.status, 0) << by_file.err;
  EXPECT_EQ(by_name.out, by_file.out);
  // Model B: the stride-2 warp is 2 transactions (the built-in H200 gives 8).
  EXPECT_EQ(
      nlohmann::json::parse(by_name.out)["kernels"][0]["totals"]["global_load"]["transactions"], 2);
}

TEST(CliPresetsTest, EveryConfigCommandTakesNames) {
  EXPECT_EQ(run_cli("sweep --trace " + kPresetsTrace + " --config volta-v100 --no-progress").status,
            0);
  EXPECT_EQ(run_cli("compare " + kPresetsTrace + " --config volta-v100 --config kepler-k40").status,
            0);
  const CliResult v = run_cli("validate --ncu " + data_path("ncu/example_stream_ncu_raw.csv") +
                              " " + data_path("example_stream.wtrace") + " --config hopper-h200");
  EXPECT_EQ(v.status, 0) << v.err;
}

TEST(CliPresetsTest, UnknownNameIsOneErrorListingTheKnownNames) {
  TempDir tmp;
  for (const std::string& cmd :
       {"run " + kPresetsTrace, "compare " + kPresetsTrace + " --config volta-v100",
        "sweep --trace " + kPresetsTrace}) {
    const CliResult r = run_cli(cmd + " --config no-such-gpu -o " + tmp.file("out"));
    EXPECT_EQ(r.status, 1) << cmd;
    EXPECT_NE(r.err.find("preset 'no-such-gpu'"), std::string::npos) << r.err;
    for (const std::string& name : source_presets())
      EXPECT_NE(r.err.find(name), std::string::npos) << name << " not in: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(tmp.file("out")));
  }
}

TEST(CliPresetsTest, EnvironmentReplacesTheFolders) {
  TempDir dir;
  std::filesystem::copy_file(source_path("configs/kepler-k40-ca.ini"), dir.file("mine.ini"));
  ::setenv("GPUMEMSIM_PRESETS", dir.path.c_str(), 1);
  const CliResult mine = run_cli("run " + kPresetsTrace + " --config mine --format json");
  const CliResult gone = run_cli("run " + kPresetsTrace + " --config volta-v100");
  const CliResult list = run_cli("presets --format names");
  ::unsetenv("GPUMEMSIM_PRESETS");
  ASSERT_EQ(mine.status, 0) << mine.err;
  EXPECT_EQ(nlohmann::json::parse(mine.out)["kernels"][0]["totals"]["global_load"]["transactions"],
            2);
  EXPECT_EQ(gone.status, 1);
  EXPECT_NE(gone.err.find("known presets: mine;"), std::string::npos) << gone.err;
  EXPECT_EQ(list.out, "mine\n");
}

TEST(CliPresetsTest, ListingNamesEveryPresetWithItsGpuAndSources) {
  const CliResult names = run_cli("presets --format names");
  ASSERT_EQ(names.status, 0) << names.err;
  std::string expected;
  for (const std::string& n : source_presets()) expected += n + "\n";
  EXPECT_EQ(names.out, expected);
  const CliResult table = run_cli("presets");
  ASSERT_EQ(table.status, 0) << table.err;
  // The volta-v100 row: its board and chip and its sources, from the file's header comment.
  // Every row's sources start with the preset's own section of the hardware notes.
  std::istringstream lines(table.out);
  std::string line, volta;
  std::set<std::string> cited;
  while (std::getline(lines, line)) {
    if (line.starts_with("volta-v100 ")) volta = line;
    const std::string name = line.substr(0, line.find(' '));
    if (source_presets().contains(name) &&
        line.find("  docs/hardware.md#" + name + " ") != std::string::npos)
      cited.insert(name);
  }
  EXPECT_NE(volta.find("NVIDIA Tesla V100 SXM2 (GV100, Volta, compute capability 7.0)"),
            std::string::npos)
      << table.out;
  EXPECT_NE(volta.find("docs/hardware.md#volta-v100 (tags as listed there)"), std::string::npos)
      << volta;
  EXPECT_EQ(cited, source_presets()) << table.out;
  EXPECT_NE(table.out.find(source_path("configs")), std::string::npos) << table.out;
  // From the build tree the hardware notes are the source tree's.
  EXPECT_NE(table.out.find("hardware notes (each preset's figures and their sources):\n  " +
                           source_path("docs/hardware.md") + "\n"),
            std::string::npos)
      << table.out;
}

// `presets --detail NAME`: every figure with its kind (docs/hardware.md "How sure a figure is").
// Every key of every shipped preset carries one; a key without a mark reads "unmarked".
TEST(CliPresetsTest, DetailGivesEveryFigureOfEveryPresetAKind) {
  for (const std::string& name : source_presets()) {
    const CliResult r = run_cli("presets --detail " + name);
    ASSERT_EQ(r.status, 0) << name << ": " << r.err;
    EXPECT_NE(r.out.find(", unmarked 0\n"), std::string::npos) << name << ":\n" << r.out;
    EXPECT_EQ(r.out.find("  unmarked  "), std::string::npos) << name << ":\n" << r.out;
  }
  const CliResult b200 = run_cli("presets --detail blackwell-b200");
  EXPECT_NE(b200.out.find("l2.partitions"), std::string::npos);
  // The B200's L2 size block names its slices apart: {slices: assumed}.
  std::istringstream lines(b200.out);
  std::string line, size, slices;
  while (std::getline(lines, line)) {
    if (line.starts_with("l2.size_kb ")) size = line;
    if (line.starts_with("l2.slices ")) slices = line;
  }
  EXPECT_NE(size.find(" vendor "), std::string::npos) << size;
  EXPECT_NE(slices.find(" assumed "), std::string::npos) << slices;
}

TEST(CliPresetsTest, DetailShowsAnUnmarkedKeyAndRejectsAnUnknownName) {
  TempDir dir;
  {
    std::ofstream f(dir.file("bare.ini"));
    f << "# A preset without marks.\n[gpu]\n# {vendor} 8 SMs.\nsm_count = 8\n"
         "# No mark here.\nclock_mhz = 1000\n";
  }
  const CliResult r = run_cli("presets --detail " + dir.file("bare.ini"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("vendor 1,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unmarked 1\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gpu.clock_mhz  1000   unmarked  No mark here."), std::string::npos)
      << r.out;
  const CliResult bad = run_cli("presets --detail no-such-gpu");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("preset 'no-such-gpu'"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace gms::test
