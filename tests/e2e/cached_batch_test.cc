// Cached mode replays its L2 accesses in batches, each L2 slice's share together, in trace order
// within the slice (sim/model/line_batch.h; the L1 lookups stay in trace order). Exact by
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

/// Everything a cached replay reports that the hierarchy decides.
void expect_same(const std::vector<KernelStats>& a, const std::vector<KernelStats>& b) {
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
    EXPECT_EQ(a[k].time.estimate_ns, b[k].time.estimate_ns);
  }
}

TEST(CachedBatchTest, BatchedReplayAgreesWithOneAccessAtATime) {
  test::TempDir dir;
  const std::string scattered = dir.file("scattered.wtrace"), repeat = dir.file("repeat.wtrace");
  const std::string partial = dir.file("partial.wtrace");
  std::ofstream(scattered) << test::scattered_trace();
  std::ofstream(repeat) << test::repeat_trace();
  std::ofstream(partial) << test::partial_write_trace();
  // Loads cached in L1 or not, every replacement policy in both caches, an L2 that keeps its
  // lines (and dirty state) from one kernel to the next, and the row model (batches off: both
  // replays are the same path there, which the others must match).
  const std::string kepler = test::source_path("configs/kepler-k40.ini");
  const std::vector<ConfigSources> configs = {
      {{}, {}},
      {{}, {"l1.policy=random", "l2.policy=srrip"}},
      {{}, {"l1.policy=fifo", "l2.policy=random", "l2.persist_across_kernels=true"}},
      {{}, {"l1.policy=srrip", "l2.policy=fifo", "l2.hash=linear"}},
      {{kepler}, {}},
      {{test::source_path("configs/volta-v100.ini")}, {"l2.persist_across_kernels=true"}},
      {{}, {"dram.row_model=true"}}};
  // The matrix products' loads hit in L1 (and the tiled one's stores and shared accesses).
  const std::string naive = test::data_path("d_naive_n8.wtrace");
  const std::string tiled = test::data_path("d_tiled_n8_t4.wtrace");
  for (const std::string& path : {scattered, repeat, partial, naive, tiled})
    for (const ConfigSources& config : configs) {
      SCOPED_TRACE(path + " " + (config.files.empty() ? "h200" : config.files[0]) + " " +
                   (config.overrides.empty() ? "" : config.overrides[0]));
      const auto reference = run(path, config, 0);
      ASSERT_FALSE(reference.empty());
      for (std::size_t batch : {std::size_t{64}, std::size_t{1000}, std::size_t{1} << 16})
        expect_same(reference, run(path, config, batch));
    }
}

}  // namespace
}  // namespace gms
