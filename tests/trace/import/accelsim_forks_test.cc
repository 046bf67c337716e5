// Accel-Sim importer on what newer tracers and forks write: tracer 6's Val|NoVal columns, Hopper's
// cluster lines, unknown header and block keys, fields after the address list (warned once per
// file, refused with --strict), Ampere/Hopper opcode classes, and raw kernel-N.trace output
// regrouped into the post-processed order (checked against a regrouping done here, the way
// post-traces-processing does it, and with windows small enough to need several passes).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "tests/tools/cli/cli_runner.h"
#include "tests/trace/import/import_test_util.h"
#include "trace/import/accelsim_reader.h"

namespace gms::trace::test {
namespace {

std::string header(int version, const std::string& format, const std::string& grid = "(2,1,1)",
                   const std::string& block = "(64,1,1)") {
  std::string h = "-kernel name = k\n-kernel id = 1\n-grid dim = " + grid +
                  "\n-block dim = " + block +
                  "\n-shmem = 0\n-nregs = 16\n-binary version = 90\n-cuda stream id = 0\n"
                  "-shmem base_addr = 0x00007f0000000000\n"
                  "-local mem base_addr = 0x00007f0001000000\n";
  if (version != 0) h += fmt::format("-accelsim tracer version = {}\n", version);
  h += "-enable lineinfo = 0\n\n";
  if (!format.empty()) h += "#traces format = " + format + "\n";
  return h + "\n";
}

constexpr const char* kV5Format =
    "[line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
    "[adrrescompress?] [mem_addresses] immediate";
constexpr const char* kV6Format =
    "[line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
    "[adrrescompress?] [mem_addresses] immediate1 immediate2 Val|NoVal [dest_val_num] "
    "[dest_val] ... [src_val_num] [src_val1] ... [src_valX]";

struct ForksRead {
  std::vector<WarpInstr> records;
  ImportCounts counts;
  std::vector<std::string> warnings;
  std::vector<BlockCluster> clusters;
  std::string layout;
};

ForksRead read_file(const std::string& path, bool list = false, ImportOptions options = {}) {
  AccelSimReader r(std::make_unique<InputStream>(path), list, options);
  ForksRead out;
  KernelInfo k;
  std::vector<WarpInstr> batch(5);
  while (r.next_kernel(k)) {
    while (std::size_t n = r.read(batch))
      out.records.insert(out.records.end(), batch.begin(), batch.begin() + n);
    out.clusters = r.clusters();
    out.layout = r.layout_description();
  }
  out.counts = r.counts();
  out.warnings = r.warnings();
  return out;
}

ForksRead read_text(const std::string& text, ImportOptions options = {}) {
  TempPath p(".traceg");
  write_bytes(p.str(), text);
  return read_file(p.str(), false, options);
}

void expect_same_records(const std::vector<WarpInstr>& a, const std::vector<WarpInstr>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(a[i].cta, b[i].cta);
    EXPECT_EQ(a[i].warp, b[i].warp);
    EXPECT_EQ(a[i].inst, b[i].inst);
    EXPECT_EQ(a[i].op, b[i].op);
    EXPECT_EQ(a[i].size, b[i].size);
    EXPECT_EQ(a[i].mask, b[i].mask);
    EXPECT_EQ(active_addrs(a[i]), active_addrs(b[i]));
  }
}

std::string block(int cta, const std::string& extra, const std::string& insts, int n) {
  return fmt::format("#BEGIN_TB\nthread block = {},0,0\n{}warp = 0\ninsts = {}\n{}#END_TB\n", cta,
                     extra, n, insts);
}

TEST(AccelSimForksTest, TracerSixValueColumnsAreSkippedAsItsFormatLineSays) {
  // The same two instructions as tracer 5 writes them and as tracer 6 does (two immediates,
  // then NoVal, or Val and the destination and source register values).
  const std::string v5 = header(5, kV5Format) +
                         block(0, "",
                               "0010 0000000f 1 R2 LDG.E.64 1 R4 8 1 0x7f0010000000 8 0\n"
                               "0020 00000003 0 STG.E 2 R4 R2 4 0 0x7f0020000000 0x7f0020000040 0\n"
                               "0030 ffffffff 1 R1 MOV 0 0 0\n",
                               3);
  const std::string v6 =
      header(6, kV6Format) +
      block(0, "",
            "0010 0000000f 1 R2 LDG.E.64 1 R4 8 1 0x7f0010000000 8 0 0 NoVal\n"
            "0020 00000003 0 STG.E 2 R4 R2 4 0 0x7f0020000000 0x7f0020000040 0 0 Val 0 2 "
            "0x3f800000 0x40000000 0x1 0x2\n"
            "0030 ffffffff 1 R1 MOV 0 0 0 0 Val 1 0x0\n",
            3);
  const ForksRead a = read_text(v5), b = read_text(v6);
  ASSERT_EQ(a.records.size(), 2u);
  expect_same_records(a.records, b.records);
  EXPECT_TRUE(b.warnings.empty()) << b.warnings.front();
  EXPECT_TRUE(b.counts.trailing_by_field.empty());
  GMS_EXPECT_CONTAINS(b.layout, "Accel-Sim tracer v6");
  GMS_EXPECT_CONTAINS(b.layout, "Val|NoVal value columns skipped");
  // Version 6 without the format line: the same columns.
  std::string bare = v6;
  bare.erase(bare.find("#traces format"),
             bare.find('\n', bare.find("#traces format")) - bare.find("#traces format") + 1);
  expect_same_records(a.records, read_text(bare).records);
  // The format line alone says tracer 6.
  std::string no_version = v6;
  no_version.erase(no_version.find("-accelsim tracer version = 6\n"), 29);
  const ForksRead c = read_text(no_version);
  expect_same_records(a.records, c.records);
  GMS_EXPECT_CONTAINS(c.layout, "tracer v6");
}

TEST(AccelSimForksTest, ClusterLinesAreSkippedOnceEachAndKeptPerBlock) {
  const std::string ld = "0010 00000001 1 R2 LDG.E 1 R4 4 0 0x7f0010000000 0\n";
  const std::string text =
      header(6, kV6Format) +
      block(0, "cluster id = 0,0,0\ncluster cta = 0,0,0\ncluster rank = 0\n", ld, 1) +
      block(1, "cluster id = 0,0,0\ncluster cta = 1,0,0\ncluster rank = 1\n", ld, 1);
  const ForksRead r = read_text(text);
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(r.records[1].cta, 1u);
  EXPECT_EQ(r.counts.block_keys, 6u);
  ASSERT_EQ(r.warnings.size(), 3u);  // one per key, not per line
  GMS_EXPECT_CONTAINS(r.warnings[0],
                      "Hopper thread-block key 'cluster id': skipped, kept per block");
  GMS_EXPECT_CONTAINS(r.warnings[1], "'cluster cta'");
  GMS_EXPECT_CONTAINS(r.warnings[2], "'cluster rank'");
  ASSERT_EQ(r.clusters.size(), 2u);
  EXPECT_EQ(r.clusters[1].cta, 1u);
  EXPECT_EQ(r.clusters[1].rank, 1u);
  // A malformed value of a key the reader keeps is an error naming the line.
  std::string bad = text;
  bad.replace(bad.find("cluster rank = 1"), 16, "cluster rank = x");
  std::string path;
  TempPath p(".traceg");
  write_bytes(p.str(), bad);
  GMS_EXPECT_CONTAINS(error_of([&] { read_file(p.str()); }),
                      ":29: bad 'cluster rank = x' (expected cluster rank = N)");
}

TEST(AccelSimForksTest, UnknownHeaderKeysAndCommentLinesAreWarnedOnce) {
  std::string h = header(5, kV5Format);
  h.insert(h.find("-enable lineinfo"), "-cluster dim = (2,1,1)\n-cluster dim = (2,1,1)\n");
  const ForksRead r =
      read_text(h + "#some newer comment\n" +
                block(0, "", "0010 00000001 1 R2 LDG.E 1 R4 4 0 0x7f0010000000 0\n", 1));
  ASSERT_EQ(r.records.size(), 1u);
  ASSERT_EQ(r.warnings.size(), 2u);
  GMS_EXPECT_CONTAINS(r.warnings[0], "unknown header key 'cluster dim'");
  GMS_EXPECT_CONTAINS(r.warnings[1], "unknown '#' line key '#some newer comment'");
}

TEST(AccelSimForksTest, FieldsAfterTheAddressesAreCountedWarnedOnceAndRefusedWhenStrict) {
  // A fork's store data after the addresses, which its format line does not name here.
  const std::string st =
      "0020 00000003 0 STG.E.64 2 R4 R2 8 0 0x7f0020000000 0x7f0020000008 0 STORE_DATA F64 2 "
      "REG0:T0:0 T1:0\n";
  const std::string text = header(5, kV5Format) + block(0, "", st + st, 2);
  const ForksRead r = read_text(text);
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(r.records[0].addr[1], 0x7f0020000008u);
  ASSERT_EQ(r.warnings.size(), 1u);
  GMS_EXPECT_CONTAINS(r.warnings[0], "2 lines with 'STORE_DATA' after a complete address list");
  EXPECT_EQ(r.counts.trailing_by_field.at("STORE_DATA"), 2u);
  ImportOptions strict;
  strict.strict = true;
  TempPath p(".traceg");
  write_bytes(p.str(), text);
  GMS_EXPECT_CONTAINS(error_of([&] { read_file(p.str(), false, strict); }),
                      ":20: tracer v5 Accel-Sim layout: unexpected text 'STORE_DATA' after the "
                      "addresses and the immediate");
  // `run` reads past them and says so once; `run --strict` is the same error and prints nothing.
  const auto run = gms::test::run_cli("run " + p.str());
  ASSERT_EQ(run.status, 0) << run.err;
  GMS_EXPECT_CONTAINS(run.err, "2 lines with 'STORE_DATA' after a complete address list");
  const auto strict_run = gms::test::run_cli("run --strict " + p.str());
  EXPECT_NE(strict_run.status, 0);
  EXPECT_EQ(strict_run.out, "");
  GMS_EXPECT_CONTAINS(strict_run.err, p.str() + ":20: tracer v5 Accel-Sim layout: unexpected text");
  // `info` and `convert` take the same option (tools/cli/options.h) and refuse the same line.
  TempPath converted(".gmt");
  for (const std::string& command :
       {"info --strict " + p.str(), "convert --strict " + p.str() + " " + converted.str()}) {
    const auto refused = gms::test::run_cli(command);
    EXPECT_NE(refused.status, 0) << command;
    GMS_EXPECT_CONTAINS(refused.err, p.str() + ":20: tracer v5 Accel-Sim layout: unexpected text");
  }
  EXPECT_FALSE(std::filesystem::exists(converted.str()));
  // When the format line names the suffix, it is read past without a warning.
  std::string named = text;
  named.replace(named.find("immediate\n"), 10, "immediate [STORE_DATA type n values...]\n");
  const ForksRead q = read_text(named);
  EXPECT_EQ(q.records.size(), 2u);
  EXPECT_TRUE(q.warnings.empty());
  // More addresses than active lanes is a malformed list, not a suffix.
  write_bytes(p.str(), header(5, kV5Format) +
                           block(0, "",
                                 "0020 00000001 0 STG.E 2 R4 R2 4 0 0x7f0020000000 0x7f0020000008 "
                                 "0x7f0020000010 0\n",
                                 1));
  GMS_EXPECT_CONTAINS(error_of([&] { read_file(p.str()); }),
                      ":20: tracer v5 Accel-Sim layout: address list has more addresses than the "
                      "1 active lane of the mask");
}

TEST(AccelSimForksTest, AmpereAndHopperOpcodeClasses) {
  const std::string text =
      header(6, kV6Format) +
      block(0, "",
            "0010 00000001 0 LDGSTS.E.BYPASS.128 2 R6 R8 16 0 0x7f0010000000 0 0 NoVal\n"
            "0020 00000001 2 R30 R31 LDSM.16.M88.4 1 R10 16 0 0x100 0 0 NoVal\n"
            "0030 00000001 0 STSM.16.M88.4 2 R10 R30 16 0 0x200 0 0 NoVal\n"
            "0040 00000001 1 R2 ATOMS.ADD 2 R4 R5 4 0 0x300 0 0 NoVal\n"
            "0050 00000001 0 UTMALDG.2D 2 UR4 UR8 16 0 0x7f0030000000 0 0 NoVal\n"
            "0060 00000001 0 UBLKCP.S.G 2 UR4 UR8 16 0 0x7f0030000000 0 0 NoVal\n"
            "0070 00000001 0 UTMASTG.2D 2 UR4 UR8 16 0 0x7f0030000000 0 0 NoVal\n"
            "0080 00000001 1 R2 LD.E 1 R4 4 0 0x7f0000000400 0 0 NoVal\n"
            "0090 00000001 1 R2 LD.E 1 R4 4 0 0x7f0001000010 0 0 NoVal\n"
            "00a0 00000001 0 ST.E 2 R4 R2 4 0 0x7f0050000000 0 0 NoVal\n",
            10);
  const ForksRead r = read_text(text);
  ASSERT_EQ(r.records.size(), 7u);
  EXPECT_EQ(r.records[0].op, Op::LDG);  // LDGSTS: its global read
  EXPECT_EQ(r.records[0].size, 16);
  EXPECT_EQ(r.records[1].op, Op::LDS);
  EXPECT_EQ(r.records[1].size, 16);  // one 16-byte row per lane
  EXPECT_EQ(r.records[2].op, Op::STS);
  EXPECT_EQ(r.records[3].op, Op::LDS);  // ATOMS
  EXPECT_EQ(r.records[4].op, Op::LDS);  // generic, inside the shared window
  EXPECT_EQ(r.records[4].addr[0], 0x400u);
  EXPECT_EQ(r.records[5].op, Op::LDL);  // generic, inside the local window
  EXPECT_EQ(r.records[6].op, Op::STG);  // generic, outside both
  EXPECT_EQ(r.counts.ldgsts, 1u);
  EXPECT_EQ(r.counts.bulk_copies, 3u);
  EXPECT_EQ(r.counts.bulk_by_opcode.at("UTMALDG"), 1u);
  EXPECT_EQ(r.counts.bulk_by_opcode.at("UBLKCP"), 1u);
  EXPECT_EQ(r.counts.unsupported, 0u);
  // info lists them as their own class.
  TempPath p(".traceg");
  write_bytes(p.str(), text);
  const auto info = gms::test::run_cli("info " + p.str());
  ASSERT_EQ(info.status, 0) << info.err;
  GMS_EXPECT_CONTAINS(info.out, fmt::format("    {:<26}{:>14} (UBLKCP 1, UTMALDG 1, UTMASTG 1)\n",
                                            "TMA bulk copies", 3));
  GMS_EXPECT_CONTAINS(info.out, "LDGSTS shared writes");
}

// ---------------------------------------------------------------------------------------------
// Raw tracer output

/// A raw kernel-N.trace of `blocks` x `warps`: each warp runs the same program of loads,
/// stores and non-memory lines with its own addresses; the warps' lines are interleaved in a
/// random order that keeps each warp's own order, as the tracer's channel delivers them.
std::string raw_trace(int gx, int gy, int warps, unsigned seed, bool lineinfo = false) {
  std::mt19937 rng(seed);
  std::vector<std::vector<std::string>> per_warp;
  for (int y = 0; y < gy; ++y)
    for (int x = 0; x < gx; ++x)
      for (int w = 0; w < warps; ++w) {
        std::vector<std::string> lines;
        const std::uint64_t base =
            0x7f0010000000 + (std::uint64_t(y * gx + x) << 16) + (std::uint64_t(w) << 10);
        const int n = 2 + static_cast<int>(rng() % 6);
        for (int i = 0; i < n; ++i) {
          const std::string prefix = fmt::format("{} {} 0 {} {}", x, y, w, lineinfo ? "12 " : "");
          const std::uint32_t mask = i % 3 == 2 ? 0x0000ffffu : 0xffffffffu;
          if (i % 4 == 3)
            lines.push_back(prefix +
                            fmt::format("{:04x} {:08x} 1 R1 IMAD 2 R2 R3 0", 0x100 + i * 16, mask));
          else
            lines.push_back(prefix + fmt::format("{:04x} {:08x} {} 4 1 0x{:x} {}", 0x100 + i * 16,
                                                 mask,
                                                 i % 2 == 0 ? "1 R2 LDG.E 1 R4" : "0 STG.E 2 R4 R2",
                                                 base + std::uint64_t(i) * 4096, 4 + 4 * (i % 2)));
        }
        per_warp.push_back(lines);
      }
  std::vector<std::size_t> next(per_warp.size(), 0);
  std::string out;
  for (std::size_t left = per_warp.size(); left != 0;) {
    const std::size_t w = rng() % per_warp.size();
    if (next[w] == per_warp[w].size()) continue;
    out += per_warp[w][next[w]++] + "\n";
    if (next[w] == per_warp[w].size()) --left;
  }
  return out;
}

/// What post-traces-processing makes of a raw file: the header as is, then for each block in
/// linear id order and each warp in order, the warp's lines without the 4-number prefix.
std::string post_process(const std::string& raw, int gx, int gy, int warps) {
  std::istringstream in(raw);
  std::string line, head;
  std::map<int, std::vector<std::vector<std::string>>> blocks;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == '-') {
      head += line + "\n";
      continue;
    }
    std::istringstream t(line);
    int x = 0, y = 0, z = 0, w = 0;
    t >> x >> y >> z >> w;
    std::string rest;
    std::getline(t, rest);
    auto& b = blocks[y * gx + x];
    b.resize(static_cast<std::size_t>(warps));
    b[static_cast<std::size_t>(w)].push_back(rest.substr(1));
  }
  std::string out = head;
  for (const auto& [id, ws] : blocks) {
    out += fmt::format("\n#BEGIN_TB\n\nthread block = {},{},0\n", id % gx, id / gx);
    for (std::size_t w = 0; w < ws.size(); ++w) {
      out += fmt::format("\nwarp = {}\ninsts = {}\n", w, ws[w].size());
      for (const std::string& l : ws[w]) out += l + "\n";
    }
    out += "\n#END_TB\n";
  }
  (void)gy;
  return out;
}

