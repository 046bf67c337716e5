// gpumemsim compare: two configurations (or cold vs cached) on the same traces, side by side per
// kernel and per instruction, the instructions whose traffic changes most first.
#include <filesystem>
#include <sstream>

#include "sim/core/error.h"
#include "tools/cli/commands.h"
#include "tools/cli/options.h"
#include "tools/cli/study_common.h"
#include "tools/study/compare.h"

namespace gms::cli {

namespace {

/// A side's label: the preset name, or the file name when the presets share one.
std::string side_label(const SimConfig& cfg, const std::string& file, bool names_clash) {
  if (!names_clash || file.empty()) return cfg.gpu.name;
  return cfg.gpu.name + " (" + std::filesystem::path(file).filename().string() + ")";
}

}  // namespace

int cmd_compare(const std::vector<std::string>& args) {
  po::options_description visible("options");
  visible.add_options()("config", po::value<std::vector<std::string>>()->composing(),
                        "preset name or .ini file: give two (A, then B), or one with --mode both")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override a key on both sides: --set section.key=value")(
      "mode", po::value<std::string>()->default_value("cold"),
      "cold or cached (both sides), or both: cold (A) vs cached (B) of one configuration")(
      "format", po::value<std::string>()->default_value("table"), "table, csv, json or html")(
      "output,o", po::value<std::string>()->default_value("-"), "output file, - for stdout");
  po::variables_map vm;
  const std::vector<std::string> traces = parse_trace_args(
      args, "compare",
      "usage: gpumemsim compare TRACE... --config A --config B [--mode cold|cached] "
      "[--format table|csv|json|html] [-o FILE]\n"
      "       gpumemsim compare TRACE... [--config C] --mode both\n"
      "Runs the traces twice and shows both runs side by side, per kernel and per\n"
      "instruction (transactions, sectors, bytes fetched, efficiency; L2 and DRAM in cached\n"
      "mode), the instructions whose traffic changes most first.",
      visible, vm);
  if (traces.empty()) return 0;
  const ReportFormat format = parse_report_format(vm["format"].as<std::string>());
  const std::vector<std::string> files =
      vm.count("config") ? resolve_config_args(vm["config"].as<std::vector<std::string>>())
                         : std::vector<std::string>{};
  std::vector<std::string> overrides;
  if (vm.count("set")) overrides = vm["set"].as<std::vector<std::string>>();
  const SimMode mode = parse_sim_mode(vm["mode"].as<std::string>());

  CompareSide a, b;
  if (mode == SimMode::Both) {
    if (files.size() > 1)
      fail("compare: --mode both compares cold and cached of one configuration; give one --config");
    a.config = load_config({files, overrides});
    b.config = a.config;
    a.mode = SimMode::Cold;
    b.mode = SimMode::Cached;
    a.label = b.label = a.config.gpu.name;
  } else {
    if (files.size() != 2)
      fail("compare: give two configurations (--config A --config B), or --mode both");
    a.config = load_config({{files[0]}, overrides});
    b.config = load_config({{files[1]}, overrides});
    a.mode = b.mode = mode;
    const bool clash = a.config.gpu.name == b.config.gpu.name;
    a.label = side_label(a.config, files[0], clash);
    b.label = side_label(b.config, files[1], clash);
  }
  const Comparison c = compare_runs(traces, a, b);
  std::ostringstream out;
  print_comparison(out, c, format);
  write_output(vm["output"].as<std::string>(), out.str());
  return 0;
}

}  // namespace gms::cli
