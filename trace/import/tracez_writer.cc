#include "trace/import/tracez_writer.h"

#include <zstd.h>

#include <memory>
#include <optional>
#include <vector>

#include "sim/core/error.h"
#include "trace/import/import_parse.h"
#include "trace/import/kernel_input.h"
#include "trace/io/line_reader.h"
#include "trace/io/zstd_stream.h"

namespace gms::trace {

namespace {

using detail::parse_dec_token;
using detail::trim;

struct WarpIndex {
  std::uint32_t insts = 0;
  std::uint64_t offset = 0;
  std::vector<std::uint32_t> subchunk_lines;
};

struct BlockIndex {
  tracez::BlockEntry entry;
  std::vector<WarpIndex> warps;
};

/// Appends `v` little-endian.
void put32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}
void put64(std::string& out, std::uint64_t v) {
  put32(out, static_cast<std::uint32_t>(v));
  put32(out, static_cast<std::uint32_t>(v >> 32));
}

/// The opcode of an instruction line: [line_num] PC mask dest_num dests opcode.
std::string_view opcode_of(std::string_view line, bool lineinfo) {
  detail::Tokens t{line};
  if (lineinfo) t.next();
  t.next();
  t.next();
  std::uint32_t dests = 0;
  if (!parse_dec_token(t.next(), dests)) return {};
  for (std::uint32_t i = 0; i < dests; ++i) t.next();
  return t.next();
}

/// The value after "key =" of `line`, or nullopt.
std::optional<std::string_view> after_eq(std::string_view line, std::string_view key) {
  if (!line.starts_with(key)) return std::nullopt;
  const std::size_t eq = line.find('=');
  if (eq == std::string_view::npos || trim(line.substr(0, eq)) != key) return std::nullopt;
  return trim(line.substr(eq + 1));
}

class Writer {
 public:
  Writer(const std::string& in_path, const std::string& out_path, const TracezWriteOptions& o)
      : in_(open_kernel_stream(in_path)), lines_(*in_), out_(out_path, false), options_(o) {
    cctx_ = ZSTD_createCCtx();
    if (!cctx_) fail("{}: cannot create a zstd compression context", out_path);
    if (!o.dictionary.empty()) {
      cdict_ = ZSTD_createCDict(o.dictionary.data(), o.dictionary.size(), o.zstd_level);
      if (!cdict_) fail("{}: cannot load the zstd dictionary", out_path);
    }
  }
  ~Writer() {
    ZSTD_freeCDict(cdict_);
    ZSTD_freeCCtx(cctx_);
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  TracezWriteSummary run() {
    header();
    while (block()) {
    }
    index();
    out_.finish();
    return summary_;
  }

 private:
  [[noreturn]] void error(std::string_view what) const {
    fail("{}:{}: {}", in_->name(), lines_.line_no(), what);
  }

  void write(const std::string& bytes) { out_.write(bytes.data(), bytes.size()); }

  // The header lines up to the first #BEGIN_TB (less the blank line the text writer puts
  // before it), then the NUL, the dictionary size, the sub-chunk length and the dictionary.
  void header() {
    std::string text;
    std::string_view line;
    bool blank_last = false;
    while (lines_.next(line)) {
      if (trim(line).starts_with("#BEGIN_TB")) {
        in_block_ = true;
        break;
      }
      if (const auto v = after_eq(trim(line), "-enable lineinfo")) lineinfo_ = *v == "1";
      if (const auto v = after_eq(trim(line), "-block dim")) {
        std::uint32_t xyz[3];
        std::string_view d = *v;
        if (d.starts_with('(') && d.ends_with(')') &&
            detail::parse_xyz(d.substr(1, d.size() - 2), xyz))
          warps_per_block_ =
              static_cast<std::uint32_t>((std::uint64_t{xyz[0]} * xyz[1] * xyz[2] + 31) / 32);
      }
      text.append(line);
      text += '\n';
      blank_last = trim(line).empty();
    }
    if (blank_last) text.pop_back();
    text += '\0';
    put32(text, static_cast<std::uint32_t>(options_.dictionary.size()));
    put32(text, options_.subchunk_insts);
    text += options_.dictionary;
    write(text);
  }

  // One block (false after the last): its key lines, then each warp's lines.
  bool block() {
    std::string_view line;
    if (!in_block_) {
      while (lines_.next(line)) {
        const std::string_view l = trim(line);
        if (l.empty()) continue;
        if (!l.starts_with("#BEGIN_TB"))
          error(fmt::format("expected #BEGIN_TB, found '{}'", detail::shown_token(l)));
        in_block_ = true;
        break;
      }
      if (!in_block_) return false;
    }
    in_block_ = false;
    BlockIndex b;
    std::vector<std::vector<std::string>> warps(warps_per_block_);
    std::uint32_t warp = 0;
    std::uint64_t left = 0;  // lines of the current warp still to come
    bool have_warp = false;
    auto xyz = [&](std::string_view v, std::uint32_t(&to)[3]) {
      if (!detail::parse_xyz(v, to)) error(fmt::format("bad x,y,z '{}'", detail::shown_token(v)));
    };
    while (lines_.next(line)) {
      const std::string_view l = trim(line);
      if (left > 0) {
        warps[warp].emplace_back(l);
        --left;
        continue;
      }
      if (l.empty()) continue;
      if (l.starts_with("#END_TB")) {
        finish_block(b, warps);
        return true;
      }
      if (const auto v = after_eq(l, "thread block")) {
        xyz(*v, b.entry.tb);
      } else if (const auto v = after_eq(l, "cluster id")) {
        xyz(*v, b.entry.cluster_id);
      } else if (const auto v = after_eq(l, "cluster cta")) {
        xyz(*v, b.entry.cluster_cta);
      } else if (const auto v = after_eq(l, "cluster rank")) {
        if (!parse_dec_token(*v, b.entry.cluster_rank)) error("bad cluster rank");
      } else if (const auto v = after_eq(l, "warp")) {
        if (!parse_dec_token(*v, warp) || warp >= (1u << 16)) error("bad warp = N");
        if (warp >= warps.size()) warps.resize(warp + 1);
        have_warp = true;
      } else if (const auto v = after_eq(l, "insts")) {
        if (!have_warp || !parse_dec_token(*v, left)) error("'insts' line without its 'warp' line");
      } else {
        error(fmt::format("unexpected line '{}' in a thread block", detail::shown_token(l)));
      }
    }
    error("end of file inside a thread block (no #END_TB)");
  }

  void finish_block(BlockIndex& b, const std::vector<std::vector<std::string>>& warps) {
    b.entry.warp_count = static_cast<std::uint32_t>(warps.size());
    for (const std::vector<std::string>& lines : warps) {
      WarpIndex w;
      w.insts = static_cast<std::uint32_t>(lines.size());
      w.offset = out_.bytes_written();
      std::string bytes;
      std::vector<std::string> frames;
      for (std::size_t at = 0; at < lines.size();) {
        const std::size_t n = subchunk_end(lines, at) - at;
        std::string text;
        for (std::size_t i = at; i < at + n; ++i) {
          if (i > at) text += '\n';
          text += lines[i];
        }
        frames.push_back(compress(text));
        w.subchunk_lines.push_back(static_cast<std::uint32_t>(n));
        at += n;
      }
      put32(bytes, w.insts);
      put32(bytes, static_cast<std::uint32_t>(frames.size()));
      for (const std::string& f : frames) {
        put32(bytes, static_cast<std::uint32_t>(f.size()));
        bytes += f;
      }
      write(bytes);
      summary_.lines += w.insts;
      summary_.subchunks += frames.size();
      ++summary_.warps;
      b.warps.push_back(std::move(w));
    }
    ++summary_.blocks;
    blocks_.push_back(std::move(b));
  }

  // The end of the sub-chunk that starts at `at`: subchunk_insts lines, more while a
  // REPLAY_START is open (the reader may replay the region as a whole).
  std::size_t subchunk_end(const std::vector<std::string>& lines, std::size_t at) const {
    const std::size_t target =
        options_.subchunk_insts == 0 ? lines.size() : options_.subchunk_insts;
    std::size_t end = at;
    int depth = 0;
    while (end < lines.size() && (end - at < target || depth > 0)) {
      const std::string_view op = opcode_of(lines[end], lineinfo_);
      if (op == "REPLAY_START") ++depth;
      if (op == "REPLAY_END" && depth > 0) --depth;
      ++end;
    }
    return end;
  }

  std::string compress(const std::string& text) {
    std::string frame(ZSTD_compressBound(text.size()), '\0');
    const std::size_t n = cdict_ ? ZSTD_compress_usingCDict(cctx_, frame.data(), frame.size(),
                                                            text.data(), text.size(), cdict_)
                                 : ZSTD_compressCCtx(cctx_, frame.data(), frame.size(), text.data(),
                                                     text.size(), options_.zstd_level);
    if (ZSTD_isError(n)) fail("{}: zstd compression failed: {}", out_.name(), ZSTD_getErrorName(n));
    frame.resize(n);
    return frame;
  }

  void index() {
    const std::uint64_t at = out_.bytes_written();
    std::string bytes;
    put32(bytes, static_cast<std::uint32_t>(blocks_.size()));
    for (const BlockIndex& b : blocks_) {
      const tracez::BlockEntry& e = b.entry;
      for (const std::uint32_t v :
           {e.tb[0], e.tb[1], e.tb[2], e.cluster_id[0], e.cluster_id[1], e.cluster_id[2],
            e.cluster_cta[0], e.cluster_cta[1], e.cluster_cta[2], e.cluster_rank, e.warp_count})
        put32(bytes, v);
      for (const WarpIndex& w : b.warps) {
        put32(bytes, w.insts);
        put32(bytes, static_cast<std::uint32_t>(w.subchunk_lines.size()));
        put64(bytes, w.offset);
        for (const std::uint32_t n : w.subchunk_lines) put32(bytes, n);
      }
    }
    put64(bytes, at);
    write(bytes);
  }

  std::unique_ptr<InputStream> in_;
  detail::LineReader lines_;
  OutputStream out_;
  TracezWriteOptions options_;
  ZSTD_CCtx* cctx_ = nullptr;
  ZSTD_CDict* cdict_ = nullptr;
  bool lineinfo_ = false;
  bool in_block_ = false;  // a #BEGIN_TB was read and its block not yet
  std::uint32_t warps_per_block_ = 0;
  std::vector<BlockIndex> blocks_;
  TracezWriteSummary summary_;
};

}  // namespace

TracezWriteSummary write_tracez(const std::string& traceg, const std::string& out,
                                const TracezWriteOptions& options) {
  Writer w(traceg, out, options);
  return w.run();
}

}  // namespace gms::trace
