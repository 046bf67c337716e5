#include "trace/native/packed_lanes.h"

#include "sim/lanes/avx512.h"
#include "sim/lanes/cpu_features.h"
#include "trace/native/binary_format.h"

namespace gms::trace::detail {

#ifdef GMS_HAVE_AVX512

bool vector_unpack_available() {
  return cpu_has_avx512f();
}

namespace {

/// Inclusive prefix sum of eight 64-bit lanes (three shifted adds).
__attribute__((target("avx512f"), always_inline)) inline __m512i prefix_sum8(__m512i x) {
  const __m512i zero = _mm512_setzero_si512();
  x = _mm512_add_epi64(x, _mm512_alignr_epi64(x, zero, 7));     // + lane i - 1
  x = _mm512_add_epi64(x, _mm512_alignr_epi64(x, zero, 6));     // + lane i - 2
  return _mm512_add_epi64(x, _mm512_alignr_epi64(x, zero, 4));  // + lane i - 4
}

}  // namespace

__attribute__((target("avx512f"))) void unpack_full_warp(const std::uint8_t* p, unsigned bits,
                                                         unsigned shift, std::uint64_t first,
                                                         std::uint64_t* addr) {
  const __m512i width = _mm512_set1_epi64(bits);
  const __m512i low_bits = _mm512_set1_epi64(static_cast<long long>((1ull << bits) - 1));
  const __m512i one = _mm512_set1_epi64(1);
  const __m512i seven = _mm512_set1_epi64(7);
  const __m128i left = _mm_cvtsi32_si128(static_cast<int>(shift));
  __m512i index = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);  // value numbers of this block
  __m512i running = _mm512_set1_epi64(static_cast<long long>(first));
  addr[0] = first;
  for (unsigned block = 0; block < 4; ++block) {
    // Values 8 x block + k; the last block has seven (31 in all).
    const auto live = static_cast<__mmask8>(block == 3 ? 0x7f : 0xff);
    const __m512i bit = _mm512_mul_epu32(index, width);
    const __m512i raw =
        _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), live, _mm512_srli_epi64(bit, 3), p, 1);
    const __m512i v =
        _mm512_and_si512(_mm512_srlv_epi64(raw, _mm512_and_si512(bit, seven)), low_bits);
    // unzigzag: (v >> 1) ^ -(v & 1), then the common shift.
    const __m512i delta = _mm512_sll_epi64(
        _mm512_xor_si512(_mm512_srli_epi64(v, 1),
                         _mm512_sub_epi64(_mm512_setzero_si512(), _mm512_and_si512(v, one))),
        left);
    const __m512i lanes =
        _mm512_add_epi64(running, prefix_sum8(_mm512_maskz_mov_epi64(live, delta)));
    _mm512_mask_storeu_epi64(addr + 1 + 8 * block, live, lanes);
    running = _mm512_permutexvar_epi64(_mm512_set1_epi64(7), lanes);  // the block's last lane
    index = _mm512_add_epi64(index, _mm512_set1_epi64(8));
  }
}

#else

bool vector_unpack_available() {
  return false;
}

void unpack_full_warp(const std::uint8_t* p, unsigned bits, unsigned shift, std::uint64_t first,
                      std::uint64_t* addr) {
  PackedReader values(p, bits);
  addr[0] = first;
  for (unsigned i = 1; i < 32; ++i)
    addr[i] = addr[i - 1] + (static_cast<std::uint64_t>(unzigzag(values.next())) << shift);
}

#endif

}  // namespace gms::trace::detail
