// Every wtrace v1 error of the README's list: a SimError naming the file and the line.
#include <gtest/gtest.h>

#include "tests/trace/trace_test_util.h"

namespace gms::trace::test {
namespace {

constexpr const char* kHead = "#wtrace 1\n#kernel id=1\n";  // records start at line 3

/// Expects reading kHead + `records` to fail at `line` with `message`.
void expect_record_error(const std::string& records, int line, const std::string& message) {
  std::string path;
  std::string msg = text_error(kHead + records, path);
  GMS_EXPECT_CONTAINS(msg, fmt::format("{}:{}: {}", path, line, message));
}

TEST(TextReaderErrorTest, UnknownOp) {
  expect_record_error("0 LDX 4 - 0 0 00000001 0x10\n", 3, "unknown op 'LDX'");
}

TEST(TextReaderErrorTest, LowercaseOpIsUnknown) {
  expect_record_error("0 LDG 4 - 0 0 00000001 0x10\n0 ldg 4 - 0 0 00000001 0x10\n", 4,
                      "unknown op 'ldg'");
}

TEST(TextReaderErrorTest, SizeNotInList) {
  expect_record_error("0 LDG 3 - 0 0 00000001 0x10\n", 3, "bad access size '3'");
  expect_record_error("0 LDG 32 - 0 0 00000001 0x10\n", 3, "bad access size '32'");
}

TEST(TextReaderErrorTest, ZeroMask) {
  expect_record_error("0 LDG 4 - 0 0 00000000 @0x10:4\n", 3, "mask is 00000000");
}

TEST(TextReaderErrorTest, BadMaskDigits) {
  expect_record_error("0 LDG 4 - 0 0 fff 0x10\n", 3, "bad mask 'fff' (expected 8 hex digits)");
}

TEST(TextReaderErrorTest, AddressListShorterThanMask) {
  expect_record_error("0 LDG 4 - 0 0 00000007 0x10,0x14\n", 3,
                      "address list has 2 addresses but mask 00000007 has 3 active lanes");
}

TEST(TextReaderErrorTest, AddressListLongerThanMask) {
  expect_record_error("0 LDG 4 - 0 0 00000001 0x10,0x14\n", 3,
                      "address list has 2 addresses but mask 00000001 has 1 active lane");
}

TEST(TextReaderErrorTest, RecordBeforeKernel) {
  std::string path;
  std::string msg = text_error("#wtrace 1\n# c\n0 LDG 4 - 0 0 00000001 0x10\n", path);
  GMS_EXPECT_CONTAINS(msg, path + ":3: record before any #kernel line");
}

TEST(TextReaderErrorTest, DuplicateKernelId) {
  std::string path;
  std::string msg = text_error("#wtrace 1\n#kernel id=7\n#kernel id=8\n\n#kernel id=7\n", path);
  GMS_EXPECT_CONTAINS(msg, path + ":5: duplicate kernel id 7");
}

TEST(TextReaderErrorTest, NonHexAddress) {
  expect_record_error("0 LDG 4 - 0 0 00000003 0x10,0x1g\n", 3, "non-hex address '0x1g'");
  expect_record_error("0 LDG 4 - 0 0 00000001 16\n", 3, "non-hex address '16'");
  expect_record_error("0 LDG 4 - 0 0 00000001 @zz:4\n", 3, "non-hex address 'zz'");
}

TEST(TextReaderErrorTest, AddressWiderThan64Bits) {
  expect_record_error("0 LDG 4 - 0 0 00000001 0x10000000000000000\n", 3,
                      "address '0x10000000000000000' does not fit in 64 bits");
}

TEST(TextReaderErrorTest, StridedLaneOverflows64Bits) {
  expect_record_error("0 LDG 4 - 0 0 80000000 @0xfffffffffffffff0:4\n", 3,
                      "address of lane 31 in '@0xfffffffffffffff0:4' overflows 64 bits");
  expect_record_error("0 LDG 4 - 0 0 00000002 @0x2:-4\n", 3, "address of lane 1");
}

TEST(TextReaderErrorTest, MissingMagicLine) {
  std::string path;
  std::string msg = text_error("#kernel id=1\n", path);
  GMS_EXPECT_CONTAINS(msg, path + ":1: missing '#wtrace 1' magic line");
  msg = text_error("", path);
  GMS_EXPECT_CONTAINS(msg, path + ":1: missing '#wtrace 1' magic line");
}

TEST(TextReaderErrorTest, FutureVersion) {
  std::string path;
  std::string msg = text_error("#wtrace 2\n#kernel id=1\n", path);
  GMS_EXPECT_CONTAINS(msg, path + ":1: unsupported wtrace version 2 (reads 1)");
}

TEST(TextReaderErrorTest, TruncatedZstdStream) {
  std::string text = "#wtrace 1\n#kernel id=1\n";
  for (int i = 0; i < 2000; ++i)
    text += fmt::format("{} LDG 4 - 0 {} ffffffff @0x{:x}:4\n", i % 7, i, i * 128);
  std::string z = zstd_frames({text});
  TempPath p(".wtrace.zst");
  write_bytes(p.str(), z.substr(0, z.size() / 2));
  std::string msg = error_of([&] { read_trace(p.str()); });
  GMS_EXPECT_CONTAINS(msg, p.str() + ":");
  GMS_EXPECT_CONTAINS(msg, ": truncated zstd stream");
  // The line number is that of the line being read when the stream ended.
  EXPECT_NE(msg.find_first_of("0123456789", p.str().size()), std::string::npos);
}

TEST(TextReaderErrorTest, KernelLineWithoutId) {
  std::string path;
  std::string msg = text_error("#wtrace 1\n#kernel name=x\n", path);
  GMS_EXPECT_CONTAINS(msg, path + ":2: #kernel line without the required id=N");
}

TEST(TextReaderErrorTest, KernelLineBadFields) {
  std::string path;
  GMS_EXPECT_CONTAINS(text_error("#wtrace 1\n#kernel id=x\n", path),
                      path + ":2: bad kernel id 'x'");
  GMS_EXPECT_CONTAINS(text_error("#wtrace 1\n#kernel id=1 grid=1,2\n", path),
                      path + ":2: bad grid '1,2' (expected X,Y,Z decimal integers)");
  GMS_EXPECT_CONTAINS(text_error("#wtrace 1\n#kernel id=1 shmem=lots\n", path),
                      path + ":2: bad shmem 'lots'");
  GMS_EXPECT_CONTAINS(text_error("#wtrace 1\n#kernel id=1 loose\n", path),
                      path + ":2: bad #kernel field 'loose' (expected key=value)");
}

TEST(TextReaderErrorTest, NonNumericFields) {
  expect_record_error("x LDG 4 - 0 0 00000001 0x10\n", 3, "bad instruction id 'x'");
  expect_record_error("0 LDG 4 s1 0 0 00000001 0x10\n", 3, "bad sm 's1'");
  expect_record_error("0 LDG 4 - -1 0 00000001 0x10\n", 3, "bad cta '-1'");
  expect_record_error("0 LDG 4 - 0 1.5 00000001 0x10\n", 3, "bad warp '1.5'");
  expect_record_error("0 LDG 4 - 0 0 00000001 @0x10:four\n", 3, "bad stride in '@0x10:four'");
}

TEST(TextReaderErrorTest, MissingFields) {
  expect_record_error("0 LDG 4 - 0 0 00000001\n", 3, "record lacks field 'addrs' (has 7 of 8");
}

TEST(TextReaderErrorTest, TrailingGarbage) {
  expect_record_error("0 LDG 4 - 0 0 00000001 0x10 extra\n", 3,
                      "unexpected text 'extra' after the addresses");
  expect_record_error("0 LDG 4 - 0 0 00000001 0x10,\n", 3, "non-hex address ''");
  expect_record_error("0 LDG 4 - 0 0 00000001 0x10 +3 extra\n", 3,
                      "unexpected text 'extra' after the addresses");
}

TEST(TextReaderErrorTest, BadFieldsAfterTheAddresses) {
  // +N (instructions before the record), then ^K (the load it waits for).
  for (const char* bad :
       {"+", "+x", "+-1", "+4294967296", "+1.5", "^", "^0", "^x", "^-1", "^4294967296"})
    expect_record_error(fmt::format("0 LDG 4 - 0 0 00000001 0x10 {}\n", bad), 3,
                        bad[0] == '+' ? fmt::format("bad instruction count '{}' (expected +N", bad)
                                      : fmt::format("bad load dependency '{}' (expected ^K", bad));
  expect_record_error("0 LDG 4 - 0 0 00000001 0x10 ^1 +2\n", 3,
                      "unexpected text '+2' after the addresses");
}

}  // namespace
}  // namespace gms::trace::test
