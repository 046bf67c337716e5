#pragma once
/// Which earlier load of its warp each record waits for (WarpInstr::waits_for_load), read from
/// an Accel-Sim trace's register operands, for the timed order's stalls (docs/timing.md).
///
/// The rule is load_concurrency.h's scoreboard, applied to every instruction of a warp: a load
/// marks the registers it fills pending; an instruction that reads or writes a pending register
/// waits for that load's data. A record's figure is the newest load that it, or an instruction
/// between the warp's previous record and it, waited for, as K: the K-th most recent of the
/// warp's loads before the record (1: the last one; 0: none). The loads are the records the
/// scheduler keeps in flight (global, local and shared loads and atomics: waits_for_data), so K
/// counts what the scheduler counts. The registers a load fills and those that carry no
/// dependency are LoadConcurrency's (mark_filled, register_index).
///
/// Where the instruction that waits sits among those before the record does not count: the
/// record waits for the data, and its earlier instructions' issue cycles, whichever is later.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace gms::trace {

class RegisterDependencies {
 public:
  /// A new warp: no load, no register pending. The scoreboard itself is made by the warp's
  /// first instruction, so a warp whose dependencies are never asked for costs nothing.
  void start_warp() {
    pending_.clear();
    loads_ = newest_ = 0;
  }

  /// An executed instruction of the warp that makes no record: it reads `srcs`, writes `dests`.
  void instruction(std::span<const std::string_view> dests, std::span<const std::string_view> srcs);

  /// An executed instruction that makes a record: reads `srcs`, writes `dests`; `load`: the
  /// scheduler keeps it in flight, filling `dests` (`load_bytes` per thread). Returns the
  /// record's K (above).
  std::uint32_t record(std::span<const std::string_view> dests,
                       std::span<const std::string_view> srcs, bool load, std::uint32_t load_bytes);

 private:
  void wait_for(std::string_view reg);
  std::vector<std::uint32_t> pending_;  ///< per register: 1 + the load filling it, 0: none
  std::uint32_t loads_ = 0;             ///< the warp's loads so far
  std::uint32_t newest_ = 0;            ///< 1 + the newest load waited for since the last record
};

}  // namespace gms::trace
