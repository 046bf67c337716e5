// gpumemsim run: replay traces and report per-instruction memory statistics.
#include <algorithm>
#include <charconv>
#include <map>
#include <sstream>

#include "sim/config/config.h"
#include "sim/core/error.h"
#include "sim/diagnosis/diagnose.h"
#include "sim/replay/simulator.h"
#include "sim/report/report.h"
#include "tools/cli/commands.h"
#include "tools/cli/options.h"
#include "tools/cli/study_common.h"
#include "trace/import/formats.h"
#include "trace/io/input_progress.h"

namespace gms::cli {

namespace {

/// "ID=N" pairs for --flops.
std::map<std::uint32_t, std::uint64_t> parse_flops(const std::vector<std::string>& items) {
  std::map<std::uint32_t, std::uint64_t> out;
  for (const std::string& item : items) {
    const auto eq = item.find('=');
    std::uint32_t id = 0;
    std::uint64_t flops = 0;
    const char* end = item.data() + item.size();
    if (eq == std::string::npos ||
        std::from_chars(item.data(), item.data() + eq, id).ptr != item.data() + eq ||
        std::from_chars(item.data() + eq + 1, end, flops).ptr != end || eq + 1 == item.size())
      fail("--flops '{}': expected KERNEL_ID=FLOPS, both unsigned integers", item);
    out[id] = flops;
  }
  return out;
}

/// --threads with --engine: the reference and one-pass engines replay on one thread only.
unsigned threads_option(unsigned threads, Engine engine) {
  if ((engine == Engine::Reference || engine == Engine::OnePass) && threads > 1)
    fail("--threads {}: the {} engine replays on one thread", threads, engine_name(engine));
  return threads;
}

}  // namespace

int cmd_run(const std::vector<std::string>& args) {
  po::options_description visible("options");
  add_config_options(visible);
  // clang-format off
  visible.add_options()
      ("mode", po::value<std::string>()->default_value("cold"),
       "cold (every access misses: the notes' model), cached (L1, L2, DRAM) or both")
      ("engine", po::value<std::string>()->default_value("auto"),
       "auto (fast), fast (memo, batches, shortcuts), reference (record by record, in trace "
       "order: the model's specification) or onepass; the results are the same")
      ("threads", po::value<unsigned>()->default_value(0),
       "replay on this many threads (0: the program chooses: every core for a cold replay of "
       ".gmt files, two for a cached or both-mode one, uncompressed Accel-Sim texts two cold and "
       "one cached, else one); the results are the same for any number")
      ("kernel", po::value<std::vector<std::uint32_t>>()->composing(),
       "replay only this kernel id (repeatable)")
      ("flops", po::value<std::vector<std::string>>()->composing(),
       "FLOPs of a kernel for the roofline: --flops ID=N (overrides the trace's flops=)")
      ("format", po::value<std::string>()->default_value("table"), "table, csv, json or html")
      ("output,o", po::value<std::string>()->default_value("-"), "output file, - for stdout")
      ("pattern", po::bool_switch(),
       "add a pattern column: each instruction's access pattern, from its addresses (one more "
       "read of the trace; the counts are the same)");
  // clang-format on
  add_order_option(visible);
  add_trace_reading_options(visible);
  po::variables_map vm;
  const std::vector<std::string> traces = parse_trace_args(
      args, "run",
      "usage: gpumemsim run TRACE... [--config NAME|FILE] [--set KEY=VALUE]... "
      "[--mode cold|cached|both] [--engine auto|fast|reference|onepass] [--order "
      "file|lockstep|timed] "
      "[--threads N] [--kernel "
      "ID]... "
      "[--format "
      "table|csv|json|html] [--pattern] [-o FILE]\n"
      "Replays warp traces (wtrace text, .zst, .gmt, Accel-Sim kernelslist.g, .traceg[.xz] or\n"
      ".tracez, NVBit mem_trace logs; - for stdin) and reports\n"
      "per-instruction coalescing and shared-memory bank statistics.",
      visible, vm);
  if (traces.empty()) return 0;

  const ReportFormat format = parse_report_format(vm["format"].as<std::string>());

  RunReport report;
  report.config = config_from_options(vm);
  report.traces = traces;
  RunOptions opts;
  opts.mode = parse_sim_mode(vm["mode"].as<std::string>());
  opts.engine = parse_engine(vm["engine"].as<std::string>());
  opts.order = order_option(vm);
  opts.threads = threads_option(vm["threads"].as<unsigned>(), opts.engine);
  if (vm.count("flops")) opts.flops = parse_flops(vm["flops"].as<std::vector<std::string>>());
  if (vm.count("kernel")) opts.kernel_ids = vm["kernel"].as<std::vector<std::uint32_t>>();

  const TraceReading reading = trace_reading(vm);
  opts.trace_format = reading.format;
  opts.import = reading.import;
  {
    const ProgressBar bar(trace::input_bytes_total(traces), reading.progress);
    report.kernels = simulate(report.traces, report.config, opts);
  }
  for (std::uint32_t id : opts.kernel_ids) {
    if (std::none_of(report.kernels.begin(), report.kernels.end(),
                     [id](const KernelStats& k) { return k.kernel.id == id; }))
      fail("run: kernel id {} is not in the given traces", id);
  }

  if (vm["pattern"].as<bool>()) {
    auto chain = open_run_chain(report.traces, opts);
    for (const KernelPatterns& k : diagnose(*chain, report.config, opts))
      for (const PatternSummary& s : k.instructions)
        report.patterns[{k.kernel.id, s.inst, s.op, s.size}] = summary_label(s);
  }

  std::ostringstream out;
  print_report(out, report, format);
  write_output(vm["output"].as<std::string>(), out.str());
  return 0;
}

}  // namespace gms::cli
