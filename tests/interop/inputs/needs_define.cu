// Compiles only with `-D NEED_ME=...` on pykc's command line.
#ifndef NEED_ME
#error "compile with -D NEED_ME=1"
#endif
extern "C" __device__ int twice(int* return_value, int x) {
  *return_value = NEED_ME * 2 * x;
  return 0;
}
