// The run-time choice of the AVX-512 paths and the GMS_PORTABLE switch that turns them off
// (sim/lanes/cpu_features.h). The query is cached in a static at its first call, so the switch
// itself is checked in a fresh process: this test binary run again with GMS_PORTABLE=1.
#include "sim/lanes/cpu_features.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "sim/lanes/sorting_network.h"
#include "tests/tools/cli/cli_runner.h"
#include "trace/native/packed_lanes.h"

namespace gms {
namespace {

TEST(CpuFeaturesTest, PortableSwitchRule) {
  EXPECT_FALSE(portable_requested(nullptr));
  EXPECT_FALSE(portable_requested(""));
  EXPECT_FALSE(portable_requested("0"));
  EXPECT_TRUE(portable_requested("1"));
  EXPECT_TRUE(portable_requested("yes"));
  EXPECT_TRUE(avx512f_usable(true, nullptr));
  EXPECT_TRUE(avx512f_usable(true, "0"));
  EXPECT_FALSE(avx512f_usable(true, "1"));
  EXPECT_FALSE(avx512f_usable(false, nullptr));
  EXPECT_FALSE(avx512f_usable(false, "1"));
}

/// The cached query agrees with the rule for this CPU and this process's environment, and every
/// dispatch point that reports its choice follows it. Prints what it saw, for the test below.
TEST(CpuFeaturesTest, QueryFollowsTheCpuAndTheEnvironment) {
  const bool cpu = cpu_supports_avx512f();
  const char* env = std::getenv("GMS_PORTABLE");
  const bool usable = cpu_has_avx512f();
  std::printf("gms-cpu-features: cpu=%d portable=%d usable=%d\n", cpu, portable_requested(env),
              usable);
  EXPECT_EQ(usable, avx512f_usable(cpu, env));
  EXPECT_EQ(detail::avx512_available(), usable) << "sorting network";
  EXPECT_EQ(trace::detail::vector_unpack_available(), usable) << ".gmt lane unpacking";
}

/// Runs the test above in a fresh process (so its static sees the environment given here) and
/// returns the line it printed.
std::string query_in_child(const std::string& env) {
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  test::TempDir tmp;
  const std::string out = tmp.file("out");
  const std::string cmd = env + " " + self +
                          " --gtest_filter=CpuFeaturesTest.QueryFollowsTheCpuAndTheEnvironment >" +
                          out + " 2>&1";
  const int rc = std::system(cmd.c_str());
  const std::string text = test::slurp(out);
  EXPECT_EQ(rc, 0) << cmd << "\n" << text;
  EXPECT_NE(text.find("[  PASSED  ] 1 test"), std::string::npos) << text;
  const auto at = text.find("gms-cpu-features:");
  if (at == std::string::npos) return "";
  return text.substr(at, text.find('\n', at) - at);
}

TEST(CpuFeaturesTest, PortableSwitchTurnsTheVectorPathsOffInAFreshProcess) {
  const int cpu = cpu_supports_avx512f() ? 1 : 0;
  EXPECT_EQ(query_in_child("GMS_PORTABLE=1"),
            "gms-cpu-features: cpu=" + std::to_string(cpu) + " portable=1 usable=0");
  EXPECT_EQ(query_in_child("GMS_PORTABLE=0"), "gms-cpu-features: cpu=" + std::to_string(cpu) +
                                                  " portable=0 usable=" + std::to_string(cpu));
  EXPECT_EQ(query_in_child("env -u GMS_PORTABLE"), "gms-cpu-features: cpu=" + std::to_string(cpu) +
                                                       " portable=0 usable=" + std::to_string(cpu));
}

}  // namespace
}  // namespace gms
