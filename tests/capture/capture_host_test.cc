// Host side of the capture library: records in, wtrace text out, parsed back by the project's
// reader and compared.
#include <gtest/gtest.h>
#include <zstd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tools/capture/sha256.h"
#include "tools/capture/trace_output.h"
#include "tools/capture/wtrace_host.h"
#include "trace/import/formats.h"

namespace cap = gms::capture;

namespace {

cap::CaptureRecord strided(std::uint32_t cta, std::uint32_t warp, std::uint32_t seq,
                           std::uint64_t base, std::int64_t stride, std::uint32_t mask = ~0u) {
  return cap::make_record(cta, warp, seq, 7, cap::CaptureOp::LDG, 4, mask, 3,
                          [&](int t) { return base + static_cast<std::uint64_t>(t * stride); });
}

std::string line_of(const cap::CaptureRecord& r) {
  std::string s;
  cap::append_record_line(r, s);
  return s;
}

/// A temporary file removed at the end of the test.
struct TempFile {
  std::filesystem::path path;
  explicit TempFile(const std::string& name)
      : path(std::filesystem::temp_directory_path() /
             (name + "-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
              std::to_string(reinterpret_cast<std::uintptr_t>(this)))) {}
  ~TempFile() { std::filesystem::remove(path); }
};

}  // namespace

TEST(CaptureHostTest, WritesStridedRecords) {
  EXPECT_EQ(line_of(strided(2, 5, 0, 0x7f0000001000, 4)),
            "7 LDG 4 3 2 5 ffffffff @0x7f0000001000:4\n");
  EXPECT_EQ(line_of(strided(0, 0, 0, 0x1000, 0)), "7 LDG 4 3 0 0 ffffffff @0x1000:0\n");
}

TEST(CaptureHostTest, ReversedWalkHasNegativeStride) {
  EXPECT_EQ(line_of(strided(0, 0, 0, 0x107c, -4)), "7 LDG 4 3 0 0 ffffffff @0x107c:-4\n");
}

TEST(CaptureHostTest, SingleActiveLaneIsStrideZero) {
  auto r = strided(0, 0, 0, 0x2000, 8, 1u << 5);  // lane 5 reads 0x2000 + 40
  EXPECT_EQ(line_of(r), "7 LDG 4 3 0 0 00000020 @0x2028:0\n");
}

TEST(CaptureHostTest, PartialMaskKeepsStrideFromLaneZero) {
  auto r = strided(0, 1, 0, 0x1000, 4, 0xffff0000u);  // upper half only
  EXPECT_EQ(line_of(r), "7 LDG 4 3 0 1 ffff0000 @0x1000:4\n");
}

TEST(CaptureHostTest, WritesListForIrregularAddresses) {
  auto r = cap::make_record(1, 0, 0, 2, cap::CaptureOp::LDS, 8, 0xfu, cap::kUnknownSm,
                            [](int t) { return std::uint64_t(t * t * 8); });
  EXPECT_EQ(line_of(r), "2 LDS 8 - 1 0 0000000f 0x0,0x8,0x20,0x48\n");
}

TEST(CaptureHostTest, StrideThatWouldWrapBelowZeroIsAList) {
  // lane 1 at 0x4, lane 2 at 0x10: stride 12 gives base -8, which the format cannot express.
  auto r = cap::make_record(0, 0, 0, 0, cap::CaptureOp::STG, 4, 0x6u, 0,
                            [](int t) { return std::uint64_t(t == 1 ? 0x4 : 0x10); });
  EXPECT_EQ(line_of(r), "0 STG 4 0 0 0 00000006 0x4,0x10\n");
}

TEST(CaptureHostTest, SortsInLockstepOrder) {
  // (cta, warp, seq): every warp's seq-th record, by CTA then warp, before any warp's next.
  std::vector<cap::CaptureRecord> recs = {strided(1, 0, 0, 0x100, 4), strided(0, 1, 1, 0x200, 4),
                                          strided(0, 1, 0, 0x300, 4), strided(0, 0, 5, 0x400, 4)};
  cap::sort_records(recs);
  ASSERT_EQ(recs.size(), 4u);
  EXPECT_EQ(recs[0].addr[0], 0x300u);
  EXPECT_EQ(recs[1].addr[0], 0x100u);
  EXPECT_EQ(recs[2].addr[0], 0x200u);
  EXPECT_EQ(recs[3].addr[0], 0x400u);
}

TEST(CaptureHostTest, KernelLineHasKnownKeysThenExtras) {
  cap::KernelHeader h;
  h.id = 30;
  h.name = "stream_s1";
  h.grid = {1024, 1, 1};
  h.block = {256, 1, 1};
  h.shmem_bytes = 48;
  h.arch = "sm_90";
  h.extra = {{"base0", "0x7f00"}, {"regs", "16"}};
  EXPECT_EQ(cap::kernel_line(h),
            "#kernel id=30 name=stream_s1 grid=1024,1,1 block=256,1,1 shmem=48 arch=sm_90 "
            "base0=0x7f00 regs=16\n");
}

