// gpumemsim fidelity: the calibration report of tools/calibration/fidelity.py's points CSV,
// every published curve against the simulator's, per preset, with the errors and their bounds
// (tools/study/fidelity_report.h).
#include <sstream>

#include "sim/core/error.h"
#include "tools/cli/commands.h"
#include "tools/cli/options.h"
#include "tools/study/fidelity_points.h"
#include "tools/study/fidelity_report.h"

namespace gms::cli {

int cmd_fidelity(const std::vector<std::string>& args) {
  po::options_description visible("options");
  visible.add_options()("format", po::value<std::string>()->default_value("table"),
                        "table (the summary per curve) or html (the summary, then a chart, "
                        "the errors and the points of each curve, per preset)")(
      "output,o", po::value<std::string>()->default_value("-"), "output file, - for stdout");
  po::options_description hidden;
  hidden.add_options()("points", po::value<std::vector<std::string>>(), "points CSV");
  po::positional_options_description positional;
  positional.add("points", -1);
  po::variables_map vm;
  if (!parse_args(args,
                  "usage: gpumemsim fidelity POINTS.csv [--format table|html] [-o FILE]\n"
                  "The calibration report: published measurements against the simulator, per\n"
                  "preset and curve, with each error metric, its bound and issue 20's target.\n"
                  "POINTS.csv is what 'tools/calibration/fidelity.py --points-csv FILE' writes\n"
                  "(tools/calibration/report.sh build --html FILE runs both).",
                  visible, hidden, positional, vm))
    return 0;
  if (!vm.count("points")) fail("fidelity: no points CSV given (see --help)");
  const std::vector<std::string> paths = vm["points"].as<std::vector<std::string>>();
  if (paths.size() != 1) fail("fidelity: give one points CSV, not {}", paths.size());
  const std::string format = vm["format"].as<std::string>();
  if (format != "table" && format != "html")
    fail("fidelity: unknown format '{}' (table, html)", format);

  const FidelityPoints points = read_fidelity_points(paths[0]);
  std::ostringstream out;
  if (format == "html")
    print_fidelity_html(out, points);
  else
    print_fidelity_table(out, points);
  write_output(vm["output"].as<std::string>(), out.str());
  return 0;
}

}  // namespace gms::cli
