#pragma once
// Random wtrace text and random configurations for tests that compare two ways of replaying
// the same trace (tests/e2e/engine_differential_test.cc). A seed fixes everything, so a failing
// seed can be replayed alone.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace gms::test {

/// Random choices from a seed. std::mt19937_64's sequence is specified by the standard (its
/// distributions are not, so none is used): a seed gives the same trace everywhere.
class TestRng {
 public:
  explicit TestRng(std::uint64_t seed) : engine_(seed) {}
  std::uint64_t next() { return engine_(); }
  /// Uniform in [0, n) (n > 0; the bias of a modulo is of no matter here).
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  bool chance(unsigned percent) { return below(100) < percent; }
  template <class T, std::size_t N>
  const T& pick(const T (&items)[N]) {
    return items[below(N)];
  }

 private:
  std::mt19937_64 engine_;
};

namespace detail {

/// One static instruction of a random kernel: how its records' addresses are drawn.
struct RandomInst {
  std::uint32_t id = 0;
  const char* op = "LDG";
  unsigned size = 4;
  int form = 0;  ///< see random_record
  std::int64_t stride = 4;
  std::uint64_t region = 0;  ///< where its addresses lie
  std::uint64_t offset = 0;  ///< inside the first line
  int mask_style = 0;
};

template <class Rng>
std::uint32_t random_mask(Rng& r, int style) {
  switch (style) {
    case 0:
      return 0xffffffffu;
    case 1:
      return 0x0000ffffu;
    case 2:  // one lane
      return 1u << r.below(32);
    case 3:  // a contiguous run
    {
      const unsigned lo = static_cast<unsigned>(r.below(32));
      const unsigned n = 1 + static_cast<unsigned>(r.below(32 - lo));
      return static_cast<std::uint32_t>(((std::uint64_t{1} << n) - 1) << lo);
    }
    default: {
      const auto m = static_cast<std::uint32_t>(r.next());
      return m != 0 ? m : 0x80000000u;
    }
  }
}

/// The address list of a list record (active lanes of `mask`, aligned to `size` unless the
/// form says otherwise).
template <class Rng>
std::string random_list(Rng& r, const RandomInst& in, std::uint32_t mask, std::uint64_t rep) {
  std::string out;
  const std::uint64_t align = ~std::uint64_t{in.size - 1};
  std::uint64_t distinct[4];
  for (auto& d : distinct) d = (in.region + r.below(1024) * 4) & align;
  for (unsigned t = 0; t < 32; ++t) {
    if (!(mask >> t & 1)) continue;
    std::uint64_t a = 0;
    switch (in.form) {
      case 2:  // a full-warp list that steps by one amount (the memo takes it)
        a = in.region + rep * 128 * (1 + in.id % 3) + in.offset +
            t * static_cast<std::uint64_t>(in.stride);
        break;
      case 3:  // a small pool: lines and sectors repeat, within the warp and across records
        a = (in.region + r.below(48) * 32 + r.below(8) * in.size) & align;
        break;
      case 4:  // scattered over a large range (a gather)
        a = (in.region + r.below(std::uint64_t{1} << 36)) & align;
        break;
      case 5:  // a few distinct addresses (broadcasts inside the list)
        a = distinct[r.below(r.chance(30) ? 1 : 4)];
        break;
      case 6:  // unaligned: accesses that cross sectors and lines
        a = in.region + r.below(64) * 128 + 128 - r.below(2 * in.size + 1);
        break;
      default:  // near the top of the address space (the coalescer clips, the memo refuses)
        a = ~std::uint64_t{0} - r.below(4096);
        if (r.chance(50)) a &= align;
        break;
    }
    out += fmt::format("{}0x{:x}", out.empty() ? "" : ",", a);
  }
  return out;
}

}  // namespace detail

