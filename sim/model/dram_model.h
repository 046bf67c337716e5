#pragma once
/// DRAM traffic as the time model needs it: bytes per channel, reads and writes, and (optional)
/// an open-row model. Fed with every DRAM access of a kernel, in order; it never changes what
/// the caches count.
///
/// Row model: each channel has `banks_per_channel` banks with one open row each; an address's
/// bank and row come from its offset inside the channel (row = channel offset / row_bytes, bank
/// = row mod banks). Requests wait in a per-channel window of `row_window`; when the window is
/// full the scheduler serves, FR-FCFS style, the oldest request that hits an open row, else the
/// oldest request (opening its row). Hits and misses are counted; the time model charges
/// `row_miss_penalty` extra per miss.

#include <bit>
#include <cstdint>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/traffic.h"
#include "sim/model/address_map.h"

namespace gms {

class DramModel {
 public:
  explicit DramModel(const DramConfig& cfg);

  /// One DRAM access of `bytes` at `addr`. Inline: a cold replay makes one per line touched.
  void access(Addr addr, std::uint32_t bytes, bool write) {
    access_channel(channels_.unit_of(addr), addr, bytes, write);
  }
  /// The same, for a caller that already knows the address's channel (channel_map().unit_of).
  void access_channel(std::uint32_t ch, Addr addr, std::uint32_t bytes, bool write) {
    t_.channel_bytes[ch] += bytes;
    (write ? t_.write_bytes : t_.read_bytes) += bytes;
    if (row_model_) queue_for_row(ch, addr);
  }

  /// Write-backs of the 32-byte sectors `mask` (bit s = sector s) of the line at `line_addr`,
  /// one access per sector. Without the row model, sectors that share a channel chunk add the
  /// same bytes to the same channel in one access as in several, so they are merged.
  void write_sectors(Addr line_addr, std::uint8_t mask) {
    constexpr unsigned kSector = 32;
    const Addr first = line_addr + Addr{static_cast<unsigned>(std::countr_zero(mask))} * kSector;
    const Addr last =
        line_addr +
        Addr{31u - static_cast<unsigned>(std::countl_zero(std::uint32_t{mask}))} * kSector;
    if (!row_model_ && first >> interleave_shift_ == last >> interleave_shift_) {
      access(first, static_cast<std::uint32_t>(std::popcount(mask)) * kSector, true);
      return;
    }
    for (std::uint8_t r = mask; r != 0; r &= static_cast<std::uint8_t>(r - 1))
      access(line_addr + Addr{static_cast<unsigned>(std::countr_zero(r))} * kSector, kSector, true);
  }

  const Interleave& channel_map() const { return channels_; }
  bool row_model() const { return row_model_; }

  /// Without the row model an access only adds bytes, to its channel and to the read or write
  /// total; a caller with many accesses can add the channels one by one and the total once.
  void add_channel_bytes(std::uint32_t ch, std::uint32_t bytes) { t_.channel_bytes[ch] += bytes; }
  void add_total_bytes(std::uint64_t bytes, bool write) {
    (write ? t_.write_bytes : t_.read_bytes) += bytes;
  }

  /// The bytes read and written so far in the kernel (an ordered replay measures each record's).
  std::uint64_t bytes() const { return t_.read_bytes + t_.write_bytes; }

  /// A write-back of the end-of-kernel flush: counted, not timed.
  void flush_write(std::uint32_t bytes) {
    t_.write_bytes += bytes;
    t_.flush_write_bytes += bytes;
  }
  /// A read of the flush (a partly written sector read before its write-back): likewise.
  void flush_read(std::uint32_t bytes) {
    t_.read_bytes += bytes;
    t_.flush_read_bytes += bytes;
  }

  /// Whether a write-back of a partly written sector reads it first (dram.partial_write_reads).
  bool partial_write_reads() const { return cfg_.partial_write_reads; }

  /// Drains the row-model windows and returns the kernel's traffic; the model starts over.
  DramTraffic finish();

 private:
  struct Pending {
    std::uint32_t bank;
    std::uint64_t row;
  };
  void queue_for_row(std::uint32_t channel, Addr addr);
  void serve_one(std::uint32_t channel);

  DramConfig cfg_;
  bool row_model_;
  Interleave channels_;
  unsigned interleave_shift_;
  DramTraffic t_;
  std::vector<std::vector<Pending>> window_;  ///< per channel, bounded by row_window
  std::vector<std::uint64_t> open_row_;       ///< per channel x bank; ~0 = closed
};

}  // namespace gms
