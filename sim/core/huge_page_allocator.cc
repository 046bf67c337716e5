#include "sim/core/huge_page_allocator.h"

#include <sys/mman.h>

#include <cstdlib>
#include <new>

namespace gms::detail {

void* huge_page_allocate(std::size_t bytes) {
  const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* p = std::aligned_alloc(kHugePageBytes, rounded);
  if (p == nullptr) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  ::madvise(p, rounded, MADV_HUGEPAGE);  // a hint: without THP it fails, harmlessly
#endif
  return p;
}

void huge_page_deallocate(void* p) noexcept {
  std::free(p);
}

}  // namespace gms::detail
