"""A program that uses numba's CPU compiler (njit, prange) beside numba.cuda kernels:
run_jit_tests.py runs it under `python -m pykc run` on a host with numba installed, where
numba.njit is numba's own and numba.cuda is pykc's."""
import numpy as np
import numba
from numba import cuda, float32, int64, void


@numba.njit(parallel=True)
def host_scale(x, a):
    out = np.empty_like(x)
    for i in numba.prange(x.shape[0]):
        out[i] = a * x[i]
    return out


@cuda.jit(void(float32[::1], float32, int64))
def device_scale(x, a, n):
    i = cuda.grid(1)
    if i < n:
        x[i] = a * x[i]


@cuda.jit
def typed_at_launch(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = x[i] + numba.float32(1)


def main():
    x = np.arange(4096, dtype=np.float32)
    expected = host_scale(x, np.float32(3))
    d = cuda.to_device(x)
    device_scale[(x.size + 127) // 128, 128](d, np.float32(3), x.size)
    np.testing.assert_array_equal(d.copy_to_host(), expected)
    out = cuda.device_array_like(d)
    typed_at_launch[(x.size + 127) // 128, 128](d, out)
    np.testing.assert_array_equal(out.copy_to_host(), expected + 1)
    assert cuda.__name__.startswith("pykc"), cuda.__name__
    assert type(numba.njit).__module__ != "pykc._hook", numba.njit
    print("numba_mixed_program: OK", numba.__version__ if hasattr(numba, "__version__") else "")


if __name__ == "__main__":
    main()
