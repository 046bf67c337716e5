// LineReader (trace/io/line_reader.h): append_through takes what next() would return line by
// line, up to the first line that starts with a prefix after blanks, across refills of the
// buffer; a reader of memory numbers its lines from where they were cut and ends with the error
// of the stream they were cut from.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tests/trace/trace_test_util.h"
#include "trace/io/line_reader.h"
#include "trace/io/zstd_stream.h"

namespace gms::trace::test {
namespace {

/// The lines `text` holds as next() returns them, each followed by '\n'.
std::string lines_by_next(detail::LineReader& r, std::uint64_t& count) {
  std::string out;
  std::string_view line;
  while (r.next(line)) {
    out.append(line);
    out += '\n';
  }
  count = r.line_no();
  return out;
}

std::string strip_cr(std::string s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (!(s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n')) out += s[i];
  return out;
}

TEST(LineReaderTest, AppendThroughStopsAtTheLineThatStartsWithThePrefix) {
  TempPath p(".txt");
  // A prefix inside a line does not count; one after blanks does; long lines make it refill.
  const std::string filler(70000, 'x');
  const std::string text = "a\nb #END no\n" + filler + "\n \t#END_TB yes\r\nc\n#END_TB\nlast";
  write_bytes(p.str(), text);
  InputStream in(p.str());
  detail::LineReader r(in);
  std::vector<char> out;
  ASSERT_TRUE(r.append_through("#END", out));
  EXPECT_EQ(std::string(out.begin(), out.end()),
            "a\nb #END no\n" + filler + "\n \t#END_TB yes\r\n");
  EXPECT_EQ(r.line_no(), 4u);
  out.clear();
  ASSERT_TRUE(r.append_through("#END_TB", out));
  EXPECT_EQ(std::string(out.begin(), out.end()), "c\n#END_TB\n");
  EXPECT_EQ(r.line_no(), 6u);
  out.clear();
  EXPECT_FALSE(r.append_through("#END_TB", out));  // none: to the end, the last line closed
  EXPECT_EQ(std::string(out.begin(), out.end()), "last\n");
  EXPECT_EQ(r.line_no(), 7u);

  // What it took reads back, line by line, as the file does.
  InputStream again(p.str());
  detail::LineReader whole(again);
  std::uint64_t n = 0;
  const std::string expected = lines_by_next(whole, n);
  InputStream third(p.str());
  detail::LineReader bulk(third);
  std::vector<char> all;
  while (bulk.append_through("#END_TB", all)) {
  }
  detail::LineReader memory;
  memory.take_text(all, 0);
  std::uint64_t m = 0;
  EXPECT_EQ(lines_by_next(memory, m), expected);
  EXPECT_EQ(m, n);
  EXPECT_EQ(strip_cr(text + "\n"), expected);
}

TEST(LineReaderTest, AMemoryReaderNumbersFromItsCutAndEndsWithTheStreamsError) {
  std::vector<char> text{'x', '\n', 'y', '\n'};
  detail::LineReader r;
  r.take_text(text, 41, std::make_exception_ptr(std::runtime_error("cut")));
  std::string_view line;
  ASSERT_TRUE(r.next(line));
  EXPECT_EQ(line, "x");
  EXPECT_EQ(r.line_no(), 42u);
  ASSERT_TRUE(r.next(line));
  EXPECT_EQ(r.line_no(), 43u);
  EXPECT_THROW(r.next(line), std::runtime_error);
}

}  // namespace
}  // namespace gms::trace::test
