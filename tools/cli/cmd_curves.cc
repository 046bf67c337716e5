// gpumemsim curves: the miss-ratio curve of a trace (hit rate against capacity, per
// associativity and fully associative) for L1 or L2, per kernel and per instruction, from one
// replay (tools/study/curves.h).
#include <charconv>
#include <sstream>

#include "sim/core/error.h"
#include "tools/cli/commands.h"
#include "tools/cli/options.h"
#include "tools/cli/study_common.h"
#include "tools/study/curves.h"

namespace gms::cli {

namespace {

/// "1,4,16,full" (ways) or "64,128" (KiB): positive numbers; `full` (0) where allowed.
std::vector<std::uint32_t> parse_list(const std::string& option, const std::string& text,
                                      bool full_allowed) {
  std::vector<std::uint32_t> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = text.find(',', start);
    const std::string item = text.substr(start, end == std::string::npos ? end : end - start);
    std::uint32_t v = 0;
    const auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (full_allowed && item == "full")
      out.push_back(0);
    else if (item.empty() || ec != std::errc{} || p != item.data() + item.size() || v == 0)
      fail("--{} '{}': expected positive numbers separated by commas{}", option, text,
           full_allowed ? " (or full)" : "");
    else
      out.push_back(v);
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

}  // namespace

int cmd_curves(const std::vector<std::string>& args) {
  po::options_description visible("options");
  // clang-format off
  visible.add_options()
      ("level", po::value<std::string>()->default_value("l2"), "l1 (one SM's L1) or l2")
      ("per-instruction", po::bool_switch(), "rows (and charts) per instruction too")
      ("ways", po::value<std::string>(),
       "associativities, e.g. 1,4,16,full (full: one set; per slice for the L2); default "
       "1,4,16,full (l2), 4,16,64,full (l1)")
      ("sizes", po::value<std::string>(),
       "capacities in KiB (the whole L2; one L1); default: the base L2 x 1/64 to 2, or 8 to 256 "
       "KiB of L1")
      ("config", po::value<std::vector<std::string>>()->composing(),
       "base preset name or configuration file, over the built-in hopper-h200")
      ("set", po::value<std::vector<std::string>>()->composing(),
       "override one key of the base: --set section.key=value")
      ("format", po::value<std::string>()->default_value("csv"), "csv or html")
      ("output,o", po::value<std::string>()->default_value("-"), "output file, - for stdout");
  // clang-format on
  po::variables_map vm;
  const std::vector<std::string> traces = parse_trace_args(
      args, "curves",
      "usage: gpumemsim curves TRACE [--level l1|l2] [--per-instruction] [--ways LIST] "
      "[--sizes LIST] [--config P] [--set K=V]... [--format csv|html] [-o FILE]\n"
      "The miss-ratio curve of a trace: the level's hit rate per kernel (and instruction)\n"
      "against capacity, per associativity and fully associative, from one replay (LRU; the\n"
      "stack algorithm gives every point exactly, as a separate run of it would).",
      visible, vm);
  if (traces.empty()) return 0;
  if (traces.size() != 1) fail("curves: give one trace, not {}", traces.size());
  CurveSpec spec;
  spec.trace = traces[0];
  const std::string level = vm["level"].as<std::string>();
  if (level != "l1" && level != "l2") fail("curves: --level '{}': expected l1 or l2", level);
  spec.level = level == "l1" ? CurveLevel::L1 : CurveLevel::L2;
  spec.per_instruction = vm["per-instruction"].as<bool>();
  if (vm.count("ways")) spec.ways = parse_list("ways", vm["ways"].as<std::string>(), true);
  if (vm.count("sizes")) spec.sizes_kb = parse_list("sizes", vm["sizes"].as<std::string>(), false);
  if (vm.count("config"))
    spec.base.files = resolve_config_args(vm["config"].as<std::vector<std::string>>());
  if (vm.count("set")) spec.base.overrides = vm["set"].as<std::vector<std::string>>();
  const std::string format = vm["format"].as<std::string>();
  if (format != "csv" && format != "html") fail("curves: unknown format '{}' (csv, html)", format);

  const Curves c = compute_curves(spec);
  std::ostringstream out;
  if (format == "html")
    print_curves_html(out, c);
  else
    out << curves_csv(c);
  write_output(vm["output"].as<std::string>(), out.str());
  return 0;
}

}  // namespace gms::cli
