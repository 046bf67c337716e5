#pragma once
/// Address interleaving shared by the L2 (address -> slice) and DRAM (address -> channel):
/// consecutive `interleave` bytes go to one unit; units follow each other round-robin (linear)
/// or after XOR-folding higher address bits into the chunk number (xor), which spreads strides
/// that are multiples of units x interleave. The real hashes are not published.

#include <bit>
#include <cstdint>

#include "sim/config.h"
#include "sim/types.h"

namespace gms {

class Interleave {
 public:
  Interleave(std::uint32_t units, std::uint32_t interleave_bytes, SliceHash hash)
      : units_(units),
        shift_(static_cast<unsigned>(std::countr_zero(interleave_bytes))),
        hash_(hash) {}

  std::uint32_t unit_of(Addr addr) const {
    std::uint64_t chunk = addr >> shift_;
    if (hash_ == SliceHash::Xor) chunk ^= (chunk >> 7) ^ (chunk >> 13) ^ (chunk >> 19);
    return static_cast<std::uint32_t>(chunk % units_);
  }
  std::uint32_t units() const { return units_; }

 private:
  std::uint32_t units_;
  unsigned shift_;
  SliceHash hash_;
  std::uint64_t inverse_;  ///< ceil(2^64 / units)
};

inline Interleave l2_slices(const L2Config& c) {
  return {c.slices, c.interleave_bytes, c.hash};
}
inline Interleave dram_channels(const DramConfig& c) {
  return {c.channels, c.interleave_bytes, c.hash};
}

}  // namespace gms
