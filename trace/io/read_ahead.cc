#include "trace/io/read_ahead.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "sim/core/logger_ready.h"

namespace gms::trace {

ReadAhead::ReadAhead(TraceReader& inner, std::size_t batch_records, std::size_t depth,
                     bool in_kernel, Prepare prepare)
    : inner_(inner),
      batch_records_(batch_records),
      depth_(depth),
      prepare_(std::move(prepare)),
      // The producer may log (a reader's warnings): the registry exists before it starts.
      thread_((make_logger_before_threads(),
               [this, in_kernel](std::stop_token stop) { produce(stop, in_kernel); })) {}

ReadAhead::~ReadAhead() {
  thread_.request_stop();  // wakes a producer waiting for room (condition_variable_any)
  if (thread_.joinable()) thread_.join();
}

void ReadAhead::produce(std::stop_token stop, bool in_kernel) {
  std::size_t batches = 0;
  while (!stop.stop_requested()) {
    Item item;
    try {
      if (!in_kernel) {
        item.kind = inner_.next_kernel(item.kernel) ? Kind::Kernel : Kind::TraceEnd;
        in_kernel = item.kind == Kind::Kernel;
      } else {
        {
          std::lock_guard lock(mutex_);
          if (!spare_.empty()) {
            item.records = std::move(spare_.back());
            spare_.pop_back();
          }
        }
        if (item.records.empty()) {
          // Whole huge pages: a block under 2 MiB would come from the heap on 4 KiB pages.
          const std::size_t per_page = detail::kHugePageBytes / sizeof(WarpInstr);
          item.records.reserve(std::max(batch_records_, per_page));
        }
        item.records.resize(batch_records_);
        item.count = inner_.read(item.records);
        if (item.count == 0) {
          item.kind = Kind::KernelEnd;
          // Its buffer goes back for the next batch: a kernel's end takes none of its own (each
          // new one is a fresh huge page, dear for small traces).
          recycle(std::move(item.records));  // leaves item.records empty
          in_kernel = false;
        } else {
          // The replay holds at most the batch it reads and depth_ ready ones: this slot is
          // none of theirs (slots()).
          item.slot = batches++ % slots();
          if (prepare_) prepare_({item.records.data(), item.count}, item.slot);
        }
      }
    } catch (...) {
      item = Item{};
      item.kind = Kind::Error;
      item.error = std::current_exception();
    }
    const bool last = item.kind == Kind::TraceEnd || item.kind == Kind::Error;
    push(std::move(item), stop);
    if (last) return;
  }
}

void ReadAhead::push(Item item, const std::stop_token& stop) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, stop, [&] { return ready_.size() < depth_; });
  if (stop.stop_requested()) return;
  ready_.push_back(std::move(item));
  changed_.notify_all();
}

ReadAhead::Item ReadAhead::pop() {
  std::unique_lock lock(mutex_);
  if (ready_.empty()) {
    const auto start = std::chrono::steady_clock::now();
    changed_.wait(lock, [&] { return !ready_.empty(); });
    waited_ += std::chrono::steady_clock::now() - start;
  }
  Item item = std::move(ready_.front());
  ready_.pop_front();
  changed_.notify_all();
  return item;
}

void ReadAhead::recycle(Records buffer) {
  if (buffer.empty()) return;
  std::lock_guard lock(mutex_);
  spare_.push_back(std::move(buffer));
}

bool ReadAhead::next_kernel(KernelInfo& out) {
  if (finished_) return false;
  for (;;) {
    recycle(std::move(current_.records));
    current_ = pop();
    switch (current_.kind) {
      case Kind::Kernel:
        out = std::move(current_.kernel);
        return true;
      case Kind::TraceEnd:
        finished_ = true;
        return false;
      case Kind::Error:
        finished_ = true;
        std::rethrow_exception(current_.error);
      case Kind::Batch:
      case Kind::KernelEnd:
        break;  // the rest of a kernel the replay did not read
    }
  }
}

std::span<WarpInstr> ReadAhead::next_batch() {
  if (finished_ || current_.kind == Kind::KernelEnd || current_.kind == Kind::TraceEnd) return {};
  recycle(std::move(current_.records));
  current_ = pop();
  switch (current_.kind) {
    case Kind::Batch:
      return {current_.records.data(), current_.count};
    case Kind::Error:
      finished_ = true;
      std::rethrow_exception(current_.error);
    case Kind::Kernel:  // cannot happen: a KernelEnd precedes every later kernel
    case Kind::KernelEnd:
    case Kind::TraceEnd:
      break;
  }
  return {};
}

}  // namespace gms::trace
