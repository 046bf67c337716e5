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

/// Division and modulo by a fixed 32-bit divisor with multiplications (Lemire, Kaser and Kurz,
/// "Faster remainder by direct computation", 2019): exact for every 32-bit numerator.
class FastDiv32 {
 public:
  explicit FastDiv32(std::uint32_t d) : d_(d), m_(~std::uint64_t{0} / d + 1) {}
  std::uint32_t div(std::uint32_t x) const {
    return d_ == 1 ? x : static_cast<std::uint32_t>((static_cast<unsigned __int128>(m_) * x) >> 64);
  }
  std::uint32_t mod(std::uint32_t x) const {
    const std::uint64_t low = m_ * x;
    return static_cast<std::uint32_t>((static_cast<unsigned __int128>(low) * d_) >> 64);
  }
  /// For vector versions of mod: d and ceil(2^64 / d).
  std::uint32_t divisor() const { return d_; }
  std::uint64_t multiplier() const { return m_; }

 private:
  std::uint32_t d_;
  std::uint64_t m_;  ///< ceil(2^64 / d); 0 for d = 1 (mod is then 0, div the identity)
};

/// A 64-bit chunk or line number folded to 32 bits (exact below 2^32).
inline std::uint32_t fold32(std::uint64_t x) {
  return static_cast<std::uint32_t>(x ^ (x >> 32));
}

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
