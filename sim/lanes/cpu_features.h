#pragma once
/// What the host CPU can run, checked once at run time: the build targets x86-64-v2, and the
/// few AVX-512 paths (the warp sort, the scattered-warp analysis, the .gmt lane unpacking) are
/// compiled apart and chosen here. Every dispatch point asks cpu_has_avx512f(), so one switch turns
/// them all off.
///
/// GMS_PORTABLE: with the environment variable set to anything but "" or "0" (GMS_PORTABLE=1),
/// the portable code paths run even where the CPU has AVX-512, so that one host can test both
/// (.ci/run runs the suite twice). It is read once, with the CPU, at the first query.

#include <cstdlib>
#include <string_view>

namespace gms {

/// True when `value` (GMS_PORTABLE's, or nullptr when it is unset) asks for the portable paths.
inline bool portable_requested(const char* value) {
  return value != nullptr && std::string_view(value) != "" && std::string_view(value) != "0";
}

/// The rule itself, apart from the cached query so that tests can check every case: AVX-512F
/// code may run when the CPU has it and GMS_PORTABLE does not ask for the portable paths.
inline bool avx512f_usable(bool cpu_supports_avx512f, const char* gms_portable) {
  return cpu_supports_avx512f && !portable_requested(gms_portable);
}

/// True when the CPU itself supports AVX-512F, whatever GMS_PORTABLE says.
inline bool cpu_supports_avx512f() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  return __builtin_cpu_supports("avx512f");
#else
  return false;
#endif
}

/// True when AVX-512F code (compiled with target("avx512f")) may run: the CPU has it and
/// GMS_PORTABLE is not set. Decided at the first call; later changes of the environment are not
/// seen (a test of the switch runs a fresh process).
inline bool cpu_has_avx512f() {
  static const bool yes = avx512f_usable(cpu_supports_avx512f(), std::getenv("GMS_PORTABLE"));
  return yes;
}

/// True when AVX-512CD code (conflict detection; compiled with target("avx512f,avx512cd")) may
/// run: AVX-512F code may (cpu_has_avx512f) and the CPU has the CD extension too.
inline bool cpu_has_avx512cd() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  static const bool yes = cpu_has_avx512f() && __builtin_cpu_supports("avx512cd");
  return yes;
#else
  return false;
#endif
}

}  // namespace gms
