/* Runs the launch code of two generated headers (kernels.h, tile_kernels.h; see
 * header_test.py) against a fake CUDA driver defined here: which image each GPU
 * loads, and that every launch passes its argument struct's fields in docs/ABI.md's
 * order, with the grid, block, shared memory and stream given. Compiled as C and
 * as C++; FATBIN is defined when kernels.h holds a fatbin. */
#include "kernels.h"
#include "tile_kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int major_ = 9, minor_ = 0, failures_ = 0;
static const void* loaded_;
static char launched_[256];
/* The launch's kernelParams, copied while the launch function's array lives: `count_`
 * entries (set before each launch); NULL where the launch passed none. */
static void** params_;
static void* seen_[64];
static int count_;
static unsigned grid_[3], block_[3], shared_;
static CUstream stream_;
static int cooperative_, maxDynamicShared_;

#define CHECK(cond)                                                  \
  do {                                                               \
    if (!(cond)) {                                                   \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures_;                                                   \
    }                                                                \
  } while (0)

#ifdef __cplusplus
extern "C" {
#endif
CUresult CUDAAPI cuCtxGetDevice(CUdevice* device) {
  *device = 0;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice device) {
  (void)device;
  *value = attribute == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? major_ : minor_;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleLoadData(CUmodule* module, const void* image) {
  loaded_ = image;
  *module = (CUmodule)&loaded_;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleUnload(CUmodule module) {
  (void)module;
  return CUDA_SUCCESS;
}
/* A function handle is its symbol. */
CUresult CUDAAPI cuModuleGetFunction(CUfunction* function, CUmodule module, const char* name) {
  (void)module;
  *function = (CUfunction)(void*)name;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuFuncSetAttribute(CUfunction function, CUfunction_attribute attribute, int value) {
  (void)function;
  if (attribute == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) maxDynamicShared_ = value;
  return CUDA_SUCCESS;
}
static CUresult record(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                       unsigned bz, unsigned shared, CUstream stream, void** params) {
  snprintf(launched_, sizeof launched_, "%s", (const char*)(void*)f);
  grid_[0] = gx, grid_[1] = gy, grid_[2] = gz;
  block_[0] = bx, block_[1] = by, block_[2] = bz;
  shared_ = shared;
  stream_ = stream;
  params_ = NULL;
  if (params != NULL) {
    for (int i = 0; i < count_ && i < 64; ++i) seen_[i] = params[i];
    params_ = seen_;
  }
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                unsigned bz, unsigned shared, CUstream stream, void** params, void** extra) {
  (void)extra;
  cooperative_ = 0;
  return record(f, gx, gy, gz, bx, by, bz, shared, stream, params);
}
CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                           unsigned by, unsigned bz, unsigned shared, CUstream stream,
                                           void** params) {
  cooperative_ = 1;
  return record(f, gx, gy, gz, bx, by, bz, shared, stream, params);
}
#ifdef __cplusplus
}
#endif

/* Which image of kernels.h a GPU of major.minor loads (its arch, or "none"). */
static const char* loadOn(int major, int minor) {
  kernels_module m;
  CUresult r;
  major_ = major, minor_ = minor, loaded_ = NULL;
  r = kernels_load(&m);
  if (r == CUDA_ERROR_NO_BINARY_FOR_GPU) return "none";
  CHECK(r == CUDA_SUCCESS);
  {
    int i, found = 0;
    for (i = 0; i < (int)(sizeof(kernels_images) / sizeof(kernels_images[0])); ++i) {
      if (strcmp(kernels_images[i].arch, m.arch) == 0 && kernels_images[i].data == loaded_) found = 1;
    }
    CHECK(found);
  }
  kernels_unload(&m);
  return m.arch == NULL ? "unloaded" : "?";
}

static const char* archOn(int major, int minor) {
  kernels_module m;
  const char* arch;
  major_ = major, minor_ = minor;
  if (kernels_load(&m) != CUDA_SUCCESS) return "none";
  arch = m.arch;
  kernels_unload(&m);
  return arch;
}

static int expect(void** want, int count) {
  int i;
  for (i = 0; i < count; ++i) {
    if (params_[i] != want[i]) {
      fprintf(stderr, "parameter %d of %s: %p, want %p\n", i, launched_, params_[i], want[i]);
      return 0;
    }
  }
  return 1;
}

int main(void) {
  kernels_module m;
  tile_kernels_module tm;
  pykc_dim3 grid = {7, 2, 1}, block = {128, 1, 1};
  CUstream stream = (CUstream)&major_;

  CHECK(strcmp(loadOn(9, 0), "unloaded") == 0);
  CHECK(strcmp(archOn(9, 0), "sm_90") == 0);
  CHECK(strcmp(archOn(9, 5), "sm_90") == 0);
  CHECK(strcmp(archOn(8, 0), "sm_80") == 0);
  CHECK(strcmp(archOn(8, 6), "sm_80") == 0);
  /* Newer than every cubin: the compute_90 PTX. */
  CHECK(strcmp(archOn(10, 0), "compute_90") == 0);
  CHECK(strcmp(archOn(12, 0), "compute_90") == 0);
  CHECK(strcmp(archOn(7, 5), "none") == 0);

  major_ = 9, minor_ = 0;
  CHECK(kernels_load(&m) == CUDA_SUCCESS);
  {
    kernels_saxpy_args a = {2.0f, {0x1000, {10}, {1}}, {0x2000, {10}, {1}}, {0x3000, {10}, {1}}};
    void* want[] = {&a.a, &a.x.data, &a.x.shape[0], &a.x.strides[0], &a.y.data, &a.y.shape[0],
                    &a.y.strides[0], &a.out.data, &a.out.shape[0], &a.out.strides[0]};
    count_ = 10;
    CHECK(kernels_saxpy_launch(&m, grid, block, 64, stream, &a) == CUDA_SUCCESS);
    CHECK(strncmp(launched_, "saxpy__", 7) == 0);
    CHECK(expect(want, 10));
    CHECK(grid_[0] == 7 && grid_[1] == 2 && grid_[2] == 1 && block_[0] == 128 && block_[1] == 1);
    CHECK(shared_ == 64 && stream_ == stream && !cooperative_);
    CHECK(sizeof(a.x) == 24);
  }
  {
    kernels_mixed_args a;
    void* want[] = {&a.flag, &a.small, &a.mid, &a.half, &a.big, &a.c.re, &a.c.im, &a.z.re, &a.z.im,
                    &a.grid2.data, &a.grid2.shape[0], &a.grid2.shape[1], &a.grid2.strides[0],
                    &a.grid2.strides[1], &a.fort.data, &a.fort.shape[0], &a.fort.shape[1],
                    &a.fort.strides[0], &a.fort.strides[1], &a.any3.data, &a.any3.shape[0],
                    &a.any3.shape[1], &a.any3.shape[2], &a.any3.strides[0], &a.any3.strides[1],
                    &a.any3.strides[2], &a.t.e0, &a.t.e1, &a.t.e2.e0, &a.t.e2.e1, &a.double_.data,
                    &a.double_.shape[0], &a.double_.strides[0]};
    memset(&a, 0, sizeof a);
    CHECK(sizeof(a.flag) == 1 && sizeof(a.small) == 1 && sizeof(a.mid) == 2 && sizeof(a.half) == 2);
    CHECK(sizeof(a.big) == 8 && sizeof(a.c.re) == 4 && sizeof(a.z.im) == 8 && sizeof(a.t.e0) == 4);
    count_ = (int)(sizeof want / sizeof want[0]);
    CHECK(kernels_mixed_launch(&m, grid, block, 0, stream, &a) == CUDA_SUCCESS);
    CHECK(strncmp(launched_, "mixed__", 7) == 0);
    CHECK(expect(want, (int)(sizeof want / sizeof want[0])));
  }
  {
    kernels_twice__f32a1C_args a32 = {{0x10, {4}, {1}}};
    kernels_twice__f64a1C_args a64 = {{0x20, {4}, {1}}};
    count_ = 1;
    CHECK(kernels_twice__f32a1C_launch(&m, grid, block, 0, stream, &a32) == CUDA_SUCCESS);
    CHECK(strcmp(launched_, "twice__f32a1C") == 0 && params_[0] == &a32.x.data);
    CHECK(kernels_twice__f64a1C_launch(&m, grid, block, 0, stream, &a64) == CUDA_SUCCESS);
    CHECK(strcmp(launched_, "twice__f64a1C") == 0 && params_[0] == &a64.x.data);
  }
  {
    kernels_dynamic_args d = {{0x30, {128}, {1}}};
    kernels_cooperative_args c = {{0x40, {128}, {1}}};
    CHECK(kernels_dynamic_launch(&m, grid, block, 1024, stream, &d) == CUDA_SUCCESS);
    CHECK(shared_ == 1024 && !cooperative_);
    CHECK(kernels_cooperative_launch(&m, grid, block, 0, stream, &c) == CUDA_SUCCESS);
    CHECK(cooperative_ && strncmp(launched_, "cooperative__", 13) == 0);
    CHECK(kernels_nothing_launch(&m, grid, block, 0, stream) == CUDA_SUCCESS);
    CHECK(params_ == NULL && strcmp(launched_, "nothing__v") == 0);
  }
  CHECK(kernels_unload(&m) == CUDA_SUCCESS && m.module == NULL);

  /* The tile kernel: its block is pykc's (TILE_BLOCK, from the manifest). */
  CHECK(tile_kernels_load(&tm) == CUDA_SUCCESS);
  {
    tile_kernels_vector_add_args v = {{0x1, {4096}, {1}}, {0x2, {4096}, {1}}, {0x3, {4096}, {1}}};
    pykc_dim3 tiles = {4, 1, 1};
    count_ = 9;
    CHECK(tile_kernels_vector_add_launch(&tm, tiles, stream, &v) == CUDA_SUCCESS);
    CHECK(block_[0] == TILE_BLOCK && block_[1] == 1 && grid_[0] == 4 && shared_ == 0);
    CHECK(params_[0] == &v.a.data && params_[8] == &v.c.strides[0]);
    CHECK(strstr(launched_, "__Ktile_size_1024") != NULL);
  }
  tile_kernels_unload(&tm);
#ifdef FATBIN
  /* One fatbin, listed once per arch it holds. */
  CHECK(kernels_images[0].data == kernels_images[1].data);
#else
  CHECK(kernels_images[0].data != kernels_images[1].data);
#endif
  if (failures_ == 0) printf("fake driver: all checks passed\n");
  return failures_ == 0 ? 0 : 1;
}
