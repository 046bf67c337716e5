// Accel-Sim importer: address modes, opcode classes, generic resolution, warp schedule, lists,
// xz, lineinfo, equivalence with a native trace, lossless conversion, and every error.
#include <gtest/gtest.h>

#include "sim/config/config.h"
#include "sim/replay/run_options.h"
#include "sim/replay/simulator.h"
#include "tests/test_paths.h"
#include "tests/trace/import/import_test_util.h"
#include "trace/import/accelsim_reader.h"

namespace gms::trace::test {
namespace {

constexpr const char* kHeader =
    "-kernel name = _Z1kPf\n"
    "-kernel id = 1\n"
    "-grid dim = (2,1,1)\n"
    "-block dim = (64,1,1)\n"
    "-shmem = 0\n"
    "-shmem base_addr = 0x00007f0000000000\n"
    "-local mem base_addr = 0x00007f0001000000\n"
    "-accelsim tracer version = 5\n"
    "-enable lineinfo = 0\n"
    "\n"
    "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
    "mem_width [adrrescompress?] [mem_addresses] immediate\n"
    "\n";  // 12 lines

/// A one-block, one-warp trace whose instruction lines start at line 17.
std::string one_warp(const std::string& insts, int count) {
  return std::string(kHeader) +
         "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = " + std::to_string(count) + "\n" +
         insts + "#END_TB\n";
}

std::vector<WarpInstr> parse(const std::string& text) {
  TempPath p(".traceg");
  write_bytes(p.str(), text);
  return records_of(p.str());
}

/// The error reading `text` as a .traceg; `path` receives the file used.
std::string error_for(const std::string& text, std::string& path) {
  static TempPath p(".traceg");
  path = p.str();
  write_bytes(p.str(), text);
  return error_of([&] { records_of(p.str()); });
}

void expect_error(const std::string& text, int line, const std::string& fragment) {
  std::string path;
  const std::string msg = error_for(text, path);
  GMS_EXPECT_CONTAINS(msg, path + ":" + std::to_string(line) + ": ");
  GMS_EXPECT_CONTAINS(msg, fragment);
}

TEST(AccelSimReaderTest, ParsesListAllMode) {
  auto r =
      parse(one_warp("0010 0000000a 1 R1 LDG.E 1 R2 4 0 0x00007f0010000000 "
                     "0x00007f0010000040 0\n",
                     1));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].inst, 0x10u);
  EXPECT_EQ(r[0].op, Op::LDG);
  EXPECT_EQ(r[0].size, 4);
  EXPECT_EQ(r[0].mask, 0x0000000au);
  EXPECT_EQ(r[0].addr[1], 0x7f0010000000u);
  EXPECT_EQ(r[0].addr[3], 0x7f0010000040u);
  EXPECT_EQ(r[0].addr[0], 0u);
  EXPECT_FALSE(r[0].strided);
  EXPECT_EQ(r[0].sm, kUnknownSm);
}

TEST(AccelSimReaderTest, ParsesBaseStrideMode) {
  auto r =
      parse(one_warp("0010 000000f0 1 R1 LDG.E.64 1 R2 8 1 0x1000 8 0\n"
                     "0020 00000011 0 STG.E 2 R2 R3 4 1 0x2000 -4\n",
                     2));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(active_addrs(r[0]), (std::vector<std::uint64_t>{0x1000, 0x1008, 0x1010, 0x1018}));
  EXPECT_TRUE(r[0].strided);
  EXPECT_EQ(r[0].stride, 8);
  EXPECT_EQ(r[0].size, 8);
  // Active lanes that are not contiguous take base + k * stride for the k-th active lane.
  EXPECT_EQ(active_addrs(r[1]), (std::vector<std::uint64_t>{0x2000, 0x1ffc}));
  EXPECT_FALSE(r[1].strided);
}

TEST(AccelSimReaderTest, ParsesBaseDeltaMode) {
  auto r = parse(one_warp("0010 80000007 1 R1 LDS.U.64 1 R2 8 2 0x100 4 -8 4096 0\n", 1));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].op, Op::LDS);
  EXPECT_EQ(active_addrs(r[0]), (std::vector<std::uint64_t>{0x100, 0x104, 0xfc, 0x10fc}));
}

