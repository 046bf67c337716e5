/// Capture example 1: the seed patterns of the notes (section A): a warp reads floats at a stride
/// of S elements (1, 2, 8, 32), at a misaligned offset, one broadcast address, and writes them back
/// unit-stride. Every global access is recorded, so the replay must match ncu's request and
/// sector counts exactly. See capture_and_compare.sh.
#include "tools/capture/examples/example_main.cuh"

namespace {

using gms::capture::CaptureOp;
using gms::capture::DeviceCapture;
using gms::capture::WarpRecorder;

constexpr unsigned kThreads = 128 * 256;  // 256 blocks of 128

/// out[t] = in[t * stride + offset] (stride 0: every thread reads in[offset]).
template <bool kCapture>
__device__ void strided_body(const float* in, float* out, unsigned stride, unsigned offset,
                             const DeviceCapture& cap) {
  WarpRecorder<kCapture> rec(cap);
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const float* p = in + static_cast<std::size_t>(t) * stride + offset;
  rec.record(0, CaptureOp::LDG, 4, p);
  const float v = *p;
  rec.record(1, CaptureOp::STG, 4, out + t);
  out[t] = v;
}

#define GMS_STRIDED_KERNEL(ID, NAME, STRIDE, OFFSET)                                \
  template <bool kCapture>                                                          \
  __global__ void gt##ID##_##NAME(const float* in, float* out, DeviceCapture cap) { \
    strided_body<kCapture>(in, out, STRIDE, OFFSET, cap);                           \
  }
GMS_STRIDED_KERNEL(201, stride1, 1, 0)
GMS_STRIDED_KERNEL(202, stride2, 2, 0)
GMS_STRIDED_KERNEL(203, stride8, 8, 0)
GMS_STRIDED_KERNEL(204, stride32, 32, 0)
GMS_STRIDED_KERNEL(205, offset2, 1, 2)
GMS_STRIDED_KERNEL(206, broadcast, 0, 0)
#undef GMS_STRIDED_KERNEL

}  // namespace

int main(int argc, char** argv) {
  namespace ex = gms::examples;
  return ex::run_guarded(argv[0], [&] {
    float* in = nullptr;
    float* out = nullptr;
    if (ex::needs_device(argc, argv)) {
      ex::check(cudaMalloc(&in, sizeof(float) * (kThreads * 32ull + 64)), "cudaMalloc(in)");
      ex::check(cudaMalloc(&out, sizeof(float) * kThreads), "cudaMalloc(out)");
      ex::check(cudaMemset(in, 0, sizeof(float) * (kThreads * 32ull + 64)), "cudaMemset");
    }
    const dim3 grid(kThreads / 128), block(128);
    const unsigned long long records = 2ull * kThreads / 32;
    std::vector<ex::ExampleKernel> kernels;
    auto add = [&](std::uint32_t id, const char* name, auto plain, auto captured) {
      kernels.push_back({ex::header(id, name, grid, block, 0), records,
                         [=](const DeviceCapture& cap, bool capture) {
                           if (capture)
                             captured<<<grid, block>>>(in, out, cap);
                           else
                             plain<<<grid, block>>>(in, out, cap);
                         }});
    };
    add(201, "stride1", gt201_stride1<false>, gt201_stride1<true>);
    add(202, "stride2", gt202_stride2<false>, gt202_stride2<true>);
    add(203, "stride8", gt203_stride8<false>, gt203_stride8<true>);
    add(204, "stride32", gt204_stride32<false>, gt204_stride32<true>);
    add(205, "offset2", gt205_offset2<false>, gt205_offset2<true>);
    add(206, "broadcast", gt206_broadcast<false>, gt206_broadcast<true>);
    const int rc = ex::example_main(argc, argv, kernels,
                                    {ex::buffer(in, sizeof(float) * (kThreads * 32ull + 64), "in"),
                                     ex::buffer(out, sizeof(float) * kThreads, "out")});
    cudaFree(in);
    cudaFree(out);
    return rc;
  });
}
