#include "sim/replay/thread_choice.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <thread>

#include "sim/replay/fast_engine.h"
#include "trace/import/formats.h"

namespace gms {

namespace {

/// Distinct 32-byte sectors that the active lanes of `w` start in.
unsigned distinct_sectors(const WarpInstr& w) {
  std::array<Addr, kWarpSize> sectors;
  unsigned n = 0;
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    if (w.mask >> lane & 1u) sectors[n++] = w.addr[lane] >> 5;
  std::sort(sectors.begin(), sectors.begin() + n);
  return static_cast<unsigned>(std::unique(sectors.begin(), sectors.begin() + n) - sectors.begin());
}

}  // namespace

TraceSample sample_trace(const std::vector<std::string>& traces, const RunOptions& opts) {
  TraceSample sample;
  if (traces.empty() || traces[0] == "-") return sample;
  // Quiet: the replay reads the same file and logs its warnings once.
  RunOptions quiet = opts;
  quiet.import.quiet = true;
  auto reader = open_run_trace(traces[0], quiet);
  std::vector<WarpInstr> batch(256);
  std::uint64_t sectors = 0;
  std::size_t read = 0;  // records read, shared-memory ones included: the bound on the work
  KernelInfo kernel;
  for (std::size_t kernels = 0;
       kernels < kSampleKernels && read < kSampleRecords && reader->next_kernel(kernel); ++kernels)
    while (read < kSampleRecords) {
      const std::size_t n = reader->read(batch);
      if (n == 0) break;
      for (std::size_t i = 0; i < n && read < kSampleRecords; ++i, ++read) {
        if (is_shared(batch[i].op)) continue;
        ++sample.records;
        sectors += distinct_sectors(batch[i]);
      }
    }
  if (sample.records != 0)
    sample.sectors_per_record = static_cast<double>(sectors) / static_cast<double>(sample.records);
  return sample;
}

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
    return dealt ? most : 1;
  }
  if (most == 2) return 2;  // the pipeline: no sample needed
  const TraceSample sample = sample_trace(traces, opts);
  const unsigned threads = sample.sectors_per_record >= kScatteredSectors ? most : 2;
  spdlog::debug("replay threads: {} ({} sectors per record over the first {} global records)",
                threads, sample.sectors_per_record, sample.records);
  return threads;
}

}  // namespace gms
