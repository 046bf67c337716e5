// The only place that maps a file name or magic number to a trace reader or writer.
#include "trace/formats.h"

#include <cstring>
#include <string_view>

#include "sim/error.h"
#include "trace/binary_format.h"
#include "trace/binary_reader.h"
#include "trace/binary_writer.h"
#include "trace/text_reader.h"
#include "trace/text_writer.h"
#include "trace/zstd_stream.h"

namespace gms::trace {

std::unique_ptr<TraceReader> open_trace_reader(const std::string& path) {
  auto in = std::make_unique<InputStream>(path);
  std::string_view head;
  try {
    head = in->peek(sizeof kGmtMagic);
  } catch (const StreamError& e) {
    fail("{}:1: {}", path, e.detail());
  }
  if (head.size() == sizeof kGmtMagic && std::memcmp(head.data(), kGmtMagic, sizeof kGmtMagic) == 0)
    return std::make_unique<BinaryReader>(std::move(in));
  // Everything else is read as text; without "#wtrace 1" the text reader reports it.
  return std::make_unique<TextReader>(std::move(in));
}

std::unique_ptr<TraceWriter> open_trace_writer(const std::string& path) {
  std::string_view p = path;
  if (p == "-") return std::make_unique<TextWriter>(std::make_unique<OutputStream>(path, false));
  if (p.ends_with(".wtrace.zst"))
    return std::make_unique<TextWriter>(std::make_unique<OutputStream>(path, true));
  if (p.ends_with(".wtrace"))
    return std::make_unique<TextWriter>(std::make_unique<OutputStream>(path, false));
  if (p.ends_with(".gmt"))
    return std::make_unique<BinaryWriter>(std::make_unique<OutputStream>(path, false));
  fail("{}: unknown trace file extension (expected .wtrace, .wtrace.zst or .gmt, or - for stdout)",
       path);
}

}  // namespace gms::trace
