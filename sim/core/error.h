#pragma once
/// Errors of the simulator library: one exception type, raised with a clear message.
/// Only tools/cli/main.cc catches, logs and exits; nothing under sim/ or trace/ exits.

#include <fmt/format.h>

#include <source_location>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace gms {

/// Every error the library reports. `what()` is the user-facing message (it names the file and
/// line of a trace, or the config key); `where()` is the source location that raised it.
class SimError : public std::runtime_error {
 public:
  explicit SimError(std::string message,
                    std::source_location where = std::source_location::current())
      : std::runtime_error(std::move(message)), where_(where) {}
  const std::source_location& where() const noexcept { return where_; }

 private:
  std::source_location where_;
};

/// A {fmt} format string checked at compile time, with the source location of the call that
/// wrote it: fail("...", args) records where fail was called, not this header.
template <class... Args>
struct FormatAt {
  template <class S>
  consteval FormatAt(const S& text, std::source_location at = std::source_location::current())
      : format(text), where(at) {}
  fmt::format_string<Args...> format;
  std::source_location where;
};

/// Throws a SimError with a {fmt} message, located at the caller.
template <class... Args>
[[noreturn]] void fail(FormatAt<std::type_identity_t<Args>...> f, Args&&... args) {
  throw SimError(fmt::format(f.format, std::forward<Args>(args)...), f.where);
}

}  // namespace gms

/// Invariant check; compiles away under NDEBUG. Reports the source file and line.
#ifdef NDEBUG
#define GMS_ASSERT(cond, msg) ((void)0)
#else
#define GMS_ASSERT(cond, msg)                                                                 \
  do {                                                                                        \
    if (!(cond))                                                                              \
      throw ::gms::SimError(                                                                  \
          ::fmt::format("internal error at {}:{}: {} ({})", __FILE__, __LINE__, msg, #cond)); \
  } while (0)
#endif
