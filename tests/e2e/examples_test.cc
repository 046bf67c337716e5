// Every number of docs/examples.md sections A-D, through the real pipeline: a
// hand-written trace in tests/data/ is read by the trace reader and replayed by simulate().
#include <gtest/gtest.h>

#include "sim/config/config.h"
#include "sim/replay/simulator.h"
#include "sim/report/report.h"
#include "tests/test_paths.h"
#include "trace/import/formats.h"

namespace gms {
namespace {

KernelStats replay(const std::string& file, const std::string& preset = "") {
  ConfigSources sources;
  if (!preset.empty()) sources.files.push_back(test::source_path("configs/" + preset + ".ini"));
  const SimConfig cfg = load_config(sources);
  auto reader = trace::open_trace_reader(test::data_path(file));
  std::vector<KernelStats> kernels = simulate(*reader, cfg);
  EXPECT_EQ(kernels.size(), 1u) << file;
  return kernels.empty() ? KernelStats{} : kernels.front();
}

struct GlobalCase {
  const char* file;
  std::uint64_t transactions;
  double efficiency;
};

TEST(ExamplesTest, SectionASectors) {
  const GlobalCase cases[] = {
      {"a1_sequential.wtrace", 4, 1.0},    {"a2_misaligned.wtrace", 5, 0.8},
      {"a3_stride2.wtrace", 8, 0.5},       {"a4_stride8.wtrace", 32, 0.125},
      {"a5_stride1024.wtrace", 32, 0.125}, {"a6_reversed.wtrace", 4, 1.0},
      {"a7_broadcast.wtrace", 1, 0.125},   {"a8a_column.wtrace", 32, 0.125},
      {"a8a_row.wtrace", 4, 1.0},          {"a8b_mixed.wtrace", 18, 128.0 / 576.0},
      {"a9_aos12.wtrace", 12, 1.0 / 3.0},
  };
  for (const GlobalCase& c : cases) {
    const AccessCounters t = replay(c.file).total(OpClass::GlobalLoad);
    EXPECT_EQ(t.requests, 1u) << c.file;
    EXPECT_EQ(t.sectors, c.transactions) << c.file;
    EXPECT_EQ(t.transactions, c.transactions) << c.file;
    EXPECT_NEAR(efficiency(t), c.efficiency, 1e-9) << c.file;
  }
}

TEST(ExamplesTest, SectionBModelB) {
  const GlobalCase cases[] = {
      {"b1_consecutive.wtrace", 1, 1.0},    {"b2a_stride2.wtrace", 2, 0.5},
      {"b2b_stride32.wtrace", 32, 0.03125}, {"b3_one_lane.wtrace", 1, 0.03125},
      {"b4_broadcast.wtrace", 1, 0.03125},  {"b5_aos24_field.wtrace", 6, 128.0 / 768.0},
      {"b7_rgb_red.wtrace", 3, 1.0 / 3.0},  {"b7_planar_red.wtrace", 1, 1.0},
      {"b9_base64.wtrace", 2, 0.5},
  };
  for (const GlobalCase& c : cases) {
    const AccessCounters t = replay(c.file, "kepler-k40-ca").total(OpClass::GlobalLoad);
    EXPECT_EQ(t.transactions, c.transactions) << c.file;
    EXPECT_EQ(t.bytes_fetched, 128 * c.transactions) << c.file;
    EXPECT_NEAR(efficiency(t), c.efficiency, 1e-9) << c.file;
  }
}

TEST(ExamplesTest, SectionBStructOfArraysSixTimesFewer) {
  const std::uint64_t aos =
      replay("b5_aos24_all.wtrace", "kepler-k40-ca").total(OpClass::GlobalLoad).transactions;
  const std::uint64_t soa =
      replay("b5_soa24_all.wtrace", "kepler-k40-ca").total(OpClass::GlobalLoad).transactions;
  EXPECT_EQ(aos, 36u);
  EXPECT_EQ(soa, 6u);
}

TEST(ExamplesTest, RowVersusColumnWalkIsEightTimes) {
  const auto col = replay("a8a_column.wtrace").total(OpClass::GlobalLoad).transactions;
  const auto row = replay("a8a_row.wtrace").total(OpClass::GlobalLoad).transactions;
  EXPECT_EQ(col, 8 * row);
}

struct SharedCase {
  const char* file;
  std::uint64_t wavefronts;
  std::uint64_t ideal;
};

TEST(ExamplesTest, SharedMemoryBanksSectionsBAndC) {
  const SharedCase cases[] = {
      {"b4s_smem_broadcast.wtrace", 1, 1},
      {"b6_tile32.wtrace", 32, 1},
      {"b6_tile33.wtrace", 1, 1},
      {"c_stride1.wtrace", 1, 1},
      {"c_stride2.wtrace", 2, 1},
      {"c_stride3.wtrace", 1, 1},
      {"c_stride16.wtrace", 16, 1},
      {"c_stride24.wtrace", 8, 1},
      {"c_stride32.wtrace", 32, 1},
      {"c_smem8_conflict_free.wtrace", 2, 2},
      {"c_smem8_broadcast.wtrace", 1, 1},
      {"c_smem8_stride32.wtrace", 32, 2},
      {"c_smem16_conflict_free.wtrace", 4, 4},
  };
  for (const SharedCase& c : cases) {
    const KernelStats k = replay(c.file);
    const AccessCounters& t = k.total(OpClass::SharedLoad);
    EXPECT_EQ(t.instructions, 1u) << c.file;
    EXPECT_EQ(t.wavefronts, c.wavefronts) << c.file;
    EXPECT_EQ(t.ideal_wavefronts, c.ideal) << c.file;
  }
}

TEST(ExamplesTest, SectionDNaiveVersusTiledThreadReads) {
  // N = 8, T = 4: naive 2N^3 = 1024 thread reads of global memory, tiled 2N^3 / T = 256.
  const KernelStats naive = replay("d_naive_n8.wtrace");
  const KernelStats tiled = replay("d_tiled_n8_t4.wtrace");
  EXPECT_EQ(naive.total(OpClass::GlobalLoad).active_threads, 1024u);
  EXPECT_EQ(tiled.total(OpClass::GlobalLoad).active_threads, 256u);
  EXPECT_EQ(naive.kernel.flops, 1024u);
  EXPECT_EQ(naive.total(OpClass::GlobalStore).active_threads, 64u);  // one per element of C
  EXPECT_GT(tiled.total(OpClass::SharedLoad).instructions, 0u);
}

}  // namespace
}  // namespace gms
