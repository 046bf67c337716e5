#include "sim/replay/thread_choice.h"

#include <algorithm>
#include <thread>

#include "sim/replay/fast_engine.h"
#include "trace/import/formats.h"

namespace gms {

unsigned replay_threads(const SimConfig& cfg, const RunOptions& opts,
                        const std::vector<std::string>& traces) {
  if (opts.engine == Engine::Reference) return 1;
  if (opts.threads != 0) return opts.threads;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned most = opts.max_threads != 0 ? std::min(opts.max_threads, cores) : cores;
  if (most == 1 || !parallel_replay_exact(cfg)) return 1;
  const auto every = [&](bool (*is)(const std::string&)) {
    return !traces.empty() && std::all_of(traces.begin(), traces.end(), is);
  };
  // An uncompressed Accel-Sim text: its replay is mostly its parse (trace::accelsim_text_file).
  const bool text_import = every(&trace::accelsim_text_file);
  if (opts.mode == SimMode::Cold) {
    // Workers deal the blocks of plain .gmt files; an Accel-Sim text parses its blocks on a
    // second thread; any other trace one would replay alone.
    if (every(&trace::plain_gmt_file)) return most;
    return text_import ? 2 : 1;
  }
  // The pipeline; not for an Accel-Sim text, whose L2 side has too little to take.
  return text_import ? 1 : 2;
}

}  // namespace gms
