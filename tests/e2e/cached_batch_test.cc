// Cached mode replays its L2 accesses in batches, each L2 slice's share together, in trace order
// within the slice (sim/replay/fast/line_batch.h; the L1 lookups stay in trace order). Exact by
// construction; checked here against the replay of every access as it comes, with batches so
// small that a kernel spans hundreds of them.
#include <gtest/gtest.h>

#include <fstream>

#include "sim/config/config.h"
#include "sim/replay/simulator.h"
#include "tests/e2e/mixed_traces.h"
#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"

namespace gms {
namespace {

std::vector<KernelStats> run(const std::string& path, const ConfigSources& config,
                             std::size_t batch_lines) {
  RunOptions opts;
  opts.mode = SimMode::Cached;
  opts.cached_batch_lines = batch_lines;
  return simulate(std::vector<std::string>{path}, load_config(config), opts);
}

/// Everything a cached replay reports that the caches decide, and (`with_time`) the time
/// estimate, which the DRAM row model changes too.
void expect_same(const std::vector<KernelStats>& a, const std::vector<KernelStats>& b,
                 bool with_time = true) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    SCOPED_TRACE(testing::Message() << "kernel " << k);
    ASSERT_EQ(a[k].instructions.size(), b[k].instructions.size());
    for (std::size_t r = 0; r < a[k].instructions.size(); ++r)
      EXPECT_EQ(a[k].instructions[r].c, b[k].instructions[r].c) << "row " << r;
    EXPECT_EQ(a[k].totals, b[k].totals);
    EXPECT_EQ(a[k].earlier_kernels_write_bytes, b[k].earlier_kernels_write_bytes);
    EXPECT_EQ(a[k].traffic.l2_slice_sectors, b[k].traffic.l2_slice_sectors);
    EXPECT_EQ(a[k].traffic.dram.channel_bytes, b[k].traffic.dram.channel_bytes);
    EXPECT_EQ(a[k].traffic.dram.read_bytes, b[k].traffic.dram.read_bytes);
    EXPECT_EQ(a[k].traffic.dram.write_bytes, b[k].traffic.dram.write_bytes);
    EXPECT_EQ(a[k].traffic.dram.flush_write_bytes, b[k].traffic.dram.flush_write_bytes);
    if (with_time) {
      EXPECT_EQ(a[k].time.estimate_ns, b[k].time.estimate_ns);
    }
  }
}

std::vector<std::string> traces(const test::TempDir& dir) {
  const std::string scattered = dir.file("scattered.wtrace"), repeat = dir.file("repeat.wtrace");
  const std::string partial = dir.file("partial.wtrace");
  std::ofstream(scattered) << test::scattered_trace();
  std::ofstream(repeat) << test::repeat_trace();
  std::ofstream(partial) << test::partial_write_trace();
  // The matrix products' loads hit in L1 (and the tiled one's stores and shared accesses).
  return {scattered, repeat, partial, test::data_path("d_naive_n8.wtrace"),
          test::data_path("d_tiled_n8_t4.wtrace")};
}

TEST(CachedBatchTest, BatchedReplayAgreesWithOneAccessAtATime) {
  test::TempDir dir;
  // Loads cached in L1 or not, every replacement policy in both caches, and an L2 that keeps its
  // lines (and dirty state) from one kernel to the next.
  const std::string kepler = test::source_path("configs/kepler-k40.ini");
  const std::vector<ConfigSources> configs = {
      {{}, {}},
      {{}, {"l1.policy=random", "l2.policy=srrip"}},
      {{}, {"l1.policy=fifo", "l2.policy=random", "l2.persist_across_kernels=true"}},
      {{}, {"l1.policy=srrip", "l2.policy=fifo", "l2.hash=linear"}},
      {{kepler}, {}},
      {{test::source_path("configs/volta-v100.ini")}, {"l2.persist_across_kernels=true"}}};
  for (const std::string& path : traces(dir))
    for (const ConfigSources& config : configs) {
      SCOPED_TRACE(path + " " + (config.files.empty() ? "h200" : config.files[0]) + " " +
                   (config.overrides.empty() ? "" : config.overrides[0]));
      const auto reference = run(path, config, 0);
      ASSERT_FALSE(reference.empty());
      for (std::size_t batch : {std::size_t{64}, std::size_t{1000}, std::size_t{1} << 16})
        expect_same(reference, run(path, config, batch));
    }
}

// The DRAM row model needs the DRAM accesses in trace order, which batches (slice by slice) do
// not keep, so with it the hierarchy replays one access at a time whatever the batch size. What
// it counts must still be what a batched replay counts: the row model changes only the row
// hits and misses and, through them, the time estimate. So the batched replay (row model off)
// is compared with the one-by-one replay with the row model on.
TEST(CachedBatchTest, RowModelReplayCountsWhatTheBatchedReplayCounts) {
  test::TempDir dir;
  const ConfigSources rows = {{}, {"dram.row_model=true"}};
  const ConfigSources plain = {{}, {}};
  for (const std::string& path : traces(dir)) {
    SCOPED_TRACE(path);
    const auto one_by_one = run(path, rows, 0);
    ASSERT_FALSE(one_by_one.empty());
    std::uint64_t rows_seen = 0;
    for (const KernelStats& k : one_by_one)
      rows_seen += k.traffic.dram.row_hits + k.traffic.dram.row_misses;
    EXPECT_GT(rows_seen, 0u) << "the row model saw no DRAM access";
    for (std::size_t batch : {std::size_t{64}, std::size_t{1} << 16}) {
      expect_same(one_by_one, run(path, plain, batch), /*with_time=*/false);
      // Asking for batches with the row model on changes nothing, row counts included.
      const auto asked = run(path, rows, batch);
      expect_same(one_by_one, asked);
      ASSERT_EQ(asked.size(), one_by_one.size());
      for (std::size_t k = 0; k < asked.size(); ++k) {
        EXPECT_EQ(asked[k].traffic.dram.row_hits, one_by_one[k].traffic.dram.row_hits);
        EXPECT_EQ(asked[k].traffic.dram.row_misses, one_by_one[k].traffic.dram.row_misses);
      }
    }
  }
}

}  // namespace
}  // namespace gms
