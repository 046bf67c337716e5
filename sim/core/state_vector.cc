#include "sim/core/state_vector.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace gms {

namespace {

thread_local StateMemory* current_memory = nullptr;

/// Live memories, for telling their blocks from the heap's when a container frees one (only
/// when caches are built and destroyed: never on the per-access path).
std::mutex registry_mutex;
std::vector<const StateMemory*>& registry() {
  static std::vector<const StateMemory*> memories;
  return memories;
}

}  // namespace

void StateMemory::register_memory() {
  const std::lock_guard lock(registry_mutex);
  registry().push_back(this);
}

void StateMemory::unregister_memory() {
  const std::lock_guard lock(registry_mutex);
  auto& memories = registry();
  memories.erase(std::find(memories.begin(), memories.end(), this));
}

StateMemoryScope::StateMemoryScope(StateMemory* memory) : previous_(current_memory) {
  current_memory = memory;
}

StateMemoryScope::~StateMemoryScope() {
  current_memory = previous_;
}

namespace detail {

void* state_allocate(std::size_t bytes) {
  if (current_memory != nullptr)
    if (void* p = current_memory->take(bytes)) return p;
  void* p = std::calloc(1, bytes);  // zeros, like a memory's
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void state_deallocate(void* p) {
  {
    const std::lock_guard lock(registry_mutex);
    for (const StateMemory* m : registry())
      if (m->contains(p)) return;  // freed with its memory
  }
  std::free(p);
}

}  // namespace detail

}  // namespace gms
