// The host's rate of random 64-byte line reads from a buffer the size of a cached replay's
// state: the ceiling under the cached random trace, whose every L1 and L2 lookup reads a few
// such lines of cache state (tags, masks, LRU order). Independent loads, so the core overlaps
// as many as it can; items per second = lines read.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

namespace gms {
namespace {

void BM_HostRandomLineReads(benchmark::State& state) {
  const std::size_t lines = static_cast<std::size_t>(state.range(0)) << 20 >> 6;
  std::vector<std::uint64_t> buffer(lines * 8, 1);
  std::mt19937_64 rng(42);
  std::vector<std::uint32_t> order(1 << 16);
  for (auto& i : order) i = static_cast<std::uint32_t>(rng() % lines);
  std::uint64_t sum = 0;
  for (auto _ : state)
    for (std::uint32_t i : order) sum += buffer[std::size_t{i} * 8];
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * order.size()));
}
// MiB of state: about the H200 L1s' (4), the H200 L2's hot arrays (8), and beyond (64).
BENCHMARK(BM_HostRandomLineReads)->Arg(4)->Arg(8)->Arg(64);

}  // namespace
}  // namespace gms
