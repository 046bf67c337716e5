#include "sim/replay/fast/scattered_warp.h"

#include <algorithm>
#include <bit>

#include "sim/lanes/avx512.h"
#include "sim/lanes/bitonic_avx512.h"
#include "sim/lanes/cpu_features.h"
#include "sim/lanes/quarter_distinct.h"
#include "sim/model/l1_pipe.h"

namespace gms {

#ifdef GMS_HAVE_AVX512

namespace {

/// The counts from the sorted lanes that start a new address, sector, segment and line (bit i:
/// sorted lane i). Aligned accesses either start at the same address or share no byte.
void fill_counts(ScatteredWarp& out, unsigned size, std::uint32_t segment_bytes,
                 std::uint32_t address_starts, std::uint32_t sector_starts,
                 std::uint32_t segment_starts, std::uint32_t line_starts) {
  const auto count = [](std::uint32_t bits) {
    return static_cast<std::uint32_t>(std::popcount(bits));
  };
  out.active_threads = kWarpSize;
  out.bytes_requested = kWarpSize * size;
  out.bytes_distinct = count(address_starts) * size;
  out.sector_starts = sector_starts;
  out.segment_starts = segment_starts;
  out.sectors = count(sector_starts);
  out.transactions = count(segment_starts);
  out.lines = count(line_starts);
  out.segment_bytes = segment_bytes;
}

/// Bits of the sorted lanes in `s` whose address >> `shift` differs from the lane before's
/// (`p`: the lanes before).
__attribute__((target("avx512f"), always_inline)) inline std::uint32_t starts(const __m512i (&s)[4],
                                                                              const __m512i (&p)[4],
                                                                              unsigned shift) {
  std::uint32_t bits = 0;
  for (unsigned i = 0; i < 4; ++i)
    bits |= std::uint32_t{_mm512_cmpneq_epu64_mask(_mm512_srli_epi64(s[i], shift),
                                                   _mm512_srli_epi64(p[i], shift))}
            << (8 * i);
  return bits;
}

/// Interleave::unit_of of eight addresses (see address_map.h): the chunk number, its XOR fold,
/// the 32-bit fold, then FastDiv32::mod with 32 x 32-bit multiplies.
__attribute__((target("avx512f"), always_inline)) inline __m256i units8(__m512i addr,
                                                                        const Interleave& map) {
  const std::uint64_t m = map.modulus().multiplier();
  __m512i c = _mm512_srl_epi64(addr, _mm_cvtsi32_si128(static_cast<int>(map.shift())));
  if (map.xor_hash())
    c = _mm512_xor_si512(_mm512_xor_si512(c, _mm512_srli_epi64(c, kXorFoldShifts[0])),
                         _mm512_xor_si512(_mm512_srli_epi64(c, kXorFoldShifts[1]),
                                          _mm512_srli_epi64(c, kXorFoldShifts[2])));
  const __m512i x = _mm512_xor_si512(c, _mm512_srli_epi64(c, 32));  // the low 32 bits count
  // low = m * x mod 2^64; unit = (low * d) >> 64 = (low_hi * d + (low_lo * d >> 32)) >> 32.
  const __m512i low = _mm512_add_epi64(
      _mm512_mul_epu32(_mm512_set1_epi64(static_cast<long long>(m & 0xffffffffu)), x),
      _mm512_slli_epi64(_mm512_mul_epu32(_mm512_set1_epi64(static_cast<long long>(m >> 32)), x),
                        32));
  const __m512i d = _mm512_set1_epi64(map.modulus().divisor());
  const __m512i t = _mm512_add_epi64(_mm512_mul_epu32(_mm512_srli_epi64(low, 32), d),
                                     _mm512_srli_epi64(_mm512_mul_epu32(low, d), 32));
  return _mm512_cvtepi64_epi32(_mm512_srli_epi64(t, 32));
}

/// Bits of the sorted lanes in `e` whose value >> `shift` differs from the lane before's (`p`),
/// sixteen 32-bit lanes per register.
__attribute__((target("avx512f"), always_inline)) inline std::uint32_t starts32(
    const __m512i (&e)[2], const __m512i (&p)[2], unsigned shift) {
  const __m128i count = _mm_cvtsi32_si128(static_cast<int>(shift));
  return std::uint32_t{_mm512_cmpneq_epu32_mask(_mm512_srl_epi32(e[0], count),
                                                _mm512_srl_epi32(p[0], count))} |
         std::uint32_t{
             _mm512_cmpneq_epu32_mask(_mm512_srl_epi32(e[1], count), _mm512_srl_epi32(p[1], count))}
             << 16;
}

/// The L1 data stage's wavefronts (sim/model/l1_pipe.h) of a warp of one 4-byte word a lane:
/// `fresh` marks the sorted lanes whose word differs from the lane before's, `bank` holds every
/// sorted lane's bank (word mod 32) in two registers of sixteen; the busiest bank's distinct
/// words, counted over the fresh lanes only (two for a row's halves, up to 32 for a gather).
__attribute__((target("avx512f"), always_inline)) inline std::uint32_t busiest_bank16(
    const __m512i (&bank)[2], std::uint32_t fresh) {
  std::array<std::uint16_t, kWarpSize> id;
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(id.data()), _mm512_cvtepi32_epi16(bank[0]));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(id.data() + 16), _mm512_cvtepi32_epi16(bank[1]));
  std::array<std::uint8_t, kWarpSize> count{};
  std::uint32_t worst = 0;
  for (std::uint32_t m = fresh; m != 0; m &= m - 1)
    worst = std::max<std::uint32_t>(worst, ++count[id[static_cast<unsigned>(std::countr_zero(m))]]);
  return worst;
}

