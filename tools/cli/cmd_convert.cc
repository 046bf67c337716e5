// gpumemsim convert: turn a trace into another format (text, zstd text, native binary).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "sim/core/error.h"
#include "tools/cli/commands.h"
#include "tools/cli/options.h"
#include "tools/cli/study_common.h"
#include "trace/import/formats.h"
#include "trace/import/kernel_input.h"
#include "trace/import/tracez_writer.h"
#include "trace/io/input_progress.h"

namespace gms::cli {

namespace {

/// Copies every kernel and record of `in` to `out`, in batches. The Accel-Sim importer's bulk
/// records (TMA copies: sim/core/types.h) have no spelling in wtrace or .gmt: they are left out,
/// and a warning says how many (the Accel-Sim file or its .tracez keeps them). The allocations
/// the trace names go before the kernel they come before (wtrace `#alloc` lines); .gmt has no
/// place for them, and a warning says how many were left out.
void copy_trace(trace::TraceReader& in, trace::TraceWriter& out, const std::string& out_path) {
  std::vector<WarpInstr> batch(4096);
  KernelInfo kernel;
  std::uint64_t bulk = 0, allocations_lost = 0;
  std::size_t allocations_copied = 0;
  const auto copy_allocations = [&] {
    const auto named = in.allocations();
    for (; allocations_copied < named.size(); ++allocations_copied)
      if (!out.add_allocation(named[allocations_copied])) ++allocations_lost;
  };
  while (in.next_kernel(kernel)) {
    copy_allocations();
    out.begin_kernel(kernel);
    while (std::size_t n = in.read(batch)) {
      const auto kept =
          std::remove_if(batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(n),
                         [](const WarpInstr& w) { return is_bulk(w.op); });
      bulk += n - static_cast<std::size_t>(kept - batch.begin());
      n = static_cast<std::size_t>(kept - batch.begin());
      if (n != 0) out.write(std::span(batch).first(n));
    }
  }
  copy_allocations();
  out.finish();
  if (allocations_lost != 0)
    spdlog::warn("{}: {} allocation{} left out (.gmt has no allocation record; wtrace keeps them)",
                 out_path, allocations_lost, allocations_lost == 1 ? "" : "s");
  if (bulk != 0)
    spdlog::warn(
        "{}: {} TMA bulk records left out (wtrace and .gmt have no bulk op; convert to .tracez "
        "to keep them)",
        out_path, bulk);
}

/// An Accel-Sim kernel file's text (a .tracez decoded) copied to `out_path`, zstd-compressed
/// when it ends in .zst.
void copy_accelsim_text(const std::string& in_path, const std::string& out_path) {
  const auto in = trace::open_kernel_stream(in_path);
  trace::OutputStream out(out_path, out_path.ends_with(".zst"));
  std::vector<char> chunk(trace::kStreamChunkBytes);
  while (const std::size_t n = in->read(chunk.data(), chunk.size())) out.write(chunk.data(), n);
  out.finish();
}

}  // namespace

int cmd_convert(const std::vector<std::string>& args) {
  po::options_description visible("options");
  add_trace_reading_options(visible);
  add_zstd_level_option(visible);
  po::options_description hidden;
  hidden.add_options()("in", po::value<std::string>()->required(), "input trace")(
      "out", po::value<std::string>()->required(), "output trace");
  po::positional_options_description positional;
  positional.add("in", 1).add("out", 1);
  po::variables_map vm;
  if (!parse_args(
          args,
          "usage: gpumemsim convert IN OUT\n"
          "Converts a trace losslessly; formats by extension: .wtrace (text), .wtrace.zst\n"
          "(zstd text), .gmt (native binary). IN may be -, for standard input, and OUT -\n"
          "for text on standard output. The input format is detected from its content\n"
          "(wtrace, .gmt, Accel-Sim kernelslist.g/.traceg[.xz]/.tracez, NVBit mem_trace\n"
          "log). One Accel-Sim kernel file also converts as Accel-Sim: a .traceg[.xz|.zst]\n"
          "or .tracez IN to a .tracez OUT (Accel-Sim 2.0's per-kernel container), a\n"
          ".tracez IN to a .traceg or .traceg.zst OUT (its text).",
          visible, hidden, positional, vm))
    return 0;
  const std::string in_path = vm["in"].as<std::string>();
  const std::string out_path = vm["out"].as<std::string>();
  const std::optional<int> zstd_level = zstd_level_option(vm);
  if (zstd_level && (out_path.ends_with(".tracez") || out_path.ends_with(".traceg") ||
                     out_path.ends_with(".traceg.zst")))
    fail("convert: --zstd-level is for a .gmt or .wtrace.zst OUT, not {}", out_path);
  if (out_path.ends_with(".tracez")) {
    trace::write_tracez(in_path, out_path);
    return 0;
  }
  if (in_path.ends_with(".tracez") &&
      (out_path.ends_with(".traceg") || out_path.ends_with(".traceg.zst"))) {
    copy_accelsim_text(in_path, out_path);
    return 0;
  }
  const TraceReading reading = trace_reading(vm);
  const ProgressBar bar(trace::input_bytes_total({in_path}), reading.progress);
  auto reader = trace::open_trace_reader(in_path, reading.format, reading.import);

  // A file is written under a temporary name and renamed when complete (OutputStream's
  // AtomicOutputFile), so an error in the input never leaves a partial output file.
  auto writer = trace::open_trace_writer(out_path, zstd_level);
  copy_trace(*reader, *writer, out_path);
  return 0;
}

}  // namespace gms::cli
