// The JSON printer: the schema-1 contract of README.md "Output".
#include <nlohmann/json.hpp>

#include "sim/report/report.h"
#include "sim/report/report_stats.h"

namespace gms::detail {

namespace {

using Json = nlohmann::ordered_json;

/// `bulk`: the class or a row of the bulk ops (TMA), which also write shared memory.
Json counters_json(const AccessCounters& c, bool shared, bool bulk = false) {
  Json j;
  if (shared) {
    for (const Metric* s : kSharedStats) j[s->name] = s->count(c);
    j["conflicts"] = conflicts(c);
    return j;
  }
  for (const Metric* s : kMemoryStats) j[s->name] = s->count(c);
  j["efficiency"] = efficiency(c);
  for (const Metric* s : kHierarchyStats) j[s->name] = s->count(c);
  if (bulk) j["shared_bytes_written"] = c.shared_bytes_written;
  return j;
}

Json config_json(const SimConfig& cfg) {
  Json j = Json::object();
  for (const auto& [key, value] : effective_config(cfg)) {
    const auto dot = key.find('.');
    j[key.substr(0, dot)][key.substr(dot + 1)] = value;
  }
  j["coalescer"]["load_segment_bytes"] = cfg.coalescer.load_segment_bytes;
  j["coalescer"]["store_segment_bytes"] = cfg.coalescer.store_segment_bytes;
  return j;
}

Json kernel_json(const RunReport& r, const KernelStats& k) {
  Json jk;
  jk["id"] = k.kernel.id;
  jk["name"] = k.kernel.name;
  jk["mode"] = kernel_mode_name(k.mode);
  jk["grid"] = {k.kernel.grid.x, k.kernel.grid.y, k.kernel.grid.z};
  jk["block"] = {k.kernel.block.x, k.kernel.block.y, k.kernel.block.z};
  jk["shmem"] = k.kernel.shmem_bytes;
  jk["records"] = k.records;
  if (const auto ignored = ignored_header_values(k.kernel); !ignored.empty())
    for (const auto& [field, value] : ignored) jk["header_ignored"][field] = value;
  if (k.mode == KernelMode::Cached)
    jk["placement"] = {{"resident_ctas_per_sm", k.resident_ctas_per_sm},
                       {"carveout_kb", k.carveout_kb},
                       {"l1_bytes", k.l1_bytes}};
  for (int c = 0; c < kOpClassCount; ++c) {
    const auto cls = static_cast<OpClass>(c);
    // The TMA class only where the kernel has some: files without it keep their output.
    if (cls == OpClass::Tma && k.totals[c].instructions == 0) continue;
    jk["totals"][std::string(op_class_key(cls))] =
        counters_json(k.totals[c], is_shared_class(cls), cls == OpClass::Tma);
  }
  const AccessCounters t = kernel_traffic(k);
  jk["totals"]["l2"] = {{"read_sectors", t.l2_read_sectors},
                        {"read_sector_hits", t.l2_read_sector_hits},
                        {"read_sector_misses", t.l2_read_sector_misses},
                        {"write_sectors", t.l2_write_sectors},
                        {"atomic_sectors", t.l2_atomic_sectors}};
  jk["totals"]["dram"] = {{"read_bytes", t.dram_read_bytes},
                          {"write_bytes", t.dram_write_bytes},
                          {"flush_write_bytes", k.traffic.dram.flush_write_bytes},
                          {"earlier_kernels_write_bytes", k.earlier_kernels_write_bytes}};
  const DramTraffic& d = k.traffic.dram;
  // Partly written sectors read before their write-back (dram.partial_write_reads): only where
  // there are any, as the row counts below.
  if (d.flush_read_bytes != 0) jk["totals"]["dram"]["flush_read_bytes"] = d.flush_read_bytes;
  if (k.earlier_kernels_read_bytes != 0)
    jk["totals"]["dram"]["earlier_kernels_read_bytes"] = k.earlier_kernels_read_bytes;
  if (d.row_hits + d.row_misses != 0) {
    jk["totals"]["dram"]["row_hits"] = d.row_hits;
    jk["totals"]["dram"]["row_misses"] = d.row_misses;
  }
  const TimeEstimate& time = k.time;
  jk["totals"]["time"] = {{"estimate_ns", time.estimate_ns},
                          {"bound", bound_name(time.bound)},
                          {"dram_ns", time.dram_ns},
                          {"l2_ns", time.l2_ns},
                          {"l1_ns", time.l1_ns},
                          {"latency_ns", time.latency_ns},
                          {"store_path_ns", time.store_path_ns},
                          {"overhead_ns", time.overhead_ns},
                          {"dispatch_ns", time.dispatch_ns},
                          {"queue_ns", time.queue_ns},
                          {"waves", time.waves},
                          {"dram_efficiency", time.dram_efficiency},
                          {"avg_load_latency_ns", time.avg_load_latency_ns},
                          {"loads_in_flight", time.loads_in_flight},
                          {"dram_gbps", time.dram_gbps},
                          {"l2_gbps", time.l2_gbps},
                          {"l1_gbps", time.l1_gbps}};
  if (const ScheduleTotals& s = k.schedule; s.timed)  // --order timed: the estimate's source
    jk["totals"]["time"]["schedule"] = {{"cycles", s.cycles},
                                        {"busiest_l1tex_busy_cycles", s.busiest_pipe_cycles},
                                        {"l2_busy_cycles", s.l2_busy_cycles},
                                        {"dram_busy_cycles", s.dram_busy_cycles}};
  if (k.roofline.known)
    jk["totals"]["roofline"] = {{"flops", k.roofline.flops},
                                {"intensity", k.roofline.intensity},
                                {"intensity_cold", k.roofline.intensity_cold},
                                {"balance", k.roofline.balance},
                                {"attainable_flops_per_s", k.roofline.attainable_flops_per_s},
                                {"bound", roofline_bound_name(k.roofline.bound)}};
  Json rows = Json::array();
  const auto lines = line_map(k.kernel);
  for (const InstrStats& i : k.instructions) {
    Json row;
    row["inst"] = i.inst;
    if (const auto l = lines.find(i.inst); l != lines.end()) row["line"] = l->second;
    row["op"] = op_name(i.op);
    row["size"] = i.size;
    row["class"] = op_class_key(op_class(i.op));
    if (!is_shared(i.op)) row["segment_bytes"] = i.segment_bytes;
    row.update(counters_json(i.c, is_shared(i.op), is_bulk(i.op)));
    if (!r.patterns.empty()) row["pattern"] = r.pattern_of(k.kernel.id, i);  // run --pattern
    rows.push_back(std::move(row));
  }
  jk["instructions"] = std::move(rows);
  return jk;
}

}  // namespace

void print_json(std::ostream& out, const RunReport& r) {
  Json root;
  root["schema"] = 1;
  root["config"] = config_json(r.config);
  root["traces"] = r.traces;
  root["kernels"] = Json::array();
  for (const KernelStats& k : r.kernels) root["kernels"].push_back(kernel_json(r, k));
  out << root.dump(2) << '\n';
}

}  // namespace gms::detail
