// Warp-shuffle reductions (5 kernels): twin of k09_warp_reduce.py.
#define FULL 0xFFFFFFFFu

__device__ float warp_sum_f32(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(FULL, v, offset);
    return v;
}

#define GRID_STRIDE(i, n) \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (long long)gridDim.x * blockDim.x)

extern "C" __global__ void reduce_sum(const float* x, float* total, long long n)
{
    float acc = 0.0f;
    GRID_STRIDE(i, n) acc += x[i];
    acc = warp_sum_f32(acc);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(total, acc);
}

extern "C" __global__ void dot(const float* x, const float* y, float* total, long long n)
{
    float acc = 0.0f;
    GRID_STRIDE(i, n) acc += x[i] * y[i];
    acc = warp_sum_f32(acc);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(total, acc);
}

extern "C" __global__ void norm2_sq(const double* x, double* total, long long n)
{
    double acc = 0.0;
    GRID_STRIDE(i, n) acc += x[i] * x[i];
    for (int offset = 16; offset > 0; offset /= 2)
        acc += __shfl_xor_sync(FULL, acc, offset);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(total, acc);
}

extern "C" __global__ void max_int(const int* x, int* result, long long n)
{
    int m = -2147483647;
    GRID_STRIDE(i, n) m = max(m, x[i]);
    for (int offset = 16; offset > 0; offset /= 2)
        m = max(m, __shfl_down_sync(FULL, m, offset));
    if ((threadIdx.x & 31) == 0)
        atomicMax(result, m);
}

extern "C" __global__ void count_positive(const float* x, int* count, long long n)
{
    int c = 0;
    GRID_STRIDE(i, n) c += __popc(__ballot_sync(FULL, x[i] > 0));
    if ((threadIdx.x & 31) == 0)
        atomicAdd(count, c);
}
