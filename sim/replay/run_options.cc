#include "sim/replay/run_options.h"

#include "sim/core/error.h"

namespace gms {

SimMode parse_sim_mode(const std::string& name) {
  if (name == "cold") return SimMode::Cold;
  if (name == "cached") return SimMode::Cached;
  if (name == "both") return SimMode::Both;
  fail("unknown mode '{}' (cold, cached, both)", name);
}

Engine parse_engine(const std::string& name, std::string_view what) {
  for (const Engine e : {Engine::Auto, Engine::Fast, Engine::Reference, Engine::OnePass})
    if (name == engine_name(e)) return e;
  fail("{} '{}': expected auto, fast, reference or onepass", what, name);
}

std::string_view engine_name(Engine engine) {
  switch (engine) {
    case Engine::Auto:
      return "auto";
    case Engine::Fast:
      return "fast";
    case Engine::Reference:
      return "reference";
    case Engine::OnePass:
      return "onepass";
  }
  return "auto";
}

ReplayOrder parse_order(const std::string& name, std::string_view what) {
  for (const ReplayOrder o : {ReplayOrder::File, ReplayOrder::Lockstep, ReplayOrder::Timed})
    if (name == order_name(o)) return o;
  fail("{} '{}': expected file, lockstep or timed", what, name);
}

std::string_view order_name(ReplayOrder order) {
  switch (order) {
    case ReplayOrder::File:
      return "file";
    case ReplayOrder::Lockstep:
      return "lockstep";
    case ReplayOrder::Timed:
      return "timed";
  }
  return "file";
}

namespace {

/// The import options of a replay: load dependencies only where the timed order uses them.
trace::ImportOptions replay_import(const RunOptions& opts) {
  trace::ImportOptions import = opts.import;
  import.load_dependencies = opts.order == ReplayOrder::Timed && opts.mode != SimMode::Cold;
  return import;
}

}  // namespace

std::unique_ptr<trace::TraceReader> open_run_trace(const std::string& path,
                                                   const RunOptions& opts) {
  return trace::open_trace_reader(path, opts.trace_format, replay_import(opts));
}

std::unique_ptr<trace::TraceReader> open_run_chain(const std::vector<std::string>& traces,
                                                   const RunOptions& opts) {
  return trace::open_trace_chain(traces, opts.trace_format, replay_import(opts));
}

}  // namespace gms
