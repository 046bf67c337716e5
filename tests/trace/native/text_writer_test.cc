// wtrace text output: exact line formats, derived #kernel lines, round trips.
#include <gtest/gtest.h>

#include "tests/trace/trace_test_util.h"
#include "trace/native/synthetic.h"

namespace gms::trace::test {
namespace {

WarpInstr strided_record(Addr base, std::int64_t stride, LaneMask mask) {
  WarpInstr r;
  r.inst = 3;
  r.op = Op::LDG;
  r.size = 4;
  r.cta = 2;
  r.warp = 1;
  r.mask = mask;
  r.strided = true;
  r.stride = stride;
  for (int i = 0; i < 32; ++i)
    if (mask >> i & 1) r.addr[i] = base + static_cast<std::uint64_t>(i * stride);
  return r;
}

TEST(TextWriterTest, WritesStridedAndListForms) {
  TempPath p(".wtrace");
  {
    auto w = open_trace_writer(p.str());
    KernelInfo k;
    k.id = 5;
    k.name = "k";
    k.grid = {4, 1, 1};
    k.block = {128, 1, 1};
    k.shmem_bytes = 1024;
    k.regs = 32;
    k.arch = "sm_90";
    w->begin_kernel(k);
    WarpInstr list;
    list.inst = 9;
    list.op = Op::STS;
    list.size = 8;
    list.sm = 7;
    list.mask = 0x5;
    list.addr[0] = 0x10;
    list.addr[2] = 0xabc;
    std::vector<WarpInstr> recs{strided_record(0x1000, 4, 0xfffffff0), list,
                                strided_record(0x107c, -4, 0xffffffff)};
    w->write(recs);
    w->finish();
  }
  EXPECT_EQ(read_bytes(p.str()),
            "#wtrace 1\n"
            "#kernel id=5 name=k grid=4,1,1 block=128,1,1 shmem=1024 regs=32 arch=sm_90\n"
            "3 LDG 4 - 2 1 fffffff0 @0x1000:4\n"
            "9 STS 8 7 0 0 00000005 0x10,0xabc\n"
            "3 LDG 4 - 2 1 ffffffff @0x107c:-4\n");
}

TEST(TextWriterTest, WritesParamsAsGiven) {
  TempPath p(".wtrace");
  Trace in = parse_text("#wtrace 1\n#kernel z=1 id=2 name=n custom=abc\n");
  write_trace(p.str(), in);
  EXPECT_EQ(read_bytes(p.str()), "#wtrace 1\n#kernel z=1 id=2 name=n custom=abc\n");
}

TEST(TextWriterTest, RejectsUnwritableParamsAndRecordsBeforeKernel) {
  TempPath p(".wtrace");
  auto w = open_trace_writer(p.str());
  KernelInfo k;
  k.params = {{"id", "1"}, {"bad key", "x"}};
  GMS_EXPECT_CONTAINS(error_of([&] { w->begin_kernel(k); }), "cannot be written in wtrace");
  auto w2 = open_trace_writer(p.str());
  std::vector<WarpInstr> one{strided_record(0, 4, 1)};
  GMS_EXPECT_CONTAINS(error_of([&] { w2->write(one); }), "records written before any kernel");
}

TEST(TextWriterTest, RejectsDuplicateKernelIds) {
  for (const char* suffix : {".wtrace", ".gmt"}) {
    TempPath p(suffix);
    auto w = open_trace_writer(p.str());
    KernelInfo k;
    k.id = 4;
    w->begin_kernel(k);
    EXPECT_EQ(error_of([&] { w->begin_kernel(k); }), p.str() + ": duplicate kernel id 4");
  }
}

TEST(TextWriterTest, InconsistentStridedRecordIsWrittenAsList) {
  Trace t;
  t.kernels.push_back(parse_text("#wtrace 1\n#kernel id=1\n").kernels[0]);
  WarpInstr r = strided_record(0x100, 8, 0x3);
  r.addr[1] = 0x999;
  t.records.push_back({r});
  TempPath p(".wtrace");
  write_trace(p.str(), t);
  Trace back = read_trace(p.str());
  EXPECT_FALSE(back.records[0][0].strided);
  EXPECT_EQ(back.records[0][0].addr, r.addr);
}

TEST(TextWriterTest, RoundTripsThroughZstdText) {
  TempPath plain(".wtrace"), packed(".wtrace.zst");
  {
    auto w = open_trace_writer(plain.str());
    write_synthetic_kernel(*w, SyntheticPattern::UnitStride, 5000, 1);
    write_synthetic_kernel(*w, SyntheticPattern::Random, 5000, 2);
    w->finish();
  }
  Trace a = read_trace(plain.str());
  write_trace(packed.str(), a);
  EXPECT_EQ(read_bytes(packed.str()).substr(0, 4), std::string("\x28\xb5\x2f\xfd", 4));
  Trace b = read_trace(packed.str());
  ASSERT_EQ(a.kernels.size(), 2u);
  EXPECT_EQ(a.records[1].size(), 5000u);
  EXPECT_EQ(a, b);
  // And back to plain text, byte for byte.
  TempPath again(".wtrace");
  write_trace(again.str(), b);
  EXPECT_EQ(read_bytes(again.str()), read_bytes(plain.str()));
}

}  // namespace
}  // namespace gms::trace::test
