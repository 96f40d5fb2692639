/* Where nvJitLink spends a link on a host with a visible GPU.
 * usage: probe MODE PTXFILE [OUT.cubin]
 *   plain   dlopen nvJitLink in the base namespace
 *   env     setenv CUDA_VISIBLE_DEVICES= first
 *   ns      dlmopen a stub libcuda.so.1 into a new namespace, then nvJitLink there
 *   hostns  the host initialises the real driver first, then as ns, then loads the cubin
 *   hostplain the host initialises the real driver first, then as plain, then loads the cubin */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void* H;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
static int mapped(const char* name) {
  FILE* f = fopen("/proc/self/maps", "r"); char line[4096]; int n = 0;
  while (fgets(line, sizeof line, f)) if (strstr(line, name)) { n = 1; break; }
  fclose(f); return n;
}
static void* sym(void* h, const char* n) { void* p = dlsym(h, n); if (!p) { fprintf(stderr, "dlsym %s: %s\n", n, dlerror()); exit(3); } return p; }

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const char* mode = argv[1];
  FILE* f = fopen(argv[2], "rb"); if (!f) return 2;
  static char ptx[1 << 24]; size_t n = fread(ptx, 1, sizeof ptx - 1, f); ptx[n] = 0; fclose(f);
  const char* lib = getenv("NVJITLINK") ? getenv("NVJITLINK") : "libnvJitLink.so.13";
  const char* stub = getenv("STUB") ? getenv("STUB") : "./libcuda.so.1";
  double t0 = now();
  void* cuda = 0;
  int (*cuInitReal)(unsigned) = 0;
  if (!strncmp(mode, "host", 4)) {
    cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!cuda) { fprintf(stderr, "no libcuda: %s\n", dlerror()); return 3; }
    cuInitReal = (int (*)(unsigned))sym(cuda, "cuInit");
    int r = cuInitReal(0);
    printf("host cuInit=%d %.1f ms\n", r, now() - t0);
  }
  if (!strcmp(mode, "env")) setenv("CUDA_VISIBLE_DEVICES", "", 1);
  double t1 = now();
  void* h;
  if (!strcmp(mode, "ns") || !strcmp(mode, "hostns")) {
    void* s = dlmopen(LM_ID_NEWLM, stub, RTLD_NOW | RTLD_LOCAL);
    if (!s) { fprintf(stderr, "stub: %s\n", dlerror()); return 3; }
    Lmid_t id; dlinfo(s, RTLD_DI_LMID, &id);
    h = dlmopen(id, lib, RTLD_NOW | RTLD_LOCAL);
  } else {
    h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  }
  if (!h) { fprintf(stderr, "nvJitLink: %s\n", dlerror()); return 3; }
  double t2 = now();
  printf("%s: load %.1f ms, libcuda mapped=%d\n", mode, t2 - t1, mapped("libcuda"));
  int (*create)(H*, unsigned, const char**) = sym(h, "nvJitLinkCreate");
  int (*add)(H, int, const void*, size_t, const char*) = sym(h, "nvJitLinkAddData");
  int (*complete)(H) = sym(h, "nvJitLinkComplete");
  int (*size)(H, size_t*) = sym(h, "nvJitLinkGetLinkedCubinSize");
  int (*get)(H, void*) = sym(h, "nvJitLinkGetLinkedCubin");
  int (*destroy)(H*) = sym(h, "nvJitLinkDestroy");
  for (int round = 0; round < 3; ++round) {
    double a = now();
    H link; const char* opts[] = {"-arch=sm_90", "-O3"};
    int r = create(&link, 2, opts);
    double b = now();
    r |= add(link, 2 /* NVJITLINK_INPUT_PTX */, ptx, n + 1, "k.ptx");
    double c = now();
    r |= complete(link);
    double d = now();
    size_t sz = 0; size(link, &sz); char* cubin = malloc(sz); get(link, cubin);
    printf("  round %d: rc=%d create %.1f add %.1f complete %.1f ms, cubin %zu bytes, libcuda mapped=%d\n",
           round, r, b - a, c - b, d - c, sz, mapped("libcuda"));
    if (round == 0 && argc > 3) { FILE* o = fopen(argv[3], "wb"); fwrite(cubin, 1, sz, o); fclose(o); }
    if (round == 0 && cuda) {
      int (*devGet)(int*, int) = sym(cuda, "cuDeviceGet");
      int (*ctxRetain)(void**, int) = sym(cuda, "cuDevicePrimaryCtxRetain");
      int (*ctxSet)(void*) = sym(cuda, "cuCtxSetCurrent");
      int (*modLoad)(void**, const void*) = sym(cuda, "cuModuleLoadData");
      int (*count)(int*) = sym(cuda, "cuDeviceGetCount");
      int dev = 0, cnt = -1; void* ctx = 0; void* mod = 0;
      int e1 = count(&cnt), e2 = devGet(&dev, 0), e3 = ctxRetain(&ctx, dev), e4 = ctxSet(ctx), e5 = modLoad(&mod, cubin);
      printf("  host driver after link: count=%d (rc %d), ctx rc %d/%d, cuModuleLoadData rc %d\n", cnt, e1, e2 + e3, e4, e5);
    }
    free(cubin); destroy(&link);
  }
  printf("total %.1f ms\n", now() - t0);
  return 0;
}