struct Expected {
  std::uint32_t inst;
  Op op;
  int size;
  std::uint32_t warp;
  LaneMask mask;
  std::uint64_t first_addr;
};

TEST(AccelSimReaderTest, MapsEveryOpcodeClassAndInterleavesWarps) {
  const std::string path = gms::test::data_path("accelsim/opcodes.traceg");
  AccelSimReader reader(std::make_unique<InputStream>(path), false);
  KernelInfo k;
  ASSERT_TRUE(reader.next_kernel(k));
  EXPECT_EQ(k.id, 7u);
  EXPECT_EQ(k.name, "_Z7opcodesPfS_");
  EXPECT_EQ(k.grid, (Dim3{2, 1, 1}));
  EXPECT_EQ(k.block, (Dim3{64, 1, 1}));
  EXPECT_EQ(k.shmem_bytes, 4096u);
  EXPECT_EQ(k.regs, 24u);
  EXPECT_EQ(k.arch, "sm_80");
  std::vector<WarpInstr> r(64);
  r.resize(reader.read(r));
  const Expected want[] = {
      // warps 0 and 1 alternate while both have records; then warp 0 alone
      {0x10, Op::LDG, 8, 0, 0xffffffff, 0x7f0010000000},  // LDG.E.64
      {0x10, Op::LDG, 8, 1, 0xffffffff, 0x7f0010000100},
      {0x20, Op::STG, 16, 0, 0x0000000f, 0x7f0020000000},  // STG.E.128
      {0x20, Op::STG, 16, 1, 0x0000000f, 0x7f0020000100},
      {0x30, Op::LDS, 16, 0, 0xffff0000, 0x100},            // LDS.U.128, base+delta
      {0x40, Op::STS, 1, 0, 0x00000003, 0x0},               // STS.U8
      {0x50, Op::LDL, 2, 0, 0x00000001, 0x7f0001000010},    // LDL.S16
      {0x60, Op::STL, 8, 0, 0x00000001, 0x7f0001000020},    // STL.64
      {0x70, Op::ATOMG, 4, 0, 0x00000005, 0x7f0030000000},  // ATOMG.E.ADD
      {0x75, Op::STG, 4, 0, 0x00000011, 0x7f0060000000},    // STG.E, stride over lanes 0 and 4
      {0x80, Op::ATOMG, 8, 0, 0x00000001, 0x7f0030000100},  // ATOM.E.ADD.64 (generic atomic)
      {0x90, Op::RED, 4, 0, 0x00000003, 0x7f0030000200},    // RED.E.ADD.F32
      {0xa0, Op::LDS, 4, 0, 0x00000001, 0x40},              // ATOMS.ADD: a shared access
      {0xb0, Op::LDS, 16, 0, 0xffffffff, 0x0},              // LDSM: 16-byte rows
      {0xc0, Op::LDG, 16, 0, 0xffffffff, 0x7f0040000000},   // LDGSTS: the global read
      {0xd0, Op::LDS, 4, 0, 0x00000003, 0x100},             // LD in [shmem, local): offset
      {0xe0, Op::STL, 8, 0, 0x00000001, 0x7f0001000040},    // ST in the local window
      {0xf0, Op::LDG, 4, 0, 0x00000001, 0x7f0050000000},    // LD elsewhere: global
  };
  ASSERT_EQ(r.size(), std::size(want));
  for (std::size_t i = 0; i < r.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r[i].inst, want[i].inst);
    EXPECT_EQ(r[i].op, want[i].op);
    EXPECT_EQ(r[i].size, want[i].size);
    EXPECT_EQ(r[i].cta, 1u);
    EXPECT_EQ(r[i].warp, want[i].warp);
    EXPECT_EQ(r[i].mask, want[i].mask);
    EXPECT_EQ(r[i].addr[std::countr_zero(r[i].mask)], want[i].first_addr);
  }
  EXPECT_EQ(active_addrs(r[9]), (std::vector<std::uint64_t>{0x7f0060000000, 0x7f0060000004}));
  EXPECT_EQ(active_addrs(r[15]), (std::vector<std::uint64_t>{0x100, 0x104}));
  EXPECT_EQ(reader.read(r), 0u);
  EXPECT_FALSE(reader.next_kernel(k));
  const ImportCounts& c = reader.counts();
  EXPECT_EQ(c.records, 18u);
  EXPECT_EQ(c.non_memory, 2u);   // FFMA, EXIT
  EXPECT_EQ(c.unsupported, 1u);  // TEX
  EXPECT_EQ(c.inactive, 1u);     // mask 0
  EXPECT_EQ(c.generic_unresolved, 0u);
}

