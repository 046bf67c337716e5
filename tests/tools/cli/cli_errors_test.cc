// Bad input through the real binary: one clear error naming the file and line (or the key), a
// non-zero exit, no crash, and no partial output file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/tools/cli/cli_runner.h"

namespace gms::test {
namespace {

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

const char* kHeader = "#wtrace 1\n#kernel id=1 name=k\n";

struct BadTrace {
  const char* name;
  std::string text;
  std::string expect;  ///< a fragment the message must contain
};

TEST(CliErrorsTest, MalformedTracesNameFileAndLine) {
  const BadTrace cases[] = {
      {"malformed line", std::string(kHeader) + "0 LDG 4 - 0 0 ffffffff\n", ":3:"},
      {"unknown op", std::string(kHeader) + "0 LDX 4 - 0 0 ffffffff @0x0:4\n", ":3:"},
      {"mask of zero", std::string(kHeader) + "0 LDG 4 - 0 0 00000000 @0x0:4\n", ":3:"},
      {"short address list", std::string(kHeader) + "0 LDG 4 - 0 0 00000007 0x0,0x4\n", ":3:"},
      {"future version", "#wtrace 2\n#kernel id=1\n", "unsupported wtrace version 2"},
      {"missing magic", "#kernel id=1\n0 LDG 4 - 0 0 ffffffff @0x0:4\n", ":1:"},
      {"bad size", std::string(kHeader) + "0 LDG 3 - 0 0 ffffffff @0x0:4\n", ":3:"},
  };
  for (const BadTrace& c : cases) {
    TempDir tmp;
    const std::string trace = tmp.file("bad.wtrace");
    write_file(trace, c.text);
    const CliResult r = run_cli("run " + trace + " -o " + tmp.file("out.txt"));
    EXPECT_EQ(r.status, 1) << c.name << ": " << r.err;
    EXPECT_NE(r.err.find("bad.wtrace"), std::string::npos) << c.name << ": " << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.name << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(tmp.file("out.txt"))) << c.name;
    EXPECT_TRUE(r.out.empty()) << c.name;
  }
}

TEST(CliErrorsTest, TruncatedZstdStreamIsAnError) {
  TempDir tmp;
  std::string text = "#wtrace 1\n#kernel id=1\n";
  for (int i = 0; i < 2000; ++i)
    text +=
        "0 LDG 4 - 0 " + std::to_string(i) + " ffffffff @0x" + std::to_string(1000 + i) + "0:4\n";
  write_file(tmp.file("t.wtrace"), text);
  ASSERT_EQ(run_cli("convert " + tmp.file("t.wtrace") + " " + tmp.file("t.wtrace.zst")).status, 0);
  std::string z = slurp(tmp.file("t.wtrace.zst"));
  ASSERT_GT(z.size(), 20u);
  write_file(tmp.file("cut.wtrace.zst"), z.substr(0, z.size() / 2));
  const CliResult r = run_cli("run " + tmp.file("cut.wtrace.zst"));
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("cut.wtrace.zst"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(CliErrorsTest, UnknownConfigKeyAndBadValueNameTheKey) {
  const std::string trace = data_path("example_stream.wtrace");
  CliResult r = run_cli("run " + trace + " --set l9.size_kb=4");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("l9.size_kb"), std::string::npos) << r.err;
  r = run_cli("run " + trace + " --set coalescer.segment_bytes=48");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("coalescer.segment_bytes"), std::string::npos) << r.err;
  TempDir tmp;
  write_file(tmp.file("bad.ini"), "[shared]\nbanks = 0\n");
  r = run_cli("run " + trace + " --config " + tmp.file("bad.ini"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("bad.ini"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("shared.banks"), std::string::npos) << r.err;
}

TEST(CliErrorsTest, UnknownCommandsOptionsAndFiles) {
  EXPECT_EQ(run_cli("frobnicate").status, 2);
  EXPECT_EQ(run_cli("run --no-such-option x").status, 1);
  const CliResult r = run_cli("run /nonexistent/trace.wtrace");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("/nonexistent/trace.wtrace"), std::string::npos) << r.err;
  EXPECT_NE(run_cli("run " + data_path("example_stream.wtrace") + " --kernel 999").status, 0);
}

TEST(CliErrorsTest, OptionsHoldingBoostPlaceholdersAreReportedNotLooped) {
  // Boost.Program_options' own what() never returns for these (it substitutes the placeholder
  // into itself); the CLI must still print one error and exit 1. `timeout` turns a hang into 124.
  for (const char* arg : {"--%original_token%", "--%canonical_option%", "--sweep=%value%"}) {
    for (const char* cmd : {"run", "gen"}) {
      const CliResult r = run_cli(std::string(cmd) + " '" + arg + "'", /*timeout_s=*/20);
      EXPECT_EQ(r.status, 1) << cmd << " " << arg << ": " << r.err;
      EXPECT_NE(r.err.find("%"), std::string::npos) << r.err;
    }
  }
}

TEST(CliErrorsTest, HelpForEveryCommand) {
  for (const char* cmd : {"run", "gen", "convert", "info"}) {
    const CliResult r = run_cli(std::string(cmd) + " --help");
    EXPECT_EQ(r.status, 0) << cmd;
    EXPECT_NE(r.out.find("usage: gpumemsim"), std::string::npos) << cmd << ": " << r.out;
  }
}

}  // namespace
}  // namespace gms::test
