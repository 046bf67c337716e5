// Accel-Sim importer: every tracer generation (legacy pre-3, 3, 4, 5), both kernel file names,
// plain/xz/zstd, header values that cannot be true (warned, replaced, recorded, replay goes on)
// and the values that stay errors (each names the layout and the field).
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/config/config.h"
#include "sim/replay/simulator.h"
#include "tests/trace/import/import_test_util.h"
#include "trace/import/accelsim_reader.h"

namespace gms::trace::test {
namespace {

/// A pre-3 header as the tracer of 2019-2020 wrote it: no version, no base addresses.
constexpr const char* kLegacyHeader =
    "-kernel name = _Z6kernelP4NodePiPbS2_S2_S1_i\n"
    "-kernel id = 8\n"
    "-grid dim = (2,1,1)\n"
    "-block dim = (64,1,1)\n"
    "-shmem = 0\n"
    "-nregs = 16\n"
    "-binary version = 70\n"
    "-cuda stream id = 0\n"
    "\n"
    "#traces format = threadblock_x threadblock_y threadblock_z warpid_tb PC mask dest_num "
    "[reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n"
    "\n";  // 11 lines

std::string legacy_block(int cta, const std::string& w0, const std::string& w1) {
  return fmt::format("#BEGIN_TB\nthread block = {},0,0\nwarp = 0\n{}warp = 1\n{}#END_TB\n", cta, w0,
                     w1);
}

std::string header(int version, bool lineinfo, const std::string& extra = "") {
  std::string h =
      "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
      "-shmem = 0\n-nregs = 16\n-binary version = 86\n-cuda stream id = 0\n"
      "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f0001000000\n" +
      extra;
  if (version != 0) h += fmt::format("-accelsim tracer version = {}\n", version);
  if (version >= 4) h += fmt::format("-enable lineinfo = {}\n", lineinfo ? 1 : 0);
  h += "\n";
  if (version == 3)
    h += "#traces format = threadblock_x threadblock_y threadblock_z warpid_tb PC mask dest_num "
         "[reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n";
  else if (version == 4)
    h += "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
         "mem_width [adrrescompress?] [mem_addresses]\n";
  else
    h += "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
         "mem_width [adrrescompress?] [mem_addresses] immediate\n";
  return h + "\n";
}

std::string one_block(const std::string& insts, int count) {
  return fmt::format("#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = {}\n{}#END_TB\n", count,
                     insts);
}

struct LayoutsRead {
  std::vector<KernelInfo> kernels;
  std::vector<WarpInstr> records;
  ImportCounts counts;
  std::vector<std::string> warnings;
  std::vector<AccelSimLayout> layouts;
};

LayoutsRead read_all(const std::string& path, bool list = false) {
  AccelSimReader r(std::make_unique<InputStream>(path), list);
  LayoutsRead out;
  KernelInfo k;
  std::vector<WarpInstr> batch(5);
  while (r.next_kernel(k)) {
    out.kernels.push_back(k);
    out.layouts.push_back(r.layout());
    while (std::size_t n = r.read(batch))
      out.records.insert(out.records.end(), batch.begin(), batch.begin() + n);
  }
  out.counts = r.counts();
  out.warnings = r.warnings();
  return out;
}

std::string param(const KernelInfo& k, const std::string& key) {
  for (const auto& [name, value] : k.params)
    if (name == key) return value;
  return "<absent>";
}

TEST(AccelSimLayoutsTest, LegacyLayoutSkipsThePrefixAndNeedsNoInstsLine) {
  TempDir dir;
  const std::string w0 =
      "insts = 3\n"
      "0 0 0 0 0000 ffffffff 1 R1 MOV 0 0\n"
      "0 0 0 0 0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f0010000000 4\n"
      "0 0 0 0 0020 0000000f 0 STS 2 R3 R2 4 2 0x100 4 4 4\n";
  const std::string w1 =  // no 'insts' line: Accel-Sim does not need it
      "0 0 0 1 0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f0010000080 4\n";
  const std::string w2 = "insts = 1\n1 0 0 0 0010 00000001 1 R2 LDG.E 1 R4 4 0 0x7f0010000100\n";
  write_bytes(dir.file("kernel-8.traceg"), std::string(kLegacyHeader) + legacy_block(0, w0, w1) +
                                               legacy_block(1, w2, "insts = 0\n"));
  const LayoutsRead r = read_all(dir.file("kernel-8.traceg"));
  ASSERT_EQ(r.layouts, (std::vector<AccelSimLayout>{AccelSimLayout::Legacy}));
  ASSERT_EQ(r.records.size(), 4u);
  EXPECT_EQ(r.records[0].op, Op::LDG);
  EXPECT_EQ(r.records[0].warp, 0u);
  EXPECT_EQ(r.records[1].warp, 1u);
  EXPECT_EQ(r.records[1].addr[31], 0x7f0010000080u + 31 * 4);
  EXPECT_EQ(r.records[2].op, Op::STS);
  EXPECT_EQ(active_addrs(r.records[2]), (std::vector<std::uint64_t>{0x100, 0x104, 0x108, 0x10c}));
  EXPECT_EQ(r.records[3].cta, 1u);
  EXPECT_EQ(r.counts.non_memory, 1u);
  EXPECT_EQ(param(r.kernels[0], "arch"), "sm_70");
}

TEST(AccelSimLayoutsTest, LegacyErrorsNameTheLayoutAndTheField) {
  TempDir dir;
  const std::string path = dir.file("kernel-8.traceg");
  // A line without the prefix (a v3+ line in a file without a version header).
  write_bytes(path, std::string(kLegacyHeader) +
                        legacy_block(0, "insts = 1\n0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x1000 4\n",
                                     "insts = 0\n"));
  std::string msg = error_of([&] { read_all(path); });
  GMS_EXPECT_CONTAINS(msg,
                      "kernel-8.traceg:16: legacy (pre-3) Accel-Sim layout expected 'tb_x "
                      "tb_y tb_z warp' before the PC");
  GMS_EXPECT_CONTAINS(msg, "no '-accelsim tracer version' header");
  // A prefix that disagrees with the block.
  write_bytes(path,
              std::string(kLegacyHeader) +
                  legacy_block(0, "insts = 1\n0 0 0 1 0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x1000 4\n",
                               "insts = 0\n"));
  msg = error_of([&] { read_all(path); });
  GMS_EXPECT_CONTAINS(msg,
                      "kernel-8.traceg:16: legacy (pre-3) Accel-Sim layout expected 'tb_x "
                      "tb_y tb_z warp' = '0 0 0 0' (this block and warp), found '0 0 0 1'");
}

TEST(AccelSimLayoutsTest, Version3FilesKeepTheOldFormatLineWithoutThePrefix) {
  // post-traces-processing strips the prefix but copies the format line unchanged.
  TempPath p(".traceg");
  write_bytes(p.str(), header(3, false) +
                           one_block("0010 ffffffff 1 R2 LDG.E.64 1 R4 8 1 0x7f0010000000 8\n", 1));
  const LayoutsRead r = read_all(p.str());
  ASSERT_EQ(r.layouts, (std::vector<AccelSimLayout>{AccelSimLayout::V3}));
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(r.records[0].size, 8);
  EXPECT_EQ(r.records[0].addr[1], 0x7f0010000008u);
}

TEST(AccelSimLayoutsTest, RawTracerOutputIsRegroupedByBlockAndWarp) {
  // kernel-N.trace as tracer_tool writes it, before post-traces-processing: no #BEGIN_TB, every
  // line prefixed with its block and warp, blocks interleaved as they ran. The records come in
  // the order of the post-processed file: block 0, then block 1 with its warps interleaved.
  TempDir dir;
  std::string h = header(3, false);
  h.replace(h.find("-grid dim = (1,1,1)"), 19, "-grid dim = (2,1,1)");
  h.replace(h.find("-block dim = (32,1,1)"), 21, "-block dim = (64,1,1)");
  write_bytes(dir.file("kernel-1.trace"),
              h + "1 0 0 1 0008 ffffffff 1 R1 MOV 0 0\n"
                  "1 0 0 1 0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f0010000000 4\n"
                  "0 0 0 0 0010 0000ffff 1 R2 LDG.E 1 R4 4 1 0x7f0010000100 4\n"
                  "1 0 0 0 0020 ffffffff 0 STG.E 2 R4 R2 4 1 0x7f0010000200 4\n");
  write_bytes(dir.file("kernelslist"), "MemcpyHtoD,0x00007f0010000000,4096\nkernel-1.trace\n");
  const LayoutsRead r = read_all(dir.file("kernelslist"), true);
  ASSERT_EQ(r.records.size(), 3u);
  EXPECT_EQ(r.records[0].cta, 0u);
  EXPECT_EQ(r.records[0].mask, 0xffffu);
  EXPECT_EQ(r.records[1].cta, 1u);
  EXPECT_EQ(r.records[1].warp, 0u);
  EXPECT_EQ(r.records[1].op, Op::STG);
  EXPECT_EQ(r.records[2].cta, 1u);
  EXPECT_EQ(r.records[2].warp, 1u);
  EXPECT_EQ(r.counts.non_memory, 1u);
  // The MOV came before block 1 warp 1's load, in its own warp, lines of others between.
  EXPECT_EQ(r.records[0].instrs_before, 0u);
  EXPECT_EQ(r.records[1].instrs_before, 0u);
  EXPECT_EQ(r.records[2].instrs_before, 1u);
  EXPECT_EQ(read_trace(dir.file("kernelslist")).records.at(0).size(), 3u);  // detected
  write_bytes(dir.file("kernel-1.trace"),
              h + "2 0 0 0 0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f0010000000 4\n");
  GMS_EXPECT_CONTAINS(error_of([&] { read_all(dir.file("kernel-1.trace")); }),
                      "kernel-1.trace:15: thread block 2,0,0 is outside the grid (2,1,1)");
  write_bytes(dir.file("kernel-1.trace"),
              h + "0 0 0 0 0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f0010000000 4\n#BEGIN_TB\n");
  GMS_EXPECT_CONTAINS(error_of([&] { read_all(dir.file("kernel-1.trace")); }),
                      "kernel-1.trace:16: unexpected line '#BEGIN_TB' in a raw");
}

TEST(AccelSimLayoutsTest, Version4WithAndWithoutLineinfoAndVersion5WithTheImmediate) {
  const std::string ld = "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f0010000000 4";
  struct Case {
    int version;
    bool lineinfo;
    std::string line;
    AccelSimLayout layout;
  };
  for (const Case& c : {Case{4, false, ld + "\n", AccelSimLayout::V4},
                        Case{4, true, "17 " + ld + "\n", AccelSimLayout::V4},
                        Case{4, false, ld + " 0\n", AccelSimLayout::V4},  // 2023 tracer
                        Case{5, false, ld + " 0\n", AccelSimLayout::V5},
                        Case{5, true, "17 " + ld + " 0\n", AccelSimLayout::V5},
                        Case{0, false, ld + " 0\n", AccelSimLayout::V5}}) {  // format line only
    SCOPED_TRACE(c.line);
    TempPath p(".traceg");
    write_bytes(p.str(), header(c.version, c.lineinfo) + one_block(c.line, 1));
    const LayoutsRead r = read_all(p.str());
    ASSERT_EQ(r.layouts, (std::vector<AccelSimLayout>{c.layout}));
    ASSERT_EQ(r.records.size(), 1u);
    EXPECT_EQ(r.records[0].addr[2], 0x7f0010000008u);
    if (c.lineinfo) {
      EXPECT_EQ(param(r.kernels[0], "lineinfo"), "16:17");
    }
  }
  // The layout is named in errors.
  TempPath p(".traceg");
  write_bytes(p.str(),
              header(5, false) + one_block("zz ffffffff 1 R2 LDG.E 1 R4 4 1 0x10 4 0\n", 1));
  GMS_EXPECT_CONTAINS(error_of([&] { read_all(p.str()); }),
                      "tracer v5 Accel-Sim layout expected the PC (hex, at most 32 bits), found "
                      "'zz'");
  write_bytes(p.str(), header(4, true) + one_block("L12 0010 ffffffff 0 EXIT 0 0\n", 1));
  GMS_EXPECT_CONTAINS(error_of([&] { read_all(p.str()); }),
                      "tracer v4 Accel-Sim layout expected the source line (decimal; the header "
                      "says enable lineinfo = 1), found 'L12'");
}

TEST(AccelSimLayoutsTest, ListsNameKernelsEitherWayAndMixCompressions) {
  TempDir dir;
  const std::string body = one_block("0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7f0010000000 4 0\n", 1);
  std::string k1 = header(5, false) + body, k2 = k1, k3 = k1;
  k2.replace(k2.find("-kernel id = 1"), 14, "-kernel id = 2");
  k3.replace(k3.find("-kernel id = 1"), 14, "-kernel id = 593");
  write_bytes(dir.file("kernel-1.traceg"), k1);
  write_bytes(dir.file("kernel-2.traceg.zst"), zstd_frames({k2}));
  write_bytes(dir.file("kernel-593-ctx_0x55c28dad19e0.traceg.xz"), xz_compress(k3));
  write_bytes(dir.file("kernelslist.g"),
              "MemcpyHtoD,0x00007f0010000000,4096\nkernel-1.traceg\nkernel-2.traceg.zst\n"
              "MemcpyHtoD,0x00007f0010001000,128\nkernel-593-ctx_0x55c28dad19e0.traceg.xz\n");
  const LayoutsRead r = read_all(dir.file("kernelslist.g"), true);
  ASSERT_EQ(r.kernels.size(), 3u);
  EXPECT_EQ(r.kernels[2].id, 593u);
  EXPECT_EQ(r.records.size(), 3u);
  EXPECT_EQ(r.counts.memcpy_commands, 2u);
  // Detected from the content, too.
  EXPECT_EQ(read_trace(dir.file("kernelslist.g")).kernels.size(), 3u);
}

// ---------------------------------------------------------------------------------------------
// Header values that cannot be true: warned once, replaced, recorded; the replay goes on.

std::string lying_trace(const std::string& from, const std::string& to) {
  // Two blocks of two warps each, 64 threads, as the header would say when it told the truth.
  std::string h = header(5, false);
  h.replace(h.find("-grid dim = (1,1,1)"), 19, "-grid dim = (2,1,1)");
  h.replace(h.find("-block dim = (32,1,1)"), 21, "-block dim = (64,1,1)");
  h.replace(h.find(from), from.size(), to);
  std::string t = h;
  for (int cta = 0; cta < 2; ++cta) {
    t += fmt::format("#BEGIN_TB\nthread block = {},0,0\n", cta);
    for (int w = 0; w < 2; ++w)
      t += fmt::format(
          "warp = {}\ninsts = 2\n0010 ffffffff 1 R2 LDG.E.128 1 R4 16 1 0x{:x} 16 0\n"
          "0020 ffffffff 0 EXIT 0 0 0\n",
          w, 0x7f0010000000 + (cta * 2 + w) * 512);
    t += "#END_TB\n";
  }
  return t;
}

TEST(AccelSimLayoutsTest, HeaderLiesAreWarnedReplacedRecordedAndReplayed) {
  struct Lie {
    std::string from, to, key, value, warning;
  };
  const Lie lies[] = {
      {"-nregs = 16", "-nregs = 21955", "header_nregs", "21955",
       "nregs 21955 > 255: ignored, residency from threads and shared memory only"},
      {"-binary version = 86", "-binary version = 0", "header_binary_version", "0",
       "binary version 0 is not a compute capability: ignored"},
      {"-shmem = 0", "-shmem = 300000", "header_shmem", "300000",
       "shmem 300000 > 101376 (the most one block may have on sm_86): ignored"},
      {"-grid dim = (2,1,1)", "-grid dim = (0,1,1)", "header_grid", "0,1,1",
       "grid dim (0,1,1) has a zero: using (2,1,1)"},
      {"-block dim = (64,1,1)", "-block dim = (64,0,1)", "header_block", "64,0,1",
       "block dim (64,0,1) has a zero: using (64,1,1)"},
  };
  const SimConfig cfg = load_config({});
  for (const Lie& lie : lies) {
    SCOPED_TRACE(lie.to);
    TempPath p(".traceg");
    write_bytes(p.str(), lying_trace(lie.from, lie.to));
    const LayoutsRead r = read_all(p.str());
    ASSERT_EQ(r.kernels.size(), 1u);
    const KernelInfo& k = r.kernels[0];
    EXPECT_EQ(param(k, lie.key), lie.value);
    ASSERT_EQ(r.warnings.size(), 1u);
    GMS_EXPECT_CONTAINS(r.warnings[0], lie.warning);
    EXPECT_EQ(k.grid, (Dim3{2, 1, 1}));
    EXPECT_EQ(k.block, (Dim3{64, 1, 1}));
    EXPECT_LE(k.regs, 255u);
    EXPECT_TRUE(k.arch.empty() || k.arch == "sm_86");
    ASSERT_EQ(r.records.size(), 4u);
    EXPECT_EQ(r.records[3].cta, 1u);
    EXPECT_EQ(r.records[3].warp, 1u);
    for (const auto& [key, value] : k.params) {
      EXPECT_FALSE(key.empty());
      EXPECT_FALSE(value.empty()) << key;
    }
    // The replaced values and the recorded lies convert to wtrace and back.
    const Trace imported = read_trace(p.str());
    TempPath text(".wtrace");
    write_trace(text.str(), imported);
    EXPECT_EQ(read_trace(text.str()), imported);
    for (SimMode mode : {SimMode::Cold, SimMode::Cached}) {
      RunOptions opts;
      opts.mode = mode;
      auto reader = open_trace_reader(p.str());
      const auto res = simulate(*reader, cfg, opts);
      ASSERT_EQ(res.size(), 1u);
      EXPECT_EQ(res[0].records, 4u);
    }
  }
}

TEST(AccelSimLayoutsTest, ValuesThatMakeAddressesUnusableStayErrors) {
  struct Bad {
    std::string from, to, fragment;
  };
  const Bad bad[] = {
      {"-grid dim = (2,1,1)", "-grid dim = (2,x,1)", "bad grid dim '(2,x,1)'"},
      {"-block dim = (64,1,1)", "-block dim = (2048,1024,1)", "bad block dim"},
      {"-grid dim = (2,1,1)", "-grid dim = (1,1,1)", "thread block 1,0,0 is outside the grid"},
      {"-block dim = (64,1,1)", "-block dim = (32,1,1)", "warp 1 is out of range"},
      {"-shmem base_addr = 0x00007f0000000000", "-shmem base_addr = 0xqq", "bad shmem base_addr"},
      {"-accelsim tracer version = 5", "-accelsim tracer version = x", "bad accelsim tracer"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.to);
    TempPath p(".traceg");
    write_bytes(p.str(), lying_trace(b.from, b.to));
    const std::string msg = error_of([&] { read_all(p.str()); });
    GMS_EXPECT_CONTAINS(msg, p.str() + ":");
    GMS_EXPECT_CONTAINS(msg, b.fragment);
  }
}

}  // namespace
}  // namespace gms::trace::test
