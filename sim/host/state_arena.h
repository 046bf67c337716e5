#pragma once
/// Where the L2's state lives: its tags, masks, replacement state and side tables (about 20
/// MiB for an H200, read at random, a few bytes from each of a dozen arrays per access) are
/// carved out of one mapping marked for transparent huge pages, so that a lookup does not also
/// miss the host's TLB for each array it reads (a cached stream replayed 1.15x faster with the
/// whole heap on huge pages). Where the kernel gives no huge pages the hint changes nothing.
///
/// Usage: containers of cache state are StateVector<T>; while a StateArenaScope is alive on a
/// thread, the StateVectors that thread allocates take their memory from the scope's arena
/// (the heap once it is full, or with no scope). Arena memory is returned all at once when
/// the arena goes, so an arena must outlive the containers it holds.
///
/// Memory from StateAllocator is always zero-filled, and its containers default-initialize the
/// elements they add without a value: a StateVector of trivial zeros sized with resize() writes
/// nothing, and its pages cost nothing until used (the L2's byte masks: 7.9 MB on an H200, used
/// only by partial writes).

#include <algorithm>
#include <cstddef>
#include <new>
#include <utility>
#include <vector>

namespace gms {

class StateArena {
 public:
  /// The address space a default arena reserves. Only pages that are used are committed (the
  /// mapping reserves no swap), so a cache's state is never sized ahead: an H200's L2 uses
  /// about 20 MiB of it, and no formula has to follow the containers' layout.
  static constexpr std::size_t kReservedBytes = std::size_t{64} << 30;

  StateArena() : StateArena(kReservedBytes) {}
  /// Maps `capacity_bytes` (rounded up to 2 MiB) of address space; pages are committed as used.
  explicit StateArena(std::size_t capacity_bytes);
  ~StateArena();
  StateArena(const StateArena&) = delete;
  StateArena& operator=(const StateArena&) = delete;

  /// `bytes` of zeros aligned to a host cache line (so arrays share no line), or nullptr when
  /// full.
  void* take(std::size_t bytes);
  std::size_t used() const { return used_; }
  std::size_t capacity() const { return capacity_; }
  /// True once a request did not fit (it went to the heap).
  bool overflowed() const { return overflowed_; }
  bool contains(const void* p) const;
  /// Makes the whole arena free again; every container in it must be gone.
  void rewind() {
    dirty_end_ = std::max(dirty_end_, used_);
    used_ = 0;
  }

 private:
  char* base_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t used_ = 0;
  std::size_t dirty_end_ = 0;  ///< bytes below it were used before a rewind (not zero any more)
  bool overflowed_ = false;
};

/// Routes this thread's StateVector allocations to `arena` while alive (nestable).
class StateArenaScope {
 public:
  explicit StateArenaScope(StateArena& arena);
  ~StateArenaScope();
  StateArenaScope(const StateArenaScope&) = delete;
  StateArenaScope& operator=(const StateArenaScope&) = delete;

 private:
  StateArena* previous_;
};

namespace detail {
void* state_allocate(std::size_t bytes);
void state_deallocate(void* p);
}  // namespace detail

/// The allocator of StateVector (stateless: the arena is found from the thread's scope when
/// allocating, and from the pointer when freeing).
template <class T>
struct StateAllocator {
  using value_type = T;
  StateAllocator() = default;
  template <class U>
  StateAllocator(const StateAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(detail::state_allocate(n * sizeof(T))); }
  void deallocate(T* p, std::size_t) { detail::state_deallocate(p); }
  /// Default-initialization: the zeros of the fresh memory stay (nothing is written).
  template <class U>
  void construct(U* p) noexcept(noexcept(::new (static_cast<void*>(p)) U)) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <class U>
  bool operator==(const StateAllocator<U>&) const {
    return true;
  }
};

template <class T>
using StateVector = std::vector<T, StateAllocator<T>>;

}  // namespace gms
