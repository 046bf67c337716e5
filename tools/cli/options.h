#pragma once
/// Shared command-line plumbing for the subcommands: parsing with Boost.Program_options, --help,
/// and writing an output file only once the whole result exists (no partial output on error).

#include <boost/program_options.hpp>

#include <optional>
#include <string>
#include <vector>

#include "sim/replay/run_options.h"
#include "trace/import/formats.h"
#include "trace/import/import_options.h"

namespace gms::cli {

namespace po = boost::program_options;

/// Parses `args` against `visible` options plus `positional` ones. Returns false when --help
/// was given (after printing `usage` and the options to stdout). Option errors throw SimError.
bool parse_args(const std::vector<std::string>& args, const std::string& usage,
                const po::options_description& visible, const po::options_description& hidden,
                const po::positional_options_description& positional, po::variables_map& vm);

/// Parses a command that takes `TRACE...` as positional arguments; returns them, or an empty
/// list when --help was printed. No trace is an error naming `command`.
std::vector<std::string> parse_trace_args(const std::vector<std::string>& args,
                                          const std::string& command, const std::string& usage,
                                          const po::options_description& visible,
                                          po::variables_map& vm);

/// Adds --trace-format, the input format (auto: from the content).
void add_trace_format_option(po::options_description& options);

/// Adds the options of the commands that read traces as `run` does: --trace-format, --strict
/// (Accel-Sim trailing fields) and --no-progress.
void add_trace_reading_options(po::options_description& options);

/// What those options ask for, once parsed.
struct TraceReading {
  trace::TraceFormat format = trace::TraceFormat::Auto;
  trace::ImportOptions import;
  bool progress = true;  ///< a progress bar (shown only on a terminal anyway)
};
TraceReading trace_reading(const po::variables_map& vm);

/// Adds --order, the order of a cached replay's records (RunOptions::order), and reads it.
void add_order_option(po::options_description& options);
ReplayOrder order_option(const po::variables_map& vm);

/// Adds --zstd-level, zstd's level for a compressed trace output (.gmt, .wtrace.zst), and reads
/// it (nullopt: the format's default; trace::open_trace_writer checks it).
void add_zstd_level_option(po::options_description& options);
std::optional<int> zstd_level_option(const po::variables_map& vm);

/// Writes `text` to `path` ("-" = standard output); a file goes through a
/// trace::AtomicOutputFile, so a failure or a signal never leaves a partial file behind.
void write_output(const std::string& path, const std::string& text);

}  // namespace gms::cli
