/// Capture example 2: matrix transpose, N x N floats (N = 1024): naive (coalesced reads, stores at
/// a stride of N) and tiled through shared memory (32 x 33 tiles: coalesced both ways, no bank
/// conflicts). Every global and shared access is recorded.
#include "tools/capture/examples/example_main.cuh"

namespace {

using gms::capture::CaptureOp;
using gms::capture::DeviceCapture;
using gms::capture::WarpRecorder;

constexpr unsigned kN = 1024;
constexpr unsigned kTile = 32;
constexpr unsigned kRows = 8;  // a 32 x 8 block moves a 32 x 32 tile in 4 steps

template <bool kCapture>
__global__ void gt211_transpose_naive(const float* in, float* out, DeviceCapture cap) {
  WarpRecorder<kCapture> rec(cap);
  const unsigned x = blockIdx.x * kTile + threadIdx.x;
  for (unsigned j = 0; j < kTile; j += kRows) {
    const unsigned y = blockIdx.y * kTile + threadIdx.y + j;
    rec.record(0, CaptureOp::LDG, 4, in + y * kN + x);
    const float v = in[y * kN + x];
    rec.record(1, CaptureOp::STG, 4, out + x * kN + y);
    out[x * kN + y] = v;
  }
}

template <bool kCapture>
__global__ void gt212_transpose_tiled(const float* in, float* out, DeviceCapture cap) {
  __shared__ float tile[kTile][kTile + 1];
  WarpRecorder<kCapture> rec(cap);
  unsigned x = blockIdx.x * kTile + threadIdx.x;
  unsigned y = blockIdx.y * kTile + threadIdx.y;
  for (unsigned j = 0; j < kTile; j += kRows) {
    rec.record(0, CaptureOp::LDG, 4, in + (y + j) * kN + x);
    const float v = in[(y + j) * kN + x];
    rec.record_address(1, CaptureOp::STS, 4,
                       __cvta_generic_to_shared(&tile[threadIdx.y + j][threadIdx.x]));
    tile[threadIdx.y + j][threadIdx.x] = v;
  }
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (unsigned j = 0; j < kTile; j += kRows) {
    rec.record_address(2, CaptureOp::LDS, 4,
                       __cvta_generic_to_shared(&tile[threadIdx.x][threadIdx.y + j]));
    const float v = tile[threadIdx.x][threadIdx.y + j];
    rec.record(3, CaptureOp::STG, 4, out + (y + j) * kN + x);
    out[(y + j) * kN + x] = v;
  }
}

}  // namespace

int main(int argc, char** argv) {
  namespace ex = gms::examples;
  return ex::run_guarded(argv[0], [&] {
    float* in = nullptr;
    float* out = nullptr;
    if (ex::needs_device(argc, argv)) {
      ex::check(cudaMalloc(&in, sizeof(float) * kN * kN), "cudaMalloc(in)");
      ex::check(cudaMalloc(&out, sizeof(float) * kN * kN), "cudaMalloc(out)");
      ex::check(cudaMemset(in, 0, sizeof(float) * kN * kN), "cudaMemset");
    }
    const dim3 grid(kN / kTile, kN / kTile), block(kTile, kRows);
    const unsigned long long warps = 1ull * grid.x * grid.y * (kTile * kRows / 32);
    std::vector<ex::ExampleKernel> kernels;
    kernels.push_back({ex::header(211, "transpose_naive", grid, block, 0),
                       warps * 2 * (kTile / kRows), [=](const DeviceCapture& cap, bool capture) {
                         if (capture)
                           gt211_transpose_naive<true><<<grid, block>>>(in, out, cap);
                         else
                           gt211_transpose_naive<false><<<grid, block>>>(in, out, cap);
                       }});
    kernels.push_back(
        {ex::header(212, "transpose_tiled", grid, block, sizeof(float) * kTile * (kTile + 1)),
         warps * 4 * (kTile / kRows), [=](const DeviceCapture& cap, bool capture) {
           if (capture)
             gt212_transpose_tiled<true><<<grid, block>>>(in, out, cap);
           else
             gt212_transpose_tiled<false><<<grid, block>>>(in, out, cap);
         }});
    const std::size_t bytes = sizeof(float) * kN * kN;
    const int rc = ex::example_main(argc, argv, kernels,
                                    {ex::buffer(in, bytes, "in"), ex::buffer(out, bytes, "out")});
    cudaFree(in);
    cudaFree(out);
    return rc;
  });
}
