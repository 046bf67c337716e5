// The progress bar of run, convert and info: drawn on standard error when it is a terminal
// (util-linux `script` gives the command one), with the input bytes read of the file's size;
// never when standard error is not a terminal, nor with --no-progress.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"

namespace gms::test {
namespace {

/// Runs `gpumemsim ARGS` on a pseudo-terminal; returns what the terminal showed.
std::string on_terminal(const std::string& args) {
  TempDir tmp;
  const std::string cmd = "script -qec '" + cli_path() + " " + args + "' /dev/null > " +
                          tmp.file("tty") + " 2>&1 < /dev/null";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return slurp(tmp.file("tty"));
}

TEST(CliProgressTest, RunConvertAndInfoShowTheBytesReadOnATerminal) {
  TempDir out;
  const std::string trace = data_path("example_stream.wtrace");
  const double mib = static_cast<double>(std::filesystem::file_size(trace)) / (1024.0 * 1024.0);
  const std::string size = fmt::format("{:.1f}/{:.1f} MiB", mib, mib);  // all of it, at the end
  for (const std::string& args :
       {"run " + trace + " -o " + out.file("r.txt"), "convert " + trace + " " + out.file("t.gmt"),
        "info " + trace + " > /dev/null"}) {
    const std::string shown = on_terminal(args);
    EXPECT_NE(shown.find("[############################] 100.0%  " + size), std::string::npos)
        << args << ": " << shown;
    EXPECT_NE(shown.find("\r\033[K"), std::string::npos) << "line not cleared: " << args;
    EXPECT_EQ(on_terminal(args + " --no-progress").find("100.0%"), std::string::npos) << args;
    const CliResult piped = run_cli(args);
    EXPECT_EQ(piped.status, 0) << piped.err;
    EXPECT_EQ(piped.err, "") << args;
  }
}

}  // namespace
}  // namespace gms::test
