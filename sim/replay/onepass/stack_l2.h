#pragma once
/// The L2 of several LRU configurations in one pass: the same sliced, sectored, write-back,
/// write-allocate cache as L2Cache (l2_cache.h), for configurations that differ only in their
/// capacity and ways (so in their sets per slice), fed one access stream. Configurations with
/// the same sets per slice share one recency stack (StackLru: every associativity from one
/// stack); a set count that only one configuration has is an LRU tag store of the model's rules
/// whose sets take memory once used (PooledLru: the same lines, a faster search); set counts that
/// are one times powers of two (the L2's ways at one capacity: 5120 / ways sets) share one
/// all-associativity stack (AllAssocLru: every set count and associativity from one recency list
/// per set of the smallest). Per configuration it keeps what L2Cache keeps per line (valid and
/// dirty sectors, written bytes of partial sectors; the last writer is the same in every
/// configuration) and charges what L2Cache charges: read sectors, hits and misses, DRAM fetch
/// units, write-backs at eviction and at the flush, to the caller's per-configuration counters.
/// tests/e2e/onepass_sweep_test.cc holds every result to a separate replay of each configuration.

#include <bit>
#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/fast_div.h"
#include "sim/core/stats.h"
#include "sim/model/address_map.h"
#include "sim/model/coalescer.h"
#include "sim/model/l2_cache.h"
#include "sim/model/replacement.h"
#include "sim/replay/onepass/all_assoc_lru.h"
#include "sim/replay/onepass/pooled_lru.h"
#include "sim/replay/onepass/stack_lru.h"

namespace gms {

/// Where StackL2 charges configuration c's results: its counters of the row being replayed, its
/// DRAM reads, and write-backs of the dirty sectors `dirty` of the line at `addr` (the last
/// argument: those of them not wholly written, as L2Cache hands them).
template <class S>
concept StackL2Sink = requires(S s, std::size_t c, Addr addr, std::uint32_t bytes,
                               const LineOwner& owner, std::uint8_t dirty) {
  { s.counters(c) } -> std::same_as<AccessCounters&>;
  s.dram_read(c, addr, bytes);
  s.dram_write_back(c, owner, addr, dirty, dirty);
};

/// The dirty sectors of `st` not wholly written (never valid).
inline std::uint8_t partial_of(const StackSectors& st) {
  return static_cast<std::uint8_t>(st.dirty & ~st.valid);
}

/// The sets of each L2 slice: the capacity over slices x ways x line size (as L2Cache sizes it).
inline std::uint32_t l2_sets_per_slice(const L2Config& cfg) {
  return static_cast<std::uint32_t>(std::uint64_t{cfg.size_kb} * 1024 /
                                    (std::uint64_t{cfg.slices} * cfg.ways * cfg.line_bytes));
}

/// The set, inside its slice of `sets` sets, of L2 line `key` (holding byte `addr`): the
/// arithmetic of L2Cache::set_of (the line's index among its slice's lines, mod sets), which
/// tests/e2e/onepass_sweep_test.cc holds to the L2's own results.
class L2SetIndex {
 public:
  L2SetIndex(const L2Config& cfg, std::uint32_t sets)
      : interleave_shift_(static_cast<unsigned>(std::countr_zero(cfg.interleave_bytes))),
        lines_per_chunk_(cfg.interleave_bytes / cfg.line_bytes),
        slices_div_(cfg.slices),
        sets_div_(sets) {}

  std::uint32_t operator()(Addr addr, std::uint64_t key) const {
    return sets_div_.mod(local(addr, key));
  }
  /// The line's index among its slice's lines: its set is this modulo the sets.
  std::uint32_t local(Addr addr, std::uint64_t key) const {
    const std::uint32_t chunk = fold32(addr >> interleave_shift_);
    return slices_div_.div(chunk) * lines_per_chunk_ +
           static_cast<std::uint32_t>(key & (lines_per_chunk_ - 1));
  }

 private:
  unsigned interleave_shift_;
  std::uint32_t lines_per_chunk_;
  FastDiv32 slices_div_, sets_div_;
};

class StackL2 {
 public:
  /// `cfgs`: LRU configurations with 128-byte lines of 32-byte sectors that agree on every
  /// field but size_kb and ways (the caller checks: sim/replay/onepass/engine.h).
  explicit StackL2(const std::vector<L2Config>& cfgs);

  std::size_t configs() const { return configs_; }

  /// Reads 32-byte sectors `want` of the 128-byte line `line_addr`, in every configuration.
  template <StackL2Sink Sink>
  void read(Addr line_addr, std::uint8_t want, Sink& sink) {
    const auto n = static_cast<std::uint64_t>(std::popcount(want));
    each(line_addr, sink, [&](StackSectors& st, std::uint32_t, std::size_t, std::size_t g) {
      const auto miss = static_cast<std::uint8_t>(want & ~st.valid);
      const auto m = static_cast<std::uint64_t>(std::popcount(miss));
      AccessCounters& c = sink.counters(g);
      c.l2_read_sectors += n;
      c.l2_read_sector_misses += m;
      c.l2_read_sector_hits += n - m;
      c.dram_read_bytes += fetch(g, line_addr, st.valid, miss, sink);
    });
  }

