#include "sim/lanes/quarter_distinct.h"

#include <bit>

#include "sim/lanes/avx512.h"
#include "sim/lanes/cpu_features.h"

namespace gms {

namespace detail {

unsigned distinct_per_quarter_portable(const std::array<Addr, kWarpSize>& keys, LaneMask mask,
                                       unsigned shift) {
  unsigned d = 0;
  for (unsigned q = 0; q < kWarpSize; q += 8) {
    const unsigned active = (mask >> q) & 0xffu;
    if (active == 0) continue;
    // Inactive lanes take the key of the first active one: they then add no distinct key.
    std::array<Addr, 8> k;
    const Addr fill = keys[q + static_cast<unsigned>(std::countr_zero(active))] >> shift;
    for (unsigned i = 0; i < 8; ++i) k[i] = (active >> i & 1u) ? keys[q + i] >> shift : fill;
    // Lanes in address order (a row, a broadcast): count the steps; else compare every pair.
    bool ordered = true;
    for (unsigned i = 1; i < 8; ++i) ordered &= k[i - 1] <= k[i];
    if (ordered) {
      d += 1;
      for (unsigned i = 1; i < 8; ++i) d += k[i - 1] != k[i];
      continue;
    }
    for (unsigned i = 0; i < 8; ++i) {
      bool fresh = true;
      for (unsigned j = 0; j < i; ++j) fresh &= k[j] != k[i];
      d += fresh;
    }
  }
  return d;
}

#ifdef GMS_HAVE_AVX512

__attribute__((target("avx512f,avx512cd"))) unsigned distinct_per_quarter_avx512(
    const std::array<Addr, kWarpSize>& keys, LaneMask mask, unsigned shift) {
  const __m128i count = _mm_cvtsi32_si128(static_cast<int>(shift));
  unsigned d = 0;
  for (unsigned q = 0; q < 4; ++q) {
    const auto active = static_cast<__mmask8>(mask >> (8 * q));
    // Bit j of lane i's result: lane j < i holds the same key; only active lanes j count.
    const __m512i earlier =
        _mm512_conflict_epi64(_mm512_srl_epi64(_mm512_loadu_si512(keys.data() + 8 * q), count));
    const __mmask8 repeated =
        _mm512_test_epi64_mask(earlier, _mm512_set1_epi64(static_cast<long long>(active)));
    d += static_cast<unsigned>(std::popcount(static_cast<unsigned>(active & ~repeated & 0xffu)));
  }
  return d;
}

#else

unsigned distinct_per_quarter_avx512(const std::array<Addr, kWarpSize>& keys, LaneMask mask,
                                     unsigned shift) {
  return distinct_per_quarter_portable(keys, mask, shift);
}

#endif

}  // namespace detail

unsigned distinct_per_quarter(const std::array<Addr, kWarpSize>& keys, LaneMask mask,
                              unsigned shift) {
  return cpu_has_avx512cd() ? detail::distinct_per_quarter_avx512(keys, mask, shift)
                            : detail::distinct_per_quarter_portable(keys, mask, shift);
}

}  // namespace gms
