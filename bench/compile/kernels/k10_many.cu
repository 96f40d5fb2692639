// A larger kernel file: twin of k10_many.py (26 kernels, 3 device functions).
#define TPB 256
#define WIN 8
#define ALPHA 0.01f
typedef long long i64;
typedef unsigned int u32;

#define GID ((i64)blockIdx.x * blockDim.x + threadIdx.x)
#define GRID_STRIDE(i, n) for (i64 i = GID; i < (n); i += (i64)gridDim.x * blockDim.x)

template <typename T> __device__ T clamp(T v, T lo, T hi)
{
    if (v < lo) return lo;
    if (v > hi) return hi;
    return v;
}

__device__ float gelu(float v)
{
    return 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
}

__device__ float sigmoid(float v) { return 1.0f / (1.0f + expf(-v)); }

extern "C" __global__ void relu(const float* x, float* out, i64 n)
{
    GRID_STRIDE(i, n) { float v = x[i]; out[i] = v > 0.0f ? v : 0.0f; }
}

extern "C" __global__ void leaky_relu(const float* x, float* out, i64 n)
{
    GRID_STRIDE(i, n) { float v = x[i]; out[i] = v > 0.0f ? v : v * ALPHA; }
}

extern "C" __global__ void sigmoid_k(const float* x, float* out, i64 n)
{
    GRID_STRIDE(i, n) out[i] = sigmoid(x[i]);
}

extern "C" __global__ void gelu_k(const float* x, float* out, i64 n)
{
    GRID_STRIDE(i, n) out[i] = gelu(x[i]);
}

extern "C" __global__ void axpby(float a, const float* x, float b, const float* y, float* out, i64 n)
{
    GRID_STRIDE(i, n) out[i] = a * x[i] + b * y[i];
}

extern "C" __global__ void clamp_k(const float* x, float lo, float hi, float* out, i64 n)
{
    GRID_STRIDE(i, n) out[i] = clamp(x[i], lo, hi);
}

extern "C" __global__ void fma3(const float* a, const float* b, const float* c, float* out, i64 n)
{
    GRID_STRIDE(i, n) out[i] = a[i] * b[i] + c[i];
}

extern "C" __global__ void exp_scale(const double* x, double s, double* out, i64 n)
{
    GRID_STRIDE(i, n) out[i] = exp(x[i] * s) - 1.0;
}

extern "C" __global__ void sqrt_log(const double* x, double* out, i64 n)
{
    GRID_STRIDE(i, n) { double v = fabs(x[i]); out[i] = sqrt(v) + log1p(v); }
}

extern "C" __global__ void horner(const double* x, const double* coef, i64 ncoef, double* out, i64 n)
{
    GRID_STRIDE(i, n) {
        double v = x[i], acc = 0.0;
        for (i64 k = 0; k < ncoef; ++k)
            acc = acc * v + coef[k];
        out[i] = acc;
    }
}

extern "C" __global__ void add_2d(const float* a, const float* b, float* out, i64 rows, i64 cols)
{
    i64 j = GID, i = (i64)blockIdx.y * blockDim.y + threadIdx.y;
    if (i < rows && j < cols)
        out[i * cols + j] = a[i * cols + j] + b[i * cols + j];
}

extern "C" __global__ void scale_rows(const float* a, const float* s, float* out, i64 rows, i64 cols)
{
    i64 j = GID, i = (i64)blockIdx.y * blockDim.y + threadIdx.y;
    if (i < rows && j < cols)
        out[i * cols + j] = a[i * cols + j] * s[i];
}

extern "C" __global__ void col_sum(const float* a, float* out, i64 rows, i64 cols)
{
    i64 j = GID;
    if (j < cols) {
        float acc = 0.0f;
        for (i64 i = 0; i < rows; ++i)
            acc += a[i * cols + j];
        out[j] = acc;
    }
}

extern "C" __global__ void row_sum(const float* a, float* out, i64 rows, i64 cols)
{
    i64 i = GID;
    if (i < rows) {
        float acc = 0.0f;
        for (i64 j = 0; j < cols; ++j)
            acc += a[i * cols + j];
        out[i] = acc;
    }
}

extern "C" __global__ void mat_vec(const float* a, const float* x, float* out, i64 rows, i64 cols)
{
    i64 i = GID;
    if (i < rows) {
        float acc = 0.0f;
        for (i64 j = 0; j < cols; ++j)
            acc += a[i * cols + j] * x[j];
        out[i] = acc;
    }
}

extern "C" __global__ void add_3d(const double* a, const double* b, double* out, i64 n0, i64 n1, i64 n2)
{
    i64 k = GID;
    i64 j = (i64)blockIdx.y * blockDim.y + threadIdx.y;
    i64 i = (i64)blockIdx.z * blockDim.z + threadIdx.z;
    if (i < n0 && j < n1 && k < n2) {
        i64 p = (i * n1 + j) * n2 + k;
        out[p] = a[p] + 2.0 * b[p];
    }
}

