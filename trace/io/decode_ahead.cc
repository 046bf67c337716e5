#include "trace/io/decode_ahead.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace gms::trace {

DecodeAhead::DecodeAhead(Source source, std::size_t chunk_bytes, std::size_t depth)
    : source_(std::move(source)),
      chunk_bytes_(chunk_bytes),
      depth_(std::max<std::size_t>(depth, 1)),
      thread_([this](std::stop_token stop) { produce(stop); }) {}

DecodeAhead::~DecodeAhead() {
  thread_.request_stop();  // wakes a worker waiting for room (condition_variable_any)
  if (thread_.joinable()) thread_.join();
}

void DecodeAhead::produce(const std::stop_token& stop) {
  for (;;) {
    Chunk chunk;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, stop, [&] { return ready_.size() < depth_; });
      if (stop.stop_requested()) return;
      if (!spare_.empty()) {
        chunk.bytes = std::move(spare_.back());
        spare_.pop_back();
      }
    }
    chunk.bytes.resize(chunk_bytes_);
    try {
      chunk.size = source_(chunk.bytes.data(), chunk_bytes_);
      chunk.last = chunk.size < chunk_bytes_;
    } catch (...) {
      // The bytes of this call are lost, as they are when the caller reads the source itself.
      chunk.size = 0;
      chunk.last = true;
      chunk.error = std::current_exception();
    }
    const bool last = chunk.last;
    {
      std::lock_guard lock(mutex_);
      ready_.push_back(std::move(chunk));
    }
    changed_.notify_all();
    if (last) return;
  }
}

bool DecodeAhead::next_chunk() {
  if (ended_) {
    if (current_.error) std::rethrow_exception(current_.error);  // every later read, too
    return false;
  }
  std::unique_lock lock(mutex_);
  if (!current_.bytes.empty()) spare_.push_back(std::move(current_.bytes));
  changed_.wait(lock, [&] { return !ready_.empty(); });
  current_ = std::move(ready_.front());
  ready_.pop_front();
  lock.unlock();
  changed_.notify_all();  // room for the worker
  pos_ = 0;
  ended_ = current_.last;
  if (current_.error) std::rethrow_exception(current_.error);
  return true;
}

std::size_t DecodeAhead::read(char* dst, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    if (pos_ == current_.size && !next_chunk()) break;
    const std::size_t k = std::min(n - got, current_.size - pos_);
    std::memcpy(dst + got, current_.bytes.data() + pos_, k);
    pos_ += k;
    got += k;
  }
  return got;
}

}  // namespace gms::trace
