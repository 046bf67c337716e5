#pragma once
/// A producer of a stream's bytes that is neither a plain file nor a zstd or xz stream: a
/// container whose reader lives in a format layer (trace/import's .tracez) hands InputStream
/// one of these, and the text readers above read it as any other stream (read-ahead included).

#include <cstddef>

namespace gms::trace {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Fills up to `n` bytes of `dst`; returns fewer only at the end (0 = end). Errors throw
  /// SimError with the whole message (the file and what is wrong where).
  virtual std::size_t read(char* dst, std::size_t n) = 0;
};

}  // namespace gms::trace
