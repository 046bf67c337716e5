// The huge-page arenas of the caches' state: containers built in a scope live in them, others
// and those that do not fit come from the heap, all of it zero-filled, and every preset's L1 (at
// its largest) and
// L2 fit the arenas sized for them.
#include "sim/host/state_arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <utility>

#include "sim/config/config.h"
#include "sim/core/state_array.h"
#include "sim/model/l1_cache.h"
#include "sim/model/l2_cache.h"
#include "tests/test_paths.h"

namespace gms {
namespace {

TEST(StateArenaTest, ContainersBuiltInAScopeLiveInTheArenaOnCacheLines) {
  StateArena arena(1 << 20);  // rounded up to one 2 MiB page
  EXPECT_EQ(arena.capacity(), std::size_t{2} << 20);
  StateVector<std::uint64_t> outside(100, 7);
  {
    const StateArenaScope scope(arena);
    StateVector<std::uint8_t> a(3, 1);
    StateVector<std::uint64_t> b(1000, 2);
    EXPECT_TRUE(arena.contains(a.data()));
    EXPECT_TRUE(arena.contains(b.data()));
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % 64, 0u);  // a's 3 bytes took a line
    EXPECT_EQ(b.back(), 2u);
    EXPECT_FALSE(arena.overflowed());
    // Larger than what is left: the heap, and the arena says so.
    StateVector<std::uint8_t> big((std::size_t{2} << 20), 3);
    EXPECT_FALSE(arena.contains(big.data()));
    EXPECT_TRUE(arena.overflowed());
  }  // arena and heap memory freed alike (the sanitizer build checks the heap side)
  EXPECT_FALSE(arena.contains(outside.data()));
  StateVector<std::uint8_t> after(10, 0);  // the scope is gone
  EXPECT_FALSE(arena.contains(after.data()));
}

TEST(StateArenaTest, ScopesNest) {
  StateArena outer(4096), inner(4096);
  const StateArenaScope a(outer);
  {
    const StateArenaScope b(inner);
    StateVector<int> v(4);
    EXPECT_TRUE(inner.contains(v.data()));
  }
  StateVector<int> w(4);
  EXPECT_TRUE(outer.contains(w.data()));
}

TEST(StateArenaTest, RewindReusesTheSpaceAndResizeGivesZerosEverywhere) {
  StateArena arena(4096);
  const StateArenaScope scope(arena);
  const void* first = nullptr;
  {
    StateVector<std::uint64_t> v(100, ~std::uint64_t{0});
    first = v.data();
  }
  EXPECT_GT(arena.used(), 0u);
  arena.rewind();
  // The same memory again, cleared: resize() writes nothing and relies on it.
  StateVector<std::uint64_t> w;
  w.resize(100);
  EXPECT_EQ(w.data(), first);
  for (std::uint64_t x : w) ASSERT_EQ(x, 0u);
  // Past the arena's end (the heap) the memory is zero too.
  StateVector<std::uint32_t> big;
  big.resize(std::size_t{1} << 20);
  EXPECT_FALSE(arena.contains(big.data()));
  for (std::uint32_t x : big) ASSERT_EQ(x, 0u);
}

TEST(StateArenaTest, StateArraysLiveInTheArenaAsZerosAndCopyTheirValues) {
  StateArena arena(1 << 20);
  const StateArenaScope scope(arena);
  StateArray<std::uint32_t> a(1000);
  EXPECT_TRUE(arena.contains(a.data()));
  for (std::uint32_t x : a) ASSERT_EQ(x, 0u);
  a[7] = 42;
  StateArray<std::uint32_t> copy = a;  // its own memory, the same values
  EXPECT_NE(copy.data(), a.data());
  EXPECT_EQ(copy[7], 42u);
  const std::uint32_t* where = a.data();
  StateArray<std::uint32_t> moved = std::move(a);  // the same memory
  EXPECT_EQ(moved.data(), where);
  EXPECT_TRUE(a.empty());
  moved.resize(1000);  // the same size again: zeros again
  EXPECT_EQ(moved[7], 0u);
  moved.resize(0);
  EXPECT_TRUE(moved.empty());
}

template <class Policy>
bool l1_state_fits(const L1Config& cfg, std::uint32_t sms) {
  StateArena arena;
  const StateArenaScope scope(arena);
  // Every SM's L1 at the largest capacity a carve-out leaves it (the fast engine's SmL1s arena).
  std::vector<std::unique_ptr<L1Cache<Policy>>> l1s;
  for (std::uint32_t sm = 0; sm < sms; ++sm)
    l1s.push_back(std::make_unique<L1Cache<Policy>>(
        cfg, L1Cache<Policy>::largest_capacity_bytes(cfg), Policy{}));
  return !arena.overflowed() && arena.used() > 0;
}

template <class Policy>
bool l2_state_fits(const L2Config& cfg, std::uint32_t sms) {
  return L2Cache<Policy>(cfg, std::vector<Policy>(cfg.slices), sms, std::make_unique<StateArena>())
      .state_in_memory();
}

TEST(StateArenaTest, AnL2BuiltWithoutMemoryKeepsItsStateOnTheHeap) {
  const L2Config cfg = load_config({{}, {}}).l2;
  EXPECT_FALSE(L2Cache<LruPolicy>(cfg, std::vector<LruPolicy>(cfg.slices), 2).state_in_memory());
}

TEST(StateArenaTest, EveryPresetsL1AndL2FitTheirArenasWithEveryPolicy) {
  int presets = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_path("configs"))) {
    if (entry.path().extension() != ".ini") continue;
    ++presets;
    const L2Config cfg = load_config({{entry.path().string()}, {}}).l2;
    const SimConfig sim = load_config({{entry.path().string()}, {}});
    const L1Config& l1 = sim.l1;
    const std::uint32_t sms = sim.gpu.sm_count;
    EXPECT_TRUE(l1_state_fits<LruPolicy>(l1, sms)) << entry.path();
    EXPECT_TRUE(l1_state_fits<FifoPolicy>(l1, sms)) << entry.path();
    EXPECT_TRUE(l1_state_fits<SrripPolicy>(l1, sms)) << entry.path();
    EXPECT_TRUE(l1_state_fits<RandomPolicy>(l1, sms)) << entry.path();
    EXPECT_TRUE(l2_state_fits<LruPolicy>(cfg, sms)) << entry.path();
    EXPECT_TRUE(l2_state_fits<FifoPolicy>(cfg, sms)) << entry.path();
    EXPECT_TRUE(l2_state_fits<SrripPolicy>(cfg, sms)) << entry.path();
    EXPECT_TRUE(l2_state_fits<RandomPolicy>(cfg, sms)) << entry.path();
  }
  EXPECT_GE(presets, 4);
}

}  // namespace
}  // namespace gms
