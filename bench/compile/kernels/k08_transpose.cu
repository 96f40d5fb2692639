// Transpose through shared memory: twin of k08_transpose.py (a is rows x cols, out cols x rows).
#define TD 32
#define BR 8
extern "C" __global__ void transpose(const float* a, float* out, long long rows, long long cols)
{
    __shared__ float tile[TD][TD + 1];
    long long bx = (long long)blockIdx.x * TD;
    long long by = (long long)blockIdx.y * TD;
    int tx = threadIdx.x, ty = threadIdx.y;
    long long x = bx + tx;
    for (int k = 0; k < TD; k += BR) {
        long long y = by + ty + k;
        if (y < rows && x < cols)
            tile[ty + k][tx] = a[y * cols + x];
    }
    __syncthreads();
    x = by + tx;
    for (int k = 0; k < TD; k += BR) {
        long long y = bx + ty + k;
        if (y < cols && x < rows)
            out[y * rows + x] = tile[tx][ty + k];
    }
}
