// Sweeps: configurations from the cross product of the varied keys, points run on a small pool
// of threads, rows formatted per point and concatenated in point order (so the text is the same
// whatever the number of threads), and the merge of shard files.
#include "tools/study/sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <exception>
#include <filesystem>
#include <map>
#include <numeric>
#include <string_view>
#include <thread>

#include "sim/core/error.h"
#include "sim/report/metrics.h"
#include "sim/report/study_stats.h"
#include "sim/report/tidy_csv.h"
#include "tools/study/sweep_journal.h"
#include "tools/study/sweep_onepass.h"
#include "trace/import/formats.h"
#include "trace/io/atomic_file.h"

namespace gms {

namespace {

constexpr const char* kMagic = "# gpumemsim sweep";
constexpr const char* kShardPrefix = "# shard=";

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

/// Counts records as a decorated reader hands them out: one atomic add per batch.
class CountingReader final : public trace::TraceReader {
 public:
  CountingReader(trace::TraceReader& inner, std::atomic<std::uint64_t>* records)
      : inner_(inner), records_(records) {}
  bool next_kernel(KernelInfo& out) override { return inner_.next_kernel(out); }
  std::size_t read(std::span<WarpInstr> out) override {
    const std::size_t n = inner_.read(out);
    if (records_ != nullptr) records_->fetch_add(n, std::memory_order_relaxed);
    return n;
  }
  const std::string& source_name() const override { return inner_.source_name(); }
  std::span<const Allocation> allocations() const override { return inner_.allocations(); }

