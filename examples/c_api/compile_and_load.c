/* "NVRTC for Python kernels": compile a numba.cuda kernel held in a string
 * with libpykc, then (where a GPU and its driver are present) load the cubin
 * with the CUDA driver API, launch it and check the result.
 *
 *   cc -I include examples/c_api/compile_and_load.c -L build/lib -lpykc -ldl \
 *      -Wl,-rpath,$PWD/build/lib -o compile_and_load && ./compile_and_load
 *
 * The driver is opened with dlopen, so the program also builds and compiles
 * on a machine without CUDA's driver (it then stops after the compile). */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pykc/pykc.h"

static const char kSource[] =
    "from numba import cuda\n"
    "\n"
    "@cuda.jit\n"
    "def saxpy(a, x, y, out):\n"
    "    i = cuda.grid(1)\n"
    "    if i < x.size:\n"
    "        out[i] = a * x[i] + y[i]\n";

typedef int (*InitFn)(unsigned);
typedef int (*DeviceGetFn)(int*, int);
typedef int (*CtxRetainFn)(void**, int);
typedef int (*CtxSetFn)(void*);
typedef int (*ModuleLoadFn)(void**, const void*);
typedef int (*GetFunctionFn)(void**, void*, const char*);
typedef int (*MallocFn)(unsigned long long*, size_t);
typedef int (*CopyHtoDFn)(unsigned long long, const void*, size_t);
typedef int (*CopyDtoHFn)(void*, unsigned long long, size_t);
typedef int (*LaunchFn)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                        void*, void**, void**);
typedef int (*SyncFn)(void);

#define CHECK(call)                                                   \
  do {                                                                \
    int rc_ = (call);                                                 \
    if (rc_ != 0) {                                                   \
      fprintf(stderr, "%s failed: CUresult %d\n", #call, rc_);        \
      return 1;                                                       \
    }                                                                 \
  } while (0)

/* Loads `cubin`, runs `symbol` on n floats and compares with the host. */
static int launch(const void* cubin, const char* symbol) {
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (cuda == NULL) {
    printf("no CUDA driver here: compiled, not launched\n");
    return 0;
  }
  InitFn cuInit = (InitFn)dlsym(cuda, "cuInit");
  DeviceGetFn cuDeviceGet = (DeviceGetFn)dlsym(cuda, "cuDeviceGet");
  CtxRetainFn cuDevicePrimaryCtxRetain = (CtxRetainFn)dlsym(cuda, "cuDevicePrimaryCtxRetain");
  CtxSetFn cuCtxSetCurrent = (CtxSetFn)dlsym(cuda, "cuCtxSetCurrent");
  ModuleLoadFn cuModuleLoadData = (ModuleLoadFn)dlsym(cuda, "cuModuleLoadData");
  GetFunctionFn cuModuleGetFunction = (GetFunctionFn)dlsym(cuda, "cuModuleGetFunction");
  MallocFn cuMemAlloc = (MallocFn)dlsym(cuda, "cuMemAlloc_v2");
  CopyHtoDFn cuMemcpyHtoD = (CopyHtoDFn)dlsym(cuda, "cuMemcpyHtoD_v2");
  CopyDtoHFn cuMemcpyDtoH = (CopyDtoHFn)dlsym(cuda, "cuMemcpyDtoH_v2");
  LaunchFn cuLaunchKernel = (LaunchFn)dlsym(cuda, "cuLaunchKernel");
  SyncFn cuCtxSynchronize = (SyncFn)dlsym(cuda, "cuCtxSynchronize");
  if (cuInit(0) != 0) {
    printf("no GPU here: compiled, not launched\n");
    return 0;
  }
  int device = 0;
  void* context = NULL;
  void* module = NULL;
  void* function = NULL;
  CHECK(cuDeviceGet(&device, 0));
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  CHECK(cuModuleLoadData(&module, cubin));
  CHECK(cuModuleGetFunction(&function, module, symbol));
  enum { kN = 1 << 20 };
  float* x = malloc(kN * sizeof(float));
  float* y = malloc(kN * sizeof(float));
  float* out = malloc(kN * sizeof(float));
  for (int i = 0; i < kN; ++i) {
    x[i] = (float)(rand() % 1000) / 7.0f;
    y[i] = (float)(rand() % 1000) / 3.0f;
    out[i] = NAN; /* poison */
  }
  unsigned long long dx, dy, dout;
  CHECK(cuMemAlloc(&dx, kN * sizeof(float)));
  CHECK(cuMemAlloc(&dy, kN * sizeof(float)));
  CHECK(cuMemAlloc(&dout, kN * sizeof(float)));
  CHECK(cuMemcpyHtoD(dx, x, kN * sizeof(float)));
  CHECK(cuMemcpyHtoD(dy, y, kN * sizeof(float)));
  CHECK(cuMemcpyHtoD(dout, out, kN * sizeof(float)));
  /* docs/ABI.md: a scalar by value; an array as data pointer, int64 shape
   * and int64 stride (in elements) per dimension. */
  float a = 2.5f;
  int64_t n = kN, stride = 1;
  void* args[] = {&a, &dx, &n, &stride, &dy, &n, &stride, &dout, &n, &stride};
  CHECK(cuLaunchKernel(function, kN / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(out, dout, kN * sizeof(float)));
  int bad = 0;
  for (int i = 0; i < kN; ++i) {
    float want = a * x[i] + y[i];
    if (!(fabsf(out[i] - want) <= 1e-5f * fabsf(want) + 1e-6f)) ++bad;
  }
  printf("launched %s on %d elements: %d wrong\n", symbol, kN, bad);
  return bad == 0 ? 0 : 1;
}

int main(void) {
  pykc_session* session = pykc_session_create(NULL);
  if (session == NULL) return 3;
  const char* sigs[] = {"saxpy(float32, float32[::1], float32[::1], float32[::1])"};
  const char* archs[] = {"sm_90"};
  pykc_compile_options options;
  pykc_compile_options_init(&options);
  options.path = "saxpy_from_a_string.py";
  options.source = kSource;
  options.source_size = strlen(kSource);
  options.sigs = sigs;
  options.num_sigs = 1;
  options.archs = archs;
  options.num_archs = 1;
  pykc_result* result = pykc_compile(session, &options);
  int status = pykc_result_exit_class(result);
  fputs(pykc_result_diagnostics(result), stderr);
  if (status != PYKC_OK) {
    pykc_result_free(result);
    pykc_session_free(session);
    return status;
  }
  size_t size = 0;
  const void* cubin = pykc_result_cubin(result, 0, &size);
  printf("pykc %s: %s for %s: %zu-byte cubin%s, kernel %s = %s\n", pykc_version(),
         pykc_result_kernel_name(result, 0), pykc_result_arch(result, 0), size,
         pykc_result_cache_hit(result, 0) ? " (cache hit)" : "",
         pykc_result_kernel_signature(result, 0), pykc_result_kernel_symbol(result, 0));
  status = launch(cubin, pykc_result_kernel_symbol(result, 0));
  pykc_result_free(result);
  pykc_session_free(session);
  return status;
}
