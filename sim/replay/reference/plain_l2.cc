#include "sim/replay/reference/plain_l2.h"

#include <bit>
#include <utility>

namespace gms::ref {

namespace {

constexpr std::uint32_t kAllBytes = 0xffffffffu;  ///< every byte of a 32-byte sector

std::uint64_t count(std::uint8_t mask) {
  return static_cast<std::uint64_t>(std::popcount(mask));
}

}  // namespace

PlainL2::PlainL2(const L2Config& cfg, std::uint32_t sm_count)
    : cfg_(cfg),
      sm_count_(sm_count),
      slices_map_(l2_slices(cfg)),
      sets_(static_cast<std::uint32_t>(std::uint64_t{cfg.size_kb} * 1024 /
                                       (std::uint64_t{cfg.slices} * cfg.ways * cfg.line_bytes))),
      slice_sectors_(cfg.slices, 0) {
  for (std::uint32_t s = 0; s < cfg.slices; ++s)
    slices_.emplace_back(sets_, cfg.ways, cfg.policy, cfg.seed + s);
}

std::uint32_t PlainL2::set_of(Addr addr) const {
  const std::uint64_t chunk64 = addr / cfg_.interleave_bytes;
  const auto chunk = static_cast<std::uint32_t>(chunk64 ^ (chunk64 >> 32));
  const std::uint32_t lines_per_chunk = cfg_.interleave_bytes / cfg_.line_bytes;
  const auto place_in_chunk = static_cast<std::uint32_t>(addr / cfg_.line_bytes % lines_per_chunk);
  const std::uint32_t local = chunk / cfg_.slices * lines_per_chunk + place_in_chunk;
  return local % sets_;
}

std::uint32_t PlainL2::partition_of_slice(std::uint32_t slice) const {
  return slice / (cfg_.slices / cfg_.partitions);
}

std::uint32_t PlainL2::mirror(std::uint32_t home, std::uint32_t partition) const {
  const std::uint32_t per = cfg_.slices / cfg_.partitions;
  return partition * per + home % per;
}

PlainL2::Place PlainL2::locate(Addr addr, L2Memory& memory) {
  Place p{slice_of(addr), set_of(addr), 0};
  const std::uint64_t key = addr / cfg_.line_bytes;
  PlainSectorCache& slice = slices_[p.slice];
  p.way = slice.find(p.set, key);
  if (p.way >= 0) {
    slice.touch(p.set, p.way);
    return p;
  }
  Evicted gone;
  p.way = slice.allocate(p.set, key, gone);
  if (gone.any && gone.line.dirty != 0)
    memory.write_back(gone.line.owner, gone.line.key * cfg_.line_bytes, gone.line.dirty,
                      static_cast<std::uint8_t>(gone.line.dirty & ~gone.line.valid));
  return p;
}

std::uint64_t PlainL2::fetch(const Place& place, std::uint8_t missing, L2Memory& memory) {
  Way& line = way_at(place);
  const std::uint32_t unit_sectors = cfg_.dram_fetch_bytes / kSector;
  const std::uint32_t line_sectors = cfg_.line_bytes / kSector;
  std::uint64_t bytes = 0;
  for (std::uint32_t first = 0; first < line_sectors; first += unit_sectors) {
    const auto unit = static_cast<std::uint8_t>(((1u << unit_sectors) - 1) << first);
    if ((missing & unit) == 0) continue;
    line.valid |= unit;
    bytes += cfg_.dram_fetch_bytes;
    memory.read(line.key * cfg_.line_bytes + first * kSector, cfg_.dram_fetch_bytes);
  }
  return bytes;
}

template <class F>
void PlainL2::for_each_l2_line(Addr line_addr, std::uint8_t want, L2Memory& memory, F f) {
  std::uint8_t done = 0;  // the 32-byte sectors of `want` already handled
  for (unsigned s = 0; s < kLine / kSector; ++s) {
    if (!(want >> s & 1u) || (done >> s & 1u)) continue;
    const Addr first = line_addr + s * kSector;
    const std::uint64_t key = first / cfg_.line_bytes;
    std::uint8_t sectors = 0;  // as the L2 line's sector bits
    for (unsigned t = s; t < kLine / kSector; ++t) {
      const Addr a = line_addr + t * kSector;
      if (!(want >> t & 1u) || a / cfg_.line_bytes != key) continue;
      done = static_cast<std::uint8_t>(done | 1u << t);
      sectors = static_cast<std::uint8_t>(sectors | 1u << (a % cfg_.line_bytes / kSector));
    }
    const Place p = locate(first, memory);
    slice_sectors_[p.slice] += count(sectors);
    f(p, sectors);
  }
}

void PlainL2::read(Addr line_addr, std::uint8_t want, std::uint32_t sm, AccessCounters& c,
                   L2Memory& memory) {
  if (cfg_.partitions > 1) {
    const std::uint32_t home = slice_of(line_addr);
    const auto near = static_cast<std::uint32_t>(std::uint64_t{sm} * cfg_.partitions / sm_count_);
    if (partition_of_slice(home) != near) {
      read_far(line_addr, want, home, near, c, memory);
      return;
    }
  }
  for_each_l2_line(line_addr, want, memory, [&](const Place& p, std::uint8_t sectors) {
    const auto missing = static_cast<std::uint8_t>(sectors & ~way_at(p).valid);
    c.l2_read_sectors += count(sectors);
    c.l2_read_sector_misses += count(missing);
    c.l2_read_sector_hits += count(sectors) - count(missing);
    c.dram_read_bytes += fetch(p, missing, memory);
  });
}

void PlainL2::read_far(Addr line_addr, std::uint8_t want, std::uint32_t home, std::uint32_t near,
                       AccessCounters& c, L2Memory& memory) {
  // Partitions have 128-byte lines (validated): the coalescer's line is one L2 line.
  const std::uint64_t key = line_addr / cfg_.line_bytes;
  const std::uint32_t set = set_of(line_addr);
  const std::uint32_t m = mirror(home, near);
  PlainSectorCache& copies = slices_[m];
  int copy = copies.find(set, key);
  const std::uint8_t held = copy < 0 ? 0 : copies.way(set, copy).valid;
  const auto near_hit = static_cast<std::uint8_t>(want & held);
  const auto rest = static_cast<std::uint8_t>(want & ~held);
  c.l2_read_sectors += count(want);
  if (near_hit != 0) {
    c.l2_read_sector_hits += count(near_hit);
    slice_sectors_[m] += count(near_hit);
    copies.touch(set, copy);
  }
  if (rest == 0) return;
  const Place p = locate(line_addr, memory);  // the home slice
  slice_sectors_[home] += count(rest);
  const auto far_hit = static_cast<std::uint8_t>(rest & way_at(p).valid);
  const auto missing = static_cast<std::uint8_t>(rest & ~way_at(p).valid);
  c.l2_read_sector_hits += count(far_hit);
  c.l2_read_sector_misses += count(missing);
  far_hit_sectors_ += count(far_hit);
  c.dram_read_bytes += fetch(p, missing, memory);
  // What the home slice delivered, far hits and DRAM fills alike, is copied into the mirror;
  // a new copy enters its set's LRU order l2.copy_insert_pct of the ways behind the front.
  if (copy < 0) {
    Evicted gone;
    copy = copies.allocate(set, key, gone, cfg_.copy_insert_pct * (cfg_.ways - 1) / 100);
    // The mirror slice is another line's home slice: its victim may be dirty.
    if (gone.any && gone.line.dirty != 0)
      memory.write_back(gone.line.owner, gone.line.key * cfg_.line_bytes, gone.line.dirty,
                        static_cast<std::uint8_t>(gone.line.dirty & ~gone.line.valid));
  } else if (near_hit == 0) {
    copies.touch(set, copy);
  }
  copies.way(set, copy).valid |= rest;
}

void PlainL2::write(const PlainLine& line, const Owner& owner, AccessCounters& c,
                    L2Memory& memory) {
  for_each_l2_line(line.addr, line.sectors, memory, [&](const Place& p, std::uint8_t sectors) {
    c.l2_write_sectors += count(sectors);
    Way& l = way_at(p);
    const Addr base = l.key * cfg_.line_bytes;
    for (unsigned s = 0; s < 8; ++s) {
      if (!(sectors >> s & 1u)) continue;
      const auto bit = static_cast<std::uint8_t>(1u << s);
      l.dirty |= bit;
      if (l.valid & bit) continue;  // it holds data: the write updates it
      // The bytes of the coalescer's line that land in this L2 sector.
      const std::uint32_t bytes = line.bytes[(base + s * kSector - line.addr) / kSector];
      l.written[s] |= bytes;
      if (bytes == kAllBytes || l.written[s] == kAllBytes) l.valid |= bit;
    }
    l.owner = owner;
  });
  if (cfg_.partitions > 1) drop_copies(line.addr, line.sectors);
}

void PlainL2::atomic(const PlainLine& line, const Owner& owner, AccessCounters& c,
                     L2Memory& memory) {
  for_each_l2_line(line.addr, line.sectors, memory, [&](const Place& p, std::uint8_t sectors) {
    c.l2_atomic_sectors += count(sectors);
    c.dram_read_bytes += fetch(p, static_cast<std::uint8_t>(sectors & ~way_at(p).valid), memory);
    way_at(p).dirty |= sectors;
    way_at(p).owner = owner;
  });
  if (cfg_.partitions > 1) drop_copies(line.addr, line.sectors);
}

void PlainL2::drop_copies(Addr line_addr, std::uint8_t sectors) {
  const std::uint64_t key = line_addr / cfg_.line_bytes;
  const std::uint32_t home = slice_of(line_addr);
  const std::uint32_t set = set_of(line_addr);
  for (std::uint32_t p = 0; p < cfg_.partitions; ++p) {
    if (p == partition_of_slice(home)) continue;
    PlainSectorCache& copies = slices_[mirror(home, p)];
    const int copy = copies.find(set, key);
    if (copy >= 0) copies.way(set, copy).valid &= static_cast<std::uint8_t>(~sectors);
  }
}

void PlainL2::flush(L2Memory& memory) {
  for (PlainSectorCache& slice : slices_) {
    for (std::vector<Way>& set : slice.all_sets())
      for (const Way& w : set)
        if (w.used && w.dirty != 0)
          memory.write_back(w.owner, w.key * cfg_.line_bytes, w.dirty,
                            static_cast<std::uint8_t>(w.dirty & ~w.valid));
    slice.clear();
  }
}

std::vector<std::uint64_t> PlainL2::take_slice_sectors() {
  std::vector<std::uint64_t> out(cfg_.slices, 0);
  out.swap(slice_sectors_);
  return out;
}

std::uint64_t PlainL2::take_far_hit_sectors() {
  return std::exchange(far_hit_sectors_, 0);
}

}  // namespace gms::ref