TEST(AccelSimReaderTest, InstructionsBetweenRecordsReachTheNextRecordOfTheirWarp) {
  // Warp 0: FFMA, a load (after 1), MOV, an unsupported TEX, a load of no active lane, a load
  // (after 3), then FFMA and EXIT after its last record (no record carries them). Warp 1: a
  // load, with no instruction of its own before it.
  const std::string text = std::string(kHeader) +
                           "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 8\n"
                           "0008 ffffffff 1 R3 FFMA 3 R1 R2 R3 0 0\n"
                           "0010 00000001 1 R2 LDG.E 1 R4 4 0 0x00007f0010000000 0\n"
                           "0018 ffffffff 1 R5 MOV 0 0 0\n"
                           "0020 ffffffff 1 R3 TEX.SCR.B.LL 2 R2 R4 4 1 0x0000000000001000 4 0\n"
                           "0028 00000000 1 R3 LDG.E 1 R2 4 0 0\n"
                           "0030 00000001 1 R2 LDG.E 1 R4 4 0 0x00007f0010000080 0\n"
                           "0038 ffffffff 1 R3 FFMA 3 R1 R2 R3 0 0\n"
                           "0040 ffffffff 0 EXIT 0 0 0\n"
                           "warp = 1\ninsts = 1\n"
                           "0010 00000001 1 R2 LDG.E 1 R4 4 0 0x00007f0010000100 0\n"
                           "#END_TB\n";
  const std::vector<WarpInstr> r = parse(text);
  ASSERT_EQ(r.size(), 3u);  // warp 0, warp 1, warp 0 (the warps take turns)
  EXPECT_EQ(r[0].inst, 0x10u);
  EXPECT_EQ(r[0].instrs_before, 1u);
  EXPECT_EQ(r[1].warp, 1u);
  EXPECT_EQ(r[1].instrs_before, 0u);
  EXPECT_EQ(r[2].inst, 0x30u);
  EXPECT_EQ(r[2].instrs_before, 3u);
}

TEST(AccelSimReaderTest, ARecordWaitsForTheLoadWhoseRegisterItOrAnInstructionBeforeItUses) {
  // Load 1 fills R2, load 2 fills R6 and R7 (64-bit); the FADD reads R2 (load 1), so the STG
  // after it waits for the second most recent load; the last LDG's address is R7 (load 2, the
  // most recent load: the STG is not one). A shared load counts as a load too.
  const std::string text = one_warp(
      "0010 00000001 1 R2 LDG.E 1 R4 4 0 0x00007f0010000000 0\n"
      "0020 00000001 1 R6 LDG.E.64 1 R8 8 0 0x00007f0010000100 0\n"
      "0028 00000001 1 R10 FADD 2 R2 R12 0 0\n"
      "0030 00000001 0 STG.E 2 R14 R10 4 0 0x00007f0010000200 0\n"
      "0040 00000001 1 R2 LDG.E 1 R7 4 0 0x00007f0010000300 0\n"
      "0050 00000001 1 R20 LDS 1 R21 4 0 0x0000000000000040 0\n"
      "0060 00000001 0 STS 2 R22 R20 4 0 0x0000000000000080 0\n",
      7);
  const std::vector<WarpInstr> r = parse(text);
  ASSERT_EQ(r.size(), 6u);
  const std::uint32_t want[] = {0, 0, 2, 1, 0, 1};
  for (std::size_t i = 0; i < r.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r[i].waits_for_load, want[i]);
  }
  EXPECT_EQ(r[2].instrs_before, 1u);
  EXPECT_EQ(r[4].op, Op::LDS);
}

