#pragma once
/// Opening one kernel file of an Accel-Sim trace: a `.tracez` is decoded to its `.traceg` text
/// (tracez_source.h); anything else is read as a plain, xz or zstd stream.

#include <memory>
#include <string>

#include "trace/io/zstd_stream.h"

namespace gms::trace {

/// `path` as an InputStream of Accel-Sim text, by its suffix (".tracez" or any other).
std::unique_ptr<InputStream> open_kernel_stream(const std::string& path);

/// A kernel file named by a kernelslist.g, and the file actually opened.
struct ListedKernel {
  std::unique_ptr<InputStream> stream;
  std::string path;       ///< the file opened: the listed one, or its .xz or .zst beside it
  bool fallback = false;  ///< the listed file is missing and `path` is its compressed copy
};

/// Opens the listed `path`; where it is missing but `path`.xz or `path`.zst exists, that one
/// (a trace directory compressed after its list was written).
ListedKernel open_listed_kernel(const std::string& path);

}  // namespace gms::trace
