#pragma once
/// Reader of the native binary trace format (.gmt, see trace/native/binary_format.h).

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "trace/io/reader.h"
#include "trace/io/zstd_stream.h"
#include "trace/native/binary_format.h"

struct ZSTD_DCtx_s;

namespace gms::trace {

/// Streams a .gmt trace one block at a time (one compressed and one raw block buffer). Errors
/// (bad magic, future version, truncated file, corrupt block) are SimErrors naming the file, the
/// block index and its byte offset, and the record index when a record is at fault.
class BinaryReader final : public TraceReader {
 public:
  /// Takes an open stream positioned at the start of the file and checks the file header.
  explicit BinaryReader(std::unique_ptr<InputStream> in);
  ~BinaryReader() override;

  bool next_kernel(KernelInfo& out) override;
  std::size_t read(std::span<WarpInstr> out) override;
  const std::string& source_name() const override { return in_->name(); }
  /// From the first block: true when its records average under kCheapRecordBytes raw bytes.
  bool decodes_cheaply() override;
  void set_partial_strided_lanes(bool on) override { partial_strided_ = on; }
  /// Block b (1-based) is share (b - 1) % shares's. Another share's block is read past without
  /// decompressing it, unless it holds a kernel item, which every share needs: then it is
  /// decoded and its records skipped. A plain file only.
  bool share_blocks(unsigned share, unsigned shares) override;
  std::uint64_t records_passed() const override { return record_index_; }

 private:
  bool load_block();   // false after the end block
  void skip_record();  // decodes and checks the record at pos_, and passes it
  bool skip_others();  // past another share's records in the loaded block; true at a kernel item
  void decode_kernel(KernelInfo& out);
  void check_record(const WarpInstr& r) const;  // after decode_record: in bounds, well-formed
  static bool well_formed(const WarpInstr& r);
  [[noreturn]] void corrupt(const char* what) const;
  std::size_t read_exact(void* dst, std::size_t n);

  std::unique_ptr<InputStream> in_;
  ZSTD_DCtx_s* zstd_ = nullptr;
  std::vector<std::uint8_t> packed_;  // compressed block
  std::vector<std::uint8_t> raw_;     // decompressed block + zero padding
  const std::uint8_t* pos_ = nullptr;
  const std::uint8_t* end_ = nullptr;
  std::uint64_t offset_ = 0;        // bytes consumed from the stream
  std::uint64_t block_offset_ = 0;  // where the current block's header starts
  std::uint64_t block_index_ = 0;   // 1-based once a block is loaded
  GmtBlockHeader block_{};
  std::uint32_t block_records_ = 0, block_kernels_ = 0;  // decoded so far in the block
  std::uint64_t record_index_ = 0;                       // records decoded in the file
  bool at_end_ = false, in_kernel_ = false, bad_ = false;
  bool partial_strided_ = false;
  unsigned share_ = 0, shares_ = 1;  // share_blocks()
  bool block_is_mine_ = true;        // the loaded block's records are this share's
  detail::DeltaState delta_;
  WarpInstr scratch_;
};

}  // namespace gms::trace
