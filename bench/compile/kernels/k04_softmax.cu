// Row softmax: twin of k04_softmax.py (x and out are rows x n, row-major).
#define TPB 256
extern "C" __global__ void softmax_rows(const float* x, float* out, long long n)
{
    long long row = blockIdx.x;
    int tid = threadIdx.x;
    __shared__ float buf[TPB];
    const float* xr = x + row * n;
    float m = -__int_as_float(0x7f800000);  // -inf (NVRTC has no INFINITY macro)
    for (long long j = tid; j < n; j += blockDim.x)
        m = fmaxf(m, xr[j]);
    buf[tid] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (tid < s)
            buf[tid] = fmaxf(buf[tid], buf[tid + s]);
        __syncthreads();
    }
    float rmax = buf[0];
    __syncthreads();
    float acc = 0.0f;
    for (long long j = tid; j < n; j += blockDim.x)
        acc += expf(xr[j] - rmax);
    buf[tid] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (tid < s)
            buf[tid] += buf[tid + s];
        __syncthreads();
    }
    float total = buf[0];
    for (long long j = tid; j < n; j += blockDim.x)
        out[row * n + j] = expf(xr[j] - rmax) / total;
}
