#pragma once
/// Decompresses a byte stream on its own thread, a few chunks ahead of its reader: a text
/// importer's parsing (one core) then overlaps the xz or zstd decoding (another), so reading
/// takes about as long as the slower of the two instead of their sum. The bytes come out exactly
/// as the source produced them; a source's exception is rethrown, as it was thrown, where the
/// reader reaches it. Memory: `depth` chunks of `chunk_bytes`.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gms::trace {

class DecodeAhead {
 public:
  /// Fills up to n bytes of its buffer and returns how many; fewer than n only at the end.
  using Source = std::function<std::size_t(char* dst, std::size_t n)>;

  /// Starts calling `source` on a worker thread; it must stay callable until this object is
  /// destroyed (the worker is joined in the destructor).
  DecodeAhead(Source source, std::size_t chunk_bytes, std::size_t depth = 4);
  ~DecodeAhead();
  DecodeAhead(const DecodeAhead&) = delete;
  DecodeAhead& operator=(const DecodeAhead&) = delete;

  /// As InputStream::read: up to n bytes, fewer only at the end (0 = end).
  std::size_t read(char* dst, std::size_t n);

 private:
  struct Chunk {
    std::vector<char> bytes;
    std::size_t size = 0;
    bool last = false;  ///< the source ended after these bytes (or threw: `error`)
    std::exception_ptr error;
  };

  void produce(const std::stop_token& stop);
  bool next_chunk();  // false when the last chunk was used up

  Source source_;
  std::size_t chunk_bytes_, depth_;
  std::mutex mutex_;
  std::condition_variable_any changed_;
  std::deque<Chunk> ready_;
  std::vector<std::vector<char>> spare_;  ///< used chunk buffers, handed back to the worker
  Chunk current_;                         ///< the chunk read() copies from
  std::size_t pos_ = 0;                   ///< next byte of current_
  bool ended_ = false;                    ///< the last chunk was taken
  std::jthread thread_;                   ///< last: starts after the members above
};

}  // namespace gms::trace
