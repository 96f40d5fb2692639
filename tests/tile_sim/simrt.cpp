// A CPU stand-in for the few NVPTX operations pykc's tile lowering emits, so that
// tile kernels' LLVM IR, retargeted to the host, runs with one host thread per GPU
// thread (tests/tile_sim/tile_sim.py): thread and block ids, bar.sync as a pthread
// barrier, shfl.sync.bfly through a shared array between two barriers, and the
// libdevice functions as libm. Blocks run one after another (shared memory is the
// module's global).
#include <pthread.h>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <string>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>
static thread_local int g_tid, g_ctaid, g_nctaid, g_ctaid_y, g_nctaid_y;
static pthread_barrier_t g_bar;
static uint32_t g_vals[1024];
static int g_and;
static std::string g_out;
static pthread_mutex_t g_out_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_traps;
// Rounded add/mul (NVVM's add/mul.rn/rz/rm/rp[.ftz].f32/.f64): the host's FPU in that
// rounding mode; .ftz flushes subnormal inputs and results to zero (sign kept).
template <class T>
static T sim_flush(T v, bool ftz) {
  return ftz && std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(T(0), v) : v;
}
template <class T>
static T sim_rounded(int mode, T a, T b, bool mul, bool ftz) {
  volatile T x = sim_flush(a, ftz), y = sim_flush(b, ftz);
  int old = fegetround();
  fesetround(mode);
  volatile T r = mul ? x * y : x + y;
  fesetround(old);
  return sim_flush(T(r), ftz);
}
// max/min.ftz[.NaN].f32: maxnum/minnum, or NaN winning, on flushed operands.
static float sim_extreme(float a, float b, bool max, bool nan) {
  a = sim_flush(a, true);
  b = sim_flush(b, true);
  if (nan && (std::isnan(a) || std::isnan(b))) return NAN;
  return sim_flush(max ? std::fmax(a, b) : std::fmin(a, b), true);
}
extern "C" {
int sim_tid_x() { return g_tid; }
int sim_ctaid_x() { return g_ctaid; }
int sim_nctaid_x() { return g_nctaid; }
int sim_ctaid_y() { return g_ctaid_y; }
int sim_nctaid_y() { return g_nctaid_y; }
int sim_ctaid_z() { return 0; }
// ex2.approx(.ftz).f32, div.approx(.ftz).f32: exactly rounded stand-ins.
float sim_ex2(float x) { return exp2f(x); }
float sim_div(float x, float y) { return x / y; }
float sim_add_rn_f(float a, float b) { return sim_rounded(FE_TONEAREST, a, b, false, false); }
float sim_add_rn_ftz_f(float a, float b) { return sim_rounded(FE_TONEAREST, a, b, false, true); }
double sim_add_rn_d(double a, double b) { return sim_rounded(FE_TONEAREST, a, b, false, false); }
float sim_add_rz_f(float a, float b) { return sim_rounded(FE_TOWARDZERO, a, b, false, false); }
float sim_add_rz_ftz_f(float a, float b) { return sim_rounded(FE_TOWARDZERO, a, b, false, true); }
double sim_add_rz_d(double a, double b) { return sim_rounded(FE_TOWARDZERO, a, b, false, false); }
float sim_add_rm_f(float a, float b) { return sim_rounded(FE_DOWNWARD, a, b, false, false); }
float sim_add_rm_ftz_f(float a, float b) { return sim_rounded(FE_DOWNWARD, a, b, false, true); }
double sim_add_rm_d(double a, double b) { return sim_rounded(FE_DOWNWARD, a, b, false, false); }
float sim_add_rp_f(float a, float b) { return sim_rounded(FE_UPWARD, a, b, false, false); }
float sim_add_rp_ftz_f(float a, float b) { return sim_rounded(FE_UPWARD, a, b, false, true); }
double sim_add_rp_d(double a, double b) { return sim_rounded(FE_UPWARD, a, b, false, false); }
float sim_mul_rn_f(float a, float b) { return sim_rounded(FE_TONEAREST, a, b, true, false); }
float sim_mul_rn_ftz_f(float a, float b) { return sim_rounded(FE_TONEAREST, a, b, true, true); }
double sim_mul_rn_d(double a, double b) { return sim_rounded(FE_TONEAREST, a, b, true, false); }
float sim_mul_rz_f(float a, float b) { return sim_rounded(FE_TOWARDZERO, a, b, true, false); }
float sim_mul_rz_ftz_f(float a, float b) { return sim_rounded(FE_TOWARDZERO, a, b, true, true); }
double sim_mul_rz_d(double a, double b) { return sim_rounded(FE_TOWARDZERO, a, b, true, false); }
float sim_mul_rm_f(float a, float b) { return sim_rounded(FE_DOWNWARD, a, b, true, false); }
float sim_mul_rm_ftz_f(float a, float b) { return sim_rounded(FE_DOWNWARD, a, b, true, true); }
double sim_mul_rm_d(double a, double b) { return sim_rounded(FE_DOWNWARD, a, b, true, false); }
float sim_mul_rp_f(float a, float b) { return sim_rounded(FE_UPWARD, a, b, true, false); }
float sim_mul_rp_ftz_f(float a, float b) { return sim_rounded(FE_UPWARD, a, b, true, true); }
double sim_mul_rp_d(double a, double b) { return sim_rounded(FE_UPWARD, a, b, true, false); }
float sim_fmax_ftz_f(float a, float b) { return sim_extreme(a, b, true, false); }
float sim_fmax_ftz_nan_f(float a, float b) { return sim_extreme(a, b, true, true); }
float sim_fmin_ftz_f(float a, float b) { return sim_extreme(a, b, false, false); }
float sim_fmin_ftz_nan_f(float a, float b) { return sim_extreme(a, b, false, true); }
void sim_barrier() { pthread_barrier_wait(&g_bar); }
// bar.red.and: 1 when every thread's predicate is non-zero.
int sim_barrier_and(int p) {
  pthread_barrier_wait(&g_bar);
  if (g_tid == 0) g_and = 1;
  pthread_barrier_wait(&g_bar);
  if (!p) __atomic_store_n(&g_and, 0, __ATOMIC_SEQ_CST);
  pthread_barrier_wait(&g_bar);
  int r = __atomic_load_n(&g_and, __ATOMIC_SEQ_CST);
  pthread_barrier_wait(&g_bar);
  return r;
}
// vprintf(format, args): the CUDA form, its arguments packed in a struct as C varargs
// promote them (ints and pointers of their size, floats as double); the text is kept for
// sim_output().
int sim_vprintf(const char* format, const char* args) {
  std::string out;
  size_t offset = 0;
  auto take = [&](size_t size) {
    offset = (offset + size - 1) / size * size;
    const char* p = args + offset;
    offset += size;
    return p;
  };
  for (const char* f = format; *f; ++f) {
    if (*f != '%') { out += *f; continue; }
    std::string spec = "%";
    while (*++f && !strchr("diuxXfeEgGsc%", *f)) spec += *f;
    if (!*f) break;
    spec += *f;
    char buf[512];
    bool wide = spec.find("ll") != std::string::npos;
    switch (*f) {
      case '%': out += '%'; continue;
      case 's': { const char* s; memcpy(&s, take(8), 8); snprintf(buf, sizeof buf, spec.c_str(), s); break; }
      case 'f': case 'e': case 'E': case 'g': case 'G': {
        double d; memcpy(&d, take(8), 8); snprintf(buf, sizeof buf, spec.c_str(), d); break;
      }
      default:
        if (wide) { long long v; memcpy(&v, take(8), 8); snprintf(buf, sizeof buf, spec.c_str(), v); }
        else { int v; memcpy(&v, take(4), 4); snprintf(buf, sizeof buf, spec.c_str(), v); }
    }
    out += buf;
  }
  pthread_mutex_lock(&g_out_lock);
  g_out += out;
  pthread_mutex_unlock(&g_out_lock);
  return (int)out.size();
}
// trap: this thread stops (every thread of a failing ct.assert_ traps); counted.
void sim_trap() {
  __atomic_add_fetch(&g_traps, 1, __ATOMIC_SEQ_CST);
  pthread_exit(nullptr);
}
// What the kernels printed since the last call, and how many threads trapped.
const char* sim_output() {
  static std::string last;
  last = g_out;
  g_out.clear();
  return last.c_str();
}
int sim_traps() { int n = g_traps; g_traps = 0; return n; }
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
// rcp.approx.ftz.f32 (PTX: at most 1 ulp off): the correctly rounded reciprocal moved
// one ulp up or down for two thirds of the inputs (chosen by their bits), up to 1.5 ulps
// off, worse than the GPU may be, so that code relying on it is tested beyond what the
// GPU can return.
float sim_rcp_approx_ftz(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  if ((b & 0x7f800000u) == 0) x = copysignf(0.0f, x);
  float r = 1.0f / x;
  unsigned mode = ((b * 2654435761u) >> 28) % 3;
  if (std::isfinite(r) && r != 0.0f && mode != 0) r = nextafterf(r, mode == 1 ? INFINITY : -INFINITY);
  uint32_t rb;
  memcpy(&rb, &r, 4);
  if ((rb & 0x7f800000u) == 0) r = copysignf(0.0f, r);
  return r;
}
float __nv_expf(float x) { return expf(x); }
float __nv_sqrtf(float x) { return sqrtf(x); }
float __nv_powf(float x, float y) { return powf(x, y); }
float __nv_rsqrtf(float x) { return 1.0f / sqrtf(x); }
double __nv_exp(double x) { return exp(x); }
float __nv_tanf(float x) { return tanf(x); }
float sim_sqrt_approx(float x) { return sqrtf(x); }
float sim_tanh_approx(float x) { return tanhf(x); }
float __nv_sinhf(float x) { return sinhf(x); }
float __nv_coshf(float x) { return coshf(x); }
float __nv_atan2f(float y, float x) { return atan2f(y, x); }
float __nv_logf(float x) { return logf(x); }
float __nv_log2f(float x) { return log2f(x); }
float __nv_log1pf(float x) { return log1pf(x); }
float __nv_exp2f(float x) { return exp2f(x); }
float __nv_tanhf(float x) { return tanhf(x); }
double __nv_log(double x) { return log(x); }
// Warp-collective tensor-core operations (ldmatrix.x4[.trans], mma.m16n8k16.row.col with
// f32 accumulation), as the PTX ISA defines the fragments: every thread publishes its
// operands, a barrier, each computes its own results from its warp's, a barrier. All
// threads of the block call them together (pykc's tile code is uniform).
static const void* g_ptr[1024];
static uint32_t g_frag[1024][6];
static float half_to_float(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 0x400), e - 25);
  return (h & 0x8000) ? -v : v;
}
static float bf16_to_float(uint16_t h) {
  uint32_t b = (uint32_t)h << 16;
  float f;
  memcpy(&f, &b, 4);
  return f;
}
void sim_ldmatrix(const void* p, uint32_t* out, int trans) {
  g_ptr[g_tid] = p;
  pthread_barrier_wait(&g_bar);
  int lane = g_tid & 31, warp0 = g_tid & ~31, g = lane >> 2, q = lane & 3;
  for (int i = 0; i < 4; ++i) {
    if (!trans) {
      // Row g of matrix i (its address from lane 8i + g), columns 2q, 2q + 1.
      const uint16_t* r = (const uint16_t*)g_ptr[warp0 + 8 * i + g];
      out[i] = r[2 * q] | ((uint32_t)r[2 * q + 1] << 16);
    } else {
      // Transposed: rows 2q and 2q + 1 of matrix i, column g.
      const uint16_t* r0 = (const uint16_t*)g_ptr[warp0 + 8 * i + 2 * q];
      const uint16_t* r1 = (const uint16_t*)g_ptr[warp0 + 8 * i + 2 * q + 1];
      out[i] = r0[g] | ((uint32_t)r1[g] << 16);
    }
  }
  pthread_barrier_wait(&g_bar);
}
void sim_mma(uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1, float c0,
             float c1, float c2, float c3, float* out, int bf16) {
  uint32_t* f = g_frag[g_tid];
  f[0] = a0; f[1] = a1; f[2] = a2; f[3] = a3; f[4] = b0; f[5] = b1;
  pthread_barrier_wait(&g_bar);
  int lane = g_tid & 31, warp0 = g_tid & ~31, g = lane >> 2, q = lane & 3;
  auto elem = [&](int l, int reg, int k) {
    uint16_t h = (uint16_t)(g_frag[warp0 + l][reg] >> (16 * (k & 1)));
    return bf16 ? bf16_to_float(h) : half_to_float(h);
  };
  float c[4] = {c0, c1, c2, c3};
  for (int j = 0; j < 4; ++j) {
    int r = g + 8 * (j >> 1), n = 2 * q + (j & 1);
    float acc = c[j];
    for (int k = 0; k < 16; ++k) {
      // A (16x16, row): a0 (g, 2q..), a1 (g + 8, 2q..), a2 (g, 2q + 8..), a3 (g + 8, 2q + 8..);
      // B (16x8, col): b0 (k = 2q.., n = g), b1 (k = 2q + 8.., n = g).
      float x = elem((r % 8) * 4 + (k % 8) / 2, (r >= 8) + 2 * (k >= 8), k);
      float y = elem(n * 4 + (k % 8) / 2, 4 + (k >= 8), k);
      acc += x * y;
    }
    out[j] = acc;
  }
  pthread_barrier_wait(&g_bar);
}
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
