// 2-D 5-point stencil: twin of k06_stencil.py (u and out are n x m, row-major).
extern "C" __global__ void stencil5(const float* u, float* out, float c, long long n, long long m)
{
    long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long i = (long long)blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= 1 && i < n - 1 && j >= 1 && j < m - 1) {
        long long p = i * m + j;
        out[p] = u[p] + c * (u[p - m] + u[p + m] + u[p - 1] + u[p + 1] - 4.0f * u[p]);
    } else if (i < n && j < m) {
        out[i * m + j] = u[i * m + j];
    }
}
