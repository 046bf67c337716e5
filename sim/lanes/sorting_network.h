#pragma once
/// Sorts 32 unsigned 64-bit keys without data-dependent branches (a warp's 32 random lane
/// addresses sort about four times faster this way than with std::sort, whose comparisons
/// mispredict half the time): Batcher's odd-even merge network of 191 compare-exchanges, or, on
/// a CPU with AVX-512F (checked at run time), a bitonic network in four vector registers.

#include <array>
#include <cstddef>
#include <cstdint>

#include "sim/core/types.h"

namespace gms {

namespace detail {

struct ComparePair {
  std::uint8_t lo, hi;
};

/// The compare-exchange pairs of Batcher's odd-even merge sort for 2^k keys, in order.
template <std::size_t N>
consteval auto odd_even_merge_pairs() {
  static_assert((N & (N - 1)) == 0, "power of two");
  constexpr std::size_t count = [] {
    std::size_t c = 0;
    for (std::size_t p = 1; p < N; p <<= 1)
      for (std::size_t k = p; k >= 1; k >>= 1)
        for (std::size_t j = k % p; j + k < N; j += 2 * k)
          for (std::size_t i = 0; i < k && i + j + k < N; ++i)
            if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) ++c;
    return c;
  }();
  std::array<ComparePair, count> pairs{};
  std::size_t c = 0;
  for (std::size_t p = 1; p < N; p <<= 1)
    for (std::size_t k = p; k >= 1; k >>= 1)
      for (std::size_t j = k % p; j + k < N; j += 2 * k)
        for (std::size_t i = 0; i < k && i + j + k < N; ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p))
            pairs[c++] = {static_cast<std::uint8_t>(i + j), static_cast<std::uint8_t>(i + j + k)};
  return pairs;
}

inline constexpr auto kSort32Pairs = odd_even_merge_pairs<32>();

}  // namespace detail

/// Sorts `v` in increasing order with the scalar network (any CPU).
inline void sort32_network(std::array<std::uint64_t, 32>& v) {
  // Fully unrolled: every index becomes a constant, so the compiler schedules the independent
  // compare-exchanges of a layer together and keeps values in registers between them.
#pragma GCC unroll 256
  for (const detail::ComparePair& p : detail::kSort32Pairs) {
    const std::uint64_t a = v[p.lo], b = v[p.hi];
    const bool swap = b < a;
    v[p.lo] = swap ? b : a;
    v[p.hi] = swap ? a : b;
  }
}

/// Sorts `v` in increasing order, with the fastest network this CPU runs.
void sort32(std::array<std::uint64_t, 32>& v);

/// Writes the addresses of the lanes active in `mask` to `out` in increasing order, followed by
/// the largest address for every inactive lane; returns the number of active lanes.
int sort_active_lanes(const std::array<Addr, kWarpSize>& addr, LaneMask mask,
                      std::array<Addr, kWarpSize>& out);

namespace detail {
/// The two implementations, for tests: the vector ones may only run when avx512_available().
bool avx512_available();
void sort32_avx512(std::array<std::uint64_t, 32>& v);
int sort_active_lanes_avx512(const std::array<Addr, kWarpSize>& addr, LaneMask mask,
                             std::array<Addr, kWarpSize>& out);
int sort_active_lanes_network(const std::array<Addr, kWarpSize>& addr, LaneMask mask,
                              std::array<Addr, kWarpSize>& out);
}  // namespace detail

}  // namespace gms
