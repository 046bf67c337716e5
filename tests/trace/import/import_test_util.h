#pragma once
/// Helpers for the importer tests: a temporary directory, xz compression, one-kernel traces.

#include <lzma.h>

#include <filesystem>
#include <string>

#include "tests/temp_dir.h"
#include "tests/trace/trace_test_util.h"

namespace gms::trace::test {

using ::gms::test::TempDir;

/// `text` compressed as one xz stream.
inline std::string xz_compress(const std::string& text) {
  std::string out(lzma_stream_buffer_bound(text.size()), '\0');
  std::size_t pos = 0;
  const lzma_ret r = lzma_easy_buffer_encode(
      6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(text.data()), text.size(),
      reinterpret_cast<std::uint8_t*>(out.data()), &pos, out.size());
  EXPECT_EQ(r, LZMA_OK);
  out.resize(pos);
  return out;
}

/// The records of the only kernel of the trace at `path`.
inline std::vector<WarpInstr> records_of(const std::string& path,
                                         TraceFormat format = TraceFormat::Auto) {
  auto reader = open_trace_reader(path, format);
  std::vector<WarpInstr> all, batch(7);  // a small batch crosses block boundaries
  KernelInfo k;
  while (reader->next_kernel(k)) {
    while (std::size_t n = reader->read(batch))
      all.insert(all.end(), batch.begin(), batch.begin() + n);
  }
  return all;
}

/// Lane addresses of the active lanes of `w`, in lane order.
inline std::vector<std::uint64_t> active_addrs(const WarpInstr& w) {
  std::vector<std::uint64_t> out;
  for (LaneMask m = w.mask; m != 0; m &= m - 1) out.push_back(w.addr[std::countr_zero(m)]);
  return out;
}

}  // namespace gms::trace::test
