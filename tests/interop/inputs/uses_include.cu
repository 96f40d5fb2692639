// Needs `-I .../inputs/inc` for extra.h.
#include "extra.h"
extern "C" __device__ int add_extra(float* return_value, float x) {
  *return_value = x + EXTRA_ADD;
  return 0;
}
