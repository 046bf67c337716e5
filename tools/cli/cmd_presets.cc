// gpumemsim presets: the presets `--config NAME` finds (name, GPU, sources), and where.
#include <fmt/format.h>

#include "sim/core/error.h"
#include "tools/cli/commands.h"
#include "tools/cli/options.h"
#include "tools/cli/study_common.h"
#include "tools/study/preset_kinds.h"
#include "tools/study/presets.h"

namespace gms::cli {

int cmd_presets(const std::vector<std::string>& args) {
  po::options_description visible("options");
  visible.add_options()("format", po::value<std::string>()->default_value("table"),
                        "table, or names (one per line)")(
      "detail", po::value<std::string>(),
      "NAME: every figure of that preset with how sure it is (measured, vendor, sibling, "
      "fitted, assumed, model) and its source");
  po::variables_map vm;
  if (!parse_args(args,
                  "usage: gpumemsim presets [--format table|names] [--detail NAME]\n"
                  "Lists the presets that --config NAME (run, sweep, compare, validate) and\n"
                  "--vary preset=NAME find: a path if it exists, else NAME.ini next to the\n"
                  "program, then in the install's data folder, then in ./configs;\n"
                  "GPUMEMSIM_PRESETS (folders separated by ':') replaces those folders.",
                  visible, {}, {}, vm))
    return 0;
  const std::string format = vm["format"].as<std::string>();
  if (format != "table" && format != "names")
    fail("presets: unknown format '{}' (table, names)", format);
  const std::vector<std::string> dirs = default_preset_dirs();
  if (vm.count("detail")) {
    const std::string name = vm["detail"].as<std::string>();
    const std::string file = find_preset(name, dirs);
    write_output("-", format_preset_detail(name, file, read_preset_figures(file)));
    return 0;
  }
  const std::vector<PresetInfo> presets = list_presets(dirs);
  std::string out;
  if (format == "names") {
    for (const PresetInfo& p : presets) out += p.name + "\n";
  } else {
    out = format_preset_table(presets, dirs, program_hardware_notes(current_program()));
  }
  write_output("-", out);
  return 0;
}

}  // namespace gms::cli
