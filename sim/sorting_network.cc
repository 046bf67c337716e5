#include "sim/sorting_network.h"

#include <bit>
#include <limits>

#include "sim/avx512.h"
#include "sim/bitonic_avx512.h"
#include "sim/cpu_features.h"

namespace gms {

namespace detail {

int sort_active_lanes_network(const std::array<Addr, kWarpSize>& addr, LaneMask mask,
                              std::array<Addr, kWarpSize>& out) {
  int n = 0;
  for (LaneMask m = mask; m != 0; m &= m - 1) out[n++] = addr[std::countr_zero(m)];
  for (int i = n; i < kWarpSize; ++i) out[i] = std::numeric_limits<Addr>::max();
  sort32_network(out);
  return n;
}

#ifdef GMS_HAVE_AVX512

namespace {

/// Lanes of register r (keys 8r..8r+7) that keep the larger key at step (k, j) of the bitonic
/// network: key g pairs with g ^ j; blocks of k keys sort ascending when g & k is 0, else
/// descending (the last step, k = 32, sorts everything ascending).
constexpr __mmask8 take_max(unsigned k, unsigned j, unsigned r) {
  unsigned m = 0;
  for (unsigned lane = 0; lane < 8; ++lane) {
    const unsigned g = 8 * r + lane;
    if (((g & j) != 0) == ((g & k) == 0)) m |= 1u << lane;
  }
  return static_cast<__mmask8>(m);
}

/// One step (k, j) of the bitonic network over 32 keys held 8 per register.
template <unsigned K, unsigned J>
__attribute__((target("avx512f"), always_inline)) inline void bitonic_step(__m512i (&r)[4]) {
  if constexpr (J >= 8) {
    // Partners sit in another register: whole-register min and max.
    constexpr unsigned d = J / 8;
#pragma GCC unroll 4
    for (unsigned i = 0; i < 4; ++i) {
      if (i & d) continue;
      const __m512i lo = _mm512_min_epu64(r[i], r[i + d]);
      const __m512i hi = _mm512_max_epu64(r[i], r[i + d]);
      const bool ascending = ((8 * i) & K) == 0;
      r[i] = ascending ? lo : hi;
      r[i + d] = ascending ? hi : lo;
    }
  } else {
    // Partners sit in the same register: permute, min and max, keep one of them per lane.
    const __m512i partner =
        _mm512_set_epi64(7 ^ J, 6 ^ J, 5 ^ J, 4 ^ J, 3 ^ J, 2 ^ J, 1 ^ J, 0 ^ J);
    constexpr __mmask8 keep_max[4] = {take_max(K, J, 0), take_max(K, J, 1), take_max(K, J, 2),
                                      take_max(K, J, 3)};
#pragma GCC unroll 4
    for (unsigned i = 0; i < 4; ++i) {
      const __m512i t = _mm512_permutexvar_epi64(partner, r[i]);
      r[i] = _mm512_mask_blend_epi64(keep_max[i], _mm512_min_epu64(r[i], t),
                                     _mm512_max_epu64(r[i], t));
    }
  }
}

__attribute__((target("avx512f"), always_inline)) inline void bitonic_sort(__m512i (&r)[4]) {
  bitonic_step<2, 1>(r);
  bitonic_step<4, 2>(r);
  bitonic_step<4, 1>(r);
  bitonic_step<8, 4>(r);
  bitonic_step<8, 2>(r);
  bitonic_step<8, 1>(r);
  bitonic_step<16, 8>(r);
  bitonic_step<16, 4>(r);
  bitonic_step<16, 2>(r);
  bitonic_step<16, 1>(r);
  bitonic_step<32, 16>(r);
  bitonic_step<32, 8>(r);
  bitonic_step<32, 4>(r);
  bitonic_step<32, 2>(r);
  bitonic_step<32, 1>(r);
}

}  // namespace

bool avx512_available() {
  return cpu_has_avx512f();
}

__attribute__((target("avx512f"))) void sort32_avx512(std::array<std::uint64_t, 32>& v) {
  __m512i r[4];
  for (unsigned i = 0; i < 4; ++i) r[i] = _mm512_loadu_si512(v.data() + 8 * i);
  bitonic_sort(r);
  for (unsigned i = 0; i < 4; ++i) _mm512_storeu_si512(v.data() + 8 * i, r[i]);
}

namespace {

/// Sorts the active lanes `r` (inactive ones hold the largest key) as 32-bit offsets from the
/// smallest address when every active one lies within 4 GiB of it (a kernel's scattered warp,
/// as a rule), and stores them in `out` with the inactive lanes last. False, with nothing
/// stored, when the addresses span more.
__attribute__((target("avx512f"), always_inline)) inline bool sort_narrow(
    const __m512i (&r)[4], LaneMask mask, std::array<Addr, kWarpSize>& out) {
  std::uint64_t least_addr;
  __m512i k[2];
  if (!sorted_offsets(r, mask, 0xffffffffu, least_addr, k)) return false;
  const __m512i top = _mm512_set1_epi64(-1);
  const __m512i least = _mm512_set1_epi64(static_cast<long long>(least_addr));
  const unsigned n = static_cast<unsigned>(std::popcount(mask));
  __m512i offsets[4];
  widen_keys(k, offsets);
  for (unsigned i = 0; i < 4; ++i) {
    const __m512i wide = offsets[i];
    // Positions n and up hold the inactive lanes: the largest address, as in the wide sort.
    const unsigned first = 8 * i;
    const auto real = static_cast<__mmask8>(n >= first + 8 ? 0xffu
                                            : n <= first   ? 0u
                                                           : (1u << (n - first)) - 1);
    _mm512_storeu_si512(out.data() + first, _mm512_mask_add_epi64(top, real, wide, least));
  }
  return true;
}

}  // namespace

__attribute__((target("avx512f"))) int sort_active_lanes_avx512(
    const std::array<Addr, kWarpSize>& addr, LaneMask mask, std::array<Addr, kWarpSize>& out) {
  // Straight from the record: inactive lanes become the largest key (no gather loop).
  const __m512i top = _mm512_set1_epi64(-1);
  __m512i r[4];
  for (unsigned i = 0; i < 4; ++i)
    r[i] =
        _mm512_mask_loadu_epi64(top, static_cast<__mmask8>(mask >> (8 * i)), addr.data() + 8 * i);
  if (sort_narrow(r, mask, out)) return std::popcount(mask);
  bitonic_sort(r);
  for (unsigned i = 0; i < 4; ++i) _mm512_storeu_si512(out.data() + 8 * i, r[i]);
  return std::popcount(mask);
}

#else

bool avx512_available() {
  return false;
}
void sort32_avx512(std::array<std::uint64_t, 32>& v) {
  sort32_network(v);
}
int sort_active_lanes_avx512(const std::array<Addr, kWarpSize>& addr, LaneMask mask,
                             std::array<Addr, kWarpSize>& out) {
  return sort_active_lanes_network(addr, mask, out);
}

#endif

}  // namespace detail

void sort32(std::array<std::uint64_t, 32>& v) {
  if (detail::avx512_available())
    detail::sort32_avx512(v);
  else
    sort32_network(v);
}

int sort_active_lanes(const std::array<Addr, kWarpSize>& addr, LaneMask mask,
                      std::array<Addr, kWarpSize>& out) {
  return detail::avx512_available() ? detail::sort_active_lanes_avx512(addr, mask, out)
                                    : detail::sort_active_lanes_network(addr, mask, out);
}

}  // namespace gms
