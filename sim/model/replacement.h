#pragma once
/// Replacement policies for SectorCache: small structs that are template parameters (a concept,
/// no virtual calls). Each keeps its own per-line state, sized once in init() and set up one set
/// at a time by start(), which the cache calls before a set's first fill (after init() and after
/// each clear), so that a cache of a million lines costs only what a replay touches; the cache
/// prefers an invalid way before asking the policy for a victim. The engines are instantiated for
/// LRU and for ChosenPolicy, which switches among the others at run time (end of this file).

#include <algorithm>
#include <bit>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <vector>

#include "sim/config/config.h"  // ReplacementKind
#include "sim/core/error.h"
#include "sim/core/state_array.h"

namespace gms {

template <class P>
concept ReplacementPolicy = requires(P p, std::uint32_t set, std::uint32_t way, std::uint32_t n) {
  p.init(n, n);               // sets, ways: sizes the state (writes nothing)
  p.start(set);               // makes a set as new, before its first fill
  p.on_hit(set, way);         // a lookup found the line
  p.on_fill(set, way);        // a line was allocated in this way
  p.on_fill_at(set, way, n);  // the same, for a line that enters behind n more recent ones
  { p.victim(set) } -> std::same_as<std::uint32_t>;  // way to evict when all are valid
};

/// Least recently used, kept as each set's ways in order of use (most recent first, 16 bits
/// each): a hit or a fill moves the way to the front, shifting the ways before it back by one;
/// the victim is the last. The order starts as 0, 1, ..., ways - 1 and ways fill in that order,
/// so a way not yet used sits at its own index. A 16-way L2 set's order takes 32 bytes, half a
/// host cache line (a doubly linked list took 68 bytes, spread over two): the H200's 30,720 L2
/// sets and 4,224 L1 sets stay in the host's caches, which decides a cached replay's speed.
struct LruPolicy {
  void init(std::uint32_t sets, std::uint32_t ways) {
    if (ways >= kPad) fail("LRU: at most 65534 ways per set, not {}", ways);
    ways_ = ways;
    stride_ = (std::size_t{ways} + 3) / 4 * 4;  // whole groups of four for the scan
    order_.resize(std::size_t{sets} * stride_);
  }
  void start(std::uint32_t set) {
    std::uint16_t* o = order_.data() + set * stride_;
    for (std::uint32_t w = 0; w < ways_; ++w) o[w] = static_cast<std::uint16_t>(w);
    std::fill(o + ways_, o + stride_, kPad);
  }
  void on_hit(std::uint32_t set, std::uint32_t way) { move_to_front(set, way); }
  void on_fill(std::uint32_t set, std::uint32_t way) { move_to_front(set, way); }
  /// A fill that enters the order at position `rank` (0: the front, as on_fill), behind `rank`
  /// ways; never-used ways count in the order, but they are filled before any victim is chosen.
  void on_fill_at(std::uint32_t set, std::uint32_t way, std::uint32_t rank) {
    std::uint16_t* o = order_.data() + set * stride_;
    const std::size_t from = position(o, way);
    const std::size_t to = std::min<std::size_t>(rank, ways_ - 1);
    if (from < to)
      std::memmove(o + from, o + from + 1, (to - from) * sizeof *o);
    else if (from > to)
      std::memmove(o + to + 1, o + to, (from - to) * sizeof *o);
    o[to] = static_cast<std::uint16_t>(way);
  }
  std::uint32_t victim(std::uint32_t set) const { return order_[set * stride_ + ways_ - 1]; }

 private:
  static constexpr std::uint16_t kPad = 0xffff;  ///< fills a set's order up to the stride

  void move_to_front(std::uint32_t set, std::uint32_t way) {
    std::uint16_t* o = order_.data() + set * stride_;
    if (o[0] == way) return;
    const std::size_t p = position(o, way);
    std::memmove(o + 1, o, p * sizeof *o);
    o[0] = static_cast<std::uint16_t>(way);
  }

  /// Where `way` sits in a set's order. The common places first: the last (a victim being
  /// refilled) and its own index (a way filled for the first time); else four at a time.
  std::size_t position(const std::uint16_t* o, std::uint32_t way) const {
    if (o[ways_ - 1] == way) return ways_ - 1;
    if (o[way] == way) return way;
    constexpr std::uint64_t kLanes = 0x0001000100010001ull, kLow15 = 0x7fff7fff7fff7fffull;
    const std::uint64_t want = kLanes * way;
    for (std::size_t i = 0;; i += 4) {
      std::uint64_t group;
      std::memcpy(&group, o + i, sizeof group);
      const std::uint64_t x = group ^ want;
      const std::uint64_t zero = ~(((x & kLow15) + kLow15) | x | kLow15);  // 0x8000 where equal
      if (zero != 0) return i + static_cast<std::size_t>(std::countr_zero(zero)) / 16;
    }
  }

