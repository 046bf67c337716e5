#pragma once
/// The Python module's trace builder (python/module.cc binds it): kernels and records held in
/// memory, checked as the wtrace reader checks them, replayed through a TraceReader over the
/// same records, or saved in any of our formats through trace::open_trace_writer.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/records.h"
#include "trace/io/reader.h"

namespace gms::python {

class TraceBuilder {
 public:
  /// Starts a kernel: `line` is a `#kernel` line's key=value text (id=... name=... ...), parsed
  /// by the wtrace reader's own parser. A duplicate id is an error.
  void kernel(const std::string& line);

  /// One record; `addrs` holds the active lanes' addresses in lane order (popcount(mask) of
  /// them, as in a wtrace line) or one per lane (32, inactive lanes ignored). Throws SimError
  /// naming the record (kernel id and index) on a bad op, size, mask or address count, or when
  /// no kernel was started. `instrs_before`, `waits_for_load`: the warp's instructions before it
  /// that are not records and the load whose data it uses (WarpInstr's; wtrace's +N and ^K).
  void add(std::uint32_t inst, const std::string& op, unsigned size, std::uint32_t cta,
           std::uint32_t warp, std::uint32_t mask, std::span<const Addr> addrs, std::uint32_t sm,
           std::uint32_t instrs_before = 0, std::uint32_t waits_for_load = 0);

  /// Names a block of device memory, before the next kernel (a wtrace `#alloc` line): what the
  /// layout what-ifs group accesses by. Throws on 0 bytes, a block past 2^64, or a name with
  /// blanks or '='.
  void alloc(Addr base, std::uint64_t bytes, const std::string& name);

  std::size_t kernels() const { return kernels_.size(); }
  std::size_t allocations() const { return allocations_.size(); }
  std::size_t records() const;

  /// Writes the trace: the format from the extension (.wtrace, .wtrace.zst, .gmt), to a
  /// temporary name renamed at the end, so an error leaves no partial file.
  void save(const std::string& path) const;

  /// A reader over a copy-free view of the records (the builder must outlive it).
  std::unique_ptr<trace::TraceReader> reader() const;

  struct Kernel {
    KernelInfo info;
    std::vector<WarpInstr> records;
  };
  struct Named {
    Allocation allocation;
    std::size_t before;  ///< the kernels added before it
  };

 private:
  std::vector<Kernel> kernels_;
  std::vector<Named> allocations_;
};

}  // namespace gms::python