/// A random wtrace of 1-4 kernels: every operation (LDG STG LDS STS LDL STL ATOMG RED), sizes 1
/// to 16, full, half, one-lane, contiguous and random masks; strided records (unit, wide,
/// negative and zero strides, bases that shift by whole lines so the coalescing memo repeats,
/// and offsets that change so it misses) and list records (evenly stepping, a small pool that
/// caches hit, a gather over 64 GiB, broadcasts, unaligned accesses across lines, addresses at
/// the top of the address space); other instructions before some records (`+N`) and load
/// dependencies on others (`^K`); more static
/// instructions than the memo has slots, large
/// instruction ids, one id with two operations; known and unknown SMs; kernels with shared
/// memory, registers, carve-out preferences and FLOPs, some ids skipped.
/// The choices come from `r`: a TestRng, or anything with its next, below, chance and pick (a
/// fuzzer's input, tests/fuzz/fuzz_engines.cc).
template <class Rng>
std::string random_trace_from(Rng& r) {
  std::string body = "#wtrace 1\n";
  static const char* const kOps[] = {"LDG", "STG", "LDS", "STS", "LDL", "STL", "ATOMG", "RED"};
  static const std::int64_t kStrides[] = {0,   1,   2,   4,    8,    12, 16, 24,  32,  64,
                                          100, 128, 256, 1024, 4096, -4, -8, -16, -128};
  const unsigned kernels = 1 + static_cast<unsigned>(r.below(4));
  std::uint32_t kernel_id = static_cast<std::uint32_t>(r.below(3));
  for (unsigned k = 0; k < kernels; ++k, kernel_id += 1 + static_cast<std::uint32_t>(r.below(2))) {
    const unsigned block = 32u << r.below(5);  // 32 to 512 threads
    body += fmt::format("#kernel id={} name=r{} grid={},1,1 block={},1,1", kernel_id, k,
                        1 + r.below(300), block);
    if (r.chance(50)) body += fmt::format(" shmem={}", r.below(16384));
    if (r.chance(30)) body += fmt::format(" regs={}", 16 + r.below(49));
    if (r.chance(20)) body += fmt::format(" carveout_pct={}", r.below(101));
    if (r.chance(40)) body += fmt::format(" flops={}", r.below(std::uint64_t{1} << 30));
    body += '\n';

    // The kernel's static instructions; the same few regions are shared by several of them
    // (loads of what stores wrote, atomics on loaded lines).
    std::vector<detail::RandomInst> insts(1 + r.below(r.chance(30) ? 90 : 24));
    std::uint64_t regions[4];
    for (auto& g : regions) g = (std::uint64_t{1} << 28) + r.below(std::uint64_t{1} << 34) * 128;
    for (std::size_t i = 0; i < insts.size(); ++i) {
      detail::RandomInst& in = insts[i];
      in.id = r.chance(5) ? 70000 + static_cast<std::uint32_t>(r.below(1000))
                          : static_cast<std::uint32_t>(i);
      if (i > 0 && r.chance(5)) in.id = insts[i - 1].id;  // one id, another op or size
      in.op = r.pick(kOps);
      in.size = 1u << r.below(5);
      in.stride = r.pick(kStrides);
      if (r.chance(40)) in.stride = static_cast<std::int64_t>(in.size);
      in.form = r.chance(55) ? 1 : 2 + static_cast<int>(r.below(6));
      in.region = regions[r.below(4)] + (r.chance(50) ? 0 : r.below(1024) * 128);
      in.offset = r.chance(60) ? 0 : r.below(128) & ~std::uint64_t{in.size - 1};
      if (r.chance(10)) in.offset = r.below(128);  // unaligned
      in.mask_style = static_cast<int>(r.below(5));
      if (r.chance(40)) in.mask_style = 0;
      const bool shared = in.op == std::string("LDS") || in.op == std::string("STS");
      if (shared) {  // shared memory: small addresses, aligned
        in.region = 0;
        in.offset &= ~std::uint64_t{in.size - 1};
        if (in.form >= 6) in.form = 3;
      }
      if (in.form == 2) in.stride = in.stride == 0 ? 4 : std::abs(in.stride);
    }
    const unsigned records = 100 + static_cast<unsigned>(r.below(r.chance(30) ? 2500 : 700));
    for (unsigned rec = 0; rec < records; ++rec) {
      const detail::RandomInst& in = insts[r.below(insts.size())];
      const bool shared = in.op == std::string("LDS") || in.op == std::string("STS");
      const std::uint32_t mask = in.form == 2 ? 0xffffffffu : detail::random_mask(r, in.mask_style);
      const std::uint64_t rep = r.below(r.chance(50) ? 4 : 64);
      const std::string sm = r.chance(20) ? "-" : fmt::format("{}", r.below(160));
      std::string addrs;
      if (in.form == 1) {
        std::uint64_t base =
            shared ? r.below(64) * 4 * in.size + in.offset : in.region + rep * 128 + in.offset;
        if (!shared && r.chance(10)) base += r.below(32) * in.size;  // another offset
        if (in.stride < 0) base += 40 * static_cast<std::uint64_t>(-in.stride);
        addrs = fmt::format("@0x{:x}:{}", base, in.stride);
      } else if (shared) {
        detail::RandomInst s = in;
        s.region = r.below(16) * 256;
        addrs = detail::random_list(r, s, mask, rep);
      } else {
        addrs = detail::random_list(r, in, mask, rep);
      }
      // Other instructions before some records (+N), from a draw already made, so that each
      // seed's other draws stay what they were.
      // Likewise a load dependency (^K) on others.
      std::string before = rep % 3 == 1 ? fmt::format(" +{}", rep * 5) : "";
      if (rep % 5 == 2) before += fmt::format(" ^{}", 1 + rep % 4);
      body += fmt::format("{} {} {} {} {} {} {:08x} {}{}\n", in.id, in.op, in.size, sm,
                          r.below(400), r.below(16), mask, addrs, before);
    }
  }
  return body;
}

