#pragma once
/// Test doubles of TraceWriter for the generator tests.

#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/core/records.h"
#include "trace/io/writer.h"

namespace gms::test {

/// Keeps every kernel and record it is given; `records[i]` belongs to `kernels[i]`.
class CollectingWriter : public trace::TraceWriter {
 public:
  std::vector<KernelInfo> kernels;
  std::vector<std::vector<WarpInstr>> records;
  int write_calls = 0;
  bool finished = false;

  void begin_kernel(const KernelInfo& k) override {
    kernels.push_back(k);
    records.emplace_back();
  }
  void write(std::span<const WarpInstr> batch) override {
    ++write_calls;
    records.back().insert(records.back().end(), batch.begin(), batch.end());
  }
  void finish() override { finished = true; }

  /// Every record of every kernel, in order.
  std::vector<WarpInstr> all() const {
    std::vector<WarpInstr> out;
    for (const auto& k : records) out.insert(out.end(), k.begin(), k.end());
    return out;
  }
};

/// Counts kernels, records and active lanes per op without keeping records.
class CountingWriter : public trace::TraceWriter {
 public:
  std::uint64_t kernels = 0, records = 0;
  std::uint64_t lanes[kOpCount] = {};  ///< active lanes summed per Op

  void begin_kernel(const KernelInfo&) override { ++kernels; }
  void write(std::span<const WarpInstr> batch) override {
    records += batch.size();
    for (const WarpInstr& r : batch)
      lanes[static_cast<int>(r.op)] += static_cast<std::uint64_t>(std::popcount(r.mask));
  }
  void finish() override {}
};

}  // namespace gms::test
