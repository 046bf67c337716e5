// gpumemsim: command-line entry point. Dispatches to one subcommand; the only place that
// catches errors, logs them and turns them into an exit status.
#include <spdlog/cfg/env.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/error.h"
#include "tools/cli/commands.h"

namespace {

constexpr std::string_view kUsage =
    "usage: gpumemsim <command> [options]\n"
    "\n"
    "commands:\n"
    "  run      replay traces and report per-instruction memory statistics\n"
    "  explain  diagnose each instruction's access pattern; rank fixes by the time they save\n"
    "  gen      write a synthetic trace for a named access pattern\n"
    "  convert  convert a trace between wtrace text, zstd text and native binary (.gmt)\n"
    "  info     summarise a trace (kernels, records, operations)\n"
    "  sweep    run traces over the cross product of configuration values (tidy CSV)\n"
    "  merge    join sweep shards into the CSV a single sweep writes\n"
    "  curves   miss-ratio curves (hit rate vs L1 or L2 capacity and ways) from one replay\n"
    "  compare  two configurations (or cold vs cached) side by side\n"
    "  validate compare simulated statistics with Nsight Compute counters\n"
    "  presets  list the presets that --config NAME finds, and where they were found\n"
    "  fidelity the calibration report: published curves against the simulator's, per preset\n"
    "\n"
    "'gpumemsim <command> --help' describes each command's options;\n"
    "'gpumemsim --version' prints the version.\n";

}  // namespace

int main(int argc, char** argv) {
  spdlog::set_default_logger(spdlog::stderr_color_mt("gpumemsim"));
  spdlog::set_pattern("gpumemsim: %^%l%$: %v");
  spdlog::cfg::load_env_levels();  // SPDLOG_LEVEL=debug: the program's choices too
  if (argc < 2) {
    std::fputs(kUsage.data(), stderr);
    return 2;
  }
  const std::string_view command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kUsage.data(), stdout);
    return 0;
  }
  if (command == "--version" || command == "-V") {
    // The CMake project version (CMakeLists.txt), as CHANGELOG.md numbers the releases.
    std::fputs("gpumemsim " GMS_VERSION "\n", stdout);
    return 0;
  }
  const std::vector<std::string> args(argv + 2, argv + argc);
  try {
    if (command == "run") return gms::cli::cmd_run(args);
    if (command == "explain") return gms::cli::cmd_explain(args);
    if (command == "gen") return gms::cli::cmd_gen(args);
    if (command == "convert") return gms::cli::cmd_convert(args);
    if (command == "info") return gms::cli::cmd_info(args);
    if (command == "sweep") return gms::cli::cmd_sweep(args);
    if (command == "merge") return gms::cli::cmd_merge(args);
    if (command == "curves") return gms::cli::cmd_curves(args);
    if (command == "compare") return gms::cli::cmd_compare(args);
    if (command == "validate") return gms::cli::cmd_validate(args);
    if (command == "presets") return gms::cli::cmd_presets(args);
    if (command == "fidelity") return gms::cli::cmd_fidelity(args);
    spdlog::error("unknown command '{}'", command);
    std::fputs(kUsage.data(), stderr);
    return 2;
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
}
