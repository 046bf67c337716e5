#include "trace/io/zstd_stream.h"

#include <lzma.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <sys/stat.h>

#include "trace/io/atomic_file.h"
#include "trace/io/byte_source.h"
#include "trace/io/decode_ahead.h"
#include "trace/io/input_progress.h"

namespace gms::trace {

namespace {

std::FILE* open_file(const std::string& path, const char* mode, bool& owns) {
  if (path == "-") {
    owns = false;
    return mode[0] == 'r' ? stdin : stdout;
  }
  std::FILE* f = std::fopen(path.c_str(), mode);
  if (!f)
    fail("{}: cannot open for {}: {}", path, mode[0] == 'r' ? "reading" : "writing",
         std::strerror(errno));
  owns = true;
  return f;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// InputStream

/// The liblzma decoder state (lzma_stream cannot be forward-declared).
struct InputStream::XzState {
  lzma_stream strm = LZMA_STREAM_INIT;
  bool ended = false;  // LZMA_STREAM_END seen: no byte may follow
  ~XzState() { lzma_end(&strm); }
};

InputStream::InputStream(const std::string& path) : name_(path), in_(kStreamChunkBytes) {
  file_ = open_file(path, "rb", owns_file_);
  fill_input();
  if (in_end_ >= sizeof kZstdMagic && std::memcmp(in_.data(), kZstdMagic, sizeof kZstdMagic) == 0) {
    zstd_ = ZSTD_createDCtx();
    if (!zstd_) fail("{}: cannot create a zstd decompression context", name_);
  } else if (in_end_ >= sizeof kXzMagic &&
             std::memcmp(in_.data(), kXzMagic, sizeof kXzMagic) == 0) {
    xz_ = std::make_unique<XzState>();
    if (lzma_stream_decoder(&xz_->strm, kXzMemLimitBytes, LZMA_CONCATENATED) != LZMA_OK)
      fail("{}: cannot create an xz decompression context", name_);
  }
}

InputStream::InputStream(std::string name, std::unique_ptr<ByteSource> source)
    : name_(std::move(name)), source_(std::move(source)) {
  eof_ = true;  // no file of its own: every byte comes from the source
}

InputStream::~InputStream() {
  ahead_.reset();  // joins the worker before what it reads goes away
  if (zstd_) ZSTD_freeDCtx(zstd_);
  xz_.reset();
  source_.reset();
  if (owns_file_) std::fclose(file_);
}

bool InputStream::fill_input() {
  if (eof_) return false;
  std::size_t n = std::fread(in_.data(), 1, in_.size(), file_);
  input_bytes_read().fetch_add(n, std::memory_order_relaxed);
  in_pos_ = 0;
  in_end_ = n;
  if (n == 0) {
    if (std::ferror(file_))
      throw StreamError(name_, fmt::format("read error: {}", std::strerror(errno)));
    eof_ = true;
    return false;
  }
  return true;
}

std::size_t InputStream::read_raw(void* dst, std::size_t n) {
  char* out = static_cast<char*>(dst);
  std::size_t got = 0;
  while (got < n) {
    if (in_pos_ == in_end_ && n - got >= in_.size()) {
      // A large read with an empty chunk: straight into the caller's buffer, no extra copy.
      std::size_t want = n - got;
      std::size_t k = std::fread(out + got, 1, want, file_);
      input_bytes_read().fetch_add(k, std::memory_order_relaxed);
      if (k < want) {
        if (std::ferror(file_))
          throw StreamError(name_, fmt::format("read error: {}", std::strerror(errno)));
        eof_ = true;
      }
      got += k;
      break;
    }
    if (in_pos_ == in_end_ && !fill_input()) break;
    std::size_t k = std::min(n - got, in_end_ - in_pos_);
    std::memcpy(out + got, in_.data() + in_pos_, k);
    in_pos_ += k;
    got += k;
  }
  return got;
}

std::size_t InputStream::read_decoded(char* dst, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    if (in_pos_ == in_end_) fill_input();
    ZSTD_inBuffer in{in_.data(), in_end_, in_pos_};
    ZSTD_outBuffer out{dst + got, n - got, 0};
    std::size_t r = ZSTD_decompressStream(zstd_, &out, &in);
    if (ZSTD_isError(r))
      throw StreamError(name_, fmt::format("corrupt zstd stream at compressed byte {}: {}", in_pos_,
                                           ZSTD_getErrorName(r)));
    bool progress = in.pos != in_pos_ || out.pos != 0;
    in_pos_ = in.pos;
    got += out.pos;
    if (progress) {
      frame_state_ = r;
    } else if (eof_ && in_pos_ == in_end_) {
      // No input left and nothing more to flush: the stream ends here, cleanly or not.
      if (frame_state_ != 0) throw StreamError(name_, "truncated zstd stream");
      break;
    }
  }
  return got;
}

std::size_t InputStream::read_xz(char* dst, std::size_t n) {
  lzma_stream& s = xz_->strm;
  std::size_t got = 0;
  while (got < n && !xz_->ended) {
    if (in_pos_ == in_end_) fill_input();
    s.next_in = reinterpret_cast<const std::uint8_t*>(in_.data()) + in_pos_;
    s.avail_in = in_end_ - in_pos_;
    s.next_out = reinterpret_cast<std::uint8_t*>(dst) + got;
    s.avail_out = n - got;
    // LZMA_FINISH once the file is exhausted: the decoder then reports a cut stream.
    const lzma_ret r = lzma_code(&s, eof_ && in_pos_ == in_end_ ? LZMA_FINISH : LZMA_RUN);
    const std::size_t used = (in_end_ - in_pos_) - s.avail_in;
    in_pos_ += used;
    got = n - s.avail_out;
    if (r == LZMA_STREAM_END) {
      xz_->ended = true;
      break;
    }
    if (r == LZMA_OK) continue;
    if (r == LZMA_BUF_ERROR && eof_) throw StreamError(name_, "truncated xz stream");
    if (r == LZMA_MEMLIMIT_ERROR)
      throw StreamError(name_, fmt::format("xz stream needs more than {} MiB to decompress",
                                           kXzMemLimitBytes >> 20));
    throw StreamError(
        name_, fmt::format("corrupt xz stream at compressed byte {} (liblzma error {})", s.total_in,
                           static_cast<int>(r)));
  }
  return got;
}

std::size_t InputStream::read_any(char* dst, std::size_t n) {
  if (source_) return source_->read(dst, n);
  if (zstd_) return read_decoded(dst, n);
  if (xz_) return read_xz(dst, n);
  return read_raw(dst, n);
}

std::size_t InputStream::pull(char* dst, std::size_t n) {
  return ahead_ ? ahead_->read(dst, n) : read_any(dst, n);
}

void InputStream::decode_ahead() {
  if (ahead_ || !compressed() || name_ == "-") return;
  ahead_ = std::make_unique<DecodeAhead>(
      [this](char* dst, std::size_t n) { return read_any(dst, n); }, kStreamChunkBytes);
}

std::size_t InputStream::read(void* dst, std::size_t n) {
  if (n == 0) return 0;  // dst may be null (an empty buffer's data())
  char* out = static_cast<char*>(dst);
  std::size_t got = 0;
  if (peeked_pos_ < peeked_.size()) {
    got = std::min(n, peeked_.size() - peeked_pos_);
    std::memcpy(out, peeked_.data() + peeked_pos_, got);
    peeked_pos_ += got;
    if (got == n) return got;
  }
  return got + pull(out + got, n - got);
}

void InputStream::discount(std::size_t n) {
  if (!compressed()) input_bytes_read().fetch_sub(n, std::memory_order_relaxed);
}

std::size_t InputStream::skip(std::size_t n) {
  std::size_t done = 0;
  if (peeked_pos_ < peeked_.size()) {
    done = std::min(n, peeked_.size() - peeked_pos_);
    peeked_pos_ += done;
  }
  if (!compressed() && !ahead_) {
    const std::size_t held = std::min(n - done, in_end_ - in_pos_);
    in_pos_ += held;
    done += held;
    discount(done);  // counted when read into the chunk: another reader's
    struct stat st {};
    const off_t here = done < n && !eof_ ? ftello(file_) : -1;
    if (here >= 0 && fstat(fileno(file_), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= here) {
      const auto left = static_cast<std::uint64_t>(st.st_size - here);
      const std::uint64_t step = std::min<std::uint64_t>(n - done, left);
      if (fseeko(file_, static_cast<off_t>(step), SEEK_CUR) == 0) {
        done += static_cast<std::size_t>(step);
        if (done < n) eof_ = true;
        return done;
      }
    }
  }
  char scratch[4096];
  while (done < n) {
    const std::size_t k = read(scratch, std::min(n - done, sizeof scratch));
    if (k == 0) break;
    done += k;
  }
  return done;
}

std::string_view InputStream::peek(std::size_t n) {
  peeked_.erase(0, peeked_pos_);
  peeked_pos_ = 0;
  if (peeked_.size() < n) {
    std::size_t have = peeked_.size();
    peeked_.resize(n);
    std::size_t k = pull(peeked_.data() + have, n - have);
    peeked_.resize(have + k);
  }
  return std::string_view(peeked_).substr(0, n);
}

// ---------------------------------------------------------------------------------------------
// OutputStream

OutputStream::OutputStream(const std::string& path, bool zstd, int zstd_level)
    : name_(path), buf_(kStreamChunkBytes) {
  if (path == "-") {
    file_ = stdout;
  } else {
    atomic_ = std::make_unique<AtomicOutputFile>(path);
    file_ = atomic_->stream();
  }
  if (zstd) {
    zstd_ = ZSTD_createCCtx();
    if (!zstd_) fail("{}: cannot create a zstd compression context", name_);
    ZSTD_CCtx_setParameter(zstd_, ZSTD_c_compressionLevel, zstd_level);
    ZSTD_CCtx_setParameter(zstd_, ZSTD_c_checksumFlag, 1);
    out_.resize(ZSTD_CStreamOutSize());
  }
}

OutputStream::~OutputStream() {
  if (zstd_) ZSTD_freeCCtx(zstd_);
  // Unfinished: the AtomicOutputFile removes its temporary, so no partial file remains.
}

void OutputStream::write_file(const void* src, std::size_t n) {
  if (n != 0 && std::fwrite(src, 1, n, file_) != n)
    fail("{}: write error: {}", name_, std::strerror(errno));
}

void OutputStream::write(const void* src, std::size_t n) {
  if (finished_) fail("{}: write after finish", name_);
  written_ += n;
  const char* p = static_cast<const char*>(src);
  while (n > 0) {
    std::size_t k = std::min(n, buf_.size() - buf_len_);
    std::memcpy(buf_.data() + buf_len_, p, k);
    buf_len_ += k;
    p += k;
    n -= k;
    if (buf_len_ == buf_.size()) flush_buffer(false);
  }
}

void OutputStream::flush_buffer(bool end_frame) {
  if (!zstd_) {
    write_file(buf_.data(), buf_len_);
    buf_len_ = 0;
    return;
  }
  ZSTD_inBuffer in{buf_.data(), buf_len_, 0};
  ZSTD_EndDirective mode = end_frame ? ZSTD_e_end : ZSTD_e_continue;
  for (;;) {
    ZSTD_outBuffer out{out_.data(), out_.size(), 0};
    std::size_t r = ZSTD_compressStream2(zstd_, &out, &in, mode);
    if (ZSTD_isError(r)) fail("{}: zstd compression failed: {}", name_, ZSTD_getErrorName(r));
    write_file(out_.data(), out.pos);
    bool done = end_frame ? r == 0 : in.pos == in.size;
    if (done) break;
  }
  buf_len_ = 0;
}

void OutputStream::finish() {
  if (finished_) return;
  finished_ = true;
  flush_buffer(true);
  if (atomic_) {
    atomic_->commit();  // flush, fsync, rename into place
    file_ = nullptr;
    return;
  }
  if (std::fflush(file_) != 0) fail("{}: write error: {}", name_, std::strerror(errno));
}

}  // namespace gms::trace
