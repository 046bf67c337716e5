#include "sim/stats.h"

namespace gms {

namespace {
/// Applies `f(a_member, b_member)` to every counter; the one place that lists them.
template <class A, class B, class F>
void for_each_counter(A& a, B& b, F f) {
  f(a.instructions, b.instructions);
  f(a.active_threads, b.active_threads);
  f(a.requests, b.requests);
  f(a.sectors, b.sectors);
  f(a.transactions, b.transactions);
  f(a.lines, b.lines);
  f(a.bytes_requested, b.bytes_requested);
  f(a.bytes_distinct, b.bytes_distinct);
  f(a.bytes_fetched, b.bytes_fetched);
  f(a.wavefronts, b.wavefronts);
  f(a.ideal_wavefronts, b.ideal_wavefronts);
  f(a.l1_sector_hits, b.l1_sector_hits);
  f(a.l1_sector_misses, b.l1_sector_misses);
  f(a.l2_read_sectors, b.l2_read_sectors);
  f(a.l2_read_sector_hits, b.l2_read_sector_hits);
  f(a.l2_read_sector_misses, b.l2_read_sector_misses);
  f(a.l2_write_sectors, b.l2_write_sectors);
  f(a.l2_atomic_sectors, b.l2_atomic_sectors);
  f(a.dram_read_bytes, b.dram_read_bytes);
  f(a.dram_write_bytes, b.dram_write_bytes);
}
}  // namespace

AccessCounters& AccessCounters::operator+=(const AccessCounters& o) {
  for_each_counter(*this, o, [](std::uint64_t& x, std::uint64_t y) { x += y; });
  return *this;
}

AccessCounters operator-(AccessCounters a, const AccessCounters& b) {
  for_each_counter(a, b, [](std::uint64_t& x, std::uint64_t y) { x -= y; });
  return a;
}

}  // namespace gms
