// Validation against Nsight Compute: the metric table, kernel matching, errors and the
// table/CSV/JSON printers (HTML is in study_html.cc).
#include "tools/study/validate.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "sim/core/error.h"
#include "sim/report/metrics.h"
#include "sim/report/study_stats.h"
#include "sim/report/tidy_csv.h"
#include "tools/study/study_html.h"

namespace gms {

namespace {

double u(std::uint64_t v) {
  return static_cast<double>(v);
}
const AccessCounters& cls(const KernelStats& k, OpClass c) {
  return k.total(c);
}

constexpr const char* kLinesMetric = "lts__t_requests_srcunit_tex_op_read.sum";
constexpr const char* kHitRateMetric = "l1tex__t_sector_hit_rate_pipe_lsu_mem_global_op_ld.pct";

/// A name as ncu prints it, reduced to what a trace's #kernel line holds: no leading "void ",
/// no argument list (and, when `templates` is false, no template arguments).
std::string plain_name(std::string n, bool templates) {
  if (n.starts_with("void ")) n = n.substr(5);
  const std::size_t cut = n.find_first_of(templates ? "(" : "(<");
  if (cut != std::string::npos) n = n.substr(0, cut);
  return n;
}

bool same_kernel_name(const std::string& measured, const std::string& simulated) {
  return measured == simulated || plain_name(measured, true) == simulated ||
         plain_name(measured, false) == simulated;
}

std::string fmt_value(double v) {
  if (v == std::floor(v) && std::abs(v) < 1e15) return fmt::format("{:.0f}", v);
  return fmt::format("{:.3f}", v);
}

std::string fmt_error(const MetricCheck& c) {
  if (std::isinf(c.error)) return "inf";
  return c.mapping->percent ? fmt::format("{:.2f} pt", c.error) : fmt::format("{:.2f}%", c.error);
}

void print_table(std::ostream& out, const Validation& v) {
  fmt::print(out, "measured: {} ({} layout), kernels matched by {}\n", v.ncu_file,
             layout_name(v.layout),
             v.match == MatchBy::Order  ? "order"
             : v.match == MatchBy::Name ? "name"
                                        : "id");
  fmt::print(out, "simulated: {} with {}\n", fmt::join(v.traces, " "), v.config.gpu.name);
  if (v.tolerance) fmt::print(out, "tolerance: {}% (points for percentages)\n", *v.tolerance);
  for (const KernelValidation& k : v.kernels) {
    fmt::print(out, "\nkernel {} {}  <->  ncu {} {}\n", k.kernel.id,
               k.kernel.name.empty() ? "-" : k.kernel.name, k.measured_id, k.measured_name);
    fmt::print(out, "  {:<24}{:<8}{:>16}{:>16}{:>12}  {}\n", "statistic", "mode", "simulated",
               "measured", "error", "ncu metric");
    for (const MetricCheck& c : k.checks)
      fmt::print(out, "  {:<24}{:<8}{:>16}{:>16}{:>12}{} {}\n", c.mapping->statistic,
                 c.mapping->mode, fmt_value(c.simulated), fmt_value(c.measured), fmt_error(c),
                 c.within ? " " : "!", c.mapping->ncu_metric);
  }
  for (const std::string& s : v.unmatched) fmt::print(out, "\nunmatched: {}\n", s);
  fmt::print(out, "\n{} of {} comparisons within tolerance\n", v.checks() - v.failures(),
             v.checks());
}

void print_csv(std::ostream& out, const Validation& v) {
  fmt::print(out,
             "kernel_id,kernel_name,measured_id,measured_name,statistic,ncu_metric,mode,"
             "simulated,measured,error,error_unit,within_tolerance\n");
  for (const KernelValidation& k : v.kernels)
    for (const MetricCheck& c : k.checks)
      fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{}\n", k.kernel.id, csv_cell(k.kernel.name),
                 csv_cell(k.measured_id), csv_cell(k.measured_name), c.mapping->statistic,
                 c.mapping->ncu_metric, c.mapping->mode, fmt_value(c.simulated),
                 fmt_value(c.measured),
                 std::isinf(c.error) ? "inf" : fmt::format("{:.6f}", c.error),
                 c.mapping->percent ? "points" : "percent", c.within ? 1 : 0);
}

void print_json(std::ostream& out, const Validation& v) {
  using nlohmann::json;
  json j{{"schema", 1},
         {"ncu_file", v.ncu_file},
         {"layout", layout_name(v.layout)},
         {"traces", v.traces},
         {"config", v.config.gpu.name},
         {"tolerance", v.tolerance ? json(*v.tolerance) : json(nullptr)},
         {"checks", v.checks()},
         {"failures", v.failures()},
         {"unmatched", v.unmatched}};
  j["kernels"] = json::array();
  for (const KernelValidation& k : v.kernels) {
    json jk{{"id", k.kernel.id},
            {"name", k.kernel.name},
            {"measured_id", k.measured_id},
            {"measured_name", k.measured_name}};
    jk["metrics"] = json::array();
    for (const MetricCheck& c : k.checks)
      jk["metrics"].push_back({{"statistic", c.mapping->statistic},
                               {"ncu_metric", c.mapping->ncu_metric},
                               {"mode", c.mapping->mode},
                               {"simulated", c.simulated},
                               {"measured", c.measured},
                               {"error", std::isinf(c.error) ? json(nullptr) : json(c.error)},
                               {"error_unit", c.mapping->percent ? "points" : "percent"},
                               {"within_tolerance", c.within}});
    j["kernels"].push_back(std::move(jk));
  }
  out << j.dump(2) << "\n";
}

}  // namespace

