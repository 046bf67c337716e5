#include "sim/report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>

#include "sim/error.h"

namespace gms {

namespace {

// ---------------------------------------------------------------------------------------------
// Statistic tables: name, member, meaning. Global/local/atomic classes report the coalescer's
// counts; shared classes report the bank arbiter's.

struct StatSpec {
  const char* name;
  std::uint64_t AccessCounters::*member;
  const char* help;
};

constexpr StatSpec kMemoryStats[] = {
    {"instructions", &AccessCounters::instructions, "warp-level executions"},
    {"active_threads", &AccessCounters::active_threads, "active lanes, summed"},
    {"requests", &AccessCounters::requests, "1 per execution"},
    {"sectors", &AccessCounters::sectors, "distinct 32-byte blocks, per execution"},
    {"transactions", &AccessCounters::transactions, "distinct segment-size blocks, per execution"},
    {"lines", &AccessCounters::lines, "distinct 128-byte blocks, per execution"},
    {"bytes_requested", &AccessCounters::bytes_requested, "active lanes x access size"},
    {"bytes_distinct", &AccessCounters::bytes_distinct, "distinct bytes, per execution"},
    {"bytes_fetched", &AccessCounters::bytes_fetched, "transactions x segment size"},
};

constexpr StatSpec kSharedStats[] = {
    {"instructions", &AccessCounters::instructions, "warp-level executions"},
    {"active_threads", &AccessCounters::active_threads, "active lanes, summed"},
    {"requests", &AccessCounters::requests, "1 per execution"},
    {"bytes_requested", &AccessCounters::bytes_requested, "active lanes x access size"},
    {"wavefronts", &AccessCounters::wavefronts, "bank-array passes"},
    {"ideal_wavefronts", &AccessCounters::ideal_wavefronts, "passes without conflicts"},
};

bool is_shared_class(OpClass c) {
  return c == OpClass::SharedLoad || c == OpClass::SharedStore;
}

std::uint64_t wasted_bytes(const AccessCounters& c) {
  return c.bytes_fetched - c.bytes_distinct;
}
std::uint64_t conflicts(const AccessCounters& c) {
  return c.wavefronts - c.ideal_wavefronts;
}

std::string dim_string(const Dim3& d) {
  return fmt::format("{},{},{}", d.x, d.y, d.z);
}

// ---------------------------------------------------------------------------------------------
// JSON

nlohmann::ordered_json counters_json(const AccessCounters& c, bool shared) {
  nlohmann::ordered_json j;
  if (shared) {
    for (const StatSpec& s : kSharedStats) j[s.name] = c.*s.member;
    j["conflicts"] = conflicts(c);
  } else {
    for (const StatSpec& s : kMemoryStats) j[s.name] = c.*s.member;
    j["efficiency"] = efficiency(c);
  }
  return j;
}

nlohmann::ordered_json config_json(const SimConfig& cfg) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [key, value] : effective_config(cfg)) {
    const auto dot = key.find('.');
    j[key.substr(0, dot)][key.substr(dot + 1)] = value;
  }
  j["coalescer"]["load_segment_bytes"] = cfg.coalescer.load_segment_bytes;
  j["coalescer"]["store_segment_bytes"] = cfg.coalescer.store_segment_bytes;
  return j;
}

