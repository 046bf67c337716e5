// The CSV printer: one row per (kernel, mode, instruction), every statistic a column; the
// configuration heads the file as '#' lines (pandas: read_csv(..., comment='#')).
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "sim/report/report.h"
#include "sim/report/report_stats.h"

namespace gms::detail {

void print_csv(std::ostream& out, const RunReport& r) {
  for (const auto& [key, value] : effective_config(r.config))
    fmt::print(out, "# {}={}\n", key, value);
  fmt::print(out, "kernel_id,kernel_name,mode,inst,op,size,class,segment_bytes");
  for (const Metric* s : kMemoryStats) fmt::print(out, ",{}", s->name);
  fmt::print(out, ",efficiency,wasted_bytes,wavefronts,ideal_wavefronts,conflicts");
  for (const Metric* s : kHierarchyStats) fmt::print(out, ",{}", s->name);
  // `run --pattern` only: the default columns stay as they were.
  const bool patterns = !r.patterns.empty();
  // Only where a kernel has TMA rows (bulk ops): files without them keep their columns.
  bool bulk = false;
  for (const KernelStats& k : r.kernels)
    for (const InstrStats& i : k.instructions) bulk = bulk || is_bulk(i.op);
  fmt::print(out, ",line{}{}\n", patterns ? ",pattern" : "", bulk ? ",shared_bytes_written" : "");
  for (const KernelStats& k : r.kernels) {
    const auto lines = line_map(k.kernel);
    for (const InstrStats& i : k.instructions) {
      const AccessCounters& c = i.c;
      const bool shared = is_shared(i.op);
      fmt::print(out, "{},{},{},{},{},{},{},{}", k.kernel.id, k.kernel.name,
                 kernel_mode_name(k.mode), i.inst, op_name(i.op), i.size,
                 op_class_key(op_class(i.op)), shared ? 0 : i.segment_bytes);
      for (const Metric* s : kMemoryStats) fmt::print(out, ",{}", s->count(c));
      fmt::print(out, ",{},{},{},{},{}", shared ? "" : fmt::format("{:.6f}", efficiency(c)),
                 wasted_bytes(c), c.wavefronts, c.ideal_wavefronts, conflicts(c));
      for (const Metric* s : kHierarchyStats) fmt::print(out, ",{}", s->count(c));
      const auto l = lines.find(i.inst);
      fmt::print(out, ",{}", l == lines.end() ? std::string() : std::to_string(l->second));
      if (patterns) fmt::print(out, ",{}", r.pattern_of(k.kernel.id, i));
      if (bulk) fmt::print(out, ",{}", c.shared_bytes_written);
      fmt::print(out, "\n");
    }
  }
}

}  // namespace gms::detail
