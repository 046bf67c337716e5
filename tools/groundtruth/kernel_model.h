#pragma once
/// Host model of the calibration kernels: the launch table (ids, names, grids) and, for each
/// kernel, the exact sequence of warp records the capture writes, computed from the arithmetic
/// of kernel_addressing.h. The capture program compares what the GPU recorded against it, the
/// recipe tool regenerates the traces too large to store, and the unit tests check it against
/// the documented patterns. Plain C++20, header-only.

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/capture/wtrace_host.h"
#include "tools/groundtruth/kernel_addressing.h"

namespace gms::groundtruth {

using capture::CaptureOp;
using capture::CaptureRecord;

enum class Family {
  Pattern,
  SharedBank,
  StreamLoad,
  AddStream,
  Copy,
  StreamStore,
  Reuse,
  Window,
  Chase
};

/// One calibration launch. `buffers` names the base addresses the records are relative to, in
/// the order the `#kernel` line lists them as base0, base1, ...
struct KernelSpec {
  int id;
  std::string_view name;
  Family family;
  std::uint32_t grid;
  std::uint32_t block;
};

/// Every calibration kernel, in launch order.
inline const std::vector<KernelSpec>& kernel_specs() {
  static const std::vector<KernelSpec> specs = [] {
    std::vector<KernelSpec> v;
    constexpr std::string_view kPatternNames[] = {
        "unit",     "offset8",   "offset64", "stride2", "stride8",  "stride32", "stride1024",
        "reversed", "broadcast", "onelane",  "mixed",   "struct12", "struct24"};
    for (int id = kPatternFirstId; id <= kPatternLastId; ++id)
      v.push_back({id, kPatternNames[id - kPatternFirstId], Family::Pattern, 1, 32});
    constexpr std::string_view kSmemNames[] = {"smem_s1",     "smem_s2",   "smem_s3",
                                               "smem_s16",    "smem_s32",  "smem8_free",
                                               "smem8_bcast", "smem8_s32", "smem16_free"};
    for (int id = kSmemFirstId; id <= kSmemLastId; ++id)
      v.push_back({id, kSmemNames[id - kSmemFirstId], Family::SharedBank, 1, 32});
    v.push_back({30, "stream_s1", Family::StreamLoad, kStreamGrid, kStreamBlock});
    v.push_back({31, "stream_s2", Family::StreamLoad, kStreamGrid, kStreamBlock});
    v.push_back({32, "stream_s8", Family::StreamLoad, kStreamGrid, kStreamBlock});
    v.push_back({33, "stream_s32", Family::StreamLoad, kStreamGrid, kStreamBlock});
    v.push_back({40, "add_stream", Family::AddStream, kStreamGrid, kStreamBlock});
    v.push_back({41, "copy", Family::Copy, kStreamGrid, kStreamBlock});
    v.push_back({50, "store_s1", Family::StreamStore, kStreamGrid, kStreamBlock});
    v.push_back({51, "store_s2", Family::StreamStore, kStreamGrid, kStreamBlock});
    v.push_back({52, "store_s32", Family::StreamStore, kStreamGrid, kStreamBlock});
    v.push_back({60, "reuse16k", Family::Reuse, kReuseGrid, kReuseBlock});
    constexpr std::string_view kWindowNames[] = {
        "window16k",  "window64k",  "window128k",    "window192k",    "window256k",
        "window320k", "window512k", "window128k_w1", "window256k_w1", "window320k_w1"};
    for (int id = kWindowFirstId; id <= kWindowLastId; ++id)
      v.push_back(
          {id, kWindowNames[id - kWindowFirstId], Family::Window, kWindowGrid, window_block(id)});
    v.push_back({110, "ptrchase", Family::Chase, 1, 32});
    return v;
  }();
  return specs;
}

inline const KernelSpec* find_spec(int id) {
  for (const auto& s : kernel_specs())
    if (s.id == id) return &s;
  return nullptr;
}

/// How many base addresses a family's records need (see generate_records).
inline int base_count(Family f) {
  switch (f) {
    case Family::AddStream:
      return 3;
    case Family::Copy:
      return 2;
    case Family::Chase:
      return 2;
    default:
      return 1;
  }
}

/// Number of warp records the kernel makes.
inline std::uint64_t record_count(const KernelSpec& s) {
  const std::uint64_t warps = std::uint64_t{s.grid} * (s.block / 32);
  switch (s.family) {
    case Family::Pattern:
    case Family::SharedBank:
      return 1;
    case Family::StreamLoad:
    case Family::StreamStore:
      return warps * stream_iterations(stream_stride_elems(s.id));
    case Family::AddStream:
      return warps * stream_iterations(1) * 3;
    case Family::Copy:
      return warps * stream_iterations(1) * 2;
    case Family::Reuse:
      return warps * kReusePasses * kReuseChunks;
    case Family::Window:
      return warps * kWindowSweeps * window_iterations(s.id);
    case Family::Chase: {
      std::uint64_t n = 0;
      for (int f = 0; f < kChaseFootprints; ++f) n += chase_warmup_iterations(f) + kChaseSteps + 1;
      return n;
    }
  }
  return 0;
}

/// The pointer-chase ring of a region of `nodes` 128-byte lines: a random cyclic permutation
/// (Sattolo's algorithm driven by splitmix64 seeded with `nodes`); ring[i] is the line after
/// line i. The device memory holds, at line i, the absolute address of line ring[i].
inline std::vector<std::uint32_t> chase_ring(std::uint64_t nodes) {
  std::vector<std::uint32_t> ring(nodes);
  for (std::uint64_t i = 0; i < nodes; ++i) ring[i] = static_cast<std::uint32_t>(i);
  std::uint64_t state = nodes;
  for (std::uint64_t i = nodes - 1; i > 0; --i) {
    const std::uint64_t j = splitmix64(state) % i;
    std::swap(ring[i], ring[j]);
  }
  return ring;
}

/// Calls emit(const CaptureRecord&) for every record of the kernel, in the order the capture
/// writes them: by CTA, warp, then program order. `bases` per family:
///   Pattern {input}; SharedBank {shared array offset in the window}; StreamLoad, StreamStore,
///   Reuse, Window {array}; AddStream {a, b, c}; Copy {src, dst}; Chase {rings, results}.
/// `sm_of_cta[c]` is the SM of CTA c; empty means unknown ("-").
template <class Emit>
void generate_records(const KernelSpec& s, std::span<const std::uint64_t> bases,
                      std::span<const std::uint32_t> sm_of_cta, Emit&& emit) {
  const std::uint32_t warps_per_cta = s.block / 32;
  auto sm_of = [&](std::uint32_t cta) {
    return cta < sm_of_cta.size() ? sm_of_cta[cta] : capture::kUnknownSm;
  };
  constexpr std::uint32_t kAll = 0xffffffffu;
  if (bases.size() < static_cast<std::size_t>(base_count(s.family)))
    throw std::invalid_argument("kernel " + std::to_string(s.id) + " needs " +
                                std::to_string(base_count(s.family)) + " base addresses");
  auto base_at = [&](std::size_t i) { return i < bases.size() ? bases[i] : 0; };
  const std::uint64_t b0 = base_at(0);
  switch (s.family) {
    case Family::Pattern: {
      const std::uint32_t mask = s.id == 10 ? 1u : kAll;
      emit(capture::make_record(0, 0, 0, 0, CaptureOp::LDG, 4, mask, sm_of(0),
                                [&](int t) { return b0 + pattern_offset(s.id, t); }));
      return;
    }
    case Family::SharedBank: {
      const auto size = static_cast<std::uint8_t>(smem_access_bytes(s.id));
      emit(capture::make_record(0, 0, 0, 0, CaptureOp::LDS, size, kAll, sm_of(0),
                                [&](int t) { return b0 + smem_offset(s.id, t); }));
      return;
    }
    default:
      break;
  }
  if (s.family == Family::Chase) {  // one warp: its records in program order
    std::uint32_t seq = 0;
    for (int f = 0; f < kChaseFootprints; ++f) {
      const std::uint64_t region = b0 + chase_region_offset(f);
      for (std::uint64_t i = 0; i < chase_warmup_iterations(f); ++i)
        emit(capture::make_record(0, 0, seq++, 0, CaptureOp::LDG, 8, kAll, sm_of(0), [&](int t) {
          return region + (i * 32 + static_cast<std::uint64_t>(t)) * kChaseLineBytes;
        }));
      const std::vector<std::uint32_t> ring =
          chase_ring(chase_footprint_bytes(f) / kChaseLineBytes);
      std::uint32_t node = 0;
      for (std::uint32_t k = 0; k < kChaseSteps; ++k) {
        emit(capture::make_record(0, 0, seq++, 1, CaptureOp::LDG, 8, 1u, sm_of(0), [&](int) {
          return region + std::uint64_t{node} * kChaseLineBytes;
        }));
        node = ring[node];
      }
      emit(capture::make_record(0, 0, seq++, 2, CaptureOp::STG, 16, 1u, sm_of(0),
                                [&](int) { return base_at(1) + 16 * std::uint64_t(f); }));
    }
    return;
  }
  // Every other kernel gives each warp the same number of records: emitted in the capture's
  // lockstep order (capture::record_less), the seq-th record of every warp, by CTA and warp,
  // before any warp's next.
  const std::uint64_t warps = std::uint64_t{s.grid} * warps_per_cta;
  const std::uint64_t per_warp = record_count(s) / warps;
  const bool add = s.family == Family::AddStream;
  const std::uint32_t per_element = add ? 3 : 2;  // AddStream: a, b, c; Copy: src, dst
  for (std::uint64_t k = 0; k < per_warp; ++k) {
    const auto seq = static_cast<std::uint32_t>(k);
    for (std::uint32_t cta = 0; cta < s.grid; ++cta) {
      const std::uint32_t sm = sm_of(cta);
      for (std::uint32_t w = 0; w < warps_per_cta; ++w) {
        const std::uint64_t g0 = std::uint64_t{cta} * s.block + w * 32;  // thread of lane 0
        switch (s.family) {
          case Family::StreamLoad:
          case Family::StreamStore: {
            const std::uint32_t stride = stream_stride_elems(s.id);
            const CaptureOp op = s.family == Family::StreamLoad ? CaptureOp::LDG : CaptureOp::STG;
            emit(capture::make_record(cta, w, seq, 0, op, 4, kAll, sm, [&](int t) {
              return b0 + 4 * stream_element(g0 + t, k, stride);
            }));
            break;
          }
          case Family::AddStream:
          case Family::Copy: {
            const std::uint64_t e = stream_element(g0, k / per_element, 1);
            const auto j = static_cast<std::uint32_t>(k % per_element);  // the inst
            const CaptureOp op = j + 1 == per_element ? CaptureOp::STG : CaptureOp::LDG;
            const std::uint64_t base = base_at(j);
            emit(capture::make_record(cta, w, seq, j, op, 4, kAll, sm,
                                      [&](int t) { return base + 4 * (e + t); }));
            break;
          }
          case Family::Reuse: {
            const std::uint32_t gw = cta * warps_per_cta + w;
            const auto c = static_cast<std::uint32_t>(k % kReuseChunks);
            emit(capture::make_record(cta, w, seq, 0, CaptureOp::LDG, 4, kAll, sm, [&](int t) {
              return b0 + reuse_offset(gw, c, static_cast<std::uint32_t>(t));
            }));
            break;
          }
          case Family::Window: {
            const auto i = static_cast<std::uint32_t>(k % window_iterations(s.id));
            emit(capture::make_record(cta, w, seq, 0, CaptureOp::LDG, 4, kAll, sm, [&](int t) {
              return b0 + window_offset(s.id, cta, i, w * 32 + static_cast<std::uint32_t>(t));
            }));
            break;
          }
          default:
            break;
        }
      }
    }
  }
}

/// The `#kernel` line fields every capture of `s` writes, before the launch-specific ones.
inline capture::KernelHeader kernel_header(const KernelSpec& s,
                                           std::span<const std::uint64_t> bases) {
  capture::KernelHeader h;
  h.id = static_cast<std::uint32_t>(s.id);
  h.name = std::string(s.name);
  h.grid = {s.grid, 1, 1};
  h.block = {s.block, 1, 1};
  for (std::size_t i = 0; i < bases.size(); ++i) {
    std::string hex = "0x";
    constexpr char kDigits[] = "0123456789abcdef";
    bool lead = true;
    for (int shift = 60; shift >= 0; shift -= 4) {
      const int d = static_cast<int>((bases[i] >> shift) & 0xf);
      if (d == 0 && lead && shift != 0) continue;
      lead = false;
      hex += kDigits[d];
    }
    h.extra.emplace_back("base" + std::to_string(i), hex);
  }
  return h;
}

}  // namespace gms::groundtruth
