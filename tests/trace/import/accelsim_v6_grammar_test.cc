// Accel-Sim tracer 6's grammar (issue 61, part 3) on the hand-written corpus folder
// tests/data/thirdparty/handwritten_v6_grammar: a GMMA's commit-group column, REPLAY_START /
// REPLAY_END, uniform registers, five sources, negative immediates, Val lists on BAR, HGMMA and
// SYNCS, raw lines with 11 and 13 integers, and a raw list named kernelslist_ctx_0x....
#include <gtest/gtest.h>

#include "tests/test_paths.h"
#include "tests/trace/import/import_test_util.h"
#include "trace/import/accelsim_reader.h"

namespace gms::trace::test {
namespace {

std::string v6_grammar(const std::string& file) {
  return gms::test::data_path("thirdparty/handwritten_v6_grammar/" + file);
}

struct V6Read {
  std::vector<WarpInstr> records;
  ImportCounts counts;
  std::string layout;
};

V6Read v6_read(const std::string& path, bool list) {
  AccelSimReader r(std::make_unique<InputStream>(path), list, ImportOptions{.quiet = true});
  V6Read out;
  KernelInfo k;
  std::vector<WarpInstr> batch(3);
  while (r.next_kernel(k)) {
    while (std::size_t n = r.read(batch))
      out.records.insert(out.records.end(), batch.begin(), batch.begin() + n);
    out.layout = r.layout_description();
  }
  out.counts = r.counts();
  return out;
}

TEST(AccelSimV6GrammarTest, EveryLineIsAccountedForByHand) {
  const V6Read got = v6_read(v6_grammar("kernelslist.g"), true);
  // 2 blocks x 2 warps x 12 lines: per warp MOV, S2UR, IADD3, BAR, HGMMA (commit group 1, then
  // mem_width 0), EXIT are non-memory (6); LDG and STG records (2); SYNCS.PHASECHK an
  // unmodelled memory space (1); UTMALDG a bulk copy (1); REPLAY_START and REPLAY_END markers (2).
  const ImportCounts& c = got.counts;
  EXPECT_EQ(c.records, 8u);
  EXPECT_EQ(c.non_memory, 24u);
  EXPECT_EQ(c.unsupported, 4u);
  EXPECT_EQ(c.unsupported_by_opcode, (decltype(c.unsupported_by_opcode){{"SYNCS", 4}}));
  EXPECT_EQ(c.bulk_copies, 4u);
  EXPECT_EQ(c.bulk_by_opcode, (decltype(c.bulk_by_opcode){{"UTMALDG", 4}}));
  EXPECT_EQ(c.replay_markers, 8u);
  EXPECT_EQ(c.block_keys, 6u);  // cluster id, cluster cta, cluster rank per block
  EXPECT_EQ(c.memcpy_commands, 1u);
  EXPECT_TRUE(c.trailing_by_field.empty());
  ASSERT_EQ(got.records.size(), 8u);
  // Block 0: warp 0's LDG, warp 1's LDG, warp 0's STG, warp 1's STG; then block 1.
  const WarpInstr& ldg = got.records[1];  // block 0, warp 1: base 0x7f8200000000 + 0x200
  EXPECT_EQ(ldg.op, Op::LDG);
  EXPECT_EQ(ldg.inst, 0x30u);
  EXPECT_EQ(ldg.size, 16u);
  EXPECT_EQ(ldg.mask, 0xffffffffu);
  EXPECT_EQ(ldg.cta, 0u);
  EXPECT_EQ(ldg.warp, 1u);
  EXPECT_EQ(ldg.addr[0], 0x7f8200000200u);
  EXPECT_EQ(ldg.addr[31], 0x7f8200000200u + 31 * 16);
  const WarpInstr& stg = got.records[7];  // block 1, warp 1: 0x7f8210000000 + 0x100 + 0x10
  EXPECT_EQ(stg.op, Op::STG);
  EXPECT_EQ(stg.inst, 0xa0u);
  EXPECT_EQ(stg.size, 4u);
  EXPECT_EQ(stg.mask, 0xfu);
  EXPECT_EQ(stg.cta, 1u);
  EXPECT_EQ(stg.warp, 1u);
  EXPECT_EQ(stg.addr[0], 0x7f8210000110u);
  EXPECT_EQ(stg.addr[3], 0x7f821000011cu);
}

TEST(AccelSimV6GrammarTest, RawLinesOf11And13IntegersReadAsThePostProcessedFile) {
  const V6Read traceg = v6_read(v6_grammar("kernel-1-ctx_0x5612a3b0c2d0.traceg"), false);
  const V6Read raw11 = v6_read(v6_grammar("kernelslist_ctx_0x5612a3b0c2d0"), true);
  const V6Read raw13 = v6_read(v6_grammar("kernel-2-ctx_0x5612a3b0c2d0.trace"), false);
  ASSERT_EQ(traceg.records.size(), 8u);
  EXPECT_EQ(raw11.records, traceg.records);
  EXPECT_EQ(raw13.records, traceg.records);
  for (const V6Read* raw : {&raw11, &raw13}) {
    EXPECT_EQ(raw->counts.non_memory, 24u);
    EXPECT_EQ(raw->counts.replay_markers, 8u);
    EXPECT_EQ(raw->counts.bulk_copies, 4u);
  }
  GMS_EXPECT_CONTAINS(raw11.layout,
                      "11 integers before each PC ('tb_x tb_y tb_z warp', cluster id, cluster "
                      "cta, rank)");
  GMS_EXPECT_CONTAINS(raw13.layout,
                      "13 integers before each PC ('tb_x tb_y tb_z warp', cluster id, cluster "
                      "cta, rank, SM and warp on it)");
}

TEST(AccelSimV6GrammarTest, AGmmaWithoutItsCommitGroupColumnIsAnError) {
  TempDir dir;
  std::string text;
  std::ifstream in(v6_grammar("kernel-1-ctx_0x5612a3b0c2d0.traceg"));
  for (std::string line; std::getline(in, line);) {
    if (line.find("HGMMA") != std::string::npos)  // the commit-group column replaced by a word
      line = "0090 0000000f 0 HGMMA.64x64x16.F32.BF16 3 UR4 UR10 R24 X 0 0 0 NoVal";
    text += line + "\n";
  }
  write_bytes(dir.file("k.traceg"), text);
  GMS_EXPECT_CONTAINS(error_of([&] { v6_read(dir.file("k.traceg"), false); }),
                      "tracer v6 Accel-Sim layout expected the GMMA commit-group column (decimal) "
                      "before mem_width, found 'X'");
}

TEST(AccelSimV6GrammarTest, ARawLineWithFewerIntegersThanTheFirstIsAnError) {
  TempDir dir;
  std::string text;
  std::ifstream in(v6_grammar("kernel-1-ctx_0x5612a3b0c2d0.trace"));
  int records = 0;
  for (std::string line; std::getline(in, line);) {
    // The third instruction line loses its cluster fields: 4 integers where the first had 11.
    if (!line.empty() && line[0] >= '0' && line[0] <= '9' && ++records == 3)
      line = line.substr(0, 8) + line.substr(22);
    text += line + "\n";
  }
  write_bytes(dir.file("k.trace"), text);
  GMS_EXPECT_CONTAINS(error_of([&] { v6_read(dir.file("k.trace"), false); }),
                      "raw Accel-Sim trace: expected 11 integers before the PC (as on its first "
                      "line), found '");
}

}  // namespace
}  // namespace gms::trace::test
