#pragma once
/// The only place that maps a file name or magic number to a reader or writer.

#include <memory>
#include <string>

#include "trace/reader.h"
#include "trace/writer.h"

namespace gms::trace {

/// Opens a trace for reading; "-" reads standard input. The format is detected from the content:
/// zstd frames are decompressed on the fly, then "#wtrace" text or the native binary magic.
std::unique_ptr<TraceReader> open_trace_reader(const std::string& path);

/// Opens a trace for writing, format chosen by extension: ".wtrace" (text), ".wtrace.zst" (zstd
/// text), ".gmt" (native binary); "-" writes text to standard output. Other names are an error.
std::unique_ptr<TraceWriter> open_trace_writer(const std::string& path);

}  // namespace gms::trace
