#pragma once
/// The analytical time model: how long a kernel's memory traffic takes and which level bounds
/// it, computed after the replay from the traffic at each level (never per request).
///
///   dram_ns    = (busiest channel's bytes + the end-of-kernel flush of dirty L2 lines / channels)
///                / (peak / channels x efficiency [x row factor]): in a stream of kernels the
///                flush is written while the next kernel runs, so it costs DRAM time all the same
///   l2_ns      = busiest slice's sectors / (sectors per cycle per slice x clock)
///   l1_ns      = busiest SM's max(L1 data wavefronts / (sectors per cycle / 4) + shared
///                wavefronts / wavefronts per cycle, L1 tag lookups / 4) / clock: the data and
///                tag stages of a pipeline, the slower one setting the pace (l1_pipe.h)
///   latency_ns = Little's law: load requests x average load latency / requests in flight (L1
///                hits, near and far L2 hits and misses each at their latency), where
///                in flight = resident warps (at most the kernel's warps) x loads in flight per
///                warp (gpu.loads_in_flight_per_warp, or the `#kernel` line's loads_in_flight,
///                at most the loads a warp issues in all)
///   store_path_ns = the busiest SM's store bytes / (l1.store_path_bytes_per_cycle x clock), for
///                kernels with loads (their stores wait for the loads' data); 0 without loads
///   overhead_ns = launch overhead + (waves - 1) x wave overhead, waves = ceil(CTAs / (SMs x
///                resident CTAs per SM))
///   dispatch_ns = (waves - 1) x gpu.wave_dispatch_ns: the least time a wave takes
///   queue_ns   = what loaded DRAM latency adds to the chain (latency + store path + wave
///                overheads): a DRAM-served load waits dram.queue_ns x u / (1 - u) more at DRAM
///                utilisation u = dram_ns / T over the chain's time T (time_model.cc)
///   estimate_ns = launch overhead + max(dram, l2, l1, latency + store path + (waves - 1) x wave
///                overhead + queue, dispatch): a slot's waves run in series (load, dependent
///                stores, slot hand-off), the bandwidth terms overlap with them. The bound names
///                the largest term (latency for the chain, overhead for dispatch or where the
///                launch exceeds every term); where that is the chain with a queue, the largest
///                term with the chain at unloaded latency: a chain that outlasts the DRAM only
///                by queueing at it is DRAM-bound (the DRAM saturates).
/// Efficiency blends the read-only and mixed figures by the write share (write-backs and flush
/// included): read_eff + (mixed_eff - read_eff) x min(1, 2 x write bytes / all bytes), so a copy
/// (half writes) is fully "mixed".

#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/core/traffic.h"

namespace gms {

TimeEstimate estimate_time(const KernelStats& k, const SimConfig& cfg);

/// The roofline of intensity `i` (FLOP/byte) on a machine of `peak_gflops` and `peak_gbps`.
Roofline roofline_point(std::uint64_t flops, double intensity, double peak_gflops,
                        double peak_gbps);

Roofline roofline(const KernelStats& k, const SimConfig& cfg);

}  // namespace gms
