// Comparison of two runs: pairing, ranking and the table/CSV/JSON printers (HTML is in
// study_html.cc).
#include "tools/study/compare.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <thread>

#include "sim/core/error.h"
#include "sim/core/logger_ready.h"
#include "sim/report/study_stats.h"
#include "sim/report/tidy_csv.h"
#include "tools/study/study_html.h"

namespace gms {

namespace {

double u(std::uint64_t v) {
  return static_cast<double>(v);
}

/// The ranking key: how much an instruction's traffic changes between the sides.
double change_key(const InstrComparison& r) {
  return std::abs(u(dram_bytes(r.b)) - u(dram_bytes(r.a)));
}

bool more_changed(const InstrComparison& x, const InstrComparison& y) {
  auto d = [](std::uint64_t a, std::uint64_t b) { return a > b ? a - b : b - a; };
  const double cx = change_key(x), cy = change_key(y);
  if (cx != cy) return cx > cy;
  if (d(x.a.sectors, x.b.sectors) != d(y.a.sectors, y.b.sectors))
    return d(x.a.sectors, x.b.sectors) > d(y.a.sectors, y.b.sectors);
  if (d(x.a.transactions, x.b.transactions) != d(y.a.transactions, y.b.transactions))
    return d(x.a.transactions, x.b.transactions) > d(y.a.transactions, y.b.transactions);
  return d(x.a.wavefronts, x.b.wavefronts) > d(y.a.wavefronts, y.b.wavefronts);
}

std::string mode_name(SimMode m) {
  return m == SimMode::Cached ? "cached" : "cold";
}

std::string cell(const CompareMetric& m, double v) {
  return m.percent() ? fmt::format("{:.1f}%", 100 * v) : fmt::format("{}", v);
}

std::string change(const CompareMetric& m, double a, double b) {
  if (m.percent()) return fmt::format("{:+.1f} pt", 100 * (b - a));
  if (a == 0) return b == 0 ? "=" : "new";
  return fmt::format("{:+.1f}%", 100 * (b - a) / a);
}

std::vector<const CompareMetric*> shown_metrics(const Comparison& c) {
  std::vector<const CompareMetric*> out;
  for (const CompareMetric& m : compare_metrics())
    if (!m.hierarchy || c.hierarchy()) out.push_back(&m);
  return out;
}

void print_table(std::ostream& out, const Comparison& c) {
  fmt::print(out, "A: {} ({})\nB: {} ({})\ntraces: {}\n", c.a.label, mode_name(c.a.mode), c.b.label,
             mode_name(c.b.mode), fmt::join(c.traces, " "));
  const auto metrics = shown_metrics(c);
  for (const KernelComparison& k : c.kernels) {
    fmt::print(out, "\nkernel {} {}\n", k.a.kernel.id,
               k.a.kernel.name.empty() ? "-" : k.a.kernel.name);
    const KernelSums sa = kernel_sums(k.a), sb = kernel_sums(k.b);
    fmt::print(out, "  {:<20}{:>16}{:>16}{:>12}\n", "total", "A", "B", "change");
    for (const CompareMetric* m : metrics) {
      const bool shared = m->space == MetricSpace::Shared;
      const double a = m->value(shared ? sa.shared : sa.memory);
      const double b = m->value(shared ? sb.shared : sb.memory);
      fmt::print(out, "  {:<20}{:>16}{:>16}{:>12}\n", m->name, cell(*m, a), cell(*m, b),
                 change(*m, a, b));
    }
    fmt::print(out, "  instructions, most changed first (A -> B):\n");
    fmt::print(out, "  {:>8} {:<6}{:>5}", "inst", "op", "size");
    for (const CompareMetric* m : metrics) fmt::print(out, "{:>24}", m->name);
    fmt::print(out, "\n");
    for (const InstrComparison& r : k.instructions) {
      fmt::print(out, "  {:>8} {:<6}{:>5}", r.inst, op_name(r.op), r.size);
      for (const CompareMetric* m : metrics)
        fmt::print(out, "{:>24}",
                   fmt::format("{} -> {}", cell(*m, m->value(r.a)), cell(*m, m->value(r.b))));
      fmt::print(out, "\n");
    }
  }
}

void print_csv(std::ostream& out, const Comparison& c) {
  fmt::print(out, "# a={} mode={}\n# b={} mode={}\n", c.a.label, mode_name(c.a.mode), c.b.label,
             mode_name(c.b.mode));
  const auto metrics = shown_metrics(c);
  fmt::print(out, "kernel_id,kernel_name,rank,inst,op,size,class");
  for (const CompareMetric* m : metrics) fmt::print(out, ",{0}_a,{0}_b", m->name);
  fmt::print(out, ",dram_bytes_change\n");
  auto cells = [&](const AccessCounters& a, const AccessCounters& b) {
    std::string s;
    for (const CompareMetric* m : metrics)
      s += m->percent() ? fmt::format(",{:.6f},{:.6f}", m->value(a), m->value(b))
                        : fmt::format(",{},{}", m->value(a), m->value(b));
    return s + fmt::format(",{}", u(dram_bytes(b)) - u(dram_bytes(a)));
  };
  for (const KernelComparison& k : c.kernels) {
    int rank = 0;
    for (const InstrComparison& r : k.instructions)
      fmt::print(out, "{},{},{},{},{},{},{}{}\n", k.a.kernel.id, csv_cell(k.a.kernel.name), ++rank,
                 r.inst, op_name(r.op), r.size, op_class_key(op_class(r.op)), cells(r.a, r.b));
  }
}

void print_json(std::ostream& out, const Comparison& c) {
  using nlohmann::json;
  const auto metrics = shown_metrics(c);
  auto side = [&](const CompareSide& s) {
    json cfg = json::object();
    for (const auto& [k, v] : effective_config(s.config)) cfg[k] = v;
    return json{{"label", s.label}, {"mode", mode_name(s.mode)}, {"config", cfg}};
  };
  auto values = [&](const AccessCounters& a) {
    json j = json::object();
    for (const CompareMetric* m : metrics) j[m->name] = m->value(a);
    return j;
  };
  json j{{"schema", 1}, {"a", side(c.a)}, {"b", side(c.b)}, {"traces", c.traces}};
  j["kernels"] = json::array();
  for (const KernelComparison& k : c.kernels) {
    const KernelSums sa = kernel_sums(k.a), sb = kernel_sums(k.b);
    json jk{{"id", k.a.kernel.id},
            {"name", k.a.kernel.name},
            {"totals", {{"a", values(sa.memory)}, {"b", values(sb.memory)}}},
            {"shared_totals", {{"a", values(sa.shared)}, {"b", values(sb.shared)}}}};
    jk["instructions"] = json::array();
    for (const InstrComparison& r : k.instructions)
      jk["instructions"].push_back(
          {{"inst", r.inst},
           {"op", std::string(op_name(r.op))},
           {"size", r.size},
           {"a", values(r.a)},
           {"b", values(r.b)},
           {"dram_bytes_change", u(dram_bytes(r.b)) - u(dram_bytes(r.a))}});
    j["kernels"].push_back(std::move(jk));
  }
  out << j.dump(2) << "\n";
}

}  // namespace

const std::vector<CompareMetric>& compare_metrics() {
  static const std::vector<CompareMetric> kMetrics = {
      *metric("requests"),         *metric("transactions"), *metric("sectors"),
      *metric("bytes_fetched"),    *metric("efficiency"),   *metric("l1_hit_rate"),
      *metric("l2_read_sectors"),  *metric("l2_hit_rate"),  *metric("dram_read_bytes"),
      *metric("dram_write_bytes"), *metric("wavefronts"),   *metric("conflicts"),
  };
  return kMetrics;
}

std::vector<KernelComparison> pair_kernels(const std::vector<KernelStats>& a,
                                           const std::vector<KernelStats>& b) {
  if (a.size() != b.size()) fail("compare: the sides ran {} and {} kernels", a.size(), b.size());
  std::vector<KernelComparison> out;
  for (std::size_t i = 0; i < a.size(); ++i) {
    KernelComparison k{a[i], b[i], {}};
    for (const InstrStats& r : a[i].instructions)
      k.instructions.push_back({r.inst, r.op, r.size, r.c, {}, r.segment_bytes, 0});
    for (const InstrStats& r : b[i].instructions) {
      auto it =
          std::find_if(k.instructions.begin(), k.instructions.end(), [&](const InstrComparison& x) {
            return x.inst == r.inst && x.op == r.op && x.size == r.size;
          });
      if (it == k.instructions.end()) {
        k.instructions.push_back({r.inst, r.op, r.size, {}, r.c, 0, r.segment_bytes});
      } else {
        it->b = r.c;
        it->segment_b = r.segment_bytes;
      }
    }
    std::stable_sort(k.instructions.begin(), k.instructions.end(), more_changed);
    out.push_back(std::move(k));
  }
  return out;
}

Comparison compare_runs(const std::vector<std::string>& traces, const CompareSide& a,
                        const CompareSide& b) {
  Comparison c{traces, a, b, {}};
  if (a.mode == SimMode::Both || b.mode == SimMode::Both)
    fail("compare: each side is cold or cached");
  std::vector<KernelStats> ra, rb;
  if (a.mode != b.mode && effective_config(a.config) == effective_config(b.config)) {
    RunOptions opts;
    opts.mode = SimMode::Both;
    for (KernelStats& k : simulate(traces, a.config, opts))
      ((k.mode == KernelMode::Cold) == (a.mode == SimMode::Cold) ? ra : rb).push_back(std::move(k));
  } else {
    for (const std::string& t : traces)
      if (t == "-")
        fail(
            "compare: both sides read the traces: '-' (stdin) can only be compared with --mode "
            "both");
    std::exception_ptr error;
    make_logger_before_threads();
    std::thread other([&] {
      try {
        RunOptions opts;
        opts.mode = b.mode;
        rb = simulate(traces, b.config, opts);
      } catch (...) {
        error = std::current_exception();
      }
    });
    RunOptions opts;
    opts.mode = a.mode;
    try {
      ra = simulate(traces, a.config, opts);
    } catch (...) {
      other.join();
      throw;
    }
    other.join();
    if (error) std::rethrow_exception(error);
  }
  c.kernels = pair_kernels(ra, rb);
  return c;
}

void print_comparison(std::ostream& out, const Comparison& c, ReportFormat format) {
  switch (format) {
    case ReportFormat::Table:
      print_table(out, c);
      break;
    case ReportFormat::Csv:
      print_csv(out, c);
      break;
    case ReportFormat::Json:
      print_json(out, c);
      break;
    case ReportFormat::Html:
      print_comparison_html(out, c);
      break;
  }
}

}  // namespace gms
