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

TEST(GroundtruthTest, GlobalRequestsAndSectorsMatchExactly) {
  report(run_check(kDir, check_global_requests_and_sectors));
}

TEST(GroundtruthTest, LoadLinesMatchL2RequestsWhenEveryLoadMissesL1) {
  report(run_check(kDir, check_load_lines));
}

TEST(GroundtruthTest, SharedLoadWavefrontsMatchExactly) {
  report(run_check(kDir, check_shared_load_wavefronts));
}

TEST(GroundtruthTest, CachedL1WindowsAndReuseWithinTolerance) {
  report(run_check(kDir, check_cached_l1_windows_and_reuse));
}

TEST(GroundtruthTest, CachedStreamsL2SectorsExactDramWithinOnePercent) {
  report(run_check(kDir, check_cached_streams));
}

}  // namespace
}  // namespace gms::test
