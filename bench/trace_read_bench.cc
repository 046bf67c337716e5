// Trace reading speed: zstd text (.wtrace.zst) against the native binary format (.gmt).
// A fixed-seed synthetic trace of 1M records per pattern is written once to temp files; each
// benchmark reads a whole file in batches of 1024 and reports records per second and the
// file's bytes per record.
#include <benchmark/benchmark.h>

#include <unistd.h>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "trace/import/formats.h"
#include "trace/native/synthetic.h"

namespace {

using gms::trace::SyntheticPattern;

constexpr std::uint64_t kRecords = 1'000'000;

/// The generated files, removed at exit.
class BenchFiles {
 public:
  ~BenchFiles() {
    for (auto& [key, path] : paths_) std::filesystem::remove(path);
  }
  const std::string& get(SyntheticPattern pattern, const std::string& ext) {
    std::string key = std::to_string(static_cast<int>(pattern)) + ext;
    auto it = paths_.find(key);
    if (it != paths_.end()) return it->second;
    std::string path = (std::filesystem::temp_directory_path() /
                        ("gms_trace_bench_" + std::to_string(::getpid()) + "_" + key))
                           .string();
    auto w = gms::trace::open_trace_writer(path);
    gms::trace::write_synthetic_kernel(*w, pattern, kRecords, 1, 42);
    w->finish();
    return paths_.emplace(key, path).first->second;
  }

 private:
  std::map<std::string, std::string> paths_;
};

BenchFiles& files() {
  static BenchFiles f;
  return f;
}

void read_trace(benchmark::State& state, SyntheticPattern pattern, const std::string& ext) {
  const std::string& path = files().get(pattern, ext);
  std::vector<gms::WarpInstr> batch(1024);
  std::uint64_t records = 0;
  for (auto _ : state) {
    auto reader = gms::trace::open_trace_reader(path);
    gms::KernelInfo k;
    while (reader->next_kernel(k)) {
      while (std::size_t n = reader->read(batch)) {
        records += n;
        benchmark::DoNotOptimize(batch[n - 1].addr[0]);
      }
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(records));
  state.counters["bytes_per_record"] =
      static_cast<double>(std::filesystem::file_size(path)) / static_cast<double>(kRecords);
}

void BM_ReadTextZstUnitStride(benchmark::State& s) {
  read_trace(s, SyntheticPattern::UnitStride, ".wtrace.zst");
}
void BM_ReadGmtUnitStride(benchmark::State& s) {
  read_trace(s, SyntheticPattern::UnitStride, ".gmt");
}
void BM_ReadTextZstRandom(benchmark::State& s) {
  read_trace(s, SyntheticPattern::Random, ".wtrace.zst");
}
void BM_ReadGmtRandom(benchmark::State& s) {
  read_trace(s, SyntheticPattern::Random, ".gmt");
}

BENCHMARK(BM_ReadTextZstUnitStride)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReadGmtUnitStride)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReadTextZstRandom)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReadGmtRandom)->Unit(benchmark::kMillisecond);

}  // namespace