TEST(AccelSimReaderTest, AReplayReadsLoadDependenciesOnlyInTheTimedOrder) {
  // They cost about 7% of an import's instructions and only the timed order uses them.
  const std::string path = gms::test::data_path("accelsim/tiled_matmul/kernelslist.g");
  auto dependencies = [&](ReplayOrder order, SimMode mode) {
    RunOptions opts;
    opts.order = order;
    opts.mode = mode;
    auto reader = open_run_trace(path, opts);
    std::uint64_t sum = 0;
    std::vector<WarpInstr> batch(64);
    for (KernelInfo k; reader->next_kernel(k);)
      while (const std::size_t n = reader->read(batch))
        for (std::size_t i = 0; i < n; ++i) sum += batch[i].waits_for_load;
    return sum;
  };
  EXPECT_GT(dependencies(ReplayOrder::Timed, SimMode::Cached), 0u);
  EXPECT_GT(dependencies(ReplayOrder::Timed, SimMode::Both), 0u);
  EXPECT_EQ(dependencies(ReplayOrder::Timed, SimMode::Cold), 0u);
  EXPECT_EQ(dependencies(ReplayOrder::Lockstep, SimMode::Cached), 0u);
  EXPECT_EQ(dependencies(ReplayOrder::File, SimMode::Cached), 0u);
}

TEST(AccelSimReaderTest, GenericAccessesWithoutBaseAddressesAreShared) {
  std::string text = one_warp("0010 00000001 1 R1 LD.E 1 R2 4 0 0x00007f0050000000 0\n", 1);
  text.replace(text.find("-shmem base_addr"), std::string("-shmem base_addr").size(), "-ignored");
  TempPath p(".traceg");
  write_bytes(p.str(), text);
  AccelSimReader reader(std::make_unique<InputStream>(p.str()), false);
  KernelInfo k;
  ASSERT_TRUE(reader.next_kernel(k));
  std::vector<WarpInstr> r(4);
  ASSERT_EQ(reader.read(r), 1u);
  EXPECT_EQ(r[0].op, Op::LDS);
  EXPECT_EQ(r[0].addr[0], 0x7f0050000000u);
  EXPECT_EQ(reader.counts().generic_unresolved, 1u);
}

TEST(AccelSimReaderTest, ReadsAKernelsListInLaunchOrderWithXzKernels) {
  TempDir dir;
  const std::string k1 = one_warp("0010 ffffffff 1 R1 LDG.E 1 R2 4 1 0x1000 4 0\n", 1);
  std::string k2 = k1;
  k2.replace(k2.find("-kernel id = 1"), 14, "-kernel id = 2");
  write_bytes(dir.file("kernel-1.traceg"), k1);
  write_bytes(dir.file("kernel-2.traceg.xz"), xz_compress(k2));
  write_bytes(dir.file("kernelslist.g"),
              "MemcpyHtoD,0x00007f0010000000,4096\nkernel-1.traceg\n\n"
              "MemcpyHtoD,0x00007f0010001000,4096\nkernel-2.traceg.xz\n");
  const Trace t = read_trace(dir.file("kernelslist.g"));
  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_EQ(t.kernels[0].id, 1u);
  EXPECT_EQ(t.kernels[1].id, 2u);
  EXPECT_EQ(t.records[0], t.records[1]);
  ASSERT_EQ(t.records[1].size(), 1u);
  EXPECT_EQ(t.records[1][0].addr[31], 0x1000u + 31 * 4);

  AccelSimReader reader(std::make_unique<InputStream>(dir.file("kernelslist.g")), true);
  KernelInfo k;
  while (reader.next_kernel(k)) {
  }
  EXPECT_EQ(reader.counts().memcpy_commands, 2u);
}

TEST(AccelSimReaderTest, LineInfoReachesTheKernelParameters) {
  const Trace t = read_trace(gms::test::data_path("accelsim/lineinfo.traceg"));
  ASSERT_EQ(t.kernels.size(), 1u);
  const auto& p = t.kernels[0].params;
  const auto it =
      std::find_if(p.begin(), p.end(), [](const auto& kv) { return kv.first == "lineinfo"; });
  ASSERT_NE(it, p.end());
  EXPECT_EQ(it->second, "128:12,144:13");  // PC (the instruction id) : source line
  ASSERT_EQ(t.records[0].size(), 2u);
  EXPECT_EQ(t.records[0][0].inst, 0x80u);
}

