#pragma once
/// The reference's set-associative, sectored tag store (sim/replay/reference_engine.h): one for
/// each L1 and each L2 slice. Written to be read, not to be fast: a set is a std::vector of
/// ways, each way a struct holding everything the caches keep about its line, and the
/// replacement policy is a run-time choice among the four the configuration allows.
///
/// Rules ([NVF] in docs/hardware.md; the configuration keys l1.policy and l2.policy):
/// - A line enters the first way of its set that was never used since the cache was emptied
///   (ways fill in order; single lines are never freed); only a full set has a victim.
/// - LRU: the victim is the way used least recently (a hit and a fill both count as a use).
/// - FIFO: the victim is the way filled longest ago; hits do not protect a line.
/// - Random: a seeded xorshift64 generator (shifts 13, 7, 17) picks way (state mod ways); one
///   generator per cache, which keeps running when the cache is emptied.
/// - SRRIP (Jaleel et al., ISCA 2010), 2-bit re-reference predictions: a fill predicts 2, a
///   hit 0; the victim is the first way predicting 3, after ageing the whole set by one as often
///   as no way does.
/// - NRU (the 1-bit case of SRRIP in the same paper): a hit or a fill marks the line recent; when
///   then every way of the set is recent, the others stop being recent. The victim is the first
///   way not recent (a one-way set: its way).

#include <array>
#include <cstdint>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/types.h"

namespace gms::ref {

/// Who last wrote a line: the kernel (a sequence number over the run) and its instruction row.
struct Owner {
  std::uint32_t kernel = 0;
  std::uint32_t row = 0;
};

/// One way of a set: its line and the line's state.
struct Way {
  bool used = false;       ///< holds a line (the line's key is `key`)
  std::uint64_t key = 0;   ///< the line's address / line size
  std::uint8_t valid = 0;  ///< bit s: sector s holds data
  std::uint8_t dirty = 0;  ///< bit s: sector s was written since the fill (write-back caches)
  /// Per sector: the bytes written (bit b = byte b) while the sector held no data; a sector
  /// whose 32 bytes are all written becomes valid.
  std::array<std::uint32_t, 8> written{};
  Owner owner;  ///< the last writer (write-back caches)
  // Replacement state:
  std::uint64_t last_use = 0;   ///< LRU: the cache's use count at the last hit or fill
  std::uint64_t filled_at = 0;  ///< FIFO: the cache's use count at the fill
  std::uint8_t rrpv = 3;        ///< SRRIP: the re-reference prediction, 0 (soon) to 3 (distant)
  bool recent = false;          ///< NRU: used since the set's last epoch began
};

/// What an allocation pushed out of its set.
struct Evicted {
  bool any = false;  ///< a line was replaced
  Way line;          ///< its state before it went
};

class PlainSectorCache {
 public:
  /// `sets` sets of `ways` ways; `seed` starts the random policy's generator.
  PlainSectorCache(std::uint32_t sets, std::uint32_t ways, ReplacementKind policy,
                   std::uint64_t seed);

  std::uint32_t sets() const { return static_cast<std::uint32_t>(sets_.size()); }

  /// The way of `set` that holds line `key`, or -1.
  int find(std::uint32_t set, std::uint64_t key) const;

  /// A lookup that found the line in `way` of `set`: a use, for the policy.
  void touch(std::uint32_t set, int way);

  /// Puts line `key` (absent) into `set`: a never-used way, else the policy's victim (reported
  /// in `evicted`). The line starts with no valid or dirty sectors and nothing written. Under
  /// LRU it is the most recently used line, or with `rank` > 0 the line behind the `rank` most
  /// recently used others (all of them, when the set holds fewer); the other policies fill it
  /// as any line.
  int allocate(std::uint32_t set, std::uint64_t key, Evicted& evicted, std::uint32_t rank = 0);

  Way& way(std::uint32_t set, int w) { return sets_[set][static_cast<std::size_t>(w)]; }

  /// Every set, for a walk over the lines (the end-of-kernel write-back). A set that has held no
  /// line since the cache was made or emptied has no ways.
  std::vector<std::vector<Way>>& all_sets() { return sets_; }

  /// Empties every set (the random generator keeps its state).
  void clear();

 private:
  int victim(std::uint32_t set);
  void enter_lru_at(std::uint32_t set, int w, std::uint32_t rank);  // see allocate()
  void mark_recent(std::uint32_t set, int w);                       // NRU

  /// The key of "no line": no address reaches it (keys are addresses / at least 32).
  static constexpr std::uint64_t kNoLine = ~std::uint64_t{0};

  /// Per set, its ways; a set gets them with its first line (allocate()), so that a cache of
  /// millions of lines costs nothing to make, empty or walk where a replay touches few of them
  /// (a small trace on a Blackwell preset's 126 MiB L2 spent most of its time there).
  std::vector<std::vector<Way>> sets_;
  /// Per set, per way: the key of the line it holds, or kNoLine. The keys of sets_ again, side
  /// by side so that a lookup reads one short array, not every way's whole state (a cached replay
  /// of a random trace spent 60% of its time in the lookup without it).
  std::vector<std::vector<std::uint64_t>> tags_;
  std::uint32_t ways_;
  ReplacementKind policy_;
  std::uint64_t uses_ = 0;  ///< hits and fills so far: the LRU and FIFO clock
  std::uint64_t random_state_;
};

}  // namespace gms::ref
