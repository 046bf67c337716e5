#pragma once
/// How many global loads a warp keeps in flight, read from the register operands of an
/// Accel-Sim trace (issue 34: memory-level parallelism from the trace instead of the preset's
/// gpu.loads_in_flight_per_warp).
///
/// The rule is the in-order issue of an SM's warp with a register scoreboard: a load is issued
/// and its destination registers are marked pending; the warp goes on issuing until an
/// instruction reads a pending register (a use of the loaded value, e.g. a pointer chase's next
/// address) or writes one (write after write), where it waits for that load (independent loads
/// in flight per thread: V. Volkov, "Better Performance at Lower Occupancy", GTC 2010). So the
/// loads in flight when a load issues are the loads issued before it whose registers no
/// instruction has read or written since, plus itself. A warp's figure is the most it reaches;
/// the kernel's is the mean of its warps' figures (warps without loads left out), rounded, at
/// least 1.
///
/// Counted: global and local loads and atomics that return a value (a destination register);
/// shared-memory loads and everything else only read and write registers. A load of W bytes per
/// thread with one destination listed writes ceil(W / 4) consecutive registers from it (a
/// 64-bit LDG lists R2 and fills R2, R3). Registers are `R<n>` and `UR<n>`; RZ, R255, URZ,
/// predicates and special registers carry no dependency.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace gms::trace {

class LoadConcurrency {
 public:
  /// Forgets every warp (a new kernel).
  void reset();

  /// One instruction line of warp `warp` (any id below 2^16): it reads `srcs`, writes `dests`,
  /// and, when `load_bytes` > 0, is a load (or value-returning atomic) of that many bytes per
  /// thread into `dests`.
  void instruction(std::uint32_t warp, std::span<const std::string_view> dests,
                   std::span<const std::string_view> srcs, std::uint32_t load_bytes);

  /// The kernel's loads in flight per warp (see above); 0 when no warp issued a load.
  std::uint32_t loads_in_flight() const;

  /// The register index of an operand token (0..254 for R0..R254, 256.. for UR0..), or -1 for
  /// one that carries no dependency.
  static int register_index(std::string_view token);

  /// How many register indices there are (R0-R254, then UR0-UR62 from 256).
  static constexpr std::size_t kRegisters = 256 + 64;

  /// Sets `pending[r] = tag` for each register a load of `load_bytes` per thread into `dests`
  /// fills: every listed destination; a single one and the words after it (a 64-bit LDG lists
  /// R2 and fills R2 and R3), never into RZ or URZ.
  static void mark_filled(std::span<const std::string_view> dests, std::uint32_t load_bytes,
                          std::vector<std::uint32_t>& pending, std::uint32_t tag);

 private:
  struct Warp {
    std::vector<std::uint32_t> pending;  ///< per register: 1 + the load it waits for, 0: none
    std::vector<bool> done;              ///< per load of this warp: its value was waited for
    std::uint32_t in_flight = 0;
    std::uint32_t most = 0;
  };
  /// Waits, if register `r` is pending, for its load.
  static void wait_for(Warp& w, int r);

  std::vector<Warp> warps_;  ///< by warp id, grown on use
};

inline int LoadConcurrency::register_index(std::string_view token) {
  int base = 0;
  std::uint32_t limit = 255;  // R255 is RZ on the architectures whose traces name it
  if (token.starts_with("UR")) {
    token.remove_prefix(2);
    base = 256;
    limit = 63;  // URZ is UR63
  } else if (token.starts_with("R")) {
    token.remove_prefix(1);
  } else {
    return -1;
  }
  // Decimal digits by hand (every operand of every line of an import comes here): the same
  // verdicts as std::from_chars, leading zeros included, and out of range as soon as it is.
  if (token.empty()) return -1;
  std::uint32_t n = 0;
  for (const char c : token) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + static_cast<std::uint32_t>(c - '0');
    if (n >= limit) return -1;
  }
  return base + static_cast<int>(n);
}

}  // namespace gms::trace