/// The analysis of a warp whose sorted addresses are `least` + `k` (32-bit offsets, the
/// largest below 2^32 - 128): offsets from the line of `least`, so that shifts by up to 7 bits
/// tell sectors, segments and lines apart exactly, sixteen lanes per register.
__attribute__((target("avx512f"), always_inline)) inline void analyze_narrow(
    const __m512i (&k)[2], std::uint64_t least, unsigned size, std::uint32_t segment_bytes,
    const Interleave& map, ScatteredWarp& out) {
  const __m512i in_line = _mm512_set1_epi32(static_cast<int>(least & 127));
  const __m512i e[2] = {_mm512_add_epi32(k[0], in_line), _mm512_add_epi32(k[1], in_line)};
  // Each lane's predecessor; lane 0's is its own complement, which differs at every shift.
  const __m512i flipped = _mm512_permutexvar_epi32(_mm512_setzero_si512(),
                                                   _mm512_xor_si512(e[0], _mm512_set1_epi32(-1)));
  const __m512i p[2] = {_mm512_alignr_epi32(e[0], flipped, 15),
                        _mm512_alignr_epi32(e[1], e[0], 15)};
  const unsigned segment_shift = static_cast<unsigned>(std::countr_zero(segment_bytes));
  fill_counts(out, size, segment_bytes, starts32(e, p, 0), starts32(e, p, 5),
              starts32(e, p, segment_shift), starts32(e, p, 7));
  if (size <= 4) {  // a word a lane: offsets from the line keep the word's bank (bits 2-6)
    const __m512i banks = _mm512_set1_epi32(31);
    const __m512i bank[2] = {_mm512_and_si512(_mm512_srli_epi32(e[0], 2), banks),
                             _mm512_and_si512(_mm512_srli_epi32(e[1], 2), banks)};
    out.data_wavefronts = busiest_bank16(bank, starts32(e, p, 2));
  }
  const __m512i first_line = _mm512_set1_epi64(static_cast<long long>(least & ~std::uint64_t{127}));
  const __m512i line_mask = _mm512_set1_epi64(~std::int64_t{127});
  __m512i offsets[4];
  detail::widen_keys(e, offsets);
  for (unsigned i = 0; i < 4; ++i) {
    const __m512i offset = offsets[i];
    _mm256_storeu_si256(
        reinterpret_cast<__m256i*>(out.unit.data() + 8 * i),
        units8(_mm512_add_epi64(first_line, _mm512_and_si512(offset, line_mask)), map));
  }
}

