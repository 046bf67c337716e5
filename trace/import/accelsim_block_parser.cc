#include "trace/import/accelsim_block_parser.h"

#include <utility>

#include "sim/core/error.h"
#include "trace/import/import_parse.h"

namespace gms::trace {

namespace {
// Blocks cut ahead of the one the reading thread emits: at least two (one parsing, one
// waiting), at most 16 or 4 MiB of text, so the parse never waits on the cutting for long and
// memory stays a few blocks.
constexpr std::size_t kMinAhead = 2;
constexpr std::size_t kMaxAhead = 16;
constexpr std::size_t kBytesAhead = std::size_t{4} << 20;
}  // namespace

AccelSimReader::BlockParser::BlockParser(AccelSimReader& owner)
    : owner_(owner),
      reader_(ForBlocks{}, owner.options_),
      own_(ForBlocks{}, owner.options_),
      thread_([this](std::stop_token stop) { run(stop); }) {}

AccelSimReader::BlockParser::~BlockParser() {
  thread_.request_stop();  // the condition variable wakes on it
  thread_.join();
}

void AccelSimReader::BlockParser::start_kernel() {
  // The thread parses nothing now (stop_kernel emptied the queue), so the copy is safe; the
  // mutex taken when the first block is queued publishes it.
  for (AccelSimReader* p : {&reader_, &own_}) copy_header(*p, owner_);
  running_ = true;
  cut_done_ = false;
}

void AccelSimReader::BlockParser::copy_header(AccelSimReader& r, const AccelSimReader& o) {
  r.name_ = o.name_;
  r.kernel_ = o.kernel_;
  r.shmem_base_ = o.shmem_base_;
  r.local_base_ = o.local_base_;
  r.tracer_version_ = o.tracer_version_;
  r.layout_ = o.layout_;
  r.prefixed_ = o.prefixed_;
  r.raw_ = false;
  r.block_seen_ = true;
  r.lineinfo_ = o.lineinfo_;
  r.warps_per_block_ = o.warps_per_block_;
  r.after_fixed_ = o.after_fixed_;
  r.after_variable_ = o.after_variable_;
  r.counting_ = true;
  r.scoring_ = false;
}

void AccelSimReader::BlockParser::stop_kernel() {
  if (!running_) return;
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] {
    for (const auto& b : ahead_)
      if (b->state == State::Parsing) return false;
    return true;
  });
  while (!ahead_.empty()) {
    spare_.push_back(std::move(ahead_.front()));
    ahead_.pop_front();
  }
  bytes_ahead_ = 0;
  running_ = false;
}

std::unique_ptr<AccelSimReader::BlockParser::Block> AccelSimReader::BlockParser::spare_block() {
  std::unique_ptr<Block> b;
  if (spare_.empty()) {
    b = std::make_unique<Block>();
  } else {
    b = std::move(spare_.back());
    spare_.pop_back();
  }
  b->state = State::Cut;
  b->end = false;
  b->text.clear();
  b->bytes = 0;
  b->events.clear();
  b->error = b->cut_error = nullptr;
  b->counts = {};  // a block that ends the file or fails is not parsed: it counts nothing
  b->trailing.clear();
  return b;
}

void AccelSimReader::BlockParser::cut(Block& b) {
  // As AccelSimReader::load_block reads up to a block and through it; what it would report
  // there (a stray line, a stream error) becomes the block's error, thrown when it is taken.
  detail::LineReader& lines = *owner_.lines_;
  std::string_view unused;       // the kernel's first block was read: no raw line follows
  owner_.deferred_ = &b.events;  // a comment line's warning waits for the block
  try {
    const bool end = owner_.seek_block(unused) == Seek::End;
    owner_.deferred_ = nullptr;
    if (end) {
      b.end = true;
      b.state = State::Done;
      cut_done_ = true;
      return;
    }
  } catch (...) {
    owner_.deferred_ = nullptr;
    b.error = std::current_exception();
    b.state = State::Done;
    cut_done_ = true;
    return;
  }
  b.line_before = lines.line_no();
  try {
    lines.append_through("#END_TB", b.text);  // or the file's end: the parse reports it
  } catch (...) {
    // Raised after the lines before it, which the parse reads first (and may fail on).
    b.cut_error = std::current_exception();
    cut_done_ = true;
  }
  b.bytes = b.text.size();
}

