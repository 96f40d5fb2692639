// Block sum: twin of k02_block_sum.py.
#define TPB 256
extern "C" __global__ void block_sum(const float* x, float* partial, long long n)
{
    __shared__ float buf[TPB];
    int tid = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    buf[tid] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int step = TPB / 2; step > 0; step /= 2) {
        if (tid < step)
            buf[tid] += buf[tid + step];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = buf[0];
}
