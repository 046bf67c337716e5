#pragma once
/// Parses an Accel-Sim kernel file's thread blocks on a thread of their own
/// (AccelSimReader::parse_alongside): the reading thread cuts the text into blocks (a
/// `#BEGIN_TB` line to its `#END_TB`) a few blocks ahead and emits the records of parsed blocks;
/// the parse (about half of an import's time, the part that grows with the columns) runs beside
/// it, on a second reader that holds a copy of the kernel's header; while the reading thread
/// waits for a block, it parses the last one cut itself, so both threads keep busy. Blocks are
/// taken in file
/// order, and what a block's parse would have logged or kept (warnings once per key or file,
/// clusters, counts, trailing fields) is replayed on the reading thread when it takes the block,
/// so the records, counts, warnings and errors (with their lines) are those of one thread. A
/// kernel's first block is still parsed on the reading thread: it decides the layout (a raw
/// file is not cut) and scores the loads in flight. Memory: the blocks ahead, each its text and
/// records.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "trace/import/accelsim_reader.h"

namespace gms::trace {

class AccelSimReader::BlockParser {
 public:
  explicit BlockParser(AccelSimReader& owner);
  ~BlockParser();
  BlockParser(const BlockParser&) = delete;
  BlockParser& operator=(const BlockParser&) = delete;

  /// Cuts the owner's current kernel file from here (after its first block), the parsing reader
  /// taking a copy of the kernel's header.
  void start_kernel();
  /// Drops the blocks cut and not taken (waiting for the one being parsed): the kernel ends.
  void stop_kernel();
  bool running() const { return running_; }
  /// The owner's next block (its arena, warp slots and CTA), as AccelSimReader::load_block:
  /// false at the end of the file; the block's error, if it had one, is thrown here.
  bool next_block();

 private:
  enum class State : std::uint8_t { Cut, Parsing, Done };
  struct Block {
    State state = State::Cut;
    bool end = false;               ///< the file ended before another #BEGIN_TB
    std::vector<char> text;         ///< the lines after #BEGIN_TB up to #END_TB, each with '\n'
    std::size_t bytes = 0;          ///< text.size() when cut
    std::uint64_t line_before = 0;  ///< the #BEGIN_TB line's number
    std::vector<BlockEvent> events;
    std::exception_ptr error;      ///< thrown when the block is taken
    std::exception_ptr cut_error;  ///< the stream's, inside the block: after its text
    // The parse's results.
    std::vector<std::uint64_t> arena;
    std::vector<WarpSlot> slots;
    std::vector<std::uint32_t> active;
    std::uint32_t cta = 0;
    ImportCounts counts;
    std::map<std::string, std::uint64_t, std::less<>> trailing;
  };

  void cut_ahead();    // the reading thread: cuts blocks while few are ahead
  void cut(Block& b);  // one block (or the end, or an error) from the owner's lines
  void parse(Block& b, AccelSimReader& with);  // on the parsing thread, or the owner's
  void run(std::stop_token stop);
  static void copy_header(AccelSimReader& to, const AccelSimReader& from);  // kernel's header
  std::unique_ptr<Block> spare_block();

  AccelSimReader& owner_;
  AccelSimReader reader_;  // parses on the thread, from memory
  AccelSimReader own_;     // parses on the owner's thread: a block it would otherwise wait for
  bool running_ = false, cut_done_ = false;
  std::size_t bytes_ahead_ = 0;  // text of the blocks cut and not taken
  std::vector<std::unique_ptr<Block>> spare_;
  std::mutex mutex_;
  std::condition_variable_any changed_;
  std::deque<std::unique_ptr<Block>> ahead_;  // in file order
  std::jthread thread_;                       // last: starts after the members above
};

}  // namespace gms::trace
