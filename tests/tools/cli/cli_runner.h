#pragma once
/// Runs the gpumemsim binary as a user would and captures its exit status and output.

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/temp_dir.h"
#include "tests/test_paths.h"

namespace gms::test {

struct CliResult {
  int status = -1;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs `gpumemsim ARGS` through the shell (ARGS is a shell fragment, so it may redirect input).
/// With timeout_s, coreutils `timeout` ends a run that hangs (status 124).
inline CliResult run_cli(const std::string& args, int timeout_s = 0) {
  TempDir tmp;
  const std::string cmd =
      (timeout_s > 0 ? "timeout " + std::to_string(timeout_s) + " " : std::string()) + cli_path() +
      " " + args + " >" + tmp.file("out") + " 2>" + tmp.file("err");
  const int raw = std::system(cmd.c_str());
  CliResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = slurp(tmp.file("out"));
  r.err = slurp(tmp.file("err"));
  return r;
}

}  // namespace gms::test
