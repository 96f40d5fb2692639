// 16x16 tiled matmul: twin of k03_matmul.py. A is M x K, B is K x N, C is M x N (row-major).
#define TILE 16
extern "C" __global__ void matmul_tiled(const float* a, const float* b, float* c,
                                        long long M, long long K, long long N)
{
    __shared__ float sa[TILE][TILE];
    __shared__ float sb[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    long long row = (long long)blockIdx.y * TILE + ty;
    long long col = (long long)blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (long long t = 0; t < (K + TILE - 1) / TILE; ++t) {
        long long k = t * TILE;
        sa[ty][tx] = (row < M && k + tx < K) ? a[row * K + k + tx] : 0.0f;
        sb[ty][tx] = (k + ty < K && col < N) ? b[(k + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int kk = 0; kk < TILE; ++kk)
            acc += sa[ty][kk] * sb[kk][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        c[row * N + col] = acc;
}
