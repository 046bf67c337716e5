#pragma once
/// Exact integer arithmetic: division and modulo by a run-time constant without a divide
/// instruction (the address maps' slice and set numbers).

#include <cstdint>

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

}  // namespace gms
