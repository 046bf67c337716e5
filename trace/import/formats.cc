// The only place that maps a file name or magic number to a trace reader or writer.
#include "trace/import/formats.h"

#include <zstd.h>

#include <cstring>
#include <fstream>
#include <string_view>

#include "sim/core/error.h"
#include "trace/import/accelsim_reader.h"
#include "trace/import/nvbit_reader.h"
#include "trace/import/tracez_source.h"
#include "trace/io/zstd_stream.h"
#include "trace/native/binary_format.h"
#include "trace/native/binary_reader.h"
#include "trace/native/binary_writer.h"
#include "trace/native/text_reader.h"
#include "trace/native/text_writer.h"

namespace gms::trace {

namespace {

/// How much of the (decompressed) content detection looks at; an NVBit log may start with the
/// application's own output.
constexpr std::size_t kSniffBytes = 64 * 1024;

constexpr const char* kFormatsTried =
    "wtrace text, .gmt binary, Accel-Sim kernelslist.g, Accel-Sim .traceg, NVBit mem_trace log";

/// The first non-blank line of `head`.
std::string_view first_line(std::string_view head) {
  std::size_t i = 0;
  while (i < head.size() &&
         (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
    ++i;
  const std::size_t nl = head.find('\n', i);
  return head.substr(i, nl == std::string_view::npos ? std::string_view::npos : nl - i);
}

std::unique_ptr<TraceReader> open_accelsim(std::unique_ptr<InputStream> in, std::string_view head,
                                           const ImportOptions& options) {
  const bool list = AccelSimReader::looks_like_list(head);
  return std::make_unique<AccelSimReader>(std::move(in), list, options);
}

/// Chains readers over several files (see open_trace_chain).
class ChainReader final : public TraceReader {
 public:
  ChainReader(std::vector<std::string> paths, TraceFormat format, const ImportOptions& options)
      : paths_(std::move(paths)), format_(format), options_(options) {}

  bool next_kernel(KernelInfo& out) override {
    for (;;) {
      if (!cur_) {
        if (next_ == paths_.size()) return false;
        name_ = paths_[next_];
        cur_ = open_trace_reader(paths_[next_++], format_, options_);
        if (alongside_) cur_->parse_alongside();
      }
      if (cur_->next_kernel(out)) return true;
      const auto named = cur_->allocations();
      done_.insert(done_.end(), named.begin(), named.end());
      cur_.reset();
    }
  }
  std::size_t read(std::span<WarpInstr> out) override { return cur_ ? cur_->read(out) : 0; }
  bool parse_alongside() override {
    // Every file of the chain is opened later (next_kernel) and asked then.
    alongside_ = true;
    if (cur_) cur_->parse_alongside();
    return true;
  }
  const std::string& source_name() const override { return cur_ ? cur_->source_name() : name_; }
  /// The finished files' allocations, then the current file's (copied into one list when asked).
  std::span<const Allocation> allocations() const override {
    const auto current = cur_ ? cur_->allocations() : std::span<const Allocation>{};
    if (current.empty()) return done_;
    all_.assign(done_.begin(), done_.end());
    all_.insert(all_.end(), current.begin(), current.end());
    return all_;
  }

 private:
  std::vector<std::string> paths_;
  TraceFormat format_;
  ImportOptions options_;
  std::size_t next_ = 0;
  std::unique_ptr<TraceReader> cur_;
  std::string name_;
  bool alongside_ = false;
  std::vector<Allocation> done_;         // the allocations of the files read to the end
  mutable std::vector<Allocation> all_;  // done_ and the current file's, for allocations()
};

}  // namespace

TraceFormat parse_trace_format(const std::string& name) {
  if (name == "auto") return TraceFormat::Auto;
  if (name == "wtrace") return TraceFormat::Wtrace;
  if (name == "gmt") return TraceFormat::Gmt;
  if (name == "accelsim") return TraceFormat::AccelSim;
  if (name == "nvbit") return TraceFormat::Nvbit;
  fail("unknown trace format '{}' (auto, wtrace, gmt, accelsim, nvbit)", name);
}

std::unique_ptr<TraceReader> open_trace_reader(const std::string& path, TraceFormat format,
                                               const ImportOptions& options) {
  // A .tracez is known by its suffix alone (it has no magic number): its .traceg text is read.
  auto in = path.ends_with(".tracez") ? open_tracez(path) : std::make_unique<InputStream>(path);
  std::string_view head;
  try {
    head = in->peek(format == TraceFormat::Auto ? kSniffBytes : 4096);
  } catch (const StreamError& e) {
    fail("{}:1: {}", path, e.detail());
  }
  switch (format) {
    case TraceFormat::Wtrace:
      return std::make_unique<TextReader>(std::move(in));
    case TraceFormat::Gmt:
      return std::make_unique<BinaryReader>(std::move(in));
    case TraceFormat::AccelSim:
      return open_accelsim(std::move(in), head, options);
    case TraceFormat::Nvbit:
      return std::make_unique<NvbitReader>(std::move(in), options.quiet);
    case TraceFormat::Auto:
      break;
  }
  if (head.size() >= sizeof kGmtMagic && std::memcmp(head.data(), kGmtMagic, sizeof kGmtMagic) == 0)
    return std::make_unique<BinaryReader>(std::move(in));
  const std::string_view first = first_line(head);
  if (first.starts_with("#wtrace")) return std::make_unique<TextReader>(std::move(in));
  if (AccelSimReader::looks_like_list(head) || AccelSimReader::looks_like_traceg(head))
    return open_accelsim(std::move(in), head, options);
  if (NvbitReader::looks_like_nvbit(head))
    return std::make_unique<NvbitReader>(std::move(in), options.quiet);
  // wtrace-like text without its magic line (or an empty file): the text reader names the fault.
  if (first.empty() || first.starts_with("#")) return std::make_unique<TextReader>(std::move(in));
  fail(
      "{}:1: missing '#wtrace 1' magic line, and not any other known trace format (tried: {}; "
      "--trace-format forces one)",
      path, kFormatsTried);
}

std::unique_ptr<TraceReader> open_trace_chain(const std::vector<std::string>& paths,
                                              TraceFormat format, const ImportOptions& options) {
  return std::make_unique<ChainReader>(paths, format, options);
}

std::unique_ptr<TraceWriter> open_trace_writer(const std::string& path,
                                               std::optional<int> zstd_level) {
  std::string_view p = path;
  const bool compressed = p.ends_with(".wtrace.zst") || p.ends_with(".gmt");
  if (zstd_level) {
    if (!compressed)
      fail("{}: a zstd level is for a compressed output (.gmt or .wtrace.zst)", path);
    if (*zstd_level < ZSTD_minCLevel() || *zstd_level > ZSTD_maxCLevel())
      fail("{}: zstd level {} is not one zstd has ({} to {})", path, *zstd_level, ZSTD_minCLevel(),
           ZSTD_maxCLevel());
  }
  if (p == "-") return std::make_unique<TextWriter>(std::make_unique<OutputStream>(path, false));
  if (p.ends_with(".wtrace.zst"))
    return std::make_unique<TextWriter>(std::make_unique<OutputStream>(
        path, true, zstd_level.value_or(OutputStream::kDefaultZstdLevel)));
  if (p.ends_with(".wtrace"))
    return std::make_unique<TextWriter>(std::make_unique<OutputStream>(path, false));
  if (p.ends_with(".gmt"))
    return std::make_unique<BinaryWriter>(std::make_unique<OutputStream>(path, false),
                                          zstd_level.value_or(BinaryWriter::kDefaultZstdLevel));
  fail("{}: unknown trace file extension (expected .wtrace, .wtrace.zst or .gmt, or - for stdout)",
       path);
}

bool plain_gmt_file(const std::string& path) {
  if (path == "-") return false;
  char magic[sizeof kGmtMagic] = {};
  std::ifstream in(path, std::ios::binary);
  return in.read(magic, sizeof magic) && std::memcmp(magic, kGmtMagic, sizeof magic) == 0;
}

bool accelsim_text_file(const std::string& path) {
  if (path == "-") return false;
  std::string head(4096, '\0');
  std::ifstream in(path, std::ios::binary);
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return AccelSimReader::looks_like_traceg(head) || AccelSimReader::looks_like_list(head);
}

}  // namespace gms::trace
