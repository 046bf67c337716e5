#pragma once
/// The reference's coalescer (sim/replay/reference_engine.h): what one warp instruction to
/// global or local memory touches, by the metrics' definitions (docs/statistics.md). Every count is
/// of distinct aligned blocks that hold at least one byte of an active lane's access:
/// - bytes_distinct: distinct bytes; sectors: distinct 32-byte blocks; lines: distinct 128-byte
///   blocks (the L1's request unit, one request per line);
/// - transactions: distinct blocks of the operation's segment size (coalescer.load_segment_bytes
///   for LDG and LDL, coalescer.store_segment_bytes for stores and atomics; a segment never
///   spans a line).
/// The lines are listed in increasing address order with the sectors each needs, and for
/// stores and atomics the bytes written in each sector (the L2 tells full from partial writes).
/// An access that would run past the top of the address space stops at its last byte.

#include <array>
#include <cstdint>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/records.h"

namespace gms::ref {

inline constexpr std::uint32_t kSector = 32;  ///< bytes per sector (every level's unit)
inline constexpr std::uint32_t kLine = 128;   ///< bytes per coalescer line

/// One 128-byte line of an access.
struct PlainLine {
  Addr addr = 0;                         ///< the line's first byte
  std::uint8_t sectors = 0;              ///< bit s: the access touches bytes of sector s (0-3)
  std::array<std::uint32_t, 4> bytes{};  ///< per sector: bit b = byte b touched
};

struct PlainAccess {
  std::uint32_t active_threads = 0;
  std::uint32_t bytes_requested = 0;  ///< active lanes x access size
  std::uint32_t bytes_distinct = 0;
  std::uint32_t sectors = 0;
  std::uint32_t transactions = 0;
  std::uint32_t lines = 0;
  std::uint32_t segment_bytes = 0;
  std::vector<PlainLine> line_list;  ///< increasing addresses
};

/// The segment size of `op` under `cfg`.
std::uint32_t segment_bytes(const CoalescerConfig& cfg, Op op);

/// The transactions of `segment` bytes that a line with sectors `sectors` needs.
std::uint32_t line_transactions(std::uint32_t segment, std::uint8_t sectors);

/// Coalesces `w` (a global, local or atomic record with at least one active lane, its lanes
/// complete).
PlainAccess coalesce(const CoalescerConfig& cfg, const WarpInstr& w);

}  // namespace gms::ref
