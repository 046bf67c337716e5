// Readers of one .gmt file that deal its blocks among themselves (TraceReader::share_blocks, for
// the cold replay's workers): every share yields every kernel, the shares together yield every
// record once, numbered by its place in the file, and a fault is met where one reader meets it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "tests/trace/gmt_in_blocks.h"
#include "tests/trace/trace_test_util.h"
#include "trace/io/input_progress.h"
#include "trace/io/zstd_stream.h"
#include "trace/native/binary_format.h"
#include "trace/native/synthetic.h"

namespace gms::trace::test {
namespace {

/// A trace of five kernels (one empty, one of a single record) of regular and scattered
/// records, written in blocks of about `block_bytes` raw bytes, so that kernels start inside
/// blocks and blocks hold the ends of kernels.
Trace written_in_small_blocks(const std::string& path, std::size_t block_bytes) {
  TempPath text(".wtrace");
  {
    auto w = open_trace_writer(text.str());
    write_synthetic_kernel(*w, SyntheticPattern::UnitStride, 3000, 1);
    write_synthetic_kernel(*w, SyntheticPattern::Random, 700, 2);
    write_synthetic_kernel(*w, SyntheticPattern::Random, 0, 3);
    write_synthetic_kernel(*w, SyntheticPattern::UnitStride, 1, 4);
    write_synthetic_kernel(*w, SyntheticPattern::Random, 1500, 5);
    w->finish();
  }
  gms::test::gmt_in_blocks(text.str(), path, block_bytes);
  return read_trace(text.str());
}

/// What share `share` of `shares` yields: its kernels, and per kernel its records with their
/// places in the file.
struct Share {
  std::vector<KernelInfo> kernels;
  std::vector<std::vector<std::pair<std::uint64_t, WarpInstr>>> records;
};
Share read_share(const std::string& path, unsigned share, unsigned shares, std::size_t batch) {
  auto reader = open_trace_reader(path);
  EXPECT_TRUE(reader->share_blocks(share, shares));
  Share s;
  std::vector<WarpInstr> buf(batch);
  KernelInfo k;
  while (reader->next_kernel(k)) {
    s.kernels.push_back(k);
    s.records.emplace_back();
    while (const std::size_t n = reader->read(buf))
      for (std::size_t i = 0; i < n; ++i)
        s.records.back().emplace_back(reader->records_passed() - n + i, buf[i]);
  }
  return s;
}

TEST(BinarySharesTest, EveryShareYieldsEveryKernelAndTogetherEveryRecordOnceInItsPlace) {
  TempPath gmt(".gmt");
  const Trace whole = written_in_small_blocks(gmt.str(), 2048);
  std::uint64_t total = 0;
  for (const auto& r : whole.records) total += r.size();
  for (const unsigned shares : {1u, 2u, 3u, 7u})
    for (const std::size_t batch : {std::size_t{5}, std::size_t{1024}}) {
      std::vector<std::vector<std::pair<std::uint64_t, WarpInstr>>> merged(whole.kernels.size());
      std::vector<std::size_t> per_share;
      for (unsigned s = 0; s < shares; ++s) {
        Share got = read_share(gmt.str(), s, shares, batch);
        ASSERT_EQ(got.kernels, whole.kernels) << "share " << s << " of " << shares;
        std::size_t mine = 0;
        for (std::size_t k = 0; k < got.records.size(); ++k) {
          merged[k].insert(merged[k].end(), got.records[k].begin(), got.records[k].end());
          mine += got.records[k].size();
        }
        per_share.push_back(mine);
      }
      std::uint64_t next = 0;  // every place once, in kernel order
      for (std::size_t k = 0; k < merged.size(); ++k) {
        std::sort(merged[k].begin(), merged[k].end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        ASSERT_EQ(merged[k].size(), whole.records[k].size()) << "kernel " << k;
        for (std::size_t i = 0; i < merged[k].size(); ++i) {
          ASSERT_EQ(merged[k][i].first, next++) << "kernel " << k << ", record " << i;
          ASSERT_EQ(merged[k][i].second, whole.records[k][i]) << "kernel " << k << ", record " << i;
        }
      }
      EXPECT_EQ(next, total);
      // Many blocks: every share has records of its own.
      for (const std::size_t mine : per_share) EXPECT_GT(mine, 0u) << shares << " shares";
    }
}

TEST(BinarySharesTest, TheSharesCountEachByteOfTheFileOnceForProgressBars) {
  TempPath gmt(".gmt");
  written_in_small_blocks(gmt.str(), 2048);
  const std::uint64_t size = read_bytes(gmt.str()).size();
  for (const unsigned shares : {1u, 2u, 3u}) {
    const std::uint64_t before = input_bytes_read().load();
    for (unsigned s = 0; s < shares; ++s) read_share(gmt.str(), s, shares, 64);
    EXPECT_EQ(input_bytes_read().load() - before, size) << shares << " shares";
  }
}

TEST(BinarySharesTest, NoSharingWhereEveryShareWouldReadItAllOrAfterTheFirstKernel) {
  TempPath gmt(".gmt"), zst(".gmt.zst"), text(".wtrace");
  written_in_small_blocks(gmt.str(), 4096);
  write_bytes(zst.str(), zstd_frames({read_bytes(gmt.str())}));  // a compressed .gmt
  EXPECT_FALSE(open_trace_reader(zst.str())->share_blocks(0, 2));
  write_bytes(text.str(), "#wtrace 1\n#kernel id=1\n0 LDG 4 - 0 0 1 0x0\n");
  EXPECT_FALSE(open_trace_reader(text.str())->share_blocks(0, 2));
  auto reader = open_trace_reader(gmt.str());
  EXPECT_TRUE(reader->decodes_cheaply());  // loads the first block, share 0's: still fresh
  EXPECT_TRUE(reader->share_blocks(0, 2));
  KernelInfo k;
  ASSERT_TRUE(reader->next_kernel(k));
  EXPECT_FALSE(reader->share_blocks(0, 2));
  EXPECT_FALSE(open_trace_reader(gmt.str())->share_blocks(2, 2));
}

TEST(BinarySharesTest, AFaultIsMetByTheShareThatOwnsItsBlockWithOneReadersMessage) {
  TempPath gmt(".gmt");
  written_in_small_blocks(gmt.str(), 2048);
  std::string bytes = read_bytes(gmt.str());
  // The third block's frame, corrupted: block 3 is share 0's of 2, share 2's of 3.
  std::size_t at = sizeof(GmtFileHeader);
  for (int b = 1; b < 3; ++b) {
    GmtBlockHeader h;
    std::memcpy(&h, bytes.data() + at, sizeof h);
    at += sizeof h + h.compressed_bytes;
  }
  bytes[at + sizeof(GmtBlockHeader) + 20] ^= 0x5a;
  write_bytes(gmt.str(), bytes);
  const std::string one = error_of([&] { read_trace(gmt.str()); });
  GMS_EXPECT_CONTAINS(one, ": corrupt block 3 at byte offset ");
  for (const unsigned shares : {2u, 3u})
    for (unsigned s = 0; s < shares; ++s) {
      auto reader = open_trace_reader(gmt.str());
      ASSERT_TRUE(reader->share_blocks(s, shares));
      std::vector<WarpInstr> buf(64);
      KernelInfo k;
      auto read_all = [&] {
        while (reader->next_kernel(k))
          while (reader->read(buf) != 0) {
          }
      };
      if ((3 - 1) % shares == s)
        EXPECT_EQ(error_of(read_all), one) << "share " << s << " of " << shares;
      else
        read_all();  // the others pass it unread
    }
}

TEST(BinarySharesTest, SkippingAPlainFileSeeksAndAnyOtherReads) {
  TempPath plain(".bin"), zst(".zst");
  std::string bytes(200'000, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7);
  write_bytes(plain.str(), bytes);
  write_bytes(zst.str(), zstd_frames({bytes}));
  for (const std::string& path : {plain.str(), zst.str()}) {
    InputStream in(path);
    EXPECT_EQ(in.peek(10), bytes.substr(0, 10));
    EXPECT_EQ(in.skip(5), 5u);  // within what peek() holds
    char c[3];
    ASSERT_EQ(in.read(c, 3), 3u);
    EXPECT_EQ(std::string(c, 3), bytes.substr(5, 3)) << path;
    EXPECT_EQ(in.skip(150'000), 150'000u);  // past the input chunk
    ASSERT_EQ(in.read(c, 3), 3u);
    EXPECT_EQ(std::string(c, 3), bytes.substr(150'008, 3)) << path;
    EXPECT_EQ(in.skip(100'000), bytes.size() - 150'011) << path;  // stops at the end
    EXPECT_EQ(in.read(c, 3), 0u);
  }
}

}  // namespace
}  // namespace gms::trace::test
