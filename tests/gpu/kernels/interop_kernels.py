"""Kernels calling CUDA C++ device functions (issue 8, docs/INTEROP.md), written as
numba-cuda users write them: cuda.declare_device with link=, cffi's from_buffer for
pointers, @cuda.jit(link=[...]).

    pykc compile tests/gpu/kernels/interop_kernels.py --arch sm_90 -o <root>/interop_kernels
"""
import os

import cffi
from numba import cuda, float32, int32

HERE = os.path.dirname(__file__)
OPS = os.path.join(HERE, "interop", "ops.cu")
CCCL = os.path.join(HERE, "interop", "cccl_ops.cu")

ffi = cffi.FFI()

# Scalar math (float32 and float64, an int argument converted from int64).
mul_add_one = cuda.declare_device("mul_add_one", "float32(float32, float32)", link=OPS)
powi = cuda.declare_device("powi_f64", "float64(float64, int32)", link=OPS)
# Pointer-taking helpers.
sum_reduce = cuda.declare_device("sum_reduce", "float32(CPointer(float32), int32)", link=OPS)
scale2 = cuda.declare_device("scale2", "void(CPointer(float32), CPointer(float32), int64)")
# A macro of ops.cu (3 by default; -D OPS_OFFSET=... on the command line changes it).
offset = cuda.declare_device("offset_i32", "int32(int32)", link=[OPS])
# abi="c" (numba-cuda-mlir's option): the result in a register.
fma3 = cuda.declare_device("fma3_c", "float64(float64, float64, float64)", abi="c", link=OPS)
# CCCL (libcu++ and CUB), header-only.
complex_abs2 = cuda.declare_device("complex_abs2", "float32(float32, float32)", link=CCCL)
safe_hypot = cuda.declare_device("safe_hypot", "float32(float32, float32)", link=CCCL)
warp_sum = cuda.declare_device("warp_sum", "float32(float32)", link=CCCL)


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def k_mul_add_one(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = mul_add_one(x[i], y[i])


@cuda.jit("void(float64[::1], int64, float64[::1])")
def k_powi(x, n, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = powi(x[i], n)


@cuda.jit("void(float32[:, ::1], float32[::1])")
def k_row_sums(rows, out):
    # Each thread sums one row through the pointer to its first element.
    i = cuda.grid(1)
    if i < rows.shape[0]:
        out[i] = sum_reduce(ffi.from_buffer(rows[i]), rows.shape[1])


# scale2 has no link= of its own: the kernel's link= brings ops.cu in.
@cuda.jit("void(float32[::1], float32[::1])", link=[OPS])
def k_scale2(x, out):
    i = cuda.grid(1)
    if i < out.size:
        scale2(ffi.from_buffer(x), ffi.from_buffer(out), i)


@cuda.jit("void(int32[::1], int32[::1])")
def k_offset(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = offset(x[i])


@cuda.jit("void(float32[::1], float32[::1], float32[::1], float32[::1])")
def k_cccl(re, im, abs2, hyp):
    i = cuda.grid(1)
    if i < re.size:
        abs2[i] = complex_abs2(re[i], im[i])
        hyp[i] = safe_hypot(re[i], im[i])


@cuda.jit("void(float32[::1], float32[::1])")
def k_warp_sum(x, out):
    # Every lane of every warp calls warp_sum (the grid covers x exactly).
    i = cuda.grid(1)
    out[i] = warp_sum(x[i])


@cuda.jit(device=True)
def py_twice_mul(a, b):
    # A Python device function calling the C++ one.
    return mul_add_one(a, b) * float32(2)


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def k_nested(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = py_twice_mul(x[i], y[i])


@cuda.jit("void(float64[::1], float64[::1], float64[::1])")
def k_fma_c(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = fma3(a[i], b[i], 0.5)
