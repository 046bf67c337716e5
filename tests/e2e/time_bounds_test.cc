// The time model's bound for named kernels (generated or written here) through the whole
// pipeline, and the notes' roofline and matrix-product traffic through generated traces.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>

#include "sim/replay/simulator.h"
#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"

namespace gms {
namespace {

KernelStats replay_one(const std::string& path, SimMode mode = SimMode::Cached,
                       const std::vector<std::string>& sets = {}) {
  RunOptions opts;
  opts.mode = mode;
  auto ks = simulate(std::vector<std::string>{path}, load_config({{}, sets}), opts);
  EXPECT_EQ(ks.size(), 1u);
  return ks.at(0);
}

std::string gen(const test::TempDir& dir, const std::string& name, const std::string& args) {
  const std::string path = dir.file(name + ".gmt");
  const test::CliResult r = test::run_cli("gen " + args + " -o " + path);
  EXPECT_EQ(r.status, 0) << r.err;
  return path;
}

TEST(TimeBoundsTest, LargeStoreStreamIsDramBound) {
  test::TempDir dir;
  // gpu-stream's init at block 1024: one 8-byte store per thread over 256 MiB, four times the L2.
  const KernelStats k = replay_one(gen(dir, "fill",
                                       "stream_occupancy --kind write --block 1024 --elem 8 "
                                       "--footprint 268435456"));
  EXPECT_EQ(k.time.bound, Bound::Dram);
  EXPECT_GT(k.time.dram_gbps, 0.5 * 4800);
  EXPECT_LT(k.time.dram_gbps, 4800);
}

TEST(TimeBoundsTest, LargeCopyStreamWaitsOnTheStorePath) {
  test::TempDir dir;
  // 2M loads and 2M stores of 128 bytes: 256 MiB each way, four times the L2. Each store waits
  // for its load, so an SM's 8 KB of stores per wave follow the loads' latency (as gpu-stream's
  // scale kernel at the same 8 KB per SM and wave: 2263 GB/s on an H200, tests/fidelity/data):
  // latency-bound, well under the DRAM's rate. Without the store path term and the DRAM queue
  // (which lengthens a chain that meets the DRAM's rate), near the DRAM's.
  const std::string trace = gen(dir, "stream", "stream --records 4000000");
  const KernelStats k = replay_one(trace);
  EXPECT_EQ(k.time.bound, Bound::Latency);
  EXPECT_GT(k.time.store_path_ns, 0.25 * k.time.estimate_ns);
  EXPECT_LT(k.time.dram_gbps, 0.5 * 4800);
  const KernelStats no_path =
      replay_one(trace, SimMode::Cached, {"l1.store_path_bytes_per_cycle=0", "dram.queue_ns=0"});
  EXPECT_LT(no_path.time.estimate_ns, 0.6 * k.time.estimate_ns);
  EXPECT_GT(no_path.time.dram_gbps, 0.7 * 4800);
}

TEST(TimeBoundsTest, OneWarpChasingPointersIsLatencyBound) {
  test::TempDir dir;
  std::string body = "#wtrace 1\n#kernel id=110 name=chase grid=1,1,1 block=32,1,1\n";
  std::uint64_t a = 12345;
  for (int i = 0; i < 4096; ++i) {
    a = (a * 6364136223846793005ull + 1442695040888963407ull);
    body += fmt::format("0 LDG 8 - 0 0 00000001 0x{:x}\n", (a >> 20) % (256ull << 20) & ~7ull);
  }
  std::ofstream(dir.file("chase.wtrace")) << body;
  const KernelStats k = replay_one(dir.file("chase.wtrace"));
  EXPECT_EQ(k.time.bound, Bound::Latency);
  EXPECT_GT(k.time.latency_ns, 10 * k.time.dram_ns);
}

/// 200k warps of `name` storing 4-byte words `stride` bytes apart, over a 16 MiB region that
/// stays in L2 (H200 preset).
KernelStats strided_stores(test::TempDir& dir, const char* name, unsigned stride) {
  std::string body =
      fmt::format("#wtrace 1\n#kernel id=52 name={} grid=25000,1,1 block=256,1,1\n", name);
  for (int w = 0; w < 200000; ++w)
    body += fmt::format("0 STG 4 - {} {} ffffffff @0x{:x}:{}\n", w / 8, w % 8, (w % 4096) * 4096,
                        stride);
  std::ofstream(dir.file(name)) << body;
  return replay_one(dir.file(name));
}

TEST(TimeBoundsTest, StridedStoresThatFitInL2AreL2Bound) {
  // 32 sectors per request (stride 33 floats: a line and a sector per lane), 200k warps: the
  // dirty data is written back lazily, so the slices, not DRAM, bound the kernel. Not L1 either:
  // every store sector goes on to L2, 6.4M sectors over 96 slices x 1.6 per cycle is about
  // 41.7k cycles, while the busiest SM's L1 (190 of the 25000 CTAs, 8 warps each) needs 8 tag
  // cycles a warp (32 lines, 4 a cycle) and 1 data wavefront (words 33t: every bank once): 12160
  // cycles. L2's term is 3.4 times L1's.
  test::TempDir dir;
  const KernelStats k = strided_stores(dir, "store_stride33", 132);
  EXPECT_EQ(k.time.bound, Bound::L2);
  EXPECT_GT(k.time.l2_ns, 3 * k.time.l1_ns);
  EXPECT_DOUBLE_EQ(k.time.l1_ns, 12160 / 1.98);  // at 1.98 GHz
  // The 4096 x 32 sectors the warps share stay in L2, each with 4 of its 32 bytes written: the
  // flush reads each before writing it back (dram.partial_write_reads, on in the H200 preset),
  // 4 MiB counted at the flush, not timed.
  EXPECT_EQ(k.traffic.dram.read_bytes, 4096u * 32 * 32);
  EXPECT_EQ(k.traffic.dram.flush_read_bytes, k.traffic.dram.read_bytes);
}

TEST(TimeBoundsTest, StridedStoresInOneBankAreL1Bound) {
  // The same with stride 32 floats: the same sectors, lines and L2 term, but every word in bank 0
  // of the L1 data array: 32 wavefronts a warp, 48640 cycles on the busiest SM.
  test::TempDir dir;
  const KernelStats k = strided_stores(dir, "store_stride32", 128);
  EXPECT_EQ(k.time.bound, Bound::L1);
  EXPECT_DOUBLE_EQ(k.time.l1_ns, 48640 / 1.98);
  EXPECT_EQ(k.traffic.dram.read_bytes, 4096u * 32 * 32);  // read by the flush, as above
  EXPECT_EQ(k.traffic.dram.flush_read_bytes, k.traffic.dram.read_bytes);
}

TEST(TimeBoundsTest, TiledMatrixProductIntensityIsTileOverFour) {
  // docs/examples.md B8 through generated traces: FLOPs 2N^3 over the cold model's global bytes
  // (8N^3 / T read, plus C written once) gives about T/4; on a 20 TFLOP/s, 1 TB/s machine
  // (balance 20) T = 16 and 32 are memory-bound.
  test::TempDir dir;
  for (int tile : {16, 32}) {
    const KernelStats k = replay_one(
        gen(dir, fmt::format("t{}", tile), fmt::format("matmul_tiled --n 128 --tile {}", tile)),
        SimMode::Cold, {"gpu.fp32_gflops=20000", "dram.peak_gbps=1000"});
    ASSERT_TRUE(k.roofline.known);
    const double n = 128;
    EXPECT_EQ(k.roofline.flops, static_cast<std::uint64_t>(2 * n * n * n));
    // The reads alone give exactly T / 4; C's store (4N^2 bytes) lowers it by 1 / (1 + T / 2N).
    EXPECT_EQ(k.total(OpClass::GlobalLoad).bytes_fetched,
              static_cast<std::uint64_t>(8 * n * n * n / tile));
    EXPECT_DOUBLE_EQ(
        2 * n * n * n / static_cast<double>(k.total(OpClass::GlobalLoad).bytes_fetched),
        tile / 4.0);
    EXPECT_DOUBLE_EQ(k.roofline.intensity, 2 * n * n * n / (8 * n * n * n / tile + 4 * n * n));
    EXPECT_DOUBLE_EQ(k.roofline.balance, 20);
    EXPECT_EQ(k.roofline.bound, RooflineBound::Memory);
  }
}

TEST(TimeBoundsTest, NaiveVersusTiledTrafficRatioIsTheTile) {
  // docs/examples.md D: thread reads of global memory fall by T = 16.
  test::TempDir dir;
  const KernelStats naive =
      replay_one(gen(dir, "naive", "matmul_naive --n 64 --tile 16"), SimMode::Cold);
  const KernelStats tiled =
      replay_one(gen(dir, "tiled", "matmul_tiled --n 64 --tile 16"), SimMode::Cold);
  EXPECT_EQ(naive.total(OpClass::GlobalLoad).active_threads,
            16 * tiled.total(OpClass::GlobalLoad).active_threads);
}

TEST(TimeBoundsTest, FlopsOnTheCommandLine) {
  const test::CliResult r = test::run_cli("run " + test::data_path("a1_sequential.wtrace") +
                                          " --flops 1=1280 --format json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"intensity\": 10.0"), std::string::npos) << r.out;  // 1280 FLOP / 128 B
  EXPECT_NE(test::run_cli("run " + test::data_path("a1_sequential.wtrace") + " --flops x=1").status,
            0);
}

}  // namespace
}  // namespace gms