  /// A store of the line's sectors, with per-sector byte masks; no DRAM read.
  template <StackL2Sink Sink>
  void write(const LineAccess& la, const LineOwner& owner, Sink& sink) {
    const auto n = static_cast<std::uint64_t>(std::popcount(la.sector_mask));
    each(la.line_addr, sink,
         [&](StackSectors& st, std::uint32_t slot, std::size_t c, std::size_t g) {
           sink.counters(g).l2_write_sectors += n;
           mark_written(*level_, slot, c, st, la);
         });
    set_owner(la.line_addr, owner);
  }

  /// An atomic or reduction: fetches missing sectors, dirties them.
  template <StackL2Sink Sink>
  void atomic(const LineAccess& la, const LineOwner& owner, Sink& sink) {
    const std::uint8_t sectors = la.sector_mask;
    const auto n = static_cast<std::uint64_t>(std::popcount(sectors));
    each(la.line_addr, sink, [&](StackSectors& st, std::uint32_t, std::size_t, std::size_t g) {
      AccessCounters& c = sink.counters(g);
      c.l2_atomic_sectors += n;
      c.dram_read_bytes +=
          fetch(g, la.line_addr, st.valid, static_cast<std::uint8_t>(sectors & ~st.valid), sink);
      st.dirty |= sectors;
    });
    set_owner(la.line_addr, owner);
  }

  /// Writes every configuration's dirty lines back (charged to their owners) and empties it.
  template <StackL2Sink Sink>
  void flush(Sink& sink) {
    for (Level& l : levels_) {
      if (l.single) {
        l.single->for_each_line([&](std::size_t slot, std::uint64_t key, std::uint8_t dirty) {
          if (dirty != 0)
            sink.dram_write_back(l.configs[0], owner_of(l, static_cast<std::uint32_t>(slot)),
                                 key << 7, dirty,
                                 static_cast<std::uint8_t>(dirty & ~l.single->valid(slot)));
        });
        l.single->clear();
        continue;
      }
      auto flush_stack = [&](auto& stack) {
        for (std::size_t c = 0; c < l.configs.size(); ++c)
          stack.for_each_resident(c, [&](std::uint32_t slot, std::uint64_t key) {
            const StackSectors st = stack.state(slot, c);
            if (st.dirty != 0)
              sink.dram_write_back(l.configs[c], owner_of(l, slot), key << 7, st.dirty,
                                   partial_of(st));
          });
        stack.clear();
      };
      if (l.all)
        flush_stack(*l.all);
      else
        flush_stack(*l.stack);
    }
  }

 private:
  /// The configurations of one sets-per-slice value: one stack over all slices' sets.
  /// Several configurations share a stack; a set count that only one has is an LRU tag store
  /// (PooledLru: SectorCache<LruPolicy>'s lines, a faster search and update; memory for the
  /// sets used only), with the written bytes and owners beside it, by its dense slots; set counts
  /// that nest share one all-associativity stack (`all`, one level for all of them).
  struct Level {
    std::optional<StackLru> stack;
    std::optional<AllAssocLru> all;
    std::optional<PooledLru> single;
    std::unique_ptr<std::uint32_t[]> single_bytes;  ///< per slot and sector, read while dirty
    std::unique_ptr<std::uint64_t[]> single_tag;    ///< per slot, read while dirty
    L2SetIndex index;
    std::uint32_t sets_per_slice;
    std::vector<std::size_t> configs;  ///< the stack's configuration c is configs[c] overall
    std::uint32_t last_slot = 0;       ///< the slot of the line accessed last

    std::uint64_t& tag(std::uint32_t slot) {
      return stack ? stack->tag(slot) : all ? all->tag(slot) : single_tag[slot];
    }
    std::uint32_t& bytes(std::uint32_t slot, std::size_t c, unsigned s) {
      return stack ? stack->bytes(slot, c, s)
             : all ? all->bytes(slot, c, s)
                   : single_bytes[std::size_t{slot} * kSectorsPerLine + s];
    }
  };

  static LineOwner owner_of(Level& l, std::uint32_t slot) {
    const std::uint64_t t = l.tag(slot);
    return {static_cast<std::uint32_t>(t >> 32), static_cast<std::uint32_t>(t)};
  }

