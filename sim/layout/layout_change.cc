#include "sim/layout/layout_change.h"

namespace gms {

const char* layout_kind_name(LayoutKind k) {
  switch (k) {
    case LayoutKind::Soa:
      return "soa";
    case LayoutKind::Aos:
      return "aos";
    case LayoutKind::Pad:
      return "pad";
    case LayoutKind::Swizzle:
      return "swizzle";
    case LayoutKind::Transpose:
      return "transpose";
    case LayoutKind::Vector:
      return "vector";
  }
  return "?";
}

Addr LayoutChange::map(Addr a) const {
  switch (kind) {
    case LayoutKind::Soa: {
      const Addr o = a - base;
      const Addr i = o / struct_bytes, r = o % struct_bytes;
      return base + (r / unit) * count * unit + i * unit + r % unit;
    }
    case LayoutKind::Aos:
      for (const LayoutPlane& p : planes)
        if (a - p.base < p.bytes) {
          const Addr o = a - p.base;
          return base + (o / p.unit) * struct_bytes + p.offset + o % p.unit;
        }
      return a;
    case LayoutKind::Pad: {
      const Addr o = a - base;
      return base + (o / pitch) * (pitch + pad) + o % pitch;
    }
    case LayoutKind::Swizzle: {
      // The row's low bits pick the chunk within the 128-byte segment (bank row) of the address.
      const Addr o = a - base;
      const Addr chunks = 128 / unit;
      const Addr row = o / (pitch > 128 ? pitch : 128);
      const Addr chunk = (o % 128) / unit;
      return base + (o & ~Addr{127}) + ((chunk ^ (row % chunks)) * unit) + o % unit;
    }
    case LayoutKind::Transpose: {
      const Addr o = a - base;
      const Addr r = o / pitch, c = o % pitch;
      return base + (c / unit) * count * unit + r * unit + c % unit;
    }
    case LayoutKind::Vector:
      return a;
  }
  return a;
}

std::uint64_t LayoutChange::shared_bytes(std::uint64_t shmem) const {
  if (kind != LayoutKind::Pad || space != LayoutSpace::Shared || pitch == 0) return shmem;
  return shmem + (shmem + pitch - 1) / pitch * pad;
}

}  // namespace gms
