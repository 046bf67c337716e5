#pragma once
/// Building blocks shared by the pattern families: a reusable record batch, the choice between
/// the strided and the list form of a record, kernel lines and launch shapes.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/core/records.h"
#include "tools/gen/params.h"
#include "trace/io/writer.h"

namespace gms::gen::detail {

/// A fixed-capacity buffer of records handed to the writer in batches, so the emit loops never
/// allocate per record. Call flush() after the kernel's last record (no flush in the destructor:
/// a writer may throw). 256 records (76 KB) by default: the writer encodes them while they are
/// still in the core's L2 cache (4,096, 1.2 MB, went out to the L3 and back: `bench/gen_speed.sh`
/// timed the pointer chase and the random pattern 11-14% faster with 256).
class RecordBatch {
 public:
  explicit RecordBatch(trace::TraceWriter& writer, std::size_t capacity = 256);

  /// The next record slot, reset to WarpInstr{}; flushes first when the buffer is full.
  WarpInstr& add();

  /// Hands the buffered records to the writer.
  void flush();

 private:
  trace::TraceWriter& writer_;
  std::vector<WarpInstr> buf_;
  std::size_t size_ = 0;
};

/// splitmix64: a tiny generator whose sequence is the same on every platform and library.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, bound) by the multiply-high method (no division).
  std::uint64_t below(std::uint64_t bound) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * bound) >> 64);
  }

 private:
  std::uint64_t state_;
};

/// Sets `r.strided`/`r.stride` from the addresses of its active lanes: strided when they are
/// BASE + lane * STRIDE with BASE >= 0 (one active lane: STRIDE 0), the list form otherwise.
/// Inactive lanes must hold 0. This is the one rule the generator and tests/data files follow.
void choose_form(WarpInstr& r);

/// Grid and block of a launch whose warps are numbered linearly across CTAs.
struct LaunchShape {
  std::uint32_t ctas = 1;           ///< grid.x
  std::uint32_t warps_per_cta = 1;  ///< block.x / 32
};

/// The shape of `p.warps` warps: `p.block` threads per CTA when given (it must divide the warps
/// evenly), else gcd(warps, 8) warps per CTA. Throws SimError on an impossible combination.
LaunchShape shape_for_warps(const GenParams& p);

/// A `#kernel` line: typed fields plus the same keys, in line order, in `params`.
KernelInfo make_kernel(std::uint32_t id, std::string_view name, Dim3 grid, Dim3 block,
                       std::uint64_t shmem_bytes, std::uint64_t flops);

/// Emits one kernel of `p.warps` warps, `insts` records per warp (inst 0..insts-1, in that
/// order inside each warp). `addr_of(warp, lane, inst)` gives the address of an active lane.
template <class AddrFn>
void emit_lanes(trace::TraceWriter& w, const KernelInfo& kernel, const LaunchShape& shape,
                const GenParams& p, std::uint32_t insts, Op op, LaneMask mask, AddrFn addr_of) {
  w.begin_kernel(kernel);
  RecordBatch batch(w);
  for (std::uint64_t warp = 0; warp < p.warps; ++warp) {
    for (std::uint32_t inst = 0; inst < insts; ++inst) {
      WarpInstr& r = batch.add();
      r.inst = inst;
      r.op = op;
      r.size = static_cast<std::uint8_t>(p.elem_bytes);
      r.cta = static_cast<std::uint32_t>(warp / shape.warps_per_cta);
      r.warp = static_cast<std::uint32_t>(warp % shape.warps_per_cta);
      r.mask = mask;
      for (int lane = 0; lane < kWarpSize; ++lane)
        if (mask & (1u << lane))
          r.addr[lane] = addr_of(warp, static_cast<std::uint32_t>(lane), inst);
      choose_form(r);
    }
  }
  batch.flush();
}

}  // namespace gms::gen::detail