 private:
  trace::TraceReader& inner_;
  std::atomic<std::uint64_t>* records_;
};

std::string num(std::uint64_t v) {
  return fmt::format("{}", v);
}
std::string frac(double v) {
  return fmt::format("{:.6f}", v);
}

/// One statistic column: a row of the metric table over a row's memory-space or shared-space
/// counters (the instruction count over both: a row is either).
struct StatColumn {
  const char* name;
  const Metric* metric;
  MetricSpace space;
};

constexpr StatColumn kStatColumns[] = {
    {"instructions", metric("instructions"), MetricSpace::Any},
    {"requests", metric("requests"), MetricSpace::Memory},
    {"active_threads", metric("active_threads"), MetricSpace::Memory},
    {"sectors", metric("sectors"), MetricSpace::Memory},
    {"transactions", metric("transactions"), MetricSpace::Memory},
    {"lines", metric("lines"), MetricSpace::Memory},
    {"bytes_requested", metric("bytes_requested"), MetricSpace::Memory},
    {"bytes_distinct", metric("bytes_distinct"), MetricSpace::Memory},
    {"bytes_fetched", metric("bytes_fetched"), MetricSpace::Memory},
    {"efficiency", metric("efficiency"), MetricSpace::Memory},
    {"wasted_bytes", metric("wasted_bytes"), MetricSpace::Memory},
    {"sectors_per_request", metric("sectors_per_request"), MetricSpace::Memory},
    {"ideal_sectors_per_request", metric("ideal_sectors_per_request"), MetricSpace::Memory},
    {"shared_requests", metric("requests"), MetricSpace::Shared},
    {"wavefronts", metric("wavefronts"), MetricSpace::Shared},
    {"ideal_wavefronts", metric("ideal_wavefronts"), MetricSpace::Shared},
    {"conflicts", metric("conflicts"), MetricSpace::Shared},
    {"l1_sector_hits", metric("l1_sector_hits"), MetricSpace::Memory},
    {"l1_sector_misses", metric("l1_sector_misses"), MetricSpace::Memory},
    {"l1_hit_rate", metric("l1_hit_rate"), MetricSpace::Memory},
    {"l2_read_sectors", metric("l2_read_sectors"), MetricSpace::Memory},
    {"l2_read_sector_hits", metric("l2_read_sector_hits"), MetricSpace::Memory},
    {"l2_read_sector_misses", metric("l2_read_sector_misses"), MetricSpace::Memory},
    {"l2_hit_rate", metric("l2_hit_rate"), MetricSpace::Memory},
    {"l2_write_sectors", metric("l2_write_sectors"), MetricSpace::Memory},
    {"l2_atomic_sectors", metric("l2_atomic_sectors"), MetricSpace::Memory},
    {"dram_read_bytes", metric("dram_read_bytes"), MetricSpace::Memory},
    {"dram_write_bytes", metric("dram_write_bytes"), MetricSpace::Memory},
};

std::string stat_cell(const StatColumn& c, const AccessCounters& m, const AccessCounters& s) {
  if (c.metric->is_ratio()) return frac(c.metric->ratio(m));
  switch (c.space) {
    case MetricSpace::Memory:
      return num(c.metric->count(m));
    case MetricSpace::Shared:
      return num(c.metric->count(s));
    case MetricSpace::Any:
      break;
  }
  return num(c.metric->count(m) + c.metric->count(s));
}

std::string stat_cells(const AccessCounters& m, const AccessCounters& s) {
  std::string out;
  for (const StatColumn& c : kStatColumns) {
    out += ',';
    out += stat_cell(c, m, s);
  }
  return out;
}

std::string mode_name(SimMode m) {
  return m == SimMode::Cold ? "cold" : m == SimMode::Cached ? "cached" : "both";
}

/// The header: comments identifying the sweep, the shard line when sharded, the columns.
std::string sweep_header(const SweepSpec& spec, const SweepShard& shard) {
  std::string out = fmt::format("{}\n", kMagic);
  if (shard.count > 1) out += fmt::format("{}{}/{}\n", kShardPrefix, shard.index, shard.count);
  out += "# traces=";
  for (std::size_t i = 0; i < spec.traces.size(); ++i) out += (i ? ";" : "") + spec.traces[i];
  out += fmt::format("\n# mode={} per_instruction={} configurations={} points={}\n",
                     mode_name(spec.mode), spec.per_instruction ? 1 : 0, sweep_configurations(spec),
                     sweep_points(spec));
  for (const SweepAxis& a : spec.axes) {
    out += "# vary " + a.key + "=";
    for (std::size_t i = 0; i < a.values.size(); ++i) out += (i ? ";" : "") + a.values[i];
    out += "\n";
  }
  out += "# base configuration (the cfg.* columns change it per point):\n";
  for (const auto& [key, value] : effective_config(load_config(spec.base)))
    out += fmt::format("# {}={}\n", key, value);
  out += "point,trace";
  for (const SweepAxis& a : spec.axes) out += ",cfg." + a.key;
  out += ",mode,kernel_id,kernel_name";
  if (spec.per_instruction) out += ",inst,op,size,class,segment_bytes";
  for (const StatColumn& c : kStatColumns) out += std::string(",") + c.name;
  out += "\n";
  return out;
}

/// Simulates one point and formats its rows.
std::string run_point(const SweepSpec& spec, const SimConfig& cfg, std::size_t point,
                      unsigned threads, SweepProgress* progress) {
  auto reader = trace::open_trace_reader(spec.traces[point / sweep_configurations(spec)]);
  CountingReader counted(*reader, progress ? &progress->records : nullptr);
  RunOptions opts;
  opts.mode = spec.mode;
  opts.read_ahead = false;  // the sweep's workers already keep every core busy
  // More than 1 when there are fewer points than jobs: the replay may take up to that many
  // where they pay (sim/replay/thread_choice.h).
  opts.threads = threads > 1 ? 0 : 1;
  opts.max_threads = threads;
  return sweep_point_rows(spec, point, simulate(counted, cfg, opts), progress);
}

/// Parses the number after `key=` in a comment line such as "# mode=cold points=12".
std::size_t header_number(const std::vector<std::string>& comments, const std::string& key,
                          const std::string& origin) {
  for (const std::string& c : comments) {
    const std::size_t at = c.find(" " + key + "=");
    if (at == std::string::npos) continue;
    return std::stoull(c.substr(at + key.size() + 2));
  }
  fail("{}: not a gpumemsim sweep CSV (no '{}=' in its header)", origin, key);
}

}  // namespace

std::string sweep_point_rows(const SweepSpec& spec, std::size_t point,
                             const std::vector<KernelStats>& kernels, SweepProgress* progress) {
  const std::size_t configs = sweep_configurations(spec);
  const std::size_t t = point / configs;
  const std::vector<std::string> values = sweep_values(spec, point % configs);
  std::string prefix = fmt::format("{},{}", point, csv_cell(spec.traces[t]));
  for (const std::string& v : values) {
    prefix += ',';
    prefix += csv_cell(v);
  }
  std::string out;
  std::uint64_t records = 0;
  for (const KernelStats& k : kernels) {
    if (k.mode == KernelMode::Cold || spec.mode != SimMode::Both) records += k.records;
    const std::string head = fmt::format("{},{},{},{}", prefix, kernel_mode_name(k.mode),
                                         k.kernel.id, csv_cell(k.kernel.name));
    if (!spec.per_instruction) {
      const KernelSums s = kernel_sums(k);
      out += head + stat_cells(s.memory, s.shared) + "\n";
      continue;
    }
    for (const InstrStats& i : k.instructions) {
      const bool shared = is_shared(i.op);
      const AccessCounters none;
      out += fmt::format("{},{},{},{},{},{}", head, i.inst, op_name(i.op), i.size,
                         op_class_key(op_class(i.op)), shared ? 0 : i.segment_bytes);
      out += stat_cells(shared ? none : i.c, shared ? i.c : none) + "\n";
    }
  }
  if (progress != nullptr) {
    progress->finished_records.fetch_add(records, std::memory_order_relaxed);
    progress->points_done.fetch_add(1, std::memory_order_relaxed);
  }
  return out;
}

namespace {

/// What a journal must match to be resumed (sweep_journal.h): the header, every configuration's
/// effective keys, and each trace's path, size and modification time.
std::string sweep_fingerprint(const SweepSpec& spec, const std::string& header,
                              const std::vector<SimConfig>& cfgs) {
  namespace fs = std::filesystem;
  std::string out = header;
  for (const std::string& t : spec.traces) {
    std::error_code ec;
    const auto size = fs::file_size(t, ec);
    if (ec) fail("{}: cannot read its size: {}", t, ec.message());
    const auto mtime = fs::last_write_time(t, ec);
    if (ec) fail("{}: cannot read its modification time: {}", t, ec.message());
    out += fmt::format("trace {} size={} mtime={}\n", t, size, mtime.time_since_epoch().count());
  }
  for (std::size_t c = 0; c < cfgs.size(); ++c) {
    out += fmt::format("configuration {}:", c);
    for (const auto& [key, value] : effective_config(cfgs[c])) out += " " + key + "=" + value;
    out += "\n";
  }
  return out;
}

}  // namespace

std::vector<std::string> sweep_stat_columns() {
  std::vector<std::string> out;
  for (const StatColumn& c : kStatColumns) out.emplace_back(c.name);
  return out;
}

SweepAxis parse_sweep_axis(const std::string& spec) {
  const std::size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
    fail("--vary '{}': expected key=v1,v2,...", spec);
  SweepAxis a;
  a.key = spec.substr(0, eq);
  const std::string list = spec.substr(eq + 1);
  a.values = split(list, list.find(';') != std::string::npos ? ';' : ',');
  for (const std::string& v : a.values)
    if (v.empty()) fail("--vary '{}': empty value", spec);
  if (a.key != "preset") {
    const auto docs = config_key_docs();
    if (std::none_of(docs.begin(), docs.end(),
                     [&](const ConfigKeyDoc& d) { return d.key == a.key; }))
      fail("--vary: unknown configuration key '{}' (see docs/config.md, or 'preset')", a.key);
  }
  return a;
}

SweepShard parse_sweep_shard(const std::string& text) {
  // I/N, both decimal: from_chars rejects signs, spaces and anything after the digits.
  auto number = [&](std::string_view digits, std::uint64_t& out) {
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
    if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size())
      fail("--shard '{}': expected I/N, e.g. 0/4", text);
  };
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) fail("--shard '{}': expected I/N, e.g. 0/4", text);
  SweepShard s;
  std::uint64_t index = 0, count = 0;
  number(std::string_view(text).substr(0, slash), index);
  number(std::string_view(text).substr(slash + 1), count);
  if (count == 0 || index >= count) fail("--shard '{}': needs 0 <= I < N", text);
  s.index = index;
  s.count = count;
  return s;
}

