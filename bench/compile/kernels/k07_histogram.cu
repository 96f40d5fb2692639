// 256-bin histogram: twin of k07_histogram.py.
#define NBINS 256
extern "C" __global__ void histogram(const int* x, int* bins, long long n)
{
    __shared__ int sh[NBINS];
    int tid = threadIdx.x;
    for (int b = tid; b < NBINS; b += blockDim.x)
        sh[b] = 0;
    __syncthreads();
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&sh[x[i] & (NBINS - 1)], 1);
    __syncthreads();
    for (int b = tid; b < NBINS; b += blockDim.x)
        atomicAdd(&bins[b], sh[b]);
}
