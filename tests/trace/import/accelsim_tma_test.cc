// Tracer 6's TMA operands (issue 61, part 2; trace/import/tma_operands.h) on the hand-written
// tests/data/accelsim/tma_tiles.traceg: one warp per CTA of a 2-CTA cluster issuing UTMALDG
// for 64x64 fp16 tiles (64 rows of 128 bytes: 8 KiB), with and without multicast, a predicated
// off UTMALDG, a UTMASTG, a UTMAPF and a UTMAREDG; the counts worked out by hand below. Then
// malformed operands (one error naming file and line) and lines in the older layout (counted by
// opcode only, as before).
#include <gtest/gtest.h>

#include <string>

#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"
#include "tests/trace/import/import_test_util.h"
#include "trace/import/accelsim_reader.h"
#include "trace/import/tma_operands.h"
#include "trace/import/tracez_source.h"

namespace gms::trace::test {
namespace {

ImportCounts tma_counts_of(const std::string& path) {
  std::unique_ptr<InputStream> in =
      path.ends_with(".tracez") ? open_tracez(path) : std::make_unique<InputStream>(path);
  AccelSimReader r(std::move(in), false, ImportOptions{.quiet = true});
  KernelInfo k;
  std::vector<WarpInstr> batch(4);
  while (r.next_kernel(k))
    while (r.read(batch) != 0) {
    }
  return r.counts();
}

const BulkTraffic& tma_class(const ImportCounts& c, BulkClass k) {
  return c.bulk_traffic[static_cast<std::size_t>(k)];
}

TEST(AccelSimTmaTest, TiledCopyBytesWorkedOutByHand) {
  const ImportCounts c = tma_counts_of(gms::test::data_path("accelsim/tma_tiles.traceg"));
  // 7 TMA lines: CTA 0 has UTMALDG x3 (one predicated off), UTMASTG, UTMAPF, UTMAREDG; CTA 1 one
  // UTMALDG. Every line is still counted by opcode, as before the operands were read.
  EXPECT_EQ(c.bulk_copies, 7u);
  EXPECT_EQ(c.bulk_by_opcode, (decltype(c.bulk_by_opcode){
                                  {"UTMALDG", 4}, {"UTMAPF", 1}, {"UTMAREDG", 1}, {"UTMASTG", 1}}));
  // The two LDS.128, and the bulk records of the executed copies (tests/e2e/tma_replay_test.cc
  // replays them): each 8 KiB tile is 512 lanes of 16 bytes, 16 records; 6 copies, the multicast
  // one with 16 TMAMC records for its second CTA: 2 + 7 x 16.
  EXPECT_EQ(c.records, 114u);
  EXPECT_EQ(c.non_memory, 4u);

  // Loads. A tile is 64 rows x 64 fp16 = 64 elements of mem_width 128 bytes, byte count 8192.
  //  CTA 0, 0x10: tile at 0x7f8300000000, rows 256 bytes apart (mode 4, base+deltas): each row
  //    is 4 aligned sectors: 64 x 4 = 256 sectors; 8192 bytes into CTA 0's shared memory.
  //  CTA 0, 0x20: multicast, CTA mask 0x3 (both CTAs of the cluster): a contiguous tile at
  //    0x7f8310000000 (mode 3, 64 listed addresses 128 apart): 256 sectors read once, 8192
  //    bytes written into each of 2 CTAs: 16384 shared bytes.
  //  CTA 0, 0x30: mask 0 (predicated off): no traffic.
  //  CTA 1, 0x10: tile at 0x7f8300004010, rows 256 apart: 16 bytes past a sector boundary, so
  //    each 128-byte row touches 5 sectors (offsets 16..143): 64 x 5 = 320 sectors; 8192 bytes.
  //  Total: 3 requests, 1 multicast, 3 x 8192 = 24576 bytes, 192 elements,
  //  256 + 256 + 320 = 832 sectors, 8192 + 16384 + 8192 = 32768 shared bytes written.
  const BulkTraffic& ld = tma_class(c, BulkClass::Load);
  EXPECT_EQ(ld.requests, 3u);
  EXPECT_EQ(ld.multicast, 1u);
  EXPECT_EQ(ld.bytes, 24576u);
  EXPECT_EQ(ld.oob_bytes, 0u);
  EXPECT_EQ(ld.elements, 192u);
  EXPECT_EQ(ld.sectors, 832u);
  EXPECT_EQ(ld.shared_written, 32768u);
  EXPECT_EQ(ld.shared_read, 0u);
  // UTMASTG: a tile from shared memory to 0x7f8320000000, rows 256 apart: 8192 shared bytes
  // read, 256 sectors written through the L2.
  const BulkTraffic& st = tma_class(c, BulkClass::Store);
  EXPECT_EQ(st.requests, 1u);
  EXPECT_EQ(st.bytes, 8192u);
  EXPECT_EQ(st.sectors, 256u);
  EXPECT_EQ(st.shared_written, 0u);
  EXPECT_EQ(st.shared_read, 8192u);
  // UTMAPF: 256 sectors into the L2, no shared memory at all.
  const BulkTraffic& pf = tma_class(c, BulkClass::Prefetch);
  EXPECT_EQ(pf.requests, 1u);
  EXPECT_EQ(pf.sectors, 256u);
  EXPECT_EQ(pf.shared_written + pf.shared_read, 0u);
  // UTMAREDG: like the store (its arithmetic happens at the L2): 256 sectors, 8192 bytes read.
  const BulkTraffic& red = tma_class(c, BulkClass::Reduction);
  EXPECT_EQ(red.requests, 1u);
  EXPECT_EQ(red.sectors, 256u);
  EXPECT_EQ(red.shared_read, 8192u);
  EXPECT_EQ(tma_class(c, BulkClass::SharedCopy).requests, 0u);

  // `info` shows them per class.
  const auto info = gms::test::run_cli("info " + gms::test::data_path("accelsim/tma_tiles.traceg"));
  ASSERT_EQ(info.status, 0) << info.err;
  GMS_EXPECT_CONTAINS(info.out,
                      "  TMA operands (replayed as the tma class; shared copies counted only):\n");
  GMS_EXPECT_CONTAINS(info.out, fmt::format("    {:<26}{:>14} (24576 bytes, 0 out of bounds, 192 "
                                            "elements, 832 L2 sectors, 1 multicast, shared "
                                            "32768 written, 0 read)\n",
                                            "TMA loads", 3));
}

TEST(AccelSimTmaTest, DirectionFromOpcode) {
  using detail::BulkDirection;
  EXPECT_EQ(detail::bulk_direction("UTMALDG.2D"), BulkDirection::Load);
  EXPECT_EQ(detail::bulk_direction("UBLKCP.S.G"), BulkDirection::Load);
  EXPECT_EQ(detail::bulk_direction("UBLKCP.G.S"), BulkDirection::Store);
  EXPECT_EQ(detail::bulk_direction("UBLKCP.S.S"), BulkDirection::SharedCopy);
  EXPECT_EQ(detail::bulk_direction("UTMASTG.3D"), BulkDirection::Store);
  EXPECT_EQ(detail::bulk_direction("UBLKPF"), BulkDirection::Prefetch);
  EXPECT_EQ(detail::bulk_direction("UTMAREDG.2D.ADD"), BulkDirection::Reduction);
  EXPECT_EQ(detail::bulk_direction("UTMACCTL.IV"), BulkDirection::Unknown);
}

std::string tma_trace(const std::string& line) {
  return "-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
         "-shmem = 0\n-nregs = 16\n-binary version = 90\n-cuda stream id = 0\n"
         "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f0001000000\n"
         "-accelsim tracer version = 6\n-enable lineinfo = 0\n\n"
         "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 1\n" +
         line + "\n\n#END_TB\n";
}

TEST(AccelSimTmaTest, MalformedOperandsNameFileAndLine) {
  const std::string pre = "0010 00000001 0 UTMALDG.2D 2 UR4 UR8 128 0x7f0000000400 0 256 0 ";
  const std::pair<std::string, std::string> cases[] = {
      {"5 1 0x7f0030000000 0 0 NoVal", "unknown address mode '5'"},
      {"4 0x7f0030000000 4 0 0 NoVal", "bad delta 'NoVal'"},
      {"4 0x7f0030000000 3 128", "base+delta list has 2 of its 3 elements"},
      {"3 2 0x7f0030000000", "address list has 1 of its 2 elements"},
      {"3 2 0x7f0030000000 zz 0 0 NoVal", "bad address 'zz'"},
      {"4 base 1 0 0 NoVal", "bad base address 'base'"},
      {"3 -1 0 0 NoVal", "bad element count '-1'"},
      {"4 0xffffffffffffff80 2 128 0 0 NoVal", "element 1 overflows 64 bits"},
  };
  for (const auto& [rest, what] : cases) {
    SCOPED_TRACE(rest);
    TempPath p(".traceg");
    write_bytes(p.str(), tma_trace(pre + rest));
    const std::string err = error_of([&] { tma_counts_of(p.str()); });
    GMS_EXPECT_CONTAINS(err, p.str() + ":20:");
    GMS_EXPECT_CONTAINS(err, what);
  }
  // An element wider than any tile row: a damaged mem_width.
  TempPath p(".traceg");
  write_bytes(p.str(), tma_trace("0010 00000001 0 UTMALDG.2D 2 UR4 UR8 999999 0x400 0 256 0 4 "
                                 "0x7f0030000000 1 0 0 NoVal"));
  GMS_EXPECT_CONTAINS(error_of([&] { tma_counts_of(p.str()); }), "mem_width 999999 is more than");
}

TEST(AccelSimTmaTest, OlderLayoutLinesAreCountedOnly) {
  // The repository's earlier hand-written Hopper lines put an ordinary record's address mode
  // (0-2) after mem_width: counted by opcode, no traffic, no error (they load as before).
  for (const char* line : {"0010 00000001 0 UTMALDG.2D 2 UR4 UR8 16 0 0x7f0030000000 0 0 NoVal",
                           "0010 00000001 0 UTMALDG.2D 2 UR8 UR10 128 0x7f8125000400 0 8192 0 1 "
                           "0x7f8300000000 1 0 0 NoVal"}) {
    SCOPED_TRACE(line);
    TempPath p(".traceg");
    write_bytes(p.str(), tma_trace(line));
    const ImportCounts c = tma_counts_of(p.str());
    EXPECT_EQ(c.bulk_copies, 1u);
    EXPECT_EQ(tma_class(c, BulkClass::Load).requests, 0u);
  }
  // A 1-D bulk copy with one element of its whole size, and a multicast with an empty list
  // (mode 4, count 0: upstream's "no accesses").
  TempPath p(".traceg");
  write_bytes(p.str(), tma_trace("0010 00000001 0 UBLKCP.S.G 2 UR4 UR8 4096 0x400 1 0xf 4096 0 4 "
                                 "0x7f0030000010 1 0 0 NoVal"));
  const ImportCounts counts = tma_counts_of(p.str());  // kept: b refers into it
  const BulkTraffic& b = tma_class(counts, BulkClass::Load);
  EXPECT_EQ(b.requests, 1u);
  EXPECT_EQ(b.sectors, 129u);  // 4096 bytes from 16 past a sector boundary: 128 + 1 sectors
  EXPECT_EQ(b.shared_written, 4u * 4096u);
}

TEST(AccelSimTmaTest, TracezAndRawLinesCountTheSame) {
  // The .tracez our writer makes of the file decodes to the same lines: the same counts.
  const std::string traceg = gms::test::data_path("accelsim/tma_tiles.traceg");
  TempDir dir;
  const std::string tracez = dir.file("kernel-1.tracez");
  const auto conv = gms::test::run_cli("convert " + traceg + " " + tracez);
  ASSERT_EQ(conv.status, 0) << conv.err;
  EXPECT_EQ(tma_counts_of(tracez), tma_counts_of(traceg));
  // Thread blocks parsed beside the reading (another reader per block) count the same.
  {
    auto reader = open_trace_reader(traceg, TraceFormat::AccelSim, ImportOptions{.quiet = true});
    reader->parse_alongside();
    KernelInfo k;
    std::vector<WarpInstr> batch(3);
    while (reader->next_kernel(k))
      while (reader->read(batch) != 0) {
      }
    const auto* a = dynamic_cast<const AccelSimReader*>(reader.get());
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->counts(), tma_counts_of(traceg));
  }
  // `run` replays them: no line about bytes left out.
  const auto run = gms::test::run_cli("run " + traceg + " --mode cold");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.err.find("does not carry"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("counted, not replayed"), std::string::npos) << run.err;
  // wtrace and .gmt have no bulk op: a conversion leaves the records out and says how many.
  const std::string gmt = dir.file("tma.gmt");
  const auto to_gmt = gms::test::run_cli("convert " + traceg + " " + gmt);
  ASSERT_EQ(to_gmt.status, 0) << to_gmt.err;
  GMS_EXPECT_CONTAINS(to_gmt.err, "112 TMA bulk records left out");
  // A shared-to-shared bulk copy moves no global bytes: counted, not replayed, and said so.
  TempPath s2s(".traceg");
  write_bytes(s2s.str(), tma_trace("0010 00000001 0 UBLKCP.S.S 2 UR4 UR8 256 0x400 0 256 0 4 "
                                   "0x1000 1 0 0 NoVal"));
  const auto shared_copy = gms::test::run_cli("run " + s2s.str() + " --mode cold");
  GMS_EXPECT_CONTAINS(shared_copy.err,
                      "1 bulk copies between shared-memory windows (256 bytes) are counted, not "
                      "replayed");
}

}  // namespace
}  // namespace gms::trace::test
