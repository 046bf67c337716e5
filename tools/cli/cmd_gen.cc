// `gpumemsim gen PATTERN [options] [-o FILE]`: writes a synthetic trace for a named pattern.
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <sstream>
#include <string>

#include "sim/config/program_options_error.h"
#include "sim/core/error.h"
#include "tools/cli/commands.h"
#include "tools/cli/options.h"
#include "tools/gen/patterns.h"
#include "trace/import/formats.h"

namespace gms::cli {
namespace {

namespace po = boost::program_options;

std::string pattern_list() {
  std::string out = "patterns:\n";
  for (const gen::PatternInfo& p : gen::patterns())
    out += fmt::format("  {:<17} {}\n", p.name, p.summary);
  return out;
}

std::string usage(const po::options_description& opts) {
  std::string out =
      "usage: gpumemsim gen PATTERN [options] [-o FILE]\n"
      "Writes a synthetic warp trace; the format follows the extension of FILE (.wtrace,\n"
      ".wtrace.zst, .gmt); '-' (the default) writes wtrace text to standard output.\n\n";
  out += pattern_list();
  out += "\n";
  std::ostringstream s;
  s << opts;
  out += s.str();
  out += "\nEach pattern reads only some options; 'gpumemsim gen PATTERN --help' lists them.\n";
  return out;
}

}  // namespace

int cmd_gen(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("help,h", "print this help")("list", "list the patterns and exit")(
      "output,o", po::value<std::string>()->default_value("-"), "output trace file");
  add_zstd_level_option(opts);
  for (const gen::ParamSpec& s : gen::param_specs())
    opts.add_options()(std::string(s.option).c_str(), po::value<std::string>(),
                       std::string(s.help).c_str());
  po::options_description all;
  all.add(opts).add_options()("pattern", po::value<std::string>());
  po::positional_options_description pos;
  pos.add("pattern", 1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    fail("gen: {} (see --help)", program_options_message(e));
  }

  const std::string name = vm.count("pattern") ? vm["pattern"].as<std::string>() : "";
  if (vm.count("list")) {
    std::fputs(pattern_list().c_str(), stdout);
    return 0;
  }
  if (vm.count("help")) {
    if (const gen::PatternInfo* p = gen::find_pattern(name)) {
      std::fputs(fmt::format("{}: {}\noptions: {}, -o FILE, --zstd-level N\n", p->name, p->summary,
                             gen::param_names(p->params))
                     .c_str(),
                 stdout);
    } else {
      std::fputs(usage(opts).c_str(), stdout);
    }
    return 0;
  }
  if (name.empty()) fail("gen: missing PATTERN (see 'gpumemsim gen --list')");
  const gen::PatternInfo* pattern = gen::find_pattern(name);
  if (pattern == nullptr) fail("gen: unknown pattern '{}' (see 'gpumemsim gen --list')", name);

  gen::GenParams params;
  for (const gen::ParamSpec& s : gen::param_specs()) {
    const std::string option(s.option);
    if (!vm.count(option)) continue;
    if ((pattern->params & s.bit) == 0)
      fail("gen: pattern '{}' does not take --{} (it takes {})", name, option,
           gen::param_names(pattern->params));
    gen::set_param(params, s.bit, vm[option].as<std::string>());
  }
  gen::validate(name, params);  // before the output file is created

  auto writer = trace::open_trace_writer(vm["output"].as<std::string>(), zstd_level_option(vm));
  gen::generate(name, params, *writer);
  writer->finish();
  return 0;
}

}  // namespace gms::cli
