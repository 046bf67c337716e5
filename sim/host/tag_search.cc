#include "sim/host/tag_search.h"

#include <bit>

#include "sim/host/avx512.h"

namespace gms::detail {

#ifdef GMS_HAVE_AVX512

namespace {

/// Ways w..w+7 of `tags` equal to the key in `k`, as bits.
__attribute__((target("avx512f"), always_inline)) inline std::uint32_t eq8(
    const std::uint64_t* tags, __m512i k) {
  return _mm512_cmpeq_epu64_mask(_mm512_loadu_si512(tags), k);
}

std::int32_t found(std::uint32_t w, std::uint32_t hits) {
  return static_cast<std::int32_t>(w + static_cast<std::uint32_t>(std::countr_zero(hits)));
}

}  // namespace

__attribute__((target("avx512f"))) std::int32_t find_tag_avx512(const std::uint64_t* tags,
                                                                std::uint32_t n,
                                                                std::uint64_t key) {
  const __m512i k = _mm512_set1_epi64(static_cast<long long>(key));
  std::uint32_t w = 0;
  // 32 ways per branch: four compares, their masks joined.
  for (; w + 32 <= n; w += 32) {
    const std::uint32_t hits = eq8(tags + w, k) | eq8(tags + w + 8, k) << 8 |
                               eq8(tags + w + 16, k) << 16 | eq8(tags + w + 24, k) << 24;
    if (hits != 0) return found(w, hits);
  }
  for (; w < n; w += 8) {
    // The last ways: a masked load reads none past the set's filled ways.
    const auto valid = static_cast<__mmask8>(n - w >= 8 ? 0xffu : (1u << (n - w)) - 1);
    const std::uint32_t hits =
        _mm512_mask_cmpeq_epu64_mask(valid, _mm512_maskz_loadu_epi64(valid, tags + w), k);
    if (hits != 0) return found(w, hits);
  }
  return -1;
}

#else

std::int32_t find_tag_avx512(const std::uint64_t* tags, std::uint32_t n, std::uint64_t key) {
  for (std::uint32_t w = 0; w < n; ++w)
    if (tags[w] == key) return static_cast<std::int32_t>(w);
  return -1;
}

#endif

}  // namespace gms::detail