__attribute__((target("avx512f"))) bool analyze_avx512(const WarpInstr& w,
                                                       std::uint32_t segment_bytes,
                                                       const Interleave& map, ScatteredWarp& out) {
  __m512i s[4];
  __m512i any = _mm512_setzero_si512();
  for (unsigned i = 0; i < 4; ++i) {
    s[i] = _mm512_loadu_si512(&w.addr[8 * i]);
    any = _mm512_or_si512(any, s[i]);
  }
  // Unaligned accesses can straddle sectors and lines: the coalescer merges their byte ranges.
  if ((_mm512_reduce_or_epi64(any) & (w.size - 1)) != 0) return false;
  std::uint64_t least;
  __m512i k[2];
  if (detail::sorted_offsets(s, w.mask, 0xffffffffu - 127, least, k)) {
    analyze_narrow(k, least, w.size, segment_bytes, map, out);
    return true;
  }
  // Wider warps: the 64-bit network, in the same registers, and the analysis on them.
  detail::bitonic_sort64(s);
  // Each lane's predecessor; lane 0's is its own complement, which differs at every shift.
  const __m512i flipped = _mm512_permutexvar_epi64(_mm512_setzero_si512(),
                                                   _mm512_xor_si512(s[0], _mm512_set1_epi64(-1)));
  const __m512i p[4] = {_mm512_alignr_epi64(s[0], flipped, 7), _mm512_alignr_epi64(s[1], s[0], 7),
                        _mm512_alignr_epi64(s[2], s[1], 7), _mm512_alignr_epi64(s[3], s[2], 7)};
  const unsigned segment_shift = static_cast<unsigned>(std::countr_zero(segment_bytes));
  fill_counts(out, w.size, segment_bytes, starts(s, p, 0), starts(s, p, 5),
              starts(s, p, segment_shift), starts(s, p, 7));
  if (w.size <= 4) {
    const __m512i banks = _mm512_set1_epi64(31);
    __m512i b64[4];
    for (unsigned i = 0; i < 4; ++i) b64[i] = _mm512_and_si512(_mm512_srli_epi64(s[i], 2), banks);
    const __m512i bank[2] = {
        _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(b64[0])),
                           _mm512_cvtepi64_epi32(b64[1]), 1),
        _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(b64[2])),
                           _mm512_cvtepi64_epi32(b64[3]), 1)};
    out.data_wavefronts = busiest_bank16(bank, starts(s, p, 2));
  }
  const __m512i line = _mm512_set1_epi64(~std::int64_t{127});
  for (unsigned i = 0; i < 4; ++i)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out.unit.data() + 8 * i),
                        units8(_mm512_and_si512(s[i], line), map));
  return true;
}

}  // namespace

bool analyze_scattered_warp(const WarpInstr& w, std::uint32_t segment_bytes, const Interleave& map,
                            ScatteredWarp& out) {
  if (w.mask != 0xffffffffu || w.strided || !cpu_has_avx512f()) return false;
  if (!analyze_avx512(w, segment_bytes, map, out)) return false;
  // The L1 pipeline (l1_pipe.h): every access is aligned, so each lane has one line; accesses of
  // up to 4 bytes have one word a lane, whose data stage the analysis counted from the sorted
  // lanes. Wider ones go through the model's own count.
  if (w.size <= 4) {
    out.tag_lookups = std::max(distinct_per_quarter(w.addr, w.mask, 7), 4u);
  } else {
    const L1PipeCost pipe = l1_pipe_cost(w);
    out.tag_lookups = pipe.tag_lookups;
    out.data_wavefronts = pipe.data_wavefronts;
  }
  return true;
}

#else

bool analyze_scattered_warp(const WarpInstr&, std::uint32_t, const Interleave&, ScatteredWarp&) {
  return false;
}

#endif

}  // namespace gms
