// Cached mode end to end: traces written here (text), read by the real reader and replayed.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "sim/replay/simulator.h"
#include "sim/report/report_stats.h"
#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"

namespace gms {
namespace {

/// Writes a one-warp-per-record trace: `addr(i)` is lane 0's address of record i (unit stride
/// over `elem`-byte elements times `stride`).
std::string write_trace(const test::TempDir& dir, const std::string& body) {
  const std::string path = dir.file("t.wtrace");
  std::ofstream(path) << "#wtrace 1\n" << body;
  return path;
}

std::vector<KernelStats> run(const std::string& path, SimMode mode,
                             const std::vector<std::string>& sets = {}) {
  const SimConfig cfg = load_config({{}, sets});
  RunOptions opts;
  opts.mode = mode;
  return simulate(std::vector<std::string>{path}, cfg, opts);
}

TEST(CachedTest, ReuseHitsInL1AfterTheFirstPass) {
  // One warp re-reads a 16 KiB block 8 times (the groundtruth's reuse16k, one warp).
  test::TempDir dir;
  std::string body = "#kernel id=60 name=reuse16k grid=1,1,1 block=32,1,1\n";
  for (int pass = 0; pass < 8; ++pass)
    for (int i = 0; i < 128; ++i)
      body += fmt::format("0 LDG 4 - 0 0 ffffffff @0x{:x}:4\n", 0x100000 + i * 128);
  const auto k = run(write_trace(dir, body), SimMode::Cached).at(0);
  const AccessCounters& ld = k.total(OpClass::GlobalLoad);
  EXPECT_EQ(ld.sectors, 8u * 512);
  EXPECT_EQ(ld.l1_sector_misses, 512u);
  EXPECT_EQ(ld.l1_sector_hits, 7u * 512);
  EXPECT_EQ(ld.l2_read_sectors, 512u);
  EXPECT_EQ(ld.dram_read_bytes, 16384u);
}

TEST(CachedTest, DramReadsSectorPairs) {
  // stream_stride: 4-byte loads at element strides 8 (one per sector) and 32 (one per line).
  test::TempDir dir;
  std::string body = "#kernel id=31 name=stride8 grid=1,1,1 block=32,1,1\n";
  for (int i = 0; i < 64; ++i) body += fmt::format("0 LDG 4 - 0 0 ffffffff @0x{:x}:32\n", i * 1024);
  body += "#kernel id=33 name=stride32 grid=1,1,1 block=32,1,1\n";
  for (int i = 0; i < 64; ++i)
    body += fmt::format("0 LDG 4 - 0 0 ffffffff @0x{:x}:128\n", 0x10000000 + i * 4096);
  const auto ks = run(write_trace(dir, body), SimMode::Cached);
  ASSERT_EQ(ks.size(), 2u);
  const AccessCounters& s8 = ks[0].total(OpClass::GlobalLoad);
  const AccessCounters& s32 = ks[1].total(OpClass::GlobalLoad);
  EXPECT_EQ(s8.l2_read_sectors, 64u * 32);
  EXPECT_EQ(s8.dram_read_bytes, 32u * s8.l2_read_sectors);  // both sectors of each pair used
  EXPECT_EQ(s32.l2_read_sectors, 64u * 32);
  EXPECT_EQ(s32.dram_read_bytes, 64u * s32.l2_read_sectors);  // one sector of each pair used
  // Cold mode counts sectors, not pairs.
  const auto cold = run(write_trace(dir, body), SimMode::Cold);
  EXPECT_EQ(cold[1].total(OpClass::GlobalLoad).dram_read_bytes, 32u * 64 * 32);
}

TEST(CachedTest, StoresFetchNothingAndTheirPartlyWrittenSectorsAreReadBeforeTheWriteBack) {
  test::TempDir dir;
  std::string body = "#kernel id=50 name=store grid=1,1,1 block=32,1,1\n";
  for (int i = 0; i < 256; ++i) body += fmt::format("0 STG 4 - 0 0 ffffffff @0x{:x}:4\n", i * 128);
  body += "#kernel id=52 name=store_stride32 grid=1,1,1 block=32,1,1\n";
  for (int i = 0; i < 16; ++i)
    body += fmt::format("0 STG 4 - 0 0 ffffffff @0x{:x}:128\n", 0x1000000 + i * 4096);
  const auto ks = run(write_trace(dir, body), SimMode::Cached);
  const AccessCounters unit = detail::kernel_traffic(ks[0]);
  EXPECT_EQ(unit.dram_read_bytes, 0u);
  EXPECT_EQ(unit.l2_write_sectors, 1024u);
  EXPECT_EQ(unit.dram_write_bytes, 256u * 128);  // written back at the end of the kernel
  const AccessCounters strided = detail::kernel_traffic(ks[1]);
  EXPECT_EQ(strided.l2_write_sectors, 16u * 32);
  EXPECT_EQ(strided.dram_write_bytes, 16u * 32 * 32);
  // A partial sector is not fetched when written; the H200's memory reads it before writing it
  // back (dram.partial_write_reads): 32 bytes for each of the 512 sectors, 4 bytes written in
  // each, charged to the store like its write-back. Without that rule, no read at all.
  EXPECT_EQ(strided.dram_read_bytes, 16u * 32 * 32);
  EXPECT_EQ(ks[1].instructions.at(0).c.dram_read_bytes, 16u * 32 * 32);
  const auto plain = run(write_trace(dir, body), SimMode::Cached, {"dram.partial_write_reads=false"});
  EXPECT_EQ(detail::kernel_traffic(plain[1]).dram_read_bytes, 0u);
  EXPECT_EQ(detail::kernel_traffic(plain[1]).dram_write_bytes, 16u * 32 * 32);
  // Write-backs are charged to the store that dirtied the line.
  EXPECT_EQ(ks[0].instructions.at(0).c.dram_write_bytes, 256u * 128);
}

TEST(CachedTest, L2PersistsAcrossKernelsOnlyWhenAsked) {
  test::TempDir dir;
  std::string body;
  for (int k = 1; k <= 2; ++k) {
    body += fmt::format("#kernel id={} name=read grid=1,1,1 block=32,1,1\n", k);
    for (int i = 0; i < 32; ++i) body += fmt::format("0 LDG 4 - 0 0 ffffffff @0x{:x}:4\n", i * 128);
  }
  const std::string path = write_trace(dir, body);
  const auto fresh = run(path, SimMode::Cached);
  EXPECT_EQ(fresh[1].total(OpClass::GlobalLoad).l2_read_sector_hits, 0u);
  EXPECT_EQ(fresh[1].total(OpClass::GlobalLoad).l1_sector_hits, 0u);  // L1 is empty at each kernel
  const auto kept = run(path, SimMode::Cached, {"l2.persist_across_kernels=true"});
  EXPECT_EQ(kept[1].total(OpClass::GlobalLoad).l2_read_sector_hits, 128u);
  EXPECT_EQ(kept[1].total(OpClass::GlobalLoad).dram_read_bytes, 0u);
}

TEST(CachedTest, BothModesListEveryKernelTwice) {
  const auto ks = run(test::data_path("example_stream.wtrace"), SimMode::Both);
  const auto cold = run(test::data_path("example_stream.wtrace"), SimMode::Cold);
  ASSERT_EQ(ks.size(), 2 * cold.size());
  for (std::size_t i = 0; i < cold.size(); ++i) {
    EXPECT_EQ(ks[2 * i].mode, KernelMode::Cold);
    EXPECT_EQ(ks[2 * i + 1].mode, KernelMode::Cached);
    EXPECT_EQ(ks[2 * i].kernel.id, cold[i].kernel.id);
    EXPECT_EQ(ks[2 * i].total(OpClass::GlobalLoad), cold[i].total(OpClass::GlobalLoad));
    // The coalescer's counts do not depend on the mode.
    EXPECT_EQ(ks[2 * i + 1].total(OpClass::GlobalLoad).sectors,
              cold[i].total(OpClass::GlobalLoad).sectors);
  }
}

TEST(CachedTest, ColdModeMissesEverywhere) {
  const auto ks = run(test::data_path("example_stream.wtrace"), SimMode::Cold);
  for (const KernelStats& k : ks) {
    const AccessCounters& ld = k.total(OpClass::GlobalLoad);
    EXPECT_EQ(ld.l1_sector_hits, 0u);
    EXPECT_EQ(ld.l1_sector_misses, ld.sectors);
    EXPECT_EQ(ld.l2_read_sectors, ld.sectors);
    EXPECT_EQ(ld.dram_read_bytes, ld.bytes_fetched);
  }
}

TEST(CachedTest, KeplerCachedL1FetchesWholeLines) {
  // kepler-k40-ca: non-sectored 128-byte L1 lines; a stride-2 warp misses 2 lines and reads 8
  // sectors from L2 (model B: 2 transactions of 128 bytes).
  const SimConfig cfg = load_config({{test::source_path("configs/kepler-k40-ca.ini")}, {}});
  RunOptions opts;
  opts.mode = SimMode::Cached;
  const auto ks =
      simulate(std::vector<std::string>{test::data_path("a3_stride2.wtrace")}, cfg, opts);
  const AccessCounters& ld = ks.at(0).total(OpClass::GlobalLoad);
  EXPECT_EQ(ld.transactions, 2u);
  EXPECT_EQ(ld.l2_read_sectors, 8u);
}

TEST(CachedTest, CliModeBothShowsTheComparison) {
  const test::CliResult r =
      test::run_cli("run " + test::data_path("example_stream.wtrace") + " --mode both");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("cold vs cached, per instruction"), std::string::npos);
  EXPECT_NE(r.out.find("(cached mode)"), std::string::npos);
  EXPECT_EQ(test::run_cli("run " + test::data_path("a1_sequential.wtrace") + " --mode warm").status,
            1);
}

}  // namespace
}  // namespace gms
