// Microbenchmarks of the cache stages: L1 and L2 lookups of one coalescer line each, on a
// reuse-friendly stream and on random lines. Fixed seeds; items per second = line lookups.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <vector>

#include "sim/host/state_arena.h"
#include "sim/model/l1_cache.h"
#include "sim/model/l2_cache.h"

namespace gms {
namespace {

struct NullSink {
  void dram_read(Addr, std::uint32_t) {}
  void dram_write_back(const LineOwner&, Addr, std::uint8_t, std::uint8_t) {}
};

std::vector<Addr> line_addresses(bool random, std::size_t n, Addr footprint) {
  std::mt19937_64 rng(42);
  std::vector<Addr> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = (random ? rng() % footprint : (i * 128) % footprint) & ~Addr{127};
  return v;
}

void BM_L1Lookup(benchmark::State& state) {
  const bool random = state.range(0) != 0;
  L1Config cfg = default_config().l1;
  L1Cache<LruPolicy> l1(cfg, 256 * 1024, LruPolicy{});
  const auto lines = line_addresses(random, 1 << 16, random ? Addr{1} << 30 : 128 * 1024);
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(l1.read(lines[i++ & 0xffff], 0xf).hit_mask);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_L1Lookup)->Arg(0)->Arg(1);

void BM_L2Read(benchmark::State& state) {
  const bool random = state.range(0) != 0;
  L2Config cfg = default_config().l2;
  // In the huge-page arena, as the engines build it.
  L2Cache<LruPolicy> l2(cfg, std::vector<LruPolicy>(cfg.slices), 0, std::make_unique<StateArena>());
  const auto lines = line_addresses(random, 1 << 16, random ? Addr{1} << 30 : Addr{32} << 20);
  NullSink sink;
  AccessCounters c;
  std::size_t i = 0;
  for (auto _ : state) l2.read(lines[i++ & 0xffff], 0xf, c, sink);
  benchmark::DoNotOptimize(c.l2_read_sectors);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_L2Read)->Arg(0)->Arg(1);

}  // namespace
}  // namespace gms