const std::vector<MetricMapping>& metric_mappings() {
  using K = const KernelStats&;
  static const std::vector<MetricMapping> kTable = {
      {"global_load.requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "cold", false,
       [](K c, K) { return u(cls(c, OpClass::GlobalLoad).requests); }, "exact"},
      {"global_load.sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "cold", false,
       [](K c, K) { return u(cls(c, OpClass::GlobalLoad).sectors); }, "exact"},
      {"global_store.requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "cold", false,
       [](K c, K) { return u(cls(c, OpClass::GlobalStore).requests); }, "exact"},
      {"global_store.sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "cold", false,
       [](K c, K) { return u(cls(c, OpClass::GlobalStore).sectors); }, "exact"},
      {"shared_load.wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "cold",
       false, [](K c, K) { return u(cls(c, OpClass::SharedLoad).wavefronts); }, "exact"},
      {"shared_store.wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "cold",
       false, [](K c, K) { return u(cls(c, OpClass::SharedStore).wavefronts); }, "exact"},
      {"shared_load.conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "cold",
       false, [](K c, K) { return u(metric("conflicts")->count(cls(c, OpClass::SharedLoad))); },
       "exact"},
      {"shared_store.conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "cold",
       false, [](K c, K) { return u(metric("conflicts")->count(cls(c, OpClass::SharedStore))); },
       "exact"},
      {"load.lines", kLinesMetric, "cold", false,
       [](K c, K) {
         return u(cls(c, OpClass::GlobalLoad).lines + cls(c, OpClass::LocalLoad).lines);
       },
       "global + local load lines; compared only when the measured L1 hit rate is 0"},
      {"global_load.l1_hit_rate", kHitRateMetric, "cached", true,
       [](K, K k) { return 100.0 * metric("l1_hit_rate")->value(cls(k, OpClass::GlobalLoad)); },
       "percent; error in points"},
      {"l2.read_sectors", "lts__t_sectors_srcunit_tex_op_read.sum", "cached", false,
       [](K, K k) { return u(kernel_sums(k).memory.l2_read_sectors); }, ""},
      {"l2.read_sector_hits", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", "cached", false,
       [](K, K k) { return u(kernel_sums(k).memory.l2_read_sector_hits); }, ""},
      {"l2.read_sector_misses", "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum", "cached",
       false, [](K, K k) { return u(kernel_sums(k).memory.l2_read_sector_misses); },
       "ncu counts both sectors of a 64-byte DRAM fetch"},
      {"l2.write_sectors", "lts__t_sectors_srcunit_tex_op_write.sum", "cached", false,
       [](K, K k) { return u(kernel_sums(k).memory.l2_write_sectors); }, ""},
      {"dram.read_bytes", "dram__bytes_read.sum", "cached", false,
       [](K, K k) { return u(kernel_sums(k).memory.dram_read_bytes); }, ""},
      {"dram.write_bytes", "dram__bytes_write.sum", "cached", false,
       [](K, K k) { return u(kernel_sums(k).memory.dram_write_bytes); }, ""},
      {"time.estimate_ns", "gpu__time_duration.sum", "cached", false,
       [](K, K k) { return k.time.estimate_ns; }, "ns; the time model's estimate (cached mode)"},
      {"launch.grid_size", "launch__grid_size", "launch", false,
       [](K c, K) { return u(c.kernel.grid.count()); }, "CTAs; checks the match"},
      {"launch.block_size", "launch__block_size", "launch", false,
       [](K c, K) { return u(c.kernel.block.count()); }, "threads per CTA; checks the match"},
  };
  return kTable;
}

