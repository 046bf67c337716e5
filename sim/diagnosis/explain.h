#pragma once
/// `gpumemsim explain`: which instruction to fix first. The trace is replayed once as it is,
/// once per candidate instruction (the top N by wasted bytes, shared-memory conflicts counted at
/// 128 bytes a wavefront) with that instruction's accesses made ideal (IdealizingReader,
/// sim/diagnosis/ideal_reader.h), and once per layout change (sim/layout/: an array's layout
/// changed for every instruction that touches it, LayoutReader), every replay through
/// simulate() in the mode asked for; both kinds of what-if are ranked together by the kernel
/// time they save, not by bytes.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/diagnosis/diagnose.h"
#include "sim/diagnosis/ideal_reader.h"
#include "sim/layout/arrays.h"
#include "sim/layout/layout_change.h"
#include "sim/replay/run_options.h"
#include "sim/report/report.h"

namespace gms {

struct ExplainOptions {
  std::size_t top = 5;  ///< candidate instructions
  /// Replays run side by side on this many threads (each on one); 0: one per core.
  unsigned jobs = 0;
  /// Layout changes to replay (--layout specs, sim/layout/layout_spec.h), besides those the
  /// diagnosis suggests.
  std::vector<std::string> layouts;
  /// Replay the layout changes the diagnosis suggests (at most `top`).
  bool suggest_layouts = true;
};

/// A kernel's figures that a what-if compares.
struct KernelFigures {
  std::uint64_t sectors = 0;     ///< global, local and atomic sectors
  std::uint64_t wavefronts = 0;  ///< shared-memory wavefronts
  std::uint64_t dram_bytes = 0;  ///< DRAM bytes read and written
  std::uint64_t conflicts = 0;   ///< shared wavefronts beyond the ideal (bank conflicts)
  std::uint64_t l1_hits = 0;     ///< L1 sector hits (cached mode)
  std::uint64_t l2_hits = 0;     ///< L2 read sector hits (cached mode)
  double l1_hit_rate = 0;        ///< global-load L1 sector hit rate (cached mode)
  double l2_hit_rate = 0;        ///< L2 read sector hit rate (cached mode)
  double time_ns = 0;            ///< the time model's estimate
};
KernelFigures kernel_figures(const KernelStats& k);

/// What a what-if changes: one instruction made ideal, or one array's layout.
enum class WhatIfKind : std::uint8_t { Instruction, Layout };
const char* what_if_kind_name(WhatIfKind k);  ///< "instruction", "layout"

/// One candidate in one mode (a layout change: in one kernel it touches).
struct WhatIf {
  WhatIfKind kind = WhatIfKind::Instruction;
  InstrTarget target;  ///< layout rows: the kernel, and the first instruction touched
  std::string kernel_name;
  KernelMode mode = KernelMode::Cold;
  std::optional<std::uint32_t> line;  ///< source line, where the trace has line info
  std::string pattern;                ///< summary_label of the instruction
  std::string reading;                ///< summary_reading of the instruction
  /// Layout rows: the change ("soa:g0:24") and the instructions of the kernel it moves.
  std::string layout;
  std::size_t touched = 1;
  /// The instruction's own counters (layout rows: the sum over the instructions touched).
  AccessCounters before, after;
  KernelFigures kernel_before, kernel_after;
  std::uint64_t rewritten = 0;  ///< records rewritten (made ideal, or with lanes moved)

  double saved_ns() const { return kernel_before.time_ns - kernel_after.time_ns; }
  double saved_fraction() const {
    return kernel_before.time_ns > 0 ? saved_ns() / kernel_before.time_ns : 0.0;
  }
};

/// One warp's accesses before and after a layout change (the HTML page's picture): the first
/// moved record of the most wasteful instruction the change touches.
struct LayoutSample {
  bool found = false;
  WarpInstr before, after;
};

struct ExplainResult {
  SimConfig config;
  std::vector<std::string> traces;
  std::vector<KernelStats> base;         ///< the replay as it is
  std::vector<KernelPatterns> patterns;  ///< every instruction's diagnosis
  std::vector<WhatIf> rows;              ///< most time saved first
  std::size_t candidates = 0;            ///< instructions replayed as what-ifs
  std::vector<LayoutArray> arrays;       ///< the global arrays (sim/layout/arrays.h)
  std::vector<LayoutChange> layouts;     ///< layout changes replayed as what-ifs
  std::vector<LayoutSample> samples;     ///< one per layout change
};

/// The candidates: instructions with wasted bytes or bank conflicts, most first (shared conflicts
/// weighed at 128 bytes a wavefront, what one wavefront moves), at most `top`. From the
/// diagnosis pass, whose counts are the run's, so that the replay as it is can run beside the
/// what-ifs.
std::vector<InstrTarget> explain_candidates(const std::vector<KernelPatterns>& patterns,
                                            std::size_t top);

ExplainResult explain(const std::vector<std::string>& traces, const SimConfig& cfg,
                      const RunOptions& opts, const ExplainOptions& eo);

/// Table, CSV, JSON or the HTML page (sim/diagnosis/explain_report.cc).
void print_explain(std::ostream& out, const ExplainResult& r, ReportFormat format);

}  // namespace gms
