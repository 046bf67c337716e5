#include "trace/import/tracez_source.h"

#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "sim/core/error.h"
#include "trace/import/import_parse.h"
#include "trace/io/input_progress.h"

namespace gms::trace {

namespace {

std::uint32_t le32(const unsigned char* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
         std::uint32_t{p[3]} << 24;
}

std::uint64_t le64(const unsigned char* p) {
  return std::uint64_t{le32(p)} | std::uint64_t{le32(p + 4)} << 32;
}

/// "kernel <id> (<name>)" from the header's `-kernel id` and `-kernel name` lines, for messages.
std::string kernel_label(std::string_view header) {
  std::string_view id = "?", name;
  while (!header.empty()) {
    const std::size_t nl = header.find('\n');
    const std::string_view line = header.substr(0, nl);
    header = nl == std::string_view::npos ? std::string_view{} : header.substr(nl + 1);
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view key = detail::trim(line.substr(0, eq));
    if (key == "-kernel id") id = detail::trim(line.substr(eq + 1));
    if (key == "-kernel name") name = detail::trim(line.substr(eq + 1));
  }
  return name.empty() ? fmt::format("kernel {}", id) : fmt::format("kernel {} ({})", id, name);
}

}  // namespace

void TracezSource::FreeDctx::operator()(ZSTD_DCtx_s* d) const {
  ZSTD_freeDCtx(d);
}

TracezSource::TracezSource(std::string path) : path_(std::move(path)) {
  data_.reset(std::fopen(path_.c_str(), "rb"));
  if (!data_) fail("{}: cannot open for reading: {}", path_, std::strerror(errno));
  index_.reset(std::fopen(path_.c_str(), "rb"));
  if (!index_) fail("{}: cannot open for reading: {}", path_, std::strerror(errno));
  dctx_.reset(ZSTD_createDCtx());
  if (!dctx_) fail("{}: cannot create a zstd decompression context", path_);
  kernel_ = "header";
  if (fseeko(data_.get(), 0, SEEK_END) != 0 ||
      (file_bytes_ = static_cast<std::uint64_t>(ftello(data_.get()))) < 8 ||
      fseeko(data_.get(), 0, SEEK_SET) != 0)
    damaged("shorter than its 8-byte index offset: not a .tracez");
  // The header: text up to the first NUL.
  for (;;) {
    const int c = std::fgetc(data_.get());
    if (c == EOF || header_.size() >= tracez::kMaxHeaderBytes)
      damaged(fmt::format("no NUL byte ends the kernel header in its first {} bytes: not a .tracez",
                          header_.size()));
    if (c == 0) break;
    header_ += static_cast<char>(c);
  }
  data_pos_ = header_.size() + 1;
  input_bytes_read().fetch_add(data_pos_, std::memory_order_relaxed);
  kernel_ = kernel_label(header_);
  unsigned char fixed[8];
  data_bytes(fixed, sizeof fixed, "the dictionary size and sub-chunk length");
  dict_bytes_ = le32(fixed);
  subchunk_insts_ = le32(fixed + 4);
  if (dict_bytes_ > tracez::kMaxDictBytes || data_pos_ + dict_bytes_ + 8 > file_bytes_)
    damaged(fmt::format("a zstd dictionary of {} bytes does not fit the file ({} bytes)",
                        dict_bytes_, file_bytes_));
  if (dict_bytes_ != 0) {
    std::vector<char> dict(dict_bytes_);
    data_bytes(dict.data(), dict.size(), "the zstd dictionary");
    const std::size_t r =
        ZSTD_DCtx_loadDictionary(dctx_.get(), dict.data(), dict.size());  // copied
    if (ZSTD_isError(r)) damaged(fmt::format("bad zstd dictionary: {}", ZSTD_getErrorName(r)));
  }
  data_begin_ = data_pos_;
  // The index: its offset in the last 8 bytes, then the block count.
  unsigned char tail[8];
  if (fseeko(index_.get(), static_cast<off_t>(file_bytes_ - 8), SEEK_SET) != 0 ||
      std::fread(tail, 1, 8, index_.get()) != 8)
    damaged("cannot read the index offset in the last 8 bytes");
  index_begin_ = le64(tail);
  if (index_begin_ < data_begin_ || index_begin_ > file_bytes_ - 12)
    damaged(fmt::format("index offset {} is outside the file's data ({} to {})", index_begin_,
                        data_begin_, file_bytes_ - 12));
  if (fseeko(index_.get(), static_cast<off_t>(index_begin_), SEEK_SET) != 0)
    damaged(fmt::format("cannot seek to the index at {}", index_begin_));
  index_pos_ = index_begin_;
  unsigned char count[4];
  index_bytes(count, 4, "the block count");
  blocks_left_ = le32(count);
  if (blocks_left_ > (file_bytes_ - 8 - index_pos_) / tracez::kBlockRecordBytes)
    damaged(fmt::format("the index counts {} blocks, more than its {} bytes can hold", blocks_left_,
                        file_bytes_ - 8 - index_pos_));
}

TracezSource::~TracezSource() = default;

void TracezSource::damaged(const std::string& what) const {
  std::string where = kernel_;
  if (step_ == Step::Warp || step_ == Step::Subchunk) {
    where += block_named_
                 ? fmt::format(", block ({},{},{})", block_.tb[0], block_.tb[1], block_.tb[2])
                 : fmt::format(", block {} of the index", block_no_);
    if (warp_named_) where += fmt::format(", warp {}", warp_no_);
  }
  fail("{}: {}: {}", path_, where, what);
}

void TracezSource::index_bytes(void* dst, std::size_t n, const char* what) {
  if (index_pos_ + n > file_bytes_ - 8 || std::fread(dst, 1, n, index_.get()) != n)
    damaged(fmt::format("the index ends inside {} (at byte {} of {})", what, index_pos_,
                        file_bytes_ - 8));
  index_pos_ += n;
  input_bytes_read().fetch_add(n, std::memory_order_relaxed);
}

void TracezSource::data_bytes(void* dst, std::size_t n, const char* what) {
  const std::uint64_t end = index_begin_ != 0 ? index_begin_ : file_bytes_ - 8;
  if (data_pos_ + n > end || std::fread(dst, 1, n, data_.get()) != n)
    damaged(fmt::format("{} at byte {} runs past the data (which ends at byte {})", what, data_pos_,
                        end));
  data_pos_ += n;
  input_bytes_read().fetch_add(n, std::memory_order_relaxed);
}

void TracezSource::next_block() {
  step_ = Step::Warp;
  block_named_ = warp_named_ = false;
  unsigned char rec[tracez::kBlockRecordBytes];
  index_bytes(rec, sizeof rec, "a block's record");
  for (int i = 0; i < 3; ++i) {
    block_.tb[i] = le32(rec + 4 * i);
    block_.cluster_id[i] = le32(rec + 12 + 4 * i);
    block_.cluster_cta[i] = le32(rec + 24 + 4 * i);
  }
  block_.cluster_rank = le32(rec + 36);
  block_.warp_count = le32(rec + 40);
  block_named_ = true;
  if (block_.warp_count > (file_bytes_ - 8 - index_pos_) / tracez::kWarpRecordBytes)
    damaged(fmt::format("the index gives the block {} warps, more than the rest of the index holds",
                        block_.warp_count));
  // As post-traces-processing --text writes the block (its .traceg).
  text_ += fmt::format(
      "\n#BEGIN_TB\n\nthread block = {},{},{}\ncluster id = {},{},{}\ncluster cta = {},{},{}\n"
      "cluster rank = {}\n",
      block_.tb[0], block_.tb[1], block_.tb[2], block_.cluster_id[0], block_.cluster_id[1],
      block_.cluster_id[2], block_.cluster_cta[0], block_.cluster_cta[1], block_.cluster_cta[2],
      block_.cluster_rank);
  warp_no_ = 0;
}

void TracezSource::next_warp() {
  warp_named_ = true;
  unsigned char rec[tracez::kWarpRecordBytes];
  index_bytes(rec, sizeof rec, "a warp's record");
  warp_.inst_count = le32(rec);
  warp_.num_subchunks = le32(rec + 4);
  warp_.offset = le64(rec + 8);
  // Every sub-chunk holds at least one line, so there are at most as many as lines.
  if (warp_.num_subchunks > warp_.inst_count)
    damaged(fmt::format("the index gives {} instructions in {} sub-chunks", warp_.inst_count,
                        warp_.num_subchunks));
  if (warp_.num_subchunks > (file_bytes_ - 8 - index_pos_) / 4)
    damaged(fmt::format("the index counts {} sub-chunks, more than the rest of the index holds",
                        warp_.num_subchunks));
  subchunk_lines_.resize(warp_.num_subchunks);
  std::uint64_t lines = 0;
  for (std::uint32_t& n : subchunk_lines_) {
    unsigned char v[4];
    index_bytes(v, 4, "a warp's sub-chunk line counts");
    n = le32(v);
    lines += n;
  }
  if (lines != warp_.inst_count)
    damaged(fmt::format("the index's sub-chunks hold {} lines in all, its instruction count is {}",
                        lines, warp_.inst_count));
  if (warp_.offset < data_begin_ || warp_.offset + 8 > index_begin_)
    damaged(fmt::format("warp offset {} is outside the data (bytes {} to {})", warp_.offset,
                        data_begin_, index_begin_));
  if (fseeko(data_.get(), static_cast<off_t>(warp_.offset), SEEK_SET) != 0)
    damaged(fmt::format("cannot seek to warp offset {}", warp_.offset));
  data_pos_ = warp_.offset;
  unsigned char head[8];
  data_bytes(head, sizeof head, "the warp's header");
  if (le32(head) != warp_.inst_count || le32(head + 4) != warp_.num_subchunks)
    damaged(fmt::format(
        "the warp's header at byte {} says {} instructions in {} sub-chunks, the index {} in {} "
        "(a bad offset?)",
        warp_.offset, le32(head), le32(head + 4), warp_.inst_count, warp_.num_subchunks));
  text_ += fmt::format("\nwarp = {}\ninsts = {}\n", warp_no_, warp_.inst_count);
  subchunk_no_ = 0;
  step_ = Step::Subchunk;
}

void TracezSource::next_subchunk() {
  unsigned char size[4];
  data_bytes(size, sizeof size, "a sub-chunk's size");
  const std::uint32_t frame_bytes = le32(size);
  if (frame_bytes > tracez::kMaxFrameBytes)
    damaged(fmt::format("sub-chunk {} claims a frame of {} bytes (at most {})", subchunk_no_,
                        frame_bytes, tracez::kMaxFrameBytes));
  frame_.resize(frame_bytes);
  data_bytes(frame_.data(), frame_.size(), "a sub-chunk's frame");
  // One frame, decoded with the file's dictionary (kept by the context across frames).
  ZSTD_DCtx_reset(dctx_.get(), ZSTD_reset_session_only);
  const std::size_t start = text_.size();
  std::size_t used = start;
  // The text reader takes lines of up to 1 MiB, so a sub-chunk of n lines holds at most n MiB:
  // a frame that decodes to more is damaged (and cannot make the reader hold more).
  const std::uint64_t limit = std::min<std::uint64_t>(
      tracez::kMaxSubchunkTextBytes, (std::uint64_t{subchunk_lines_[subchunk_no_]} + 1) << 20);
  ZSTD_inBuffer in{frame_.data(), frame_.size(), 0};
  for (;;) {
    if (used == text_.size()) {
      if (used - start >= limit)
        damaged(fmt::format("sub-chunk {} of {} lines decodes to more than {} bytes", subchunk_no_,
                            subchunk_lines_[subchunk_no_], limit));
      text_.resize(used + std::max<std::size_t>(ZSTD_DStreamOutSize(), used - start));
    }
    ZSTD_outBuffer out{text_.data() + used, text_.size() - used, 0};
    const std::size_t r = ZSTD_decompressStream(dctx_.get(), &out, &in);
    if (ZSTD_isError(r))
      damaged(
          fmt::format("sub-chunk {}: corrupt zstd frame: {}", subchunk_no_, ZSTD_getErrorName(r)));
    used += out.pos;
    if (r == 0) break;  // the frame is complete
    if (in.pos == in.size && out.pos < out.size)
      damaged(fmt::format("sub-chunk {}: the zstd frame is cut short", subchunk_no_));
  }
  text_.resize(used);
  if (in.pos != in.size)
    damaged(
        fmt::format("sub-chunk {}: {} bytes after its zstd frame", subchunk_no_, in.size - in.pos));
  const std::string_view lines(text_.data() + start, used - start);
  const bool ends = !lines.empty() && lines.back() == '\n';
  const auto count = static_cast<std::uint64_t>(std::count(lines.begin(), lines.end(), '\n')) +
                     (lines.empty() || ends ? 0 : 1);
  if (count != subchunk_lines_[subchunk_no_])
    damaged(fmt::format("sub-chunk {} holds {} lines, the index says {}", subchunk_no_, count,
                        subchunk_lines_[subchunk_no_]));
  if (!lines.empty() && !ends) text_ += '\n';
  ++subchunk_no_;
}

bool TracezSource::produce() {
  switch (step_) {
    case Step::Header:
      text_ += header_;
      step_ = Step::Block;
      return true;
    case Step::Block:
      if (blocks_left_ == 0) {
        if (index_pos_ != file_bytes_ - 8)
          damaged(
              fmt::format("{} bytes follow the index's last block", file_bytes_ - 8 - index_pos_));
        step_ = Step::Done;
        return false;
      }
      next_block();
      return true;
    case Step::Warp:
      if (warp_no_ == block_.warp_count) {
        text_ += "\n#END_TB\n";
        --blocks_left_;
        ++block_no_;
        step_ = Step::Block;
        return true;
      }
      next_warp();
      return true;
    case Step::Subchunk:
      if (subchunk_no_ == warp_.num_subchunks) {
        ++warp_no_;
        warp_named_ = false;
        step_ = Step::Warp;
        return true;
      }
      next_subchunk();
      return true;
    case Step::Done:
      return false;
  }
  return false;
}

std::size_t TracezSource::read(char* dst, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    if (text_pos_ == text_.size()) {
      text_.clear();
      text_pos_ = 0;
      if (!produce()) break;
      continue;
    }
    const std::size_t k = std::min(n - got, text_.size() - text_pos_);
    std::memcpy(dst + got, text_.data() + text_pos_, k);
    text_pos_ += k;
    got += k;
  }
  return got;
}

std::unique_ptr<InputStream> open_tracez(const std::string& path) {
  return std::make_unique<InputStream>(path, std::make_unique<TracezSource>(path));
}

}  // namespace gms::trace
