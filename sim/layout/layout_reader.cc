#include "sim/layout/layout_reader.h"

#include <bit>

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
  const std::size_t n = inner_.read(out);
  if (active_)
    for (std::size_t i = 0; i < n; ++i)
      if (in_space(out[i].op, change_.space) && rewrite(out[i])) ++rewritten_;
  return n;
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
