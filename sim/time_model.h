#pragma once
/// The analytical time model: how long a kernel's memory traffic takes and which level bounds
/// it, computed after the replay from the traffic at each level (never per request).
///
///   dram_ns    = busiest channel's bytes / (peak / channels x efficiency [x row factor]); the
///                end-of-kernel flush of dirty L2 lines is not on the kernel's timeline
///   l2_ns      = busiest slice's sectors / (sectors per cycle per slice x clock)
///   l1_ns      = busiest SM's (L1 sectors / sectors per cycle + shared wavefronts / wavefronts
///                per cycle) / clock
///   latency_ns = Little's law: load requests x average load latency / requests in flight, where
///                in flight = resident warps (at most the kernel's warps) x loads in flight per
///                warp (gpu.loads_in_flight_per_warp, at most the loads a warp issues in all)
///   overhead_ns = launch overhead + (waves - 1) x wave overhead, waves = ceil(CTAs / (SMs x
///                resident CTAs per SM))
///   estimate_ns = max(dram, l2, l1, latency) + overhead; the bound names the largest term.
/// Efficiency blends the read-only and mixed figures by the write share: read_eff + (mixed_eff -
/// read_eff) x min(1, 2 x write bytes / all bytes), so a copy (half writes) is fully "mixed".

#include <cstdint>
#include <string>
#include <vector>

#include "sim/config.h"
#include "sim/dram_model.h"

namespace gms {

struct KernelStats;

/// Per-kernel traffic by unit, gathered during the replay (the per-unit vectors are released
/// once the kernel's estimate is made).
struct TrafficProfile {
  std::vector<std::uint64_t> sm_l1_sectors;  ///< per SM: sectors through L1 (all global/local)
  std::vector<std::uint64_t> sm_shared_wavefronts;  ///< per SM
  std::vector<std::uint64_t> l2_slice_sectors;      ///< per slice: sectors read, written or updated
  DramTraffic dram;
  std::uint64_t load_requests = 0;  ///< warp-level loads and atomics (they wait for data)
};

struct TimeEstimate {
  double dram_ns = 0, l2_ns = 0, l1_ns = 0, latency_ns = 0, overhead_ns = 0, estimate_ns = 0;
  std::string bound;  ///< "DRAM-bound", "L2-bound", "L1-bound", "latency-bound" or "overhead-bound"
  double waves = 0;
  double dram_efficiency = 0;  ///< the blended efficiency used (x row factor)
  double avg_load_latency_ns = 0;
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
  std::string bound;  ///< "memory-bound" or "compute-bound"
};

TimeEstimate estimate_time(const KernelStats& k, const SimConfig& cfg);

/// The roofline of intensity `i` (FLOP/byte) on a machine of `peak_gflops` and `peak_gbps`.
Roofline roofline_point(std::uint64_t flops, double intensity, double peak_gflops,
                        double peak_gbps);

Roofline roofline(const KernelStats& k, const SimConfig& cfg);

}  // namespace gms
