#pragma once
/// Helpers of the generator tests: run a pattern into a collecting writer, catch its error.

#include <string>
#include <string_view>

#include "sim/core/error.h"
#include "tests/tools/gen/collecting_writer.h"
#include "tools/gen/patterns.h"

namespace gms::test {

/// Generates pattern `name` with `p` and returns everything it wrote.
inline CollectingWriter run(std::string_view name, const gen::GenParams& p) {
  CollectingWriter w;
  gen::generate(name, p, w);
  return w;
}

/// Runs `fn` and returns the SimError message it throws ("" when it does not throw).
template <class Fn>
std::string error_of(Fn fn) {
  try {
    fn();
  } catch (const SimError& e) {
    return e.what();
  }
  return "";
}

/// The SimError message of generating pattern `name` with `p`.
inline std::string error_of(std::string_view name, const gen::GenParams& p) {
  return error_of([&] { run(name, p); });
}

}  // namespace gms::test