/// random_trace_from a TestRng seeded `seed`.
inline std::string random_trace(std::uint64_t seed) {
  TestRng r(seed);
  return random_trace_from(r);
}

/// Random configuration overrides ("section.key=value") over a preset, in groups that go
/// together: DRAM interleaves under a line (a request per segment) and the row model with small
/// windows; small L1s and L2s (evictions, write-backs during the kernel), L2 lines of 64 to 256
/// bytes, other fetch sizes, slice and channel counts that are not powers of two, linear and XOR
/// hashes, every replacement policy, L1s that do not cache global loads or are non-sectored, an
/// L2 that persists across kernels, other coalescing rules. Some groups are invalid over some
/// presets (or after others): the caller drops those.
template <class Rng>
std::vector<std::vector<std::string>> random_overrides(Rng& r) {
  std::vector<std::vector<std::string>> o;
  auto maybe = [&](unsigned percent, std::string s) {
    if (r.chance(percent)) o.push_back({std::move(s)});
  };
  static const char* const kPolicies[] = {"lru", "fifo", "random", "srrip", "nru"};
  static const char* const kHashes[] = {"linear", "xor"};
  maybe(40, "dram.row_model=true");
  maybe(30, fmt::format("dram.row_window={}", 1 + r.below(16)));
  maybe(30, fmt::format("dram.banks_per_channel={}", 1 + r.below(16)));
  maybe(30, fmt::format("dram.row_bytes={}", 64u << r.below(6)));
  maybe(35, fmt::format("dram.interleave_bytes={}", 32u << r.below(6)));
  maybe(25, fmt::format("dram.channels={}", 1 + r.below(40)));
  maybe(25, fmt::format("dram.hash={}", r.pick(kHashes)));
  maybe(35, "l2.persist_across_kernels=true");
  maybe(35, fmt::format("l1.caches_global_loads={}", r.chance(50) ? "false" : "true"));
  maybe(30, fmt::format("l1.policy={}", r.pick(kPolicies)));
  maybe(30, fmt::format("l2.policy={}", r.pick(kPolicies)));
  maybe(20, fmt::format("l2.hash={}", r.pick(kHashes)));
  maybe(15, fmt::format("l1.seed={}", r.below(1000)));
  maybe(15, fmt::format("l2.seed={}", r.below(1000)));
  maybe(25, fmt::format("l2.copy_insert_pct={}", r.below(101)));
  if (r.chance(40)) {  // a small L2: evictions and write-backs during the kernel
    const unsigned slices = 1 + static_cast<unsigned>(r.below(12)), ways = 1u << r.below(4);
    const unsigned line = 64u << r.below(3), sets = 16u << r.below(3);
    // One partition (the default preset has two): any slice count and line size goes; the
    // partitions group below may put them back where they are valid.
    o.push_back({"l2.partitions=1", fmt::format("l2.slices={}", slices),
                 fmt::format("l2.ways={}", ways), fmt::format("l2.line_bytes={}", line),
                 fmt::format("l2.size_kb={}", slices * ways * line * sets / 1024),
                 fmt::format("l2.interleave_bytes={}", std::max(line, 256u << r.below(3))),
                 fmt::format("l2.dram_fetch_bytes={}", std::min(line, 32u << r.below(3)))});
  } else {
    const unsigned line = 64u << r.below(3);  // drawn first, as it always was
    if (r.chance(25)) o.push_back({"l2.partitions=1", fmt::format("l2.line_bytes={}", line)});
    maybe(25, fmt::format("l2.dram_fetch_bytes={}", 32u << r.below(3)));
  }
  if (r.chance(30))  // a separate, small L1 (or none)
    o.push_back({"l1.unified_kb=0",
                 fmt::format("l1.size_kb={}", r.chance(20) ? 0 : 4u << r.below(4)), "l1.sets=4"});
  if (r.chance(25))  // near/far L2 partitions (invalid over odd slice counts: dropped)
    o.push_back({fmt::format("l2.partitions={}", 2 + r.below(2)),
                 fmt::format("l2.far_hit_latency_cycles={}", 250 + r.below(100))});
  maybe(15, "l1.sector_bytes=128");  // non-sectored
  maybe(10, "l1.line_bytes=256");
  maybe(25, fmt::format("coalescer.segment_bytes={}", 32u << r.below(3)));
  maybe(15, "coalescer.rule=kepler-l1");
  maybe(20, fmt::format("gpu.sm_count={}", 1 + r.below(8)));
  maybe(15, fmt::format("shared.banks={}", 1u << r.below(7)));
  maybe(15, fmt::format("shared.bank_width_bytes={}", r.chance(50) ? 4 : 8));
  for (std::size_t i = o.size(); i > 1; --i) std::swap(o[i - 1], o[r.below(i)]);
  return o;
}

}  // namespace gms::test
