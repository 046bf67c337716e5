#include "sim/model/time_model.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/core/error.h"
#include "sim/core/stats.h"
#include "sim/model/l1_pipe.h"
#include "sim/model/placement.h"

namespace gms {

namespace {

/// v[i], 0 past its end (a profile built by hand may leave a vector empty).
std::uint64_t count_at(const std::vector<std::uint64_t>& v, std::size_t i) {
  return i < v.size() ? v[i] : 0;
}

std::uint64_t max_of(const std::vector<std::uint64_t>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

double dram_efficiency(const DramTraffic& d, const DramConfig& c) {
  const std::uint64_t writes = d.write_bytes;
  const std::uint64_t all = d.read_bytes + writes;
  const double write_share = all == 0 ? 0 : static_cast<double>(writes) / all;
  double eff =
      c.read_efficiency + (c.mixed_efficiency - c.read_efficiency) * std::min(1.0, 2 * write_share);
  const std::uint64_t rows = d.row_hits + d.row_misses;
  if (c.row_model && rows != 0)
    eff /= 1 + c.row_miss_penalty * static_cast<double>(d.row_misses) / rows;
  return eff;
}

/// Where a kernel's load sectors were served: L1 hits, near and far L2 hits, DRAM (atomics count
/// as loads served by the L2 or, for their misses, DRAM).
struct LoadSources {
  double l1 = 0, l2_near = 0, l2_far = 0, dram = 0;
  double all() const { return l1 + l2_near + l2_far + dram; }
};

LoadSources load_sources(const KernelStats& k) {
  LoadSources s;
  double l2 = 0;
  for (OpClass c : {OpClass::GlobalLoad, OpClass::LocalLoad, OpClass::GlobalAtomic}) {
    const AccessCounters& t = k.total(c);
    s.l1 += static_cast<double>(t.l1_sector_hits);
    l2 += static_cast<double>(t.l2_read_sector_hits);
    s.dram += static_cast<double>(t.l2_read_sector_misses +
                                  (c == OpClass::GlobalAtomic ? t.l2_atomic_sectors : 0));
  }
  // Far-partition hits (part of the L2 hits; loads only, atomics go to their home slice).
  s.l2_far = static_cast<double>(k.traffic.l2_far_hit_sectors);
  s.l2_near = l2 - s.l2_far;
  return s;
}

/// Average latency of a load sector, from where the loads were served (unloaded latencies).
double average_load_latency_cycles(const LoadSources& s, const SimConfig& cfg) {
  const double all = s.all();
  if (all == 0) return 0;
  return (s.l1 * cfg.l1.hit_latency_cycles + s.l2_near * cfg.l2.hit_latency_cycles +
          s.l2_far * cfg.l2.far_hit_latency_cycles + s.dram * cfg.dram.latency_cycles) /
         all;
}

/// The chain with loaded DRAM latency. A load served by DRAM waits dram.queue_ns x u / (1 - u)
/// more at DRAM utilisation u (a single-server queue's wait), u = dram_ns / T over the chain's
/// own time T. With `chain_ns` the chain at unloaded latency and `serial_dram_loads` the
/// DRAM-served loads each slot waits for in series, T = chain + serial x queue x d / (T - d):
/// the larger root of (T - chain)(T - d) = serial x queue x d. T exceeds both the chain and the
/// DRAM time and tends to the larger of them away from their crossing, where a latency-bound
/// stream meets the DRAM's rate (gpu-stream's read kernel at 2 CTAs per SM, tests/fidelity).
double loaded_chain_ns(double chain_ns, double dram_ns, double serial_dram_loads, double queue_ns) {
  const double y = serial_dram_loads * queue_ns * dram_ns;
  if (!(y > 0)) return chain_ns;
  const double gap = chain_ns - dram_ns;
  return (chain_ns + dram_ns + std::sqrt(gap * gap + 4 * y)) / 2;
}

/// The store path: stores that follow a kernel's loads (a copy's, a triad's) leave an SM only
/// after the loads' data returned, at l1.store_path_bytes_per_cycle, in series with the load
/// latency. The busiest SM's share of the stores is its share of the L1 sectors. A kernel without
/// loads has no such term: its stores leave while later CTAs are dispatched (gpu-stream's init).
double store_path_ns(const KernelStats& k, const SimConfig& cfg) {
  const TrafficProfile& p = k.traffic;
  if (cfg.l1.store_path_bytes_per_cycle <= 0 || p.load_requests == 0) return 0;
  const double stores = static_cast<double>(k.total(OpClass::GlobalStore).sectors +
                                            k.total(OpClass::LocalStore).sectors);
  const double all = std::accumulate(p.sm_l1_sectors.begin(), p.sm_l1_sectors.end(), 0.0);
  if (stores == 0 || all == 0) return 0;
  const double busiest_sm_store_bytes =
      32.0 * static_cast<double>(max_of(p.sm_l1_sectors)) * std::min(1.0, stores / all);
  return busiest_sm_store_bytes / cfg.l1.store_path_bytes_per_cycle / (cfg.gpu.clock_mhz / 1000.0);
}

/// A timed replay's estimate: the launch overhead and the cycles until its last warp ended
/// (sim/model/warp_scheduler.h), or the busiest DRAM channel's, L2 slice's or SM's time (the
/// analytical terms) where that is longer: the schedule's L2 and DRAM are one server each, and
/// the flush of dirty lines at the kernel's end is DRAM time too. The bound: the term that set
/// the estimate where it was a floor; else the schedule's busiest server (the busiest SM's
/// L1TEX pipeline, the L2, the DRAM) where it was busy at least half the kernel's cycles, else
/// the latency (the warps waited for data more than for any one resource); the overhead where
/// the launch outlasts it all. The analytical terms stay, as each level's demand.
void time_from_schedule(const ScheduleTotals& s, const SimConfig& cfg, TimeEstimate& t) {
  const double ghz = cfg.gpu.clock_mhz / 1000.0;
  const double schedule_ns = s.cycles / ghz;
  const std::pair<double, Bound> floors[] = {
      {t.dram_ns, Bound::Dram}, {t.l2_ns, Bound::L2}, {t.l1_ns, Bound::L1}};
  const auto* floor =
      std::max_element(std::begin(floors), std::end(floors),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
  if (floor->first > schedule_ns) {
    t.estimate_ns = cfg.gpu.launch_overhead_ns + floor->first;
    t.bound = floor->first < cfg.gpu.launch_overhead_ns ? Bound::Overhead : floor->second;
    return;
  }
  t.estimate_ns = cfg.gpu.launch_overhead_ns + schedule_ns;
  const std::pair<double, Bound> servers[] = {{s.dram_busy_cycles, Bound::Dram},
                                              {s.l2_busy_cycles, Bound::L2},
                                              {s.busiest_pipe_cycles, Bound::L1}};
  const auto* top =
      std::max_element(std::begin(servers), std::end(servers),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
  t.bound = 2 * top->first >= s.cycles && s.cycles > 0 ? top->second : Bound::Latency;
  if (schedule_ns < cfg.gpu.launch_overhead_ns) t.bound = Bound::Overhead;
}

}  // namespace

TimeEstimate estimate_time(const KernelStats& k, const SimConfig& cfg) {
  TimeEstimate t;
  const TrafficProfile& p = k.traffic;
  const double ghz = cfg.gpu.clock_mhz / 1000.0;

  // Throughput terms: the busiest unit of each level sets its time (imbalance counts).
  t.dram_efficiency = dram_efficiency(p.dram, cfg.dram);
  const double channel_gbps = cfg.dram.peak_gbps / cfg.dram.channels * t.dram_efficiency;
  // The end-of-kernel flush of dirty L2 lines is DRAM time too: in a stream of kernels (every
  // bandwidth benchmark) the write-backs one kernel leaves are written while the next one runs,
  // so a store stream cannot outrun the DRAM. The flush is not counted per channel; the hash
  // spreads whole dirty lines evenly, so it adds its share to every channel.
  // Its reads of partly written sectors (dram.partial_write_reads) likewise.
  const double flush_per_channel =
      static_cast<double>(p.dram.flush_write_bytes + p.dram.flush_read_bytes) /
      std::max<std::uint32_t>(cfg.dram.channels, 1);
  t.dram_ns = (static_cast<double>(max_of(p.dram.channel_bytes)) + flush_per_channel) /
              channel_gbps;  // 1 GB/s = 1 B/ns
  t.l2_ns =
      static_cast<double>(max_of(p.l2_slice_sectors)) / cfg.l2.sectors_per_cycle_per_slice / ghz;
  // An SM's L1TEX is a pipeline (l1_pipe.h): the tag stage resolves four lookups a cycle, the
  // data stage moves one 128-byte wavefront a cycle (l1.sectors_per_cycle / 4 of them) and the
  // shared wavefronts; in steady state the slower stage sets the pace, so a broadcast load costs
  // a cycle, and a load of stride 3 words the tag stage's 1.5, not its 12 sectors' 3.
  double busiest_sm_cycles = 0;
  for (std::size_t sm = 0; sm < p.sm_l1_sectors.size(); ++sm)
    busiest_sm_cycles =
        std::max(busiest_sm_cycles,
                 l1_pipe_cycles(cfg, count_at(p.sm_l1_data_wavefronts, sm),
                                p.sm_shared_wavefronts[sm], count_at(p.sm_l1_tag_lookups, sm)));
  t.l1_ns = busiest_sm_cycles / ghz;

  // Latency and concurrency (Little's law) and waves.
  const KernelPlacement place = place_kernel(k.kernel, cfg);
  const std::uint64_t ctas = std::max<std::uint64_t>(k.kernel.grid.count(), 1);
  const std::uint64_t warps_per_cta =
      (std::max<std::uint64_t>(k.kernel.block.count(), 1) + kWarpSize - 1) / kWarpSize;
  const double resident_ctas = static_cast<double>(cfg.gpu.sm_count) * place.resident_ctas_per_sm;
  t.waves = std::ceil(static_cast<double>(ctas) / resident_ctas);
  const double warps_in_flight =
      std::min<double>(static_cast<double>(ctas), resident_ctas) * warps_per_cta;
  const double kernel_warps = static_cast<double>(ctas * warps_per_cta);
  // A `#kernel` line's loads_in_flight=N says how many loads a warp of this kernel can have in
  // flight (1 for a pointer chase, whose every address is the previous load's value).
  double in_flight = cfg.gpu.loads_in_flight_per_warp;
  if (std::uint32_t n = 0; kernel_param(k.kernel, "loads_in_flight", n)) {
    if (n == 0) fail("kernel {}: loads_in_flight=0 must be at least 1", k.kernel.id);
    in_flight = n;
  }
  t.loads_in_flight = in_flight;
  const double loads_per_warp =
      std::clamp(static_cast<double>(p.load_requests) / kernel_warps, 1.0, in_flight);
  const LoadSources sources = load_sources(k);
  t.avg_load_latency_ns = average_load_latency_cycles(sources, cfg) / ghz;
  t.latency_ns = static_cast<double>(p.load_requests) * t.avg_load_latency_ns /
                 (warps_in_flight * loads_per_warp);
  const double serial_loads =
      static_cast<double>(p.load_requests) / (warps_in_flight * loads_per_warp);
  const double further_waves = std::max(0.0, t.waves - 1);
  const double hand_offs_ns = further_waves * cfg.gpu.wave_overhead_ns;
  t.overhead_ns = cfg.gpu.launch_overhead_ns + hand_offs_ns;
  t.store_path_ns = store_path_ns(k, cfg);
  t.dispatch_ns = further_waves * cfg.gpu.wave_dispatch_ns;

  // A CTA slot's waves run one after the other: each waits for its loads, then for the stores
  // that follow them, then hands the slot on (the wave overhead); so those add up. The bandwidth
  // terms overlap with them (other SMs' CTAs move data meanwhile): gpu-stream's store-only
  // kernel reaches the DRAM's rate, not DRAM time plus overheads (tests/fidelity/data).
  // DRAM queueing lengthens the chain where it meets the DRAM's rate (loaded_chain_ns).
  const double unloaded_chain_ns = t.latency_ns + t.store_path_ns + hand_offs_ns;
  const double dram_share = sources.all() == 0 ? 0 : sources.dram / sources.all();
  const double chain_ns =
      loaded_chain_ns(unloaded_chain_ns, t.dram_ns, serial_loads * dram_share, cfg.dram.queue_ns);
  t.queue_ns = chain_ns - unloaded_chain_ns;
  const std::pair<double, Bound> terms[] = {{t.dram_ns, Bound::Dram},
                                            {t.l2_ns, Bound::L2},
                                            {t.l1_ns, Bound::L1},
                                            {chain_ns, Bound::Latency},
                                            {t.dispatch_ns, Bound::Overhead}};
  const auto* top =
      std::max_element(std::begin(terms), std::end(terms),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
  t.estimate_ns = cfg.gpu.launch_overhead_ns + top->first;
  // The bound names the resource that saturates. The queue is the DRAM's saturation, not the
  // chain's: a chain that outlasts the other terms only by its queueing at the DRAM (at
  // unloaded latency it is no longer than the DRAM time) is DRAM-bound; more loads in flight
  // would not make it faster. So the bound is the largest term with the chain at unloaded
  // latency, where the loaded chain is the largest.
  Bound bound = top->second;
  if (bound == Bound::Latency && t.queue_ns > 0) {
    const std::pair<double, Bound> unloaded[] = {{t.dram_ns, Bound::Dram},
                                                 {t.l2_ns, Bound::L2},
                                                 {t.l1_ns, Bound::L1},
                                                 {unloaded_chain_ns, Bound::Latency},
                                                 {t.dispatch_ns, Bound::Overhead}};
    bound = std::max_element(std::begin(unloaded), std::end(unloaded),
                             [](const auto& a, const auto& b) { return a.first < b.first; })
                ->second;
  }
  t.bound = top->first >= cfg.gpu.launch_overhead_ns ? bound : Bound::Overhead;

  if (k.schedule.timed) time_from_schedule(k.schedule, cfg, t);

  const double l2_bytes =
      32.0 * std::accumulate(p.l2_slice_sectors.begin(), p.l2_slice_sectors.end(), 0.0);
  const double l1_bytes =
      32.0 * std::accumulate(p.sm_l1_sectors.begin(), p.sm_l1_sectors.end(), 0.0);
  t.dram_gbps = static_cast<double>(p.dram.read_bytes + p.dram.write_bytes) / t.estimate_ns;
  t.l2_gbps = l2_bytes / t.estimate_ns;
  t.l1_gbps = l1_bytes / t.estimate_ns;
  return t;
}

Roofline roofline_point(std::uint64_t flops, double intensity, double peak_gflops,
                        double peak_gbps) {
  Roofline r;
  r.known = true;
  r.flops = flops;
  r.intensity = intensity;
  r.balance = peak_gflops / peak_gbps;
  r.attainable_flops_per_s = std::min(peak_gflops, intensity * peak_gbps) * 1e9;
  r.bound = intensity < r.balance ? RooflineBound::Memory : RooflineBound::Compute;
  return r;
}

Roofline roofline(const KernelStats& k, const SimConfig& cfg) {
  if (k.kernel.flops == 0) return {};
  std::uint64_t cold_bytes = 0;
  for (OpClass c : {OpClass::GlobalLoad, OpClass::GlobalStore, OpClass::LocalLoad,
                    OpClass::LocalStore, OpClass::GlobalAtomic, OpClass::Tma})
    cold_bytes += k.total(c).bytes_fetched;
  const double flops = static_cast<double>(k.kernel.flops);
  const double intensity_cold = cold_bytes == 0 ? 0 : flops / static_cast<double>(cold_bytes);
  const std::uint64_t dram = k.traffic.dram.read_bytes + k.traffic.dram.write_bytes;
  const double intensity = k.mode == KernelMode::Cached
                               ? (dram == 0 ? 0 : flops / static_cast<double>(dram))
                               : intensity_cold;
  Roofline r = roofline_point(k.kernel.flops, intensity, cfg.gpu.fp32_gflops, cfg.dram.peak_gbps);
  r.intensity_cold = intensity_cold;
  return r;
}

}  // namespace gms
