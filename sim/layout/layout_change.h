#pragma once
/// A layout change: one function from old to new address, applied to every access of one array
/// (every instruction alike, so the reuse between instructions is kept). The transformations a
/// programmer makes to the data (docs/explain.md, "Layout what-ifs"):
/// - Soa: an array of `struct_bytes`-byte structures becomes one array per `unit`-byte field;
///   field f of structure i moves to base + f x count x unit + i x unit.
/// - Aos: the opposite: `planes` (arrays of `unit`-byte elements each) interleave into one array
///   of structures at the first plane's base; element i of plane j moves to
///   base + i x struct_bytes + (offset of plane j).
/// - Pad: a shared tile's rows of `pitch` bytes get `pad` bytes more each (tile[32][33]);
///   row r, byte c moves to r x (pitch + pad) + c.
/// - Swizzle: the `unit`-byte chunks of each 128-byte segment of shared memory are XOR-ed with
///   the row (CuTe's Swizzle<B, M, S>, B = log2(128 / unit) bits of the row number into the chunk
///   number): row r = offset / max(pitch, 128), chunk u moves to u ^ (r mod 128 / unit). The
///   footprint is unchanged; a column of a power-of-two tile falls in every bank once.
/// - Transpose: a row-major array of rows of `pitch` bytes (`count` rows of `unit`-byte
///   elements) becomes column-major: row r, column c moves to base + c x count x unit + r x unit.
/// - Vector: no address moves; consecutive narrow accesses of one warp by the listed `insts`
///   merge into one vector access (sim/layout/vector_merge.h): fewer, wider records.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/records.h"

namespace gms {

enum class LayoutKind : std::uint8_t { Soa, Aos, Pad, Swizzle, Transpose, Vector };
/// The name each kind has in a --layout spec ("soa", "aos", "pad", "swizzle", "transpose",
/// "vector").
const char* layout_kind_name(LayoutKind k);

/// Which accesses a change applies to: global (loads, stores, atomics and reductions: not local
/// memory, not the bulk TMA ops) or shared (loads and stores of the CTA's shared window).
enum class LayoutSpace : std::uint8_t { Global, Shared };

/// True when `op` reads or writes the space.
inline bool in_space(Op op, LayoutSpace s) {
  if (s == LayoutSpace::Shared) return op == Op::LDS || op == Op::STS;
  return op == Op::LDG || op == Op::STG || op == Op::ATOMG || op == Op::RED;
}

struct LayoutPlane {
  Addr base = 0, bytes = 0;
  std::uint32_t unit = 4;    ///< the plane's element bytes
  std::uint32_t offset = 0;  ///< its field's offset in the new structure
};

struct LayoutChange {
  LayoutKind kind = LayoutKind::Soa;
  LayoutSpace space = LayoutSpace::Global;
  std::string label;  ///< the spec, resolved: "soa:g0:24", "pad:smem:1:128"
  /// The region the change applies to, [base, base + bytes); shared: offsets in the window.
  Addr base = 0, bytes = 0;
  std::uint64_t struct_bytes = 0;    ///< Soa, Aos: the structure's bytes
  std::uint64_t pitch = 0;           ///< Pad, Swizzle, Transpose: bytes from a row to the next
  std::uint64_t pad = 0;             ///< Pad: bytes added to each row
  std::uint64_t count = 0;           ///< Soa: structures; Transpose: rows
  std::uint32_t unit = 4;            ///< element bytes (Swizzle: the chunk XOR-ed)
  std::vector<LayoutPlane> planes;   ///< Aos
  std::vector<std::uint32_t> insts;  ///< Vector: the instructions whose runs merge
  /// Apply only in this kernel (a candidate from one kernel's diagnosis); else in all.
  std::optional<std::uint32_t> kernel_id;
  /// Suggested by the diagnosis (not a --layout spec): explain leaves it out where its replay
  /// moved nothing.
  bool suggested = false;

  /// True when address `a` of the space is one the change moves.
  bool covers(Addr a) const {
    if (kind == LayoutKind::Aos) {
      for (const LayoutPlane& p : planes)
        if (a - p.base < p.bytes) return true;
      return false;
    }
    return a - base < bytes;
  }
  /// The new address of `a` (covers(a)).
  Addr map(Addr a) const;
  /// The kernel's shared bytes after the change (Pad adds a row's padding to each row).
  std::uint64_t shared_bytes(std::uint64_t shmem) const;
};

}  // namespace gms
