// Grid-stride saxpy (1 kernel): twin of k01_saxpy.py.
extern "C" __global__ void saxpy(float a, const float* x, const float* y, float* out, long long n)
{
    long long start = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = start; i < n; i += stride)
        out[i] = a * x[i] + y[i];
}
