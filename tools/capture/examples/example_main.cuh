#pragma once
/// The driver shared by the capture examples: one program runs a list of kernels either with the
/// capture on (writing one trace per kernel) or plain (for ncu), like gms_calibrate.
///
///   PROG --list            "id,name" per kernel, in launch order (tools/groundtruth/ncu_to_csv.py)
///   PROG --capture DIR     DIR/<id>-<name>.wtrace.zst per kernel (.gmt too with
///   GMS_CAPTURE_WITH_GMS) PROG --plain           every kernel once without capture: what ncu
///   profiles
///
/// Kernel names start with gt<ID>_ so ncu rows map back to ids (ncu_to_csv.py's convention).

#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "tools/capture/capture.cuh"

namespace gms::examples {

/// One kernel of an example: `launch(cap, capture)` runs it once, recording into `cap` when
/// `capture` is true (WarpRecorder<true>), uninstrumented otherwise.
struct ExampleKernel {
  capture::KernelHeader header;    ///< id, name (gt<ID>_...), grid, block, shmem, arch
  unsigned long long max_records;  ///< capture buffer size
  std::function<void(const capture::DeviceCapture&, bool)> launch;
};

inline void check(cudaError_t e, const char* what) {
  capture::check_cuda(e, what);
}

/// The "sm_XY" of device 0.
inline std::string device_arch() {
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
  return "sm_" + std::to_string(p.major) + std::to_string(p.minor);
}

/// A device array of an example, for its traces' `#alloc` lines.
inline capture::Buffer buffer(const void* p, std::size_t bytes, const char* name) {
  return {reinterpret_cast<std::uintptr_t>(p), bytes, name};
}

/// `buffers`: the device arrays the kernels use, written before each kernel in its wtrace
/// (`#alloc` lines; the .gmt beside it has no record for them).
inline int example_main(int argc, char** argv, std::vector<ExampleKernel>& kernels,
                        const std::vector<capture::Buffer>& buffers = {}) {
  const std::string mode = argc > 1 ? argv[1] : "";
  try {
    if (mode == "--list") {
      for (const auto& k : kernels) std::printf("%u,%s\n", k.header.id, k.header.name.c_str());
      return 0;
    }
    if (mode == "--plain") {
      for (auto& k : kernels) k.launch(capture::DeviceCapture{}, false);
      check(cudaDeviceSynchronize(), "kernels");
      return 0;
    }
    if (mode == "--capture" && argc == 3) {
      const std::string arch = device_arch();
      for (auto& k : kernels) {
        capture::Capture cap(k.max_records);
        k.launch(cap.device(), true);
        std::vector<capture::CaptureRecord> records = cap.download();
        k.header.arch = arch;
        k.header.buffers = buffers;
        const std::string base =
            std::string(argv[2]) + "/" + std::to_string(k.header.id) + "-" + k.header.name;
        capture::write_trace(base + ".wtrace.zst", k.header, records);
#ifdef GMS_CAPTURE_WITH_GMS
        capture::KernelHeader without_buffers = k.header;  // .gmt has no record for them
        without_buffers.buffers.clear();
        capture::write_trace(base + ".gmt", without_buffers, records);
#endif
        std::printf("%s: %zu records\n", base.c_str(), records.size());
      }
      return 0;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
  std::fprintf(stderr, "usage: %s --list | --capture DIR | --plain\n", argv[0]);
  return 2;
}

/// True unless the program only lists its kernels (no device needed then).
inline bool needs_device(int argc, char** argv) {
  return !(argc > 1 && std::strcmp(argv[1], "--list") == 0);
}

/// Runs `body` and turns an exception (a CUDA error, a write error) into a message and status 1.
template <class Body>
int run_guarded(const char* prog, Body&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", prog, e.what());
    return 1;
  }
}

/// A header for kernel `id` named gt<id>_<name>.
inline capture::KernelHeader header(std::uint32_t id, const std::string& name, dim3 grid,
                                    dim3 block, std::uint64_t shmem) {
  capture::KernelHeader h;
  h.id = id;
  h.name = "gt" + std::to_string(id) + "_" + name;
  h.grid = {grid.x, grid.y, grid.z};
  h.block = {block.x, block.y, block.z};
  h.shmem_bytes = shmem;
  return h;
}

}  // namespace gms::examples