  /// Accesses the line in every level (writing back what each configuration evicts), then calls
  /// f(state, slot, c, g) for each configuration: its state of the line, the slot, its index in
  /// the level and overall. level_ is the level being visited.
  template <class Sink, class F>
  void each(Addr line_addr, Sink& sink, F f) {
    const std::uint64_t key = line_addr >> 7;
    const std::uint32_t slice = slices_.unit_of(line_addr);
    for (Level& l : levels_) {
      level_ = &l;
      if (l.all) {
        const std::uint32_t slot =
            l.all->access(slice, l.index.local(line_addr, key), key, evict_to(sink, l, *l.all));
        l.last_slot = slot;
        for (std::size_t c = 0; c < l.configs.size(); ++c)
          f(l.all->state(slot, c), slot, c, l.configs[c]);
        continue;
      }
      const std::uint32_t set = slice * l.sets_per_slice + l.index(line_addr, key);
      if (l.single) {  // L2Cache::locate, on a tag store of the same rules
        PooledLru& tags = *l.single;
        std::int32_t way = tags.find(set, key);
        std::uint32_t slot;
        if (way == PooledLru::kMiss) {
          Eviction ev;
          way = static_cast<std::int32_t>(tags.allocate(set, key, ev));
          slot = static_cast<std::uint32_t>(tags.slot(set, static_cast<std::uint32_t>(way)));
          if (ev.valid && ev.dirty_mask != 0)  // its owner is still the victim's
            sink.dram_write_back(l.configs[0], owner_of(l, slot), ev.key << 7, ev.dirty_mask,
                                 ev.partial_mask);
        } else {
          tags.touch(set, static_cast<std::uint32_t>(way));
          slot = static_cast<std::uint32_t>(tags.slot(set, static_cast<std::uint32_t>(way)));
        }
        l.last_slot = slot;
        StackSectors st{tags.valid(slot), tags.dirty(slot)};
        f(st, slot, 0, l.configs[0]);
        tags.valid(slot) = st.valid;
        tags.dirty(slot) = st.dirty;
        continue;
      }
      const StackLru::Found found = l.stack->access(set, key, evict_to(sink, l, *l.stack));
      l.last_slot = found.slot;
      for (std::size_t c = 0; c < l.configs.size(); ++c)
        f(l.stack->state(found.slot, c), found.slot, c, l.configs[c]);
    }
  }

  /// A stack's on_evict: writes the dirty sectors of what configuration c evicts back.
  template <class Sink, class Stack>
  static auto evict_to(Sink& sink, Level& l, Stack& stack) {
    return [&sink, &l, &stack](std::size_t c, std::uint64_t victim, std::uint32_t slot) {
      const StackSectors st = stack.state(slot, c);
      if (st.dirty != 0)
        sink.dram_write_back(l.configs[c], owner_of(l, slot), victim << 7, st.dirty,
                             partial_of(st));
    };
  }

  /// The line accessed last is now written by `owner` in every configuration (and may be dirty).
  void set_owner(Addr, const LineOwner& owner) {
    for (Level& l : levels_) {
      l.tag(l.last_slot) = std::uint64_t{owner.kernel} << 32 | owner.row;
      if (l.all) l.all->note_dirty();  // its evictions may now write back
    }
  }

  /// Fills the DRAM fetch units holding the `miss` sectors of configuration g's line; returns
  /// the DRAM bytes read (L2Cache::fetch).
  template <class Sink>
  std::uint64_t fetch(std::size_t g, Addr line_addr, std::uint8_t& valid, std::uint8_t miss,
                      Sink& sink) const {
    std::uint64_t bytes = 0;
    const auto unit = static_cast<std::uint8_t>((1u << fetch_sectors_) - 1);
    for (unsigned first = 0; first < 4; first += fetch_sectors_) {
      if (!(miss & (unit << first))) continue;
      bytes += fetch_bytes_;
      valid |= static_cast<std::uint8_t>(unit << first);
      sink.dram_read(g, line_addr + Addr{first} * kSectorBytes, fetch_bytes_);
    }
    return bytes;
  }

  /// A store's bytes in an invalid sector (L2Cache::mark_written): a whole sector becomes valid;
  /// partial ones accumulate while the sector stays dirty.
  static void mark_written(Level& l, std::uint32_t slot, std::size_t c, StackSectors& st,
                           const LineAccess& la) {
    const std::uint8_t sectors = la.sector_mask;
    const std::uint8_t was_dirty = st.dirty;
    st.dirty |= sectors;
    for (auto r = static_cast<std::uint8_t>(sectors & ~st.valid); r != 0; r &= r - 1) {
      const auto s = static_cast<unsigned>(std::countr_zero(r));
      const auto bit = static_cast<std::uint8_t>(1u << s);
      const std::uint32_t written = la.byte_mask[s];
      if (written == 0xffffffffu) {
        st.valid |= bit;
        continue;
      }
      std::uint32_t& bytes = l.bytes(slot, c, s);
      bytes = (was_dirty & bit) ? bytes | written : written;
      if (bytes == 0xffffffffu) st.valid |= bit;
    }
  }

  std::size_t configs_;
  Interleave slices_;
  std::uint32_t fetch_sectors_;
  std::uint32_t fetch_bytes_;
  std::vector<Level> levels_;
  Level* level_ = nullptr;
};

}  // namespace gms
