#include "python/trace_builder.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <bit>
#include <filesystem>

#include "sim/core/error.h"
#include "trace/import/formats.h"
#include "trace/native/text_parse.h"

namespace gms::python {

namespace {

/// Replays a builder's kernels in order, and hands on its allocations as a wtrace file of it
/// would (those named before each kernel).
class BuilderReader final : public trace::TraceReader {
 public:
  BuilderReader(const std::vector<TraceBuilder::Kernel>& kernels,
                const std::vector<TraceBuilder::Named>& named)
      : kernels_(kernels), named_(named) {}

  bool next_kernel(KernelInfo& out) override {
    if (next_ >= kernels_.size()) {
      take_allocations(named_.size());
      return false;
    }
    current_ = &kernels_[next_++];
    pos_ = 0;
    out = current_->info;
    std::size_t n = 0;
    while (n < named_.size() && named_[n].before < next_) ++n;
    take_allocations(n);
    return true;
  }
  std::span<const Allocation> allocations() const override { return allocations_; }

  std::size_t read(std::span<WarpInstr> out) override {
    if (current_ == nullptr) return 0;
    const std::size_t n = std::min(out.size(), current_->records.size() - pos_);
    std::copy_n(current_->records.begin() + static_cast<std::ptrdiff_t>(pos_), n, out.begin());
    pos_ += n;
    return n;
  }

  const std::string& source_name() const override { return name_; }
  bool decodes_cheaply() override { return true; }  // a copy: no second thread

 private:
  void take_allocations(std::size_t n) {
    for (std::size_t i = allocations_.size(); i < n; ++i)
      allocations_.push_back(named_[i].allocation);
  }

  const std::vector<TraceBuilder::Kernel>& kernels_;
  const std::vector<TraceBuilder::Named>& named_;
  std::vector<Allocation> allocations_;  // named_'s, up to the current kernel
  const TraceBuilder::Kernel* current_ = nullptr;
  std::size_t next_ = 0, pos_ = 0;
  const std::string name_ = "TraceBuilder";
};

}  // namespace

void TraceBuilder::kernel(const std::string& line) {
  const std::string origin = "TraceBuilder.kernel()";
  Kernel k;
  trace::detail::parse_kernel_line("#kernel " + line, {origin, kernels_.size() + 1}, k.info);
  for (const Kernel& other : kernels_)
    if (other.info.id == k.info.id) fail("{}: duplicate kernel id {}", origin, k.info.id);
  kernels_.push_back(std::move(k));
}

void TraceBuilder::add(std::uint32_t inst, const std::string& op, unsigned size, std::uint32_t cta,
                       std::uint32_t warp, std::uint32_t mask, std::span<const Addr> addrs,
                       std::uint32_t sm, std::uint32_t instrs_before,
                       std::uint32_t waits_for_load) {
  if (kernels_.empty())
    fail("TraceBuilder.add(): a record before any kernel() (call kernel first)");
  Kernel& k = kernels_.back();
  const auto where = [&] {
    return fmt::format("TraceBuilder.add(): kernel {} record {}", k.info.id, k.records.size());
  };
  WarpInstr w;
  w.inst = inst;
  const auto parsed = parse_op(op);
  if (!parsed) fail("{}: unknown op '{}'", where(), op);
  w.op = *parsed;
  if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16)
    fail("{}: bad access size {} (must be 1, 2, 4, 8 or 16)", where(), size);
  w.size = static_cast<std::uint8_t>(size);
  if (mask == 0) fail("{}: mask is 00000000 (a record needs at least one active lane)", where());
  w.mask = mask;
  w.cta = cta;
  w.warp = warp;
  w.sm = sm;
  w.instrs_before = instrs_before;
  w.waits_for_load = waits_for_load;
  const auto active = static_cast<std::size_t>(std::popcount(mask));
  if (addrs.size() == static_cast<std::size_t>(kWarpSize)) {
    for (int i = 0; i < kWarpSize; ++i) w.addr[i] = (mask >> i & 1) ? addrs[i] : 0;
  } else if (addrs.size() == active) {
    std::size_t next = 0;
    for (int i = 0; i < kWarpSize; ++i)
      if (mask >> i & 1) w.addr[i] = addrs[next++];
  } else {
    fail("{}: {} addresses, but mask {:08x} has {} active lanes (give those, or 32)", where(),
         addrs.size(), mask, active);
  }
  k.records.push_back(w);
}

void TraceBuilder::alloc(Addr base, std::uint64_t bytes, const std::string& name) {
  if (bytes == 0 || bytes - 1 > ~base)
    fail("TraceBuilder.alloc(): block 0x{:x} + {} bytes (at least 1 byte, within 64 bits)", base,
         bytes);
  if (name.find_first_of(" \t\r\n=") != std::string::npos)
    fail("TraceBuilder.alloc(): name '{}' has a blank or '=' (a wtrace #alloc value cannot)", name);
  allocations_.push_back({{base, bytes, name}, kernels_.size()});
}

std::size_t TraceBuilder::records() const {
  std::size_t n = 0;
  for (const Kernel& k : kernels_) n += k.records.size();
  return n;
}

void TraceBuilder::save(const std::string& path) const {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path tmp = target.parent_path() / (".partial-" + target.filename().string());
  try {
    auto writer = trace::open_trace_writer(tmp.string());
    std::size_t named = 0, lost = 0;
    const auto write_allocations = [&](std::size_t before) {
      for (; named < allocations_.size() && allocations_[named].before <= before; ++named)
        lost += !writer->add_allocation(allocations_[named].allocation);
    };
    for (std::size_t i = 0; i < kernels_.size(); ++i) {
      write_allocations(i);
      writer->begin_kernel(kernels_[i].info);
      writer->write(kernels_[i].records);
    }
    write_allocations(kernels_.size());
    writer->finish();
    if (lost != 0)  // as `gpumemsim convert` says it
      spdlog::warn(
          "{}: {} allocation{} left out (.gmt has no allocation record; wtrace keeps them)", path,
          lost, lost == 1 ? "" : "s");
  } catch (...) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw;
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) fail("{}: cannot write ({})", path, ec.message());
}

std::unique_ptr<trace::TraceReader> TraceBuilder::reader() const {
  return std::make_unique<BuilderReader>(kernels_, allocations_);
}

}  // namespace gms::python