MatchBy parse_match_by(const std::string& name) {
  if (name == "order") return MatchBy::Order;
  if (name == "name") return MatchBy::Name;
  if (name == "id") return MatchBy::Id;
  fail("unknown --match '{}' (order, name, id)", name);
}

double check_error(double simulated, double measured, bool percent) {
  if (percent) return std::abs(simulated - measured);
  if (measured == 0) return simulated == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return 100.0 * std::abs(simulated - measured) / std::abs(measured);
}

std::size_t Validation::checks() const {
  std::size_t n = 0;
  for (const KernelValidation& k : kernels) n += k.checks.size();
  return n;
}

std::size_t Validation::failures() const {
  std::size_t n = 0;
  for (const KernelValidation& k : kernels)
    for (const MetricCheck& c : k.checks) n += !c.within;
  return n;
}

Validation validate_kernels(const MeasuredTable& measured, const std::vector<KernelStats>& results,
                            MatchBy match, std::optional<double> tolerance) {
  // Pair up cold and cached entries (mode both: cold, then cached, per kernel).
  std::vector<std::pair<const KernelStats*, const KernelStats*>> sims;
  for (std::size_t i = 0; i + 1 < results.size(); i += 2) {
    if (results[i].mode != KernelMode::Cold || results[i + 1].mode != KernelMode::Cached)
      fail("validate: the simulation must run in both modes");
    sims.emplace_back(&results[i], &results[i + 1]);
  }
  Validation v;
  v.layout = measured.layout;
  v.match = match;
  v.tolerance = tolerance;
  if (match == MatchBy::Id && measured.layout != MeasuredLayout::Groundtruth)
    fail(
        "validate: --match id needs the groundtruth layout (kernel_id column); ncu's ID is a "
        "launch index: use --match order or name");

  std::vector<bool> used(measured.kernels.size(), false);
  for (std::size_t s = 0; s < sims.size(); ++s) {
    const KernelStats& cold = *sims[s].first;
    const KernelStats& cached = *sims[s].second;
    std::optional<std::size_t> m;
    if (match == MatchBy::Order) {
      if (s < measured.kernels.size()) m = s;
    } else {
      for (std::size_t i = 0; i < measured.kernels.size() && !m; ++i) {
        if (used[i]) continue;
        const MeasuredKernel& mk = measured.kernels[i];
        const bool same = match == MatchBy::Name ? same_kernel_name(mk.name, cold.kernel.name)
                                                 : mk.id == std::to_string(cold.kernel.id);
        if (same) m = i;
      }
    }
    if (!m) {
      v.unmatched.push_back(fmt::format("simulated kernel {} {} has no measured launch",
                                        cold.kernel.id, cold.kernel.name));
      continue;
    }
    used[*m] = true;
    const MeasuredKernel& mk = measured.kernels[*m];
    KernelValidation kv{cold.kernel, mk.id, mk.name, {}};
    const auto hit_rate = mk.metrics.find(kHitRateMetric);
    for (const MetricMapping& map : metric_mappings()) {
      const auto it = mk.metrics.find(map.ncu_metric);
      if (it == mk.metrics.end()) continue;
      if (std::string_view(map.ncu_metric) == kLinesMetric &&
          (hit_rate == mk.metrics.end() || hit_rate->second != 0))
        continue;
      MetricCheck c;
      c.mapping = &map;
      c.simulated = map.simulated(cold, cached);
      c.measured = it->second;
      c.error = check_error(c.simulated, c.measured, map.percent);
      c.within = !tolerance || c.error <= *tolerance;
      kv.checks.push_back(c);
    }
    v.kernels.push_back(std::move(kv));
  }
  for (std::size_t i = 0; i < measured.kernels.size(); ++i)
    if (!used[i])
      v.unmatched.push_back(fmt::format("measured launch {} {} (line {}) has no simulated kernel",
                                        measured.kernels[i].id, measured.kernels[i].name,
                                        measured.kernels[i].line));
  if (v.kernels.empty()) fail("validate: no simulated kernel matches a measured launch");
  return v;
}

void print_validation(std::ostream& out, const Validation& v, ReportFormat format) {
  switch (format) {
    case ReportFormat::Table:
      print_table(out, v);
      break;
    case ReportFormat::Csv:
      print_csv(out, v);
      break;
    case ReportFormat::Json:
      print_json(out, v);
      break;
    case ReportFormat::Html:
      print_validation_html(out, v);
      break;
  }
}

}  // namespace gms
