#pragma once
// Text traces that mix every kind of memory operation, shape and record form, for tests that
// compare two ways of replaying the same trace.
#include <fmt/format.h>

#include <cstdint>
#include <string>

namespace gms::test {

/// 140 instructions (rows 64 apart share a memo slot), all kinds of operations, shapes that
/// repeat, shift by whole lines, change offset or stride, interleaved list records, 3 kernels.
inline std::string repeat_trace() {
  std::string body = "#wtrace 1\n";
  const char* ops[] = {"LDG", "STG", "ATOMG", "LDL", "LDS"};
  for (int k = 0; k < 3; ++k) {
    body += fmt::format("#kernel id={} name=k{} grid=64,1,1 block=128,1,1\n", k, k);
    for (int rep = 0; rep < 12; ++rep)
      for (int inst = 0; inst < 140; ++inst) {
        const std::uint64_t base = 0x100000 + std::uint64_t(inst) * 65536 + rep * 128 +
                                   (rep % 5 == 4 ? 4 : 0) + (inst % 7 == 3 ? 96 : 0);
        // Strides up to 12 bytes repeat a memoized shape; 1 KiB ones (32 lines) are never memoized.
        const int stride = rep % 6 == 5 ? 8 : inst % 17 == 8 ? 1024 : 4 * (1 + inst % 3);
        const char* mask = inst % 11 == 0 ? "0000ffff" : "ffffffff";
        const int sm = (inst + rep) % 5;
        if (inst % 13 == 6 && rep % 2 == 1) {  // a list record of the same instruction
          body += fmt::format("{} {} 4 {} {} 0 00000003 0x{:x},0x{:x}\n", inst, ops[inst % 5], sm,
                              rep, base, base + 4096);
          continue;
        }
        body += fmt::format("{} {} 4 {} {} 0 {} @0x{:x}:{}\n", inst, ops[inst % 5], sm, rep, mask,
                            base, stride);
      }
  }
  return body;
}

/// Scattered full warps as lists (the cold-only replay charges them from counts,
/// analyze_scattered_warp), mixed with unaligned, partial, evenly stepping and repeated ones,
/// over all operations and sizes, 2 kernels.
inline std::string scattered_trace() {
  std::string body = "#wtrace 1\n";
  const char* ops[] = {"LDG", "STG", "ATOMG", "LDL", "RED", "STL"};
  std::uint64_t x = 12345;
  auto next = [&] { return x = x * 6364136223846793005ull + 1442695040888963407ull; };
  for (int k = 0; k < 2; ++k) {
    body += fmt::format("#kernel id={} name=s{} grid=256,1,1 block=128,1,1\n", k, k);
    for (int rec = 0; rec < 600; ++rec) {
      const int inst = rec % 9;
      const unsigned size = 1u << (inst % 5);
      const bool unaligned = rec % 13 == 5, stepping = rec % 11 == 3, partial = rec % 17 == 2;
      const std::uint64_t base = 0x7f0000000000ull + (next() >> 40) * 128;
      std::string addrs;
      for (int t = 0; t < (partial ? 31 : 32); ++t) {
        std::uint64_t a = stepping ? base + t * 64 : base + (next() >> 33) % (1u << (rec % 20 + 8));
        if (t > 0 && next() % 5 == 0) a = base + t / 2 * 32;  // shared lines and sectors
        a &= ~std::uint64_t{size - 1};
        if (unaligned && t == 7) a += size / 2 + (size == 1);
        addrs += fmt::format("{}0x{:x}", t ? "," : "", a);
      }
      body += fmt::format("{} {} {} {} {} 0 {} {}\n", inst, ops[(rec / 9) % 6], size, rec % 132,
                          rec % 256, partial ? "7fffffff" : "ffffffff", addrs);
    }
  }
  return body;
}

/// Stores that write parts of sectors (8 of every 16 bytes), later stores or atomics that
/// complete some of them, and loads that read them back: what a load finds in L2 depends on the
/// bytes each write covered. 2 kernels over 300 lines, warps on 7 SMs.
inline std::string partial_write_trace() {
  std::string body = "#wtrace 1\n";
  for (int k = 0; k < 2; ++k) {
    body += fmt::format("#kernel id={} name=w{} grid=64,1,1 block=128,1,1\n", k, k);
    for (int step = 0; step < 4; ++step)
      for (int i = 0; i < 75; ++i) {
        const std::uint64_t base = 0x200000 + std::uint64_t(i) * 4096 + k * 256;
        const int sm = (i + step) % 7, warp = i % 16;
        if (step == 0)  // the first half of every 16 bytes of 4 lines
          body += fmt::format("0 STG 8 {} {} 0 ffffffff @0x{:x}:16\n", sm, warp, base);
        else if (step == 1 && i % 3 != 2)  // the other half, of some: their sectors complete
          body += fmt::format("1 {} 8 {} {} 0 {} @0x{:x}:16\n", i % 3 ? "ATOMG" : "STG", sm, warp,
                              i % 5 ? "ffffffff" : "0000ffff", base + 8);
        else if (step >= 2)  // reads of the first two lines, twice
          body += fmt::format("2 LDG 4 {} {} 0 ffffffff @0x{:x}:{}\n", sm, warp,
                              base + (step - 2) * 128, i % 2 ? 4 : 8);
      }
  }
  return body;
}

}  // namespace gms::test
