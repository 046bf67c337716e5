#pragma once
/// Reads an Accel-Sim 2.0 `.tracez` (trace/import/tracez_format.h) as the `.traceg` text the
/// same post-processing writes with `--text`: the header, then per block of the index
/// `#BEGIN_TB`, the thread block and cluster lines, each warp's `warp =` / `insts =` lines and
/// its decoded instruction lines, `#END_TB`. The Accel-Sim reader parses that text as it parses
/// a `.traceg`, so both replay alike.
///
/// Streaming, bounded memory: the index is read entry by entry through a handle of its own as
/// the blocks are produced, the frames one sub-chunk at a time (at most kMaxFrameBytes
/// compressed); with InputStream::decode_ahead() the decoding runs on the read-ahead thread.
/// A damaged file (an offset outside the data, a frame that does not decode, a line count that
/// differs from the index, an index cut short) throws one SimError naming the file, the kernel,
/// and the block and warp where it applies.

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "trace/import/tracez_format.h"
#include "trace/io/byte_source.h"
#include "trace/io/zstd_stream.h"

struct ZSTD_DCtx_s;

namespace gms::trace {

class TracezSource final : public ByteSource {
 public:
  /// Opens `path` and reads its header, dictionary and index offset (errors throw SimError).
  explicit TracezSource(std::string path);
  ~TracezSource() override;
  TracezSource(const TracezSource&) = delete;
  TracezSource& operator=(const TracezSource&) = delete;

  std::size_t read(char* dst, std::size_t n) override;

  /// The kernel header text (without its NUL).
  const std::string& header() const { return header_; }
  /// The writer's sub-chunk target (TRACEZ_SUBCHUNK_INSTS).
  std::uint32_t subchunk_insts() const { return subchunk_insts_; }
  /// Bytes of the zstd dictionary (0: none).
  std::uint32_t dict_bytes() const { return dict_bytes_; }

 private:
  enum class Step : std::uint8_t { Header, Block, Warp, Subchunk, Done };

  bool produce();  // appends the next piece of text to text_; false at the end
  void next_block();
  void next_warp();
  void next_subchunk();
  void index_bytes(void* dst, std::size_t n, const char* what);  // from the index handle
  void data_bytes(void* dst, std::size_t n, const char* what);   // from the data handle
  [[noreturn]] void damaged(const std::string& what) const;

  // Owned through deleters: a constructor that throws (a damaged header) frees them too.
  struct CloseFile {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  struct FreeDctx {
    void operator()(ZSTD_DCtx_s* d) const;
  };

  std::string path_;
  std::unique_ptr<std::FILE, CloseFile> data_;   // warp headers and frames (seeks per warp)
  std::unique_ptr<std::FILE, CloseFile> index_;  // the index, read front to back
  std::unique_ptr<ZSTD_DCtx_s, FreeDctx> dctx_;
  std::uint64_t file_bytes_ = 0, data_begin_ = 0, index_begin_ = 0, index_pos_ = 0;
  std::uint64_t data_pos_ = 0;   // of data_, for the bounds of a warp's frames
  std::string header_, kernel_;  // kernel_: "kernel <id> (<name>)" for messages
  std::uint32_t dict_bytes_ = 0, subchunk_insts_ = 0;

  Step step_ = Step::Header;
  std::uint32_t blocks_left_ = 0, block_no_ = 0;
  tracez::BlockEntry block_;
  std::uint32_t warp_no_ = 0;  // in the block
  tracez::WarpEntry warp_;
  std::vector<std::uint32_t> subchunk_lines_;  // of the current warp
  std::uint32_t subchunk_no_ = 0;
  bool block_named_ = false;  // errors name the block (and warp_named_: the warp)
  bool warp_named_ = false;

  std::vector<char> frame_;  // one compressed sub-chunk
  std::string text_;         // produced, not yet read
  std::size_t text_pos_ = 0;
};

/// An InputStream of the `.traceg` text of the `.tracez` at `path`.
std::unique_ptr<InputStream> open_tracez(const std::string& path);

}  // namespace gms::trace
