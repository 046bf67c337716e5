// NVBit mem_trace importer: both log forms, inferred masks and instruction ids, opcode classes,
// and every error.
#include <gtest/gtest.h>

#include "tests/test_paths.h"
#include "tests/trace/import/import_test_util.h"
#include "trace/import/nvbit_reader.h"

namespace gms::trace::test {
namespace {

constexpr const char* kLaunch =
    "MEMTRACE: CTX 0x00005581c6a4e120 - LAUNCH - Kernel pc 0x00007f3a2c000100 - Kernel name "
    "k(float*) - grid launch id 4 - grid size 2,1,1 - block size 64,1,1 - nregs 16 - shmem 0 - "
    "cuda stream id 0\n";

/// A record line of launch `id` with lane i at base + i * stride (0 where `zero` has bit i).
std::string record(const std::string& cta, int warp, const std::string& op, std::uint64_t base,
                   std::uint64_t stride, LaneMask zero = 0, int id = 4, int lanes = 32) {
  std::string s = fmt::format(
      "MEMTRACE: CTX 0x00005581c6a4e120 - grid_launch_id {} - CTA {} - "
      "warp {} - {} - ",
      id, cta, warp, op);
  for (int i = 0; i < lanes; ++i)
    s += fmt::format("0x{:016x} ", (zero >> i) & 1 ? 0 : base + i * stride);
  return s + "\n";
}

void expect_log_error(const std::string& text, int line, const std::string& fragment) {
  TempPath p(".log");
  write_bytes(p.str(), text);
  const std::string msg = error_of([&] { records_of(p.str(), TraceFormat::Nvbit); });
  GMS_EXPECT_CONTAINS(msg, p.str() + ":" + std::to_string(line) + ": ");
  GMS_EXPECT_CONTAINS(msg, fragment);
}

TEST(NvbitReaderTest, ParsesTheCurrentLogFormat) {
  const Trace t = read_trace(gms::test::data_path("nvbit/mem_trace.log"));
  ASSERT_EQ(t.kernels.size(), 2u);
  const KernelInfo& k = t.kernels[0];
  EXPECT_EQ(k.id, 0u);
  EXPECT_EQ(k.name, "vecAdd(float_const*,_float_const*,_float*,_int)");
  EXPECT_EQ(k.grid, (Dim3{2, 1, 1}));
  EXPECT_EQ(k.block, (Dim3{64, 1, 1}));
  EXPECT_EQ(k.regs, 16u);
  EXPECT_EQ(t.kernels[1].id, 1u);
  EXPECT_EQ(t.kernels[1].shmem_bytes, 256u);
  ASSERT_EQ(t.records[0].size(), 12u);
  const WarpInstr& first = t.records[0][0];
  EXPECT_EQ(first.op, Op::LDG);
  EXPECT_EQ(first.size, 4);
  EXPECT_EQ(first.mask, 0xffffffffu);
  EXPECT_EQ(first.addr[31], 0x7f3a40000000u + 31 * 4);
  EXPECT_EQ(first.sm, kUnknownSm);
  // CTA 1, warp 1: the tail store has lanes 16-31 at address 0, so inactive.
  const WarpInstr& tail = t.records[0][11];
  EXPECT_EQ(tail.cta, 1u);
  EXPECT_EQ(tail.warp, 1u);
  EXPECT_EQ(tail.op, Op::STG);
  EXPECT_EQ(tail.mask, 0x0000ffffu);
}

TEST(NvbitReaderTest, ParsesTheOlderLogFormat) {
  const Trace t = read_trace(gms::test::data_path("nvbit/mem_trace_old.log"));
  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_EQ(t.kernels[0].name, "_Z6vecAddPfS_S_i");
  EXPECT_EQ(t.kernels[0].id, 0u);
  EXPECT_EQ(t.kernels[1].id, 1u);
  ASSERT_EQ(t.records[0].size(), 3u);
  EXPECT_EQ(t.records[0][1].mask, 0x55555555u);  // odd lanes printed 0
  ASSERT_EQ(t.records[1].size(), 1u);
  EXPECT_EQ(t.records[1][0].cta, 1u);
  EXPECT_EQ(t.records[1][0].size, 8);
}

TEST(NvbitReaderTest, MapsEveryOpcodeClass) {
  const Trace t = read_trace(gms::test::data_path("nvbit/mem_trace.log"));
  const std::vector<WarpInstr>& r = t.records[1];
  const std::pair<Op, int> want[] = {
      {Op::LDS, 16},  // LDS.U.128 (lane 0's offset 0 reads as inactive)
      {Op::STS, 4},   {Op::LDL, 8}, {Op::STL, 4},
      {Op::ATOMG, 4}, {Op::RED, 4}, {Op::LDG, 8},  // LD.E.64: generic, no base addresses: global
      {Op::STG, 2},                                // ST.E.U16
      {Op::LDS, 16},                               // TEX and the all-zero LDG.E are skipped
  };
  ASSERT_EQ(r.size(), std::size(want));
  for (std::size_t i = 0; i < r.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r[i].op, want[i].first);
    EXPECT_EQ(r[i].size, want[i].second);
  }
  EXPECT_EQ(r[0].mask, 0xfffffffeu);

