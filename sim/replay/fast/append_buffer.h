#pragma once
/// A vector that only grows at its end and is cleared whole, whose append is a compare and a
/// store inlined into the caller. The L1 stage appends every L2 access it queues (one or more
/// per record): std::vector::push_back, with its reallocation path beside it, was kept out of
/// line there, a call per access (2% of a cached stream's instructions under callgrind).

#include <cstddef>
#include <vector>

#include "sim/core/huge_page_allocator.h"

namespace gms {

template <class T>
class AppendBuffer {
 public:
  [[gnu::always_inline]] void push_back(const T& x) {
    if (size_ == items_.size()) [[unlikely]]
      grow();
    items_[size_++] = x;
  }
  void clear() { size_ = 0; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](std::size_t i) const { return items_[i]; }
  const T& back() const { return items_[size_ - 1]; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + size_; }

 private:
  [[gnu::noinline]] void grow() { items_.resize(items_.empty() ? 256 : 2 * items_.size()); }

  /// [0, size_) appended; the rest room to grow into (on huge pages once 2 MiB or more)
  std::vector<T, HugePageAllocator<T>> items_;
  std::size_t size_ = 0;
};

}  // namespace gms
