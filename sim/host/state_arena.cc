#include "sim/host/state_arena.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace gms {

namespace {

constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
constexpr std::size_t kAlign = 64;  // a host cache line

thread_local StateArena* current_arena = nullptr;

/// Live arenas, for telling their memory from the heap's when a container frees it (only
/// at construction and destruction of caches: never on the per-access path).
std::mutex registry_mutex;
std::vector<const StateArena*>& registry() {
  static std::vector<const StateArena*> arenas;
  return arenas;
}

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
  const std::lock_guard lock(registry_mutex);
  registry().push_back(this);
}

StateArena::~StateArena() {
  if (base_ == nullptr) return;
  {
    const std::lock_guard lock(registry_mutex);
    auto& arenas = registry();
    arenas.erase(std::find(arenas.begin(), arenas.end(), this));
  }
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

StateArenaScope::StateArenaScope(StateArena& arena) : previous_(current_arena) {
  current_arena = &arena;
}

StateArenaScope::~StateArenaScope() {
  current_arena = previous_;
}

namespace detail {

void* state_allocate(std::size_t bytes) {
  if (current_arena != nullptr)
    if (void* p = current_arena->take(bytes)) return p;
  void* p = std::calloc(1, bytes);  // zeros, like the arena's
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void state_deallocate(void* p) {
  {
    const std::lock_guard lock(registry_mutex);
    for (const StateArena* a : registry())
      if (a->contains(p)) return;  // freed with its arena
  }
  std::free(p);
}

}  // namespace detail

}  // namespace gms
