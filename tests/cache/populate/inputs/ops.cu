// A device function for tests/cache/populate (numba's ABI).
extern "C" __device__ int mul_f32(float* return_value, float x, float y) {
  *return_value = x * y;
  return 0;
}