void AccelSimReader::BlockParser::cut_ahead() {
  for (;;) {
    std::unique_ptr<Block> b;
    {
      std::lock_guard lock(mutex_);
      if (cut_done_ || ahead_.size() >= kMaxAhead ||
          (ahead_.size() >= kMinAhead && bytes_ahead_ >= kBytesAhead))
        return;
      b = spare_block();
    }
    cut(*b);  // the owner's lines: this thread's alone
    std::lock_guard lock(mutex_);
    bytes_ahead_ += b->bytes;
    ahead_.push_back(std::move(b));
    changed_.notify_all();
  }
}

void AccelSimReader::BlockParser::parse(Block& b, AccelSimReader& r) {
  r.lines_->take_text(b.text, b.line_before, b.cut_error);
  r.have_pending_ = true;  // the #BEGIN_TB line was read
  r.counts_ = {};
  r.trailing_file_.clear();
  r.warned_generic_ = false;
  r.deferred_ = &b.events;
  try {
    r.load_block();
  } catch (...) {
    b.error = std::current_exception();
  }
  r.deferred_ = nullptr;
  std::swap(b.arena, r.arena_);
  std::swap(b.slots, r.slots_);
  std::swap(b.active, r.active_);
  b.cta = r.cta_;
  std::swap(b.counts, r.counts_);
  std::swap(b.trailing, r.trailing_file_);
}

void AccelSimReader::BlockParser::run(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  for (;;) {
    Block* next = nullptr;
    changed_.wait(lock, stop, [&] {
      for (const auto& b : ahead_)
        if (b->state == State::Cut) {
          next = b.get();
          return true;
        }
      return false;
    });
    if (next == nullptr) return;  // stop requested
    next->state = State::Parsing;
    lock.unlock();
    parse(*next, reader_);
    lock.lock();
    next->state = State::Done;
    changed_.notify_all();
  }
}

bool AccelSimReader::BlockParser::next_block() {
  cut_ahead();
  std::unique_ptr<Block> b;
  {
    std::unique_lock lock(mutex_);
    if (ahead_.empty()) return false;  // the end was taken already
    while (ahead_.front()->state != State::Done) {
      // Parse the last block cut rather than wait (the thread takes them from the first).
      Block* last = nullptr;
      for (auto it = ahead_.rbegin(); it != ahead_.rend() && last == nullptr; ++it)
        if ((*it)->state == State::Cut) last = it->get();
      if (last == nullptr) {
        changed_.wait(lock);
        continue;
      }
      last->state = State::Parsing;
      lock.unlock();
      parse(*last, own_);
      lock.lock();
      last->state = State::Done;
    }
    b = std::move(ahead_.front());
    ahead_.pop_front();
    bytes_ahead_ -= b->bytes;
  }
  cut_ahead();  // the thread parses on while the owner emits this block
  AccelSimReader& o = owner_;
  for (const BlockEvent& e : b->events) o.apply(e);
  o.counts_ += b->counts;
  for (const auto& [field, n] : b->trailing) o.trailing_file_[field] += n;
  std::exception_ptr error = std::exchange(b->error, nullptr);
  const bool end = b->end;
  if (!end && !error) {
    std::swap(o.arena_, b->arena);
    std::swap(o.slots_, b->slots);
    std::swap(o.active_, b->active);
    o.rr_ = 0;
    o.cta_ = b->cta;
    ++o.blocks_beside_;
  }
  {
    std::lock_guard lock(mutex_);
    spare_.push_back(std::move(b));
  }
  if (error) std::rethrow_exception(error);
  if (end) {
    o.finish_file();
    return false;
  }
  return true;
}

}  // namespace gms::trace
