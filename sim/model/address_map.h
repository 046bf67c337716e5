#pragma once
/// Address interleaving shared by the L2 (address -> slice) and DRAM (address -> channel):
/// consecutive `interleave` bytes go to one unit; units follow each other round-robin (linear)
/// or after XOR-folding higher address bits into the chunk number (xor), which spreads strides
/// that are multiples of units x interleave. The real hashes are not published.

#include <bit>
#include <cstdint>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/fast_div.h"
#include "sim/core/types.h"

namespace gms {

/// The xor map's fold of a chunk number: chunk ^ chunk >> 7 ^ chunk >> 13 ^ chunk >> 19. The
/// GPUs' slice and channel hashes are not published (Accel-Sim and GPGPU-Sim offer XOR and IPOLY
/// maps of their own, `hashing.cc`), so this fold is an assumption of this project: it folds
/// higher chunk bits onto the low ones, so that strides that are multiples of units x interleave
/// do not all land on one unit. One definition, read by the scalar map below and by its vector
/// twin (scattered_warp.cc).
inline constexpr unsigned kXorFoldShifts[3] = {7, 13, 19};
constexpr std::uint64_t xor_fold(std::uint64_t chunk) {
  return chunk ^ (chunk >> kXorFoldShifts[0]) ^ (chunk >> kXorFoldShifts[1]) ^
         (chunk >> kXorFoldShifts[2]);
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
    if (hash_ == SliceHash::Xor) chunk = xor_fold(chunk);
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

/// The L2's near/far partitions (l2.partitions; [AmpereWP] in docs/hardware.md: the A100's two
/// partitions of 40 slices joined by a crossbar). Slices are split into equal consecutive groups,
/// slice s in partition s / (slices / partitions): a line's home partition is its slice's. SMs are
/// split the same way, SM i near partition i x partitions / SMs (Jia, GTC'21, finds the A100's SMs
/// split 46 / 62; which SM ids sit in which GPC is not published, so the even split is an
/// assumption). A line read by an SM whose partition is not its home is copied into the
/// "mirror" slice of the SM's partition: the slice with the same index inside that partition.
class L2Partitions {
 public:
  L2Partitions(std::uint32_t partitions, std::uint32_t slices, std::uint32_t sm_count)
      : partitions_(partitions),
        slices_per_(slices / partitions),
        per_div_(slices / partitions),
        near_(sm_count) {
    for (std::uint32_t sm = 0; sm < sm_count; ++sm)
      near_[sm] = static_cast<std::uint16_t>(std::uint64_t{sm} * partitions / sm_count);
  }

  std::uint32_t count() const { return partitions_; }
  /// The partition SM `sm` is near (sm < the SM count).
  std::uint32_t near_of(std::uint32_t sm) const { return near_[sm]; }
  /// The partition slice `slice` belongs to: the home partition of the lines it holds as home.
  std::uint32_t of_slice(std::uint32_t slice) const { return per_div_.div(slice); }
  /// A slice's index inside its partition: the slices one access touches (a home slice and its
  /// mirrors) share it.
  std::uint32_t local_of(std::uint32_t slice) const { return per_div_.mod(slice); }
  /// The slice of partition `p` that holds copies of the lines homed in slice `home`.
  std::uint32_t mirror(std::uint32_t home, std::uint32_t p) const {
    return p * slices_per_ + per_div_.mod(home);
  }

 private:
  std::uint32_t partitions_;
  std::uint32_t slices_per_;
  FastDiv32 per_div_;
  std::vector<std::uint16_t> near_;  ///< per SM: its near partition
};

inline Interleave l2_slices(const L2Config& c) {
  return {c.slices, c.interleave_bytes, c.hash};
}
inline Interleave dram_channels(const DramConfig& c) {
  return {c.channels, c.interleave_bytes, c.hash};
}

}  // namespace gms
