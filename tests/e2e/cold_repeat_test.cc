// A cold-only replay charges repeated strided shapes to their rows in bulk (the memo's pending
// repeats); a cold+cached replay charges every record as it comes. Both must agree exactly.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>

#include "sim/simulator.h"
#include "tests/cli/cli_runner.h"

namespace gms {
namespace {

std::vector<KernelStats> run(const std::string& path, SimMode mode) {
  const SimConfig cfg = load_config({});
  RunOptions opts;
  opts.mode = mode;
  return simulate(std::vector<std::string>{path}, cfg, opts);
}

/// 140 instructions (rows 64 apart share a memo slot), loads, stores and atomics, shapes that
/// repeat, shift by whole lines, change offset or stride, interleaved list records, 3 kernels.
std::string repeat_trace() {
  std::string body = "#wtrace 1\n";
  const char* ops[] = {"LDG", "STG", "ATOMG", "LDL"};
  for (int k = 0; k < 3; ++k) {
    body += fmt::format("#kernel id={} name=k{} grid=64,1,1 block=128,1,1\n", k, k);
    for (int rep = 0; rep < 12; ++rep)
      for (int inst = 0; inst < 140; ++inst) {
        const std::uint64_t base = 0x100000 + std::uint64_t(inst) * 65536 + rep * 128 +
                                   (rep % 5 == 4 ? 4 : 0) + (inst % 7 == 3 ? 96 : 0);
        const int stride = rep % 6 == 5 ? 8 : 4 * (1 + inst % 3);
        const char* mask = inst % 11 == 0 ? "0000ffff" : "ffffffff";
        const int sm = (inst + rep) % 5;
        if (inst % 13 == 6 && rep % 2 == 1) {  // a list record of the same instruction
          body += fmt::format("{} {} 4 {} {} 0 00000003 0x{:x},0x{:x}\n", inst, ops[inst % 4], sm,
                              rep, base, base + 4096);
          continue;
        }
        body += fmt::format("{} {} 4 {} {} 0 {} @0x{:x}:{}\n", inst, ops[inst % 4], sm, rep, mask,
                            base, stride);
      }
  }
  return body;
}

TEST(ColdRepeatTest, ColdOnlyAgreesWithTheColdHalfOfBoth) {
  test::TempDir dir;
  const std::string path = dir.file("repeat.wtrace");
  std::ofstream(path) << repeat_trace();
  const auto cold = run(path, SimMode::Cold);
  const auto both = run(path, SimMode::Both);
  ASSERT_EQ(cold.size(), 3u);
  ASSERT_EQ(both.size(), 6u);
  for (std::size_t k = 0; k < cold.size(); ++k) {
    const KernelStats& a = cold[k];
    const KernelStats& b = both[2 * k];  // each kernel's cold result comes first
    ASSERT_EQ(b.mode, "cold");
    EXPECT_EQ(a.records, b.records);
    ASSERT_EQ(a.instructions.size(), b.instructions.size());
    for (std::size_t r = 0; r < a.instructions.size(); ++r)
      EXPECT_EQ(a.instructions[r].c, b.instructions[r].c) << "kernel " << k << " row " << r;
    EXPECT_EQ(a.totals, b.totals);
    EXPECT_EQ(a.traffic.load_requests, b.traffic.load_requests);
    EXPECT_EQ(a.time.estimate_ns, b.time.estimate_ns);
    EXPECT_EQ(a.time.dram_ns, b.time.dram_ns);
  }
}

}  // namespace
}  // namespace gms
