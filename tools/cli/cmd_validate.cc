// gpumemsim validate: simulated statistics against Nsight Compute counters, per kernel and
// metric, with the error; --tolerance turns it into a check (exit status 3 past the bound).
#include <spdlog/spdlog.h>

#include <sstream>

#include "sim/core/error.h"
#include "sim/replay/simulator.h"
#include "tools/cli/commands.h"
#include "tools/cli/options.h"
#include "tools/cli/study_common.h"
#include "tools/study/ncu_csv.h"
#include "tools/study/validate.h"

namespace gms::cli {

int cmd_validate(const std::vector<std::string>& args) {
  po::options_description visible("options");
  visible.add_options()("ncu", po::value<std::string>()->required(),
                        "measured counters: ncu --csv --page raw --print-units base output, or "
                        "the groundtruth h200_counters.csv layout");
  add_config_options(visible);
  visible.add_options()("match", po::value<std::string>()->default_value("order"),
                        "how kernels pair: order, name, or id (groundtruth layout)")(
      "tolerance", po::value<double>(),
      "largest error allowed, in percent (points for percentages); exit status 3 past it")(
      "format", po::value<std::string>()->default_value("table"), "table, csv, json or html")(
      "output,o", po::value<std::string>()->default_value("-"), "output file, - for stdout");
  add_order_option(visible);
  po::variables_map vm;
  const std::vector<std::string> traces = parse_trace_args(
      args, "validate",
      "usage: gpumemsim validate --ncu FILE.csv TRACE... [--tolerance PCT] "
      "[--match order|name|id] [--format table|csv|json|html] [-o FILE]\n"
      "Simulates the traces (cold mode for coalescer counts, cached mode for the hierarchy)\n"
      "and prints simulated vs measured per kernel and metric, with the error. Exit status:\n"
      "0, 1 on an error, 3 when --tolerance is given and a metric is past it.",
      visible, vm);
  if (traces.empty()) return 0;
  const ReportFormat format = parse_report_format(vm["format"].as<std::string>());
  const MatchBy match = parse_match_by(vm["match"].as<std::string>());
  std::optional<double> tolerance;
  if (vm.count("tolerance")) {
    tolerance = vm["tolerance"].as<double>();
    if (!(*tolerance >= 0)) fail("validate: --tolerance must be a percentage >= 0");
  }
  const std::string ncu_file = vm["ncu"].as<std::string>();
  const MeasuredTable measured = read_measured_csv(ncu_file);

  const SimConfig cfg = config_from_options(vm);
  RunOptions opts;
  opts.mode = SimMode::Both;
  opts.threads = 0;  // the program chooses, as `run` does
  opts.order = order_option(vm);
  Validation v = validate_kernels(measured, simulate(traces, cfg, opts), match, tolerance);
  v.ncu_file = ncu_file;
  v.traces = traces;
  v.config = cfg;

  std::ostringstream out;
  print_validation(out, v, format);
  write_output(vm["output"].as<std::string>(), out.str());
  for (const std::string& u : v.unmatched) spdlog::warn("validate: {}", u);
  if (tolerance && v.failures() > 0) {
    spdlog::error("validate: {} of {} comparisons are past the tolerance of {}%", v.failures(),
                  v.checks(), *tolerance);
    return 3;
  }
  return 0;
}

}  // namespace gms::cli