std::size_t sweep_configurations(const SweepSpec& spec) {
  std::size_t n = 1;
  for (const SweepAxis& a : spec.axes) n *= a.values.size();
  return n;
}

std::size_t sweep_points(const SweepSpec& spec) {
  return spec.traces.size() * sweep_configurations(spec);
}

std::vector<std::string> sweep_values(const SweepSpec& spec, std::size_t c) {
  std::vector<std::string> out(spec.axes.size());
  for (std::size_t i = spec.axes.size(); i-- > 0;) {
    const std::size_t n = spec.axes[i].values.size();
    out[i] = spec.axes[i].values[c % n];
    c /= n;
  }
  return out;
}

SimConfig sweep_config(const SweepSpec& spec, std::size_t c) {
  const std::vector<std::string> values = sweep_values(spec, c);
  ConfigSources sources;
  sources.files = spec.base.files;
  for (std::size_t i = 0; i < spec.axes.size(); ++i)
    if (spec.axes[i].key == "preset")
      sources.files.push_back(find_preset(values[i], spec.preset_dirs));
  sources.overrides = spec.base.overrides;
  for (std::size_t i = 0; i < spec.axes.size(); ++i)
    if (spec.axes[i].key != "preset")
      sources.overrides.push_back(spec.axes[i].key + "=" + values[i]);
  try {
    return load_config(sources);
  } catch (const SimError& e) {
    std::string which;
    for (std::size_t i = 0; i < spec.axes.size(); ++i)
      which += fmt::format("{}{}={}", i ? " " : "", spec.axes[i].key, values[i]);
    fail("sweep configuration {} ({}): {}", c, which, e.what());
  }
}

