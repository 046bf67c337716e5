// gpumemsim info: summarise a trace without simulating it.
#include <fmt/format.h>

#include <array>
#include <bit>
#include <string>
#include <vector>

#include "sim/error.h"
#include "tools/cli/commands.h"
#include "tools/cli/options.h"
#include "trace/formats.h"

namespace gms::cli {

int cmd_info(const std::vector<std::string>& args) {
  po::options_description visible("options");
  po::variables_map vm;
  const std::vector<std::string> traces = parse_trace_args(
      args, "info",
      "usage: gpumemsim info TRACE...\n"
      "Lists each trace's kernels with their records per operation, active threads\n"
      "and whether SM ids are known.",
      visible, vm);
  if (traces.empty()) return 0;

  std::string text;
  std::vector<WarpInstr> batch(4096);
  for (const std::string& path : traces) {
    auto reader = trace::open_trace_reader(path);
    text += fmt::format("{}\n", path);
    KernelInfo k;
    while (reader->next_kernel(k)) {
      std::array<std::uint64_t, kOpCount> per_op{};
      std::uint64_t records = 0, threads = 0, with_sm = 0;
      while (const std::size_t n = reader->read(batch)) {
        for (std::size_t i = 0; i < n; ++i) {
          ++per_op[static_cast<int>(batch[i].op)];
          threads += static_cast<std::uint64_t>(std::popcount(batch[i].mask));
          with_sm += batch[i].sm != kUnknownSm;
        }
        records += n;
      }
      text += fmt::format("  kernel {} {}: grid {},{},{} block {},{},{} shmem {} B\n", k.id,
                          k.name.empty() ? "-" : k.name, k.grid.x, k.grid.y, k.grid.z, k.block.x,
                          k.block.y, k.block.z, k.shmem_bytes);
      text +=
          fmt::format("    {} warp instructions, {} active threads, SM ids {}\n", records, threads,
                      with_sm == records ? "known"
                      : with_sm == 0     ? "unknown"
                                         : "partial");
      for (int op = 0; op < kOpCount; ++op)
        if (per_op[op] != 0)
          text += fmt::format("    {:<6}{:>14}\n", op_name(static_cast<Op>(op)), per_op[op]);
    }
  }
  write_output("-", text);
  return 0;
}

}  // namespace gms::cli
