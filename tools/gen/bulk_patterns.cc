// Large traces for benchmarks: millions of records emitted in batches, no allocation per record.
#include <array>

#include "sim/core/error.h"
#include "tools/gen/emit.h"
#include "tools/gen/families.h"

namespace gms::gen::detail {
namespace {

constexpr std::uint64_t kWarpsPerCta = 8;  // 256-thread CTAs
constexpr std::uint64_t kStreamFootprint = std::uint64_t{256} << 20;
constexpr std::uint64_t kRandomFootprint = std::uint64_t{1} << 30;
constexpr std::uint64_t kSector = 32;

/// The sectors of one warp: a 64-slot open-addressing set, cleared per record.
constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
using SectorSet = std::array<std::uint64_t, 2 * kWarpSize>;

/// Adds `sector` to `set`; false when it is already there.
bool insert_sector(SectorSet& set, std::uint64_t sector) {
  std::size_t slot = (sector * 0x9e3779b97f4a7c15ull) >> 58;  // top 6 bits: 0..63
  while (set[slot] != kEmpty) {
    if (set[slot] == sector) return false;
    slot = (slot + 1) % set.size();
  }
  set[slot] = sector;
  return true;
}

KernelInfo bulk_kernel(const GenParams& p, std::string_view name, std::uint64_t warps) {
  const std::uint64_t ctas = (warps + kWarpsPerCta - 1) / kWarpsPerCta;
  return make_kernel(p.kernel_id, name, {static_cast<std::uint32_t>(ctas), 1, 1},
                     {kWarpsPerCta * kWarpSize, 1, 1}, 0, 0);
}

void place(WarpInstr& r, std::uint64_t warp) {
  r.cta = static_cast<std::uint32_t>(warp / kWarpsPerCta);
  r.warp = static_cast<std::uint32_t>(warp % kWarpsPerCta);
}

void check_records(const GenParams& p) {
  if (p.records == 0) fail("--records must be at least 1");
  if (p.records / kWarpsPerCta >= 0xffffffffull) fail("--records {} is too many", p.records);
}

std::uint64_t stream_footprint(const GenParams& p) {
  return p.footprint != 0 ? p.footprint : kStreamFootprint;
}

}  // namespace

void validate_stream(const GenParams& p) {
  check_records(p);
  const std::uint64_t warp_bytes = kWarpSize * p.elem_bytes;
  if (stream_footprint(p) % warp_bytes != 0)
    fail("--footprint {} must be a positive multiple of {} bytes (one warp)", stream_footprint(p),
         warp_bytes);
}

namespace {

/// The stream; `lists`: its addresses written as lists, as NVBit captures are, not strided.
void write_stream(const GenParams& p, trace::TraceWriter& w, bool lists) {
  // Warp i loads src[32i .. 32i+31] (inst 0), then stores them to dst (inst 1); the walk wraps
  // around the footprint. Records alternate LDG, STG.
  const std::uint64_t footprint = stream_footprint(p);
  const std::uint64_t warp_bytes = kWarpSize * p.elem_bytes;
  const std::uint64_t warps = (p.records + 1) / 2;
  w.begin_kernel(bulk_kernel(p, lists ? "stream_lists" : "stream", warps));
  RecordBatch batch(w);
  for (std::uint64_t i = 0; i < p.records; ++i) {
    const std::uint64_t warp = i / 2;
    const bool store = i % 2 == 1;
    WarpInstr& r = batch.add();
    r.inst = store ? 1 : 0;
    r.op = store ? Op::STG : Op::LDG;
    r.size = static_cast<std::uint8_t>(p.elem_bytes);
    place(r, warp);
    r.mask = ~LaneMask{0};
    r.strided = !lists;
    r.stride = lists ? 0 : p.elem_bytes;
    const Addr first = p.base + (store ? footprint : 0) + (warp * warp_bytes) % footprint;
    for (int l = 0; l < kWarpSize; ++l) r.addr[l] = first + Addr{p.elem_bytes} * l;
  }
  batch.flush();
}

}  // namespace

void emit_stream(const GenParams& p, trace::TraceWriter& w) {
  write_stream(p, w, /*lists=*/false);
}

void validate_stream_lists(const GenParams& p) {
  validate_stream(p);
}
void emit_stream_lists(const GenParams& p, trace::TraceWriter& w) {
  write_stream(p, w, /*lists=*/true);
}

void validate_random(const GenParams& p) {
  check_records(p);
  const std::uint64_t footprint = p.footprint != 0 ? p.footprint : kRandomFootprint;
  if (footprint / kSector < kWarpSize)
    fail("--footprint {} must hold at least 32 sectors of 32 bytes", footprint);
}
void emit_random(const GenParams& p, trace::TraceWriter& w) {
  // Every lane loads 4 bytes at the start of its own sector; the 32 sectors of a warp differ.
  const std::uint64_t sectors = (p.footprint != 0 ? p.footprint : kRandomFootprint) / kSector;
  SplitMix64 rng(p.seed);
  SectorSet seen;
  w.begin_kernel(bulk_kernel(p, "random", p.records));
  RecordBatch batch(w);
  for (std::uint64_t warp = 0; warp < p.records; ++warp) {
    WarpInstr& r = batch.add();
    r.op = Op::LDG;
    r.size = 4;
    place(r, warp);
    r.mask = ~LaneMask{0};
    seen.fill(kEmpty);
    for (int l = 0; l < kWarpSize; ++l) {
      std::uint64_t sector = 0;
      do sector = rng.below(sectors);
      while (!insert_sector(seen, sector));
      r.addr[l] = p.base + sector * kSector;
    }
    choose_form(r);
  }
  batch.flush();
}

}  // namespace gms::gen::detail