void print_json(std::ostream& out, const RunReport& r) {
  nlohmann::ordered_json root;
  root["schema"] = 1;
  root["config"] = config_json(r.config);
  root["traces"] = r.traces;
  root["kernels"] = nlohmann::ordered_json::array();
  for (const KernelStats& k : r.kernels) {
    nlohmann::ordered_json jk;
    jk["id"] = k.kernel.id;
    jk["name"] = k.kernel.name;
    jk["mode"] = k.mode;
    jk["grid"] = {k.kernel.grid.x, k.kernel.grid.y, k.kernel.grid.z};
    jk["block"] = {k.kernel.block.x, k.kernel.block.y, k.kernel.block.z};
    jk["shmem"] = k.kernel.shmem_bytes;
    jk["records"] = k.records;
    for (int c = 0; c < kOpClassCount; ++c) {
      const auto cls = static_cast<OpClass>(c);
      jk["totals"][std::string(op_class_key(cls))] =
          counters_json(k.totals[c], is_shared_class(cls));
    }
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const InstrStats& i : k.instructions) {
      nlohmann::ordered_json row;
      row["inst"] = i.inst;
      row["op"] = op_name(i.op);
      row["size"] = i.size;
      row["class"] = op_class_key(op_class(i.op));
      if (!is_shared(i.op)) row["segment_bytes"] = i.segment_bytes;
      row.update(counters_json(i.c, is_shared(i.op)));
      rows.push_back(std::move(row));
    }
    jk["instructions"] = std::move(rows);
    root["kernels"].push_back(std::move(jk));
  }
  out << root.dump(2) << '\n';
}

// ---------------------------------------------------------------------------------------------
// CSV: one row per (kernel, instruction), every statistic a column; the configuration heads the
// file as '#' lines (pandas: read_csv(..., comment='#')).

