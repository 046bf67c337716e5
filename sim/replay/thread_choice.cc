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
  if (opts.mode == SimMode::Cold) {
    // Workers deal the blocks of plain .gmt files; any other trace one would replay alone.
    const bool dealt =
        !traces.empty() && std::all_of(traces.begin(), traces.end(), [](const std::string& path) {
          return trace::plain_gmt_file(path);
        });
    if (dealt) return most;
    // An Accel-Sim text parses its blocks on a second thread (trace::accelsim_text_file).
    const bool parsed_beside =
        !traces.empty() && std::all_of(traces.begin(), traces.end(), [](const std::string& path) {
          return trace::accelsim_text_file(path);
        });
    return parsed_beside ? 2 : 1;
  }
  return 2;  // the pipeline
}

}  // namespace gms
