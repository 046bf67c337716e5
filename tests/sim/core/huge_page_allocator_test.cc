// The allocator of the fast engine's window buffers: blocks of 2 MiB and more start on a 2 MiB
// boundary (so a huge page can back them), smaller ones come from the heap, and a vector keeps
// its elements as it grows from one kind of block to the other and back (the sanitizer build
// checks that each block goes back to where it came from).
#include "sim/core/huge_page_allocator.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gms {
namespace {

constexpr std::size_t kHuge = std::size_t{2} << 20;

std::uintptr_t at(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p);
}

TEST(HugePageAllocatorTest, LargeBlocksStartOnAHugePageAndSmallOnesComeFromTheHeap) {
  HugePageAllocator<std::uint64_t> alloc;
  const std::size_t large = kHuge / sizeof(std::uint64_t) + 3;  // just over one huge page
  std::uint64_t* p = alloc.allocate(large);
  EXPECT_EQ(at(p) % kHuge, 0u);
  p[0] = 1;
  p[large - 1] = 2;  // the block reaches past the first huge page
  EXPECT_EQ(p[0] + p[large - 1], 3u);
  alloc.deallocate(p, large);

  // One element short of a huge page: the heap's block, however it is aligned.
  const std::size_t small = kHuge / sizeof(std::uint64_t) - 1;
  std::uint64_t* q = alloc.allocate(small);
  q[small - 1] = 5;
  EXPECT_EQ(q[small - 1], 5u);
  alloc.deallocate(q, small);
}

TEST(HugePageAllocatorTest, AVectorKeepsItsElementsAcrossBothKindsOfBlock) {
  std::vector<std::uint32_t, HugePageAllocator<std::uint32_t>> v;
  const std::size_t n = kHuge / sizeof(std::uint32_t) * 3;  // three huge pages' worth
  for (std::size_t i = 0; i < n; ++i) v.push_back(static_cast<std::uint32_t>(i * 7));
  EXPECT_EQ(at(v.data()) % kHuge, 0u);
  for (std::size_t i = 0; i < n; i += 4099) ASSERT_EQ(v[i], i * 7) << i;
  v.resize(10);
  v.shrink_to_fit();  // back to a heap block
  EXPECT_EQ(v[9], 63u);
}

}  // namespace
}  // namespace gms
