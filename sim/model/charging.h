#pragma once
/// How the model's results are charged to the statistics: the rules that both replay engines
/// (sim/replay: the fast one and the reference) apply, each in one place. Everything here is
/// inline and small; it sits on the per-record path of the fast engine (the functions it inlined
/// there by force are marked so here).

#include <bit>
#include <cstdint>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/core/traffic.h"
#include "sim/model/coalescer.h"
#include "sim/model/dram_model.h"
#include "sim/model/l2_cache.h"
#include "sim/model/smem_arbiter.h"

namespace gms {

/// The coalescing counts of one execution of a global, local, atomic or bulk instruction `op`,
/// both modes. A bulk load (TMALD) writes its bytes into the issuing CTA's shared memory.
inline void charge_access(Op op, const CoalesceCounts& a, AccessCounters& c) {
  if (op == Op::TMALD) c.shared_bytes_written += a.bytes_requested;
  c.instructions += 1;
  c.requests += 1;
  c.active_threads += a.active_threads;
  c.bytes_requested += a.bytes_requested;
  c.bytes_distinct += a.bytes_distinct;
  c.sectors += a.sectors;
  c.transactions += a.transactions;
  c.lines += a.lines;
  c.bytes_fetched += std::uint64_t{a.transactions} * a.segment_bytes;
}

/// One global, local or atomic request's L1 traffic on SM `sm`: its sectors, and its tag lookups
/// and data wavefronts (l1_pipe.h), the time model's L1 term. A bulk op (`op`) has none: the TMA
/// unit moves its bytes between the L2 and shared memory, past the L1TEX pipeline.
inline void charge_l1_pipe(Op op, const CoalesceCounts& a, std::uint32_t sm,
                           TrafficProfile& units) {
  if (is_bulk(op)) return;
  units.sm_l1_sectors[sm] += a.sectors;
  units.sm_l1_tag_lookups[sm] += a.tag_lookups;
  units.sm_l1_data_wavefronts[sm] += a.data_wavefronts;
}

/// The cold model's hierarchy counters: every transaction misses everywhere, so L1 misses = L2
/// read sectors = sectors, and DRAM bytes = transactions x segment size.
inline void charge_cold_hierarchy(Op op, const CoalesceCounts& a, AccessCounters& c) {
  const std::uint64_t bytes = std::uint64_t{a.transactions} * a.segment_bytes;
  switch (op) {
    case Op::LDG:
    case Op::LDL:
    case Op::TMALD:  // bulk reads bypass the L1: a miss there by definition, as LDG's that do
    case Op::TMAPF:
      c.l1_sector_misses += a.sectors;
      c.l2_read_sectors += a.sectors;
      c.l2_read_sector_misses += a.sectors;
      c.dram_read_bytes += bytes;
      break;
    case Op::STG:
    case Op::STL:
    case Op::TMAST:
      c.l2_write_sectors += a.sectors;
      c.dram_write_bytes += bytes;
      break;
    case Op::ATOMG:
    case Op::RED:
    case Op::TMARED:
      c.l2_atomic_sectors += a.sectors;
      c.dram_read_bytes += bytes;
      break;
    case Op::LDS:
    case Op::STS:
    case Op::TMAMC:  // shared-memory bytes only (charge_bulk_delivery)
      break;
  }
}

/// One TMAMC record (a multicast load's delivery of `active` 16-byte lanes to one more CTA of its
/// mask): shared-memory bytes written, no global traffic, no request; its bytes are the TMALD
/// records' (bytes_requested counts them once). Both modes.
inline void charge_bulk_delivery(std::uint64_t active, AccessCounters& c) {
  c.instructions += 1;
  c.shared_bytes_written += active * kBulkLaneBytes;
}

/// One execution of a shared-memory instruction with `active` lanes of `size` bytes that the
/// arbiter served in `b`.
[[gnu::always_inline]] inline void charge_shared_access(const BankAccess& b, std::uint64_t active,
                                                        std::uint32_t size, AccessCounters& c) {
  c.instructions += 1;
  c.requests += 1;
  c.active_threads += active;
  c.bytes_requested += active * size;
  c.wavefronts += b.wavefronts;
  c.ideal_wavefronts += b.ideal_wavefronts;
}

/// Cold mode's DRAM requests for the sectors `mask` of the line at `line_addr` (op `op`, its
/// transactions of `seg` bytes): when the DRAM interleave is at least a line (`line_per_channel`)
/// the line lies in one channel, `channel_of()`, and is one request of its transactions' bytes;
/// else one request per segment it touches. The row model sees these requests in this order.
template <class ChannelOf>
[[gnu::always_inline]] inline void request_cold_line(DramModel& dram, const Coalescer& coalescer,
                                                     Op op, Addr line_addr, std::uint8_t mask,
                                                     std::uint32_t seg, bool line_per_channel,
                                                     ChannelOf channel_of) {
  const bool write = is_store(op);
  if (line_per_channel) {
    dram.access_channel(channel_of(), line_addr, coalescer.line_transactions(op, mask) * seg,
                        write);
    return;
  }
  const auto unit_sectors = static_cast<std::uint8_t>((1u << (seg / kSectorBytes)) - 1);
  for (std::uint32_t off = 0; off < kLineBytes; off += seg)
    if (mask & (unit_sectors << (off / kSectorBytes))) dram.access(line_addr + off, seg, write);
}

/// Cold mode's traffic of a coalesced access `a` (op `op`), as the reference and one-pass engines
/// replay it line by line: each line's sectors go to its L2 slice (`slice_sectors`, by
/// `slices`), its transactions to DRAM (request_cold_line).
inline void replay_cold_access(const CoalescedAccess& a, Op op, const Coalescer& coalescer,
                               const Interleave& slices, std::vector<std::uint64_t>& slice_sectors,
                               DramModel& dram, bool line_per_channel) {
  for (std::uint32_t i = 0; i < a.lines; ++i) {
    const LineAccess& la = a.line_list[i];
    slice_sectors[slices.unit_of(la.line_addr)] +=
        static_cast<std::uint64_t>(std::popcount(la.sector_mask));
    request_cold_line(dram, coalescer, op, la.line_addr, la.sector_mask, a.segment_bytes,
                      line_per_channel, [&] { return dram.channel_map().unit_of(la.line_addr); });
  }
}

/// What a line of a cached access does at L2 (the fast engine queues it with this kind:
/// sim/replay/fast/line_batch.h).
enum class L2AccessKind : std::uint8_t {
  CachedLoad,  ///< a load's L1 misses, read from L2
  Load,        ///< a load that bypasses L1: reads its sectors from L2
  Store,       ///< writes its sectors into L2 (its byte masks are queued beside it)
  Atomic,      ///< a read-modify-write at L2 (likewise)
};

/// True for the kinds whose queued access carries its byte masks (they write into L2).
constexpr bool writes_l2(L2AccessKind kind) {
  return kind == L2AccessKind::Store || kind == L2AccessKind::Atomic;
}

/// Cached mode: how the lines of an operation go through the hierarchy. LDL always, and LDG when
/// the L1 caches global loads, look up L1; other loads (bulk reads and prefetches included)
/// bypass it; stores (bulk stores included) write through to L2; atomics and reductions (bulk
/// reductions included) are read-modify-writes at L2.
constexpr L2AccessKind l2_access_kind(Op op, const L1Config& l1) {
  if (op == Op::LDL || (op == Op::LDG && l1.caches_global_loads)) return L2AccessKind::CachedLoad;
  if (is_global_load(op)) return L2AccessKind::Load;
  if (is_atomic(op)) return L2AccessKind::Atomic;
  return L2AccessKind::Store;
}

/// A load of sectors `want` found `hits` in L1 (a load that bypasses L1 finds none).
inline void count_l1(AccessCounters& c, std::uint8_t want, std::uint8_t hits) {
  const auto h = static_cast<std::uint64_t>(std::popcount(hits));
  c.l1_sector_hits += h;
  c.l1_sector_misses += static_cast<std::uint64_t>(std::popcount(want)) - h;
}

/// The L2's write-back of the dirty sectors `dirty` of the line at `line_addr`, which `owner`
/// dirtied last, in kernel `stats` (sequence number `kernel_seq`). During the kernel it is one
/// DRAM write per sector, on the channels (DramModel::write_sectors); in the end-of-kernel flush
/// (`flushing`) it is counted but not timed. Its bytes go to the owner's row when the owner is
/// of this kernel, else (a line that persisted from an earlier kernel) to the kernel itself.
/// `partial`: the dirty sectors not wholly written; where the memory reads those before writing
/// them (dram.partial_write_reads), each is first a 32-byte DRAM read, charged alike.
[[gnu::always_inline]] inline void charge_write_back(DramModel& dram, KernelStats& stats,
                                                     std::uint32_t kernel_seq, bool flushing,
                                                     const LineOwner& owner, Addr line_addr,
                                                     std::uint8_t dirty, std::uint8_t partial) {
  if (partial != 0 && dram.partial_write_reads()) [[unlikely]] {
    const std::uint32_t read = static_cast<std::uint32_t>(std::popcount(partial)) * kSectorBytes;
    if (flushing) {
      dram.flush_read(read);
    } else {
      for (std::uint8_t r = partial; r != 0; r &= static_cast<std::uint8_t>(r - 1))
        dram.access(line_addr + Addr{static_cast<unsigned>(std::countr_zero(r))} * kSectorBytes,
                    kSectorBytes, false);
    }
    if (owner.kernel == kernel_seq)
      stats.instructions[owner.row].c.dram_read_bytes += read;
    else
      stats.earlier_kernels_read_bytes += read;
  }
  const std::uint32_t bytes = static_cast<std::uint32_t>(std::popcount(dirty)) * kSectorBytes;
  if (flushing)
    dram.flush_write(bytes);
  else
    dram.write_sectors(line_addr, dirty);
  if (owner.kernel == kernel_seq)
    stats.instructions[owner.row].c.dram_write_bytes += bytes;
  else
    stats.earlier_kernels_write_bytes += bytes;
}

}  // namespace gms
