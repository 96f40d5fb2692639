"""The cost of calling a CUDA C++ device function (docs/INTEROP.md, "Cost of the call"):
the same polynomial applied `reps` times per element, as C++ through cuda.declare_device
(numba's ABI, and abi="c") and as a Python device function. bench/interop/prepare.sh compiles this file twice (the
C++ linked as PTX, and with --lto); run_interop_bench.py times both on the GPU.
"""
import os

from numba import cuda, float32

poly3_cxx = cuda.declare_device("poly3", "float32(float32)",
                                link=os.path.join(os.path.dirname(__file__), "poly.cu"))

poly3_c = cuda.declare_device("poly3_c", "float32(float32)", abi="c",
                              link=os.path.join(os.path.dirname(__file__), "poly.cu"))


@cuda.jit(device=True)
def poly3_py(x):
    return ((float32(0.5) * x) * x - float32(0.25)) * x + float32(0.125)


@cuda.jit("void(float32[::1], float32[::1], int32)")
def via_cxx(x, out, reps):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        for _ in range(reps):
            v = poly3_cxx(v)
        out[i] = v


@cuda.jit("void(float32[::1], float32[::1], int32)")
def via_cxx_c(x, out, reps):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        for _ in range(reps):
            v = poly3_c(v)
        out[i] = v


@cuda.jit("void(float32[::1], float32[::1], int32)")
def via_python(x, out, reps):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        for _ in range(reps):
            v = poly3_py(v)
        out[i] = v
