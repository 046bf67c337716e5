#pragma once
/// One function per subcommand; each parses its own options (Boost.Program_options), prints
/// --help, and returns the process exit code. Errors are thrown as gms::SimError and reported by
/// main(). `args` excludes the program and subcommand names.
#include <string>
#include <vector>

namespace gms::cli {
int cmd_run(const std::vector<std::string>& args);
int cmd_gen(const std::vector<std::string>& args);
int cmd_convert(const std::vector<std::string>& args);
int cmd_info(const std::vector<std::string>& args);
int cmd_sweep(const std::vector<std::string>& args);
int cmd_curves(const std::vector<std::string>& args);
int cmd_fidelity(const std::vector<std::string>& args);
int cmd_merge(const std::vector<std::string>& args);
int cmd_compare(const std::vector<std::string>& args);
int cmd_validate(const std::vector<std::string>& args);
int cmd_presets(const std::vector<std::string>& args);
int cmd_explain(const std::vector<std::string>& args);
}  // namespace gms::cli
