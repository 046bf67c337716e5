// The capture library's native output (tools/capture/native_output.h): records written through
// the project's writers, .gmt included, read back equal to the capture's own wtrace text.
#include <gtest/gtest.h>

#include "tests/trace/trace_test_util.h"
#include "tools/capture/native_output.h"

namespace gms::trace::test {
namespace {

namespace cap = gms::capture;

TEST(CaptureNativeOutputTest, GmtEqualsTheCapturedWtraceText) {
  cap::KernelHeader h;
  h.id = 12;
  h.name = "gt12_mixed";
  h.grid = {4, 1, 1};
  h.block = {64, 1, 1};
  h.shmem_bytes = 512;
  h.arch = "sm_90";
  h.extra = {{"flops", "1024"}, {"note", "captured"}};
  std::vector<cap::CaptureRecord> recs;
  for (std::uint32_t cta = 0; cta < 4; ++cta)
    for (std::uint32_t warp = 0; warp < 2; ++warp) {
      recs.push_back(cap::make_record(cta, warp, 1, 1, cap::CaptureOp::STS, 8, 0x0000ffffu, cta % 2,
                                      [](int lane) { return 8u * lane; }));
      recs.push_back(cap::make_record(
          cta, warp, 0, 0, cap::CaptureOp::LDG, 4, 0xffffffffu, cap::kUnknownSm,
          [&](int lane) { return 0x7f0000000000u + 4096u * cta + 97u * lane * lane; }));
    }
  std::string text = cap::wtrace_magic() + cap::kernel_line(h);
  auto sorted = recs;
  cap::sort_records(sorted);
  for (const auto& r : sorted) cap::append_record_line(r, text);
  const Trace expected = parse_text(text);

  TempPath gmt(".gmt"), wtrace(".wtrace");
  auto copy = recs;
  cap::write_native(gmt.str(), h, copy);
  copy = recs;
  cap::write_native(wtrace.str(), h, copy);
  EXPECT_EQ(read_trace(gmt.str()), expected);
  EXPECT_EQ(read_bytes(wtrace.str()), text);
}

TEST(CaptureNativeOutputTest, BuffersAreAllocLinesInWtraceAndLeftOutOfGmt) {
  cap::KernelHeader h;
  h.id = 3;
  h.buffers = {{0x7f0000000000u, 4096, "in"}, {0x7f0000100000u, 256, ""}};
  std::vector<cap::CaptureRecord> recs{cap::make_record(0, 0, 0, 0, cap::CaptureOp::LDG, 4, 1u,
                                                        cap::kUnknownSm,
                                                        [](int) { return 0x7f0000000000u; })};
  const std::string lines = cap::alloc_lines(h);
  EXPECT_EQ(
      lines,
      "#alloc base=0x7f0000000000 bytes=4096 name=in\n#alloc base=0x7f0000100000 bytes=256\n");
  std::string text = cap::wtrace_magic() + lines + cap::kernel_line(h);
  cap::append_record_line(recs[0], text);
  // The library's wtrace and the project's writer agree, and the reader hands the buffers on.
  TempPath wtrace(".wtrace"), gmt(".gmt");
  auto copy = recs;
  cap::write_native(wtrace.str(), h, copy);
  EXPECT_EQ(read_bytes(wtrace.str()), text);
  auto reader = open_trace_reader(wtrace.str());
  KernelInfo k;
  ASSERT_TRUE(reader->next_kernel(k));
  ASSERT_EQ(reader->allocations().size(), 2u);
  EXPECT_EQ(reader->allocations()[0], (Allocation{0x7f0000000000u, 4096, "in"}));
  copy = recs;
  cap::write_native(gmt.str(), h, copy);  // the records without the buffers (and a warning)
  EXPECT_EQ(read_trace(gmt.str()), read_trace(wtrace.str()));
}

}  // namespace
}  // namespace gms::trace::test
