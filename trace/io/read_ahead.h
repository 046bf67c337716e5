#pragma once
/// Reads a trace on its own thread, a few batches ahead of the replay: decompression, parsing
/// and decoding (a quarter to a third of a cold replay) overlap the simulation on a second core.
/// Kernels and records come out in exactly the reader's order, so results do not change; an
/// error of the reader is rethrown, with its message, where the replay reaches it.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "sim/core/huge_page_allocator.h"
#include "sim/core/records.h"
#include "trace/io/reader.h"

namespace gms::trace {

class ReadAhead {
 public:
  /// Starts reading `inner` (which must outlive this object) in batches of `batch_records`,
  /// keeping at most `depth` batches ready. `in_kernel`: the caller has taken the header of the
  /// kernel `inner` is in (and maybe some of its records); the rest of them come first, from
  /// next_batch.
  ///
  /// `prepare`, when given, is run on the reading thread on each batch once read, with the
  /// batch's slot: a number below slots() that no batch the replay may still hold (the one it
  /// is reading, those ready) shares, for the caller's work on the batch to be kept by slot.
  using Prepare = std::function<void(std::span<WarpInstr> batch, std::size_t slot)>;
  ReadAhead(TraceReader& inner, std::size_t batch_records, std::size_t depth = 3,
            bool in_kernel = false, Prepare prepare = {});
  ~ReadAhead();
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  /// As TraceReader::next_kernel: the next kernel's header, skipping what is left of the
  /// current one; false at the end of the trace.
  bool next_kernel(KernelInfo& out);

  /// The next records of the current kernel (the caller's to change, valid until the next
  /// call); empty at its end.
  std::span<WarpInstr> next_batch();
  /// The slot of the batch next_batch returned last (see Prepare).
  std::size_t batch_slot() const { return current_.slot; }
  /// The slots batches take: depth + 2 (the one being read, `depth` ready, the one prepared).
  static std::size_t slots_for(std::size_t depth) { return depth + 2; }
  std::size_t slots() const { return slots_for(depth_); }

  /// How long the replay has waited, in all, for the reading thread (read on the replay's
  /// thread only).
  std::chrono::steady_clock::duration waited() const { return waited_; }

 private:
  enum class Kind { Kernel, Batch, KernelEnd, TraceEnd, Error };
  // A batch's records on huge pages, a whole number of them (a cached matrix product replayed
  // on two workers took 3,400 page faults here on 4 KiB pages). Buffers are reused last in,
  // first out, so the replay reads the few the host's cache still holds.
  using Records = std::vector<WarpInstr, HugePageAllocator<WarpInstr>>;
  struct Item {
    Kind kind = Kind::Batch;
    KernelInfo kernel;
    Records records;  ///< sized batch_records; the first `count` are valid
    std::size_t count = 0;
    std::size_t slot = 0;
    std::exception_ptr error;
  };

  void produce(std::stop_token stop, bool in_kernel);
  void push(Item item, const std::stop_token& stop);
  Item pop();
  void recycle(Records buffer);

  TraceReader& inner_;
  std::size_t batch_records_, depth_;
  Prepare prepare_;
  std::mutex mutex_;
  std::condition_variable_any changed_;
  std::deque<Item> ready_;
  std::vector<Records> spare_;                    ///< batch buffers to reuse
  Item current_;                                  ///< the batch the replay is reading
  bool finished_ = false;                         ///< the trace end or an error was handed out
  std::chrono::steady_clock::duration waited_{};  ///< see waited()
  std::jthread thread_;                           ///< last: starts after the members above
};

}  // namespace gms::trace
