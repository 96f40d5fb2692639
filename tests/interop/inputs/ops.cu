// Device functions for the tests/interop golden tests (numba's ABI).
#include "ops_config.h"

extern "C" __device__ int mul_f32(float* return_value, float x, float y) {
  *return_value = x * y * OPS_SCALE;
  return 0;
}

extern "C" __device__ int sum_reduce(float* return_value, float* array, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += array[i];
  *return_value = (float)sum;
  return 0;
}