TEST(CaptureHostTest, RoundTripsThroughTheTraceReader) {
  std::vector<cap::CaptureRecord> recs = {
      strided(0, 0, 0, 0x7f0000000000, 4),
      strided(0, 1, 0, 0x7f000000107c, -4),
      strided(1, 0, 0, 0x7f0000002000, 0, 1u << 9),
      cap::make_record(1, 1, 0, 3, cap::CaptureOp::STS, 16, 0x80000001u, cap::kUnknownSm,
                       [](int t) { return std::uint64_t(t == 0 ? 0x40 : 0x1f0); }),
      cap::make_record(2, 0, 0, 4, cap::CaptureOp::ATOMG, 8, 0x00ff00ffu, 131,
                       [](int t) { return std::uint64_t(0x9000 + 24 * t + (t % 3)); }),
  };
  cap::KernelHeader h;
  h.id = 5;
  h.name = "roundtrip";
  h.grid = {3, 1, 1};
  h.block = {64, 1, 1};
  h.shmem_bytes = 1024;
  h.arch = "sm_90";
  std::string text = cap::wtrace_magic() + cap::kernel_line(h);
  for (const auto& r : recs) cap::append_record_line(r, text);

  TempFile file("capture-roundtrip.wtrace");
  std::ofstream(file.path) << text;
  auto reader = gms::trace::open_trace_reader(file.path.string());
  gms::KernelInfo k;
  ASSERT_TRUE(reader->next_kernel(k));
  EXPECT_EQ(k.id, 5u);
  EXPECT_EQ(k.name, "roundtrip");
  EXPECT_EQ(k.grid, (gms::Dim3{3, 1, 1}));
  EXPECT_EQ(k.block, (gms::Dim3{64, 1, 1}));
  EXPECT_EQ(k.shmem_bytes, 1024u);
  EXPECT_EQ(k.arch, "sm_90");
  std::vector<gms::WarpInstr> got(16);
  const std::size_t n = reader->read(got);
  ASSERT_EQ(n, recs.size());
  for (std::size_t i = 0; i < n; ++i) {
    SCOPED_TRACE(i);
    const auto& r = recs[i];
    const auto& w = got[i];
    EXPECT_EQ(w.inst, r.inst);
    EXPECT_EQ(gms::op_name(w.op), cap::op_mnemonic(r.op));
    EXPECT_EQ(w.size, r.size);
    EXPECT_EQ(w.sm, r.sm == cap::kUnknownSm ? gms::kUnknownSm : r.sm);
    EXPECT_EQ(w.cta, r.cta);
    EXPECT_EQ(w.warp, r.warp);
    EXPECT_EQ(w.mask, r.mask);
    for (int lane = 0; lane < 32; ++lane) {
      if (r.mask >> lane & 1) {
        EXPECT_EQ(w.addr[lane], r.addr[lane]) << "lane " << lane;
      }
    }
  }
  EXPECT_TRUE(got[0].strided);
  EXPECT_EQ(got[1].stride, -4);
  EXPECT_FALSE(got[4].strided);
  EXPECT_EQ(reader->read(got), 0u);
  EXPECT_FALSE(reader->next_kernel(k));
}

TEST(CaptureHostTest, CompressedOutputRoundTripsThroughTheReader) {
  cap::KernelHeader h;
  h.id = 1;
  h.name = "zst";
  cap::TraceOutput out(0);
  out.append(cap::wtrace_magic());
  out.append(cap::kernel_line(h));
  std::string body;
  for (std::uint32_t w = 0; w < 100; ++w)
    cap::append_record_line(strided(0, w, 0, 128 * w, 4), body);
  out.append(body);
  out.finish();
  ASSERT_TRUE(out.fits());
  TempFile file("capture-roundtrip.wtrace.zst");
  cap::write_file(file.path.string(), out.compressed());
  auto reader = gms::trace::open_trace_reader(file.path.string());
  gms::KernelInfo k;
  ASSERT_TRUE(reader->next_kernel(k));
  std::vector<gms::WarpInstr> got(256);
  std::size_t total = 0;
  while (std::size_t n = reader->read(std::span(got).subspan(total))) total += n;
  ASSERT_EQ(total, 100u);
  EXPECT_EQ(got[99].addr[31], 128u * 99 + 124);
}

TEST(TraceOutputTest, StopsCompressingPastTheCapButKeepsHashing) {
  cap::TraceOutput capped(64, 1), full(0, 1);
  std::string text;
  std::uint64_t x = 12345;
  for (int i = 0; i < 20000; ++i) {  // hard to compress
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    text += std::to_string(x >> 11) + "\n";
  }
  capped.append(text);
  full.append(text);
  capped.finish();
  full.finish();
  EXPECT_FALSE(capped.fits());
  EXPECT_TRUE(capped.compressed().empty());
  EXPECT_TRUE(full.fits());
  EXPECT_EQ(capped.sha256(), full.sha256());
  EXPECT_EQ(capped.text_bytes(), text.size());
  std::string back(text.size(), '\0');
  const std::size_t n =
      ZSTD_decompress(back.data(), back.size(), full.compressed().data(), full.compressed().size());
  ASSERT_FALSE(ZSTD_isError(n));
  EXPECT_EQ(back, text);
}

TEST(Sha256Test, MatchesTheFipsExamples) {
  cap::Sha256 empty;
  EXPECT_EQ(empty.hex_digest(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  cap::Sha256 abc;
  abc.update("abc");
  EXPECT_EQ(abc.hex_digest(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  cap::Sha256 two_blocks;
  two_blocks.update("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq");
  EXPECT_EQ(two_blocks.hex_digest(),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  cap::Sha256 million;  // fed in uneven pieces
  const std::string chunk(997, 'a');
  std::size_t left = 1000000;
  while (left) {
    const std::size_t n = std::min(left, chunk.size());
    million.update(chunk.data(), n);
    left -= n;
  }
  EXPECT_EQ(million.hex_digest(),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
