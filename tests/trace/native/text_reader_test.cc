// Parsing of wtrace v1 text: every field and form, kernels, the README example, streaming.
#include <gtest/gtest.h>

#include "tests/trace/trace_test_util.h"
#include "trace/native/synthetic.h"
#include "trace/native/text_reader.h"

namespace gms::trace::test {
namespace {

constexpr const char* kReadmeExample =
    "#wtrace 1\n"
    "# unit-stride copy, one CTA of 64 threads\n"
    "#kernel id=1 name=copy grid=1,1,1 block=64,1,1 shmem=0 flops=0\n"
    "0 LDG 4 - 0 0 ffffffff @0x7f0000000000:4\n"
    "1 STG 4 - 0 0 ffffffff @0x7f0000100000:4\n"
    "0 LDG 4 - 0 1 ffffffff @0x7f0000000080:4\n"
    "1 STG 4 - 0 1 ffffffff @0x7f0000100080:4\n"
    "2 LDS 8 - 0 1 0000000f 0x0,0x8,0x10,0x18\n";

TEST(TextReaderTest, ParsesReadmeExample) {
  Trace t = parse_text(kReadmeExample);
  ASSERT_EQ(t.kernels.size(), 1u);
  const KernelInfo& k = t.kernels[0];
  EXPECT_EQ(k.id, 1u);
  EXPECT_EQ(k.name, "copy");
  EXPECT_EQ(k.grid, (Dim3{1, 1, 1}));
  EXPECT_EQ(k.block, (Dim3{64, 1, 1}));
  EXPECT_EQ(k.shmem_bytes, 0u);
  EXPECT_EQ(k.flops, 0u);
  ASSERT_EQ(t.records[0].size(), 5u);
  const WarpInstr& st = t.records[0][3];
  EXPECT_EQ(st.inst, 1u);
  EXPECT_EQ(st.op, Op::STG);
  EXPECT_EQ(st.warp, 1u);
  EXPECT_EQ(st.addr[0], 0x7f0000100080u);
  EXPECT_EQ(st.addr[31], 0x7f0000100080u + 31 * 4);
  const WarpInstr& lds = t.records[0][4];
  EXPECT_EQ(lds.op, Op::LDS);
  EXPECT_EQ(lds.size, 8);
  EXPECT_FALSE(lds.strided);
  EXPECT_EQ(lds.mask, 0xfu);
  EXPECT_EQ(lds.addr[3], 0x18u);
  EXPECT_EQ(lds.addr[4], 0u);
}

TEST(TextReaderTest, ParsesStridedRecord) {
  Trace t = parse_text("#wtrace 1\n#kernel id=3\n7 STL 2 12 5 3 0000f00f @0x107c:-4\n");
  ASSERT_EQ(t.records[0].size(), 1u);
  const WarpInstr& r = t.records[0][0];
  EXPECT_EQ(r.inst, 7u);
  EXPECT_EQ(r.op, Op::STL);
  EXPECT_EQ(r.size, 2);
  EXPECT_EQ(r.sm, 12u);
  EXPECT_EQ(r.cta, 5u);
  EXPECT_EQ(r.warp, 3u);
  EXPECT_EQ(r.mask, 0xf00fu);
  EXPECT_TRUE(r.strided);
  EXPECT_EQ(r.stride, -4);
  EXPECT_EQ(r.addr[0], 0x107cu);
  EXPECT_EQ(r.addr[3], 0x107cu - 12);
  EXPECT_EQ(r.addr[4], 0u);  // inactive
  EXPECT_EQ(r.addr[15], 0x107cu - 60);
  EXPECT_EQ(r.addr[31], 0u);
}

TEST(TextReaderTest, ParsesBroadcastAndEveryOp) {
  std::string text = "#wtrace 1\n#kernel id=1\n";
  const char* ops[] = {"LDG", "STG", "LDS", "STS", "LDL", "STL", "ATOMG", "RED"};
  const char* sizes[] = {"1", "2", "4", "8", "16", "4", "4", "4"};
  for (int i = 0; i < 8; ++i)
    text += fmt::format("{} {} {} - 0 0 80000001 @0x1000:0\n", i, ops[i], sizes[i]);
  Trace t = parse_text(text);
  ASSERT_EQ(t.records[0].size(), 8u);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(t.records[0][i].op, static_cast<Op>(i));
    EXPECT_EQ(t.records[0][i].addr[31], 0x1000u);
    EXPECT_EQ(t.records[0][i].addr[0], 0x1000u);
  }
  EXPECT_EQ(t.records[0][4].size, 16);
  EXPECT_EQ(t.records[0][0].sm, kUnknownSm);
}

TEST(TextReaderTest, ParsesListRecordWithTabsAndUpperHex) {
  Trace t = parse_text(
      "#wtrace 1\r\n#kernel id=9\r\n5\tATOMG  8 \t131 4294967295 2 A0000000 "
      "0xDEADBEEF00,0xffffffffffffffff\r\n");
  const WarpInstr& r = t.records[0][0];
  EXPECT_EQ(r.sm, 131u);
  EXPECT_EQ(r.cta, 4294967295u);
  EXPECT_EQ(r.mask, 0xa0000000u);
  EXPECT_EQ(r.addr[29], 0xdeadbeef00u);
  EXPECT_EQ(r.addr[31], 0xffffffffffffffffu);
  EXPECT_FALSE(r.strided);
}

TEST(TextReaderTest, KeepsKernelParamsInOrder) {
  Trace t = parse_text(
      "#wtrace 1\n#kernel tile=32 id=4 name=gemm grid=2,3,4 block=128,2,1 shmem=49152 regs=64 "
      "flops=1000000000000 arch=sm_90 note=x=y\n");
  const KernelInfo& k = t.kernels[0];
  EXPECT_EQ(k.id, 4u);
  EXPECT_EQ(k.name, "gemm");
  EXPECT_EQ(k.grid, (Dim3{2, 3, 4}));
  EXPECT_EQ(k.block, (Dim3{128, 2, 1}));
  EXPECT_EQ(k.shmem_bytes, 49152u);
  EXPECT_EQ(k.regs, 64u);
  EXPECT_EQ(k.flops, 1000000000000u);
  EXPECT_EQ(k.arch, "sm_90");
  using P = std::pair<std::string, std::string>;
  std::vector<P> expected{
      {"tile", "32"},       {"id", "4"},        {"name", "gemm"}, {"grid", "2,3,4"},
      {"block", "128,2,1"}, {"shmem", "49152"}, {"regs", "64"},   {"flops", "1000000000000"},
      {"arch", "sm_90"},    {"note", "x=y"}};
  EXPECT_EQ(k.params, expected);
}

TEST(TextReaderTest, ReadsSeveralKernelsAndSkipsComments) {
  Trace t = parse_text(
      "#wtrace 1\n\n# a comment\n#kernel id=1\n0 LDG 4 - 0 0 00000001 0x10\n   \n"
      "#kernelish comment\n#kernel id=2 name=b\n#kernel id=3\n1 STS 4 0 0 0 00000003 0x0,0x4\n"
      "1 STS 4 0 0 1 00000001 0x8");  // no final newline
  ASSERT_EQ(t.kernels.size(), 3u);
  EXPECT_EQ(t.records[0].size(), 1u);
  EXPECT_EQ(t.records[1].size(), 0u);
  EXPECT_EQ(t.kernels[1].name, "b");
  ASSERT_EQ(t.records[2].size(), 2u);
  EXPECT_EQ(t.records[2][1].addr[0], 0x8u);
}

TEST(TextReaderTest, NextKernelSkipsUnreadRecords) {
  TempPath p(".wtrace");
  write_bytes(p.str(),
              "#wtrace 1\n#kernel id=1\n0 LDG 4 - 0 0 00000001 0x10\n0 LDG 4 - 0 0 00000001 0x20\n"
              "#kernel id=2\n0 LDG 4 - 0 0 00000001 0x30\n");
  auto r = open_trace_reader(p.str());
  KernelInfo k;
  std::vector<WarpInstr> one(1);
  ASSERT_TRUE(r->next_kernel(k));
  EXPECT_EQ(r->read(one), 1u);
  ASSERT_TRUE(r->next_kernel(k));
  EXPECT_EQ(k.id, 2u);
  ASSERT_EQ(r->read(one), 1u);
  EXPECT_EQ(one[0].addr[0], 0x30u);
  EXPECT_EQ(r->read(one), 0u);
  EXPECT_FALSE(r->next_kernel(k));
}

TEST(TextReaderTest, ReadsConcatenatedZstdFrames) {
  std::string text = kReadmeExample;
  std::size_t cut = text.find("0 LDG 4 - 0 1");  // frames split inside the trace
  TempPath p(".wtrace.zst");
  write_bytes(p.str(), zstd_frames({text.substr(0, cut - 3), text.substr(cut - 3)}));
  EXPECT_EQ(read_trace(p.str()), parse_text(text));
}

TEST(TextReaderTest, StreamsMultiMegabyteTraceInBatches) {
  TempPath p(".wtrace.zst");
  constexpr std::uint64_t kRecords = 200'000;  // ~9 MB of text
  {
    auto w = open_trace_writer(p.str());
    write_synthetic_kernel(*w, SyntheticPattern::UnitStride, kRecords, 1);
    write_synthetic_kernel(*w, SyntheticPattern::Random, kRecords / 10, 2);
    w->finish();
  }
  auto r = open_trace_reader(p.str());
  std::vector<WarpInstr> batch(1024);
  KernelInfo k;
  std::uint64_t counts[2] = {0, 0};
  std::uint64_t last_addr = 0;
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(r->next_kernel(k));
    while (std::size_t n = r->read(batch)) {
      EXPECT_LE(n, batch.size());
      counts[i] += n;
      if (i == 0) last_addr = batch[n - 1].addr[0];
    }
  }
  EXPECT_FALSE(r->next_kernel(k));
  EXPECT_EQ(counts[0], kRecords);
  EXPECT_EQ(counts[1], kRecords / 10);
  EXPECT_EQ(last_addr, 0x7f0040000000ull + (kRecords / 2 - 1) * 128);
}

}  // namespace
}  // namespace gms::trace::test
