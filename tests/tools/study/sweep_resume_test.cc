// Resumable sweeps through the real binary: killed after k points and resumed, the CSV is the
// uninterrupted one byte for byte; SIGTERM stops after the current point and keeps the journal; a
// changed command (a value, a trace) is refused; a journal entry cut short by a kill is dropped;
// a Slurm array task requeued after SIGTERM resumes the same way.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"
#include "tests/tools/cli/spawn.h"

namespace gms::test {
namespace {

namespace fs = std::filesystem;

/// Finished points in a journal: its "point P BYTES" entry lines.
int journal_points(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  int n = 0;
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("point ")) ++n;
  return n;
}

/// Waits (up to 60 s) until the journal holds at least `k` points; false on timeout.
bool wait_for_points(const std::string& journal, int k) {
  for (int i = 0; i < 60000; ++i) {
    if (fs::exists(journal) && journal_points(journal) >= k) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

struct Sweep {
  TempDir tmp;
  std::string trace = tmp.file("t.gmt");
  std::vector<std::string> args;
  std::string expected;  // the uninterrupted CSV

  Sweep() {
    EXPECT_EQ(run_cli("gen stream --records 60000 -o " + trace).status, 0);
    args = {"sweep",
            "--trace",
            trace,
            "--mode",
            "cached",
            "--vary",
            "coalescer.segment_bytes=32,64,128",
            "--vary",
            "l2.size_kb=6144,12288,24576",
            "--jobs",
            "1",
            "--no-progress"};
    const CliResult r = run_cli(joined(args) + " -o " + tmp.file("all.csv"));
    EXPECT_EQ(r.status, 0) << r.err;
    expected = slurp(tmp.file("all.csv"));
  }
  static std::string joined(const std::vector<std::string>& a) {
    std::string out;
    for (const std::string& s : a) out += (out.empty() ? "" : " ") + s;
    return out;
  }
  std::vector<std::string> resume_args(const std::string& out) const {
    std::vector<std::string> a = args;
    a.insert(a.end(), {"--resume", "-o", out});
    return a;
  }
};

TEST(SweepResumeTest, KilledAfterKPointsResumesToTheSameBytes) {
  Sweep s;
  const std::string out = s.tmp.file("out.csv"), journal = out + ".journal";
  const pid_t pid = spawn_cli(s.resume_args(out), s.tmp.file("err"));
  ASSERT_TRUE(wait_for_points(journal, 3));
  ::kill(pid, SIGKILL);
  ASSERT_EQ(wait_cli(pid), 128 + SIGKILL);
  const int done = journal_points(journal);
  ASSERT_GE(done, 3);
  ASSERT_LT(done, 9) << "the sweep ended before the kill";
  EXPECT_FALSE(fs::exists(out));
  // A kill in the middle of an append leaves an entry cut short: it is dropped, not an error.
  std::ofstream(journal, std::ios::app | std::ios::binary) << "point 8 5000\n8,";
  const CliResult r = run_cli(Sweep::joined(s.resume_args(out)));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("resumed: " + std::to_string(done) + " of 9 points already done"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(slurp(out), s.expected);
  EXPECT_FALSE(fs::exists(journal)) << "removed once the output is written";
  // No journal (a finished sweep): --resume runs every point.
  const CliResult again = run_cli(Sweep::joined(s.resume_args(out)));
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.err.find("resumed: 0 of 9"), std::string::npos) << again.err;
  EXPECT_EQ(slurp(out), s.expected);
}

TEST(SweepResumeTest, SigtermStopsAfterTheCurrentPointAndAChangedCommandIsRefused) {
  Sweep s;
  const std::string out = s.tmp.file("out.csv"), journal = out + ".journal";
  const pid_t pid = spawn_cli(s.resume_args(out), s.tmp.file("err"));
  ASSERT_TRUE(wait_for_points(journal, 2));
  ::kill(pid, SIGTERM);
  EXPECT_EQ(wait_cli(pid), 128 + SIGTERM);
  const std::string err = slurp(s.tmp.file("err"));
  const int done = journal_points(journal);
  EXPECT_NE(err.find("stopped by SIGTERM after " + std::to_string(done) + " of 9 points"),
            std::string::npos)
      << "every finished point is in the journal: " << err;
  ASSERT_LT(done, 9);
  EXPECT_FALSE(fs::exists(out));
  const std::string kept = slurp(journal);

  // Another value list, another trace content: refused, the journal untouched.
  std::vector<std::string> changed = s.resume_args(out);
  for (std::string& a : changed)
    if (a == "l2.size_kb=6144,12288,24576") a = "l2.size_kb=6144,12288,49152";
  CliResult r = run_cli(Sweep::joined(changed));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(journal + " was written by a different sweep"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("24576"), std::string::npos) << "names what changed: " << r.err;
  fs::last_write_time(s.trace, fs::last_write_time(s.trace) + std::chrono::seconds(5));
  r = run_cli(Sweep::joined(s.resume_args(out)));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("trace " + s.trace), std::string::npos) << r.err;
  EXPECT_EQ(slurp(journal), kept);
  EXPECT_FALSE(fs::exists(out));

  fs::last_write_time(s.trace, fs::last_write_time(s.trace) - std::chrono::seconds(5));
  r = run_cli(Sweep::joined(s.resume_args(out)));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("resumed: " + std::to_string(done) + " of 9"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(out), s.expected);
}

TEST(SweepResumeTest, ResumeNeedsAnOutputFile) {
  const CliResult r = run_cli("sweep --trace " + data_path("a1_sequential.wtrace") + " --resume");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--resume keeps a journal beside the output: give -o FILE"),
            std::string::npos)
      << r.err;
}

// The array script runs with --resume: a task stopped by SIGTERM (Slurm's time limit) and
// requeued continues, and the merge is the single-machine sweep.
TEST(SweepResumeTest, ARequeuedSlurmArrayTaskResumes) {
  Sweep s;
  const std::string dir = s.tmp.file("pieces");
  // The script adds --jobs (from SLURM_CPUS_PER_TASK) and --no-progress itself.
  std::vector<std::string> sweep_args(s.args.begin() + 1, s.args.end() - 3);
  auto task = [&] {
    std::vector<std::string> a{source_path("tools/slurm/sweep_array.sh"), dir, "--"};
    a.insert(a.end(), sweep_args.begin(), sweep_args.end());
    return a;
  };
  const std::vector<std::string> env{"SLURM_ARRAY_TASK_COUNT=2", "SLURM_CPUS_PER_TASK=1",
                                     "GPUMEMSIM=" + cli_path()};
  for (int i = 0; i < 2; ++i) {
    std::vector<std::string> e = env;
    e.push_back("SLURM_ARRAY_TASK_ID=" + std::to_string(i));
    std::string cmd;
    for (const std::string& v : e) cmd += v + " ";
    cmd += "bash";
    for (const std::string& a : task()) cmd += " " + a;
    if (i == 0) {
      // Task 0 stopped after its first points, then run again (the requeue).
      const std::string journal = dir + "/piece-0.csv.journal";
      const pid_t pid = ::fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        ::signal(SIGTERM, SIG_DFL);
        ::execl("/bin/sh", "sh", "-c", ("exec env " + cmd + " 2>/dev/null").c_str(), nullptr);
        ::_exit(127);
      }
      ASSERT_TRUE(wait_for_points(journal, 1));
      ::kill(pid, SIGTERM);
      ASSERT_EQ(wait_cli(pid), 128 + SIGTERM);
      ASSERT_FALSE(fs::exists(dir + "/piece-0.csv"));
    }
    ASSERT_EQ(std::system((cmd + " 2>" + s.tmp.file("task.err")).c_str()), 0);
    if (i == 0) {
      EXPECT_NE(slurp(s.tmp.file("task.err")).find("resumed: "), std::string::npos);
    }
  }
  const CliResult m = run_cli("merge " + dir + "/piece-0.csv " + dir + "/piece-1.csv");
  ASSERT_EQ(m.status, 0) << m.err;
  EXPECT_EQ(m.out, s.expected);
}

}  // namespace
}  // namespace gms::test
