#include "trace/native/synthetic.h"

#include <array>
#include <bit>
#include <random>
#include <string>
#include <vector>

namespace gms::trace {

namespace {

constexpr std::uint32_t kWarpsPerCta = 8;  // 256 threads
constexpr std::uint32_t kSmCount = 132;

void fill_unit_stride(WarpInstr& r, std::uint64_t i) {
  std::uint64_t warp_global = i / 2;  // each warp does one load and one store
  bool store = i % 2 == 1;
  r = WarpInstr{};
  r.inst = store ? 1 : 0;
  r.op = store ? Op::STG : Op::LDG;
  r.size = 4;
  r.cta = static_cast<std::uint32_t>(warp_global / kWarpsPerCta);
  r.warp = static_cast<std::uint32_t>(warp_global % kWarpsPerCta);
  r.sm = r.cta % kSmCount;
  r.mask = 0xffffffffu;
  r.strided = true;
  r.stride = 4;
  Addr base = (store ? 0x7f0040000000ull : 0x7f0000000000ull) + warp_global * 128;
  for (unsigned lane = 0; lane < 32; ++lane) r.addr[lane] = base + lane * 4;
}

void fill_random(WarpInstr& r, std::uint64_t i, std::mt19937_64& rng) {
  std::uint64_t bits = rng();
  r = WarpInstr{};
  r.inst = static_cast<std::uint32_t>(bits & 7);
  r.op = (bits >> 3) % 4 == 0 ? Op::STG : Op::LDG;
  r.size = 8;
  std::uint64_t warp_global = i / 4;
  r.cta = static_cast<std::uint32_t>(warp_global / kWarpsPerCta);
  r.warp = static_cast<std::uint32_t>(warp_global % kWarpsPerCta);
  r.sm = (bits >> 5) % 8 == 0 ? kUnknownSm : r.cta % kSmCount;
  r.mask = (bits >> 8) % 4 == 0 ? static_cast<LaneMask>(rng()) | 1u : 0xffffffffu;
  for (LaneMask m = r.mask; m != 0; m &= m - 1)
    r.addr[std::countr_zero(m)] = 0x7f0000000000ull + (rng() & ((1ull << 30) - 8));
}

}  // namespace

void write_synthetic_kernel(TraceWriter& w, SyntheticPattern pattern, std::uint64_t records,
                            std::uint32_t kernel_id, std::uint64_t seed) {
  KernelInfo k;
  k.id = kernel_id;
  k.name = pattern == SyntheticPattern::UnitStride ? "copy" : "gather";
  std::uint64_t ctas = (records + 2 * kWarpsPerCta - 1) / (2 * kWarpsPerCta);
  k.grid = Dim3{static_cast<std::uint32_t>(ctas), 1, 1};
  k.block = Dim3{kWarpsPerCta * 32, 1, 1};
  k.arch = "sm_90";
  w.begin_kernel(k);
  std::mt19937_64 rng(seed);
  std::vector<WarpInstr> batch(1024);
  for (std::uint64_t done = 0; done < records;) {
    std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(batch.size(), records - done));
    for (std::size_t j = 0; j < n; ++j) {
      if (pattern == SyntheticPattern::UnitStride)
        fill_unit_stride(batch[j], done + j);
      else
        fill_random(batch[j], done + j, rng);
    }
    w.write(std::span<const WarpInstr>(batch.data(), n));
    done += n;
  }
}

}  // namespace gms::trace
