#pragma once
/// Replacement policies for SectorCache: small structs chosen at compile time (a concept, no
/// virtual calls). Each keeps its own per-line state, sized once in init(); the cache prefers an
/// invalid way before asking the policy for a victim.

#include <concepts>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace gms {

template <class P>
concept ReplacementPolicy = requires(P p, std::uint32_t set, std::uint32_t way, std::uint32_t n) {
  p.init(n, n);                                      // sets, ways
  p.on_hit(set, way);                                // a lookup found the line
  p.on_fill(set, way);                               // a line was allocated in this way
  { p.victim(set) } -> std::same_as<std::uint32_t>;  // way to evict when all are valid
};

/// Least recently used, as a doubly linked list per set (most recent at the head): a hit or a
/// fill moves the line to the head, the victim is the tail; all O(1). A set's head, tail and
/// links are 16-bit way numbers packed in one block of 2 + 2 x ways entries, so an update touches
/// one or two cache lines (separate 32-bit arrays made every L2 update miss four times).
struct LruPolicy {
  void init(std::uint32_t sets, std::uint32_t ways) {
    if (ways >= kNil) throw std::invalid_argument("LRU: at most 65534 ways per set");
    ways_ = ways;
    stride_ = 2 + 2 * std::size_t{ways};
    links_.assign(std::size_t{sets} * stride_, kNil);
  }
  void on_hit(std::uint32_t set, std::uint32_t way) {
    std::uint16_t* s = block(set);
    if (s[kHead] == way) return;
    unlink(s, way);
    push_front(s, way);
  }
  void on_fill(std::uint32_t set, std::uint32_t way) {
    // A filled way is either new (not linked) or the victim just returned (the tail).
    std::uint16_t* s = block(set);
    if (s[kTail] == way) unlink(s, way);
    push_front(s, way);
  }
  std::uint32_t victim(std::uint32_t set) const { return links_[set * stride_ + kTail]; }

 private:
  static constexpr std::uint16_t kNil = 0xffff;
  static constexpr std::size_t kHead = 0, kTail = 1;
  std::uint16_t* block(std::uint32_t set) { return links_.data() + set * stride_; }
  std::uint16_t& prev(std::uint16_t* s, std::uint32_t way) const { return s[2 + way]; }
  std::uint16_t& next(std::uint16_t* s, std::uint32_t way) const { return s[2 + ways_ + way]; }
  void unlink(std::uint16_t* s, std::uint32_t way) {
    const std::uint16_t p = prev(s, way), n = next(s, way);
    (p == kNil ? s[kHead] : next(s, p)) = n;
    (n == kNil ? s[kTail] : prev(s, n)) = p;
  }
  void push_front(std::uint16_t* s, std::uint32_t way) {
    const std::uint16_t h = s[kHead];
    prev(s, way) = kNil;
    next(s, way) = h;
    if (h != kNil) prev(s, h) = static_cast<std::uint16_t>(way);
    s[kHead] = static_cast<std::uint16_t>(way);
    if (s[kTail] == kNil) s[kTail] = static_cast<std::uint16_t>(way);
  }
  std::uint32_t ways_ = 0;
  std::size_t stride_ = 2;
  std::vector<std::uint16_t> links_;  ///< per set: head, tail, prev[ways], next[ways]
};

/// First in, first out: ways are replaced in round-robin order (they also fill in order), and
/// hits do not protect a line.
struct FifoPolicy {
  void init(std::uint32_t sets, std::uint32_t ways) {
    ways_ = ways;
    next_.assign(sets, 0);
  }
  void on_hit(std::uint32_t, std::uint32_t) {}
  void on_fill(std::uint32_t, std::uint32_t) {}
  std::uint32_t victim(std::uint32_t set) {
    const std::uint32_t w = next_[set];
    next_[set] = w + 1 == ways_ ? 0 : w + 1;
    return w;
  }

 private:
  std::uint32_t ways_ = 1;
  std::vector<std::uint32_t> next_;
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