TEST(AccelSimReaderTest, SeedPatternGivesTheSameStatisticsAsTheNativeTrace) {
  // tests/data/accelsim/tiled_matmul is d_tiled_n8_t4.wtrace as the Accel-Sim tracer would write
  // it (all three address modes, non-memory instructions in between, two memcpy commands).
  for (SimMode mode : {SimMode::Cold, SimMode::Cached}) {
    SCOPED_TRACE(static_cast<int>(mode));
    const SimConfig cfg = load_config({});
    RunOptions opts;
    opts.mode = mode;
    auto native = open_trace_reader(gms::test::data_path("d_tiled_n8_t4.wtrace"));
    auto imported = open_trace_reader(gms::test::data_path("accelsim/tiled_matmul/kernelslist.g"));
    const auto a = simulate(*native, cfg, opts);
    const auto b = simulate(*imported, cfg, opts);
    ASSERT_EQ(a.size(), 1u);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(a[0].records, b[0].records);
    for (int c = 0; c < kOpClassCount; ++c) {
      SCOPED_TRACE(op_class_key(static_cast<OpClass>(c)));
      EXPECT_EQ(a[0].totals[c], b[0].totals[c]);
    }
    EXPECT_EQ(a[0].total(OpClass::GlobalLoad).sectors, b[0].total(OpClass::GlobalLoad).sectors);
  }
}

TEST(AccelSimReaderTest, ConvertsToWtraceAndGmtLosslessly) {
  for (const char* name : {"accelsim/tiled_matmul/kernelslist.g", "accelsim/opcodes.traceg",
                           "accelsim/lineinfo.traceg"}) {
    SCOPED_TRACE(name);
    const Trace imported = read_trace(gms::test::data_path(name));
    TempPath text1(".wtrace"), gmt(".gmt"), text2(".wtrace.zst");
    write_trace(text1.str(), imported);
    const Trace t1 = read_trace(text1.str());
    EXPECT_EQ(t1, imported);
    write_trace(gmt.str(), t1);
    const Trace t2 = read_trace(gmt.str());
    write_trace(text2.str(), t2);
    EXPECT_EQ(read_trace(text2.str()), t1);
  }
}

// ---------------------------------------------------------------------------------------------
// Errors: each names the file and the line.

TEST(AccelSimReaderTest, AddressListShorterThanTheMaskIsAnError) {
  expect_error(one_warp("0010 00000007 1 R1 LDG.E 1 R2 4 0 0x1000 0x1004 0\n", 1), 17,
               "address list has 2 values but mask 00000007 has 3 active lanes");
  expect_error(one_warp("0010 00000007 1 R1 LDG.E 1 R2 4 2 0x1000 4\n", 1), 17,
               "base+delta list (base and deltas) has 2 values but mask 00000007 has 3");
}

TEST(AccelSimReaderTest, WarpOutOfTheBlockIsAnError) {
  std::string text = one_warp("", 0);
  text.replace(text.find("warp = 0"), 8, "warp = 2");
  expect_error(text, 15, "warp 2 is out of range: a block of 64 threads has 2 warps");
}

TEST(AccelSimReaderTest, InstsWithFewerLinesIsAnError) {
  expect_error(one_warp("0010 00000001 1 R1 LDG.E 1 R2 4 0 0x1000\n"
                        "0020 00000001 0 EXIT 0 0\n",
                        3),
               19, "warp 0: insts = 3 but only 2 instruction lines follow");
  // The next warp's header arrives too early.
  expect_error(std::string(kHeader) +
                   "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
                   "0020 00000001 0 EXIT 0 0\nwarp = 1\ninsts = 0\n#END_TB\n",
               18, "insts = 2 but only 1 instruction line follow");
}

