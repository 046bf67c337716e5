#pragma once
/// How strictly the Accel-Sim and NVBit importers read what they do not need (README.md,
/// "Importing Accel-Sim and NVBit traces").

#include <cstdint>

namespace gms::trace {

struct ImportOptions {
  /// Refuse an Accel-Sim line with fields after its address list that no `#traces format`
  /// line explains (the default counts them and warns once per file).
  bool strict = false;
  /// A raw kernel-N.trace is regrouped by thread block and warp in windows of blocks whose
  /// memory records fit this many 64-bit words (256 MiB); each window is one more pass over
  /// the file.
  std::uint64_t raw_window_words = std::uint64_t{1} << 25;
  /// Log nothing (no warnings, no import summary): for a second reader of a file that the
  /// replay reads and reports on anyway (the thread choice's sample, sim/replay/thread_choice.h).
  /// The warnings stay in the reader's own list; errors are thrown as ever.
  bool quiet = false;
  /// Run each warp's register scoreboard over every line of an Accel-Sim trace for its records'
  /// load dependencies (WarpInstr::waits_for_load, register_dependencies.h). A replay that does
  /// not use them (any order but timed) turns it off: they were about 7% of a cold import's
  /// instructions (callgrind, bench/gen_raw_accelsim.py's trace).
  bool load_dependencies = true;
};

}  // namespace gms::trace
