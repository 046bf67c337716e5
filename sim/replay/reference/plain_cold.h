#pragma once
/// The reference's cold model (sim/replay/reference_engine.h): every global, local or atomic
/// access misses in every level. So a load's sectors all miss L1 and are read from L2, where they
/// miss too; a store's sectors are written to L2; an atomic's are updated there; and every
/// transaction goes to DRAM (a store's as a write, a load's or atomic's as a read), its bytes
/// the transaction size. Each line's sectors are counted in its L2 slice. DRAM requests: when the
/// DRAM interleave is at least a line (the line lies in one channel) a line is one request of
/// its transactions' bytes at the line's address; else each transaction is its own request at
/// its segment's address. The row model sees them in this order.

#include <cstdint>
#include <vector>

#include "sim/config/config.h"
#include "sim/core/stats.h"
#include "sim/model/address_map.h"
#include "sim/replay/reference/plain_coalescer.h"
#include "sim/replay/reference/plain_dram.h"

namespace gms::ref {

class PlainCold {
 public:
  explicit PlainCold(const SimConfig& cfg);

  /// Starts a kernel: no sectors counted in any slice yet.
  void begin_kernel();

  /// The misses of access `a` of an `op` record: its row's hierarchy counters `c`, its slices'
  /// sectors, its DRAM requests.
  void access(Op op, const PlainAccess& a, AccessCounters& c);

  /// The kernel's L2 slice sectors and DRAM traffic into `traffic`.
  void end_kernel(TrafficProfile& traffic);

 private:
  SimConfig cfg_;
  Interleave slices_;
  PlainDram dram_;
  std::vector<std::uint64_t> slice_sectors_;
};

}  // namespace gms::ref
