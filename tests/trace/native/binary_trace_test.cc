// The native .gmt format: lossless round trips, size against zstd text, error reports.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "tests/trace/trace_test_util.h"
#include "trace/native/binary_format.h"
#include "trace/native/synthetic.h"

namespace gms::trace::test {
namespace {

constexpr const char* kMixedText =
    "#wtrace 1\n"
    "#kernel id=1 name=copy grid=1,1,1 block=64,1,1 shmem=0 flops=0 extra=yes\n"
    "0 LDG 4 - 0 0 ffffffff @0x7f0000000000:4\n"
    "1 STG 4 3 0 0 ffffffff @0x7f0000100000:4 +5 ^3\n"
    "0 LDG 4 - 0 1 0000ffff @0x7f0000000080:-4\n"
    "2 LDS 8 - 0 1 0000000f 0x0,0x8,0x10,0x18 ^4294967295\n"
    "#kernel id=7 arch=sm_90 regs=40\n"
    "#kernel id=3\n"
    "300 RED 16 131 4000000000 9 80000001 0xffffffffffffff00,0x0\n"
    "44 ATOMG 1 0 1 1 ffffffff @0x0:0 +4294967295\n";

void write_synthetic_file(const std::string& path, SyntheticPattern pattern,
                          std::uint64_t records) {
  auto w = open_trace_writer(path);
  write_synthetic_kernel(*w, pattern, records, 1);
  w->finish();
}

TEST(BinaryTraceTest, RoundTripsTextToBinaryToText) {
  TempPath gmt(".gmt"), text(".wtrace");
  Trace a = parse_text(kMixedText);
  write_trace(gmt.str(), a);
  EXPECT_EQ(read_bytes(gmt.str()).substr(0, 8),
            std::string(reinterpret_cast<const char*>(kGmtMagic), 8));
  Trace b = read_trace(gmt.str());
  EXPECT_EQ(a, b);
  // The +N and ^K fields (instructions before the record that are not records, the load it
  // waits for) survive both formats.
  ASSERT_EQ(b.records.size(), 3u);  // per kernel
  ASSERT_EQ(b.records[0].size(), 4u);
  ASSERT_EQ(b.records[2].size(), 2u);
  EXPECT_EQ(b.records[0][0].instrs_before, 0u);
  EXPECT_EQ(b.records[0][1].instrs_before, 5u);
  EXPECT_EQ(b.records[0][1].waits_for_load, 3u);
  EXPECT_EQ(b.records[0][2].waits_for_load, 0u);
  EXPECT_EQ(b.records[0][3].instrs_before, 0u);
  EXPECT_EQ(b.records[0][3].waits_for_load, 4294967295u);
  EXPECT_EQ(b.records[2][1].instrs_before, 4294967295u);
  write_trace(text.str(), b);
  EXPECT_EQ(read_bytes(text.str()), kMixedText);
}

TEST(BinaryTraceTest, RoundTripsTypedKernelFieldsWithoutParams) {
  Trace a;
  KernelInfo k;
  k.id = 11;
  k.name = "n";
  k.grid = {1, 2, 3};
  k.block = {4, 5, 6};
  k.shmem_bytes = 1ull << 40;
  k.regs = 255;
  k.flops = 123456789012345ull;
  k.arch = "sm_80";
  a.kernels.push_back(k);
  a.records.emplace_back();
  TempPath gmt(".gmt");
  write_trace(gmt.str(), a);
  EXPECT_EQ(read_trace(gmt.str()), a);
}

TEST(BinaryTraceTest, RoundTripsLargeSyntheticTracesAcrossBlocks) {
  TempPath text(".wtrace.zst"), gmt(".gmt");
  {
    auto w = open_trace_writer(text.str());
    write_synthetic_kernel(*w, SyntheticPattern::UnitStride, 300'000, 1);
    write_synthetic_kernel(*w, SyntheticPattern::Random, 60'000, 2);
    write_synthetic_kernel(*w, SyntheticPattern::UnitStride, 10, 3);
    w->finish();
  }
  Trace a = read_trace(text.str());
  write_trace(gmt.str(), a);
  EXPECT_EQ(read_trace(gmt.str(), 1000), a);
}

TEST(BinaryTraceTest, SmallerThanZstdTextForUnitStrideAndRandom) {
  for (SyntheticPattern pattern : {SyntheticPattern::UnitStride, SyntheticPattern::Random}) {
    constexpr std::uint64_t kRecords = 100'000;
    TempPath text(".wtrace.zst"), gmt(".gmt");
    write_synthetic_file(text.str(), pattern, kRecords);
    write_synthetic_file(gmt.str(), pattern, kRecords);
    auto text_bytes = std::filesystem::file_size(text.str());
    auto gmt_bytes = std::filesystem::file_size(gmt.str());
    EXPECT_LT(gmt_bytes, text_bytes) << "pattern " << static_cast<int>(pattern);
    if (pattern == SyntheticPattern::UnitStride) {
      EXPECT_LE(static_cast<double>(gmt_bytes) / kRecords, 4.0);
    }
  }
}

TEST(BinaryTraceTest, ScatteredRecordsAreNotCheapToDecodeAndReadTheSameAfterAsking) {
  // Unit-stride records take a few raw bytes each; 32 random addresses take over 100: only the
  // latter are worth reading ahead on a second thread (TraceReader::decodes_cheaply).
  for (SyntheticPattern pattern : {SyntheticPattern::UnitStride, SyntheticPattern::Random}) {
    TempPath gmt(".gmt");
    write_synthetic_file(gmt.str(), pattern, 5000);
    auto reader = open_trace_reader(gmt.str());
    EXPECT_EQ(reader->decodes_cheaply(), pattern == SyntheticPattern::UnitStride);
    // Asking loads the first block early; the kernels and records read after it are the same.
    Trace after;
    KernelInfo k;
    std::vector<WarpInstr> batch(1000);
    while (reader->next_kernel(k)) {
      after.kernels.push_back(k);
      auto& records = after.records.emplace_back();
      for (std::size_t n; (n = reader->read(batch)) > 0;)
        records.insert(records.end(), batch.begin(), batch.begin() + static_cast<long>(n));
    }
    EXPECT_EQ(after, read_trace(gmt.str()));
  }
}

TEST(BinaryTraceTest, PartialStridedLanesKeepFirstAndLastAndCompleteToTheFullRecord) {
  // Strided records of many masks and strides (negative and zero too), and a list record.
  std::string text = "#wtrace 1\n#kernel id=1\n";
  const char* masks[] = {"ffffffff", "0000ffff", "80000001", "00000100", "7ffffffe", "00f0f000"};
  const int strides[] = {4, -4, 0, 8, 1024, -96, 3};
  for (int i = 0; i < 84; ++i)
    text += fmt::format("{} {} 4 {} 0 {} {} @0x{:x}:{}\n", i % 9, i % 5 == 0 ? "STS" : "LDG", i % 3,
                        i, masks[i % 6], 0x7f0000100000 + i * 4096, strides[i % 7]);
  text += "9 LDG 4 - 0 0 00000003 0x10,0x2000\n";
  TempPath gmt(".gmt");
  const Trace full = parse_text(text);
  write_trace(gmt.str(), full);
  auto reader = open_trace_reader(gmt.str());
  reader->set_partial_strided_lanes(true);
  KernelInfo k;
  ASSERT_TRUE(reader->next_kernel(k));
  std::vector<WarpInstr> batch(100);
  ASSERT_EQ(reader->read(batch), full.records[0].size());
  for (std::size_t i = 0; i < full.records[0].size(); ++i) {
    WarpInstr w = batch[i];
    const WarpInstr& want = full.records[0][i];
    const unsigned first = static_cast<unsigned>(std::countr_zero(want.mask));
    const unsigned last = 31u - static_cast<unsigned>(std::countl_zero(want.mask));
    EXPECT_EQ(w.addr[first], want.addr[first]) << "record " << i;
    EXPECT_EQ(w.addr[last], want.addr[last]) << "record " << i;
    if (w.strided) complete_strided_lanes(w);
    EXPECT_EQ(w, want) << "record " << i;
  }
}

TEST(BinaryTraceTest, FullWarpListsThatStepByOneAmountReadBackExactly) {
  // Steps whose packed deltas are 0, 1 and 2 bits wide (broadcast, -4, +4, +8, +16) take the
  // reader's one-compare path; a lane off the step, or a wider step, must not.
  std::string text = "#wtrace 1\n#kernel id=1\n";
  const std::int64_t steps[] = {0, -4, 4, 8, 16, 12, 4096};
  int record = 0;
  for (std::int64_t step : steps)
    for (int off_lane : {-1, 1, 17, 31}) {
      std::string addrs;
      for (int lane = 0; lane < 32; ++lane) {
        std::uint64_t a = 0x7f0000100000 + 4096 * record + lane * step;
        if (lane == off_lane) a += 4;
        addrs += fmt::format("{}0x{:x}", lane ? "," : "", a);
      }
      text += fmt::format("{} LDG 4 - 0 {} ffffffff {}\n", record % 3, record, addrs);
      ++record;
    }
  TempPath gmt(".gmt");
  const Trace a = parse_text(text);
  write_trace(gmt.str(), a);
  EXPECT_EQ(read_trace(gmt.str()), a);
}

TEST(BinaryTraceTest, BadMagicAndFutureVersion) {
  TempPath gmt(".gmt");
  write_synthetic_file(gmt.str(), SyntheticPattern::UnitStride, 10);
  std::string bytes = read_bytes(gmt.str());
  std::string future = bytes;
  future[8] = 2;
  write_bytes(gmt.str(), future);
  GMS_EXPECT_CONTAINS(error_of([&] { read_trace(gmt.str()); }),
                      gmt.str() + ": unsupported .gmt version 2 (reads 1)");
  std::string bad = bytes;
  bad[1] = 'X';  // no longer the binary magic: read as text, which lacks its magic line
  write_bytes(gmt.str(), bad);
  GMS_EXPECT_CONTAINS(error_of([&] { read_trace(gmt.str()); }),
                      gmt.str() + ":1: missing '#wtrace 1' magic line");
}

TEST(BinaryTraceTest, TruncatedFileNamesBlockAndOffset) {
  TempPath gmt(".gmt");
  write_synthetic_file(gmt.str(), SyntheticPattern::Random, 50'000);
  std::string bytes = read_bytes(gmt.str());
  write_bytes(gmt.str(), bytes.substr(0, bytes.size() / 2));
  GMS_EXPECT_CONTAINS(error_of([&] { read_trace(gmt.str()); }), gmt.str() + ": truncated block ");
  write_bytes(gmt.str(), bytes.substr(0, bytes.size() - sizeof(GmtBlockHeader)));
  GMS_EXPECT_CONTAINS(error_of([&] { read_trace(gmt.str()); }),
                      gmt.str() + ": truncated: no end block after block ");
  write_bytes(gmt.str(), bytes.substr(0, sizeof(GmtFileHeader) + 5));
  GMS_EXPECT_CONTAINS(error_of([&] { read_trace(gmt.str()); }),
                      gmt.str() + ": truncated block header of block 1 at byte offset 16");
}

TEST(BinaryTraceTest, CorruptBlockNamesBlockAndOffset) {
  TempPath gmt(".gmt");
  write_synthetic_file(gmt.str(), SyntheticPattern::Random, 1000);
  std::string bytes = read_bytes(gmt.str());
  bytes[sizeof(GmtFileHeader) + sizeof(GmtBlockHeader) + 40] ^= 0x5a;  // inside block 1's frame
  write_bytes(gmt.str(), bytes);
  GMS_EXPECT_CONTAINS(error_of([&] { read_trace(gmt.str()); }),
                      gmt.str() + ": corrupt block 1 at byte offset 16:");
}

TEST(BinaryTraceTest, StridedRecordWhoseLanesWrapIsRejected) {
  // A valid record (lane 0 at 0x40, stride 4), its stride then patched to -4 inside the block:
  // lane 31 would sit below address 0. Such a record is not in address order, and the
  // coalescer must never see it: the reader rejects it, as the text format does.
  TempPath gmt(".gmt");
  Trace t;
  t.kernels.push_back(KernelInfo{});
  WarpInstr r;
  r.mask = 0xffffffffu;
  r.strided = true;
  r.stride = 4;
  for (int lane = 0; lane < kWarpSize; ++lane) r.addr[lane] = 0x40 + 4u * lane;
  t.records.push_back({r});
  write_trace(gmt.str(), t);
  std::string bytes = read_bytes(gmt.str());
  GmtBlockHeader h;
  const std::size_t at = sizeof(GmtFileHeader);
  std::memcpy(&h, bytes.data() + at, sizeof h);
  std::string raw(h.raw_bytes, '\0');
  ASSERT_EQ(
      ZSTD_decompress(raw.data(), raw.size(), bytes.data() + at + sizeof h, h.compressed_bytes),
      raw.size());
  // The record ends with zigzag varints of the base (0x40 -> 80 01) and the stride (4 -> 08).
  const std::size_t stride_at = raw.rfind(std::string("\x80\x01\x08", 3));
  ASSERT_EQ(stride_at + 3, raw.size());
  raw[stride_at + 2] = 0x07;  // zigzag of -4
  std::string packed(ZSTD_compressBound(raw.size()), '\0');
  packed.resize(ZSTD_compress(packed.data(), packed.size(), raw.data(), raw.size(), 1));
  h.compressed_bytes = static_cast<std::uint32_t>(packed.size());
  std::string patched = bytes.substr(0, at) + std::string(reinterpret_cast<char*>(&h), sizeof h) +
                        packed +
                        bytes.substr(bytes.size() - sizeof(GmtBlockHeader));  // the end block
  write_bytes(gmt.str(), patched);
  GMS_EXPECT_CONTAINS(error_of([&] { read_trace(gmt.str()); }),
                      gmt.str() + ": corrupt block 1 at byte offset 16: bad record 1 of the file");
}

TEST(BinaryTraceTest, CorruptBlockHeaderIsRejected) {
  TempPath gmt(".gmt");
  write_synthetic_file(gmt.str(), SyntheticPattern::UnitStride, 1000);
  std::string bytes = read_bytes(gmt.str());
  std::uint32_t huge = 0xffffffffu;
  std::memcpy(bytes.data() + sizeof(GmtFileHeader) + 4, &huge, 4);  // raw_bytes
  write_bytes(gmt.str(), bytes);
  GMS_EXPECT_CONTAINS(error_of([&] { read_trace(gmt.str()); }),
                      gmt.str() + ": corrupt block 1 at byte offset 16: implausible block header");
}

}  // namespace
}  // namespace gms::trace::test
