#include "sim/lanes/sorting_network.h"

#include <bit>
#include <limits>

#include "sim/lanes/avx512.h"
#include "sim/lanes/bitonic_avx512.h"
#include "sim/lanes/cpu_features.h"

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

bool avx512_available() {
  return cpu_has_avx512f();
}

__attribute__((target("avx512f"))) void sort32_avx512(std::array<std::uint64_t, 32>& v) {
  __m512i r[4];
  for (unsigned i = 0; i < 4; ++i) r[i] = _mm512_loadu_si512(v.data() + 8 * i);
  bitonic_sort64(r);
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
  bitonic_sort64(r);
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
