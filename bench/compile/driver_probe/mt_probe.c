/* Concurrent nvJitLink links from several threads, with nvJitLink opened in
 * the base namespace (plain) or in a dlmopen namespace (ns STUB). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef void* H;
static char ptx[1 << 24]; static size_t n;
static int (*create)(H*, unsigned, const char**); static int (*add)(H, int, const void*, size_t, const char*);
static int (*complete)(H); static int (*destroy)(H*);
static void (*ctypeInit)(void);
static void* worker(void* arg) {
  if (ctypeInit) ctypeInit();
  for (int i = 0; i < 4; ++i) {
    H link; const char* opts[] = {"-arch=sm_90", "-O3"};
    int r = create(&link, 2, opts); r |= add(link, 2, ptx, n + 1, "k.ptx"); r |= complete(link);
    destroy(&link);
    if (r) printf("thread %ld: rc %d\n", (long)arg, r);
  }
  return 0;
}
int main(int argc, char** argv) {
  FILE* f = fopen(argv[2], "rb"); n = fread(ptx, 1, sizeof ptx - 1, f); fclose(f);
  void* h;
  if (!strcmp(argv[1], "ns")) {
    void* s = dlmopen(LM_ID_NEWLM, argv[3], RTLD_NOW | RTLD_LOCAL); Lmid_t id; dlinfo(s, RTLD_DI_LMID, &id);
    h = dlmopen(id, "libnvJitLink.so.13", RTLD_NOW | RTLD_LOCAL);
    void* libc = dlmopen(id, "libc.so.6", RTLD_NOW | RTLD_NOLOAD);
    ctypeInit = libc ? dlsym(libc, "__ctype_init") : 0;
    printf("ctype_init %p\n", (void*)ctypeInit);
  } else h = dlopen("libnvJitLink.so.13", RTLD_NOW | RTLD_LOCAL);
  create = dlsym(h, "nvJitLinkCreate"); add = dlsym(h, "nvJitLinkAddData"); complete = dlsym(h, "nvJitLinkComplete"); destroy = dlsym(h, "nvJitLinkDestroy");
  int threads = atoi(argv[4]);
  pthread_t t[16];
  for (long i = 0; i < threads; ++i) pthread_create(&t[i], 0, worker, (void*)i);
  for (int i = 0; i < threads; ++i) pthread_join(t[i], 0);
  printf("%s %d threads ok\n", argv[1], threads);
  return 0;
}
