// Sweeps by one pass per trace and group of configurations (sweep_onepass.h).
#include "tools/study/sweep_onepass.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <map>
#include <thread>

#include "sim/core/error.h"
#include "sim/replay/onepass/engine.h"
#include "sim/replay/simulator.h"

namespace gms {

namespace {

bool is_capacity_key(const std::string& key) {
  const auto& keys = onepass_capacity_keys();
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

/// The configurations grouped by the values of their other varied keys, in order.
std::vector<std::vector<std::size_t>> groups_of(const SweepSpec& spec) {
  std::map<std::vector<std::string>, std::size_t> index;
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t c = 0; c < sweep_configurations(spec); ++c) {
    const std::vector<std::string> values = sweep_values(spec, c);
    std::vector<std::string> other;
    for (std::size_t i = 0; i < spec.axes.size(); ++i)
      if (!is_capacity_key(spec.axes[i].key)) other.push_back(values[i]);
    const auto [it, created] = index.try_emplace(other, groups.size());
    if (created) groups.emplace_back();
    groups[it->second].push_back(c);
  }
  return groups;
}

/// One replay: trace `trace` for configurations `configs`.
struct Pass {
  std::size_t trace;
  std::vector<std::size_t> configs;
};

}  // namespace

bool sweep_varies_capacity(const SweepSpec& spec) {
  return std::any_of(spec.axes.begin(), spec.axes.end(),
                     [](const SweepAxis& a) { return is_capacity_key(a.key); });
}

std::string sweep_onepass_refusal(const SweepSpec& spec, const std::vector<SimConfig>& cfgs) {
  if (!sweep_varies_capacity(spec)) return "no cache capacity key is varied";
  for (const std::vector<std::size_t>& g : groups_of(spec)) {
    std::vector<SimConfig> members;
    for (const std::size_t c : g) members.push_back(cfgs[c]);
    if (const std::string why = onepass_refusal(members); !why.empty()) {
      std::string which;
      const std::vector<std::string> values = sweep_values(spec, g[0]);
      for (std::size_t i = 0; i < spec.axes.size(); ++i)
        if (!is_capacity_key(spec.axes[i].key))
          which += fmt::format(" {}={}", spec.axes[i].key, values[i]);
      return fmt::format("configurations{}: {}", which.empty() ? "" : " with" + which, why);
    }
  }
  return "";
}

std::vector<std::string> run_onepass_points(const SweepSpec& spec,
                                            const std::vector<SimConfig>& cfgs,
                                            const std::vector<std::size_t>& points, unsigned jobs,
                                            SweepProgress* progress) {
  if (!sweep_onepass_refusal(spec, cfgs).empty()) return {};
  const std::size_t configs = sweep_configurations(spec);
  std::map<std::size_t, std::size_t> place;  // point -> its place in `points`
  for (std::size_t i = 0; i < points.size(); ++i) place[points[i]] = i;
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());

  // Passes: per trace and group, the group's points of this shard, split in `split` passes.
  std::vector<std::vector<std::size_t>> units;
  std::vector<std::size_t> unit_trace;
  for (std::size_t t = 0; t < spec.traces.size(); ++t)
    for (const std::vector<std::size_t>& g : groups_of(spec)) {
      std::vector<std::size_t> mine;
      for (const std::size_t c : g)
        if (place.count(t * configs + c)) mine.push_back(c);
      if (mine.empty()) continue;
      units.push_back(mine);
      unit_trace.push_back(t);
    }
  const std::size_t split = std::max<std::size_t>(1, jobs / std::max<std::size_t>(units.size(), 1));
  std::vector<Pass> passes;
  for (std::size_t u = 0; u < units.size(); ++u) {
    const std::size_t n = std::min(split, units[u].size());
    for (std::size_t k = 0; k < n; ++k) {
      Pass p{unit_trace[u], {}};
      for (std::size_t i = k * units[u].size() / n; i < (k + 1) * units[u].size() / n; ++i)
        p.configs.push_back(units[u][i]);
      passes.push_back(std::move(p));
    }
  }

  std::vector<std::string> texts(points.size());
  std::vector<std::exception_ptr> errors(passes.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < passes.size();) {
      try {
        const Pass& pass = passes[i];
        std::vector<SimConfig> members;
        for (const std::size_t c : pass.configs) members.push_back(cfgs[c]);
        RunOptions opts;
        opts.mode = spec.mode;
        opts.engine = Engine::OnePass;
        const auto results = simulate_many({spec.traces[pass.trace]}, members, opts);
        for (std::size_t k = 0; k < pass.configs.size(); ++k) {
          const std::size_t point = pass.trace * configs + pass.configs[k];
          if (progress != nullptr)
            for (const KernelStats& ks : results[k])
              if (ks.mode == KernelMode::Cold || spec.mode != SimMode::Both)
                progress->records.fetch_add(ks.records, std::memory_order_relaxed);
          texts[place.at(point)] = sweep_point_rows(spec, point, results[k], progress);
        }
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  const std::size_t n_threads =
      std::min<std::size_t>(jobs, std::max<std::size_t>(passes.size(), 1));
  run_on_threads(n_threads, worker);
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  return texts;
}

}  // namespace gms
