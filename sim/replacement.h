#pragma once
/// Replacement policies for SectorCache: small structs chosen at compile time (a concept, no
/// virtual calls). Each keeps its own per-line state, sized once in init(); the cache prefers an
/// invalid way before asking the policy for a victim.

#include <concepts>
#include <cstdint>
#include <vector>

namespace gms {

template <class P>
concept ReplacementPolicy = requires(P p, std::uint32_t set, std::uint32_t way, std::uint32_t n) {
  p.init(n, n);                                      // sets, ways
  p.on_hit(set, way);                                // a lookup found the line
  p.on_fill(set, way);                               // a line was allocated in this way
  { p.victim(set) } -> std::same_as<std::uint32_t>;  // way to evict when all are valid
};

/// Least recently used: a per-line timestamp; the oldest is evicted.
struct LruPolicy {
  void init(std::uint32_t sets, std::uint32_t ways) {
    ways_ = ways;
    stamp_.assign(std::size_t{sets} * ways, 0);
  }
  void on_hit(std::uint32_t set, std::uint32_t way) { stamp_[idx(set, way)] = ++clock_; }
  void on_fill(std::uint32_t set, std::uint32_t way) { stamp_[idx(set, way)] = ++clock_; }
  std::uint32_t victim(std::uint32_t set) const { return oldest(set); }

 protected:
  std::size_t idx(std::uint32_t set, std::uint32_t way) const {
    return std::size_t{set} * ways_ + way;
  }
  std::uint32_t oldest(std::uint32_t set) const {
    std::uint32_t best = 0;
    for (std::uint32_t w = 1; w < ways_; ++w)
      if (stamp_[idx(set, w)] < stamp_[idx(set, best)]) best = w;
    return best;
  }
  std::uint32_t ways_ = 0;
  std::uint64_t clock_ = 0;
  std::vector<std::uint64_t> stamp_;
};

/// First in, first out: the stamp is set on fill only, so hits do not protect a line.
struct FifoPolicy : LruPolicy {
  void on_hit(std::uint32_t, std::uint32_t) {}
};

/// Uniformly random victim from a seeded xorshift generator (reproducible runs).
struct RandomPolicy {
  explicit RandomPolicy(std::uint64_t seed = 1) : state_(seed ? seed : 0x9e3779b97f4a7c15ull) {}
  void init(std::uint32_t, std::uint32_t ways) { ways_ = ways; }
  void on_hit(std::uint32_t, std::uint32_t) {}
  void on_fill(std::uint32_t, std::uint32_t) {}
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
    rrpv_.assign(std::size_t{sets} * ways, kDistant);
  }
  void on_hit(std::uint32_t set, std::uint32_t way) { rrpv_[idx(set, way)] = 0; }
  void on_fill(std::uint32_t set, std::uint32_t way) { rrpv_[idx(set, way)] = kDistant - 1; }
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
  std::vector<std::uint8_t> rrpv_;
};

static_assert(ReplacementPolicy<LruPolicy>);
static_assert(ReplacementPolicy<FifoPolicy>);
static_assert(ReplacementPolicy<RandomPolicy>);
static_assert(ReplacementPolicy<SrripPolicy>);

}  // namespace gms
