// The least an exact LRU lookup costs on this host: the cached random trace's L1 and L2 steps
// stripped to their core (tag compare, least recently used victim, refill, for the L2 also the
// slice hash and a DRAM channel count) in plain loops, with the H200 preset's geometry and
// state sizes. The simulator does more per lookup (sector masks, per-instruction and per-slice
// counters, write paths, the L2 batch queue), so these rates bound its own from above: they
// are what issue 7's 40 M lookups/s target has to be weighed against. Random lines over 1 GiB,
// as in the trace; fixed seeds; items per second = lookups.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "sim/config/config.h"
#include "sim/lanes/avx512.h"
#include "sim/lanes/cpu_features.h"
#include "sim/model/address_map.h"

namespace gms {
namespace {

#ifdef GMS_HAVE_AVX512

/// One set-associative tag store with LRU order lists, as plain as an exact one can be: eight
/// tags per AVX-512 compare, the order moved with memmove. The ways are a constant, so that
/// the compiler unrolls the compares.
template <std::uint32_t ways_>
class PlainLruTags {
  static_assert(ways_ % 8 == 0 && ways_ <= 64);

 public:
  explicit PlainLruTags(std::size_t sets)
      : tags_(sets * ways_, ~std::uint64_t{0}), order_(sets * ways_) {
    for (std::size_t i = 0; i < order_.size(); ++i)
      order_[i] = static_cast<std::uint16_t>(i % ways_);
  }

  /// Looks `key` up in `set`, refilling the least recently used way on a miss; true on a hit.
  __attribute__((target("avx512f"))) bool access(std::size_t set, std::uint64_t key) {
    std::uint64_t* tags = tags_.data() + set * ways_;
    std::uint16_t* order = order_.data() + set * ways_;
    const __m512i k = _mm512_set1_epi64(static_cast<long long>(key));
    std::uint64_t hits = 0;
    for (std::uint32_t w = 0; w < ways_; w += 8)
      hits |= std::uint64_t{_mm512_cmpeq_epu64_mask(_mm512_loadu_si512(tags + w), k)} << w;
    std::uint32_t way, pos = ways_ - 1;
    if (hits != 0) {
      way = static_cast<std::uint32_t>(__builtin_ctzll(hits));
      for (pos = 0; order[pos] != way;) ++pos;
    } else {
      way = order[ways_ - 1];
      tags[way] = key;
    }
    std::memmove(order + 1, order, pos * sizeof *order);
    order[0] = static_cast<std::uint16_t>(way);
    return hits != 0;
  }

 private:
  std::vector<std::uint64_t> tags_;
  std::vector<std::uint16_t> order_;
};

std::vector<std::uint64_t> random_lines(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> v(n);
  for (auto& line : v) line = (rng() & ((std::uint64_t{1} << 30) - 1)) >> 7;
  return v;
}

/// The H200 preset's geometry (configs/hopper-h200.ini) as compile-time constants, for the
/// bare loops' template arguments and constant divisors; checked against the preset at run time.
constexpr std::uint32_t kH200L1Sets = 32, kH200L1Ways = 64;  // 256 KiB of 128-byte lines
constexpr std::uint32_t kH200L2Slices = 96, kH200L2Ways = 16, kH200L2Sets = 320;  // 60 MiB

bool h200_geometry_matches() {
  const SimConfig c = default_config();
  return c.l1.sets == kH200L1Sets &&
         c.l1.unified_kb * 1024 / c.l1.line_bytes / c.l1.sets == kH200L1Ways &&
         c.l2.slices == kH200L2Slices && c.l2.ways == kH200L2Ways &&
         std::uint64_t{c.l2.size_kb} * 1024 /
                 (std::uint64_t{c.l2.slices} * c.l2.ways * c.l2.line_bytes) ==
             kH200L2Sets;
}

/// L1: the H200's 64-way sets (32 per SM) over range(0) SMs, range(1) lookups in a row per SM
/// (256: the random trace's placement, one 8-warp CTA per SM in turn; with one SM the state
/// stays in the host's caches).
void BM_FloorL1Lookup(benchmark::State& state) {
  if (!cpu_has_avx512f()) return state.SkipWithError("needs AVX-512F");
  constexpr std::uint32_t kSets = kH200L1Sets;
  constexpr std::uint32_t kWays = kH200L1Ways;
  if (!h200_geometry_matches()) return state.SkipWithError("the H200 preset's geometry changed");
  const auto sms = static_cast<std::uint32_t>(state.range(0));
  const auto run = static_cast<std::size_t>(state.range(1));
  PlainLruTags<kWays> tags(std::size_t{sms} * kSets);
  const auto lines = random_lines(1 << 16, 1);
  std::size_t hits = 0, turn = 0;
  for (auto _ : state) {
    for (std::size_t first = 0; first < lines.size(); first += run) {
      const std::size_t sm_sets = (first / run + turn) % sms * kSets;
      for (std::size_t i = first; i < first + run; ++i)
        hits += tags.access(sm_sets + (lines[i] & (kSets - 1)), lines[i]);
    }
    turn += 77;
  }
  benchmark::DoNotOptimize(hits);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * lines.size()));
}
BENCHMARK(BM_FloorL1Lookup)->Args({1, 256})->Args({132, 256});

/// L2: the H200's 96 slices of 320 16-way sets, accesses sorted by slice in batches of 2^16
/// (as the simulator replays them), each a slice hash, a set, a lookup and, on a miss, one DRAM
/// channel count.
void BM_FloorL2Access(benchmark::State& state) {
  if (!cpu_has_avx512f()) return state.SkipWithError("needs AVX-512F");
  if (!h200_geometry_matches()) return state.SkipWithError("the H200 preset's geometry changed");
  // Constants, so that the set's modulo is a multiplication, as the simulator's is.
  constexpr std::uint32_t sets = kH200L2Sets;
  PlainLruTags<kH200L2Ways> tags(std::size_t{kH200L2Slices} * sets);
  // The simulator's own maps (address -> slice, address -> DRAM channel).
  const SimConfig h200 = default_config();
  const Interleave slices = l2_slices(h200.l2), channels = dram_channels(h200.dram);
  auto slice_of = [&](std::uint64_t line) { return slices.unit_of(line << 7); };
  std::vector<std::uint64_t> channel_bytes(channels.units());
  std::vector<std::uint32_t> next(kH200L2Slices + 1);
  std::vector<std::uint64_t> sorted(1 << 16);
  std::uint64_t seed = 1;
  for (auto _ : state) {
    state.PauseTiming();
    const auto lines = random_lines(sorted.size(), seed++);
    state.ResumeTiming();
    std::fill(next.begin(), next.end(), 0);
    for (std::uint64_t line : lines) ++next[slice_of(line) + 1];
    for (std::size_t s = 1; s < next.size(); ++s) next[s] += next[s - 1];
    for (std::uint64_t line : lines) sorted[next[slice_of(line)]++] = line;
    for (std::uint64_t line : sorted) {
      const std::uint32_t slice = slice_of(line);
      const auto set =
          static_cast<std::uint32_t>((line >> 1) / kH200L2Slices * 2 + (line & 1)) % sets;
      if (!tags.access(std::size_t{slice} * sets + set, line))
        channel_bytes[channels.unit_of(line << 7)] += 64;
    }
  }
  benchmark::DoNotOptimize(channel_bytes.data());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * sorted.size()));
}
BENCHMARK(BM_FloorL2Access);

#endif

}  // namespace
}  // namespace gms