extern "C" __global__ void window_mean(const float* x, float* out, i64 n)
{
    i64 i = GID;
    if (i + WIN <= n) {
        float w[WIN];
        for (int k = 0; k < WIN; ++k)
            w[k] = x[i + k];
        float s = 0.0f;
        for (int k = 0; k < WIN; ++k)
            s += w[k];
        out[i] = s / (float)WIN;
    }
}

extern "C" __global__ void hash_mix(const u32* x, u32* out, i64 n)
{
    GRID_STRIDE(i, n) {
        u32 h = x[i];
        h ^= h >> 16;
        h *= 0x85EBCA6Bu;
        h ^= h >> 13;
        h *= 0xC2B2AE35u;
        h ^= h >> 16;
        out[i] = h;
    }
}

extern "C" __global__ void block_scan(const float* x, float* out, i64 n)
{
    __shared__ float buf[TPB];
    int tid = threadIdx.x;
    i64 i = GID;
    buf[tid] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int offset = 1; offset < TPB; offset *= 2) {
        float v = tid >= offset ? buf[tid - offset] : 0.0f;
        __syncthreads();
        buf[tid] += v;
        __syncthreads();
    }
    if (i < n)
        out[i] = buf[tid];
}

extern "C" __global__ void where_select(const float* cond, const float* a, const float* b, float* out, i64 n)
{
    GRID_STRIDE(i, n) out[i] = cond[i] > 0.5f ? a[i] : b[i];
}

extern "C" __global__ void pairwise_dist(const float* p, const float* q, float* out, i64 np, i64 nq, i64 dim)
{
    i64 j = GID, i = (i64)blockIdx.y * blockDim.y + threadIdx.y;
    if (i < np && j < nq) {
        float acc = 0.0f;
        for (i64 k = 0; k < dim; ++k) {
            float d = p[i * dim + k] - q[j * dim + k];
            acc += d * d;
        }
        out[i * nq + j] = sqrtf(acc);
    }
}

extern "C" __global__ void collatz_steps(const i64* x, int* out, i64 n)
{
    GRID_STRIDE(i, n) {
        i64 v = x[i];
        int steps = 0;
        while (v > 1 && steps < 1000) {
            v = (v % 2 == 0) ? v / 2 : 3 * v + 1;
            steps += 1;
        }
        out[i] = steps;
    }
}

extern "C" __global__ void softplus(const float* x, float* out, i64 n)
{
    GRID_STRIDE(i, n) {
        float v = x[i];
        out[i] = v > 0.0f ? v + log1pf(expf(-v)) : log1pf(expf(v));
    }
}

extern "C" __global__ void rms_norm_rows(const float* x, const float* w, float* out, i64 n)
{
    __shared__ float buf[TPB];
    i64 row = blockIdx.x;
    int tid = threadIdx.x;
    float acc = 0.0f;
    for (i64 j = tid; j < n; j += TPB) {
        float v = x[row * n + j];
        acc += v * v;
    }
    buf[tid] = acc;
    __syncthreads();
    for (int s = TPB / 2; s > 0; s /= 2) {
        if (tid < s)
            buf[tid] += buf[tid + s];
        __syncthreads();
    }
    float scale = 1.0f / sqrtf(buf[0] / (float)n + 1e-6f);
    for (i64 j = tid; j < n; j += TPB)
        out[row * n + j] = x[row * n + j] * scale * w[j];
}

extern "C" __global__ void gather(const float* src, i64 nsrc, const i64* idx, float* out, i64 n)
{
    GRID_STRIDE(i, n) {
        i64 k = idx[i];
        out[i] = src[k < 0 ? k + nsrc : k];
    }
}

extern "C" __global__ void upsample2x(const float* a, float* out, i64 ar, i64 ac, i64 orows, i64 ocols)
{
    i64 j = GID, i = (i64)blockIdx.y * blockDim.y + threadIdx.y;
    if (i < orows && j < ocols) {
        double y = (i + 0.5) * 0.5 - 0.5;
        double x = (j + 0.5) * 0.5 - 0.5;
        i64 y0 = clamp((i64)floor(y), (i64)0, ar - 1);
        i64 x0 = clamp((i64)floor(x), (i64)0, ac - 1);
        i64 y1 = min(y0 + 1, ar - 1);
        i64 x1 = min(x0 + 1, ac - 1);
        float fy = (float)clamp(y - y0, 0.0, 1.0);
        float fx = (float)clamp(x - x0, 0.0, 1.0);
        float top = a[y0 * ac + x0] * (1.0f - fx) + a[y0 * ac + x1] * fx;
        float bot = a[y1 * ac + x0] * (1.0f - fx) + a[y1 * ac + x1] * fx;
        out[i * ocols + j] = top * (1.0f - fy) + bot * fy;
    }
}
