#pragma once
/// What the host CPU can run, checked once at run time: the build targets x86-64-v2, and the
/// few AVX-512 paths (the warp sort, the wide tag search) are compiled apart and chosen here.

namespace gms {

/// True when AVX-512F code (compiled with target("avx512f")) may run on this CPU.
inline bool cpu_has_avx512f() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  static const bool yes = __builtin_cpu_supports("avx512f");
  return yes;
#else
  return false;
#endif
}

}  // namespace gms
