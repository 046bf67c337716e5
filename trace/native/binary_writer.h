#pragma once
/// Writer of the native binary trace format (.gmt, see trace/native/binary_format.h).

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_set>
#include <vector>

#include "trace/io/writer.h"
#include "trace/io/zstd_stream.h"
#include "trace/native/binary_format.h"

struct ZSTD_CCtx_s;

namespace gms::trace {

/// Encodes records as delta/varint items into a ~1 MiB raw block, compresses each full block
/// as one zstd frame and appends it to the (uncompressed) output stream. Memory is constant.
class BinaryWriter final : public TraceWriter {
 public:
  /// Takes a raw (not zstd) output stream and writes the file header. A block is closed once it
  /// holds `block_raw_bytes` (at most kGmtBlockRawBytes; smaller for tests of many blocks).
  static constexpr int kDefaultZstdLevel = 5;
  explicit BinaryWriter(std::unique_ptr<OutputStream> out, int zstd_level = kDefaultZstdLevel,
                        std::size_t block_raw_bytes = kGmtBlockRawBytes);
  ~BinaryWriter() override;

  void begin_kernel(const KernelInfo& kernel) override;
  void write(std::span<const WarpInstr> records) override;
  void finish() override;

 private:
  void flush_block();
  std::uint8_t* encode(const WarpInstr& r, std::uint8_t* p);

  std::unique_ptr<OutputStream> out_;
  ZSTD_CCtx_s* zstd_ = nullptr;
  int level_;
  /// The level of blocks that compress by less than 1/8 (zstd's negative levels leave literals
  /// uncompressed).
  static constexpr int kStoredLiteralsLevel = -1;
  std::vector<std::uint8_t> raw_;  // current block's items; capacity kGmtBlockRawBytes + slack
  std::size_t raw_len_ = 0;
  std::size_t block_raw_bytes_;       // a block's target raw size
  std::vector<std::uint8_t> packed_;  // compressed block
  std::uint32_t records_ = 0, kernels_ = 0;
  bool in_kernel_ = false, finished_ = false;
  std::unordered_set<std::uint32_t> kernel_ids_;
  detail::DeltaState delta_;  // reset at each block
};

}  // namespace gms::trace
