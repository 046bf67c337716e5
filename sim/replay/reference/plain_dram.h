#pragma once
/// The reference's DRAM counting (sim/replay/reference_engine.h): bytes per channel, read and
/// write totals, and, where dram.row_model is on, open-row hits and misses.
///
/// Row model (the dram.* keys, docs/config.md): a channel has dram.banks_per_channel banks,
/// each with one open row. An address's offset inside its channel is its interleave chunk's
/// index among the channel's chunks (chunk / channels) times the interleave, plus its offset in
/// the chunk; row = offset / dram.row_bytes, bank = row mod banks. Requests wait in a window of
/// dram.row_window per channel; a request arriving at a full window first makes the scheduler
/// serve one, FR-FCFS: the oldest waiting request whose row is open in its bank (a hit), else
/// the oldest (a miss, which opens its row). At the kernel's end every window drains in the same
/// way and every row closes.

#include <cstdint>
#include <deque>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/traffic.h"
#include "sim/core/types.h"
#include "sim/model/address_map.h"

namespace gms::ref {

class PlainDram {
 public:
  explicit PlainDram(const DramConfig& cfg);

  /// One request of `bytes` at `addr`, on the channel the address maps to.
  void access(Addr addr, std::uint32_t bytes, bool write);

  /// A write-back of the end-of-kernel L2 flush: in the write total (and its own count), not in
  /// any channel's bytes or the row model (the hardware drains dirty lines lazily, after the
  /// kernel's own traffic).
  void flush_write(std::uint32_t bytes);
  /// A read of the end-of-kernel flush (a partly written sector read first): counted, not timed.
  void flush_read(std::uint32_t bytes);

  /// The bytes read and written so far in the kernel.
  std::uint64_t bytes() const { return t_.read_bytes + t_.write_bytes; }

  /// The kernel's traffic, after draining the row windows; counting starts over.
  DramTraffic finish();

 private:
  struct Request {
    std::uint32_t bank = 0;
    std::uint64_t row = 0;
  };
  void serve_one(std::uint32_t channel);

  DramConfig cfg_;
  Interleave channels_;
  DramTraffic t_;
  std::vector<std::deque<Request>> window_;       ///< per channel, oldest first
  std::vector<std::vector<std::uint64_t>> open_;  ///< per channel, per bank: the open row
  std::vector<std::vector<bool>> is_open_;        ///< per channel, per bank: a row is open
};

}  // namespace gms::ref
