#pragma once
/// The global/local-memory coalescer: turns one warp instruction into the distinct aligned blocks
/// its active lanes touch (32-byte sectors, configured transactions, 128-byte lines) and the
/// per-line sector masks the caches consume. It never allocates.

#include <array>
#include <cstdint>
#include <span>

#include "sim/config/config.h"
#include "sim/core/records.h"

namespace gms {

inline constexpr std::uint32_t kSectorBytes = 32;
inline constexpr std::uint32_t kLineBytes = 128;
inline constexpr std::uint32_t kSectorsPerLine = kLineBytes / kSectorBytes;

/// One 128-byte line a warp instruction touches, with the 32-byte sectors it needs (bit s =
/// sector s of the line).
struct LineAccess {
  Addr line_addr = 0;  ///< byte address of the line (a multiple of 128)
  std::uint8_t sector_mask = 0;
  /// Bytes touched in each sector (bit b = byte b): the L2 tells full from partial writes.
  /// Filled for stores and atomics only (for loads they hold stale values: do not read them).
  std::array<std::uint32_t, kSectorsPerLine> byte_mask{};
};

/// The coalescer's result for one warp instruction. Counts follow docs/statistics.md:
/// every count is of distinct aligned blocks touched by the active lanes' bytes.
/// The coalescing counts of one warp instruction: what each execution adds to its row
/// (charge_access). The coalescer's result, the shape memo's entries and the cold model's
/// scattered-warp shortcut all hold them.
struct CoalesceCounts {
  std::uint32_t active_threads = 0;
  std::uint32_t bytes_requested = 0;  ///< active lanes x access size
  std::uint32_t bytes_distinct = 0;   ///< bytes touched by at least one active lane
  std::uint32_t sectors = 0;          ///< distinct 32-byte blocks
  std::uint32_t transactions = 0;     ///< distinct blocks of the segment size
  std::uint32_t lines = 0;            ///< distinct 128-byte blocks
  std::uint32_t segment_bytes = 32;   ///< the transaction size used
  /// The L1TEX pipeline's cost of the request (l1_pipe.h): tag lookups and data wavefronts.
  std::uint32_t tag_lookups = 0;
  std::uint32_t data_wavefronts = 0;

  friend bool operator==(const CoalesceCounts&, const CoalesceCounts&) = default;
};

struct CoalescedAccess : CoalesceCounts {
  /// Lines in increasing address order; at most two per lane (a 16-byte access can cross a line).
  std::array<LineAccess, 2 * kWarpSize> line_list{};
};

/// Splits warp instructions into sectors, transactions and lines under one CoalescerConfig.
class Coalescer {
 public:
  explicit Coalescer(const CoalescerConfig& cfg);

  /// Coalesces `w` (at least one active lane) into `out`.
  void coalesce(const WarpInstr& w, CoalescedAccess& out) const;

  /// The transaction size the rule uses for an operation: loads (LDG, LDL) and stores/atomics
  /// can differ (Kepler caches loads in L1 at 128 bytes but writes through at 32).
  std::uint32_t segment_bytes(Op op) const {
    return is_global_load(op) ? cfg_.load_segment_bytes : cfg_.store_segment_bytes;
  }

  /// Transactions of `op`'s size that a line's sector mask touches (segments never span lines).
  std::uint32_t line_transactions(Op op, std::uint8_t sector_mask) const {
    return (is_global_load(op) ? load_transactions_ : store_transactions_)[sector_mask & 15];
  }

 private:
  /// Accesses aligned to their size, `starts` sorted (see coalesce).
  template <bool kWrites>
  void coalesce_aligned(Op op, unsigned size, std::span<const Addr> starts,
                        CoalescedAccess& out) const;

  CoalescerConfig cfg_;
  /// Transactions a line's sector mask costs, per mask, for loads and for stores/atomics.
  std::array<std::uint8_t, 16> load_transactions_, store_transactions_;
};

namespace detail {
/// Fills `starts` with the active lanes' start addresses in increasing order; returns the count.
int sorted_lane_starts(const WarpInstr& w, std::array<Addr, kWarpSize>& starts);
}  // namespace detail

}  // namespace gms
