#pragma once
/// gms capture: record the warp-level addresses of chosen loads and stores of a CUDA kernel and
/// write them as a wtrace v1 file (zstd-compressed). Header-only; needs nvcc and libzstd.
///
/// Device side: construct one WarpRecorder per thread and call record() just before each memory
/// access to trace, from all threads that perform it. The lowest active lane (the leader) takes
/// a slot from an atomic counter and writes the header (mask, %smid, CTA id, warp id, instruction
/// id, op, size, per-warp sequence number); every active lane writes its own address.
///
///   __global__ void k(float* a, gms::capture::DeviceCapture cap) {
///     gms::capture::WarpRecorder<true> rec(cap);
///     float* p = a + blockIdx.x * blockDim.x + threadIdx.x;
///     rec.record(0, gms::capture::CaptureOp::LDG, 4, p);
///     float v = *p;
///     ...
///   }
///
/// Host side:
///   gms::capture::Capture cap(max_records);          // device buffer
///   k<<<g, b>>>(a, cap.device());
///   auto records = cap.download();                   // throws if the buffer overflowed
///   gms::capture::write_wtrace_zst("k.wtrace.zst", header, records);
///
/// WarpRecorder<false> compiles every call to nothing, so the same kernel template serves an
/// uninstrumented run. Records are written sorted by (cta, warp, seq, inst, mask), not in
/// execution order (see wtrace_host.h).

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/capture/trace_output.h"
#include "tools/capture/wtrace_host.h"
#ifdef GMS_CAPTURE_WITH_GMS
#include "tools/capture/native_output.h"  // .gmt through the project's writer (links gms)
#endif