  std::uint32_t ways_ = 0;
  std::size_t stride_ = 4;
  StateArray<std::uint16_t> order_;  ///< per set: its ways, most recent first, then kPad
};

/// First in, first out: ways are replaced in round-robin order (they also fill in order), and
/// hits do not protect a line.
struct FifoPolicy {
  void init(std::uint32_t sets, std::uint32_t ways) {
    ways_ = ways;
    next_.resize(sets);
  }
  void start(std::uint32_t set) { next_[set] = 0; }
  void on_hit(std::uint32_t, std::uint32_t) {}
  void on_fill(std::uint32_t, std::uint32_t) {}
  void on_fill_at(std::uint32_t, std::uint32_t, std::uint32_t) {}  // no order to enter
  std::uint32_t victim(std::uint32_t set) {
    const std::uint32_t w = next_[set];
    next_[set] = w + 1 == ways_ ? 0 : w + 1;
    return w;
  }

 private:
  std::uint32_t ways_ = 1;
  StateArray<std::uint32_t> next_;
};

/// Uniformly random victim from a seeded xorshift generator (reproducible runs).
struct RandomPolicy {
  explicit RandomPolicy(std::uint64_t seed = 1) : state_(seed ? seed : 0x9e3779b97f4a7c15ull) {}
  void init(std::uint32_t, std::uint32_t ways) { ways_ = ways; }
  void start(std::uint32_t) {}  // no state per set
  void on_hit(std::uint32_t, std::uint32_t) {}
  void on_fill(std::uint32_t, std::uint32_t) {}
  void on_fill_at(std::uint32_t, std::uint32_t, std::uint32_t) {}  // no order to enter
  std::uint32_t victim(std::uint32_t) {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return static_cast<std::uint32_t>(state_ % ways_);
  }

 private:
  std::uint32_t ways_ = 1;
  std::uint64_t state_;
};

/// Static re-reference interval prediction (SRRIP, Jaleel et al., ISCA 2010) with 2-bit values:
/// a new line is inserted with a "long" re-reference prediction (2), a hit promotes it to 0, and
/// the victim is the first line predicted "distant" (3), ageing the set until one is. Unlike
/// LRU it keeps part of a working set that is slightly larger than the cache instead of
/// thrashing it all, which is what the H200's 256 and 320 KiB windows suggest.
struct SrripPolicy {
  void init(std::uint32_t sets, std::uint32_t ways) {
    ways_ = ways;
    rrpv_.resize(std::size_t{sets} * ways);
  }
  void start(std::uint32_t set) { std::fill_n(rrpv_.data() + idx(set, 0), ways_, kDistant); }
  void on_hit(std::uint32_t set, std::uint32_t way) { rrpv_[idx(set, way)] = 0; }
  void on_fill(std::uint32_t set, std::uint32_t way) { rrpv_[idx(set, way)] = kDistant - 1; }
  /// No order to enter: a fill like any other.
  void on_fill_at(std::uint32_t set, std::uint32_t way, std::uint32_t) { on_fill(set, way); }
  std::uint32_t victim(std::uint32_t set) {
    for (;;) {
      for (std::uint32_t w = 0; w < ways_; ++w)
        if (rrpv_[idx(set, w)] == kDistant) return w;
      for (std::uint32_t w = 0; w < ways_; ++w) ++rrpv_[idx(set, w)];
    }
  }

