#pragma once
// A run's whole report as text: the JSON report and what it leaves out (per-unit traffic, DRAM
// rows, placement, the time estimate's terms in hex floats, the kernel's parameters). Free of
// the test framework, so that the tests (report_text.h) and the engines' fuzz target
// (tests/fuzz/fuzz_engines.cc) compare the same text.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <sstream>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/report/report.h"

namespace gms::test {

/// What a run reports, as text: the JSON report, then what the JSON leaves out; or its error.
inline std::string report_text(const std::vector<KernelStats>& kernels, const SimConfig& cfg) {
  std::ostringstream out;
  print_report(out, RunReport{cfg, {"trace"}, kernels, {}}, ReportFormat::Json);
  auto list = [](const std::vector<std::uint64_t>& v) {
    return fmt::format("{}", fmt::join(v, ","));
  };
  for (const KernelStats& k : kernels) {
    const TrafficProfile& t = k.traffic;
    const DramTraffic& d = t.dram;
    out << fmt::format("kernel {} {} flops={} arch={} records={}\n", k.kernel.id,
                       kernel_mode_name(k.mode), k.kernel.flops, k.kernel.arch, k.records);
    for (const auto& [key, value] : k.kernel.params) out << fmt::format(" {}={}", key, value);
    out << fmt::format(
        "\nsm_l1_sectors {}\nsm_l1_tag_lookups {}\nsm_l1_data_wavefronts {}\n"
        "sm_shared_wavefronts {}\nl2_slice_sectors {}\n",
        list(t.sm_l1_sectors), list(t.sm_l1_tag_lookups), list(t.sm_l1_data_wavefronts),
        list(t.sm_shared_wavefronts), list(t.l2_slice_sectors));
    out << fmt::format("dram channel_bytes {}\ndram read {} write {} flush {} rows {}/{}\n",
                       list(d.channel_bytes), d.read_bytes, d.write_bytes, d.flush_write_bytes,
                       d.row_hits, d.row_misses);
    out << fmt::format("load_requests {} placement {} {} {} earlier_writes {}\n", t.load_requests,
                       k.resident_ctas_per_sm, k.carveout_kb, k.l1_bytes,
                       k.earlier_kernels_write_bytes);
    const TimeEstimate& e = k.time;
    out << fmt::format("time {:a} {:a} {:a} {:a} {:a} {:a} {} {:a} {:a} {:a} {:a} {:a} {:a}\n",
                       e.dram_ns, e.l2_ns, e.l1_ns, e.latency_ns, e.overhead_ns, e.estimate_ns,
                       bound_name(e.bound), e.waves, e.dram_efficiency, e.avg_load_latency_ns,
                       e.dram_gbps, e.l2_gbps, e.l1_gbps);
    const ScheduleTotals& s = k.schedule;
    out << fmt::format("schedule {} {:a} {:a} {:a} {:a}\n", s.timed, s.cycles,
                       s.busiest_pipe_cycles, s.l2_busy_cycles, s.dram_busy_cycles);
    const Roofline& r = k.roofline;
    out << fmt::format("roofline {} {} {:a} {:a} {:a} {:a} {}\n", r.known, r.flops, r.intensity,
                       r.intensity_cold, r.balance, r.attainable_flops_per_s,
                       roofline_bound_name(r.bound));
    for (const InstrStats& row : k.instructions)
      out << fmt::format("row {} {} {} {}\n", row.inst, op_name(row.op), row.size,
                         row.segment_bytes);
  }
  return out.str();
}

}  // namespace gms::test
