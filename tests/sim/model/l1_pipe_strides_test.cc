// The L1 pipeline rules (sim/model/l1_pipe.h) against the Nsight Compute counters that
// gpu-benches' gpu-strides files list per load (tests/fidelity/data/strides_*.txt): the
// benchmark's warps rebuilt (thread t reads A[(t % 64) x stride + 4k], k = 0..7, so warp w's lane
// l is thread 32w + l), their costs averaged over the two warps and eight loads of a trip. The
// data stage must give every l1tex__data_pipe_lsu_wavefronts figure; the tag stage's mean error
// against l1tex__t_output_wavefronts is printed, and held under the figure README and
// docs/hardware.md quote.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "sim/model/l1_pipe.h"
#include "tests/sim/warp_builder.h"

namespace gms {
namespace {

/// The mean relative error (%) of the tag stage over the file's points; fails on any data-stage
/// figure the rule misses.
double tag_error_percent(const std::string& name) {
  std::ifstream in(std::string(GMS_SOURCE_DIR) + "/tests/fidelity/data/" + name);
  EXPECT_TRUE(in) << name;
  double error = 0;
  int points = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream row(line);
    unsigned elem = 0, stride = 0;
    double cycles = 0, data_pipe = 0, t_output = 0;
    row >> elem >> stride >> cycles >> data_pipe >> t_output;
    double data = 0, tag = 0;
    for (unsigned k = 0; k < 8; ++k)
      for (unsigned w = 0; w < 2; ++w) {
        const Addr base = (Addr{32} * w * stride + 4 * k) * elem;
        const L1PipeCost c = l1_pipe_cost(
            test::strided(Op::LDG, elem, base, static_cast<std::int64_t>(stride) * elem));
        data += c.data_wavefronts / 16.0;
        tag += c.tag_lookups / 4.0 / 16.0;
      }
    EXPECT_NEAR(data, data_pipe, 0.005) << name << ": " << elem << "-byte loads, stride " << stride;
    error += std::abs(tag - t_output) / t_output;
    ++points;
  }
  EXPECT_GT(points, 30) << name;
  const double percent = 100 * error / points;
  std::cout << name << ": tag stage against l1tex__t_output_wavefronts, mean error " << percent
            << "% over " << points << " points\n";
  return percent;
}

TEST(L1PipeStridesTest, DataStageGivesEveryPublishedFigureTagStageWithinItsBound) {
  EXPECT_LT(tag_error_percent("strides_a100.txt"), 14.0);
  EXPECT_LT(tag_error_percent("strides_h200.txt"), 4.5);
}

}  // namespace
}  // namespace gms