std::string run_sweep_csv(const SweepSpec& spec, const SweepShard& shard, unsigned jobs,
                          SweepProgress* progress, SweepJournal* journal) {
  if (spec.traces.empty()) fail("sweep: no trace given");
  for (const std::string& t : spec.traces)
    if (t == "-")
      fail("sweep: every configuration reads the traces again: '-' (stdin) cannot be swept");
  const std::size_t configs = sweep_configurations(spec);
  if (configs == 0) fail("sweep: a --vary list is empty");
  std::vector<SimConfig> cfgs;
  cfgs.reserve(configs);
  for (std::size_t c = 0; c < configs; ++c) cfgs.push_back(sweep_config(spec, c));
  const std::string header = sweep_header(spec, shard);

  std::vector<std::size_t> points;
  for (std::size_t p = shard.index; p < sweep_points(spec); p += shard.count) points.push_back(p);
  if (progress != nullptr) progress->points_total = points.size();

  // The groups of points one pass covers, and the rest separately; a resumable sweep runs every
  // point on its own (its journal keeps points, which a pass finishes all at once).
  if (!spec.separate_runs && journal == nullptr)
    if (std::vector<std::string> texts = run_onepass_points(spec, cfgs, points, jobs, progress);
        !texts.empty())
      return std::accumulate(texts.begin(), texts.end(), header);
  std::vector<std::string> texts(points.size());
  std::vector<char> have(points.size(), 0);  // 0 to run, 1 from the journal, 2 run here
  std::size_t resumed = 0;
  if (journal != nullptr) {
    journal->start(sweep_fingerprint(spec, header, cfgs), sweep_points(spec));
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto it = journal->done().find(points[i]);
      if (it == journal->done().end()) continue;
      texts[i] = it->second;
      have[i] = 1;
      ++resumed;
    }
  }
  if (progress != nullptr) {
    progress->points_resumed = resumed;
    progress->points_done.store(resumed);
  }
  std::vector<std::exception_ptr> errors(points.size());
  unsigned point_threads = 1;  // each point's replay threads (set below)
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  auto worker = [&] {
    for (;;) {
      if (trace::stop_requested() != 0) return;  // a signal: finish no more points
      const std::size_t i = next.fetch_add(1);
      if (i >= points.size() || failed.load()) return;
      if (have[i]) continue;
      try {
        texts[i] = run_point(spec, cfgs[points[i] % configs], points[i], point_threads, progress);
        if (journal != nullptr) journal->record(points[i], texts[i]);
        have[i] = 2;
      } catch (...) {
        errors[i] = std::current_exception();
        failed.store(true);
      }
    }
  };
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t n_threads =
      std::min<std::size_t>(jobs, std::max<std::size_t>(points.size() - resumed, 1));
  // Fewer points than jobs: the cores left over replay within the points (parallel replay).
  point_threads = static_cast<unsigned>(std::max<std::size_t>(1, jobs / n_threads));
  run_on_threads(n_threads, worker);
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  if (const int sig = trace::stop_requested();
      sig != 0 && std::count(have.begin(), have.end(), 0) > 0) {
    const auto finished =
        static_cast<std::size_t>(points.size() - std::count(have.begin(), have.end(), 0));
    throw SweepStopped(
        sig, journal != nullptr
                 ? fmt::format("sweep: stopped by SIG{} after {} of {} points; {} keeps them: "
                               "the same command with --resume continues",
                               sigabbrev_np(sig), finished, points.size(), journal->path())
                 : fmt::format("sweep: stopped by SIG{} after {} of {} points (without "
                               "--resume nothing is kept)",
                               sigabbrev_np(sig), finished, points.size()));
  }

  std::string out = header;
  for (const std::string& t : texts) out += t;
  return out;
}

