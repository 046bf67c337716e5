#pragma once
/// Streaming trace input. A reader yields kernels in order, and for each kernel its warp
/// instructions in batches; it never holds the whole trace.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "sim/core/records.h"

namespace gms::trace {

/// Reads one trace, whatever its format. Usage:
///   KernelInfo k;
///   while (reader.next_kernel(k)) {
///     while (size_t n = reader.read(batch)) consume(std::span(batch).first(n));
///   }
/// Errors (malformed input, cut stream, future version) throw gms::SimError naming the file and
/// line (text) or record/byte offset (binary).
class TraceReader {
 public:
  virtual ~TraceReader() = default;

  /// Advances to the next kernel and fills `out`; false at the end of the trace. Records of the
  /// current kernel that were not read are skipped.
  virtual bool next_kernel(KernelInfo& out) = 0;

  /// Fills up to out.size() records of the current kernel; 0 when the kernel has no more.
  virtual std::size_t read(std::span<WarpInstr> out) = 0;

  /// The name used in error messages ("-" is standard input).
  virtual const std::string& source_name() const = 0;

  /// True when records cost less to decode than to hand from one core to another (compact .gmt
  /// records: a regular .gmt stream replays 2x slower with read-ahead, while text traces and
  /// .gmt traces of scattered addresses replay faster). The replay reads ahead on a second
  /// thread only otherwise. Called before the first kernel; a reader may look at its input.
  virtual bool decodes_cheaply() { return false; }

  /// With `on`, the reader may write only the first and last active lanes of a strided record
  /// and mark it `lanes_complete = false` (the others hold stale values until
  /// complete_strided_lanes(), see records.h), and marks every record it writes whole `true`:
  /// for a consumer that often needs no more, as the replay's shape memo. Off by default; a
  /// reader may ignore it and write every lane.
  virtual void set_partial_strided_lanes(bool on) { (void)on; }

  /// Parses on a thread of the reader's own, a few blocks ahead of read() (a text format whose
  /// thread blocks parse independently), for a replay given more threads than it reads on.
  /// Records, kernels, counts, warnings and errors do not change, nor their order: an error is
  /// thrown where read() reaches it. Takes effect from the next kernel. False, and nothing
  /// changes, where the reader cannot.
  virtual bool parse_alongside() { return false; }

  /// Deals the trace's records among `shares` readers of the same file, a block at a time, and
  /// makes this one share `share` (0 <= share < shares): it then yields every kernel but only
  /// its share's records, each batch from one place in the file (records_passed() numbers
  /// them). Call before the first kernel. False, and nothing changes, where the reader cannot
  /// (a format without independent blocks, standard input, a compressed file: every share would
  /// decompress it all).
  virtual bool share_blocks(unsigned share, unsigned shares) {
    (void)share;
    (void)shares;
    return false;
  }

  /// The allocations the trace has named so far, in file order (see Allocation): after
  /// next_kernel(), those named before that kernel's records; after the last kernel, all of
  /// them. Empty where the format or the file names none.
  virtual std::span<const Allocation> allocations() const { return {}; }

  /// Sharing blocks: the records of the file passed so far, whoever's share they are. The last
  /// batch's n records are the file's records records_passed() - n to records_passed() - 1; after
  /// an error, the records before the fault.
  virtual std::uint64_t records_passed() const { return 0; }
};

}  // namespace gms::trace
