#pragma once
/// One set-associative, sectored tag store, used for both L1 and L2 (slices). It holds tags and
/// per-sector valid and dirty masks as flat arrays (structure of arrays), sized once; the
/// replacement policy is a template parameter. It knows nothing of reads or writes: the L1 and L2
/// models build their rules (allocate on miss, write-through, write-back) from these primitives.
///
/// Speed: ways fill in order (lines are never invalidated one by one), so a per-set fill count
/// finds a free way in O(1) and bounds a lookup to the ways in use; the policies choose victims
/// in O(1) (LRU, FIFO, random) or a few passes (SRRIP). A set's state beyond its fill count is
/// never read: making the cache writes nothing but sizes (the memory's zeros stand), a set's
/// replacement state starts with its first fill, and clear() resets only the fill counts, so a
/// replay that touches a few lines of a 126 MiB L2 pays for those, not for the whole L2.

#include <algorithm>
#include <bit>
#include <cstdint>

#ifdef __SSE4_1__
#include <immintrin.h>
#endif

#include "sim/core/error.h"
#include "sim/core/state_array.h"
#include "sim/model/replacement.h"

namespace gms {

/// A cache's shape. Callers choose the set of each line (L1: line number mod sets; L2: an index
/// local to the slice), so `sets` need not be a power of two (an H200 L2 slice has 320).
struct CacheGeometry {
  std::uint32_t sets = 1;
  std::uint32_t ways = 1;
  std::uint32_t sectors_per_line = 4;  ///< 1 for a non-sectored cache, at most 8
};

/// What allocate() pushed out.
struct Eviction {
  bool valid = false;           ///< a line was replaced
  std::uint64_t key = 0;        ///< its line key
  std::uint8_t dirty_mask = 0;  ///< its dirty sectors (write-back traffic)
  /// Those of them not wholly written (dirty, never valid): a write-back may read them first.
  std::uint8_t partial_mask = 0;
};

/// The index of `key` among the `n` tags at `tags`, or -1. Always inlined: SectorCache::find
/// compiles as before it was moved here.
[[gnu::always_inline]] inline std::int32_t find_tag(const std::uint64_t* tags, std::uint32_t n,
                                                    std::uint64_t key) {
  std::uint32_t w = 0;
#ifdef __SSE4_1__
  // Eight tags per test in SSE4.1 compares (x86-64-v2), one branch per block: a miss in a
  // 64-way L1 set scans every way, which the compiler left as 64 scalar compares.
  const __m128i k = _mm_set1_epi64x(static_cast<long long>(key));
  for (; w + 8 <= n; w += 8) {
    auto eq = [&](std::uint32_t i) {
      return _mm_cmpeq_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(tags + i)), k);
    };
    const __m128i e0 = eq(w), e1 = eq(w + 2), e2 = eq(w + 4), e3 = eq(w + 6);
    const __m128i any = _mm_or_si128(_mm_or_si128(e0, e1), _mm_or_si128(e2, e3));
    if (_mm_testz_si128(any, any)) continue;
    const int hits =
        _mm_movemask_pd(_mm_castsi128_pd(e0)) | _mm_movemask_pd(_mm_castsi128_pd(e1)) << 2 |
        _mm_movemask_pd(_mm_castsi128_pd(e2)) << 4 | _mm_movemask_pd(_mm_castsi128_pd(e3)) << 6;
    return static_cast<std::int32_t>(
        w + static_cast<std::uint32_t>(std::countr_zero(static_cast<unsigned>(hits))));
  }
#endif
  for (; w < n; ++w)
    if (tags[w] == key) return static_cast<std::int32_t>(w);
  return -1;
}

/// `kWriteBack`: the cache keeps per-sector dirty masks. A write-through cache (the L1) has
/// none: its allocations neither read nor clear them, one host cache miss fewer per fill.
template <ReplacementPolicy Policy, bool kWriteBack = true>
class SectorCache {
 public:
  static constexpr std::int32_t kMiss = -1;
  explicit SectorCache(const CacheGeometry& g, Policy policy = {})
      : g_(g), policy_(std::move(policy)) {
    GMS_ASSERT(g.sets > 0 && g.ways > 0, "empty cache");
    GMS_ASSERT(g.sectors_per_line >= 1 && g.sectors_per_line <= 8, "sectors per line");
    const std::size_t lines = std::size_t{g.sets} * g.ways;
    key_.resize(lines);  // read only below a set's fill count
    masks_.resize(lines);
    filled_.resize(g.sets);  // zeros: every set empty
    policy_.init(g.sets, g.ways);
  }

