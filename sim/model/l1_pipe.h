#pragma once
/// What one global or local warp request costs in an SM's L1TEX pipeline, its two stages apart
/// (the time model's L1 term, time_model.h). Both depend only on the active lanes' addresses and
/// the access size, not on what the cache holds:
///
/// - Tag stage: each quarter-warp's lanes (0-7, 8-15, 16-23, 24-31) look up the 128-byte lines
///   they touch, and the stage resolves four lookups a cycle, at least one cycle a request.
///   tag_lookups = distinct (quarter-warp, line) pairs, at least 4; the stage takes
///   tag_lookups / 4 cycles. A unit-stride 4-byte warp takes 1 cycle (4 lookups), a warp of
///   3-word stride 1.5 (6 lookups: two of its quarters cross a line), a warp whose lanes are all
///   in different lines 8.
/// - Data stage: the data array is 32 banks of 4 bytes (128 bytes a wavefront, as shared
///   memory's), and the lanes pass through it in groups that ideally move 128 bytes: the whole
///   warp for accesses of up to 4 bytes, half-warps for 8, quarter-warps for 16. In a group a
///   bank serves one distinct 4-byte word per wavefront and lanes reading the same word share it,
///   so a group takes as many wavefronts as the most distinct words any bank holds;
///   data_wavefronts = the sum over the groups. A 4-byte load of stride s words takes gcd(s, 32),
///   a broadcast 1 (2 for 8 bytes: two half-warps), a misaligned unit-stride load 1.
///
/// Source: gpu-benches' gpu-strides measurements (tests/fidelity/data/strides_*.txt, docs/
/// hardware.md), which list Nsight Compute's l1tex__data_pipe_lsu_wavefronts and
/// l1tex__t_output_wavefronts per load beside the cycles per load, and whose cycles follow the
/// larger of the two. The data rule reproduces every data-pipe figure there (A100 and H200, 4-
/// and 8-byte loads, strides 0-64); the tag rule the t-stage figures with mean errors of 13.8%
/// (A100) and 4.0% (H200), low where every lane has a line of its own (8 against 9.5-12.8
/// cycles). tests/sim/model/l1_pipe_strides_test.cc holds both.

#include <cstdint>
#include <span>

#include "sim/config/config.h"
#include "sim/core/records.h"

namespace gms {

struct L1PipeCost {
  std::uint32_t tag_lookups = 0;      ///< distinct (quarter-warp, line) pairs, at least 4
  std::uint32_t data_wavefronts = 0;  ///< data-array passes, at least 1

  friend bool operator==(const L1PipeCost&, const L1PipeCost&) = default;
};

/// The cost of `w` (at least one active lane; a strided record may hold only its first and last
/// active lanes, the others are computed from its stride). `sorted_starts`, when the caller has
/// them, are the active lanes' addresses in increasing order (the coalescer's): the data stage
/// then need not sort a whole warp's words again.
L1PipeCost l1_pipe_cost(const WarpInstr& w, std::span<const Addr> sorted_starts = {});

/// An SM's L1TEX pipeline cycles for `data_wavefronts` data wavefronts, `shared_wavefronts`
/// shared wavefronts and `tag_lookups` tag lookups: the tag stage resolves four lookups a cycle,
/// the data stage moves l1.sectors_per_cycle / 4 wavefronts and shared.wavefronts_per_cycle
/// shared ones a cycle, and in steady state the slower stage sets the pace (the time model's L1
/// term per SM, the warp scheduler's L1TEX server per record).
double l1_pipe_cycles(const SimConfig& cfg, std::uint64_t data_wavefronts,
                      std::uint64_t shared_wavefronts, std::uint64_t tag_lookups);

}  // namespace gms
