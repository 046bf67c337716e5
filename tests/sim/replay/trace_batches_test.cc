// DirectThenAhead (sim/replay/trace_batches.h) hands out the reader's kernels and records in
// order whether or not, and wherever, it hands the reading to a thread of its own: inside a
// kernel, at a kernel's end, or before the trace's first kernel.
#include "sim/replay/trace_batches.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/trace/io/fake_reader.h"

namespace gms {
namespace {

/// Each kernel's id and its records' inst fields, read from `source`, which is handed to a
/// reading thread just before call `switch_at` of next_kernel or next_batch (counted from 0).
std::vector<std::vector<std::uint32_t>> read_all(DirectThenAhead& source, int switch_at) {
  std::vector<std::vector<std::uint32_t>> kernels;
  int calls = 0;
  auto step = [&] {
    if (calls++ == switch_at) source.read_ahead_now();
  };
  KernelInfo k;
  for (step(); source.next_kernel(k); step()) {
    kernels.push_back({k.id});
    for (step();; step()) {
      const auto batch = source.next_batch();
      if (batch.empty()) break;
      for (const WarpInstr& w : batch) kernels.back().push_back(w.inst);
    }
  }
  return kernels;
}

TEST(DirectThenAheadTest, SameKernelsAndRecordsWhereverTheReadingMoves) {
  test::FakeReader whole(3);
  DirectThenAhead direct(whole, 64, 100, 2, true);
  const auto expected = read_all(direct, -1);
  EXPECT_FALSE(direct.reading_ahead());
  ASSERT_EQ(expected.size(), 3u);
  EXPECT_EQ(expected[2].size(), 1u + 3000u);
  // Kernel 1 is 1000 records in batches of 64: calls 0 (its header) to 17 (its end); call 2
  // is inside it, 17 at its end, 18 the next header, 20 inside kernel 2.
  for (const int at : {0, 1, 2, 16, 17, 18, 20, 60}) {
    test::FakeReader reader(3);
    DirectThenAhead source(reader, 64, 100, 2, true);
    EXPECT_EQ(read_all(source, at), expected) << "reading moved at call " << at;
    EXPECT_TRUE(source.reading_ahead());
  }
  // Where the reading may not move (standard input, a sweep's replays), it stays.
  test::FakeReader reader(3);
  DirectThenAhead stays(reader, 64, 100, 2, false);
  EXPECT_EQ(read_all(stays, 2), expected);
  EXPECT_FALSE(stays.reading_ahead());
}

TEST(DirectThenAheadTest, AReadersErrorAfterTheMoveReachesTheReplay) {
  test::FakeReader reader(2, /*throw_at=*/1500);  // inside kernel 2
  DirectThenAhead source(reader, 64, 100, 2, true);
  KernelInfo k;
  ASSERT_TRUE(source.next_kernel(k));
  ASSERT_EQ(source.next_batch().size(), 64u);
  source.read_ahead_now();
  std::uint64_t seen = 64;
  for (auto b = source.next_batch(); !b.empty(); b = source.next_batch()) seen += b.size();
  EXPECT_EQ(seen, 1000u);
  ASSERT_TRUE(source.next_kernel(k));
  EXPECT_THROW(
      for (auto b = source.next_batch(); !b.empty(); b = source.next_batch()) seen += b.size(),
      std::runtime_error);
}

}  // namespace
}  // namespace gms
