// NVBit mem_trace importer: the modified layouts people publish (extra SM_id / pc / Size / mask
// fields, per-thread ThreadN,data,address lists), an unknown field, and `gpumemsim info` on an
// Accel-Sim and an NVBit input.
#include <gtest/gtest.h>

#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"
#include "tests/trace/import/import_test_util.h"
#include "trace/import/nvbit_reader.h"

namespace gms::trace::test {
namespace {

constexpr const char* kLaunchId0 =
    "MEMTRACE: CTX 0x00005581c6a4e120 - LAUNCH - Kernel pc 0x00007f3a2c000100 - Kernel name "
    "k(float*) - grid launch id 0 - grid size 2,1,1 - block size 64,1,1 - nregs 16 - shmem 0 - "
    "cuda stream id 0\n";

std::string lanes(std::uint64_t base, std::uint64_t stride, int n = 32) {
  std::string s;
  for (int i = 0; i < n; ++i) s += fmt::format("0x{:016x} ", base + i * stride);
  return s;
}

struct LogRead {
  std::vector<WarpInstr> records;
  std::string format;
};

LogRead read_log(const std::string& text) {
  TempPath p(".log");
  write_bytes(p.str(), text);
  NvbitReader r(std::make_unique<InputStream>(p.str()));
  LogRead out;
  KernelInfo k;
  std::vector<WarpInstr> batch(3);
  while (r.next_kernel(k))
    while (std::size_t n = r.read(batch))
      out.records.insert(out.records.end(), batch.begin(), batch.begin() + n);
  out.format = r.format_description();
  return out;
}

std::string error_for(const std::string& text) {
  TempPath p(".log");
  write_bytes(p.str(), text);
  return error_of([&] { records_of(p.str(), TraceFormat::Nvbit); });
}

TEST(NvbitVariantsTest, ExtraSmPcAndSizeFieldsAreUsed) {
  const std::string text =
      std::string(kLaunchId0) +
      "MEMTRACE: CTX 0x00005581c6a4e120 - grid_launch_id 0 - CTA 1,0,0 - warp 3 - SM_id 17 - "
      "pc 0x1a0 - LDG.E.64 - Size 8 - " +
      lanes(0x7f0000000000, 8) + "\nCTA 0,0,0 - warp 0 - sm 2 - STG.E - pc 0x1c0 - " +
      lanes(0x7f0000100000, 4) + "\n";
  const LogRead r = read_log(text);
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(r.records[0].sm, 17u);
  EXPECT_EQ(r.records[0].inst, 0x1a0u);  // the PC beats inference
  EXPECT_EQ(r.records[0].size, 8);
  EXPECT_EQ(r.records[0].cta, 1u);
  EXPECT_EQ(r.records[0].op, Op::LDG);
  EXPECT_EQ(r.records[1].sm, 2u);
  EXPECT_EQ(r.records[1].inst, 0x1c0u);
  EXPECT_EQ(r.records[1].op, Op::STG);
  GMS_EXPECT_CONTAINS(r.format, "extra fields SM_id, pc, Size");
}

TEST(NvbitVariantsTest, AMaskFieldAllowsOnlyTheActiveLanesAddresses) {
  const std::string text = std::string(kLaunchId0) +
                           "CTA 0,0,0 - warp 1 - LDS - mask 0x0000000f - " + lanes(0x40, 4, 4) +
                           "\n";
  const LogRead r = read_log(text);
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(r.records[0].mask, 0xfu);
  EXPECT_EQ(r.records[0].op, Op::LDS);
  EXPECT_EQ(active_addrs(r.records[0]), (std::vector<std::uint64_t>{0x40, 0x44, 0x48, 0x4c}));
}

TEST(NvbitVariantsTest, PerThreadListsFollowTheirRecord) {
  std::string text = std::string(kLaunchId0) + "CTA 0,0,0 - warp 0 - LDG.E -\n";
  for (int lane = 0; lane < 32; lane += 2)
    text += fmt::format("Thread{},0x3f800000,0x{:x}\n", lane, 0x7f0000000000 + lane * 4);
  text += "CTA 0,0,0 - warp 0 - STG.E - " + lanes(0x7f0000200000, 4) + "\n";
  const LogRead r = read_log(text);
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(r.records[0].mask, 0x55555555u);
  EXPECT_EQ(r.records[0].addr[30], 0x7f0000000000u + 30 * 4);
  EXPECT_EQ(r.records[1].op, Op::STG);
  GMS_EXPECT_CONTAINS(r.format, "per-thread ThreadN,data,address lists");
}

TEST(NvbitVariantsTest, UnknownFieldsAndLonePerThreadLinesAreErrors) {
  GMS_EXPECT_CONTAINS(
      error_for(std::string(kLaunchId0) + "CTA 0,0,0 - warp 0 - LDG.E - latency 300 - " +
                lanes(0x1000, 4) + "\n"),
      ":2: unknown field 'latency 300' in a mem_trace record (known: SM_id, pc, Size, mask");
  GMS_EXPECT_CONTAINS(error_for(std::string(kLaunchId0) + "Thread0,0x1,0x7f0000000000\n"),
                      ":2: per-thread 'ThreadN,data,address' line without a record line");
  GMS_EXPECT_CONTAINS(error_for(std::string(kLaunchId0) + "CTA 0,0,0 - warp 0 - LDG.E - Size 3 - " +
                                lanes(0x1000, 4) + "\n"),
                      "Size 3 is not an access size");
  GMS_EXPECT_CONTAINS(
      error_for(std::string(kLaunchId0) + "CTA 0,0,0 - warp 0 - LDG.E -\nThread40,0,0x10\n"),
      ":3: Thread40 is not a lane of a warp");
  // A later token of an inline triple list that is no triple (a fuzzer's find: it was cut at
  // the length of "Thread" before it was checked).
  GMS_EXPECT_CONTAINS(
      error_for(std::string(kLaunchId0) + "CTA 0,0,0 - warp 0 - STG.E - Thread0,0x1,0x10 T\n"),
      ":2: bad per-thread field 'T'");
}

TEST(NvbitVariantsTest, FieldsAreFoundByNameInAnyOrder) {
  // The stock order, and a tool that prints SM_id and pc first and moves the launch id last.
  const std::string stock = std::string(kLaunchId0) +
                            "MEMTRACE: CTX 0x00005581c6a4e120 - grid_launch_id 0 - CTA 1,0,0 - "
                            "warp 3 - LDG.E - " +
                            lanes(0x7f0000001000, 4) + "\n";
  const std::string moved = std::string(kLaunchId0) +
                            "MEMTRACE: CTX 0x00005581c6a4e120 - SM_id 5 - pc 0x80 - warp 3 - "
                            "CTA 1,0,0 - LDG.E - grid_launch_id 0 - " +
                            lanes(0x7f0000001000, 4) + "\n";
  const LogRead a = read_log(stock), b = read_log(moved);
  ASSERT_EQ(a.records.size(), 1u);
  ASSERT_EQ(b.records.size(), 1u);
  EXPECT_EQ(b.records[0].cta, 1u);
  EXPECT_EQ(b.records[0].warp, 3u);
  EXPECT_EQ(b.records[0].sm, 5u);
  EXPECT_EQ(b.records[0].inst, 0x80u);
  EXPECT_EQ(active_addrs(a.records[0]), active_addrs(b.records[0]));
  // A record of another launch than the last LAUNCH line stays an error, wherever its id is.
  std::string other = moved;
  other.replace(other.find("grid_launch_id 0 - 0x"), 16, "grid_launch_id 7");
  GMS_EXPECT_CONTAINS(error_for(other), ":2: record of grid_launch_id 7 inside launch 0");
  GMS_EXPECT_CONTAINS(error_for(std::string(kLaunchId0) + "SM_id 1 - CTA 0,0,0 - warp 0 - LDG.E\n"),
                      ":2: record without addresses");
  GMS_EXPECT_CONTAINS(
      error_for(std::string(kLaunchId0) + "SM_id 1 - CTA 0,0,0 - warp 0 - LDG.E - " +
                lanes(0x1000, 4, 31) + "\n"),
      ":2: record has 31 addresses");
}

TEST(NvbitVariantsTest, TriplesOnTheRecordLineAndOtherLinesCounted) {
  std::string triples;
  for (int lane = 0; lane < 32; ++lane)
    triples += fmt::format("Thread{},0x3f800000,0x{:x} ", lane, 0x7f0000000000 + lane * 4);
  const std::string text =
      "------------- NVBit (NVidia Binary Instrumentation Tool v1.7) Loaded --------------\n" +
      std::string(kLaunchId0) +
      "MEMTRACE: CTX 0x00005581c6a4e120 - alloc address 0x7f0000000000 - size 4096\n"
      "result = 42\n"
      "CTA 0,0,0 - warp 1 - STG.E - " +
      triples + "\n";
  TempPath p(".log");
  write_bytes(p.str(), text);
  NvbitReader r(std::make_unique<InputStream>(p.str()));
  KernelInfo k;
  std::vector<WarpInstr> batch(4), got;
  while (r.next_kernel(k))
    while (std::size_t n = r.read(batch)) got.insert(got.end(), batch.begin(), batch.begin() + n);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].op, Op::STG);
  EXPECT_EQ(got[0].mask, 0xffffffffu);
  EXPECT_EQ(got[0].addr[31], 0x7f000000007cu);
  EXPECT_EQ(r.counts().other_lines, 2u);  // banner, program output
  ASSERT_EQ(r.allocations().size(), 1u);  // the alloc line
  EXPECT_EQ(r.allocations()[0], (Allocation{0x7f0000000000, 4096, ""}));
  GMS_EXPECT_CONTAINS(r.format_description(), "per-thread ThreadN,data,address lists");
}

