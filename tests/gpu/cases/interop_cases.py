"""Kernels calling CUDA C++ device functions (issue 8, docs/INTEROP.md): every kernel of
tests/gpu/kernels/interop_kernels.py against NumPy, fresh random inputs, poisoned outputs.

Compiled output: <root>/interop_kernels, from
    pykc compile tests/gpu/kernels/interop_kernels.py --arch sm_90 -o <root>/interop_kernels
(no -D: ops.cu's OPS_OFFSET keeps its default, 3).
"""

import numpy as np

from harness import case

FOLDER = "interop_kernels"
TPB = 256


def _blocks(n, tpb=TPB):
    return max(1, (n + tpb - 1) // tpb)


@case("interop scalar float32 (mul_add_one)", FOLDER)
def _mul_add_one(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(1000, 50000))
    x, y = ctx.randn(n, np.float32), ctx.randn(n, np.float32)
    out = ctx.poison(n, np.float32)
    mod.k_mul_add_one[_blocks(n), TPB](x, y, out)
    return ctx.compare(out, (x.astype(np.float64) * y + 1).astype(np.float32))


@case("interop scalar float64 and int (powi_f64)", FOLDER)
def _powi(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(1000, 20000))
    x = ctx.rng.uniform(-1.5, 1.5, n)
    e = int(ctx.rng.integers(0, 9))
    out = ctx.poison(n, np.float64)
    mod.k_powi[_blocks(n), TPB](x, np.int64(e), out)
    return ctx.compare(out, x ** e)


@case("interop pointer helper (sum_reduce over rows)", FOLDER)
def _row_sums(ctx):
    mod = ctx.load()
    rows, cols = int(ctx.rng.integers(50, 600)), int(ctx.rng.integers(1, 300))
    a = ctx.randn((rows, cols), np.float32)
    out = ctx.poison(rows, np.float32)
    mod.k_row_sums[_blocks(rows), TPB](a, out)
    return ctx.compare(out, a.astype(np.float64).sum(axis=1).astype(np.float32))


@case("interop pointer helper writing memory (scale2, kernel link=)", FOLDER)
def _scale2(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(1000, 50000))
    x = ctx.randn(n, np.float32)
    out = ctx.poison(n, np.float32)
    mod.k_scale2[_blocks(n), TPB](x, out)
    return ctx.compare(out, 2 * x)


@case("interop int32 with a macro (offset_i32)", FOLDER)
def _offset(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(1000, 50000))
    x = ctx.rng.integers(-1 << 20, 1 << 20, n).astype(np.int32)
    out = ctx.poison(n, np.int32)
    mod.k_offset[_blocks(n), TPB](x, out)
    return ctx.compare(out, x + np.int32(3))


@case("interop CCCL libcu++ (complex abs, hypot)", FOLDER)
def _cccl(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(1000, 50000))
    re, im = ctx.randn(n, np.float32), ctx.randn(n, np.float32)
    abs2, hyp = ctx.poison(n, np.float32), ctx.poison(n, np.float32)
    mod.k_cccl[_blocks(n), TPB](re, im, abs2, hyp)
    r, i = re.astype(np.float64), im.astype(np.float64)
    return "; ".join([ctx.compare(abs2, (r * r + i * i).astype(np.float32), "abs2"),
                      ctx.compare(hyp, np.hypot(r, i).astype(np.float32), "hypot")])


@case("interop CUB warp reduction (warp_sum)", FOLDER)
def _warp_sum(ctx):
    mod = ctx.load()
    n = TPB * int(ctx.rng.integers(1, 200))
    x = ctx.randn(n, np.float32)
    out = ctx.poison(n, np.float32)
    mod.k_warp_sum[n // TPB, TPB](x, out)
    want = np.repeat(x.astype(np.float64).reshape(-1, 32).sum(axis=1), 32).astype(np.float32)
    return ctx.compare(out, want)


@case("interop Python device function calling C++ (nested)", FOLDER)
def _nested(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(1000, 50000))
    x, y = ctx.randn(n, np.float32), ctx.randn(n, np.float32)
    out = ctx.poison(n, np.float32)
    mod.k_nested[_blocks(n), TPB](x, y, out)
    return ctx.compare(out, ((x.astype(np.float64) * y + 1) * 2).astype(np.float32))


@case("interop abi=\"c\" (fma3_c, float64)", FOLDER)
def _fma_c(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(1000, 50000))
    a, b = ctx.randn(n, np.float64), ctx.randn(n, np.float64)
    out = ctx.poison(n, np.float64)
    mod.k_fma_c[_blocks(n), TPB](a, b, out)
    return ctx.compare(out, a * b + 0.5)