TEST(AccelSimForksTest, RawTraceGivesThePostProcessedRecordsInOneOrSeveralPasses) {
  constexpr int kGx = 5, kGy = 3, kWarps = 3;
  const std::string fmtline =
      "threadblock_x threadblock_y threadblock_z warpid_tb PC mask dest_num [reg_dests] opcode "
      "src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]";
  const std::string head = header(3, fmtline, "(5,3,1)", "(96,1,1)");
  const std::string raw = head + raw_trace(kGx, kGy, kWarps, 7);
  TempDir dir;
  write_bytes(dir.file("kernel-1.trace"), raw);
  write_bytes(dir.file("kernel-1.traceg"), post_process(raw, kGx, kGy, kWarps));
  const ForksRead want = read_file(dir.file("kernel-1.traceg"));
  ASSERT_GT(want.records.size(), 50u);
  const ForksRead got = read_file(dir.file("kernel-1.trace"));
  expect_same_records(want.records, got.records);
  EXPECT_EQ(got.counts.non_memory, want.counts.non_memory);
  GMS_EXPECT_CONTAINS(got.layout, "regrouped by thread block and warp");
  // Windows of a few blocks: one more pass each, the same records, each line counted once.
  for (std::uint64_t words : {1u, 40u, 300u}) {
    SCOPED_TRACE(words);
    ImportOptions small;
    small.raw_window_words = words;
    const ForksRead w = read_file(dir.file("kernel-1.trace"), false, small);
    expect_same_records(want.records, w.records);
    EXPECT_EQ(w.counts.non_memory, want.counts.non_memory);
    EXPECT_EQ(w.counts.records, want.counts.records);
  }
  // xz-compressed, through the raw kernelslist whose memcpy lines name a dump file.
  write_bytes(dir.file("kernel-1.trace.xz"), xz_compress(raw));
  write_bytes(dir.file("kernelslist"),
              "MemcpyHtoD,0x00007f0010000000,4096,memcpy_0_0x00007f0010000000.bin\n"
              "kernel-1.trace.xz\n");
  const ForksRead l = read_file(dir.file("kernelslist"), true);
  expect_same_records(want.records, l.records);
  EXPECT_EQ(l.counts.memcpy_commands, 1u);
  // gpumemsim convert to .gmt, read back: the post-processed file's records.
  const auto conv =
      gms::test::run_cli("convert " + dir.file("kernelslist") + " " + dir.file("k.gmt"));
  ASSERT_EQ(conv.status, 0) << conv.err;
  expect_same_records(want.records, records_of(dir.file("k.gmt")));
}

