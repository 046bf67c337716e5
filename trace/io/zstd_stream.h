#pragma once
/// Byte streams for the trace formats: a file or standard input ("-") read in fixed chunks and
/// decompressed on the fly when it holds zstd frames or an xz stream, and the matching output
/// side. No format logic lives here; memory is constant (one input chunk, one output chunk, the
/// zstd or xz contexts; the xz decoder is capped at kXzMemLimitBytes).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/error.h"

struct ZSTD_DCtx_s;
struct ZSTD_CCtx_s;

namespace gms::trace {

class AtomicOutputFile;  // trace/io/atomic_file.h
class ByteSource;        // trace/io/byte_source.h
class DecodeAhead;       // trace/io/decode_ahead.h

/// The 4 bytes that open every zstd frame (little-endian 0xFD2FB528).
inline constexpr unsigned char kZstdMagic[4] = {0x28, 0xB5, 0x2F, 0xFD};

/// The 6 bytes that open every xz stream.
inline constexpr unsigned char kXzMagic[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};

/// Most memory the xz decoder may use (a stream that needs more is an error, not an allocation).
inline constexpr std::uint64_t kXzMemLimitBytes = 256ull << 20;

/// Size of one read or write chunk.
inline constexpr std::size_t kStreamChunkBytes = 256 * 1024;

/// An input stream error. `what()` is "<file>: <detail>"; `detail()` is the part after the file
/// name, so format readers can re-raise it with a line number.
class StreamError : public SimError {
 public:
  StreamError(const std::string& name, std::string detail)
      : SimError(fmt::format("{}: {}", name, detail)), detail_(std::move(detail)) {}
  const std::string& detail() const noexcept { return detail_; }

 private:
  std::string detail_;
};

/// Streaming byte input from a file or stdin ("-"). When the content starts with the zstd frame
/// magic, every byte read is decompressed (several concatenated frames are one stream); a stream
/// that ends inside a frame raises StreamError "<file>: truncated zstd stream". The same holds
/// for xz (liblzma; concatenated streams are one stream): "<file>: truncated xz stream".
class InputStream {
 public:
  /// Opens `path` ("-" = stdin); throws SimError if it cannot be opened.
  explicit InputStream(const std::string& path);
  /// Reads what `source` produces (a container decoded by a format layer), under `name`.
  InputStream(std::string name, std::unique_ptr<ByteSource> source);
  ~InputStream();
  InputStream(const InputStream&) = delete;
  InputStream& operator=(const InputStream&) = delete;

  /// Copies up to `n` bytes into `dst`; returns fewer only at the end of the stream (0 = end).
  std::size_t read(void* dst, std::size_t n);

  /// Passes over up to `n` bytes as read() would; returns how many (fewer only at the end). An
  /// uncompressed file seeks past what its input chunk does not hold, and the bytes passed are
  /// not counted as read for progress bars (input_bytes_read: another reader of the file reads
  /// them); anything else reads them.
  std::size_t skip(std::size_t n);

  /// Takes `n` bytes this stream read off the progress count (input_bytes_read) where the file
  /// is uncompressed: bytes that another reader of the same file counts.
  void discount(std::size_t n);

  /// The first bytes of the (decompressed) content, up to `n`, without consuming them.
  std::string_view peek(std::size_t n);

  /// From now on decompresses on a worker thread (DecodeAhead), a few chunks ahead of read(), so
  /// that the caller's parsing overlaps the decoding; the bytes and errors read() returns do not
  /// change. Nothing changes for an uncompressed file or standard input (whose worker could wait
  /// on the pipe for ever). Call once, after any peek().
  void decode_ahead();

  /// True when the underlying file is zstd- or xz-compressed, or decoded by a ByteSource.
  bool compressed() const { return zstd_ != nullptr || xz_ != nullptr || source_ != nullptr; }

  /// The name used in error messages.
  const std::string& name() const { return name_; }

 private:
  std::size_t read_raw(void* dst, std::size_t n);  // file bytes, via the input chunk
  std::size_t read_decoded(char* dst, std::size_t n);
  std::size_t read_xz(char* dst, std::size_t n);
  std::size_t read_any(char* dst, std::size_t n);  // raw, zstd or xz
  std::size_t pull(char* dst, std::size_t n);      // read_any or, once started, the worker
  bool fill_input();                               // false at end of file

  std::string name_;
  std::FILE* file_ = nullptr;
  bool owns_file_ = false;
  std::vector<char> in_;  // raw input chunk
  std::size_t in_pos_ = 0, in_end_ = 0;
  bool eof_ = false;
  ZSTD_DCtx_s* zstd_ = nullptr;
  std::size_t frame_state_ = 0;  // last ZSTD_decompressStream result: 0 = between frames
  struct XzState;
  std::unique_ptr<XzState> xz_;         // set when the content is xz
  std::unique_ptr<ByteSource> source_;  // set when a format layer decodes the bytes
  std::string peeked_;                  // bytes handed out by peek() and not yet read
  std::size_t peeked_pos_ = 0;
  std::unique_ptr<DecodeAhead> ahead_;  // set by decode_ahead(); reads through the members above
};

/// Streaming byte output to a file or stdout ("-"), optionally zstd-compressed (one frame).
/// Call finish() once at the end; it flushes, ends the frame and closes (errors throw SimError).
/// A file is written through an AtomicOutputFile: it appears under its name only when finish()
/// succeeds; a stream destroyed unfinished leaves nothing.
class OutputStream {
 public:
  /// Creates `path` ("-" = stdout); throws SimError if it cannot be created.
  static constexpr int kDefaultZstdLevel = 3;
  OutputStream(const std::string& path, bool zstd, int zstd_level = kDefaultZstdLevel);
  ~OutputStream();
  OutputStream(const OutputStream&) = delete;
  OutputStream& operator=(const OutputStream&) = delete;

  /// Appends `n` bytes.
  void write(const void* src, std::size_t n);
  /// Flushes everything, ends the zstd frame, closes the file. Idempotent.
  void finish();
  /// Bytes handed to write() so far (before compression).
  std::uint64_t bytes_written() const { return written_; }
  const std::string& name() const { return name_; }

 private:
  void flush_buffer(bool end_frame);
  void write_file(const void* src, std::size_t n);

  std::string name_;
  std::unique_ptr<AtomicOutputFile> atomic_;  // null for stdout
  std::FILE* file_ = nullptr;
  bool finished_ = false;
  ZSTD_CCtx_s* zstd_ = nullptr;
  std::vector<char> buf_;  // pending uncompressed bytes
  std::size_t buf_len_ = 0;
  std::vector<char> out_;  // compressed chunk
  std::uint64_t written_ = 0;
};

}  // namespace gms::trace
