#pragma once
/// How far the trace inputs have been read, for progress bars (tools/cli: run, convert, info):
/// every InputStream adds the file bytes it reads (compressed bytes for .zst and .xz) to one
/// process-wide counter, once per chunk read from the file, never per record.

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace gms::trace {

/// File bytes read by every InputStream of this process so far.
std::atomic<std::uint64_t>& input_bytes_read();

/// The summed sizes of `paths` that are regular files; 0 when one is not (standard input, a
/// pipe), so that a progress bar shows what it read without a fraction.
std::uint64_t input_bytes_total(const std::vector<std::string>& paths);

}  // namespace gms::trace