TEST(AccelSimForksTest, RawTraceWithLineinfo) {
  const std::string fmtline =
      "threadblock_x threadblock_y threadblock_z warpid_tb [line_num] PC mask dest_num "
      "[reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] "
      "immediate";
  std::string head = header(5, fmtline, "(2,2,1)", "(64,1,1)");
  head.replace(head.find("-enable lineinfo = 0"), 20, "-enable lineinfo = 1");
  const std::string raw = head + raw_trace(2, 2, 2, 11, true);
  TempDir dir;
  write_bytes(dir.file("kernel-2.trace"), raw);
  write_bytes(dir.file("kernel-2.traceg"), post_process(raw, 2, 2, 2));
  expect_same_records(read_file(dir.file("kernel-2.traceg")).records,
                      read_file(dir.file("kernel-2.trace")).records);
  // The source lines reach the kernel's params alike (the pre-pass skips the raw prefix).
  const auto want = read_trace(dir.file("kernel-2.traceg")).kernels.at(0).params;
  EXPECT_NE(
      std::find_if(want.begin(), want.end(), [](const auto& kv) { return kv.first == "lineinfo"; }),
      want.end());
  EXPECT_EQ(read_trace(dir.file("kernel-2.trace")).kernels.at(0).params, want);
  // A zero grid dimension is taken from the raw prefixes as from the blocks.
  std::string zero = raw;
  zero.replace(zero.find("-grid dim = (2,2,1)"), 19, "-grid dim = (0,2,1)");
  write_bytes(dir.file("kernel-3.trace"), zero);
  EXPECT_EQ(read_trace(dir.file("kernel-3.trace")).kernels.at(0).grid.x, 2u);
}

TEST(AccelSimForksTest, MalformedMemcpyLinesStayErrors) {
  TempDir dir;
  write_bytes(dir.file("kernelslist"), "MemcpyHtoD,0x10,4,\n");
  GMS_EXPECT_CONTAINS(error_of([&] { read_file(dir.file("kernelslist"), true); }),
                      ":1: bad memcpy command 'MemcpyHtoD,0x10,4,' (expected "
                      "MemcpyHtoD,0x<address>,<bytes>[,<dump file>])");
}

}  // namespace
}  // namespace gms::trace::test
