// gpumemsim merge: joins the CSV pieces of a sharded sweep into exactly the CSV one run writes.
#include <sstream>

#include "sim/core/error.h"
#include "sim/report/tidy_csv.h"
#include "tools/cli/commands.h"
#include "tools/cli/options.h"
#include "tools/study/study_html.h"
#include "tools/study/sweep.h"

namespace gms::cli {

int cmd_merge(const std::vector<std::string>& args) {
  po::options_description visible("options");
  visible.add_options()("format", po::value<std::string>()->default_value("csv"), "csv or html")(
      "output,o", po::value<std::string>()->default_value("-"), "output file, - for stdout");
  po::options_description hidden;
  hidden.add_options()("piece", po::value<std::vector<std::string>>(), "pieces");
  po::positional_options_description positional;
  positional.add("piece", -1);
  po::variables_map vm;
  if (!parse_args(args,
                  "usage: gpumemsim merge PIECE... [-o OUT] [--format csv|html]\n"
                  "Joins the CSVs of 'gpumemsim sweep --shard I/N' (every I of one N, any order)\n"
                  "into the CSV the unsharded sweep writes, byte for byte.",
                  visible, hidden, positional, vm))
    return 0;
  if (!vm.count("piece")) fail("merge: no piece given (see --help)");
  const std::string format = vm["format"].as<std::string>();
  if (format != "csv" && format != "html") fail("merge: unknown format '{}' (csv, html)", format);
  const std::vector<std::string> paths = vm["piece"].as<std::vector<std::string>>();
  std::vector<std::string> texts;
  for (const std::string& p : paths) texts.push_back(read_text_file(p));
  std::string out = merge_sweep_csv(texts, paths);
  if (format == "html") {
    std::ostringstream html;
    print_sweep_html(html, parse_tidy_csv(out, "merge"));
    out = html.str();
  }
  write_output(vm["output"].as<std::string>(), out);
  return 0;
}

}  // namespace gms::cli
