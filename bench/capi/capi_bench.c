/* libpykc in one process against `pykc compile` processes (issue 17):
 *   capi_bench cold N FILE   N compiles of FILE with no cache, one session
 *   capi_bench hit N FILE    one compile into a fresh cache, then N hits
 * Prints one line: mode, N, total ms, median ms per compile. Every compile's
 * exit class is checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pykc/pykc.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: capi_bench cold|hit N FILE [ARCH]\n");
    return 2;
  }
  int hit = strcmp(argv[1], "hit") == 0;
  int n = atoi(argv[2]);
  const char* arch = argc > 4 ? argv[4] : "sm_90";
  char cache[] = "/tmp/pykc-capi-bench-XXXXXX";
  if (hit && mkdtemp(cache) == NULL) return 3;
  pykc_session_options so;
  pykc_session_options_init(&so);
  so.no_cache = !hit;
  so.cache_dir = hit ? cache : NULL;
  pykc_session* session = pykc_session_create(&so);
  pykc_compile_options co;
  pykc_compile_options_init(&co);
  co.path = argv[3];
  co.archs = &arch;
  co.num_archs = 1;
  double* times = malloc(sizeof(double) * (n > 0 ? n : 1));
  if (hit) {
    pykc_result* r = pykc_compile(session, &co);
    if (pykc_result_exit_class(r) != PYKC_OK) {
      fputs(pykc_result_diagnostics(r), stderr);
      return 1;
    }
    pykc_result_free(r);
  }
  double start = now_ms();
  for (int i = 0; i < n; ++i) {
    double t = now_ms();
    pykc_result* r = pykc_compile(session, &co);
    times[i] = now_ms() - t;
    if (pykc_result_exit_class(r) != PYKC_OK || (hit && !pykc_result_cache_hit(r, 0))) {
      fprintf(stderr, "compile %d: exit %d, hit %d\n%s", i, pykc_result_exit_class(r),
              pykc_result_cache_hit(r, 0), pykc_result_diagnostics(r));
      return 1;
    }
    pykc_result_free(r);
  }
  double total = now_ms() - start;
  qsort(times, n, sizeof(double), cmp);
  printf("%s %d %.1f %.4f\n", hit ? "hit" : "cold", n, total, times[n / 2]);
  pykc_session_free(session);
  if (hit) {
    char command[256];
    snprintf(command, sizeof command, "rm -rf %s", cache);
    if (system(command) != 0) return 3;
  }
  return 0;
}
