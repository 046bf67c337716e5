#pragma once
/// A kernel's traffic by unit (the time model's inputs) and what the time model makes of it:
/// plain data, filled by the model and read by the reports.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gms {

struct DramTraffic {
  std::vector<std::uint64_t> channel_bytes;  ///< per channel, reads + writes
  std::uint64_t read_bytes = 0;
  std::uint64_t write_bytes = 0;
  std::uint64_t row_hits = 0;
  std::uint64_t row_misses = 0;
  /// Write-backs of the end-of-kernel L2 flush: part of write_bytes, but not of channel_bytes
  /// (the hardware writes dirty lines back lazily, after the kernel's own traffic).
  std::uint64_t flush_write_bytes = 0;
  /// Reads of the same flush: the partly written sectors it writes back, read first
  /// (dram.partial_write_reads); part of read_bytes, not of channel_bytes.
  std::uint64_t flush_read_bytes = 0;
};

/// Per-kernel traffic by unit, gathered during the replay (the per-unit vectors are released
/// once the kernel's estimate is made).
struct TrafficProfile {
  std::vector<std::uint64_t> sm_l1_sectors;  ///< per SM: sectors through L1 (all global/local)
  /// per SM: the L1TEX tag-stage lookups and data-stage wavefronts of those requests
  /// (sim/model/l1_pipe.h)
  std::vector<std::uint64_t> sm_l1_tag_lookups;
  std::vector<std::uint64_t> sm_l1_data_wavefronts;
  std::vector<std::uint64_t> sm_shared_wavefronts;  ///< per SM
  std::vector<std::uint64_t> l2_slice_sectors;      ///< per slice: sectors read, written or updated
  DramTraffic dram;
  std::uint64_t load_requests = 0;       ///< warp-level loads and atomics (they wait for data)
  std::uint64_t l2_far_hit_sectors = 0;  ///< L2 read hits in a far partition (l2.partitions > 1)
};

/// The level whose term is the largest in a kernel's time estimate (None: not estimated).
enum class Bound : std::uint8_t { None, Dram, L2, L1, Latency, Overhead };

constexpr std::string_view bound_name(Bound b) {
  switch (b) {
    case Bound::Dram:
      return "DRAM-bound";
    case Bound::L2:
      return "L2-bound";
    case Bound::L1:
      return "L1-bound";
    case Bound::Latency:
      return "latency-bound";
    case Bound::Overhead:
      return "overhead-bound";
    case Bound::None:
      break;
  }
  return "";
}

/// Which side of the roofline's ridge a kernel sits (Unknown: its FLOPs are not known).
enum class RooflineBound : std::uint8_t { Unknown, Memory, Compute };

constexpr std::string_view roofline_bound_name(RooflineBound b) {
  return b == RooflineBound::Memory    ? "memory-bound"
         : b == RooflineBound::Compute ? "compute-bound"
                                       : "";
}

/// What an ordered replay's warp scheduler measured of a kernel (sim/model/warp_scheduler.h), in
/// SM cycles; all 0 for a replay in file order, whose time is the analytical model's alone.
struct ScheduleTotals {
  bool timed = false;              ///< the timed scheduler's (the estimate comes from it)
  double cycles = 0;               ///< when the last warp ended
  double busiest_pipe_cycles = 0;  ///< the busiest SM's L1TEX pipeline was busy
  double l2_busy_cycles = 0;       ///< the L2 was busy
  double dram_busy_cycles = 0;     ///< the DRAM was busy
};

struct TimeEstimate {
  double dram_ns = 0, l2_ns = 0, l1_ns = 0, latency_ns = 0, overhead_ns = 0, estimate_ns = 0;
  double store_path_ns = 0;  ///< stores that wait for the kernel's loads, in series with them
  double dispatch_ns = 0;    ///< (waves - 1) x the least time a wave takes
  double queue_ns = 0;       ///< what DRAM queueing (loaded latency) adds to the chain
  Bound bound = Bound::None;
  double waves = 0;
  double dram_efficiency = 0;  ///< the blended efficiency used (x row factor)
  double avg_load_latency_ns = 0;
  /// Loads a warp keeps in flight: the kernel's loads_in_flight param (the trace's register
  /// dependencies, or a generator's), else gpu.loads_in_flight_per_warp.
  double loads_in_flight = 0;
  double dram_gbps = 0, l2_gbps = 0, l1_gbps = 0;  ///< achieved over the estimate
};

struct Roofline {
  bool known = false;  ///< the kernel's FLOPs are known
  std::uint64_t flops = 0;
  double intensity = 0;       ///< FLOP per byte of this mode's traffic (cold: global bytes
                              ///< fetched; cached: DRAM bytes)
  double intensity_cold = 0;  ///< FLOP per global byte fetched in the cold model (the notes')
  double balance = 0;         ///< machine balance: peak FLOP/s / peak DRAM bytes/s
  double attainable_flops_per_s = 0;
  RooflineBound bound = RooflineBound::Unknown;
};

}  // namespace gms
