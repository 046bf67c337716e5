#pragma once
/// What an Accel-Sim or NVBit import skipped, ignored or read past, for the summary it logs,
/// `gpumemsim info` and the tests.

#include <array>
#include <cstdint>
#include <map>
#include <string>

namespace gms::trace {

/// The classes of bulk copies (docs/accelsim-2.md, "TMA and bulk copies").
enum class BulkClass : std::uint8_t { Load, Store, Prefetch, Reduction, SharedCopy };
inline constexpr int kBulkClassCount = 5;

/// What the TMA lines of one class name, from the operands tracer 6 writes (tma_operands.h):
/// counted, not replayed through the caches.
struct BulkTraffic {
  std::uint64_t requests = 0;        ///< executed lines (active mask) with the operands read
  std::uint64_t multicast = 0;       ///< of which multicast to a CTA mask
  std::uint64_t bytes = 0;           ///< the lines' byte counts
  std::uint64_t oob_bytes = 0;       ///< their out-of-bounds byte counts
  std::uint64_t elements = 0;        ///< element addresses
  std::uint64_t sectors = 0;         ///< distinct 32-byte global sectors per line, summed
  std::uint64_t shared_written = 0;  ///< shared-memory bytes written: bytes x receiving CTAs
  std::uint64_t shared_read = 0;     ///< shared-memory bytes read (stores, reductions, copies)

  friend bool operator==(const BulkTraffic&, const BulkTraffic&) = default;
  BulkTraffic& operator+=(const BulkTraffic& o) {
    requests += o.requests;
    multicast += o.multicast;
    bytes += o.bytes;
    oob_bytes += o.oob_bytes;
    elements += o.elements;
    sectors += o.sectors;
    shared_written += o.shared_written;
    shared_read += o.shared_read;
    return *this;
  }
};

/// What an import skipped or ignored, for the summary it logs and for tests.
struct ImportCounts {
  std::uint64_t records = 0;             ///< warp records delivered
  std::uint64_t non_memory = 0;          ///< instruction lines with mem_width 0
  std::uint64_t unsupported = 0;         ///< memory instructions of no modelled space (TEX, LDC...)
  std::uint64_t inactive = 0;            ///< memory instructions without an active lane
  std::uint64_t memcpy_commands = 0;     ///< MemcpyHtoD/DtoH lines of a kernelslist.g
  std::uint64_t generic_unresolved = 0;  ///< generic LD/ST taken as shared: base addresses absent
  /// The unsupported memory instructions by opcode (text before the first '.'), for `info`.
  std::map<std::string, std::uint64_t, std::less<>> unsupported_by_opcode;
  /// TMA bulk copies (UBLKCP, UTMALDG, UTMASTG, ...): counted, not replayed through the caches
  /// (one thread names a whole tile, not 32 lane addresses), by opcode.
  std::uint64_t bulk_copies = 0;
  std::map<std::string, std::uint64_t, std::less<>> bulk_by_opcode;
  /// Of those, the lines whose operands follow Accel-Sim 2.0's TMA grammar, by BulkClass.
  std::array<BulkTraffic, kBulkClassCount> bulk_traffic{};
  /// LDGSTS records: replayed as their global read (LDG); the shared write is not modelled.
  std::uint64_t ldgsts = 0;
  /// Accel-Sim lines with fields after the address list that no format line explains, by the
  /// first such field (a word such as STORE_DATA, or "<number>").
  std::map<std::string, std::uint64_t, std::less<>> trailing_by_field;
  /// Accel-Sim block-level `key = value` lines other than thread block / warp / insts
  /// (cluster id, cluster cta, cluster rank, ...), skipped.
  std::uint64_t block_keys = 0;
  /// Accel-Sim tracer 6's REPLAY_START / REPLAY_END pseudo-instruction lines (the bounds of a
  /// spin loop's region), skipped: not instructions.
  std::uint64_t replay_markers = 0;
  /// NVBit: lines that are neither launches nor records (banner, program output), skipped.
  std::uint64_t other_lines = 0;

  friend bool operator==(const ImportCounts&, const ImportCounts&) = default;
};

/// Adds `b`'s counts to `a`'s (an Accel-Sim block parsed on another thread, counted on its own).
inline ImportCounts& operator+=(ImportCounts& a, const ImportCounts& b) {
  auto add = [](std::map<std::string, std::uint64_t, std::less<>>& to,
                const std::map<std::string, std::uint64_t, std::less<>>& from) {
    for (const auto& [key, n] : from) to[key] += n;
  };
  a.records += b.records;
  a.non_memory += b.non_memory;
  a.unsupported += b.unsupported;
  a.inactive += b.inactive;
  a.memcpy_commands += b.memcpy_commands;
  a.generic_unresolved += b.generic_unresolved;
  add(a.unsupported_by_opcode, b.unsupported_by_opcode);
  a.bulk_copies += b.bulk_copies;
  add(a.bulk_by_opcode, b.bulk_by_opcode);
  for (int i = 0; i < kBulkClassCount; ++i) a.bulk_traffic[i] += b.bulk_traffic[i];
  a.ldgsts += b.ldgsts;
  add(a.trailing_by_field, b.trailing_by_field);
  a.block_keys += b.block_keys;
  a.replay_markers += b.replay_markers;
  a.other_lines += b.other_lines;
  return a;
}

}  // namespace gms::trace