  const CacheGeometry& geometry() const { return g_; }

  /// The way of `set` holding `key`'s tag, or kMiss. Does not touch replacement state.
  std::int32_t find(std::uint32_t set, std::uint64_t key) const {
    return find_tag(key_.data() + std::size_t{set} * g_.ways, filled_[set], key);
  }

  /// Requests `set`'s valid and dirty masks (a hint): an access reads them once its way is
  /// known, a host memory miss that would otherwise wait for the tag scan's.
  void prefetch_masks(std::uint32_t set) const {
    const std::size_t base = std::size_t{set} * g_.ways;
    __builtin_prefetch(masks_.data() + base);
  }

  /// Marks a hit on (set, way) for the replacement policy.
  void touch(std::uint32_t set, std::uint32_t way) { policy_.on_hit(set, way); }

  /// Allocates a way for `key` (which must be absent): a free way if any, else the policy's
  /// victim, whose state is reported in `ev`. The new line starts with no valid or dirty sectors.
  /// `rank` > 0: the line enters the policy's order behind `rank` ways (LRU; the other
  /// policies keep no order and fill it as any line).
  std::uint32_t allocate(std::uint32_t set, std::uint64_t key, Eviction& ev,
                         std::uint32_t rank = 0) {
    const std::size_t base = std::size_t{set} * g_.ways;
    std::uint32_t way;
    ev = {};
    if (filled_[set] < g_.ways) {
      way = filled_[set]++;
      if (way == 0) policy_.start(set);  // the set's first line since it was made or cleared
    } else {
      way = policy_.victim(set);
      ev = {true, key_[base + way], dirty_or_zero(base + way), partial_or_zero(base + way)};
    }
    key_[base + way] = key;
    masks_[base + way] = MaskEntry{};
    if (rank == 0)
      policy_.on_fill(set, way);
    else
      policy_.on_fill_at(set, way, rank);
    return way;
  }

  /// Sectors whose data is present, and sectors written since the fill (write-back state).
  std::uint8_t& valid(std::size_t slot) {
    if constexpr (kWriteBack)
      return masks_[slot].valid;
    else
      return masks_[slot];
  }
  std::uint8_t& dirty(std::size_t slot) requires kWriteBack { return masks_[slot].dirty; }

  /// A dense index of (set, way) in [0, sets x ways), for per-line state and side tables.
  std::size_t slot(std::uint32_t set, std::uint32_t way) const {
    return std::size_t{set} * g_.ways + way;
  }

  /// Calls f(slot, key, dirty_mask) for every present line in slot order, e.g. to write back
  /// dirty data.
  template <class F>
  void for_each_line(F f) const {
    for (std::uint32_t set = 0; set < g_.sets; ++set)
      for (std::size_t i = slot(set, 0), end = i + filled_[set]; i < end; ++i)
        f(i, key_[i], dirty_or_zero(i));
  }

  /// Invalidates everything (and forgets dirty state: write it back first if it matters). Ways
  /// past a set's fill count are never read, and allocate() resets what it fills.
  void clear() { std::fill(filled_.begin(), filled_.end(), 0); }

 private:
  /// A write-back cache's line keeps both masks side by side: an allocation reads the victim's
  /// dirty mask and clears both, one host cache miss instead of two.
  struct Masks {
    std::uint8_t valid, dirty;  // no initializers: see the constructor
  };
  using MaskEntry = std::conditional_t<kWriteBack, Masks, std::uint8_t>;

  std::uint8_t dirty_or_zero(std::size_t slot) const {
    if constexpr (kWriteBack)
      return masks_[slot].dirty;
    else
      return 0;
  }
  std::uint8_t partial_or_zero(std::size_t slot) const {
    if constexpr (kWriteBack)
      return static_cast<std::uint8_t>(masks_[slot].dirty & ~masks_[slot].valid);
    else
      return 0;
  }

  CacheGeometry g_;
  Policy policy_;
  StateArray<std::uint64_t> key_;  ///< per line: tag (below the set's fill count)
  /// Per line: valid sectors, and for a write-back cache dirty sectors.
  StateArray<MaskEntry> masks_;
  StateArray<std::uint32_t> filled_;  ///< per set: ways in use (they fill in order)
};

}  // namespace gms
