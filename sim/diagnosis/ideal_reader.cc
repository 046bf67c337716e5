#include "sim/diagnosis/ideal_reader.h"

#include "sim/diagnosis/pattern.h"

namespace gms {

bool IdealizingReader::next_kernel(KernelInfo& out) {
  const bool more = inner_.next_kernel(out);
  in_target_kernel_ = more && out.id == target_.kernel_id;
  return more;
}

std::size_t IdealizingReader::read(std::span<WarpInstr> out) {
  const std::size_t n = inner_.read(out);
  if (in_target_kernel_)
    for (std::size_t i = 0; i < n; ++i)
      if (target_.matches(out[i])) {
        rewrite(out[i]);
        ++rewritten_;
      }
  return n;
}

void IdealizingReader::rewrite(WarpInstr& w) {
  if (is_shared(w.op)) {
    make_ideal(w);
    return;
  }
  if (!w.lanes_complete) complete_strided_lanes(w);
  const IdealPacking p = ideal_packing(w);
  auto [it, fresh] = blocks_.try_emplace(p.lowest, 0);
  if (fresh) {
    it->second = (cursor_ + p.align - 1) & ~(p.align - 1);
    cursor_ = it->second + p.packed;
  }
  make_ideal_at(w, it->second);
}

}  // namespace gms
