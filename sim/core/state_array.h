#pragma once
/// A cache's per-line or per-set array of plain values (tags, masks, fill counts, replacement
/// state) in the state memory of StateVector (sim/core/state_vector.h: the huge-page arena a
/// cache is built in, else the heap), sized once and zero-filled by that memory. Unlike a
/// std::vector with a custom allocator it never visits its elements to construct or destroy
/// them: built at -O1 or -O0 (the test files, the sanitizer build), a std::vector walked every
/// element of a 126 MiB L2's arrays doing nothing each time it was made or freed, most of the
/// time of a small replay there.

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

#include "sim/core/state_vector.h"

namespace gms {

template <class T>
class StateArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "StateArray holds plain values: zero bytes are a fresh element");

 public:
  StateArray() = default;
  explicit StateArray(std::size_t n) { resize(n); }
  StateArray(const StateArray& o) : StateArray(o.size_) {
    if (size_ != 0) std::memcpy(data_, o.data_, size_ * sizeof(T));
  }
  StateArray(StateArray&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  StateArray& operator=(StateArray o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  ~StateArray() { release(); }

  /// Makes the array `n` elements of zero bytes, taken from the thread's current state memory;
  /// what it held is dropped. Pages the caller never writes stay untouched (a fresh mapping's
  /// zeros).
  void resize(std::size_t n) {
    release();
    if (n == 0) return;
    data_ = static_cast<T*>(detail::state_allocate(n * sizeof(T)));
    size_ = n;
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

 private:
  void release() {
    if (data_ != nullptr) detail::state_deallocate(data_);
    data_ = nullptr;
    size_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace gms
