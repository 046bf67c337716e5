#pragma once
/// A trace reader for tests of what reads one (trace::ReadAhead, the fast engine's batches).

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "trace/io/reader.h"

namespace gms::test {

/// Kernels 1..kernels, kernel k holding k x 1000 records whose inst is their index; throws
/// std::runtime_error("bad record N") when record N of the whole trace would be read.
class FakeReader : public trace::TraceReader {
 public:
  FakeReader(std::uint32_t kernels, std::uint64_t throw_at = ~std::uint64_t{0})
      : kernels_(kernels), throw_at_(throw_at) {}
  bool next_kernel(KernelInfo& out) override {
    if (kernel_ == kernels_) return false;
    global_ += kernel_ * 1000ull;  // the previous kernel's records, read or skipped
    ++kernel_;
    left_ = kernel_ * 1000ull;
    next_ = 0;
    out = KernelInfo{};
    out.id = kernel_;
    return true;
  }
  std::size_t read(std::span<WarpInstr> out) override {
    std::size_t n = 0;
    for (; n < out.size() && left_ > 0; ++n, --left_) {
      if (global_ + next_ == throw_at_)
        throw std::runtime_error("bad record " + std::to_string(throw_at_));
      out[n] = WarpInstr{};
      out[n].inst = static_cast<std::uint32_t>(next_++);
      out[n].mask = 1;
    }
    return n;
  }
  const std::string& source_name() const override { return name_; }

 private:
  std::uint32_t kernels_, kernel_ = 0;
  std::uint64_t throw_at_, global_ = 0, left_ = 0, next_ = 0;
  std::string name_ = "fake";
};

}  // namespace gms::test
