#pragma once
/// The AVX-512 intrinsics for the few vector paths compiled apart with target("avx512f") and
/// chosen at run time (cpu_has_avx512f): where the compiler can build them (x86-64, GCC or
/// Clang) this defines GMS_HAVE_AVX512 and includes <immintrin.h>. Include it from .cc files
/// only: it also quiets a false warning of GCC 12 about those intrinsics.

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GMS_HAVE_AVX512 1
// GCC 12's AVX-512 intrinsics initialise a placeholder from itself (GCC bug 105593), which
// -Wuninitialized reports wherever they are inlined.
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#endif
