#pragma once
/// The containers of a cache model's state (tags, masks, replacement state: read at random, a
/// few bytes at a time) and where their memory comes from. A StateVector<T> allocates from the
/// StateMemory that a StateMemoryScope made current on the allocating thread, or from the heap
/// when there is none or it is full. The model only names StateVector; the memory that makes it
/// fast on the host (sim/host/state_arena.h: one mapping on huge pages, so that a lookup does
/// not also miss the TLB for each array it reads) is handed in by the engine that builds the
/// cache.
///
/// Memory from StateAllocator is always zero-filled, and its containers default-initialize the
/// elements they add without a value: a StateVector of trivial zeros sized with resize() writes
/// nothing, and its pages cost nothing until used (the L2's byte masks: 7.9 MB on an H200, used
/// only by partial writes).

#include <cstddef>
#include <new>
#include <utility>
#include <vector>

namespace gms {

/// A source of zero-filled, cache-line-aligned blocks that are returned all at once, when the
/// memory goes (so it must outlive the containers it holds). Asked only when a container
/// allocates (building or resizing a cache), never per access.
class StateMemory {
 public:
  virtual ~StateMemory() = default;
  /// `bytes` of zeros aligned to a host cache line (so arrays share no line), or nullptr when
  /// full.
  virtual void* take(std::size_t bytes) = 0;
  /// True when `p` was taken from this memory.
  virtual bool contains(const void* p) const = 0;
  /// True once a request did not fit (it went to the heap).
  virtual bool overflowed() const = 0;

 protected:
  /// Derived memories call these from their constructor and destructor, so that a container
  /// freeing a block can tell theirs from the heap's.
  void register_memory();
  void unregister_memory();
};

/// Routes this thread's StateVector allocations to `memory` while alive (nestable; nullptr: the
/// heap).
class StateMemoryScope {
 public:
  explicit StateMemoryScope(StateMemory* memory);
  ~StateMemoryScope();
  StateMemoryScope(const StateMemoryScope&) = delete;
  StateMemoryScope& operator=(const StateMemoryScope&) = delete;

 private:
  StateMemory* previous_;
};

namespace detail {
void* state_allocate(std::size_t bytes);
void state_deallocate(void* p);
}  // namespace detail

/// The allocator of StateVector (stateless: the memory is found from the thread's scope when
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
