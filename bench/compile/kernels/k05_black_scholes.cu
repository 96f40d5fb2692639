// Black-Scholes (float64): twin of k05_black_scholes.py.
#define A1 0.31938153
#define A2 -0.356563782
#define A3 1.781477937
#define A4 -1.821255978
#define A5 1.330274429
#define RSQRT2PI 0.39894228040143267793994605993438

__device__ double cnd(double d)
{
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double ret = RSQRT2PI * exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    if (d > 0)
        ret = 1.0 - ret;
    return ret;
}

extern "C" __global__ void black_scholes(double* call, double* put, const double* s, const double* x,
                                         const double* t, double r, double v, long long n)
{
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        double sqrt_t = sqrt(t[i]);
        double d1 = (log(s[i] / x[i]) + (r + 0.5 * v * v) * t[i]) / (v * sqrt_t);
        double d2 = d1 - v * sqrt_t;
        double cnd1 = cnd(d1);
        double cnd2 = cnd(d2);
        double exp_rt = exp(-r * t[i]);
        call[i] = s[i] * cnd1 - x[i] * exp_rt * cnd2;
        put[i] = x[i] * exp_rt * (1.0 - cnd2) - s[i] * (1.0 - cnd1);
    }
}
