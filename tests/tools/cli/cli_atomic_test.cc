// Crash-safe outputs through the real binary: gen, convert and run killed at random moments
// (SIGKILL leaves at most the hidden temporary; SIGTERM and SIGINT leave nothing), and a full disk
// (a `ulimit -f` child): one clear error, no output file, no temporary.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"
#include "tests/tools/cli/spawn.h"
#include "trace/io/atomic_file.h"

namespace gms::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

/// A command that writes OUT; {IN} and {OUT} are replaced.
struct Writer {
  const char* name;
  std::vector<std::string> args;
  const char* out_name;
};

std::vector<std::string> fill(std::vector<std::string> args, const std::string& in,
                              const std::string& out) {
  for (std::string& a : args) {
    if (a == "{IN}") a = in;
    if (a == "{OUT}") a = out;
  }
  return args;
}

const std::vector<Writer>& writers() {
  static const std::vector<Writer> w{
      {"gen", {"gen", "stream", "--records", "300000", "-o", "{OUT}"}, "out.wtrace"},
      {"convert", {"convert", "{IN}", "{OUT}"}, "out.wtrace.zst"},
      {"run", {"run", "{IN}", "--mode", "both", "--format", "json", "-o", "{OUT}"}, "out.json"},
  };
  return w;
}

TEST(CliAtomicOutputTest, KillsAtRandomMomentsLeaveNoFileThatLooksFinished) {
  TempDir tmp;
  const std::string in = tmp.file("in.gmt");
  ASSERT_EQ(run_cli("gen stream --records 300000 -o " + in).status, 0);
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  for (const Writer& w : writers()) {
    SCOPED_TRACE(w.name);
    // The uninterrupted output, and how long it takes: the kills fall anywhere in that time.
    const fs::path ref_dir = tmp.path / (std::string("ref-") + w.name);
    fs::create_directories(ref_dir);
    const std::string ref = (ref_dir / w.out_name).string();
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_EQ(wait_cli(spawn_cli(fill(w.args, in, ref), tmp.file("ref.err"))), 0)
        << slurp(tmp.file("ref.err"));
    const auto took = std::chrono::steady_clock::now() - t0;
    const std::string expected = slurp(ref);
    int interrupted = 0;
    for (int sig : {SIGKILL, SIGTERM, SIGINT}) {
      for (int k = 0; k < 4; ++k) {
        const fs::path dir =
            tmp.path / (std::string(w.name) + std::to_string(sig) + "-" + std::to_string(k));
        fs::create_directories(dir);
        const std::string out = (dir / w.out_name).string();
        const pid_t pid = spawn_cli(fill(w.args, in, out), tmp.file("err"));
        ASSERT_GT(pid, 0);
        std::this_thread::sleep_for(std::uniform_real_distribution<double>(0.0, 1.1)(rng) * took);
        ::kill(pid, sig);
        const int status = wait_cli(pid);
        const std::vector<std::string> left = names_in(dir);
        if (status == 0) {  // it finished before the signal came
          EXPECT_EQ(left, std::vector<std::string>{w.out_name});
          EXPECT_EQ(slurp(out), expected);
          continue;
        }
        ++interrupted;
        EXPECT_EQ(status, 128 + sig) << slurp(tmp.file("err"));
        const std::string temp = fs::path(trace::atomic_temp_name(out, pid)).filename().string();
        // A signal after the rename (the process still exiting, e.g. in the sanitizers' leak
        // check) finds the output complete: the final name only ever holds the whole output.
        for (const std::string& f : left) {
          if (f == w.out_name) {
            EXPECT_EQ(slurp(out), expected) << "signal " << sig << " left a partial " << f;
            continue;
          }
          EXPECT_EQ(sig, SIGKILL) << "signal " << sig << " left " << f;
          EXPECT_EQ(f, temp) << "SIGKILL left " << f;
        }
      }
    }
    EXPECT_GT(interrupted, 0) << "no signal arrived before the end: the test checked nothing";
  }
}

TEST(CliAtomicOutputTest, AFullDiskIsOneClearErrorAndNoFile) {
  TempDir tmp;
  const std::string in = tmp.file("in.gmt");
  ASSERT_EQ(run_cli("gen stream --records 300000 -o " + in).status, 0);
  for (const Writer& w : writers()) {
    SCOPED_TRACE(w.name);
    const fs::path dir = tmp.path / (std::string("full-") + w.name);
    fs::create_directories(dir);
    const std::string out = (dir / w.out_name).string();
    // The child: SIGXFSZ at its default action (the program must not die of it), 4 KiB limit.
    std::vector<std::string> argv_s{cli_path()};
    for (const std::string& a : fill(w.args, in, out)) argv_s.push_back(a);
    std::vector<char*> argv;
    for (std::string& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string err_path = tmp.file("err");
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::signal(SIGXFSZ, SIG_DFL);
      const rlimit lim{4096, 4096};
      ::setrlimit(RLIMIT_FSIZE, &lim);
      const int fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, 2);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    EXPECT_EQ(wait_cli(pid), 1) << "128 + " << SIGXFSZ << " = killed by SIGXFSZ";
    const std::string err = slurp(tmp.file("err"));
    EXPECT_NE(err.find(out + ": write error: File too large"), std::string::npos) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << "one message: " << err;
    EXPECT_TRUE(names_in(dir).empty());
  }
}

}  // namespace
}  // namespace gms::test
