// The one pass through the real binary: a capacity sweep writes the same bytes with and without
// --separate-runs, shards of it merge into the same file, a sweep it cannot take says so on
// stderr, and `curves` writes its CSV and chart page and refuses bad lists with one message.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"

namespace gms::test {
namespace {

const std::string kOnepassTrace = data_path("example_stream.wtrace");
const std::string kSweep = "sweep --trace " + kOnepassTrace + " " +
                           data_path("d_tiled_n8_t4.wtrace") +
                           " --mode both --per-instruction --vary l2.ways=4,16 --vary "
                           "'l1.carveouts_kb=0,8,16,32,64,100,132,164,196,228;0,228'";

TEST(OnepassCliTest, SweepBytesAreTheSameWithSeparateRuns) {
  const CliResult one = run_cli(kSweep + " -j 2");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_TRUE(one.err.empty()) << one.err;
  const CliResult separate = run_cli(kSweep + " --separate-runs");
  ASSERT_EQ(separate.status, 0) << separate.err;
  EXPECT_EQ(one.out, separate.out);
  TempDir tmp;
  std::string pieces = "merge";
  for (int i = 0; i < 3; ++i) {
    const std::string piece = tmp.file(fmt::format("p{}.csv", i));
    ASSERT_EQ(run_cli(fmt::format("{} --shard {}/3 -o {}", kSweep, i, piece)).status, 0);
    pieces += " " + piece;
  }
  const CliResult merged = run_cli(pieces);
  ASSERT_EQ(merged.status, 0) << merged.err;
  EXPECT_EQ(merged.out, one.out);
}

TEST(OnepassCliTest, AFallbackIsSaidOnStderr) {
  const CliResult r = run_cli("sweep --trace " + kOnepassTrace +
                              " --mode cached --set l2.policy=fifo --vary l2.ways=4,8");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("one replay per point, not one pass: configurations: l2.policy is not lru"),
            std::string::npos)
      << r.err;
}

TEST(OnepassCliTest, CurvesCsvHtmlAndErrors) {
  const CliResult csv = run_cli("curves " + kOnepassTrace + " --ways 4,full --sizes 960,1920");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_NE(csv.out.find("level,kernel_id,kernel_name,ways,sets,capacity_kb,lookups,hits"),
            std::string::npos)
      << csv.out;
  const CliResult l1 = run_cli("curves " + kOnepassTrace +
                               " --level l1 --per-instruction --sizes 8,16 --format html");
  ASSERT_EQ(l1.status, 0) << l1.err;
  EXPECT_NE(l1.out.find("<svg"), std::string::npos);
  const CliResult bad = run_cli("curves " + kOnepassTrace + " --ways 4,x");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("--ways '4,x'"), std::string::npos) << bad.err;
  const CliResult level = run_cli("curves " + kOnepassTrace + " --level l3");
  EXPECT_EQ(level.status, 1);
  EXPECT_NE(level.err.find("--level 'l3'"), std::string::npos) << level.err;
}

}  // namespace
}  // namespace gms::test
