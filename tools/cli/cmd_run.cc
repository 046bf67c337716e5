// gpumemsim run: replay traces and report per-instruction memory statistics.
#include <algorithm>
#include <charconv>
#include <map>
#include <sstream>
#include <thread>

#include "sim/config/config.h"
#include "sim/core/error.h"
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

/// --engine: fast or reference.
Engine parse_engine(const std::string& name) {
  if (name == "fast") return Engine::Fast;
  if (name == "reference") return Engine::Reference;
  fail("--engine '{}': expected fast or reference", name);
}

/// --threads: 0 is one per core; the reference engine replays on one thread only.
unsigned threads_option(unsigned threads, Engine engine) {
  if (engine == Engine::Reference) {
    if (threads > 1) fail("--threads {}: the reference engine replays on one thread", threads);
    return 1;
  }
  return threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

int cmd_run(const std::vector<std::string>& args) {
  po::options_description visible("options");
  // clang-format off
  visible.add_options()
      ("config", po::value<std::vector<std::string>>()->composing(),
       "preset or configuration file (.ini); several are applied in order over the built-in "
       "hopper-h200 preset")
      ("set", po::value<std::vector<std::string>>()->composing(),
       "override one key: --set section.key=value (see docs/config.md)")
      ("mode", po::value<std::string>()->default_value("cold"),
       "cold (every access misses: the notes' model), cached (L1, L2, DRAM) or both")
      ("engine", po::value<std::string>()->default_value("fast"),
       "fast (memo, batches, shortcuts) or reference (record by record, in trace order: the "
       "model's specification); the results are the same")
      ("threads", po::value<unsigned>()->default_value(0),
       "replay on this many threads (0: one per core); the results are the same for any number")
      ("kernel", po::value<std::vector<std::uint32_t>>()->composing(),
       "replay only this kernel id (repeatable)")
      ("flops", po::value<std::vector<std::string>>()->composing(),
       "FLOPs of a kernel for the roofline: --flops ID=N (overrides the trace's flops=)")
      ("format", po::value<std::string>()->default_value("table"), "table, csv, json or html")
      ("output,o", po::value<std::string>()->default_value("-"), "output file, - for stdout")
      ("trace-format", po::value<std::string>()->default_value("auto"),
       "input format: auto (from the content), wtrace, gmt, accelsim, nvbit")
      ("no-progress", po::bool_switch(), "no progress bar (it is shown only on a terminal anyway)");
  // clang-format on
  po::variables_map vm;
  const std::vector<std::string> traces = parse_trace_args(
      args, "run",
      "usage: gpumemsim run TRACE... [--config NAME|FILE] [--set KEY=VALUE]... "
      "[--mode cold|cached|both] [--engine fast|reference] [--threads N] [--kernel ID]... "
      "[--format "
      "table|csv|json|html] [-o FILE]\n"
      "Replays warp traces (wtrace text, .zst, .gmt, Accel-Sim kernelslist.g or .traceg[.xz],\n"
      "NVBit mem_trace logs; - for stdin) and reports\n"
      "per-instruction coalescing and shared-memory bank statistics.",
      visible, vm);
  if (traces.empty()) return 0;

  const ReportFormat format = parse_report_format(vm["format"].as<std::string>());

  ConfigSources sources;
  if (vm.count("config"))
    sources.files = resolve_config_args(vm["config"].as<std::vector<std::string>>());
  if (vm.count("set")) sources.overrides = vm["set"].as<std::vector<std::string>>();

  RunReport report;
  report.config = load_config(sources);
  report.traces = traces;
  RunOptions opts;
  opts.mode = parse_sim_mode(vm["mode"].as<std::string>());
  opts.engine = parse_engine(vm["engine"].as<std::string>());
  opts.threads = threads_option(vm["threads"].as<unsigned>(), opts.engine);
  if (vm.count("flops")) opts.flops = parse_flops(vm["flops"].as<std::vector<std::string>>());
  if (vm.count("kernel")) opts.kernel_ids = vm["kernel"].as<std::vector<std::uint32_t>>();

  const trace::TraceFormat trace_format =
      trace::parse_trace_format(vm["trace-format"].as<std::string>());
  {
    const ProgressBar bar(trace::input_bytes_total(traces), !vm["no-progress"].as<bool>());
    if (trace_format == trace::TraceFormat::Auto) {
      report.kernels = simulate(report.traces, report.config, opts);
    } else {
      auto chain = trace::open_trace_chain(report.traces, trace_format);
      report.kernels = simulate(*chain, report.config, opts);
    }
  }
  for (std::uint32_t id : opts.kernel_ids) {
    if (std::none_of(report.kernels.begin(), report.kernels.end(),
                     [id](const KernelStats& k) { return k.kernel.id == id; }))
      fail("run: kernel id {} is not in the given traces", id);
  }

  std::ostringstream out;
  print_report(out, report, format);
  write_output(vm["output"].as<std::string>(), out.str());
  return 0;
}

}  // namespace gms::cli
