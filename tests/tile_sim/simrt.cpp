// A CPU stand-in for the few NVPTX operations pykc's tile lowering emits, so that
// tile kernels' LLVM IR, retargeted to the host, runs with one host thread per GPU
// thread (tests/tile_sim/tile_sim.py): thread and block ids, bar.sync as a pthread
// barrier, shfl.sync.bfly through a shared array between two barriers, and the
// libdevice functions as libm. Blocks run one after another (shared memory is the
// module's global).
#include <pthread.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>
static thread_local int g_tid, g_ctaid, g_nctaid, g_ctaid_y, g_nctaid_y;
static pthread_barrier_t g_bar;
static uint32_t g_vals[1024];
extern "C" {
int sim_tid_x() { return g_tid; }
int sim_ctaid_x() { return g_ctaid; }
int sim_nctaid_x() { return g_nctaid; }
int sim_ctaid_y() { return g_ctaid_y; }
int sim_nctaid_y() { return g_nctaid_y; }
// ex2.approx(.ftz).f32, div.approx(.ftz).f32: exactly rounded stand-ins.
float sim_ex2(float x) { return exp2f(x); }
float sim_div(float x, float y) { return x / y; }
void sim_barrier() { pthread_barrier_wait(&g_bar); }
int sim_shfl_bfly(int mask, int v, int lane, int clamp) {
  g_vals[g_tid] = (uint32_t)v;
  pthread_barrier_wait(&g_bar);
  int r = (int)g_vals[g_tid ^ lane];
  pthread_barrier_wait(&g_bar);
  return r;
}
// cvt.rna.tf32.f32: round to 10 mantissa bits, ties away from zero (inf kept, NaN canonical).
int sim_f2tf32(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  if ((b & 0x7f800000u) != 0x7f800000u) b += 0x1000u;
  if (x != x) b = 0x7fffffffu;
  return (int)b;
}
float __nv_expf(float x) { return expf(x); }
float __nv_sqrtf(float x) { return sqrtf(x); }
float __nv_powf(float x, float y) { return powf(x, y); }
float __nv_rsqrtf(float x) { return 1.0f / sqrtf(x); }
double __nv_exp(double x) { return exp(x); }
typedef void (*Wrap)(const int64_t*);
// A grid of grid x grid_y blocks, x fastest.
void sim_run(Wrap w, const int64_t* args, int grid, int grid_y, int threads) {
  for (int by = 0; by < grid_y; ++by) {
    for (int b = 0; b < grid; ++b) {
      pthread_barrier_init(&g_bar, nullptr, threads);
      std::vector<std::thread> ts;
      for (int t = 0; t < threads; ++t) {
        ts.emplace_back([=] {
          g_tid = t;
          g_ctaid = b;
          g_nctaid = grid;
          g_ctaid_y = by;
          g_nctaid_y = grid_y;
          w(args);
        });
      }
      for (auto& t : ts) t.join();
      pthread_barrier_destroy(&g_bar);
    }
  }
}
}
