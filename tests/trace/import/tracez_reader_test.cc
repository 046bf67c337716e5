// Accel-Sim 2.0's .tracez (issue 61, part 1): our writer's files read back as the .traceg they
// came from, the layout checked byte by byte, the dictionary case, lists that mix .traceg,
// .traceg.xz and .tracez, a listed file read from its .xz or .zst, and damaged files.
#include <gtest/gtest.h>
#include <zstd.h>

#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"
#include "tests/trace/import/import_test_util.h"
#include "trace/import/accelsim_reader.h"
#include "trace/import/tracez_source.h"
#include "trace/import/tracez_writer.h"

namespace gms::trace::test {
namespace {

std::string tz_fixture() {
  return gms::test::data_path(
      "thirdparty/handwritten_v6_grammar/kernel-1-ctx_0x5612a3b0c2d0.traceg");
}

std::string tz_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::uint32_t tz_u32(const std::string& b, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(b.at(at + i));
  return v;
}

std::uint64_t tz_u64(const std::string& b, std::size_t at) {
  return tz_u32(b, at) | std::uint64_t{tz_u32(b, at + 4)} << 32;
}

void tz_put32(std::string& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.at(at + i) = static_cast<char>((v >> (8 * i)) & 0xff);
}

/// All the text a TracezSource produces.
std::string tz_text(const std::string& path) {
  TracezSource src(path);
  std::string text;
  char buf[1000];  // small: reads cross the sub-chunks
  while (const std::size_t n = src.read(buf, sizeof buf)) text.append(buf, n);
  return text;
}

struct TzRead {
  std::vector<WarpInstr> records;
  ImportCounts counts;
  std::vector<std::string> warnings;
  std::size_t kernels = 0;
};

TzRead tz_read(const std::string& path, bool list) {
  std::unique_ptr<InputStream> in =
      path.ends_with(".tracez") ? open_tracez(path) : std::make_unique<InputStream>(path);
  AccelSimReader r(std::move(in), list, ImportOptions{.quiet = true});
  TzRead out;
  KernelInfo k;
  std::vector<WarpInstr> batch(5);
  while (r.next_kernel(k)) {
    ++out.kernels;
    while (std::size_t n = r.read(batch))
      out.records.insert(out.records.end(), batch.begin(), batch.begin() + n);
  }
  out.counts = r.counts();
  out.warnings = r.warnings();
  return out;
}

TEST(TracezReaderTest, OurWritersFileReadsBackAsTheTraceg) {
  TempDir dir;
  const std::string tz = dir.file("k.tracez");
  const TracezWriteSummary w = write_tracez(tz_fixture(), tz);
  EXPECT_EQ(w.blocks, 2u);
  EXPECT_EQ(w.warps, 4u);
  EXPECT_EQ(w.lines, 48u);                         // 4 warps x 12 lines
  EXPECT_EQ(w.subchunks, 4u);                      // 12 lines fit one sub-chunk of 2048
  EXPECT_EQ(tz_text(tz), tz_bytes(tz_fixture()));  // byte for byte
  const TzRead a = tz_read(tz_fixture(), false), b = tz_read(tz, false);
  ASSERT_EQ(a.records.size(), 8u);
  EXPECT_EQ(b.records, a.records);
  EXPECT_EQ(b.counts, a.counts);
}

TEST(TracezReaderTest, TheLayoutIsTheContainersByteForByte) {
  TempDir dir;
  const std::string tz = dir.file("k.tracez");
  TracezWriteOptions o;
  o.subchunk_insts = 3;
  write_tracez(tz_fixture(), tz, o);
  const std::string b = tz_bytes(tz);
  const std::size_t nul = b.find('\0');
  ASSERT_NE(nul, std::string::npos);
  EXPECT_TRUE(b.starts_with("-kernel name = _Z9v6_gemmaPK6float4PS_\n"));
  EXPECT_TRUE(b.substr(0, nul).ends_with("[src_valX]\n\n"));  // the format line, one blank line
  EXPECT_EQ(tz_u32(b, nul + 1), 0u);                          // no dictionary
  EXPECT_EQ(tz_u32(b, nul + 5), 3u);                          // the sub-chunk target
  const std::uint64_t index = tz_u64(b, b.size() - 8);
  EXPECT_EQ(tz_u32(b, index), 2u);  // blocks
  // Block 1: tb 1,0,0, cluster id 0,0,0, cluster cta 1,0,0, rank 1, 2 warps.
  // Each warp: 16 bytes and 4 sub-chunk counts: 3 lines; then LDG, UTMALDG and REPLAY_START,
  // extended to the REPLAY_END (5 lines); 3; the EXIT (1).
  const std::size_t block0 = index + 4;
  const std::size_t block1 = block0 + 44 + 2 * (16 + 4 * 4);
  const std::uint32_t want1[11] = {1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 2};
  for (int i = 0; i < 11; ++i) EXPECT_EQ(tz_u32(b, block1 + 4 * i), want1[i]) << i;
  const std::size_t warp1 = block1 + 44 + 16 + 4 * 4;  // block 1, warp 1
  EXPECT_EQ(tz_u32(b, warp1), 12u);
  EXPECT_EQ(tz_u32(b, warp1 + 4), 4u);
  const std::uint32_t lines[4] = {3, 5, 3, 1};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(tz_u32(b, warp1 + 16 + 4 * i), lines[i]) << i;
  EXPECT_EQ(block1 + 44 + 2 * (16 + 16), b.size() - 8);  // the index ends at the offset
  // The warp's header at its offset repeats the counts; its second frame decodes to 5 lines.
  const std::uint64_t at = tz_u64(b, warp1 + 8);
  EXPECT_EQ(tz_u32(b, at), 12u);
  EXPECT_EQ(tz_u32(b, at + 4), 4u);
  const std::size_t frame2 = at + 8 + 4 + tz_u32(b, at + 8);
  const std::uint32_t frame2_bytes = tz_u32(b, frame2);
  std::string text(4096, '\0');
  const std::size_t n =
      ZSTD_decompress(text.data(), text.size(), b.data() + frame2 + 4, frame2_bytes);
  ASSERT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
  text.resize(n);
  EXPECT_TRUE(text.starts_with("0030 ffffffff 1 R4 LDG.E.128 2 R2 UR6 16 1 0x7f8200001200 "));
  EXPECT_TRUE(text.ends_with("0070 ffffffff 0 REPLAY_END 0 0 0 0 NoVal"));  // no '\n' after
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4);
  // Read back: the same text.
  EXPECT_EQ(tz_text(tz), tz_bytes(tz_fixture()));
}

TEST(TracezReaderTest, FramesOfADictionaryNeedIt) {
  TempDir dir;
  const std::string tz = dir.file("k.tracez");
  TracezWriteOptions o;
  o.dictionary = "0000 ffffffff 1 R1 MOV 0 0 0 0 NoVal\n0010 ffffffff 1 UR4 S2UR 0 0 0 0 NoVal\n";
  write_tracez(tz_fixture(), tz, o);
  const std::string b = tz_bytes(tz);
  const std::size_t nul = b.find('\0');
  EXPECT_EQ(tz_u32(b, nul + 1), o.dictionary.size());
  EXPECT_EQ(b.substr(nul + 9, o.dictionary.size()), o.dictionary);
  // The first frame does not decode without the dictionary, and does with it.
  const std::uint64_t index = tz_u64(b, b.size() - 8);
  const std::uint64_t warp0 = tz_u64(b, index + 4 + 44 + 8);
  const std::size_t frame = warp0 + 12;
  const std::uint32_t frame_bytes = tz_u32(b, warp0 + 8);
  std::string text(4096, '\0');
  EXPECT_TRUE(
      ZSTD_isError(ZSTD_decompress(text.data(), text.size(), b.data() + frame, frame_bytes)));
  ZSTD_DCtx* d = ZSTD_createDCtx();
  const std::size_t n =
      ZSTD_decompress_usingDict(d, text.data(), text.size(), b.data() + frame, frame_bytes,
                                o.dictionary.data(), o.dictionary.size());
  ZSTD_freeDCtx(d);
  ASSERT_FALSE(ZSTD_isError(n));
  EXPECT_TRUE(text.starts_with("0000 ffffffff 1 R1 MOV 0 0 0 0 NoVal\n"));
  TracezSource src(tz);
  EXPECT_EQ(src.dict_bytes(), o.dictionary.size());
  EXPECT_EQ(tz_text(tz), tz_bytes(tz_fixture()));
}

/// The warnings that say a listed file was read from its compressed copy.
std::vector<std::string> tz_missing_notes(const std::vector<std::string>& warnings) {
  std::vector<std::string> out;
  for (const std::string& w : warnings)
    if (w.find(" is missing: read ") != std::string::npos) out.push_back(w);
  return out;
}

/// The fixture as kernel `id` (a list's kernels need ids of their own).
std::string tz_kernel_text(int id) {
  std::string t = tz_bytes(tz_fixture());
  const std::string from = "-kernel id = 1\n";
  t.replace(t.find(from), from.size(), fmt::format("-kernel id = {}\n", id));
  return t;
}

TEST(TracezReaderTest, AListMixesTracegXzAndTracez) {
  TempDir dir;
  write_bytes(dir.file("kernel-1.traceg"), tz_kernel_text(1));
  write_bytes(dir.file("kernel-2.traceg.xz"), xz_compress(tz_kernel_text(2)));
  write_bytes(dir.file("k3.traceg"), tz_kernel_text(3));
  write_tracez(dir.file("k3.traceg"), dir.file("kernel-3.tracez"));
  write_bytes(dir.file("kernelslist.g"),
              "MemcpyHtoD,0x7f8200000000,8192\nkernel-1.traceg\nkernel-2.traceg.xz\n"
              "kernel-3.tracez\n");
  const TzRead got = tz_read(dir.file("kernelslist.g"), true);
  EXPECT_EQ(got.kernels, 3u);
  ASSERT_EQ(got.records.size(), 24u);  // 8 per kernel
  const std::vector<WarpInstr> one(got.records.begin(), got.records.begin() + 8);
  EXPECT_EQ(std::vector<WarpInstr>(got.records.begin() + 16, got.records.end()), one);
  EXPECT_EQ(got.counts.replay_markers, 24u);
  EXPECT_EQ(tz_missing_notes(got.warnings).size(), 0u);
}

TEST(TracezReaderTest, AMissingListedFileIsReadFromItsXzOrZstOnceSaid) {
  TempDir dir;
  write_bytes(dir.file("kernel-1.traceg.xz"), xz_compress(tz_kernel_text(1)));
  std::string zst(ZSTD_compressBound(tz_kernel_text(2).size()), '\0');
  const std::string two = tz_kernel_text(2);
  zst.resize(ZSTD_compress(zst.data(), zst.size(), two.data(), two.size(), 3));
  write_bytes(dir.file("kernel-2.traceg.zst"), zst);
  write_bytes(dir.file("kernelslist.g"), "kernel-1.traceg\nkernel-2.traceg\n");
  const TzRead got = tz_read(dir.file("kernelslist.g"), true);
  EXPECT_EQ(got.kernels, 2u);
  EXPECT_EQ(got.records.size(), 16u);
  // Said once, for the first (the other warnings are the cluster lines', once per key).
  const std::vector<std::string> notes = tz_missing_notes(got.warnings);
  ASSERT_EQ(notes.size(), 1u);
  GMS_EXPECT_CONTAINS(notes[0], "kernelslist.g:1: " + dir.file("kernel-1.traceg") +
                                    " is missing: read " + dir.file("kernel-1.traceg.xz"));
  // Neither there: the error it always was, naming the list line.
  write_bytes(dir.file("kernelslist.g"), "kernel-1.traceg\nkernel-9.traceg\n");
  GMS_EXPECT_CONTAINS(error_of([&] { tz_read(dir.file("kernelslist.g"), true); }),
                      "kernelslist.g:2: " + dir.file("kernel-9.traceg") + ": cannot open");
}

/// The error reading `bytes` as a .tracez.
std::string tz_damaged(const std::string& bytes) {
  TempDir dir;
  write_bytes(dir.file("bad.tracez"), bytes);
  return error_of([&] { tz_read(dir.file("bad.tracez"), false); });
}

TEST(TracezReaderTest, ADamagedFileIsOneErrorNamingKernelBlockAndWarp) {
  TempDir dir;
  write_tracez(tz_fixture(), dir.file("k.tracez"));
  const std::string good = tz_bytes(dir.file("k.tracez"));
  const std::string kernel = ": kernel 1 (_Z9v6_gemmaPK6float4PS_)";
  const std::uint64_t index = tz_u64(good, good.size() - 8);
  const std::size_t warp1 = index + 4 + 44 + 16 + 4;  // block 0, warp 1 (one sub-chunk each)
  {                                                   // The index offset past the end.
    std::string b = good;
    tz_put32(b, b.size() - 8, static_cast<std::uint32_t>(b.size()));
    GMS_EXPECT_CONTAINS(tz_damaged(b), kernel + ": index offset " + std::to_string(b.size()) +
                                           " is outside the file's data");
  }
  {  // A warp's offset moved by a byte.
    std::string b = good;
    tz_put32(b, warp1 + 8, static_cast<std::uint32_t>(tz_u64(good, warp1 + 8) + 1));
    GMS_EXPECT_CONTAINS(tz_damaged(b),
                        kernel + ", block (0,0,0), warp 1: the warp's header at byte");
  }
  {  // A frame's magic number broken.
    std::string b = good;
    b[tz_u64(good, warp1 + 8) + 12] ^= 0x55;
    GMS_EXPECT_CONTAINS(tz_damaged(b),
                        kernel + ", block (0,0,0), warp 1: sub-chunk 0: corrupt zstd frame");
  }
  {  // A line count the frame does not hold (both counts of the index, so they still agree).
    std::string b = good;
    tz_put32(b, warp1, 13);
    tz_put32(b, warp1 + 16, 13);
    GMS_EXPECT_CONTAINS(tz_damaged(b), kernel + ", block (0,0,0), warp 1: the warp's header");
    const std::uint64_t at = tz_u64(good, warp1 + 8);
    tz_put32(b, at, 13);  // and the warp's header too: the frame alone disagrees
    GMS_EXPECT_CONTAINS(tz_damaged(b), kernel +
                                           ", block (0,0,0), warp 1: sub-chunk 0 holds 12 lines, "
                                           "the index says 13");
  }
  {  // A block count the index cannot hold.
    std::string b = good;
    tz_put32(b, index, 1000000);
    GMS_EXPECT_CONTAINS(tz_damaged(b), kernel + ": the index counts 1000000 blocks");
  }
  // Cut short: the last 8 bytes are no longer the index offset.
  GMS_EXPECT_CONTAINS(tz_damaged(good.substr(0, good.size() - 20)), kernel + ": index offset");
  // No NUL after a header: not a .tracez at all.
  GMS_EXPECT_CONTAINS(tz_damaged("-kernel name = k\n-kernel id = 1\nmore text"),
                      "no NUL byte ends the kernel header");
}

TEST(TracezReaderTest, TheCommandLineSaysWhatIsDamagedAndFails) {
  TempDir dir;
  write_tracez(tz_fixture(), dir.file("k.tracez"));
  std::string b = tz_bytes(dir.file("k.tracez"));
  const std::uint64_t index = tz_u64(b, b.size() - 8);
  b[tz_u64(b, index + 4 + 44 + 8) + 12] ^= 0x55;  // block 0, warp 0's frame
  write_bytes(dir.file("bad.tracez"), b);
  const auto r = gms::test::run_cli("run " + dir.file("bad.tracez"));
  EXPECT_NE(r.status, 0);
  GMS_EXPECT_CONTAINS(r.err, dir.file("bad.tracez") +
                                 ": kernel 1 (_Z9v6_gemmaPK6float4PS_), block (0,0,0), warp 0: "
                                 "sub-chunk 0: corrupt zstd frame");
}

}  // namespace
}  // namespace gms::trace::test
