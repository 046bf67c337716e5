#pragma once
/// SASS memory opcodes, as Accel-Sim's tracer and NVBit's mem_trace print them
/// (`LDG.E.64.SYS`, `STS.128`, `ATOMG.E.ADD.STRONG.GPU`, ...), mapped to the simulator's
/// operations and access sizes. One table for both importers; README.md ("Importing Accel-Sim
/// and NVBit traces") documents every row.

#include <cstdint>
#include <string_view>

#include "sim/core/types.h"
#include "trace/import/import_counts.h"

namespace gms::trace::detail {

/// How an importer treats one opcode.
enum class SassKind : std::uint8_t {
  Memory,        ///< a global, local, shared or atomic access: `op` is set
  GenericLoad,   ///< LD: generic address; space resolved from the address (Accel-Sim rule)
  GenericStore,  ///< ST: likewise
  BulkCopy,      ///< TMA / bulk copies (UBLKCP, UTMALDG, UTMASTG, ...): counted as their own class
  Unsupported    ///< texture, surface, constant, ...: skipped and counted
};

struct SassAccess {
  SassKind kind = SassKind::Unsupported;
  Op op = Op::LDG;          ///< when kind == Memory
  std::uint8_t size = 4;    ///< bytes per lane (1, 2, 4, 8 or 16)
  bool async_copy = false;  ///< LDGSTS: the global read of a global->shared copy
};

/// Classifies `opcode` (the whole token, modifiers included) by its base name (the text before
/// the first '.'): LDG, STG, LDS, STS, LDL, STL map to themselves; ATOM and ATOMG to ATOMG; RED
/// and REDG to RED; ATOMS and LDSM to LDS; STSM to STS; LDGSTS to LDG (its global read); LD and
/// ST are generic; UBLK* and UTMA* (Hopper's bulk and tensor-memory-accelerator copies) are
/// BulkCopy. Size: the first modifier 8/16/32/64/128 (bits), or U8/S8 = 1, U16/S16 = 2,
/// U32/S32 = 4, U64/S64 = 8, U128 = 16; LDSM/STSM rows are 16 bytes; otherwise 4.
SassAccess classify_sass(std::string_view opcode);

/// Counts a skipped memory instruction (kind Unsupported or BulkCopy) by its base opcode.
void count_skipped(ImportCounts& counts, std::string_view opcode, SassKind kind);

/// Accel-Sim's resolution of a generic LD/ST from its first active lane's address: with either
/// base unknown (0) the access is shared; otherwise [shmem_base, local_base) is shared,
/// [local_base, local_base + kLocalMemSizeMax) local, anything else global. Returns the op and
/// rewrites nothing; the caller turns a shared address into an offset in the window.
Op resolve_generic(bool is_store, std::uint64_t first_addr, std::uint64_t shmem_base,
                   std::uint64_t local_base);

/// GPGPU-Sim's LOCAL_MEM_SIZE_MAX (abstract_hardware_model.h): the local window size per thread
/// that the generic resolution checks.
inline constexpr std::uint64_t kLocalMemSizeMax = 1u << 14;

}  // namespace gms::trace::detail
