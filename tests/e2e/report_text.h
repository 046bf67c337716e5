#pragma once
// A run's whole report as text (the JSON report and what it leaves out), for tests that compare
// two ways of replaying the same traces byte for byte: the engines (engine_differential_test.cc)
// and thread counts (parallel_replay_test.cc).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/error.h"
#include "sim/replay/simulator.h"
#include "sim/report/report.h"
#include "tests/e2e/mixed_traces.h"
#include "tests/e2e/whole_report.h"
#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"
#include "trace/import/formats.h"

namespace gms::test {

/// Every mode, and each one's name for a failure message.
constexpr SimMode kAllModes[] = {SimMode::Cold, SimMode::Cached, SimMode::Both};
inline const char* mode_name(SimMode m) {
  return m == SimMode::Cold ? "cold" : m == SimMode::Cached ? "cached" : "both";
}

/// One replay's report text (or error), with the per-unit vectors kept.
template <class Source>
std::string replay_text(const Source& source, const SimConfig& cfg, RunOptions opts) {
  opts.keep_unit_traffic = true;
  try {
    if constexpr (std::is_same_v<Source, std::vector<std::string>>) {
      return report_text(simulate(source, cfg, opts), cfg);
    } else {  // one trace through the reader overload
      auto reader = trace::open_trace_reader(source);
      return report_text(simulate(*reader, cfg, opts), cfg);
    }
  } catch (const SimError& e) {
    return std::string("error: ") + e.what() + "\n";
  }
}

/// True when `fast` is `reference`; else adds a failure that shows the first line that differs,
/// with its neighbours, under `what`. Two runs that both failed do not agree (they may share a
/// bug that throws): that is a failure too, unless the test expects the error, a non-empty
/// `expected_error` that the message contains.
inline bool same_text(const std::string& reference, const std::string& fast,
                      const std::string& what, const std::string& expected_error = "") {
  if (reference == fast && reference.starts_with("error: ")) {
    if (!expected_error.empty() && reference.find(expected_error) != std::string::npos) return true;
    ADD_FAILURE() << what << ": both runs failed, with " << reference;
    return false;
  }
  if (reference == fast) return true;
  std::istringstream a(reference), b(fast);
  std::string la, lb, before;
  int line = 1;
  while (std::getline(a, la) && std::getline(b, lb) && la == lb) {
    before = la;
    ++line;
  }
  ADD_FAILURE() << what << ": the engines differ at line " << line << " of the report\n"
                << "  before:    " << before << "\n  reference: " << la << "\n  fast:      " << lb;
  return false;
}

inline std::vector<std::string> files_in(const std::string& dir, const std::string& ext) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ext) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

/// The suite's traces: every mixed trace of tests/e2e/mixed_traces.h and every wtrace of
/// tests/data.
inline std::vector<std::string> suite_traces(const TempDir& dir) {
  std::vector<std::string> traces = {dir.file("repeat.wtrace"), dir.file("scattered.wtrace"),
                                     dir.file("partial.wtrace")};
  std::ofstream(traces[0]) << repeat_trace();
  std::ofstream(traces[1]) << scattered_trace();
  std::ofstream(traces[2]) << partial_write_trace();
  for (const std::string& t : files_in(data_path(""), ".wtrace")) traces.push_back(t);
  return traces;
}

}  // namespace gms::test
