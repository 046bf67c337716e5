#pragma once
/// The operands that Accel-Sim 2.0's tracer 6 writes after `mem_width` on a TMA or bulk-copy line
/// (UTMALDG, UTMASTG, UTMAPF, UTMAREDG, UBLKCP, UBLKPF, UBLKRED), read as Accel-Sim 2.0's
/// trace parser reads them (gpu-simulator/trace-parser/trace_parser.cc, tag v2.0.0):
///
///   mem_width mbarrier multicast [cta_mask] bytes oob_bytes mode ...
///   mode 3 (list):       count addr_1 ... addr_count
///   mode 4 (base+delta): base count delta_2 ... delta_count
///
/// mbarrier and cta_mask in hex (0x optional), the rest decimal; `cta_mask` only when multicast
/// is 1; each element address names `mem_width` bytes of global memory. What the counts derived
/// from them mean: docs/accelsim-2.md ("TMA and bulk copies").

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trace/import/import_counts.h"
#include "trace/import/import_parse.h"

namespace gms::trace::detail {

/// The direction of a bulk copy, from its opcode (BulkClass in import_counts.h). Unknown for an
/// opcode outside Accel-Sim 2.0's TMA list (UTMACCTL, ...), whose operands are not read.
enum class BulkDirection : std::uint8_t { Load, Store, Prefetch, Reduction, SharedCopy, Unknown };

/// UTMALDG and UBLKCP from global (`.S.G`, or no direction modifiers) are loads, UTMASTG and
/// UBLKCP to global (`.G.S`) stores, UBLKCP between shared windows (`.S.S`) a shared copy,
/// UTMAPF/UBLKPF prefetches, UTMAREDG/UBLKRED reductions.
BulkDirection bulk_direction(std::string_view opcode);

/// One TMA line's operands.
struct TmaOperands {
  std::uint64_t mbarrier = 0;
  bool multicast = false;
  std::uint64_t cta_mask = 0;  ///< when multicast: the CTAs of the cluster that receive the data
  std::uint64_t bytes = 0;
  std::uint64_t oob_bytes = 0;
  std::uint64_t elements = 0;  ///< element addresses
  std::uint64_t sectors = 0;   ///< distinct 32-byte global sectors they cover (mem_width each)
};

/// Reads TMA operands line after line, keeping one buffer of sector addresses across lines (no
/// allocation per line once it has grown to the longest line's).
class TmaOperandReader {
 public:
  enum class Result : std::uint8_t {
    Read,   ///< the operands follow the 2.0 grammar: `out` holds them, `t` is past them
    Older,  ///< the fields before the address mode are not the 2.0 grammar's, or the mode is an
            ///< ordinary record's (0-2): a line written before the grammar was known (the
            ///< repository's hand-written Hopper files); `t` is unchanged
    Error   ///< the 2.0 grammar with a malformed list: error() says what
  };

  /// Reads the operands after `mem_width` = `width` from `t`.
  Result read(Tokens& t, std::uint32_t width, TmaOperands& out);
  const std::string& error() const { return error_; }
  /// After Read: the distinct 16-byte units (address >> 4) the elements cover, ascending: what
  /// the replay's bulk records carry, one lane each (tma_records.h).
  const std::vector<std::uint64_t>& units() const { return chunks_; }

 private:
  Result fail(std::string message);
  std::string error_;
  std::vector<std::uint64_t> chunks_;
};

/// Adds one executed TMA line's operands to `counts` (its class's BulkTraffic).
void count_bulk_traffic(ImportCounts& counts, BulkDirection dir, const TmaOperands& op);

}  // namespace gms::trace::detail