  NvbitReader reader(std::make_unique<InputStream>(gms::test::data_path("nvbit/mem_trace.log")));
  std::vector<WarpInstr> batch(64);
  KernelInfo k;
  while (reader.next_kernel(k))
    while (reader.read(batch) != 0) {
    }
  EXPECT_EQ(reader.counts().records, 21u);
  EXPECT_EQ(reader.counts().unsupported, 1u);  // TEX
  EXPECT_EQ(reader.counts().inactive, 1u);     // every lane 0
}

TEST(NvbitReaderTest, InstructionIdCountsOpcodeOccurrencesPerWarp) {
  const Trace t = read_trace(gms::test::data_path("nvbit/mem_trace.log"));
  // Every warp runs LDG.E, LDG.E, STG.E: the n-th LDG.E of each warp shares one id.
  const std::vector<WarpInstr>& r = t.records[0];
  for (std::size_t w = 0; w < 4; ++w) {
    EXPECT_EQ(r[3 * w].inst, 0u);
    EXPECT_EQ(r[3 * w + 1].inst, 1u);
    EXPECT_EQ(r[3 * w + 2].inst, 2u);
  }
  // Second kernel: ids restart; the second LDS.U.128 of the warp gets its own id.
  EXPECT_EQ(t.records[1].front().inst, 0u);
  EXPECT_EQ(t.records[1].back().inst, 8u);
}

TEST(NvbitReaderTest, RecordsAreInTheLogOrder) {
  const std::string text = std::string(kLaunch) + record("1,0,0", 1, "LDG.E", 0x1000, 4) +
                           record("0,0,0", 0, "LDG.E", 0x2000, 4) +
                           record("1,0,0", 1, "LDG.E", 0x3000, 4);
  TempPath p(".log");
  write_bytes(p.str(), text);
  const auto r = records_of(p.str());
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].cta, 1u);
  EXPECT_EQ(r[1].cta, 0u);
  EXPECT_EQ(r[0].inst, 0u);
  EXPECT_EQ(r[1].inst, 0u);  // warp (0,0)'s first LDG.E
  EXPECT_EQ(r[2].inst, 1u);  // warp (1,1)'s second LDG.E
}

TEST(NvbitReaderTest, ErrorsNameFileAndLine) {
  const std::string l = kLaunch;
  expect_log_error(l + record("0,0,0", 0, "LDG.E", 0x1000, 4, 0, 4, 31), 2,
                   "record has 31 addresses; mem_trace prints 32");
  expect_log_error(record("0,0,0", 0, "LDG.E", 0x1000, 4) + l, 1,
                   "record before any kernel launch");
  expect_log_error(l + record("2,0,0", 0, "LDG.E", 0x1000, 4), 2, "CTA 2,0,0 is outside the grid");
  expect_log_error(l + record("0,0,0", 64, "LDG.E", 0x1000, 4), 2, "warp 64 is out of range");
  expect_log_error(l + record("0,0,0", 0, "LDG.E", 0x1000, 4, 0, 5), 2,
                   "record of grid_launch_id 5 inside launch 4");
  // A CTX line that is neither launch nor record (a tool's own output) is skipped, counted.
  expect_log_error(
      l + "MEMTRACE: CTX 0x1 - something else\n" + record("2,0,0", 0, "LDG.E", 0x1000, 4), 3,
      "CTA 2,0,0 is outside the grid");
  expect_log_error(l + l, 2, "duplicate kernel launch id 4");
  std::string bad = record("0,0,0", 0, "LDG.E", 0x1000, 4);
  bad.replace(bad.find("0x0000000000001004"), 18, "0x00000000000010zz");
  expect_log_error(l + bad, 2, "bad address '0x00000000000010zz'");
}

TEST(NvbitReaderTest, FieldsCutShortAreErrorsNotCrashes) {
  // Fuzz findings: a launch or record whose fields end early threw std::out_of_range.
  expect_log_error("MEMTRACE: CTX 0x1 - LAUNCH\n", 1, "launch line lacks");
  expect_log_error(
      "MEMTRACE: CTX 0x1 - LAUNCH - Kernel name - grid launch id 1 - grid size 1,1,1\n", 1,
      "launch line lacks 'Kernel name");
  expect_log_error(std::string(kLaunch) + "MEMTRACE: CTX 0x1 - grid_launch_id - CTA 0,0,0\n", 2,
                   "bad 'grid_launch_id' (expected grid_launch_id N)");
}

}  // namespace
}  // namespace gms::trace::test
