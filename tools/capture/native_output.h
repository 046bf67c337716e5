#pragma once
/// Host side, optional: writes captured records through the project's own trace writers, so a
/// capture can produce the native binary format (.gmt) directly, or wtrace text (.wtrace,
/// .wtrace.zst) identical to what wtrace_host.h writes. Needs the gms library: include it only
/// from code linked with `gms` (the capture examples do when built with GMS_CAPTURE_WITH_GMS).
/// Without it, write .wtrace.zst (capture.cuh) and run `gpumemsim convert t.wtrace.zst t.gmt`.
///
///   gms::capture::write_native("k.gmt", header, records);   // sorts records like the text path

#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "sim/core/records.h"
#include "tools/capture/wtrace_host.h"
#include "trace/import/formats.h"
#include "trace/native/text_parse.h"

namespace gms::capture {

/// The KernelInfo the wtrace reader would produce from kernel_line(h) (same keys, same order).
inline KernelInfo to_kernel_info(const KernelHeader& h) {
  std::string line = kernel_line(h);
  line.pop_back();  // '\n'
  KernelInfo k;
  const std::string origin = "capture";
  trace::detail::parse_kernel_line(line, {origin, 0}, k);
  return k;
}

/// The WarpInstr the wtrace reader would produce from append_record_line(r).
inline WarpInstr to_warp_instr(const CaptureRecord& r) {
  WarpInstr w;
  w.inst = r.inst;
  w.op = static_cast<Op>(r.op);
  w.size = r.size;
  w.sm = r.sm == kUnknownSm ? gms::kUnknownSm : r.sm;
  w.cta = r.cta;
  w.warp = r.warp;
  w.mask = r.mask;
  for (std::uint32_t m = r.mask; m != 0; m &= m - 1) {
    const int lane = std::countr_zero(m);
    w.addr[lane] = r.addr[lane];
  }
  if (const auto sf = strided_form(r)) {
    w.strided = true;
    w.stride = sf->second;
  }
  return w;
}

/// Sorts `records` (see wtrace_host.h) and writes one kernel to `path`; the extension picks the
/// format (.gmt, .wtrace, .wtrace.zst). The header's buffers become `#alloc` lines in wtrace;
/// .gmt has no record for them, and a warning says how many were left out (as `gpumemsim
/// convert` does). Throws gms::SimError on a bad record or an I/O error.
inline void write_native(const std::string& path, const KernelHeader& header,
                         std::vector<CaptureRecord>& records) {
  sort_records(records);
  auto writer = trace::open_trace_writer(path);
  std::size_t lost = 0;
  for (const Buffer& b : header.buffers) lost += !writer->add_allocation({b.base, b.bytes, b.name});
  if (lost != 0)
    // stderr, not spdlog: this header is compiled by nvcc too, which spdlog's headers refuse.
    std::fprintf(stderr,
                 "%s: %zu buffer%s left out (.gmt has no allocation record; wtrace keeps them)\n",
                 path.c_str(), lost, lost == 1 ? "" : "s");
  writer->begin_kernel(to_kernel_info(header));
  std::vector<WarpInstr> batch;
  batch.reserve(4096);
  for (const CaptureRecord& r : records) {
    batch.push_back(to_warp_instr(r));
    if (batch.size() == 4096) {
      writer->write(batch);
      batch.clear();
    }
  }
  writer->write(batch);
  writer->finish();
}

}  // namespace gms::capture
