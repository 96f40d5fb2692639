// Launch examples/saxpy.py's kernels from C++ through the header that
// pykc_add_kernels generated at build time (saxpy.h: the cubins embedded, an
// argument struct and a typed launch function per kernel; docs/LOADER.md,
// "From CMake"). Runs saxpy and block_sum and checks them against the CPU.
//
// Without a usable GPU (no driver, or the toolkit's stub libcuda) it says so
// and exits 0 after checking what needs no GPU.
#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "saxpy.h"

#define CU(call)                                                                          \
  do {                                                                                    \
    CUresult r_ = (call);                                                                 \
    if (r_ != CUDA_SUCCESS) {                                                             \
      const char* name_ = nullptr;                                                        \
      cuGetErrorName(r_, &name_);                                                         \
      throw std::runtime_error(std::string(#call) + ": " + (name_ ? name_ : "?"));        \
    }                                                                                     \
  } while (0)

int main() try {
  // The argument structs follow docs/ABI.md: a float32[::1] is its device pointer,
  // one int64 shape and one int64 stride (in elements).
  static_assert(sizeof(saxpy_saxpy_args{}.x) == 8 + 8 + 8, "array of ndim 1: pointer, shape, stride");
  static_assert(sizeof(saxpy_gelu_2d_args{}.x.shape) == 2 * sizeof(int64_t), "ndim 2: two shapes");

  CUresult init = cuInit(0);
  int devices = 0;
  if (init == CUDA_SUCCESS) init = cuDeviceGetCount(&devices);
  if (init != CUDA_SUCCESS || devices == 0) {
    // (The toolkit's stub libcuda answers every call with CUDA_ERROR_STUB_LIBRARY, 34.)
    std::string why = init != CUDA_SUCCESS ? "cuInit: error " + std::to_string(static_cast<int>(init)) : "no device";
    std::printf("saxpy_launch: built with saxpy.h (%d images); launch skipped: no CUDA GPU (%s)\n",
                static_cast<int>(sizeof(saxpy_images) / sizeof(saxpy_images[0])), why.c_str());
    return 0;
  }
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));

  saxpy_module mod;
  CU(saxpy_load(&mod));

  const int64_t n = (1 << 20) + 3;
  std::vector<float> x(n), y(n), out(n);
  std::mt19937 rng(1234);
  std::normal_distribution<float> nd;
  for (int64_t i = 0; i < n; ++i) {
    x[i] = nd(rng);
    y[i] = nd(rng);
  }
  const size_t bytes = n * sizeof(float);
  CUdeviceptr dx, dy, dout, dpartial;
  CU(cuMemAlloc(&dx, bytes));
  CU(cuMemAlloc(&dy, bytes));
  CU(cuMemAlloc(&dout, bytes));
  CU(cuMemcpyHtoD(dx, x.data(), bytes));
  CU(cuMemcpyHtoD(dy, y.data(), bytes));

  const float a = 2.5f;
  saxpy_saxpy_args args = {a, {dx, {n}, {1}}, {dy, {n}, {1}}, {dout, {n}, {1}}};
  CU(saxpy_saxpy_launch(&mod, pykc_dim3{1024, 1, 1}, pykc_dim3{256, 1, 1}, 0, nullptr, &args));

  // block_sum: one partial sum per block of 256 (BLOCK in saxpy.py).
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
  CU(cuMemAlloc(&dpartial, blocks * sizeof(float)));
  saxpy_block_sum_args sum = {{dx, {n}, {1}}, {dpartial, {blocks}, {1}}};
  CU(saxpy_block_sum_launch(&mod, pykc_dim3{blocks, 1, 1}, pykc_dim3{256, 1, 1}, 0, nullptr, &sum));
  CU(cuCtxSynchronize());

  std::vector<float> partial(blocks);
  CU(cuMemcpyDtoH(out.data(), dout, bytes));
  CU(cuMemcpyDtoH(partial.data(), dpartial, blocks * sizeof(float)));
  double maxError = 0, total = 0, want = 0;
  for (int64_t i = 0; i < n; ++i) {
    double e = std::fabs(out[i] - (double(a) * x[i] + y[i]));
    maxError = std::isnan(e) ? INFINITY : std::max(maxError, e);
    want += x[i];
  }
  for (float p : partial) total += p;
  CU(cuMemFree(dx));
  CU(cuMemFree(dy));
  CU(cuMemFree(dout));
  CU(cuMemFree(dpartial));
  std::string arch = mod.arch ? mod.arch : "?";  // saxpy_unload clears the module
  CU(saxpy_unload(&mod));
  CU(cuDevicePrimaryCtxRelease(dev));
  bool ok = maxError < 1e-5 && std::fabs(total - want) < 1e-2 * std::max(1.0, std::fabs(want));
  std::printf("%s: saxpy.h on %s: saxpy max abs error %.3g; block_sum %.6g (CPU %.6g)\n", ok ? "PASS" : "FAIL",
              arch.c_str(), maxError, total, want);
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
