#include "trace/import/sass_opcode.h"

#include <array>

namespace gms::trace::detail {

namespace {

struct BaseRow {
  std::string_view name;
  SassKind kind;
  Op op;
  std::uint8_t fixed_size;  // 0 = from the modifiers
};

// One row per base opcode the importers understand (README.md lists the same table).
constexpr std::array<BaseRow, 16> kRows{{
    {"LDG", SassKind::Memory, Op::LDG, 0},
    {"STG", SassKind::Memory, Op::STG, 0},
    {"LDS", SassKind::Memory, Op::LDS, 0},
    {"STS", SassKind::Memory, Op::STS, 0},
    {"LDL", SassKind::Memory, Op::LDL, 0},
    {"STL", SassKind::Memory, Op::STL, 0},
    {"ATOMG", SassKind::Memory, Op::ATOMG, 0},
    {"ATOM", SassKind::Memory, Op::ATOMG, 0},  // generic atomic: global, as Accel-Sim
    {"RED", SassKind::Memory, Op::RED, 0},
    {"REDG", SassKind::Memory, Op::RED, 0},
    {"ATOMS", SassKind::Memory, Op::LDS, 0},  // shared atomic: a shared access
    {"LDSM", SassKind::Memory, Op::LDS, 16},  // each lane names one 16-byte row
    {"STSM", SassKind::Memory, Op::STS, 16},
    {"LDGSTS", SassKind::Memory, Op::LDG, 0},  // async copy: the global read side
    {"LD", SassKind::GenericLoad, Op::LDG, 0},
    {"ST", SassKind::GenericStore, Op::STG, 0},
}};

/// Bytes named by one modifier, or 0 when it names no width.
std::uint8_t modifier_size(std::string_view m) {
  if (!m.empty() && (m[0] == 'U' || m[0] == 'S')) m.remove_prefix(1);
  if (m == "8") return 1;
  if (m == "16") return 2;
  if (m == "32") return 4;
  if (m == "64") return 8;
  if (m == "128") return 16;
  return 0;
}

}  // namespace

SassAccess classify_sass(std::string_view opcode) {
  const std::size_t dot = opcode.find('.');
  const std::string_view base = opcode.substr(0, dot);
  SassAccess a;
  for (const BaseRow& row : kRows) {
    if (row.name != base) continue;
    a.kind = row.kind;
    a.op = row.op;
    a.size = row.fixed_size;
    break;
  }
  if (a.kind == SassKind::Unsupported) {
    // Hopper's copies between global and shared memory by one thread for a whole tile
    // (cp.async.bulk -> UBLKCP, cp.async.bulk.tensor -> UTMALDG/UTMASTG, and their prefetch
    // and reduce forms): no per-lane addresses to coalesce.
    if (base.starts_with("UBLK") || base.starts_with("UTMA")) a.kind = SassKind::BulkCopy;
    return a;
  }
  a.async_copy = base == "LDGSTS";
  if (a.size == 0) {
    a.size = 4;
    std::string_view rest = dot == std::string_view::npos ? std::string_view{} : opcode.substr(dot);
    while (!rest.empty()) {
      rest.remove_prefix(1);  // '.'
      const std::size_t next = rest.find('.');
      const std::uint8_t s = modifier_size(rest.substr(0, next));
      if (s != 0) {
        a.size = s;
        break;
      }
      rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next);
    }
  }
  return a;
}

void count_skipped(ImportCounts& counts, std::string_view opcode, SassKind kind) {
  const std::string_view base = opcode.substr(0, opcode.find('.'));
  const bool bulk = kind == SassKind::BulkCopy;
  ++(bulk ? counts.bulk_copies : counts.unsupported);
  auto& by = bulk ? counts.bulk_by_opcode : counts.unsupported_by_opcode;
  auto it = by.find(base);
  if (it == by.end()) it = by.emplace(std::string(base), 0).first;
  ++it->second;
}

Op resolve_generic(bool is_store, std::uint64_t first_addr, std::uint64_t shmem_base,
                   std::uint64_t local_base) {
  if (shmem_base == 0 || local_base == 0) return is_store ? Op::STS : Op::LDS;
  if (first_addr >= shmem_base && first_addr < local_base) return is_store ? Op::STS : Op::LDS;
  if (first_addr >= local_base && first_addr - local_base < kLocalMemSizeMax)
    return is_store ? Op::STL : Op::LDL;
  return is_store ? Op::STG : Op::LDG;
}

}  // namespace gms::trace::detail
