#pragma once
/// Shared harness of the libFuzzer targets: the input goes to a private temporary file (the
/// readers stream from a path), the reader under test reads every kernel and record, and any
/// SimError is the expected outcome for bad input. Anything else (a crash, a sanitizer report,
/// another exception type, a record that breaks the reader contract) is a finding.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "sim/core/error.h"
#include "trace/import/formats.h"

namespace gms::fuzz {

/// A directory of this process, under /dev/shm when it exists (no disk I/O per input).
inline const std::filesystem::path& work_dir() {
  static const std::filesystem::path dir = [] {
    std::filesystem::path base =
        std::filesystem::exists("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    std::filesystem::path d = base / ("gms_fuzz_" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(work_dir(), ec);
    });
    return d;
  }();
  return dir;
}

/// Writes the input to `name` in the work directory and returns its path.
inline std::string write_input(const std::uint8_t* data, std::size_t size, const char* name) {
  const std::string path = (work_dir() / name).string();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (size != 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  return path;
}

/// Reads every kernel and record; traps when a record breaks the reader contract.
inline void drain(trace::TraceReader& reader) {
  KernelInfo k;
  std::vector<WarpInstr> batch(64);
  while (reader.next_kernel(k)) {
    while (const std::size_t n = reader.read(batch)) {
      if (n > batch.size()) __builtin_trap();
      for (std::size_t i = 0; i < n; ++i) {
        const WarpInstr& w = batch[i];
        // The Accel-Sim importer's bulk records (TMA copies) are ops past the formats' kOpCount,
        // always of 16-byte lanes.
        if (w.mask == 0 || !valid_access_size(w.size) || static_cast<int>(w.op) >= kAllOpCount ||
            (is_bulk(w.op) && w.size != kBulkLaneBytes))
          __builtin_trap();
      }
    }
  }
}

/// Opens the input as `format` and drains it; SimError is the only accepted failure.
inline int read_as(const std::uint8_t* data, std::size_t size, trace::TraceFormat format,
                   const char* name) {
  const std::string path = write_input(data, size, name);
  try {
    auto reader = trace::open_trace_reader(path, format);
    drain(*reader);
  } catch (const SimError&) {
  }
  return 0;
}

}  // namespace gms::fuzz
