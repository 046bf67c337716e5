#pragma once
/// Access-pattern diagnosis of one warp instruction, from its lane addresses alone: what shape
/// the access has (unit stride, a stride of k elements, a broadcast, a misaligned start, one
/// field of an array of structures, a 2D tile with a row pitch, scattered), what it costs
/// (sectors, or wavefronts for shared memory) and the least the same data needs (docs/
/// explain.md defines each kind). Used only by `run --pattern` and `explain`: a normal
/// replay never calls it.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/core/records.h"
#include "sim/model/coalescer.h"
#include "sim/model/smem_arbiter.h"

namespace gms {

enum class PatternKind : std::uint8_t {
  Contiguous,   ///< lane t at base + t x size, aligned: already ideal
  Reversed,     ///< lane t at base - t x size
  Permuted,     ///< one contiguous block of elements, lanes in another order
  Misaligned,   ///< unit stride, but the block starts past a sector (or transaction) boundary
  Broadcast,    ///< every active lane at one address (two or more lanes)
  Strided,      ///< one stride between lanes: a power of two times the size, or over 256 bytes
  StructField,  ///< one stride of at most 256 bytes that is not a power of two (AoS field)
  Tile2D,       ///< rows of consecutive elements, one pitch between rows
  Scattered,    ///< none of the above
};
inline constexpr int kPatternKindCount = 9;

/// The kind's name in every output ("contiguous", "struct_field", ...).
std::string_view pattern_kind_name(PatternKind k);

/// One execution's diagnosis.
struct Pattern {
  PatternKind kind = PatternKind::Contiguous;
  bool shared = false;          ///< a shared-memory access: costs are wavefronts
  std::uint8_t size = 4;        ///< bytes per lane
  std::uint8_t lanes = 0;       ///< active lanes
  std::int64_t stride = 0;      ///< bytes between consecutive lanes (uniform-stride kinds)
  std::uint32_t misalign = 0;   ///< Misaligned: bytes past the boundary of the lowest address
  std::uint32_t boundary = 0;   ///< Misaligned: that boundary (32, or the transaction size)
  std::uint32_t row_elems = 0;  ///< Tile2D: elements per row
  std::int64_t pitch = 0;       ///< Tile2D: bytes from one row's start to the next
  /// Global/local: 32-byte sectors and the fewest the distinct bytes need, ceil(distinct / 32).
  /// Shared: wavefronts and ideal wavefronts (the bank arbiter's).
  std::uint32_t cost = 0, ideal = 0;
  /// Global/local: bytes fetched (transactions x their size) less the distinct bytes, as the
  /// run's wasted_bytes; shared: 0.
  std::uint32_t wasted_bytes = 0;
};

/// Classifies `w` (at least one active lane, every lane written). The coalescer and the arbiter
/// are the replay's own models, so the costs equal the run's counts.
Pattern classify(const WarpInstr& w, const Coalescer& coalescer, const SmemArbiter& arbiter);

/// A short label for a table cell: "strided 8", "struct_field 12B", "misaligned +8B",
/// "tile2d 16x2 pitch 4096B", "strided 32w 32-way" (shared), ...
std::string pattern_label(const Pattern& p);

/// One plain-English sentence: what the lanes do and what it costs against the ideal.
std::string pattern_reading(const Pattern& p);

/// Per-instruction summary: how many executions had each kind, the first execution of each kind
/// (its parameters), and the summed costs. Fixed size: no allocation per record.
struct PatternSummary {
  std::uint32_t inst = 0;
  Op op = Op::LDG;
  std::uint8_t size = 4;
  std::array<std::uint64_t, kPatternKindCount> executions{};
  std::array<Pattern, kPatternKindCount> first{};
  std::uint64_t cost = 0, ideal = 0;
  std::uint64_t wasted_bytes = 0;  ///< the run's wasted_bytes of the instruction
  /// The first and last byte its active lanes reach (its footprint, for the layout what-ifs).
  Addr lowest = ~Addr{0}, highest = 0;

  void add(const Pattern& p);
  std::uint64_t total() const;
  /// The kind with the most executions (the first in enum order on a tie).
  PatternKind dominant() const;
};

/// "strided 8" when every execution had one kind; else the two commonest with their shares,
/// "strided 8 75%; contiguous 25%" (and "; ..." when more kinds occurred).
std::string summary_label(const PatternSummary& s);

/// The dominant kind's reading, with the instruction's summed cost against its ideal, and the
/// share of executions of that kind when not all.
std::string summary_reading(const PatternSummary& s);

/// The ideal layout of one execution's data: its distinct lane addresses, in increasing order,
/// packed one element after another. `packed` bytes, aligned to `align` = min(128, packed rounded
/// up to a power of two); `lowest` is the lowest lane address.
struct IdealPacking {
  Addr lowest = 0;
  Addr packed = 0;
  Addr align = 0;
};
/// `w`'s packing (every lane written: complete partial strided lanes first).
IdealPacking ideal_packing(const WarpInstr& w);

/// Rewrites `w`'s active lanes to the packing placed at `base` (a multiple of its alignment):
/// lane t reads base + rank x size, rank the place of its address among the distinct ones, so
/// lanes that shared an address still share one. For shared memory the packed words are
/// conflict-free. Completes a record with partial strided lanes first.
void make_ideal_at(WarpInstr& w, Addr base);

/// The packing in place: at the lowest address rounded down to the alignment. A contiguous
/// aligned access is unchanged.
void make_ideal(WarpInstr& w);

}  // namespace gms
