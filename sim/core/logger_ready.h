#pragma once
/// spdlog makes its registry (and the default logger) on first use, behind a function-local static
/// in libspdlog.so. ThreadSanitizer cannot see that guard's fast path in the uninstrumented
/// library, so two threads that log for the first time together are reported as a data race
/// (CI, sweep_test). Every place that starts threads which may log calls this first, on the
/// starting thread, so that the registry exists before any of them runs.

#include <spdlog/spdlog.h>

namespace gms {

inline void make_logger_before_threads() {
  static_cast<void>(spdlog::default_logger_raw());
}

}  // namespace gms
