"""A program written for numba-cuda, unchanged but for this docstring: run_jit_tests.py
runs it under `python -m pykc run`, where `numba` is pykc."""
import math

import numpy as np
from numba import cuda, float32, void


@cuda.jit(device=True)
def sigmoid(v):
    return 1.0 / (1.0 + math.exp(-v))


@cuda.jit
def activate(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = sigmoid(x[i])


@cuda.jit(void(float32[:, :], float32[:, :], float32[:, :]))
def matmul(A, B, C):
    i, j = cuda.grid(2)
    if i < C.shape[0] and j < C.shape[1]:
        tmp = 0.
        for k in range(A.shape[1]):
            tmp += A[i, k] * B[k, j]
        C[i, j] = tmp


def main():
    x = np.linspace(-4, 4, 1000)
    d_x = cuda.to_device(x)
    d_out = cuda.device_array_like(d_x)
    threads = 128
    blocks = (x.size + threads - 1) // threads
    activate[blocks, threads](d_x, d_out)
    np.testing.assert_allclose(d_out.copy_to_host(), 1 / (1 + np.exp(-x)), rtol=1e-12)

    A = np.random.random((64, 48)).astype(np.float32)
    B = np.random.random((48, 32)).astype(np.float32)
    C = np.zeros((64, 32), dtype=np.float32)
    tpb = (16, 16)
    bpg = (math.ceil(C.shape[0] / tpb[0]), math.ceil(C.shape[1] / tpb[1]))
    matmul[bpg, tpb](A, B, C)
    np.testing.assert_allclose(C, A @ B, rtol=1e-4)
    print("numba_program: OK")


if __name__ == "__main__":
    main()
