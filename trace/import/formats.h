#pragma once
/// The only place that maps a file name or magic number to a reader or writer.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "trace/import/import_options.h"
#include "trace/io/reader.h"
#include "trace/io/writer.h"

namespace gms::trace {

/// Trace formats a reader can be forced to (`--trace-format`); Auto detects from the content.
enum class TraceFormat { Auto, Wtrace, Gmt, AccelSim, Nvbit };

/// Parses "auto", "wtrace", "gmt", "accelsim" or "nvbit"; throws SimError otherwise.
TraceFormat parse_trace_format(const std::string& name);

/// Opens a trace for reading; "-" reads standard input. Compression (zstd, xz) is undone on the
/// fly whatever the format. With Auto the format is detected from the content: the .gmt magic;
/// "#wtrace" text; an Accel-Sim kernelslist.g (MemcpyHtoD / kernel-N.traceg or raw kernel-N.trace
/// lines) or kernel file of any tracer generation ("-key = value" header, "#traces format" or
/// "#BEGIN_TB"); an NVBit mem_trace log, stock or modified (a "MEMTRACE:" line, the NVBit
/// banner, or the older "CTA x,y,z - warp" / "Kernel ... - grid size" lines in the first 64
/// KiB). Anything else is an error that lists the formats tried. An explicit `format` skips the
/// detection (for Accel-Sim, the content still tells a kernelslist.g from a .traceg). A path
/// ending in ".tracez" (Accel-Sim 2.0's container, no magic number) is decoded to its .traceg
/// text first (tracez_source.h). `options` reach the Accel-Sim and NVBit readers (--strict).
std::unique_ptr<TraceReader> open_trace_reader(const std::string& path,
                                               TraceFormat format = TraceFormat::Auto,
                                               const ImportOptions& options = {});

/// True when `path` is a file (not "-") that opens with the .gmt magic, uncompressed: a trace
/// whose blocks several readers can deal among themselves (TraceReader::share_blocks). Reads
/// its first 8 bytes with plain file I/O (not counted as trace input for progress bars).
bool plain_gmt_file(const std::string& path);

/// True when `path` is a file (not "-"), uncompressed, that starts as an Accel-Sim kernel file
/// or kernelslist.g: a trace whose reader parses its thread blocks on a thread of its own when
/// given one (TraceReader::parse_alongside). Reads its first 4 KiB with plain file I/O.
bool accelsim_text_file(const std::string& path);

/// Several traces read as one stream of kernels, in order; each file is opened when reached.
std::unique_ptr<TraceReader> open_trace_chain(const std::vector<std::string>& paths,
                                              TraceFormat format = TraceFormat::Auto,
                                              const ImportOptions& options = {});

/// Opens a trace for writing, format chosen by extension: ".wtrace" (text), ".wtrace.zst" (zstd
/// text), ".gmt" (native binary); "-" writes text to standard output. Other names are an error.
/// `zstd_level`: zstd's compression level of a .gmt (default 5) or .wtrace.zst (default 3) file,
/// negative for zstd's fast levels; an error for an uncompressed output or a level zstd lacks.
std::unique_ptr<TraceWriter> open_trace_writer(const std::string& path,
                                               std::optional<int> zstd_level = std::nullopt);

}  // namespace gms::trace
