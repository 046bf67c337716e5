#pragma once
/// An allocator for large buffers that are refilled again and again (the fast engine's L2 queues
/// and the slice groups they are sorted into, window after window; the read-ahead's batches): a
/// block of 2 MiB or more is aligned to 2 MiB and marked for transparent huge pages, so that its
/// first use takes a page fault per 2 MiB rather than per 4 KiB. On a VM a fault is dear: a
/// cached stream replayed by the two-worker pipeline took 18,000 faults against 2,600 on one
/// worker, most of them in these buffers (bench/RESULTS.md). Smaller blocks come from the heap
/// as usual; where the kernel gives no huge pages the hint changes nothing.

#include <cstddef>
#include <memory>

namespace gms {

namespace detail {
inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
/// `bytes` (at least kHugePageBytes) rounded up to whole huge pages, marked for them.
void* huge_page_allocate(std::size_t bytes);
void huge_page_deallocate(void* p) noexcept;
}  // namespace detail

template <class T>
struct HugePageAllocator {
  using value_type = T;

  HugePageAllocator() = default;
  template <class U>
  explicit HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (huge(n)) return static_cast<T*>(detail::huge_page_allocate(n * sizeof(T)));
    return std::allocator<T>{}.allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (huge(n))
      detail::huge_page_deallocate(p);
    else
      std::allocator<T>{}.deallocate(p, n);
  }

  friend bool operator==(const HugePageAllocator&, const HugePageAllocator&) { return true; }

 private:
  static bool huge(std::size_t n) { return n >= detail::kHugePageBytes / sizeof(T); }
};

}  // namespace gms
