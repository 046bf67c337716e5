#pragma once
/// Where captured wtrace text goes: hashed (SHA-256) and zstd-compressed in memory, with a cap
/// on the compressed size. Past the cap the compression stops (the text is still hashed), so a
/// trace too large to store costs only its hash. Plain C++ with libzstd; no CUDA.
///
///   gms::capture::TraceOutput out(1 << 20);   // keep at most 1 MiB of compressed bytes
///   out.append(text_chunk); ...
///   out.finish();
///   if (out.fits()) write_file(path, out.compressed());  else store a recipe + out.sha256()

#include <zstd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "tools/capture/sha256.h"

namespace gms::capture {

class TraceOutput {
 public:
  /// `cap_bytes`: largest compressed size kept (0: no cap). `level`: zstd level.
  explicit TraceOutput(std::size_t cap_bytes, int level = 15) : cap_bytes_(cap_bytes) {
    cctx_ = ZSTD_createCCtx();
    if (cctx_ == nullptr) throw std::runtime_error("ZSTD_createCCtx failed");
    ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, level);
  }
  ~TraceOutput() { ZSTD_freeCCtx(cctx_); }
  TraceOutput(const TraceOutput&) = delete;
  TraceOutput& operator=(const TraceOutput&) = delete;

  void append(std::string_view text) {
    sha_.update(text);
    text_bytes_ += text.size();
    if (!fits_) return;
    ZSTD_inBuffer in{text.data(), text.size(), 0};
    while (in.pos < in.size) step(in, ZSTD_e_continue);
  }

  /// Ends the zstd frame and the hash. Call once.
  void finish() {
    if (fits_) {
      ZSTD_inBuffer in{nullptr, 0, 0};
      while (step(in, ZSTD_e_end) != 0 && fits_) {
      }
    }
    sha_hex_ = sha_.hex_digest();
  }

  bool fits() const { return fits_; }
  const std::string& compressed() const { return out_; }
  const std::string& sha256() const { return sha_hex_; }
  std::uint64_t text_bytes() const { return text_bytes_; }

 private:
  std::size_t step(ZSTD_inBuffer& in, ZSTD_EndDirective mode) {
    char buf[1 << 16];
    ZSTD_outBuffer o{buf, sizeof buf, 0};
    const std::size_t left = ZSTD_compressStream2(cctx_, &o, &in, mode);
    if (ZSTD_isError(left)) throw std::runtime_error(ZSTD_getErrorName(left));
    out_.append(buf, o.pos);
    if (cap_bytes_ != 0 && out_.size() > cap_bytes_) {
      fits_ = false;
      out_.clear();
      out_.shrink_to_fit();
      in.pos = in.size;  // stop compressing; the caller keeps hashing
      return 0;
    }
    return left;
  }

  ZSTD_CCtx* cctx_ = nullptr;
  std::size_t cap_bytes_;
  bool fits_ = true;
  std::string out_;
  Sha256 sha_;
  std::string sha_hex_;
  std::uint64_t text_bytes_ = 0;
};

/// Writes `bytes` to `path` (binary); throws on failure.
inline void write_file(const std::string& path, std::string_view bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error("cannot open " + path + " for writing");
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw std::runtime_error("cannot write " + path);
}

}  // namespace gms::capture
