#pragma once
/// Basic vocabulary of the simulator: addresses, lane masks, memory operations.

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gms {

using Addr =
    std::uint64_t;  ///< a byte address (global/local: 64-bit; shared: offset in the CTA window)
using LaneMask = std::uint32_t;  ///< bit i = lane i of the warp
inline constexpr int kWarpSize = 32;
inline constexpr std::uint32_t kUnknownSm = 0xffffffffu;  ///< the trace did not record the SM

/// Memory operations of a warp trace, as spelled in wtrace v1 (the first kOpCount), then the
/// bulk ops: internal records that only the Accel-Sim importer makes from a TMA or bulk copy
/// (trace/import/tma_records.h). A bulk record is at most 32 lanes of kBulkLaneBytes over the
/// copy's bytes in address order; no trace format spells them, so writers refuse them.
///   TMALD   global -> shared (UTMALDG, UBLKCP.S.G): read from the L2, written to the issuing
///           CTA's shared memory
///   TMAST   shared -> global (UTMASTG, UBLKCP.G.S): written into the L2
///   TMAPF   prefetch (UTMAPF, UBLKPF): read into the L2 only
///   TMARED  reduction (UTMAREDG, UBLKRED): a read-modify-write at the L2
///   TMAMC   a multicast load's delivery to one more CTA of its mask: shared-memory bytes only
///           (the data was read once, by the TMALD records before it)
enum class Op : std::uint8_t {
  LDG,
  STG,
  LDS,
  STS,
  LDL,
  STL,
  ATOMG,
  RED,
  TMALD,
  TMAST,
  TMAPF,
  TMARED,
  TMAMC
};
inline constexpr int kOpCount = 8;              ///< the ops trace formats spell
inline constexpr int kAllOpCount = 13;          ///< with the bulk ops
inline constexpr unsigned kBulkLaneBytes = 16;  ///< TMA transfers are 16-byte aligned units

/// The statistic classes of the JSON contract. Atomics and reductions share one class.
enum class OpClass : std::uint8_t {
  GlobalLoad,
  GlobalStore,
  LocalLoad,
  LocalStore,
  GlobalAtomic,
  SharedLoad,
  SharedStore,
  Tma  ///< the bulk ops (TMA and bulk copies); reported only when a kernel has some
};
inline constexpr int kOpClassCount = 8;

constexpr std::string_view op_name(Op op) {
  constexpr std::array<std::string_view, kAllOpCount> names{
      "LDG", "STG",   "LDS",   "STS",   "LDL",    "STL",  "ATOMG",
      "RED", "TMALD", "TMAST", "TMAPF", "TMARED", "TMAMC"};
  return names[static_cast<int>(op)];
}

/// Parses a trace mnemonic; nullopt for anything else (case-sensitive, as the format says).
constexpr std::optional<Op> parse_op(std::string_view s) {
  for (int i = 0; i < kOpCount; ++i)
    if (op_name(static_cast<Op>(i)) == s) return static_cast<Op>(i);
  return std::nullopt;
}

constexpr OpClass op_class(Op op) {
  switch (op) {
    case Op::LDG:
      return OpClass::GlobalLoad;
    case Op::STG:
      return OpClass::GlobalStore;
    case Op::LDS:
      return OpClass::SharedLoad;
    case Op::STS:
      return OpClass::SharedStore;
    case Op::LDL:
      return OpClass::LocalLoad;
    case Op::STL:
      return OpClass::LocalStore;
    case Op::ATOMG:
    case Op::RED:
      return OpClass::GlobalAtomic;
    case Op::TMALD:
    case Op::TMAST:
    case Op::TMAPF:
    case Op::TMARED:
    case Op::TMAMC:
      return OpClass::Tma;
  }
  return OpClass::GlobalLoad;
}

/// JSON/CSV key of a class, e.g. "global_load".
constexpr std::string_view op_class_key(OpClass c) {
  constexpr std::array<std::string_view, kOpClassCount> keys{
      "global_load",   "global_store", "local_load",   "local_store",
      "global_atomic", "shared_load",  "shared_store", "tma"};
  return keys[static_cast<int>(c)];
}

constexpr bool is_shared(Op op) {
  return op == Op::LDS || op == Op::STS;
}
/// A global or local load (LDG, LDL), or a bulk read of global memory (TMALD, TMAPF): sized by
/// the coalescer's load transaction size (LDG, LDL: the accesses the L1 may cache); stores and
/// atomics use the store size.
constexpr bool is_global_load(Op op) {
  // One bit per op (a shift and a test: these sit on the per-line path of the cold model).
  constexpr std::uint32_t kLoads =
      1u << static_cast<int>(Op::LDG) | 1u << static_cast<int>(Op::LDL) |
      1u << static_cast<int>(Op::TMALD) | 1u << static_cast<int>(Op::TMAPF);
  return kLoads >> static_cast<int>(op) & 1u;
}
constexpr bool is_store(Op op) {
  constexpr std::uint32_t kStores =
      1u << static_cast<int>(Op::STG) | 1u << static_cast<int>(Op::STS) |
      1u << static_cast<int>(Op::STL) | 1u << static_cast<int>(Op::TMAST);
  return kStores >> static_cast<int>(op) & 1u;
}
/// A read-modify-write at the L2 (ATOMG, RED, TMARED).
constexpr bool is_atomic(Op op) {
  return op == Op::ATOMG || op == Op::RED || op == Op::TMARED;
}
/// The bulk ops (TMA and bulk copies): no L1 lookup, no L1TEX pipeline cycles.
constexpr bool is_bulk(Op op) {
  return op >= Op::TMALD;
}
/// A record that the coalescer and the L2 see: neither shared memory nor a multicast delivery.
constexpr bool is_global_access(Op op) {
  return !is_shared(op) && op != Op::TMAMC;
}
/// Whether the warp waits for the record's data (a load's or atomic's registers): the time
/// model's load requests and the scheduler's waits. A bulk copy completes on an mbarrier that
/// the warp waits on later (SYNCS, not modelled), so it does not.
constexpr bool waits_for_data(Op op) {
  return !is_store(op) && !is_bulk(op);
}

/// Valid per-lane access sizes are 1, 2, 4, 8 and 16 bytes.
constexpr bool valid_access_size(unsigned size) {
  return size >= 1 && size <= 16 && std::has_single_bit(size);
}

}  // namespace gms
