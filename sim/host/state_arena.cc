#include "sim/host/state_arena.h"

#include "sim/core/huge_page_allocator.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace gms {

namespace {

using detail::kHugePageBytes;
constexpr std::size_t kAlign = 64;  // a host cache line

}  // namespace

StateArena::StateArena(std::size_t capacity_bytes) {
  const std::size_t size = (std::max<std::size_t>(capacity_bytes, 1) + kHugePageBytes - 1) /
                           kHugePageBytes * kHugePageBytes;
  // One huge page more than needed, trimmed at both ends to 2 MiB boundaries.
  void* raw = ::mmap(nullptr, size + kHugePageBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return;  // an arena of capacity 0: everything goes to the heap
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  if (aligned > start) ::munmap(raw, aligned - start);
  const std::uintptr_t end = start + size + kHugePageBytes;
  if (end > aligned + size) ::munmap(reinterpret_cast<void*>(aligned + size), end - aligned - size);
  base_ = reinterpret_cast<char*>(aligned);
  capacity_ = size;
#ifdef MADV_HUGEPAGE
  ::madvise(base_, capacity_, MADV_HUGEPAGE);  // a hint: without THP it fails, harmlessly
#endif
  register_memory();
}

StateArena::~StateArena() {
  if (base_ == nullptr) return;
  unregister_memory();
  ::munmap(base_, capacity_);
}

void* StateArena::take(std::size_t bytes) {
  const std::size_t rounded = (bytes + kAlign - 1) / kAlign * kAlign;
  if (rounded > capacity_ - used_) {
    overflowed_ = true;
    return nullptr;
  }
  char* p = base_ + used_;
  // Fresh pages of the mapping are zero; what an earlier use left before a rewind is cleared.
  if (used_ < dirty_end_) std::memset(p, 0, std::min(rounded, dirty_end_ - used_));
  used_ += rounded;
  return p;
}

bool StateArena::contains(const void* p) const {
  const char* c = static_cast<const char*>(p);
  return base_ != nullptr && c >= base_ && c < base_ + capacity_;
}

}  // namespace gms
