// Miss-ratio curves from one pass (curves.h).
#include "tools/study/curves.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/core/error.h"
#include "sim/replay/onepass/engine.h"
#include "sim/replay/simulator.h"
#include "sim/report/html/html_page.h"
#include "sim/report/html/svg_chart.h"
#include "sim/report/study_stats.h"
#include "sim/report/tidy_csv.h"

namespace gms {

namespace {

const char* level_name(CurveLevel l) {
  return l == CurveLevel::L1 ? "l1" : "l2";
}

std::string ways_name(std::uint32_t w) {
  return w == 0 ? "full" : fmt::format("{}", w);
}

/// The level's lookups and hits in counters `c`.
std::pair<std::uint64_t, std::uint64_t> level_counts(CurveLevel l, const AccessCounters& c) {
  if (l == CurveLevel::L1) return {c.l1_sector_hits + c.l1_sector_misses, c.l1_sector_hits};
  return {c.l2_read_sectors, c.l2_read_sector_hits};
}

}  // namespace

Curves compute_curves(const CurveSpec& spec) {
  const SimConfig base = load_config(spec.base);
  Curves out;
  out.level = spec.level;
  out.trace = spec.trace;
  const bool l1 = spec.level == CurveLevel::L1;
  std::vector<std::uint32_t> ways = spec.ways, sizes = spec.sizes_kb;
  if (ways.empty())
    ways = l1 ? std::vector<std::uint32_t>{4, 16, 64, 0} : std::vector<std::uint32_t>{1, 4, 16, 0};
  if (sizes.empty()) {
    if (l1) {
      sizes = {8, 16, 32, 64, 128, 256};
    } else {
      for (int k = -6; k <= 1; ++k)
        if (k < 0 ? base.l2.size_kb % (1u << -k) == 0 : true)
          sizes.push_back(k < 0 ? base.l2.size_kb >> -k : base.l2.size_kb << k);
    }
  }
  // Lines per set-associative unit: one SM's L1, or one L2 slice.
  const std::uint64_t line = l1 ? base.l1.line_bytes : base.l2.line_bytes;
  const std::uint64_t units = l1 ? 1 : base.l2.slices;
  std::vector<SimConfig> cfgs;
  for (const std::uint32_t w : ways)
    for (const std::uint32_t kb : sizes) {
      const std::uint64_t bytes = std::uint64_t{kb} * 1024;
      const std::uint64_t lines = bytes / units / line;
      if (bytes % (units * line) != 0 || lines == 0 || (w != 0 && lines % w != 0)) {
        out.skipped.push_back(fmt::format("{} KiB at {} ways", kb, ways_name(w)));
        continue;
      }
      const auto sets = static_cast<std::uint32_t>(w == 0 ? 1 : lines / w);
      const auto point_ways = static_cast<std::uint32_t>(w == 0 ? lines : w);
      ConfigSources src = spec.base;
      const std::size_t first_override = src.overrides.size();
      if (l1) {
        // A separate L1 of exactly this size; the L2 below it does not change the L1's hits, so
        // it is made as small as it can be (one slice, one way, so one partition: on a preset
        // with near/far partitions, the A100's or the H200's, one slice cannot be split).
        // Each key is checked as it is set, so the sets go before the size they divide.
        src.overrides.insert(
            src.overrides.end(),
            {"l1.unified_kb=0", fmt::format("l1.sets={}", sets), fmt::format("l1.size_kb={}", kb),
             "l2.partitions=1", "l2.slices=1", "l2.ways=1",
             fmt::format("l2.size_kb={}",
                         std::max<std::uint64_t>(1, base.l2.line_bytes * 8 / 1024))});
      } else {
        // One way first: any whole number of slice lines is then a valid size.
        src.overrides.insert(src.overrides.end(), {"l2.ways=1", fmt::format("l2.size_kb={}", kb),
                                                   fmt::format("l2.ways={}", point_ways)});
      }
      try {
        cfgs.push_back(load_config(src));
      } catch (const SimError& e) {
        fail("curves: {} KiB at {} ways: {}", kb, ways_name(w), e.what());
      }
      out.points.push_back(
          {w, sets, kb,
           std::vector<std::string>(src.overrides.begin() + first_override, src.overrides.end())});
    }
  if (cfgs.empty())
    fail(
        "curves: no size fits the {}: each must hold a whole number of sets ({} x {} bytes x "
        "ways) at the ways asked for",
        level_name(spec.level), l1 ? "1 L1" : fmt::format("{} slices", units), line);
  if (const std::string why = onepass_refusal(cfgs); !why.empty())
    fail("curves: the {} curve needs one pass, and {}", level_name(spec.level), why);

  RunOptions opts;
  opts.mode = SimMode::Cached;
  opts.engine = Engine::OnePass;
  const std::vector<std::vector<KernelStats>> results = simulate_many({spec.trace}, cfgs, opts);
  const std::size_t n = cfgs.size();
  for (std::size_t k = 0; k < results[0].size(); ++k) {
    const KernelStats& first = results[0][k];
    CurveRow row;
    row.kernel_id = first.kernel.id;
    row.kernel_name = first.kernel.name;
    for (std::size_t p = 0; p < n; ++p) {
      const auto [lookups, hits] = level_counts(spec.level, kernel_sums(results[p][k]).memory);
      row.lookups.push_back(lookups);
      row.hits.push_back(hits);
    }
    out.rows.push_back(row);
    if (!spec.per_instruction) continue;
    for (std::size_t i = 0; i < first.instructions.size(); ++i) {
      const InstrStats& in = first.instructions[i];
      if (is_shared(in.op)) continue;
      CurveRow r = row;
      r.instruction = true;
      r.inst = in.inst;
      r.op = op_name(in.op);
      r.size = in.size;
      bool any = false;
      for (std::size_t p = 0; p < n; ++p) {
        const auto [lookups, hits] = level_counts(spec.level, results[p][k].instructions[i].c);
        r.lookups[p] = lookups;
        r.hits[p] = hits;
        any |= lookups != 0;
      }
      if (any) out.rows.push_back(std::move(r));
    }
  }
  return out;
}

std::string curves_csv(const Curves& c) {
  const bool per_instruction =
      std::any_of(c.rows.begin(), c.rows.end(), [](const CurveRow& r) { return r.instruction; });
  std::string out = fmt::format("# gpumemsim curves\n# trace={}\n# level={}\n", csv_cell(c.trace),
                                level_name(c.level));
  for (const std::string& s : c.skipped)
    out += "# skipped (not a whole number of sets): " + s + "\n";
  out += "level,kernel_id,kernel_name";
  if (per_instruction) out += ",inst,op,size";
  out += ",ways,sets,capacity_kb,lookups,hits,hit_rate\n";
  for (const CurveRow& r : c.rows)
    for (std::size_t p = 0; p < c.points.size(); ++p) {
      out += fmt::format("{},{},{}", level_name(c.level), r.kernel_id, csv_cell(r.kernel_name));
      if (per_instruction)
        out += r.instruction ? fmt::format(",{},{},{}", r.inst, r.op, r.size) : ",,,";
      const CurvePoint& pt = c.points[p];
      out += fmt::format(
          ",{},{},{},{},{},{:.6f}\n", ways_name(pt.ways), pt.sets, pt.capacity_kb, r.lookups[p],
          r.hits[p], safe_ratio(static_cast<double>(r.hits[p]), static_cast<double>(r.lookups[p])));
    }
  return out;
}

void print_curves_html(std::ostream& out, const Curves& c) {
  html::Page page(fmt::format("gpumemsim {} miss-ratio curves", level_name(c.level)));
  page.paragraph(fmt::format(
      "{}: {} hit rate ({}) against capacity, one line per associativity, from one replay. "
      "Fully associative: {}.",
      c.trace, c.level == CurveLevel::L1 ? "L1" : "L2",
      c.level == CurveLevel::L1 ? "load sectors found in L1 / looked up"
                                : "read sectors that hit / read from L2",
      c.level == CurveLevel::L1 ? "one set" : "one set per slice"));
  std::vector<std::uint32_t> caps, ways;
  for (const CurvePoint& p : c.points) {
    if (std::find(caps.begin(), caps.end(), p.capacity_kb) == caps.end())
      caps.push_back(p.capacity_kb);
    if (std::find(ways.begin(), ways.end(), p.ways) == ways.end()) ways.push_back(p.ways);
  }
  std::sort(caps.begin(), caps.end());
  // Kernels first, then the 12 instructions with most lookups at the first point.
  std::vector<const CurveRow*> charted;
  std::vector<const CurveRow*> instrs;
  for (const CurveRow& r : c.rows) (r.instruction ? instrs : charted).push_back(&r);
  std::stable_sort(instrs.begin(), instrs.end(), [](const CurveRow* a, const CurveRow* b) {
    return a->lookups[0] > b->lookups[0];
  });
  if (instrs.size() > 12) instrs.resize(12);
  charted.insert(charted.end(), instrs.begin(), instrs.end());
  for (const CurveRow* r : charted) {
    svg::LineChart chart;
    chart.title = r->instruction ? fmt::format("kernel {} {}: inst {} {} {}", r->kernel_id,
                                               r->kernel_name, r->inst, r->op, r->size)
                                 : fmt::format("kernel {} {}", r->kernel_id, r->kernel_name);
    chart.x_label = "capacity (KiB)";
    chart.y_label = "hit rate";
    chart.percent = true;
    for (const std::uint32_t kb : caps) chart.x.push_back(fmt::format("{}", kb));
    for (const std::uint32_t w : ways) {
      svg::LineSeries s;
      s.name = w == 0 ? "fully associative" : fmt::format("{} ways", w);
      for (const std::uint32_t kb : caps) {
        double y = NAN;
        for (std::size_t p = 0; p < c.points.size(); ++p)
          if (c.points[p].ways == w && c.points[p].capacity_kb == kb)
            y = safe_ratio(static_cast<double>(r->hits[p]), static_cast<double>(r->lookups[p]));
        s.y.push_back(y);
      }
      chart.series.push_back(std::move(s));
    }
    page.heading(2, chart.title);
    page.raw(svg::line_chart(chart));
  }
  std::vector<std::vector<std::string>> rows;
  for (const CurveRow& r : c.rows)
    for (std::size_t p = 0; p < c.points.size() && rows.size() < 2000; ++p)
      rows.push_back({fmt::format("{}", r.kernel_id), r.kernel_name,
                      r.instruction ? fmt::format("{} {} {}", r.inst, r.op, r.size) : "",
                      ways_name(c.points[p].ways), fmt::format("{}", c.points[p].sets),
                      fmt::format("{}", c.points[p].capacity_kb), fmt::format("{}", r.lookups[p]),
                      fmt::format("{}", r.hits[p]),
                      fmt::format("{:.1f}%", 100 * safe_ratio(static_cast<double>(r.hits[p]),
                                                              static_cast<double>(r.lookups[p])))});
  page.heading(2, "Points");
  page.table({"kernel", "name", "instruction", "ways", "sets", "capacity KiB", "lookups", "hits",
              "hit rate"},
             rows);
  out << page.str();
}

}  // namespace gms
