// trace::ReadAhead hands out exactly the inner reader's kernels and records, in order, skips
// what the replay does not read, rethrows the reader's error where the replay reaches it, and
// can be abandoned at any point without hanging.
#include "trace/io/read_ahead.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "tests/trace/io/fake_reader.h"

namespace gms::trace {
namespace {

using gms::test::FakeReader;

TEST(ReadAheadTest, SameKernelsAndRecordsInOrder) {
  FakeReader inner(5);
  ReadAhead ahead(inner, 64, 2);
  KernelInfo k;
  std::uint32_t kernels = 0;
  while (ahead.next_kernel(k)) {
    ++kernels;
    EXPECT_EQ(k.id, kernels);
    std::uint32_t expect = 0;
    for (auto batch = ahead.next_batch(); !batch.empty(); batch = ahead.next_batch())
      for (const WarpInstr& w : batch) ASSERT_EQ(w.inst, expect++);
    EXPECT_EQ(expect, kernels * 1000u);
    EXPECT_TRUE(ahead.next_batch().empty());  // stays at the kernel's end
  }
  EXPECT_EQ(kernels, 5u);
  EXPECT_FALSE(ahead.next_kernel(k));
}

TEST(ReadAheadTest, UnreadRecordsOfAKernelAreSkipped) {
  FakeReader inner(4);
  ReadAhead ahead(inner, 100, 3);
  KernelInfo k;
  std::vector<std::uint32_t> ids;
  while (ahead.next_kernel(k)) {
    ids.push_back(k.id);
    if (k.id == 2) {
      ASSERT_EQ(ahead.next_batch().size(), 100u);  // read one batch of kernel 2
    }
  }
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{1, 2, 3, 4}));
}

TEST(ReadAheadTest, ReaderErrorsAreRethrownWhereTheReplayReachesThem) {
  FakeReader inner(3, /*throw_at=*/1500);  // inside kernel 2 (records 1000..2999)
  ReadAhead ahead(inner, 64, 2);
  KernelInfo k;
  ASSERT_TRUE(ahead.next_kernel(k));
  std::uint64_t seen = 0;
  for (auto b = ahead.next_batch(); !b.empty(); b = ahead.next_batch()) seen += b.size();
  EXPECT_EQ(seen, 1000u);
  ASSERT_TRUE(ahead.next_kernel(k));
  try {
    for (auto b = ahead.next_batch(); !b.empty(); b = ahead.next_batch()) seen += b.size();
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "bad record 1500");
  }
  EXPECT_EQ(seen, 1000u + 448u);  // the seven whole batches before the bad record
  EXPECT_FALSE(ahead.next_kernel(k));
}

TEST(ReadAheadTest, AbandonedEarlyWithoutHanging) {
  for (int round = 0; round < 50; ++round) {
    FakeReader inner(20);
    ReadAhead ahead(inner, 16, 1);
    KernelInfo k;
    ASSERT_TRUE(ahead.next_kernel(k));
    if (round % 2) ahead.next_batch();
  }  // the destructor stops a producer blocked on the full queue
}

}  // namespace
}  // namespace gms::trace