std::string merge_sweep_csv(const std::vector<std::string>& texts,
                            const std::vector<std::string>& origins) {
  if (texts.empty()) fail("merge: no input");
  std::vector<TidyCsv> pieces;
  std::vector<SweepShard> shards;
  std::vector<std::string> header;  // comments without the shard line
  std::size_t points = 0;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    TidyCsv t = parse_tidy_csv(texts[i], origins[i]);
    if (t.comments.empty() || t.comments[0] != kMagic)
      fail("{}: not a gpumemsim sweep CSV (its first line is not '{}')", origins[i], kMagic);
    SweepShard s;
    std::vector<std::string> rest;
    for (const std::string& c : t.comments) {
      if (c.starts_with(kShardPrefix))
        s = parse_sweep_shard(c.substr(std::string(kShardPrefix).size()));
      else
        rest.push_back(c);
    }
    const std::size_t p = header_number(rest, "points", origins[i]);
    if (i == 0) {
      header = rest;
      points = p;
    } else if (rest != header || t.header_line != pieces[0].header_line) {
      fail("{}: comes from another sweep than {} (the headers differ)", origins[i], origins[0]);
    }
    if (t.columns.empty() || t.columns[0] != "point")
      fail("{}: the first column is not 'point'", origins[i]);
    shards.push_back(s);
    pieces.push_back(std::move(t));
  }
  const std::size_t n = shards[0].count;
  std::vector<int> seen(n, -1);
  for (std::size_t i = 0; i < shards.size(); ++i) {
    if (shards[i].count != n)
      fail("{}: shard {}/{} does not fit {}/{} of {}", origins[i], shards[i].index, shards[i].count,
           shards[0].index, n, origins[0]);
    if (seen[shards[i].index] >= 0)
      fail("{}: shard {}/{} is also {}", origins[i], shards[i].index, n,
           origins[seen[shards[i].index]]);
    seen[shards[i].index] = static_cast<int>(i);
  }
  for (std::size_t s = 0; s < n; ++s)
    if (seen[s] < 0) fail("merge: shard {}/{} is missing", s, n);

  // Rows by point; each point belongs to exactly one shard, whose rows keep their order.
  std::vector<std::vector<const std::string*>> by_point(points);
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    std::size_t last = 0;
    for (std::size_t r = 0; r < pieces[i].rows.size(); ++r) {
      std::size_t p = 0;
      try {
        p = std::stoull(pieces[i].rows[r][0]);
      } catch (const std::exception&) {
        fail("{}: row {}: point '{}' is not a number", origins[i], r + 1, pieces[i].rows[r][0]);
      }
      if (p >= points || p % n != shards[i].index || p < last)
        fail("{}: row {}: point {} does not belong to shard {}/{} here", origins[i], r + 1, p,
             shards[i].index, n);
      last = p;
      by_point[p].push_back(&pieces[i].row_lines[r]);
    }
  }
  std::string out;
  for (const std::string& c : header) out += c + "\n";
  out += pieces[0].header_line + "\n";
  for (const auto& rows : by_point)
    for (const std::string* line : rows) out += *line + "\n";
  return out;
}

}  // namespace gms
