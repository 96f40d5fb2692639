// The function bench/interop/ times as C++ against the same arithmetic written in
// Python (call_kernels.py): a few flops, so that the call's own cost shows.
// 0.5 x^3 - 0.25 x + 0.125 maps [-1, 1] into itself, so iterating stays finite.
extern "C" __device__ int poly3(float* return_value, float x) {
  *return_value = ((0.5f * x) * x - 0.25f) * x + 0.125f;
  return 0;
}

// The same with abi="c" (pykc and numba-cuda-mlir): the result in a register.
extern "C" __device__ float poly3_c(float x) {
  return ((0.5f * x) * x - 0.25f) * x + 0.125f;
}
