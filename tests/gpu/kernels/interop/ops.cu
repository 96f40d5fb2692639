// CUDA C++ device functions called from tests/gpu/kernels/interop_kernels.py
// through cuda.declare_device, with numba's ABI: `extern "C"`, an int status
// (always 0), the result through the first (pointer) argument.

// Scalar math: x * y + 1, in float32.
extern "C" __device__ int mul_add_one(float* return_value, float x, float y) {
  *return_value = x * y + 1.0f;
  return 0;
}

// float64 and integer arguments mixed: a polynomial x^n evaluated by a loop.
extern "C" __device__ int powi_f64(double* return_value, double x, int n) {
  double r = 1.0;
  for (int i = 0; i < n; ++i) r *= x;
  *return_value = r;
  return 0;
}

// A pointer-taking helper (numba-cuda's documented sum_reduce): the sum of
// n floats, accumulated in double.
extern "C" __device__ int sum_reduce(float* return_value, float* array, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += array[i];
  *return_value = (float)sum;
  return 0;
}

// Writes through a pointer and returns nothing (void in Python): out[i] = 2 * in[i].
extern "C" __device__ int scale2(void* return_value, const float* in, float* out, long long i) {
  out[i] = 2.0f * in[i];
  return 0;
}

#ifndef OPS_OFFSET
#define OPS_OFFSET 3
#endif
// 3 unless `-D OPS_OFFSET=...` on pykc's command line says otherwise (the GPU case
// expects 3: compile this file without -D).
extern "C" __device__ int offset_i32(int* return_value, int x) {
  *return_value = x + OPS_OFFSET;
  return 0;
}

// abi="c": the result is the return value (no status, no pointer).
extern "C" __device__ double fma3_c(double a, double b, double c) {
  return fma(a, b, c);
}
