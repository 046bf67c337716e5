// The simulator against the H200's Nsight Compute counters (tests/groundtruth/, written by
// tools/groundtruth/capture.sh on a GPU machine). Every check is driven by the CSV, so a new
// capture is a new test without code; while no capture exists the tests skip, saying so.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "tests/groundtruth_support.h"
#include "tests/test_paths.h"
#include "tests/tools/cli/cli_runner.h"

namespace gms::test {
namespace {

const std::string kDir = source_path("tests/groundtruth");

/// The trace of calibration kernel `id`: a stored wtrace, or a recipe regenerated on the fly.
std::optional<std::string> trace_command(std::uint32_t id) {
  const std::filesystem::path dir = kDir + "/traces";
  if (!std::filesystem::is_directory(dir)) return std::nullopt;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(std::to_string(id) + "-", 0) != 0) continue;
    if (name.ends_with(".recipe"))
      return recipe_path() + " " + e.path().string() + " | " + cli_path() + " run -";
    if (name.ends_with(".wtrace.zst") || name.ends_with(".wtrace"))
      return cli_path() + " run " + e.path().string();
  }
  return std::nullopt;
}

/// Replays kernel `id` in `mode` (H200 preset) and returns its JSON entry.
nlohmann::json simulate_kernel(std::uint32_t id, const std::string& mode) {
  const auto cmd = trace_command(id);
  if (!cmd) return {};
  TempDir tmp;
  const std::string out = tmp.file("out.json");
  const int rc = std::system((*cmd + " --mode " + mode + " --format json -o " + out).c_str());
  EXPECT_EQ(rc, 0) << *cmd;
  const nlohmann::json j = nlohmann::json::parse(slurp(out));
  return j["kernels"].at(0);
}

CounterTable counters() {
  return load_counters_csv(kDir + "/h200_counters.csv");
}

double metric(const CounterRow& r, const std::string& name) {
  const auto it = r.metrics.find(name);
  return it == r.metrics.end() ? NAN : it->second;
}

TEST(GroundtruthTest, GlobalRequestsAndSectorsMatchExactly) {
  const CounterTable t = counters();
  if (t.rows.empty()) GTEST_SKIP() << "no H200 counters: " << t.reason;
  int checked = 0;
  for (const CounterRow& r : t.rows) {
    const nlohmann::json k = simulate_kernel(r.kernel_id, "cold");
    if (k.is_null()) continue;
    for (const auto& [cls, op] :
         {std::pair{"global_load", "ld"}, std::pair{"global_store", "st"}}) {
      const double req =
          metric(r, std::string("l1tex__t_requests_pipe_lsu_mem_global_op_") + op + ".sum");
      const double sec =
          metric(r, std::string("l1tex__t_sectors_pipe_lsu_mem_global_op_") + op + ".sum");
      if (!std::isnan(req)) {
        EXPECT_EQ(k["totals"][cls]["requests"].get<double>(), req) << r.kernel_id << " " << cls;
      }
      if (!std::isnan(sec)) {
        EXPECT_EQ(k["totals"][cls]["sectors"].get<double>(), sec) << r.kernel_id << " " << cls;
      }
    }
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "counters present but no trace in tests/groundtruth/traces";
}

TEST(GroundtruthTest, LoadLinesMatchL2RequestsWhenEveryLoadMissesL1) {
  const CounterTable t = counters();
  if (t.rows.empty()) GTEST_SKIP() << "no H200 counters: " << t.reason;
  for (const CounterRow& r : t.rows) {
    const double hit_rate = metric(r, "l1tex__t_sector_hit_rate_pipe_lsu_mem_global_op_ld.pct");
    const double l2_req = metric(r, "lts__t_requests_srcunit_tex_op_read.sum");
    if (std::isnan(l2_req) || std::isnan(hit_rate) || hit_rate != 0) continue;
    const nlohmann::json k = simulate_kernel(r.kernel_id, "cold");
    if (k.is_null()) continue;
    if (k["totals"]["local_load"]["instructions"] != 0 ||
        k["totals"]["global_atomic"]["instructions"] != 0)
      continue;
    EXPECT_EQ(k["totals"]["global_load"]["lines"].get<double>(), l2_req)
        << "kernel " << r.kernel_id;
  }
}

TEST(GroundtruthTest, SharedLoadWavefrontsMatchExactly) {
  const CounterTable t = counters();
  if (t.rows.empty()) GTEST_SKIP() << "no H200 counters: " << t.reason;
  for (const CounterRow& r : t.rows) {
    if (r.kernel_id < 20 || r.kernel_id > 29) continue;  // shared_bank kernels
    const nlohmann::json k = simulate_kernel(r.kernel_id, "cold");
    if (k.is_null()) continue;
    EXPECT_EQ(k["totals"]["shared_load"]["wavefronts"].get<double>(),
              metric(r, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"))
        << "kernel " << r.kernel_id;
  }
}

/// Relative error |sim - hw| / hw.
double rel(double sim, double hw) {
  return hw == 0 ? std::abs(sim) : std::abs(sim - hw) / hw;
}

TEST(GroundtruthTest, CachedL1WindowsAndReuseWithinTolerance) {
  const CounterTable t = counters();
  if (t.rows.empty()) GTEST_SKIP() << "no H200 counters: " << t.reason;
  for (const CounterRow& r : t.rows) {
    if (r.kernel_id != 60 && (r.kernel_id < 100 || r.kernel_id > 106)) continue;
    const nlohmann::json k = simulate_kernel(r.kernel_id, "cached");
    if (k.is_null()) continue;
    const auto& ld = k["totals"]["global_load"];
    const double hits = ld["l1_sector_hits"].get<double>(),
                 misses = ld["l1_sector_misses"].get<double>();
    const double sim_rate = 100.0 * hits / std::max(1.0, hits + misses);
    EXPECT_NEAR(sim_rate, metric(r, "l1tex__t_sector_hit_rate_pipe_lsu_mem_global_op_ld.pct"), 5.0)
        << "kernel " << r.kernel_id;
    EXPECT_LE(rel(k["totals"]["l2"]["read_sectors"].get<double>(),
                  metric(r, "lts__t_sectors_srcunit_tex_op_read.sum")),
              0.03)
        << "kernel " << r.kernel_id;
    EXPECT_LE(
        rel(k["totals"]["dram"]["read_bytes"].get<double>(), metric(r, "dram__bytes_read.sum")),
        0.03)
        << "kernel " << r.kernel_id;
  }
}

TEST(GroundtruthTest, CachedStreamsL2SectorsExactDramWithinOnePercent) {
  const CounterTable t = counters();
  if (t.rows.empty()) GTEST_SKIP() << "no H200 counters: " << t.reason;
  for (const CounterRow& r : t.rows) {
    if (!(r.kernel_id >= 30 && r.kernel_id <= 33) && r.kernel_id != 40) continue;
    const nlohmann::json k = simulate_kernel(r.kernel_id, "cached");
    if (k.is_null()) continue;
    EXPECT_EQ(k["totals"]["l2"]["read_sectors"].get<double>(),
              metric(r, "lts__t_sectors_srcunit_tex_op_read.sum"))
        << "kernel " << r.kernel_id;
    EXPECT_LE(
        rel(k["totals"]["dram"]["read_bytes"].get<double>(), metric(r, "dram__bytes_read.sum")),
        0.01)
        << "kernel " << r.kernel_id;
  }
}

}  // namespace
}  // namespace gms::test
