// The verdict rule of the ground-truth tests (tests/e2e/groundtruth_checks.h) on fake capture
// folders made here, so that it is checked without a GPU: no capture skips; a malformed capture,
// one whose rows match no trace, and a check that compared nothing fail. The counters below are
// test input, not measurements: each is worked out by hand from README.md's definitions for the
// two-record traces written next to them.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/e2e/groundtruth_checks.h"

namespace gms::test {
namespace {

void write(const TempDir& dir, const std::string& rel, const std::string& text) {
  const std::filesystem::path p = dir.path / rel;
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// One warp: a unit-stride 4-byte load of 128 aligned bytes (1 request, 4 sectors) and a 4-byte
// store at a stride of 8 bytes over 256 aligned bytes (1 request, 8 sectors).
constexpr const char* kUnitTrace =
    "#wtrace 1\n#kernel id=1 name=unit grid=1,1,1 block=32,1,1\n"
    "0 LDG 4 - 0 0 ffffffff @0x10000:4\n"
    "1 STG 4 - 0 0 ffffffff @0x20000:8\n";
// One warp: a 4-byte shared load at a stride of one word: 32 words in 32 banks, 1 wavefront.
constexpr const char* kBankTrace =
    "#wtrace 1\n#kernel id=20 name=bank_s1 grid=1,1,1 block=32,1,1\n"
    "0 LDS 4 - 0 0 ffffffff @0x0:4\n";
constexpr const char* kGlobalHeader =
    "kernel_id,name,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum\n";

bool mentions(const Verdict& v, const std::string& text) {
  for (const std::string& f : v.failures)
    if (f.find(text) != std::string::npos) return true;
  return false;
}

std::string all(const Verdict& v) {
  std::string s;
  for (const std::string& f : v.failures) s += f + "\n";
  return s;
}

const std::vector<CheckResult (*)(const Capture&)> kChecks = {
    check_global_requests_and_sectors, check_load_lines, check_shared_load_wavefronts,
    check_cached_l1_windows_and_reuse, check_cached_streams};

TEST(GroundtruthLogicTest, NoCaptureAtAllSkipsSayingSo) {
  TempDir dir;
  write(dir, "notes.txt", "no capture here\n");
  for (auto check : kChecks) {
    const Verdict v = run_check(dir.path.string(), check);
    EXPECT_TRUE(v.skip);
    EXPECT_NE(v.skip_reason.find("no capture"), std::string::npos) << v.skip_reason;
    EXPECT_TRUE(v.failures.empty()) << all(v);
  }
}

TEST(GroundtruthLogicTest, MalformedCountersFail) {
  for (const std::string& csv : {std::string("id,name\n1,unit\n"),           // header
                                 std::string(kGlobalHeader) + "1,unit,1\n",  // short row
                                 std::string(kGlobalHeader) + "1,unit,1,n/a,1,8\n",
                                 std::string(kGlobalHeader)}) {  // no rows
    SCOPED_TRACE(csv);
    TempDir dir;
    write(dir, "h200_counters.csv", csv);
    write(dir, "traces/1-unit.wtrace", kUnitTrace);
    for (auto check : kChecks) {
      const Verdict v = run_check(dir.path.string(), check);
      EXPECT_FALSE(v.skip);
      EXPECT_TRUE(mentions(v, "malformed capture")) << all(v);
      EXPECT_NONFATAL_FAILURE(report(v), "malformed capture");
    }
  }
}

TEST(GroundtruthLogicTest, ACaptureWithoutCountersFails) {
  for (const char* file : {"traces/1-unit.wtrace", "h200_latency.csv", "README.md"}) {
    SCOPED_TRACE(file);
    TempDir dir;
    write(dir, file, kUnitTrace);
    const Verdict v = run_check(dir.path.string(), check_global_requests_and_sectors);
    EXPECT_FALSE(v.skip);
    EXPECT_TRUE(mentions(v, "h200_counters.csv does not")) << all(v);
  }
}

TEST(GroundtruthLogicTest, CountersThatMatchNoTraceFail) {
  TempDir dir;
  write(dir, "h200_counters.csv", std::string(kGlobalHeader) + "7,broadcast,1,1,0,0\n");
  Verdict v = run_check(dir.path.string(), check_global_requests_and_sectors);
  EXPECT_FALSE(v.skip);
  EXPECT_TRUE(mentions(v, "has a trace")) << all(v);  // no traces/ at all
  write(dir, "traces/1-unit.wtrace", kUnitTrace);     // a trace, of another kernel
  write(dir, "traces/17-unit.wtrace", kUnitTrace);    // "1" and "17" are not "7-"
  for (auto check : kChecks) {
    v = run_check(dir.path.string(), check);
    EXPECT_FALSE(v.skip);
    EXPECT_TRUE(mentions(v, "has a trace")) << all(v);
  }
}

TEST(GroundtruthLogicTest, MatchingCapturePassesAndEveryMismatchFails) {
  TempDir dir;
  write(dir, "traces/1-unit.wtrace", kUnitTrace);
  write(dir, "h200_counters.csv", std::string(kGlobalHeader) + "1,unit,1,4,1,8\n");
  const Capture c = open_capture(dir.path.string());
  ASSERT_EQ(c.state, CaptureState::Present) << c.reason;
  const CheckResult r = check_global_requests_and_sectors(c);
  EXPECT_EQ(r.compared, 4);
  EXPECT_TRUE(r.failures.empty());
  Verdict v = judge(c, r);
  EXPECT_FALSE(v.skip);
  EXPECT_TRUE(v.failures.empty()) << all(v);

  write(dir, "h200_counters.csv", std::string(kGlobalHeader) + "1,unit,1,5,2,8\n");
  v = run_check(dir.path.string(), check_global_requests_and_sectors);
  EXPECT_EQ(v.failures.size(), 2u) << all(v);
  EXPECT_TRUE(mentions(v, "global_load.sectors simulated 4, measured 5")) << all(v);
  EXPECT_TRUE(mentions(v, "global_store.requests simulated 1, measured 2")) << all(v);
}

TEST(GroundtruthLogicTest, SharedWavefrontsOfAMatchingCapturePass) {
  TempDir dir;
  write(dir, "traces/20-bank_s1.wtrace", kBankTrace);
  write(dir, "h200_counters.csv",
        "kernel_id,name,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\n20,bank_s1,1\n");
  Verdict v = run_check(dir.path.string(), check_shared_load_wavefronts);
  EXPECT_FALSE(v.skip);
  EXPECT_TRUE(v.failures.empty()) << all(v);
  write(dir, "h200_counters.csv",
        "kernel_id,name,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\n20,bank_s1,2\n");
  v = run_check(dir.path.string(), check_shared_load_wavefronts);
  EXPECT_TRUE(mentions(v, "shared_load.wavefronts simulated 1, measured 2")) << all(v);
}

TEST(GroundtruthLogicTest, ACheckThatComparedNothingFails) {
  TempDir dir;
  write(dir, "traces/1-unit.wtrace", kUnitTrace);
  write(dir, "h200_counters.csv", std::string(kGlobalHeader) + "1,unit,1,4,1,8\n");
  // Kernel 1 is none of the shared, stream or window kernels, and has no L2 or hit-rate metric.
  for (auto check : {check_load_lines, check_shared_load_wavefronts,
                     check_cached_l1_windows_and_reuse, check_cached_streams}) {
    const Verdict v = run_check(dir.path.string(), check);
    EXPECT_FALSE(v.skip);
    EXPECT_TRUE(mentions(v, "compared nothing")) << all(v);
    EXPECT_NONFATAL_FAILURE(report(v), "compared nothing");
  }
  // A row with its trace but none of the metrics the check compares (an empty cell is one ncu
  // did not report).
  write(dir, "h200_counters.csv", std::string(kGlobalHeader) + "1,unit,,,,\n");
  const Verdict v = run_check(dir.path.string(), check_global_requests_and_sectors);
  EXPECT_TRUE(mentions(v, "compared nothing")) << all(v);
}

TEST(GroundtruthLogicTest, AKnownGapMustStayAGap) {
  // One warp reads the same 128 bytes twice: cached, 4 sector misses then 4 hits, 50%.
  TempDir dir;
  write(dir, "traces/100-window.wtrace",
        "#wtrace 1\n#kernel id=100 name=window grid=1,1,1 block=32,1,1\n"
        "0 LDG 4 - 0 0 ffffffff @0x10000:4\n0 LDG 4 - 0 0 ffffffff @0x10000:4\n");
  const std::string header =
      "kernel_id,name,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct\n";
  const KnownGap gaps[] = {{100, "global_load.l1_hit_rate (%)", "a test's gap"}};
  auto check = [&](const Capture& c) { return check_cached_windows_with_gaps(c, gaps); };
  write(dir, "h200_counters.csv", header + "100,window,0\n");  // 50 points off: still a gap
  Verdict v = run_check(dir.path.string(), check);
  EXPECT_TRUE(v.failures.empty()) << all(v);
  write(dir, "h200_counters.csv", header + "100,window,52\n");  // within 5 points: closed
  v = run_check(dir.path.string(), check);
  EXPECT_TRUE(mentions(v, "known gap (a test's gap) is closed")) << all(v);
  // Without the entry the same counters are checked as usual.
  write(dir, "h200_counters.csv", header + "100,window,0\n");
  v = run_check(dir.path.string(),
                [](const Capture& c) { return check_cached_windows_with_gaps(c, {}); });
  EXPECT_TRUE(mentions(v, "global_load.l1_hit_rate (%) simulated 50, measured 0")) << all(v);
}

TEST(GroundtruthLogicTest, AReplayThatFailsIsAFailure) {
  TempDir dir;
  write(dir, "traces/1-unit.wtrace", "#wtrace 1\n0 LDG 4 - 0 0 ffffffff @0x0:4\n");
  write(dir, "h200_counters.csv", std::string(kGlobalHeader) + "1,unit,1,4,1,8\n");
  const Verdict v = run_check(dir.path.string(), check_global_requests_and_sectors);
  EXPECT_TRUE(mentions(v, "replaying")) << all(v);
  EXPECT_TRUE(mentions(v, "compared nothing")) << all(v);
}

}  // namespace
}  // namespace gms::test
