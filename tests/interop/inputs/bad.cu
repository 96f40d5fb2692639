// A C++ error NVRTC reports: pykc shows it at this file's line and column.
extern "C" __device__ int broken(float* return_value, float x) {
  *return_value = x * undefined_y;
  return 0;
}
