#pragma once
// A trace rewritten as a .gmt file of small blocks (tests): many blocks, kernels that start
// inside them, for the readers that deal blocks among the cold replay's workers.
#include <memory>
#include <string>
#include <vector>

#include "trace/import/formats.h"
#include "trace/io/zstd_stream.h"
#include "trace/native/binary_writer.h"

namespace gms::test {

/// Writes the trace at `from` (any format) to `path` as .gmt in blocks of about `block_bytes`
/// raw bytes; returns `path`.
inline std::string gmt_in_blocks(const std::string& from, const std::string& path,
                                 std::size_t block_bytes) {
  auto reader = trace::open_trace_reader(from);
  trace::BinaryWriter w(std::make_unique<trace::OutputStream>(path, false), 5, block_bytes);
  std::vector<WarpInstr> batch(256);
  KernelInfo k;
  while (reader->next_kernel(k)) {
    w.begin_kernel(k);
    while (const std::size_t n = reader->read(batch)) w.write({batch.data(), n});
  }
  w.finish();
  return path;
}

}  // namespace gms::test