 private:
  static constexpr std::uint8_t kDistant = 3;
  std::size_t idx(std::uint32_t set, std::uint32_t way) const {
    return std::size_t{set} * ways_ + way;
  }
  std::uint32_t ways_ = 0;
  StateArray<std::uint8_t> rrpv_;
};

/// Not recently used (one reference bit per line, the 1-bit case of SRRIP in Jaleel et al., ISCA
/// 2010, their section 2, where it is the policy of the Sun UltraSPARC T2's L2): a hit or a fill
/// sets the line's bit, and when that leaves every bit of the set on, the set's other bits go
/// off; the victim is the lowest way whose bit is off. On a cyclic sweep slightly larger than a
/// set it keeps part of the sweep (LRU keeps none), falling off as the sweep grows.
struct NruPolicy {
  void init(std::uint32_t sets, std::uint32_t ways) {
    ways_ = ways;
    words_ = (ways + 63) / 64;
    last_ = ways % 64 == 0 ? ~std::uint64_t{0} : (std::uint64_t{1} << (ways % 64)) - 1;
    bits_.resize(std::size_t{sets} * words_);
  }
  void start(std::uint32_t set) {
    std::fill_n(bits_.data() + std::size_t{set} * words_, words_, std::uint64_t{0});
  }
  void on_hit(std::uint32_t set, std::uint32_t way) { use(set, way); }
  void on_fill(std::uint32_t set, std::uint32_t way) { use(set, way); }
  /// No order to enter: a fill like any other.
  void on_fill_at(std::uint32_t set, std::uint32_t way, std::uint32_t) { use(set, way); }
  std::uint32_t victim(std::uint32_t set) const {
    const std::uint64_t* b = bits_.data() + std::size_t{set} * words_;
    std::uint32_t i = 0;
    while (i + 1 < words_ && ~b[i] == 0) ++i;
    const std::uint32_t way = i * 64 + static_cast<std::uint32_t>(std::countr_one(b[i]));
    return way < ways_ ? way : 0;  // every bit on: only a one-way set, after its epoch
  }

 private:
  void use(std::uint32_t set, std::uint32_t way) {
    std::uint64_t* b = bits_.data() + std::size_t{set} * words_;
    b[way / 64] |= std::uint64_t{1} << (way % 64);
    for (std::uint32_t i = 0; i + 1 < words_; ++i)
      if (~b[i] != 0) return;
    if (b[words_ - 1] != last_) return;
    std::fill(b, b + words_, std::uint64_t{0});  // every line was used: a new epoch
    b[way / 64] = std::uint64_t{1} << (way % 64);
  }

  std::uint32_t ways_ = 1, words_ = 1;
  std::uint64_t last_ = 0;  ///< the bits of the ways in a set's last word
  StateArray<std::uint64_t> bits_;
};

/// FIFO, random, SRRIP or NRU, the one the configuration names, chosen when the cache is made.
/// Every preset uses LRU, which keeps engines of its own (LruPolicy); the other three share one set
/// of engines through this switch on a kind that never changes in a run (the host's branch
/// predictor learns it at once). Each engine is then compiled for 2 x 2 (L1, L2) policy pairs
/// instead of 4 x 4, a quarter of the heaviest translation units' build time.
class ChosenPolicy {
 public:
  ChosenPolicy() = default;
  ChosenPolicy(ReplacementKind kind, std::uint64_t seed) : kind_(kind), random_(seed) {
    if (kind == ReplacementKind::Lru) fail("ChosenPolicy: LRU has its own policy type");
  }

 private:
  /// f(policy) on the policy the kind names: the one switch on it.
  template <class F>
  decltype(auto) chosen(F&& f) {
    switch (kind_) {
      case ReplacementKind::Random:
        return f(random_);
      case ReplacementKind::Srrip:
        return f(srrip_);
      case ReplacementKind::Nru:
        return f(nru_);
      default:
        return f(fifo_);
    }
  }

 public:
  void init(std::uint32_t sets, std::uint32_t ways) {
    chosen([&](auto& p) { p.init(sets, ways); });
  }
  void start(std::uint32_t set) {
    chosen([&](auto& p) { p.start(set); });
  }
  void on_hit(std::uint32_t set, std::uint32_t way) {
    if (kind_ == ReplacementKind::Srrip) srrip_.on_hit(set, way);  // FIFO, random: nothing
    if (kind_ == ReplacementKind::Nru) nru_.on_hit(set, way);
  }
  void on_fill(std::uint32_t set, std::uint32_t way) {
    if (kind_ == ReplacementKind::Srrip) srrip_.on_fill(set, way);
    if (kind_ == ReplacementKind::Nru) nru_.on_fill(set, way);
  }
  /// None of these policies keeps an order: a fill like any other.
  void on_fill_at(std::uint32_t set, std::uint32_t way, std::uint32_t) { on_fill(set, way); }
  std::uint32_t victim(std::uint32_t set) {
    return chosen([&](auto& p) { return p.victim(set); });
  }

 private:
  ReplacementKind kind_ = ReplacementKind::Fifo;
  FifoPolicy fifo_;
  RandomPolicy random_;
  SrripPolicy srrip_;
  NruPolicy nru_;
};

static_assert(ReplacementPolicy<LruPolicy>);
static_assert(ReplacementPolicy<FifoPolicy>);
static_assert(ReplacementPolicy<RandomPolicy>);
static_assert(ReplacementPolicy<SrripPolicy>);
static_assert(ReplacementPolicy<NruPolicy>);
static_assert(ReplacementPolicy<ChosenPolicy>);

}  // namespace gms
