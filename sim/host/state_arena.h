#pragma once
/// The huge-page memory for a cache's state (sim/core/state_vector.h): the L2's tags, masks,
/// replacement state and side tables (about 20 MiB for an H200, read at random, a few bytes from
/// each of a dozen arrays per access) are carved out of one mapping marked for transparent huge
/// pages, so that a lookup does not also miss the host's TLB for each array it reads (a cached
/// stream replayed 1.15x faster with the whole heap on huge pages). Where the kernel gives no
/// huge pages the hint changes nothing.
///
/// Usage: an engine hands a StateArena to the cache it builds (L2Cache's constructor), or makes
/// one current with a StateArenaScope while it builds containers itself (the fast engine's L1s).

#include <algorithm>
#include <cstddef>

#include "sim/core/state_vector.h"

namespace gms {

class StateArena final : public StateMemory {
 public:
  /// The address space a default arena reserves. Only pages that are used are committed (the
  /// mapping reserves no swap), so a cache's state is never sized ahead: an H200's L2 uses
  /// about 20 MiB of it, and no formula has to follow the containers' layout.
  static constexpr std::size_t kReservedBytes = std::size_t{64} << 30;

  StateArena() : StateArena(kReservedBytes) {}
  /// Maps `capacity_bytes` (rounded up to 2 MiB) of address space; pages are committed as used.
  explicit StateArena(std::size_t capacity_bytes);
  ~StateArena() override;
  StateArena(const StateArena&) = delete;
  StateArena& operator=(const StateArena&) = delete;

  void* take(std::size_t bytes) override;
  bool contains(const void* p) const override;
  bool overflowed() const override { return overflowed_; }
  std::size_t used() const { return used_; }
  std::size_t capacity() const { return capacity_; }
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
class StateArenaScope : public StateMemoryScope {
 public:
  explicit StateArenaScope(StateArena& arena) : StateMemoryScope(&arena) {}
};

}  // namespace gms
