#include "sim/layout/layout_reader.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "sim/layout/vector_merge.h"

namespace gms {

bool LayoutReader::next_kernel(KernelInfo& out) {
  const bool more = inner_.next_kernel(out);
  active_ = more && (!change_.kernel_id || *change_.kernel_id == out.id);
  if (active_ && change_.space == LayoutSpace::Shared) {
    const std::uint64_t shmem = change_.shared_bytes(out.shmem_bytes);
    if (shmem != out.shmem_bytes) {
      // The padded tile takes more shared memory per CTA (occupancy reads it): the kernel line's
      // shmem= key says so too, so that a written-out trace reads back the same.
      out.shmem_bytes = shmem;
      for (auto& [key, value] : out.params)
        if (key == "shmem") value = std::to_string(shmem);
    }
  }
  return more;
}

std::size_t LayoutReader::read(std::span<WarpInstr> out) {
  if (change_.kind == LayoutKind::Vector) {
    // Merged records leave the batch; a batch merged away entirely is not the kernel's end.
    for (;;) {
      const std::size_t n = inner_.read(out);
      if (n == 0 || !active_) return n;
      // A few tries at a picture: a run that does not merge is no sample.
      if (!has_sample_ && sample_tries_ < 16) sample_vector(out.first(n));
      if (const std::size_t left = merge_vector_runs(out.first(n), change_.insts, rewritten_))
        return left;
    }
  }
  const std::size_t n = inner_.read(out);
  if (!active_) return n;
  for (std::size_t i = 0; i < n; ++i) {
    WarpInstr& w = out[i];
    if (!in_space(w.op, change_.space)) continue;
    if (!has_sample_ &&
        (any_sample_ || (w.inst == sample_inst_ && w.op == sample_op_ && w.size == sample_size_))) {
      // Once per replay: the record before its lanes move.
      if (!w.lanes_complete) complete_strided_lanes(w);
      sample_before_ = w;
      if (rewrite(w)) {
        ++rewritten_;
        sample_after_ = w;
        has_sample_ = true;
      }
      continue;
    }
    if (rewrite(w)) ++rewritten_;
  }
  return n;
}

void LayoutReader::sample_vector(std::span<WarpInstr> batch) {
  for (WarpInstr& w : batch)
    if (any_sample_
            ? std::find(change_.insts.begin(), change_.insts.end(), w.inst) != change_.insts.end()
            : (w.inst == sample_inst_ && w.op == sample_op_ && w.size == sample_size_)) {
      // The record as it is, and as the merge leaves it (the run's first record, wider).
      ++sample_tries_;
      if (!w.lanes_complete) complete_strided_lanes(w);
      sample_before_ = w;
      std::uint64_t unused = 0;
      const std::size_t at = static_cast<std::size_t>(&w - batch.data());
      std::vector<WarpInstr> copy(batch.begin() + static_cast<std::ptrdiff_t>(at), batch.end());
      merge_vector_runs(copy, change_.insts, unused);
      if (copy.front().size != w.size) {
        sample_after_ = copy.front();
        has_sample_ = true;
      }
      return;
    }
}

bool LayoutReader::rewrite(WarpInstr& w) const {
  if (!w.lanes_complete) complete_strided_lanes(w);
  bool moved = false;
  for (LaneMask m = w.mask; m != 0; m &= m - 1) {
    Addr& a = w.addr[std::countr_zero(m)];
    if (!change_.covers(a)) continue;
    a = change_.map(a);
    moved = true;
  }
  if (moved) {
    // The lanes no longer follow the record's stride (the replay's shape memo reads it).
    w.strided = false;
    w.stride = 0;
  }
  return moved;
}

}  // namespace gms
