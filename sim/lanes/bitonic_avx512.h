#pragma once
/// AVX-512 building blocks shared by the warp sort (sorting_network.cc) and the scattered-warp
/// analysis (scattered_warp.cc): bitonic networks over 32 keys, of 64 bits in four registers or
/// of 32 bits in two, and the narrowing of a warp's addresses to sorted 32-bit offsets from the
/// smallest. Defined where
/// GMS_HAVE_AVX512 is (sim/lanes/avx512.h); call them from target("avx512f") code only.

#include <bit>
#include <cstdint>

#include "sim/core/types.h"
#include "sim/lanes/avx512.h"

#ifdef GMS_HAVE_AVX512

namespace gms::detail {

/// Lanes of register r (keys lanes x r .. lanes x r + lanes - 1) that keep the larger key at
/// step (k, j) of the bitonic network: key g pairs with g ^ j; blocks of k keys sort ascending
/// when g & k is 0, else descending (the last step, k = 32, sorts everything ascending).
constexpr unsigned take_max(unsigned lanes, unsigned k, unsigned j, unsigned r) {
  unsigned m = 0;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    const unsigned g = lanes * r + lane;
    if (((g & j) != 0) == ((g & k) == 0)) m |= 1u << lane;
  }
  return m;
}

/// One step (k, j) of the bitonic network over 32 keys held 8 per register.
template <unsigned K, unsigned J>
__attribute__((target("avx512f"), always_inline)) inline void bitonic_step64(__m512i (&r)[4]) {
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
    constexpr __mmask8 keep_max[4] = {
        static_cast<__mmask8>(take_max(8, K, J, 0)), static_cast<__mmask8>(take_max(8, K, J, 1)),
        static_cast<__mmask8>(take_max(8, K, J, 2)), static_cast<__mmask8>(take_max(8, K, J, 3))};
#pragma GCC unroll 4
    for (unsigned i = 0; i < 4; ++i) {
      const __m512i t = _mm512_permutexvar_epi64(partner, r[i]);
      r[i] = _mm512_mask_blend_epi64(keep_max[i], _mm512_min_epu64(r[i], t),
                                     _mm512_max_epu64(r[i], t));
    }
  }
}

__attribute__((target("avx512f"), always_inline)) inline void bitonic_sort64(__m512i (&r)[4]) {
  bitonic_step64<2, 1>(r);
  bitonic_step64<4, 2>(r);
  bitonic_step64<4, 1>(r);
  bitonic_step64<8, 4>(r);
  bitonic_step64<8, 2>(r);
  bitonic_step64<8, 1>(r);
  bitonic_step64<16, 8>(r);
  bitonic_step64<16, 4>(r);
  bitonic_step64<16, 2>(r);
  bitonic_step64<16, 1>(r);
  bitonic_step64<32, 16>(r);
  bitonic_step64<32, 8>(r);
  bitonic_step64<32, 4>(r);
  bitonic_step64<32, 2>(r);
  bitonic_step64<32, 1>(r);
}

/// The same network over 32-bit keys, 16 per register: half the registers, half the work.
template <unsigned K, unsigned J>
__attribute__((target("avx512f"), always_inline)) inline void bitonic_step32(__m512i (&r)[2]) {
  if constexpr (J == 16) {  // only at K = 32: the two registers, ascending
    const __m512i lo = _mm512_min_epu32(r[0], r[1]);
    r[1] = _mm512_max_epu32(r[0], r[1]);
    r[0] = lo;
  } else {
    const __m512i partner =
        _mm512_set_epi32(15 ^ J, 14 ^ J, 13 ^ J, 12 ^ J, 11 ^ J, 10 ^ J, 9 ^ J, 8 ^ J, 7 ^ J, 6 ^ J,
                         5 ^ J, 4 ^ J, 3 ^ J, 2 ^ J, 1 ^ J, 0 ^ J);
    constexpr __mmask16 keep_max[2] = {static_cast<__mmask16>(take_max(16, K, J, 0)),
                                       static_cast<__mmask16>(take_max(16, K, J, 1))};
#pragma GCC unroll 2
    for (unsigned i = 0; i < 2; ++i) {
      const __m512i t = _mm512_permutexvar_epi32(partner, r[i]);
      r[i] = _mm512_mask_blend_epi32(keep_max[i], _mm512_min_epu32(r[i], t),
                                     _mm512_max_epu32(r[i], t));
    }
  }
}

__attribute__((target("avx512f"), always_inline)) inline void bitonic_sort32(__m512i (&r)[2]) {
  bitonic_step32<2, 1>(r);
  bitonic_step32<4, 2>(r);
  bitonic_step32<4, 1>(r);
  bitonic_step32<8, 4>(r);
  bitonic_step32<8, 2>(r);
  bitonic_step32<8, 1>(r);
  bitonic_step32<16, 8>(r);
  bitonic_step32<16, 4>(r);
  bitonic_step32<16, 2>(r);
  bitonic_step32<16, 1>(r);
  bitonic_step32<32, 16>(r);
  bitonic_step32<32, 8>(r);
  bitonic_step32<32, 4>(r);
  bitonic_step32<32, 2>(r);
  bitonic_step32<32, 1>(r);
}

/// Two registers of sixteen 32-bit keys as four registers of eight 64-bit ones, in order (the
/// halves named by immediates: an unoptimized build does not unroll a loop over them).
__attribute__((target("avx512f"), always_inline)) inline void widen_keys(const __m512i (&k)[2],
                                                                         __m512i (&wide)[4]) {
  wide[0] = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(k[0]));
  wide[1] = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(k[0], 1));
  wide[2] = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(k[1]));
  wide[3] = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(k[1], 1));
}

/// The active lanes of `r` (inactive ones hold all ones), as offsets from the smallest active
/// address (`least`), sorted into `k` (sixteen 32-bit keys per register, inactive lanes last as
/// 0xffffffff), when every offset is at most `limit` (below 2^32); else false.
__attribute__((target("avx512f"), always_inline)) inline bool sorted_offsets(const __m512i (&r)[4],
                                                                             LaneMask mask,
                                                                             std::uint32_t limit,
                                                                             std::uint64_t& least,
                                                                             __m512i (&k)[2]) {
  const __m512i top = _mm512_set1_epi64(-1);
  least = _mm512_reduce_min_epu64(
      _mm512_min_epu64(_mm512_min_epu64(r[0], r[1]), _mm512_min_epu64(r[2], r[3])));
  const __m512i base = _mm512_set1_epi64(static_cast<long long>(least));
  const __m512i widest = _mm512_set1_epi64(limit);
  __m256i offsets[4];
  for (unsigned i = 0; i < 4; ++i) {
    const auto active = static_cast<__mmask8>(mask >> (8 * i));
    // Inactive lanes keep all ones, 0xffffffff once narrowed: they still sort last.
    const __m512i d = _mm512_mask_sub_epi64(top, active, r[i], base);
    if (_mm512_mask_cmpgt_epu64_mask(active, d, widest) != 0) return false;
    offsets[i] = _mm512_cvtepi64_epi32(d);
  }
  k[0] = _mm512_inserti64x4(_mm512_castsi256_si512(offsets[0]), offsets[1], 1);
  k[1] = _mm512_inserti64x4(_mm512_castsi256_si512(offsets[2]), offsets[3], 1);
  bitonic_sort32(k);
  return true;
}

}  // namespace gms::detail

#endif  // GMS_HAVE_AVX512