TEST(InfoOnImportsTest, NamesTheGenerationSkippedInstructionsAndWarnings) {
  TempDir dir;
  write_bytes(dir.file("kernel-593-ctx_0x55c28dad19e0.traceg"),
              "-kernel name = k\n-kernel id = 593\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
              "-shmem = 1\n-nregs = 21955\n-binary version = 0\n-cuda stream id = 0\n"
              "-shmem base_addr = 0x00007f59dd000000\n-local mem base_addr = 0x00007f59db000000\n"
              "-nvbit version = 1.7.6\n-accelsim tracer version = 5\n-enable lineinfo = 0\n\n"
              "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
              "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n"
              "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
              "0000 ffffffff 1 R1 MOV 0 0 0\n"
              "00a0 ffffffff 1 R12 LDG.E.128.SYS 1 R2 16 1 0x7f580face400 16 0\n"
              "00b0 ffffffff 1 R4 TEX.2D 1 R2 16 1 0x7f580face400 16 0\n"
              "01e0 ffffffff 0 STG.E.128.SYS 2 R8 R12 16 1 0x7f580fb3c400 16 0\n#END_TB\n");
  const auto r = gms::test::run_cli("info " + dir.file("kernel-593-ctx_0x55c28dad19e0.traceg"));
  ASSERT_EQ(r.status, 0) << r.err;
  GMS_EXPECT_CONTAINS(r.out, "format: Accel-Sim tracer v5, lineinfo off, immediate column");
  GMS_EXPECT_CONTAINS(r.out, "header value ignored: nregs=21955");
  GMS_EXPECT_CONTAINS(r.out, "header value ignored: binary_version=0");
  GMS_EXPECT_CONTAINS(r.out, fmt::format("    {:<26}{:>14}\n", "non-memory (mem_width 0)", 1));
  GMS_EXPECT_CONTAINS(r.out,
                      fmt::format("    {:<26}{:>14} (TEX 1)\n", "unsupported memory space", 1));
  GMS_EXPECT_CONTAINS(r.out, "warnings: 2");
  GMS_EXPECT_CONTAINS(r.out, "nregs 21955 > 255: ignored");
  GMS_EXPECT_CONTAINS(r.out, "LDG                1");

  const auto n = gms::test::run_cli("info " + gms::test::data_path("nvbit/mem_trace_old.log"));
  ASSERT_EQ(n.status, 0) << n.err;
  GMS_EXPECT_CONTAINS(n.out, "format: NVBit mem_trace (older unprefixed lines)");
  GMS_EXPECT_CONTAINS(n.out, "warnings: 1");
}

}  // namespace
}  // namespace gms::trace::test
