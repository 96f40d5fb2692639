// Device functions built on the header-only CUDA C++ library of the toolkit
// (CCCL's libcu++: cuda/std/...), called from interop_kernels.py.
#include <cuda/std/cmath>
#include <cuda/std/complex>
#include <cuda/std/limits>

// |(re + i*im)^2| with cuda::std::complex<float>.
extern "C" __device__ int complex_abs2(float* return_value, float re, float im) {
  cuda::std::complex<float> z(re, im);
  *return_value = cuda::std::abs(z * z);
  return 0;
}

// cuda::std::hypot and numeric_limits: hypot(x, y) clamped to float's max.
extern "C" __device__ int safe_hypot(float* return_value, float x, float y) {
  float h = cuda::std::hypot(x, y);
  *return_value = h > cuda::std::numeric_limits<float>::max() ? cuda::std::numeric_limits<float>::max() : h;
  return 0;
}

// CUB: the sum over each warp of 32 threads (all lanes of the warp call it).
#include <cub/warp/warp_reduce.cuh>
extern "C" __device__ int warp_sum(float* return_value, float x) {
  using WarpReduce = cub::WarpReduce<float>;
  __shared__ typename WarpReduce::TempStorage temp[32];
  int warp = threadIdx.x / 32;
  float total = WarpReduce(temp[warp]).Sum(x);
  // Sum() leaves the total in lane 0 only: broadcast it.
  *return_value = __shfl_sync(0xffffffffu, total, 0);
  return 0;
}
