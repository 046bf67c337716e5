// gpumemsim sweep: the cross product of configuration values over traces, in parallel, as one
// tidy CSV (or an HTML report of it); --shard runs one deterministic slice for `merge`.
#include <spdlog/spdlog.h>

#include <optional>
#include <sstream>

#include "sim/core/error.h"
#include "sim/report/tidy_csv.h"
#include "tools/cli/commands.h"
#include "tools/cli/options.h"
#include "tools/cli/study_common.h"
#include "tools/study/study_html.h"
#include "tools/study/sweep.h"
#include "tools/study/sweep_journal.h"
#include "tools/study/sweep_onepass.h"
#include "trace/io/atomic_file.h"

namespace gms::cli {

int cmd_sweep(const std::vector<std::string>& args) {
  po::options_description visible("options");
  visible.add_options()("trace", po::value<std::vector<std::string>>()->multitoken()->composing(),
                        "trace files (also accepted as plain arguments)")(
      "config", po::value<std::vector<std::string>>()->composing(),
      "base preset name or configuration file, applied in order over the built-in hopper-h200")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override one key of the base: --set section.key=value")(
      "vary", po::value<std::vector<std::string>>()->composing(),
      "key=v1,v2,... (repeatable; the cross product is run; 'preset=a,b' varies configs/NAME.ini; "
      "';' separates values that hold commas)")(
      "mode", po::value<std::string>()->default_value("cold"), "cold, cached or both")(
      "per-instruction", po::bool_switch(), "one row per instruction instead of per kernel")(
      "jobs,j", po::value<unsigned>()->default_value(0), "worker threads (0 = all cores)")(
      "shard", po::value<std::string>()->default_value("0/1"),
      "run slice I of N (I/N, 0 <= I < N); join the pieces with 'gpumemsim merge'")(
      "preset-dir", po::value<std::vector<std::string>>()->composing(),
      "folder holding NAME.ini presets (default: see gpumemsim presets)")(
      "format", po::value<std::string>()->default_value("csv"), "csv or html")(
      "no-progress", po::bool_switch(), "no progress bar (it is shown only on a terminal anyway)")(
      "resume", po::bool_switch(),
      "keep a journal of the finished points in OUT.journal and skip those it already holds "
      "(the same command again continues a killed sweep); SIGTERM or Ctrl-C then stops after "
      "the current points")(
      "separate-runs", po::bool_switch(),
      "one replay per point, even where one pass gives the same rows (LRU capacity sweeps)")(
      "output,o", po::value<std::string>()->default_value("-"), "output file, - for stdout");
  po::options_description hidden;
  hidden.add_options()("positional", po::value<std::vector<std::string>>(), "traces");
  po::positional_options_description positional;
  positional.add("positional", -1);
  po::variables_map vm;
  if (!parse_args(args,
                  "usage: gpumemsim sweep --trace T... [--config BASE] --vary KEY=V1,V2,... "
                  "[--vary ...] [--mode cold|cached|both] [--per-instruction] [--jobs N] "
                  "[--shard I/N] [--format csv|html] [--resume] [--separate-runs] [-o OUT]\n"
                  "Runs every trace under every combination of the varied values and writes one\n"
                  "tidy CSV: a row per trace x configuration x kernel (x instruction), the varied\n"
                  "values in cfg.KEY columns. Rows are in the same order whatever --jobs is.",
                  visible, hidden, positional, vm))
    return 0;

  SweepSpec spec;
  for (const char* name : {"trace", "positional"})
    if (vm.count(name))
      for (const std::string& t : vm[name].as<std::vector<std::string>>()) spec.traces.push_back(t);
  if (spec.traces.empty()) fail("sweep: no trace given (--trace T..., see --help)");
  spec.preset_dirs = vm.count("preset-dir") ? vm["preset-dir"].as<std::vector<std::string>>()
                                            : default_preset_dirs();
  if (vm.count("config")) {
    for (const std::string& c : vm["config"].as<std::vector<std::string>>())
      spec.base.files.push_back(find_preset(c, spec.preset_dirs));
  }
  if (vm.count("set")) spec.base.overrides = vm["set"].as<std::vector<std::string>>();
  if (vm.count("vary"))
    for (const std::string& v : vm["vary"].as<std::vector<std::string>>())
      spec.axes.push_back(parse_sweep_axis(v));
  spec.mode = parse_sim_mode(vm["mode"].as<std::string>());
  spec.per_instruction = vm["per-instruction"].as<bool>();
  const SweepShard shard = parse_sweep_shard(vm["shard"].as<std::string>());
  const std::string format = vm["format"].as<std::string>();
  if (format != "csv" && format != "html") fail("sweep: unknown format '{}' (csv, html)", format);
  if (format == "html" && shard.count > 1)
    fail("sweep: a shard is written as CSV; merge the pieces, then 'merge --format html'");

  const std::string output = vm["output"].as<std::string>();
  std::optional<SweepJournal> journal;
  std::optional<trace::StopRequestScope> stop_after_point;  // SIGTERM: finish, keep the journal
  if (vm["resume"].as<bool>()) {
    if (output == "-") fail("sweep: --resume keeps a journal beside the output: give -o FILE");
    journal.emplace(output + ".journal");
    stop_after_point.emplace();
  }
  spec.separate_runs = vm["separate-runs"].as<bool>();
  if (!spec.separate_runs && !journal && sweep_varies_capacity(spec)) {
    std::vector<SimConfig> cfgs;
    for (std::size_t c = 0; c < sweep_configurations(spec); ++c)
      cfgs.push_back(sweep_config(spec, c));
    if (const std::string why = sweep_onepass_refusal(spec, cfgs); !why.empty())
      spdlog::warn("sweep: one replay per point, not one pass: {}", why);
  }

  SweepProgress progress;
  std::string csv;
  int stopped_by = 0;
  std::string stopped_message;
  {
    ProgressBar bar(progress, !vm["no-progress"].as<bool>());
    try {
      csv = run_sweep_csv(spec, shard, vm["jobs"].as<unsigned>(), &progress,
                          journal ? &*journal : nullptr);
    } catch (const SweepStopped& e) {
      stopped_by = e.signal();
      stopped_message = e.what();
    }
  }
  if (journal)
    spdlog::info("sweep: resumed: {} of {} points already done ({})", progress.points_resumed,
                 progress.points_total, journal->path());
  if (stopped_by != 0) {
    spdlog::error("{}", stopped_message);
    return 128 + stopped_by;
  }
  stop_after_point.reset();  // from here a signal removes the unfinished output and ends at once
  if (format == "html") {
    std::ostringstream out;
    print_sweep_html(out, parse_tidy_csv(csv, "sweep"));
    csv = out.str();
  }
  write_output(output, csv);
  if (journal) journal->remove();
  return 0;
}

}  // namespace gms::cli
