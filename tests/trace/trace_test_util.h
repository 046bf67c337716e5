#pragma once
/// Helpers for the trace tests: temporary files, whole-trace reads, error-message checks.

#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include "sim/core/error.h"
#include "trace/import/formats.h"

namespace gms::trace::test {

/// A unique path in the temp directory, removed when the object dies.
class TempPath {
 public:
  explicit TempPath(const std::string& suffix) {
    static std::atomic<int> counter{0};
    path_ =
        (std::filesystem::temp_directory_path() / ("gms_trace_test_" + std::to_string(::getpid()) +
                                                   "_" + std::to_string(counter++) + suffix))
            .string();
  }
  ~TempPath() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  TempPath(const TempPath&) = delete;
  TempPath& operator=(const TempPath&) = delete;
  const std::string& str() const { return path_; }

 private:
  std::string path_;
};

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

/// `text` compressed as one zstd frame per part.
inline std::string zstd_frames(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) {
    std::string frame(ZSTD_compressBound(p.size()), '\0');
    std::size_t n = ZSTD_compress(frame.data(), frame.size(), p.data(), p.size(), 3);
    frame.resize(n);
    out += frame;
  }
  return out;
}

/// A whole trace in memory (tests only).
struct Trace {
  std::vector<KernelInfo> kernels;
  std::vector<std::vector<WarpInstr>> records;  ///< per kernel
  friend bool operator==(const Trace&, const Trace&) = default;
};

inline Trace read_trace(const std::string& path, std::size_t batch_size = 1024) {
  Trace t;
  auto reader = open_trace_reader(path);
  std::vector<WarpInstr> batch(batch_size);
  KernelInfo k;
  while (reader->next_kernel(k)) {
    t.kernels.push_back(k);
    t.records.emplace_back();
    while (std::size_t n = reader->read(batch))
      t.records.back().insert(t.records.back().end(), batch.begin(), batch.begin() + n);
  }
  return t;
}

inline void write_trace(const std::string& path, const Trace& t) {
  auto w = open_trace_writer(path);
  for (std::size_t i = 0; i < t.kernels.size(); ++i) {
    w->begin_kernel(t.kernels[i]);
    w->write(t.records[i]);
  }
  w->finish();
}

/// Writes `text` to a temp file with `suffix` and reads it all.
inline Trace parse_text(const std::string& text, const std::string& suffix = ".wtrace") {
  TempPath p(suffix);
  write_bytes(p.str(), text);
  return read_trace(p.str());
}

/// The message of the SimError `f` throws ("" and a test failure when it throws none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const SimError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a SimError";
  return {};
}

/// The error of reading `text` as a trace file; `path` receives the file name used.
inline std::string text_error(const std::string& text, std::string& path) {
  TempPath p(".wtrace");
  path = p.str();
  write_bytes(p.str(), text);
  return error_of([&] { read_trace(p.str()); });
}

}  // namespace gms::trace::test

#define GMS_EXPECT_CONTAINS(haystack, needle)                      \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) \
      << "message: " << (haystack) << "\nexpected to contain: " << (needle)