TEST(AccelSimReaderTest, StructuralErrors) {
  std::string text = one_warp("", 0);
  text.replace(text.find("thread block = 0,0,0"), 20, "thread block = 2,0,0");
  expect_error(text, 14, "thread block 2,0,0 is outside the grid (2,1,1)");
  expect_error(one_warp("0010 00000001 1 R1 LDG.E 1 R2 4 3 0x1000\n", 1), 17,
               "unknown address mode '3'");
  expect_error(std::string(kHeader) + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\n", 16,
               "end of file inside a thread block");
  expect_error(std::string(kHeader) +
                   "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\n"
                   "warp = 0\ninsts = 0\n#END_TB\n",
               17, "warp 0 appears twice in one block");
  expect_error(one_warp("0010 00000003 1 R1 LDG.E 1 R2 4 2 0xfffffffffffffff0 16\n", 1), 17,
               "address of active lane 1 overflows 64 bits");
  {  // a field after the immediate is read past by default (a warning), refused with --strict
    TempPath p(".traceg");
    write_bytes(p.str(), one_warp("0010 00000001 1 R1 LDG.E 1 R2 4 0 0x1000 0 7\n", 1));
    EXPECT_EQ(records_of(p.str()).size(), 1u);
    ImportOptions strict;
    strict.strict = true;
    GMS_EXPECT_CONTAINS(error_of([&] {
                          AccelSimReader r(std::make_unique<InputStream>(p.str()), false, strict);
                          KernelInfo k;
                          std::vector<WarpInstr> batch(4);
                          while (r.next_kernel(k))
                            while (r.read(batch) != 0) {
                            }
                        }),
                        p.str() +
                            ":17: tracer v5 Accel-Sim layout: unexpected text '7' after the "
                            "addresses and the immediate");
  }
  std::string bad_dim(kHeader);
  bad_dim.replace(bad_dim.find("(2,1,1)"), 7, "(2,1)");  // a zero is a lie, warned about
  expect_error(bad_dim, 3, "bad grid dim '(2,1)'");
  expect_error("-kernel id = 1\nnot a header\n", 2, "expected a '-key = value' header line");
}

TEST(AccelSimReaderTest, TruncatedXzStreamIsAnError) {
  std::string insts;
  for (int i = 0; i < 3000; ++i)
    insts += fmt::format("{:04x} ffffffff 1 R1 LDG.E 1 R2 4 1 0x{:x} 4 0\n", i, 0x10000 + i * 977);
  const std::string xz = xz_compress(one_warp(insts, 3000));
  TempPath p(".traceg.xz");
  write_bytes(p.str(), xz.substr(0, xz.size() * 2 / 3));
  const std::string msg = error_of([&] { records_of(p.str()); });
  GMS_EXPECT_CONTAINS(msg, p.str() + ":");
  GMS_EXPECT_CONTAINS(msg, "truncated xz stream");
}

TEST(AccelSimReaderTest, ListErrorsNameTheListLine) {
  TempDir dir;
  write_bytes(dir.file("kernelslist.g"), "MemcpyHtoD,0x10,4\nkernel-9.traceg\n");
  std::string msg = error_of([&] { read_trace(dir.file("kernelslist.g")); });
  GMS_EXPECT_CONTAINS(msg, dir.file("kernelslist.g") + ":2: ");
  GMS_EXPECT_CONTAINS(msg, "cannot open for reading");
  write_bytes(dir.file("bad.g"), "kernel-1.traceg\nMemcpyHtoD,0x10\n");
  write_bytes(dir.file("kernel-1.traceg"), one_warp("", 0));
  msg = error_of([&] { read_trace(dir.file("bad.g")); });
  GMS_EXPECT_CONTAINS(msg, dir.file("bad.g") + ":2: bad memcpy command");
}

TEST(AccelSimReaderTest, DuplicateKernelIdsAreAnError) {
  TempDir dir;
  write_bytes(dir.file("kernel-1.traceg"), one_warp("", 0));
  write_bytes(dir.file("kernelslist.g"), "kernel-1.traceg\nkernel-1.traceg\n");
  GMS_EXPECT_CONTAINS(error_of([&] { read_trace(dir.file("kernelslist.g")); }),
                      "duplicate kernel id 1");
}

}  // namespace
}  // namespace gms::trace::test
