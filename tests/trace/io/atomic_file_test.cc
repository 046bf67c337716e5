// AtomicOutputFile: the target appears only on commit, complete; an uncommitted file, a failed
// write and a failed rename leave nothing behind; devices are written directly.
#include "trace/io/atomic_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/tools/cli/cli_runner.h"
#include "trace/io/zstd_stream.h"

namespace gms::trace {
namespace {

namespace fs = std::filesystem;
using gms::test::slurp;
using gms::test::TempDir;

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(AtomicOutputFileTest, TheTargetAppearsOnlyOnCommit) {
  TempDir tmp;
  const std::string target = tmp.file("report.json");
  {
    AtomicOutputFile out(target);
    out.write("{\"a\":", 5);
    EXPECT_FALSE(fs::exists(target)) << "nothing under the final name before commit";
    EXPECT_EQ(out.temp_path(), atomic_temp_name(target, ::getpid()));
    EXPECT_TRUE(fs::exists(out.temp_path()));
    out.write("1}", 2);
    out.commit();
    EXPECT_FALSE(fs::exists(out.temp_path()));
  }
  EXPECT_EQ(slurp(target), "{\"a\":1}");
  EXPECT_EQ(names_in(tmp.path), std::vector<std::string>{"report.json"});
}

TEST(AtomicOutputFileTest, TheTemporaryDoesNotLookFinished) {
  const std::string t = atomic_temp_name("/data/out/sweep.csv", 1234);
  EXPECT_EQ(t, "/data/out/.sweep.csv.tmp.1234");
  EXPECT_EQ(atomic_temp_name("trace.gmt", 7), ".trace.gmt.tmp.7") << "relative: same folder";
  EXPECT_FALSE(t.ends_with(".csv"));
}

TEST(AtomicOutputFileTest, AnUncommittedFileLeavesNothingAndKeepsTheOldOne) {
  TempDir tmp;
  const std::string target = tmp.file("old.csv");
  write_file_atomically(target, "old\n");
  {
    AtomicOutputFile out(target);
    out.write("new, half", 9);
  }  // destroyed without commit: an error on the way
  EXPECT_EQ(slurp(target), "old\n");
  EXPECT_EQ(names_in(tmp.path), std::vector<std::string>{"old.csv"});
}

TEST(AtomicOutputFileTest, AnUnwritableFolderIsAnErrorNamingThePath) {
  try {
    AtomicOutputFile out("/nonexistent/dir/x.csv");
    FAIL() << "no error";
  } catch (const SimError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/x.csv: cannot open for writing"),
              std::string::npos)
        << e.what();
  }
}

TEST(AtomicOutputFileTest, AFailedRenameRemovesTheTemporary) {
  TempDir tmp;
  fs::create_directories(tmp.path / "busy" / "inside");  // a non-empty folder cannot be replaced
  AtomicOutputFile out(tmp.file("busy"));
  out.write("x", 1);
  EXPECT_THROW(out.commit(), SimError);
  EXPECT_EQ(names_in(tmp.path), std::vector<std::string>{"busy"});
}

// A pipe (like /dev/null, a device) is written directly, not replaced by a regular file. (A pipe
// in a private folder: a failing test must not break the machine's /dev/null.)
TEST(AtomicOutputFileTest, APipeIsWrittenDirectly) {
  TempDir tmp;
  const std::string fifo = tmp.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // so that opening to write
  ASSERT_GE(reader, 0);                                            // does not wait
  AtomicOutputFile out(fifo);
  out.write("xy", 2);
  out.commit();
  char got[3] = {};
  EXPECT_EQ(::read(reader, got, 2), 2);
  EXPECT_STREQ(got, "xy");
  ::close(reader);
  EXPECT_TRUE(fs::is_fifo(fifo)) << "not replaced by a regular file";
  EXPECT_EQ(names_in(tmp.path), std::vector<std::string>{"pipe"});
}

// A symbolic link stays a link; the file it names is replaced, in that file's folder.
TEST(AtomicOutputFileTest, ASymbolicLinkIsFollowed) {
  TempDir tmp;
  fs::create_directories(tmp.path / "real");
  write_file_atomically(tmp.file("real/out.csv"), "old\n");
  fs::create_symlink(tmp.path / "real" / "out.csv", tmp.path / "link.csv");
  write_file_atomically(tmp.file("link.csv"), "new\n");
  EXPECT_TRUE(fs::is_symlink(tmp.path / "link.csv"));
  EXPECT_EQ(slurp(tmp.file("real/out.csv")), "new\n");
  EXPECT_EQ(names_in(tmp.path / "real"), std::vector<std::string>{"out.csv"});
}

// A write past the file-size limit (a full disk, in effect) is an error, not SIGXFSZ, and leaves
// neither the output nor its temporary. The limit is set in a child, which reports by status.
TEST(AtomicOutputFileTest, AFileSizeLimitIsAWriteErrorThatLeavesNothing) {
  TempDir tmp;
  const std::string target = tmp.file("big.wtrace.zst");
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const rlimit lim{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &lim);
    int code = 0;
    try {
      OutputStream out(target, false);
      const std::string chunk(1 << 16, 'x');
      for (int i = 0; i < 16; ++i) out.write(chunk.data(), chunk.size());
      out.finish();
      code = 2;  // no error: wrong
    } catch (const SimError& e) {
      code = std::string(e.what()).find(target + ": write error: File too large") == 0 ? 0 : 3;
    }
    ::_exit(code);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "2: no error; 3: another message";
  EXPECT_TRUE(names_in(tmp.path).empty());
}

}  // namespace
}  // namespace gms::trace
