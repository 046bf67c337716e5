// gpumemsim explain: per-instruction access-pattern diagnosis and what-if replays that rank the
// candidate fixes by the kernel time they save (sim/diagnosis/explain.h).
#include <algorithm>
#include <sstream>

#include "sim/config/config.h"
#include "sim/core/error.h"
#include "sim/diagnosis/explain.h"
#include "tools/cli/commands.h"
#include "tools/cli/options.h"
#include "tools/cli/study_common.h"

namespace gms::cli {

int cmd_explain(const std::vector<std::string>& args) {
  po::options_description visible("options");
  add_config_options(visible);
  // clang-format off
  visible.add_options()
      ("mode", po::value<std::string>()->default_value("cached"),
       "cold, cached or both: the modes every replay runs in")
      ("top", po::value<std::size_t>()->default_value(5),
       "candidate instructions: the N with the most wasted bytes (shared memory: conflict "
       "wavefronts at 128 bytes each)")
      ("layout", po::value<std::vector<std::string>>()->composing(),
       "replay this layout change of an array too (repeatable): soa:ARRAY[:STRUCT_BYTES], "
       "aos:ARRAY,ARRAY[,...], pad:smem[:ELEMENTS[:PITCH]], swizzle:smem[:PITCH], "
       "transpose:ARRAY[:PITCH], vector:INST,INST[,...]; ARRAY: an allocation's name, g0, g1, "
       "... (arrays found from the addresses), 0xADDR or iN (instruction N's array)")
      ("no-suggested-layouts", po::bool_switch(),
       "replay only the --layout changes, not those the diagnosis suggests")
      ("jobs", po::value<unsigned>()->default_value(0),
       "replays run side by side (0: one per core); the results are the same")
      ("kernel", po::value<std::vector<std::uint32_t>>()->composing(),
       "replay only this kernel id (repeatable)")
      ("format", po::value<std::string>()->default_value("table"), "table, csv, json or html")
      ("output,o", po::value<std::string>()->default_value("-"), "output file, - for stdout");
  // clang-format on
  add_trace_format_option(visible);
  add_order_option(visible);
  po::variables_map vm;
  const std::vector<std::string> traces = parse_trace_args(
      args, "explain",
      "usage: gpumemsim explain TRACE... [--config NAME|FILE] [--set KEY=VALUE]... "
      "[--mode cold|cached|both] [--order file|lockstep|timed] [--top N] [--layout SPEC]... "
      "[--no-suggested-layouts] [--jobs N] "
      "[--kernel ID]... "
      "[--format table|csv|json|html] [-o FILE]\n"
      "Diagnoses each instruction's access pattern from its addresses, then replays the trace\n"
      "once as it is and once per candidate instruction with that instruction's accesses made\n"
      "ideal (the same bytes, coalesced and aligned; shared memory conflict-free), and once per\n"
      "layout change of an array (structure of arrays, padded or swizzled shared tile, transposed\n"
      "array, narrow loads merged into vector loads: the diagnosis suggests them, --layout names\n"
      "more), which moves every access to the array; both kinds are ranked in one table by the\n"
      "kernel time the change saves.",
      visible, vm);
  if (traces.empty()) return 0;
  if (std::find(traces.begin(), traces.end(), "-") != traces.end())
    fail("explain: reads each trace several times; standard input ('-') cannot be replayed");

  const ReportFormat format = parse_report_format(vm["format"].as<std::string>());
  const SimConfig cfg = config_from_options(vm);

  RunOptions opts;
  opts.mode = parse_sim_mode(vm["mode"].as<std::string>());
  opts.order = order_option(vm);
  opts.trace_format = trace::parse_trace_format(vm["trace-format"].as<std::string>());
  if (vm.count("kernel")) opts.kernel_ids = vm["kernel"].as<std::vector<std::uint32_t>>();
  ExplainOptions eo;
  eo.top = vm["top"].as<std::size_t>();
  if (eo.top == 0) fail("explain: --top 0: at least one candidate");
  eo.jobs = vm["jobs"].as<unsigned>();
  if (vm.count("layout")) eo.layouts = vm["layout"].as<std::vector<std::string>>();
  eo.suggest_layouts = !vm["no-suggested-layouts"].as<bool>();

  const ExplainResult result = explain(traces, cfg, opts, eo);
  for (std::uint32_t id : opts.kernel_ids)
    if (std::none_of(result.base.begin(), result.base.end(),
                     [id](const KernelStats& k) { return k.kernel.id == id; }))
      fail("explain: kernel id {} is not in the given traces", id);
  std::ostringstream out;
  print_explain(out, result, format);
  write_output(vm["output"].as<std::string>(), out.str());
  return 0;
}

}  // namespace gms::cli
