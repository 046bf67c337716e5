#pragma once
/// Miss-ratio curves: the hit rate of a trace's loads against cache capacity, per associativity
/// and fully associative, per kernel (and per instruction), from one replay of the trace
/// (sim/replay/onepass/engine.h). Every point is a configuration of the base with the level's
/// capacity and ways changed, and equals a separate replay of it exactly.
///
///   CurveSpec s;
///   s.trace = "t.gmt";
///   s.level = CurveLevel::L2;
///   const Curves c = compute_curves(s);
///   std::string csv = curves_csv(c);

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sim/config/config.h"

namespace gms {

enum class CurveLevel { L1, L2 };

struct CurveSpec {
  std::string trace;
  ConfigSources base;  ///< the configuration around the level (its LRU policy included)
  CurveLevel level = CurveLevel::L2;
  bool per_instruction = false;
  /// Ways per point, or 0 for fully associative (one set: per slice for the L2). Empty: 1, 4,
  /// 16 and full for the L2; 4, 16, 64 and full for the L1.
  std::vector<std::uint32_t> ways;
  /// Capacities in KiB (the whole L2; one SM's L1). Empty: the base capacity x 2^k, k = -6..1
  /// (L2); 8 to 256 KiB (L1).
  std::vector<std::uint32_t> sizes_kb;
};

/// One configuration of the curve: its ways (0: fully associative), sets (per slice for the L2)
/// and capacity.
struct CurvePoint {
  std::uint32_t ways = 0;
  std::uint32_t sets = 0;
  std::uint32_t capacity_kb = 0;
  /// The keys set over the base for this point (`run --set` each to replay it alone).
  std::vector<std::string> overrides;
};

/// One kernel (or instruction) at every point: sectors looked up (L1) or read (L2), and hits.
struct CurveRow {
  std::uint32_t kernel_id = 0;
  std::string kernel_name;
  bool instruction = false;  ///< a per-instruction row (inst, op, size below)
  std::uint32_t inst = 0;
  std::string op;
  std::uint32_t size = 0;
  std::vector<std::uint64_t> lookups, hits;  ///< per point
};

struct Curves {
  CurveLevel level = CurveLevel::L2;
  std::string trace;
  std::vector<CurvePoint> points;
  std::vector<CurveRow> rows;
  /// Sizes and ways the level cannot have (not a whole number of sets), left out.
  std::vector<std::string> skipped;
};

/// Replays the trace once for every point. Throws SimError (naming the key) when the base is
/// not LRU at that level or a point is not a valid configuration.
Curves compute_curves(const CurveSpec& spec);

/// `level,kernel_id,kernel_name[,inst,op,size],ways,sets,capacity_kb,lookups,hits,hit_rate`, one
/// row per kernel (instruction) and point; ways is `full` for fully associative.
std::string curves_csv(const Curves& c);

/// One chart per kernel (and per instruction, the 12 with most lookups): hit rate against
/// capacity, one line per associativity; then the table.
void print_curves_html(std::ostream& out, const Curves& c);

}  // namespace gms
