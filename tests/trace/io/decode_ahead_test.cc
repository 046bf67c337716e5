// trace::DecodeAhead hands out exactly its source's bytes, in order, whatever the read sizes;
// rethrows the source's exception (its type kept) where the reader reaches it, and on every later
// read; and can be abandoned at any point without hanging. InputStream::decode_ahead reads a
// zstd stream to the same bytes and the same truncation error as reading it in place.
#include "trace/io/decode_ahead.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/trace/trace_test_util.h"
#include "trace/io/zstd_stream.h"

namespace gms::trace {
namespace {

/// Byte i of the test stream.
char byte_at(std::size_t i) {
  return static_cast<char>((i * 2654435761u) >> 13);
}

/// A source of `total` bytes (byte_at) that throws StreamError("src", "cut") once `throw_at`
/// bytes were handed out, if that comes first.
DecodeAhead::Source counting_source(std::size_t total, std::size_t throw_at = ~std::size_t{0}) {
  auto pos = std::make_shared<std::size_t>(0);
  return [=](char* dst, std::size_t n) {
    std::size_t k = 0;
    for (; k < n && *pos < total; ++k, ++*pos) {
      if (*pos == throw_at) throw StreamError("src", "cut");
      dst[k] = byte_at(*pos);
    }
    return k;
  };
}

TEST(DecodeAheadTest, SameBytesForAnyReadSize) {
  for (const std::size_t total :
       {std::size_t{0}, std::size_t{1000}, std::size_t{4096}, std::size_t{100003}}) {
    for (const std::size_t step : {std::size_t{1}, std::size_t{7}, std::size_t{5000}}) {
      DecodeAhead ahead(counting_source(total), 1024, 2);
      std::vector<char> buf(step);
      std::size_t at = 0;
      while (const std::size_t n = ahead.read(buf.data(), buf.size())) {
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(buf[i], byte_at(at + i)) << at + i;
        at += n;
        if (at < total) {
          ASSERT_EQ(n, step);  // short only at the end
        }
      }
      EXPECT_EQ(at, total);
      EXPECT_EQ(ahead.read(buf.data(), buf.size()), 0u);  // and stays at the end
    }
  }
}

TEST(DecodeAheadTest, ErrorComesWhereTheReaderReachesIt) {
  // Chunks of 1000 bytes; the source throws at byte 3500, inside the fourth chunk, whose bytes
  // are lost with the error: 3000 bytes come out (six reads of 500), then the StreamError, then
  // it again. (A read that spans the end of the good bytes throws too, as InputStream::read does.)
  DecodeAhead ahead(counting_source(10000, 3500), 1000, 2);
  std::vector<char> buf(500);
  std::size_t at = 0;
  std::string what;
  try {
    while (const std::size_t n = ahead.read(buf.data(), buf.size())) at += n;
  } catch (const StreamError& e) {
    what = e.what();
  }
  EXPECT_EQ(at, 3000u);
  EXPECT_EQ(what, "src: cut");
  EXPECT_THROW(ahead.read(buf.data(), buf.size()), StreamError);
}

TEST(DecodeAheadTest, AbandonedAtAnyPointWithoutHanging) {
  for (const std::size_t read_first : {std::size_t{0}, std::size_t{1}, std::size_t{5000}}) {
    DecodeAhead ahead(counting_source(~std::size_t{0}), 512, 3);  // endless
    std::vector<char> buf(read_first);
    if (read_first != 0) {
      EXPECT_EQ(ahead.read(buf.data(), buf.size()), read_first);
    }
  }  // each destructor stops a worker that waits for room
  SUCCEED();
}

TEST(DecodeAheadTest, InputStreamReadsTheSameAhead) {
  std::string big(3 << 20, '\0');
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = byte_at(i);
  test::TempPath p(".zst");
  test::write_bytes(p.str(), test::zstd_frames({big.substr(0, 1 << 20), big.substr(1 << 20)}));
  for (const bool peek : {false, true}) {
    InputStream in(p.str());
    if (peek) {
      EXPECT_EQ(in.peek(5), big.substr(0, 5));
    }
    in.decode_ahead();
    std::string got;
    std::vector<char> buf(77777);
    while (const std::size_t n = in.read(buf.data(), buf.size())) got.append(buf.data(), n);
    EXPECT_TRUE(got == big);
  }
  // A cut stream: the same error as without the worker.
  const std::string z = test::zstd_frames({big});
  test::write_bytes(p.str(), z.substr(0, z.size() - 1));
  InputStream in(p.str());
  in.decode_ahead();
  std::vector<char> buf(1 << 16);
  const std::string msg = test::error_of([&] {
    while (in.read(buf.data(), buf.size()) != 0) {
    }
  });
  EXPECT_EQ(msg, p.str() + ": truncated zstd stream");
}

}  // namespace
}  // namespace gms::trace
