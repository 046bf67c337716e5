// Sweeps through the library: axes and shards parsed, the cross product in order, one row per
// trace x configuration x kernel (x instruction), output independent of the thread count, and
// shards that merge into the unsharded bytes.
#include "tools/study/sweep.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "sim/core/error.h"
#include "sim/report/tidy_csv.h"
#include "tests/test_paths.h"
#include "tools/study/sweep_journal.h"

namespace gms {
namespace {

SweepSpec two_trace_spec() {
  SweepSpec s;
  s.traces = {test::data_path("example_stream.wtrace"), test::data_path("a3_stride2.wtrace")};
  s.axes = {parse_sweep_axis("coalescer.segment_bytes=32,64,128"),
            parse_sweep_axis("shared.banks=16,32")};
  s.preset_dirs = {test::source_path("configs")};
  return s;
}

TEST(SweepTest, AxisSplitsAtCommasOrSemicolons) {
  const SweepAxis a = parse_sweep_axis("coalescer.segment_bytes=32,64,128");
  EXPECT_EQ(a.key, "coalescer.segment_bytes");
  EXPECT_EQ(a.values, (std::vector<std::string>{"32", "64", "128"}));
  const SweepAxis b = parse_sweep_axis("l1.carveouts_kb=0,8,16;0,32");
  EXPECT_EQ(b.values, (std::vector<std::string>{"0,8,16", "0,32"}));
  EXPECT_EQ(parse_sweep_axis("preset=volta-v100").key, "preset");
  try {
    parse_sweep_axis("l9.size_kb=1,2");
    FAIL() << "no error";
  } catch (const SimError& e) {
    EXPECT_NE(std::string(e.what()).find("l9.size_kb"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_sweep_axis("coalescer.rule"), SimError);
  EXPECT_THROW(parse_sweep_axis("coalescer.rule=sectors,,kepler-l1"), SimError);
}

TEST(SweepTest, ShardNeedsIndexBelowCount) {
  const SweepShard s = parse_sweep_shard("2/5");
  EXPECT_EQ(s.index, 2u);
  EXPECT_EQ(s.count, 5u);
  for (const char* bad : {"5/5", "1/0", "x/2", "1", "1/2/3", "-1/2"})
    EXPECT_THROW(parse_sweep_shard(bad), SimError) << bad;
}

TEST(SweepTest, CrossProductVariesTheFirstAxisSlowest) {
  const SweepSpec s = two_trace_spec();
  ASSERT_EQ(sweep_configurations(s), 6u);
  EXPECT_EQ(sweep_points(s), 12u);
  EXPECT_EQ(sweep_values(s, 0), (std::vector<std::string>{"32", "16"}));
  EXPECT_EQ(sweep_values(s, 1), (std::vector<std::string>{"32", "32"}));
  EXPECT_EQ(sweep_values(s, 2), (std::vector<std::string>{"64", "16"}));
  EXPECT_EQ(sweep_values(s, 5), (std::vector<std::string>{"128", "32"}));
  EXPECT_EQ(sweep_config(s, 5).coalescer.segment_bytes, 128u);
  EXPECT_EQ(sweep_config(s, 4).shared.banks, 16u);
}

TEST(SweepTest, OneRowPerTraceConfigurationKernelInPointOrder) {
  const SweepSpec s = two_trace_spec();
  const TidyCsv t = parse_tidy_csv(run_sweep_csv(s, {}, 2), "sweep");
  ASSERT_GE(t.column("cfg.coalescer.segment_bytes"), 0);
  ASSERT_GE(t.column("cfg.shared.banks"), 0);
  // example_stream has 5 kernels, a3_stride2 one: 6 configurations x 6 kernels.
  ASSERT_EQ(t.rows.size(), 36u);
  const int point = t.column("point"), trace = t.column("trace"), kid = t.column("kernel_id");
  const int seg = t.column("cfg.coalescer.segment_bytes"), fetched = t.column("bytes_fetched");
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const std::size_t p = std::stoul(t.rows[r][point]);
    EXPECT_EQ(p, r < 30 ? r / 5 : 6 + (r - 30)) << r;
    EXPECT_EQ(t.rows[r][trace], s.traces[p / 6]);
    EXPECT_EQ(t.rows[r][seg], sweep_values(s, p % 6)[0]);
  }
  // strided_read (kernel 2 of example_stream) fetches more with larger segments.
  std::vector<double> strided;
  for (const auto& row : t.rows)
    if (row[trace] == s.traces[0] && row[kid] == "2" && row[t.column("cfg.shared.banks")] == "32")
      strided.push_back(std::stod(row[fetched]));
  ASSERT_EQ(strided.size(), 3u);
  EXPECT_LT(strided[0], strided[1]);
  EXPECT_LT(strided[1], strided[2]);
}

TEST(SweepTest, ThreadCountDoesNotChangeTheText) {
  SweepSpec s = two_trace_spec();
  s.mode = SimMode::Both;
  const std::string one = run_sweep_csv(s, {}, 1);
  EXPECT_EQ(run_sweep_csv(s, {}, 3), one);
  EXPECT_EQ(run_sweep_csv(s, {}, 8), one);
  EXPECT_EQ(run_sweep_csv(s, {}, 0), one);
  s.per_instruction = true;
  EXPECT_EQ(run_sweep_csv(s, {}, 1), run_sweep_csv(s, {}, 5));
}

TEST(SweepTest, FewerPointsThanJobsReplayEachPointOnSeveralThreads) {
  // 2 points on 8 jobs: each point's replay runs on 4 threads (the parallel replay), with the
  // same text.
  SweepSpec s;
  s.traces = {test::data_path("example_stream.wtrace")};
  s.axes = {parse_sweep_axis("l2.ways=8,16")};
  s.preset_dirs = {test::source_path("configs")};
  s.mode = SimMode::Both;
  s.separate_runs = true;  // not one pass: the points themselves
  s.per_instruction = true;
  EXPECT_EQ(run_sweep_csv(s, {}, 8), run_sweep_csv(s, {}, 1));
}

TEST(SweepTest, ShardsMergeIntoTheSingleRunBytes) {
  SweepSpec s = two_trace_spec();
  s.per_instruction = true;
  const std::string single = run_sweep_csv(s, {}, 2);
  for (std::size_t n : {1u, 2u, 5u, 12u, 17u}) {
    std::vector<std::string> pieces, names;
    for (std::size_t i = n; i-- > 0;) {  // any order
      pieces.push_back(run_sweep_csv(s, {i, n}, 2));
      names.push_back("piece-" + std::to_string(i));
    }
    EXPECT_EQ(merge_sweep_csv(pieces, names), single) << n << " shards";
  }
}

TEST(SweepTest, MergeRejectsMissingRepeatedOrForeignPieces) {
  const SweepSpec s = two_trace_spec();
  const std::string p0 = run_sweep_csv(s, {0, 3}, 1), p1 = run_sweep_csv(s, {1, 3}, 1),
                    p2 = run_sweep_csv(s, {2, 3}, 1);
  auto message = [](const std::vector<std::string>& texts) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < texts.size(); ++i)
      names.push_back(std::string("p").append(std::to_string(i)));
    try {
      merge_sweep_csv(texts, names);
    } catch (const SimError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({p0, p2}).find("shard 1/3 is missing"), std::string::npos);
  EXPECT_NE(message({p0, p1, p1, p2}).find("also"), std::string::npos);
  SweepSpec other = s;
  other.axes[1].values = {"8", "32"};
  EXPECT_NE(message({p0, p1, run_sweep_csv(other, {2, 3}, 1)}).find("another sweep"),
            std::string::npos);
  EXPECT_NE(message({"point,x\n0,1\n"}).find("not a gpumemsim sweep"), std::string::npos);
}

TEST(SweepTest, PresetAxisAppliesThePresetFile) {
  SweepSpec s;
  s.traces = {test::data_path("example_stream.wtrace")};
  s.axes = {parse_sweep_axis("preset=kepler-k40-ca,volta-v100")};
  s.preset_dirs = {test::source_path("configs")};
  EXPECT_EQ(sweep_config(s, 0).coalescer.rule, CoalesceRule::KeplerL1);
  EXPECT_EQ(sweep_config(s, 1).coalescer.rule, CoalesceRule::Sectors);
  const TidyCsv t = parse_tidy_csv(run_sweep_csv(s, {}, 2), "sweep");
  const int preset = t.column("cfg.preset"), tr = t.column("transactions");
  ASSERT_GE(preset, 0);
  // copy (kernel 1): 128-byte load transactions on Kepler, 32-byte sectors on Volta.
  EXPECT_EQ(t.rows[0][preset], "kepler-k40-ca");
  EXPECT_EQ(t.rows[0][tr], "40");
  EXPECT_EQ(t.rows[5][preset], "volta-v100");
  EXPECT_EQ(t.rows[5][tr], "64");
  s.axes = {parse_sweep_axis("preset=no-such-gpu")};
  try {
    run_sweep_csv(s, {}, 1);
    FAIL() << "no error";
  } catch (const SimError& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-gpu"), std::string::npos) << e.what();
  }
}

TEST(SweepTest, BadValueIsReportedBeforeAnyWorkAndNamesTheKey) {
  SweepSpec s;
  s.traces = {test::data_path("example_stream.wtrace")};
  s.axes = {parse_sweep_axis("coalescer.segment_bytes=32,48")};
  try {
    run_sweep_csv(s, {}, 2);
    FAIL() << "no error";
  } catch (const SimError& e) {
    EXPECT_NE(std::string(e.what()).find("coalescer.segment_bytes"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("=48"), std::string::npos) << e.what();
  }
}

TEST(SweepTest, ProgressCountsRecordsAndPoints) {
  SweepSpec s = two_trace_spec();
  SweepProgress p;
  run_sweep_csv(s, {1, 2}, 3, &p);
  EXPECT_EQ(p.points_total, 6u);
  EXPECT_EQ(p.points_done.load(), 6u);
  EXPECT_GT(p.records.load(), 0u);
  EXPECT_EQ(p.records.load(), p.finished_records.load());
}

}  // namespace
}  // namespace gms

namespace gms {
namespace {

// The journal of a resumable sweep, on four threads: every point recorded once, and a second
// run that takes some points from it (the others dropped from the file) writes the same bytes.
TEST(SweepTest, AJournalledSweepOnFourThreadsWritesTheSameBytes) {
  const SweepSpec s = two_trace_spec();
  const std::string plain = run_sweep_csv(s, {}, 4);
  const std::string path = std::filesystem::temp_directory_path() /
                           ("gms-sweep-journal-" + std::to_string(::getpid()) + ".journal");
  std::filesystem::remove(path);
  {
    SweepJournal j(path);
    SweepProgress progress;
    EXPECT_EQ(run_sweep_csv(s, {}, 4, &progress, &j), plain);
    EXPECT_EQ(progress.points_resumed, 0u);
    EXPECT_EQ(j.done().size(), 0u) << "done() holds earlier runs' points only";
  }
  // Keep the header and the first three entries, as if killed after three points.
  std::string text = read_text_file(path);
  std::size_t cut = text.find("\npoint ");
  for (int i = 0; i < 3; ++i) cut = text.find("\npoint ", cut + 1);
  ASSERT_NE(cut, std::string::npos);
  {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text.substr(0, cut + 1);
    SweepJournal j(path);
    SweepProgress progress;
    EXPECT_EQ(run_sweep_csv(s, {}, 4, &progress, &j), plain);
    EXPECT_EQ(progress.points_resumed, 3u);
    EXPECT_EQ(progress.points_done.load(), 12u);
    j.remove();
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace gms
