// Format detection by content and writer choice by extension.
#include <gtest/gtest.h>

#include "tests/trace/trace_test_util.h"
#include "trace/io/zstd_stream.h"

namespace gms::trace::test {
namespace {

constexpr const char* kText = "#wtrace 1\n#kernel id=1\n0 LDG 4 - 0 0 00000001 0x10\n";

TEST(TraceFormatsTest, DetectsFormatFromContentNotName) {
  Trace expected = parse_text(kText);
  TempPath odd(".dat");
  write_bytes(odd.str(), zstd_frames({kText}));
  EXPECT_EQ(read_trace(odd.str()), expected);
  TempPath gmt(".gmt"), gmt_named_text(".wtrace");
  write_trace(gmt.str(), expected);
  std::filesystem::copy_file(gmt.str(), gmt_named_text.str(),
                             std::filesystem::copy_options::overwrite_existing);
  EXPECT_EQ(read_trace(gmt_named_text.str()), expected);
}

TEST(TraceFormatsTest, UnknownExtensionIsAnError) {
  GMS_EXPECT_CONTAINS(error_of([] { open_trace_writer("/tmp/x.trace"); }),
                      "/tmp/x.trace: unknown trace file extension");
}

TEST(TraceFormatsTest, UnopenableFilesAreErrors) {
  GMS_EXPECT_CONTAINS(error_of([] { open_trace_reader("/nonexistent/dir/a.wtrace"); }),
                      "/nonexistent/dir/a.wtrace: cannot open for reading");
  GMS_EXPECT_CONTAINS(error_of([] { open_trace_writer("/nonexistent/dir/a.gmt"); }),
                      "/nonexistent/dir/a.gmt: cannot open for writing");
}

TEST(ZstdStreamTest, PeekDoesNotConsume) {
  TempPath p(".zst");
  write_bytes(p.str(), zstd_frames({"hello ", "world"}));
  InputStream in(p.str());
  EXPECT_TRUE(in.compressed());
  EXPECT_EQ(in.peek(3), "hel");
  char buf[32];
  std::size_t n = in.read(buf, sizeof buf);
  EXPECT_EQ(std::string(buf, n), "hello world");
  EXPECT_EQ(in.read(buf, sizeof buf), 0u);
}

TEST(ZstdStreamTest, TruncatedStreamRaises) {
  std::string big(1 << 20, '\0');
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>((i * 2654435761u) >> 13);
  std::string z = zstd_frames({big});
  TempPath p(".zst");
  write_bytes(p.str(), z.substr(0, z.size() - 1));
  InputStream in(p.str());
  std::vector<char> buf(1 << 16);
  std::string msg = error_of([&] {
    while (in.read(buf.data(), buf.size()) != 0) {
    }
  });
  EXPECT_EQ(msg, p.str() + ": truncated zstd stream");
}

TEST(ZstdStreamTest, GarbageAfterFrameIsCorrupt) {
  TempPath p(".zst");
  write_bytes(p.str(), zstd_frames({"abc"}) + "junk");
  InputStream in(p.str());
  char buf[16];
  GMS_EXPECT_CONTAINS(error_of([&] { in.read(buf, sizeof buf); }), ": corrupt zstd stream");
}

TEST(ZstdStreamTest, OutputRoundTripsPlainAndCompressed) {
  for (bool zstd : {false, true}) {
    TempPath p(".bin");
    std::string data(700'000, 'x');
    for (std::size_t i = 0; i < data.size(); i += 7) data[i] = static_cast<char>(i);
    OutputStream out(p.str(), zstd);
    out.write(data.data(), 1);
    out.write(data.data() + 1, data.size() - 1);
    out.finish();
    InputStream in(p.str());
    EXPECT_EQ(in.compressed(), zstd);
    std::string back(data.size() + 10, '\0');
    back.resize(in.read(back.data(), back.size()));
    EXPECT_EQ(back, data);
  }
}

}  // namespace
}  // namespace gms::trace::test
