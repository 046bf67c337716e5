#include "tools/cli/options.h"

#include <cstdio>
#include <iostream>

#include "sim/config/program_options_error.h"
#include "sim/core/error.h"
#include "trace/io/atomic_file.h"

namespace gms::cli {

bool parse_args(const std::vector<std::string>& args, const std::string& usage,
                const po::options_description& visible, const po::options_description& hidden,
                const po::positional_options_description& positional, po::variables_map& vm) {
  po::options_description all;
  all.add(visible).add(hidden);
  all.add_options()("help,h", "show this help");
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    if (vm.count("help")) {
      std::cout << usage << "\n\n" << visible << "  -h [ --help ]          show this help\n";
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    fail("{} (see --help)", program_options_message(e));
  }
  return true;
}

std::vector<std::string> parse_trace_args(const std::vector<std::string>& args,
                                          const std::string& command, const std::string& usage,
                                          const po::options_description& visible,
                                          po::variables_map& vm) {
  po::options_description hidden;
  hidden.add_options()("trace", po::value<std::vector<std::string>>(), "trace files");
  po::positional_options_description positional;
  positional.add("trace", -1);
  if (!parse_args(args, usage, visible, hidden, positional, vm)) return {};
  if (!vm.count("trace")) fail("{}: no trace given (see --help)", command);
  return vm["trace"].as<std::vector<std::string>>();
}

void write_output(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return;
  }
  trace::write_file_atomically(path, text);
}

void add_trace_format_option(po::options_description& options) {
  options.add_options()("trace-format", po::value<std::string>()->default_value("auto"),
                        "input format: auto (from the content), wtrace, gmt, accelsim, nvbit");
}

void add_order_option(po::options_description& options) {
  options.add_options()(
      "order", po::value<std::string>()->default_value("file"),
      "the order of a cached replay's records on each SM: file (the trace's), lockstep (the "
      "resident warps take turns) or timed (the warps' progress under the warp scheduler; the "
      "time estimate comes from its schedule); cold counts do not depend on it");
}

ReplayOrder order_option(const po::variables_map& vm) {
  return parse_order(vm["order"].as<std::string>());
}

void add_zstd_level_option(po::options_description& options) {
  options.add_options()(
      "zstd-level", po::value<int>(),
      "zstd's level for a .gmt (default 5) or .wtrace.zst (default 3) output; a negative (fast) "
      "level writes scattered addresses, such as a pointer chase's, about twice as fast, and a "
      ".gmt so written reads faster too");
}

std::optional<int> zstd_level_option(const po::variables_map& vm) {
  return vm.count("zstd-level") ? std::optional<int>(vm["zstd-level"].as<int>()) : std::nullopt;
}

void add_trace_reading_options(po::options_description& options) {
  add_trace_format_option(options);
  options.add_options()(
      "strict", po::bool_switch(),
      "refuse Accel-Sim lines with fields after the address list that no '#traces format' line "
      "explains (default: read them, warn once per file)")(
      "no-progress", po::bool_switch(), "no progress bar (it is shown only on a terminal anyway)");
}

TraceReading trace_reading(const po::variables_map& vm) {
  TraceReading r;
  r.format = trace::parse_trace_format(vm["trace-format"].as<std::string>());
  r.import.strict = vm["strict"].as<bool>();
  r.progress = !vm["no-progress"].as<bool>();
  return r;
}

}  // namespace gms::cli
