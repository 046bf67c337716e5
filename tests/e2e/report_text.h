#pragma once
// A run's whole report as text (the JSON report and what it leaves out), for tests that compare
// two ways of replaying the same traces byte for byte: the engines (engine_differential_test.cc)
// and thread counts (parallel_replay_test.cc).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/error.h"
#include "sim/replay/simulator.h"
#include "sim/report/report.h"
#include "tests/e2e/mixed_traces.h"
#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"
#include "trace/import/formats.h"

namespace gms::test {

/// What a run reports, as text: the JSON report, then what the JSON leaves out; or its error.
inline std::string report_text(const std::vector<KernelStats>& kernels, const SimConfig& cfg) {
  std::ostringstream out;
  print_report(out, RunReport{cfg, {"trace"}, kernels}, ReportFormat::Json);
  auto list = [](const std::vector<std::uint64_t>& v) {
    return fmt::format("{}", fmt::join(v, ","));
  };
  for (const KernelStats& k : kernels) {
    const TrafficProfile& t = k.traffic;
    const DramTraffic& d = t.dram;
    out << fmt::format("kernel {} {} flops={} arch={} records={}\n", k.kernel.id,
                       kernel_mode_name(k.mode), k.kernel.flops, k.kernel.arch, k.records);
    for (const auto& [key, value] : k.kernel.params) out << fmt::format(" {}={}", key, value);
    out << fmt::format("\nsm_l1_sectors {}\nsm_shared_wavefronts {}\nl2_slice_sectors {}\n",
                       list(t.sm_l1_sectors), list(t.sm_shared_wavefronts),
                       list(t.l2_slice_sectors));
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

/// One replay's report text (or error), with the per-unit vectors kept.
template <class Source>
std::string replay_text(const Source& source, const SimConfig& cfg, RunOptions opts) {
  opts.keep_unit_traffic = true;
  try {
    if constexpr (std::is_same_v<Source, std::vector<std::string>>) {
      return report_text(simulate(source, cfg, opts), cfg);
    } else {  // one trace through the reader overload
      auto reader = trace::open_trace_reader(source);
      return report_text(simulate(*reader, cfg, opts), cfg);
    }
  } catch (const SimError& e) {
    return std::string("error: ") + e.what() + "\n";
  }
}

/// True when `fast` is `reference`; else adds a failure that shows the first line that differs,
/// with its neighbours, under `what`.
inline bool same_text(const std::string& reference, const std::string& fast,
                      const std::string& what) {
  if (reference == fast) return true;
  std::istringstream a(reference), b(fast);
  std::string la, lb, before;
  int line = 1;
  while (std::getline(a, la) && std::getline(b, lb) && la == lb) {
    before = la;
    ++line;
  }
  ADD_FAILURE() << what << ": the engines differ at line " << line << " of the report\n"
                << "  before:    " << before << "\n  reference: " << la << "\n  fast:      " << lb;
  return false;
}

inline std::vector<std::string> files_in(const std::string& dir, const std::string& ext) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ext) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

/// The suite's traces: every mixed trace of tests/e2e/mixed_traces.h and every wtrace of
/// tests/data.
inline std::vector<std::string> suite_traces(const TempDir& dir) {
  std::vector<std::string> traces = {dir.file("repeat.wtrace"), dir.file("scattered.wtrace"),
                                     dir.file("partial.wtrace")};
  std::ofstream(traces[0]) << repeat_trace();
  std::ofstream(traces[1]) << scattered_trace();
  std::ofstream(traces[2]) << partial_write_trace();
  for (const std::string& t : files_in(data_path(""), ".wtrace")) traces.push_back(t);
  return traces;
}

}  // namespace gms::test