void print_csv(std::ostream& out, const RunReport& r) {
  for (const auto& [key, value] : effective_config(r.config))
    fmt::print(out, "# {}={}\n", key, value);
  fmt::print(out,
             "kernel_id,kernel_name,mode,inst,op,size,class,segment_bytes,instructions,"
             "active_threads,requests,sectors,transactions,lines,bytes_requested,bytes_distinct,"
             "bytes_fetched,efficiency,wasted_bytes,wavefronts,ideal_wavefronts,conflicts\n");
  for (const KernelStats& k : r.kernels) {
    for (const InstrStats& i : k.instructions) {
      const AccessCounters& c = i.c;
      const bool shared = is_shared(i.op);
      fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                 k.kernel.id, k.kernel.name, k.mode, i.inst, op_name(i.op), i.size,
                 op_class_key(op_class(i.op)), shared ? 0 : i.segment_bytes, c.instructions,
                 c.active_threads, c.requests, c.sectors, c.transactions, c.lines,
                 c.bytes_requested, c.bytes_distinct, c.bytes_fetched,
                 shared ? "" : fmt::format("{:.6f}", efficiency(c)), wasted_bytes(c), c.wavefronts,
                 c.ideal_wavefronts, conflicts(c));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Table

/// One row of the class-totals table and one of the instruction table; every cell is preformatted
/// text so shared and global rows share the layout.
template <class... Cells>
void class_row(std::ostream& out, const Cells&... cells) {
  fmt::print(out, "  {:<14}{:>10}{:>12}{:>12}{:>12}{:>10}{:>14}{:>14}{:>8}{:>12}{:>10}\n",
             cells...);
}
template <class... Cells>
void instr_row(std::ostream& out, const Cells&... cells) {
  fmt::print(
      out,
      "  {:>8} {:<6}{:>5}{:>10}{:>10}{:>10}{:>10}{:>8}{:>14}{:>14}{:>8}{:>14}{:>11}{:>7}{:>10}\n",
      cells...);
}

std::string percent(const AccessCounters& c) {
  return c.bytes_fetched == 0 ? "-" : fmt::format("{:.1f}%", 100.0 * efficiency(c));
}

void print_table(std::ostream& out, const RunReport& r) {
  fmt::print(out, "# gpumemsim run, mode cold\n");
  // The configuration, one line per section: "# [l1] unified_kb=256 ...".
  std::string section, line;
  for (const auto& [key, value] : effective_config(r.config)) {
    const auto dot = key.find('.');
    if (key.substr(0, dot) != section) {
      if (!line.empty()) fmt::print(out, "{}\n", line);
      section = key.substr(0, dot);
      line = fmt::format("# [{}]", section);
    }
    line += fmt::format(" {}={}", key.substr(dot + 1), value);
  }
  fmt::print(out, "{}\n", line);
  for (const KernelStats& k : r.kernels) {
    fmt::print(out, "\nkernel {} {} ({} mode): grid {} block {} shmem {} B, {} warp instructions\n",
               k.kernel.id, k.kernel.name.empty() ? "-" : k.kernel.name, k.mode,
               dim_string(k.kernel.grid), dim_string(k.kernel.block), k.kernel.shmem_bytes,
               k.records);
    out << '\n';
    class_row(out, "class", "instrs", "threads", "sectors", "trans", "lines", "bytes_req",
              "bytes_fetch", "eff", "wavefronts", "conflicts");
    for (int ci = 0; ci < kOpClassCount; ++ci) {
      const AccessCounters& c = k.totals[ci];
      if (c.instructions == 0) continue;
      const auto cls = static_cast<OpClass>(ci);
      if (is_shared_class(cls)) {
        class_row(out, op_class_key(cls), c.instructions, c.active_threads, "-", "-", "-",
                  c.bytes_requested, "-", "-", c.wavefronts, conflicts(c));
      } else {
        class_row(out, op_class_key(cls), c.instructions, c.active_threads, c.sectors,
                  c.transactions, c.lines, c.bytes_requested, c.bytes_fetched, percent(c), "-",
                  "-");
      }
    }
    // Instructions ranked by wasted bytes, then by bank conflicts: the costliest first.
    std::vector<const InstrStats*> rows;
    for (const InstrStats& i : k.instructions) rows.push_back(&i);
    std::stable_sort(rows.begin(), rows.end(), [](const InstrStats* a, const InstrStats* b) {
      if (wasted_bytes(a->c) != wasted_bytes(b->c)) return wasted_bytes(a->c) > wasted_bytes(b->c);
      return conflicts(a->c) > conflicts(b->c);
    });
    out << '\n';
    instr_row(out, "inst", "op", "size", "execs", "threads", "sectors", "trans", "lines",
              "bytes_req", "bytes_fetch", "eff", "wasted", "wavefront", "ideal", "conflicts");
    for (const InstrStats* i : rows) {
      const AccessCounters& c = i->c;
      if (is_shared(i->op)) {
        instr_row(out, i->inst, op_name(i->op), i->size, c.instructions, c.active_threads, "-", "-",
                  "-", c.bytes_requested, "-", "-", "-", c.wavefronts, c.ideal_wavefronts,
                  conflicts(c));
      } else {
        instr_row(out, i->inst, op_name(i->op), i->size, c.instructions, c.active_threads,
                  c.sectors, c.transactions, c.lines, c.bytes_requested, c.bytes_fetched,
                  percent(c), wasted_bytes(c), "-", "-", "-");
      }
    }
  }
}

}  // namespace

double efficiency(const AccessCounters& c) {
  return c.bytes_fetched == 0 ? 0.0 : static_cast<double>(c.bytes_distinct) / c.bytes_fetched;
}

ReportFormat parse_report_format(const std::string& name) {
  if (name == "table") return ReportFormat::Table;
  if (name == "csv") return ReportFormat::Csv;
  if (name == "json") return ReportFormat::Json;
  fail("unknown output format '{}' (table, csv, json)", name);
}

void print_report(std::ostream& out, const RunReport& report, ReportFormat format) {
  switch (format) {
    case ReportFormat::Table:
      print_table(out, report);
      break;
    case ReportFormat::Csv:
      print_csv(out, report);
      break;
    case ReportFormat::Json:
      print_json(out, report);
      break;
  }
}

std::vector<std::string> memory_stat_names() {
  std::vector<std::string> out;
  for (const StatSpec& s : kMemoryStats) out.emplace_back(s.name);
  return out;
}

std::vector<std::string> shared_stat_names() {
  std::vector<std::string> out;
  for (const StatSpec& s : kSharedStats) out.emplace_back(s.name);
  return out;
}

}  // namespace gms
