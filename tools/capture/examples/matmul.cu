/// Capture example 3: C = A x B for N x N floats (N = 256): naive (each thread walks a row of A,
/// broadcast within a warp, and a column of B, coalesced) and tiled (16 x 16 shared tiles). Every
/// global and shared access is recorded.
#include "tools/capture/examples/example_main.cuh"

namespace {

using gms::capture::CaptureOp;
using gms::capture::DeviceCapture;
using gms::capture::WarpRecorder;

constexpr unsigned kN = 256;
constexpr unsigned kT = 16;

template <bool kCapture>
__global__ void gt221_matmul_naive(const float* a, const float* b, float* c, DeviceCapture cap) {
  WarpRecorder<kCapture> rec(cap);
  const unsigned row = blockIdx.y * kT + threadIdx.y;
  const unsigned col = blockIdx.x * kT + threadIdx.x;
  float acc = 0;
  for (unsigned k = 0; k < kN; ++k) {
    rec.record(0, CaptureOp::LDG, 4, a + row * kN + k);
    rec.record(1, CaptureOp::LDG, 4, b + k * kN + col);
    acc += a[row * kN + k] * b[k * kN + col];
  }
  rec.record(2, CaptureOp::STG, 4, c + row * kN + col);
  c[row * kN + col] = acc;
}

template <bool kCapture>
__global__ void gt222_matmul_tiled(const float* a, const float* b, float* c, DeviceCapture cap) {
  __shared__ float as[kT][kT];
  __shared__ float bs[kT][kT];
  WarpRecorder<kCapture> rec(cap);
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned row = blockIdx.y * kT + ty;
  const unsigned col = blockIdx.x * kT + tx;
  float acc = 0;
  for (unsigned t = 0; t < kN / kT; ++t) {
    rec.record(0, CaptureOp::LDG, 4, a + row * kN + t * kT + tx);
    const float va = a[row * kN + t * kT + tx];
    rec.record_address(1, CaptureOp::STS, 4, __cvta_generic_to_shared(&as[ty][tx]));
    as[ty][tx] = va;
    rec.record(2, CaptureOp::LDG, 4, b + (t * kT + ty) * kN + col);
    const float vb = b[(t * kT + ty) * kN + col];
    rec.record_address(3, CaptureOp::STS, 4, __cvta_generic_to_shared(&bs[ty][tx]));
    bs[ty][tx] = vb;
    __syncthreads();
    for (unsigned k = 0; k < kT; ++k) {
      rec.record_address(4, CaptureOp::LDS, 4, __cvta_generic_to_shared(&as[ty][k]));
      rec.record_address(5, CaptureOp::LDS, 4, __cvta_generic_to_shared(&bs[k][tx]));
      acc += as[ty][k] * bs[k][tx];
    }
    __syncthreads();
  }
  rec.record(6, CaptureOp::STG, 4, c + row * kN + col);
  c[row * kN + col] = acc;
}

}  // namespace

int main(int argc, char** argv) {
  namespace ex = gms::examples;
  return ex::run_guarded(argv[0], [&] {
    float *a = nullptr, *b = nullptr, *c = nullptr;
    const std::size_t bytes = sizeof(float) * kN * kN;
    if (ex::needs_device(argc, argv)) {
      ex::check(cudaMalloc(&a, bytes), "cudaMalloc(a)");
      ex::check(cudaMalloc(&b, bytes), "cudaMalloc(b)");
      ex::check(cudaMalloc(&c, bytes), "cudaMalloc(c)");
      ex::check(cudaMemset(a, 0, bytes), "cudaMemset");
      ex::check(cudaMemset(b, 0, bytes), "cudaMemset");
    }
    const dim3 grid(kN / kT, kN / kT), block(kT, kT);
    const unsigned long long warps = 1ull * grid.x * grid.y * (kT * kT / 32);
    std::vector<ex::ExampleKernel> kernels;
    kernels.push_back({ex::header(221, "matmul_naive", grid, block, 0), warps * (2 * kN + 1),
                       [=](const DeviceCapture& cap, bool capture) {
                         if (capture)
                           gt221_matmul_naive<true><<<grid, block>>>(a, b, c, cap);
                         else
                           gt221_matmul_naive<false><<<grid, block>>>(a, b, c, cap);
                       }});
    kernels.push_back({ex::header(222, "matmul_tiled", grid, block, 2 * sizeof(float) * kT * kT),
                       warps * ((kN / kT) * (4 + 2 * kT) + 1),
                       [=](const DeviceCapture& cap, bool capture) {
                         if (capture)
                           gt222_matmul_tiled<true><<<grid, block>>>(a, b, c, cap);
                         else
                           gt222_matmul_tiled<false><<<grid, block>>>(a, b, c, cap);
                       }});
    const int rc = ex::example_main(
        argc, argv, kernels,
        {ex::buffer(a, bytes, "a"), ex::buffer(b, bytes, "b"), ex::buffer(c, bytes, "c")});
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return rc;
  });
}
