#pragma once
/// Address interleaving shared by the L2 (address -> slice) and DRAM (address -> channel):
/// consecutive `interleave` bytes go to one unit; units follow each other round-robin (linear)
/// or after XOR-folding higher address bits into the chunk number (xor), which spreads strides
/// that are multiples of units x interleave. The real hashes are not published.

#include <bit>
#include <cstdint>

#include "sim/config/config.h"
#include "sim/core/types.h"
#include "sim/host/fast_div.h"

namespace gms {

class Interleave {
 public:
  Interleave(std::uint32_t units, std::uint32_t interleave_bytes, SliceHash hash)
      : units_(units),
        shift_(static_cast<unsigned>(std::countr_zero(interleave_bytes))),
        hash_(hash),
        mod_(units) {}

  /// The unit of a byte address. Chunk numbers are folded to 32 bits first (exact below 2^32
  /// chunks, a terabyte at 256-byte interleave), so the modulo is a multiply, not a division,
  /// on this per-access path.
  std::uint32_t unit_of(Addr addr) const {
    std::uint64_t chunk = addr >> shift_;
    if (hash_ == SliceHash::Xor) chunk ^= (chunk >> 7) ^ (chunk >> 13) ^ (chunk >> 19);
    return mod_.mod(fold32(chunk));
  }
  std::uint32_t units() const { return units_; }
  /// The parameters of unit_of, for vector versions of it.
  unsigned shift() const { return shift_; }
  bool xor_hash() const { return hash_ == SliceHash::Xor; }
  const FastDiv32& modulus() const { return mod_; }
  /// True when both maps send every address to the same unit number.
  bool same_as(const Interleave& o) const {
    return units_ == o.units_ && shift_ == o.shift_ && hash_ == o.hash_;
  }

 private:
  std::uint32_t units_;
  unsigned shift_;
  SliceHash hash_;
  FastDiv32 mod_;
};

inline Interleave l2_slices(const L2Config& c) {
  return {c.slices, c.interleave_bytes, c.hash};
}
inline Interleave dram_channels(const DramConfig& c) {
  return {c.channels, c.interleave_bytes, c.hash};
}

}  // namespace gms
