// Microbenchmarks of the per-record stages: the coalescer and the shared-memory bank arbiter.
// Fixed seeds; items per second = warp instructions per second.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "sim/model/coalescer.h"
#include "sim/model/smem_arbiter.h"

namespace gms {
namespace {

std::vector<WarpInstr> make_records(bool random, Op op, unsigned size) {
  std::mt19937_64 rng(42);
  std::vector<WarpInstr> v(4096);
  for (std::size_t i = 0; i < v.size(); ++i) {
    WarpInstr& w = v[i];
    w.op = op;
    w.size = static_cast<std::uint8_t>(size);
    w.mask = 0xffffffffu;
    if (random) {
      for (int t = 0; t < kWarpSize; ++t) w.addr[t] = (rng() % (Addr{1} << 30)) & ~Addr{size - 1};
    } else {
      w.strided = true;
      w.stride = size;
      for (int t = 0; t < kWarpSize; ++t) w.addr[t] = 0x10000000 + i * 128 + t * size;
    }
  }
  return v;
}

/// Arg 0: unit-stride warps (4 sectors each); arg 1: 32 random sectors over 1 GiB.
void BM_Coalesce(benchmark::State& state) {
  const auto records = make_records(state.range(0) != 0, Op::LDG, 4);
  const Coalescer c(default_config().coalescer);
  CoalescedAccess out;
  std::size_t i = 0;
  for (auto _ : state) {
    c.coalesce(records[i++ & 4095], out);
    benchmark::DoNotOptimize(out.sectors);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Coalesce)->Arg(0)->Arg(1);

void BM_BankArbiterUnitStride(benchmark::State& state) {
  auto records = make_records(false, Op::LDS, static_cast<unsigned>(state.range(0)));
  const SmemArbiter a(default_config().shared);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(a.arbitrate(records[i++ & 4095]).wavefronts);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BankArbiterUnitStride)->Arg(4)->Arg(16);

}  // namespace
}  // namespace gms
