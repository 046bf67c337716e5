#pragma once
/// The shared-memory bank arbiter: how many wavefronts (bank-array passes) one warp-level shared
/// access needs.
///
/// Rule (fits every row of the H200 observations in docs/groundtruth.md and the
/// worked examples' 4-byte cases, docs/examples.md C): split every active lane's bytes into
/// bank-width words; a bank serves one distinct word per wavefront, and any number of lanes reading
/// the same word share it (broadcast). So wavefronts = the largest number of distinct words any one
/// bank holds, over the whole warp.
///   - 4-byte, stride s words: gcd(s, 32) wavefronts (the notes' table C).
///   - 8-byte conflict-free (lane t reads bytes 8t..8t+7): words 0..63, two per bank -> 2.
///   - 8-byte broadcast: two words, in different banks -> 1.
///   - 8-byte at a stride of 32 elements (256 bytes): words 64t and 64t+1, all lanes in banks 0
///     and 1 -> 32 (a per-half-warp model with 8-byte banks would give 16; the H200 shows 32).
///   - 16-byte conflict-free: words 0..127, four per bank -> 4.
/// A model that issues each half-warp separately for 8-byte accesses would give 2 for the 8-byte
/// broadcast, which the H200 does in 1; the whole-warp rule needs no per-width special case.
/// Ideal wavefronts = ceil(distinct words / banks): the passes the data volume alone needs (one
/// wavefront moves banks x width bytes, 128 on every GPU since Maxwell), so LDS.128 ideally
/// takes 4.

#include <array>
#include <cstdint>
#include <span>

#include "sim/config/config.h"
#include "sim/core/records.h"

namespace gms {

struct BankAccess {
  std::uint32_t wavefronts = 0;
  std::uint32_t ideal_wavefronts = 0;
  std::uint32_t conflicts() const { return wavefronts - ideal_wavefronts; }
};

/// The banked-array rule on a list of word addresses (`words`, reordered by the call): a bank
/// (word & bank_mask) serves one distinct word per wavefront, so the result's wavefronts are the
/// most distinct words any bank holds, its ideal ones ceil(distinct words / banks). The L1 data
/// array (l1_pipe.h) is banked the same way.
BankAccess busiest_bank(std::span<Addr> words, std::uint32_t bank_mask);
/// The same for the words key >> `shift` of `keys` (at least one), in increasing order.
BankAccess busiest_bank_sorted(std::span<const Addr> keys, unsigned shift, std::uint32_t bank_mask);

/// Computes wavefronts for shared-memory warp instructions under one SharedMemConfig.
class SmemArbiter {
 public:
  /// Largest supported bank count (the table of per-bank counters is fixed-size).
  static constexpr std::uint32_t kMaxBanks = 64;

  explicit SmemArbiter(const SharedMemConfig& cfg);

  /// Wavefronts for `w` (at least one active lane).
  BankAccess arbitrate(const WarpInstr& w) const;

 private:
  std::uint32_t bank_mask_;
  unsigned word_shift_;
};

}  // namespace gms