namespace gms::capture {

/// The device buffer, passed by value to kernels.
struct DeviceCapture {
  CaptureRecord* records = nullptr;
  unsigned long long* count = nullptr;  ///< records appended so far (may pass capacity)
  unsigned long long capacity = 0;
};

namespace detail {
__device__ inline std::uint32_t smid() {
  std::uint32_t r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
__device__ inline std::uint32_t laneid() {
  std::uint32_t r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
}  // namespace detail

/// Per-thread recording state. kEnabled = false makes every member a no-op.
template <bool kEnabled>
struct WarpRecorder;

template <>
struct WarpRecorder<false> {
  __device__ explicit WarpRecorder(const DeviceCapture&) {}
  __device__ void record(std::uint32_t, CaptureOp, std::uint32_t, const void*) {}
  __device__ void record_address(std::uint32_t, CaptureOp, std::uint32_t, std::uint64_t) {}
};

template <>
struct WarpRecorder<true> {
  DeviceCapture cap;
  std::uint32_t cta;
  std::uint32_t warp;
  std::uint32_t seq = 0;

  __device__ explicit WarpRecorder(const DeviceCapture& c) : cap(c) {
    cta = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
    warp = (threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y) / 32;
  }

  /// Records a global or local access at generic pointer `p`.
  __device__ void record(std::uint32_t inst, CaptureOp op, std::uint32_t size, const void* p) {
    record_address(inst, op, size, reinterpret_cast<std::uint64_t>(p));
  }

  /// Records an access at `addr` (for LDS/STS: the offset in the shared window, e.g.
  /// __cvta_generic_to_shared(p)). The lanes active at the call form the mask.
  __device__ void record_address(std::uint32_t inst, CaptureOp op, std::uint32_t size,
                                 std::uint64_t addr) {
    const std::uint32_t mask = __activemask();
    const std::uint32_t lane = detail::laneid();
    const std::uint32_t leader = static_cast<std::uint32_t>(__ffs(mask) - 1);
    unsigned long long slot = 0;
    if (lane == leader) slot = atomicAdd(cap.count, 1ull);
    slot = __shfl_sync(mask, slot, static_cast<int>(leader));
    if (slot < cap.capacity) {
      CaptureRecord& r = cap.records[slot];
      r.addr[lane] = addr;
      if (lane == leader) {
        r.mask = mask;
        r.sm = detail::smid();
        r.cta = cta;
        r.warp = warp;
        r.inst = inst;
        r.seq = seq;
        r.op = static_cast<std::uint8_t>(op);
        r.size = static_cast<std::uint8_t>(size);
      }
    }
    ++seq;
  }
};

inline void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

/// Owns the device buffer of up to `capacity` records.
class Capture {
 public:
  explicit Capture(unsigned long long capacity) : capacity_(capacity) {
    check_cuda(cudaMalloc(&records_, sizeof(CaptureRecord) * (capacity ? capacity : 1)),
               "cudaMalloc(capture records)");
    check_cuda(cudaMalloc(&count_, sizeof(unsigned long long)), "cudaMalloc(capture count)");
    reset();
  }
  ~Capture() {
    cudaFree(records_);
    cudaFree(count_);
  }
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;

  DeviceCapture device() const { return DeviceCapture{records_, count_, capacity_}; }

  /// Empties the buffer (synchronous).
  void reset() { check_cuda(cudaMemset(count_, 0, sizeof(unsigned long long)), "cudaMemset"); }

  /// Waits for the device, then copies the records back; throws if more were appended than fit.
  std::vector<CaptureRecord> download() {
    check_cuda(cudaDeviceSynchronize(), "kernel");
    unsigned long long n = 0;
    check_cuda(cudaMemcpy(&n, count_, sizeof n, cudaMemcpyDeviceToHost), "cudaMemcpy(count)");
    if (n > capacity_)
      throw std::runtime_error("capture buffer overflow: " + std::to_string(n) +
                               " records for a capacity of " + std::to_string(capacity_));
    std::vector<CaptureRecord> out(n);
    if (n != 0)
      check_cuda(
          cudaMemcpy(out.data(), records_, sizeof(CaptureRecord) * n, cudaMemcpyDeviceToHost),
          "cudaMemcpy(records)");
    return out;
  }

 private:
  CaptureRecord* records_ = nullptr;
  unsigned long long* count_ = nullptr;
  unsigned long long capacity_;
};

/// Sorts `records` and writes one kernel's wtrace text, zstd-compressed, to `path`.
inline void write_wtrace_zst(const std::string& path, const KernelHeader& header,
                             std::vector<CaptureRecord>& records, int level = 15) {
  sort_records(records);
  TraceOutput out(0, level);
  out.append(wtrace_magic());
  out.append(alloc_lines(header));
  out.append(kernel_line(header));
  std::string chunk;
  for (const auto& r : records) {
    append_record_line(r, chunk);
    if (chunk.size() > (1u << 20)) {
      out.append(chunk);
      chunk.clear();
    }
  }
  out.append(chunk);
  out.finish();
  write_file(path, out.compressed());
}

/// Sorts `records` and writes one kernel's trace to `path`, the format chosen by the extension:
/// .wtrace.zst (zstd text) and .wtrace (plain text) always; .gmt (the native binary format) when
/// compiled with GMS_CAPTURE_WITH_GMS and linked with the gms library, otherwise an error that
/// says to write .wtrace.zst and run `gpumemsim convert IN.wtrace.zst OUT.gmt`.
inline void write_trace(const std::string& path, const KernelHeader& header,
                        std::vector<CaptureRecord>& records) {
  auto ends_with = [&path](const std::string& suffix) {
    return path.size() >= suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
#ifdef GMS_CAPTURE_WITH_GMS
  if (ends_with(".gmt") || ends_with(".wtrace")) {
    write_native(path, header, records);
    return;
  }
#endif
  if (ends_with(".wtrace.zst")) {
    write_wtrace_zst(path, header, records);
  } else if (ends_with(".wtrace")) {
    sort_records(records);
    std::string text = wtrace_magic() + alloc_lines(header) + kernel_line(header);
    for (const auto& r : records) append_record_line(r, text);
    write_file(path, text);
  } else if (ends_with(".gmt")) {
    throw std::runtime_error(path +
                             ": writing .gmt needs GMS_CAPTURE_WITH_GMS and the gms "
                             "library; write .wtrace.zst and run `gpumemsim convert`");
  } else {
    throw std::runtime_error(path + ": unknown trace extension (.wtrace.zst, .wtrace, .gmt)");
  }
}

}  // namespace gms::capture
