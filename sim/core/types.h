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

/// Memory operations of a warp trace, as spelled in wtrace v1.
enum class Op : std::uint8_t { LDG, STG, LDS, STS, LDL, STL, ATOMG, RED };
inline constexpr int kOpCount = 8;

/// The statistic classes of the JSON contract. Atomics and reductions share one class.
enum class OpClass : std::uint8_t {
  GlobalLoad,
  GlobalStore,
  LocalLoad,
  LocalStore,
  GlobalAtomic,
  SharedLoad,
  SharedStore
};
inline constexpr int kOpClassCount = 7;

constexpr std::string_view op_name(Op op) {
  constexpr std::array<std::string_view, kOpCount> names{"LDG", "STG", "LDS",   "STS",
                                                         "LDL", "STL", "ATOMG", "RED"};
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
  }
  return OpClass::GlobalLoad;
}

/// JSON/CSV key of a class, e.g. "global_load".
constexpr std::string_view op_class_key(OpClass c) {
  constexpr std::array<std::string_view, kOpClassCount> keys{
      "global_load",   "global_store", "local_load",  "local_store",
      "global_atomic", "shared_load",  "shared_store"};
  return keys[static_cast<int>(c)];
}

constexpr bool is_shared(Op op) {
  return op == Op::LDS || op == Op::STS;
}
/// A global or local load (LDG, LDL): the accesses the L1 may cache, sized by the coalescer's
/// load transaction size; stores and atomics use the store size.
constexpr bool is_global_load(Op op) {
  return op == Op::LDG || op == Op::LDL;
}
constexpr bool is_store(Op op) {
  return op == Op::STG || op == Op::STS || op == Op::STL;
}

/// Valid per-lane access sizes are 1, 2, 4, 8 and 16 bytes.
constexpr bool valid_access_size(unsigned size) {
  return size >= 1 && size <= 16 && std::has_single_bit(size);
}

}  // namespace gms
