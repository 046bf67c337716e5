// The simulator against the H200's Nsight Compute counters (tests/groundtruth/, written by
// tools/groundtruth/capture.sh on a GPU machine). Every check is driven by the CSV, so a new
// capture is a new test without code. The tests skip only while no capture exists at all; a
// malformed capture, one that matches no trace, or a check that compared nothing fails
// (tests/e2e/groundtruth_checks.h; groundtruth_logic_test.cc checks that rule on fake folders).
#include <gtest/gtest.h>

#include "tests/e2e/groundtruth_checks.h"

namespace gms::test {
namespace {

const std::string kDir = source_path("tests/groundtruth");

// The three checks of cold mode on one capture, so that they read one replay of each kernel
// (Capture::replays) instead of replaying it up to three times: each check is judged as if it
// ran alone (a failure names its check; each must compare something).
TEST(GroundtruthTest, ColdCountersMatch) {
  const Capture c = open_capture(kDir);
  report(check_capture(c, check_global_requests_and_sectors), "global requests and sectors: ");
  report(check_capture(c, check_load_lines), "load lines against L2 read requests: ");
  report(check_capture(c, check_shared_load_wavefronts), "shared load wavefronts: ");
}

TEST(GroundtruthTest, CachedL1WindowsAndReuseWithinTolerance) {
  report(run_check(kDir, check_cached_l1_windows_and_reuse));
}

TEST(GroundtruthTest, CachedStreamsL2SectorsExactDramWithinOnePercent) {
  report(run_check(kDir, check_cached_streams));
}

}  // namespace
}  // namespace gms::test
