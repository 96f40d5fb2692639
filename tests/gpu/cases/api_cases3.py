"""numba.cuda kernel API coverage (issue 4), part 3: complex numbers. Every kernel of
tests/gpu/kernels/api_kernels3.py against a NumPy reference.

Compiled output: <root>/api_kernels3, from
    pykc compile tests/gpu/kernels/api_kernels3.py --arch sm_90 -o <root>/api_kernels3
"""

import cmath

import numpy as np

from harness import case

FOLDER = "api_kernels3"
TPB = 256


def _blocks(n, tpb=TPB):
    return max(1, (n + tpb - 1) // tpb)


def _close(got, want, rtol, atol, what="out"):
    got = np.asarray(got)
    if got.shape != want.shape:
        raise AssertionError(f"{what}: shape {got.shape} != {want.shape}")
    bad = ~np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    if np.any(bad):
        i = int(np.flatnonzero(bad.ravel())[0])
        raise AssertionError(f"{what}: {int(bad.sum())} of {got.size} differ beyond rtol {rtol} "
                             f"atol {atol} (first at {i}: {got.ravel()[i]!r} != {want.ravel()[i]!r})")
    return f"{what}: max abs err {float(np.max(np.abs(got - want))) if got.size else 0:.2e}"


def api(name):
    return case(f"api3 {name}", FOLDER)


def _crandn(ctx, n, dt):
    return (ctx.randn(n, np.float64) + 1j * ctx.randn(n, np.float64)).astype(dt)


@api("complex_arith")
def _arith(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(200, 3000))
    a = _crandn(ctx, n, np.complex64)
    b = _crandn(ctx, n, np.complex128)
    b[:5] = a[:5]                       # some equal pairs
    f = ctx.randn(n, np.float32)
    k = ctx.rng.integers(-100, 100, n).astype(np.int32)
    out = ctx.poison((n, 8), np.complex128)
    mod.complex_arith[_blocks(n), TPB](a, b, f, k, out)
    A = a.astype(np.complex128)
    F = f.astype(np.float64)
    idx = np.arange(n)
    s = sum(a[(idx + j) % n] * np.complex64(1 + 1j) for j in range(3))
    want = np.stack([
        A + F,
        A * k - b / A,
        np.abs(b) + A.real + b.imag * 1j,
        np.conj(A) + (F + 2j) + 1j,
        (A == b).astype(np.float64) + (A != 1j) * 2 + 4,
        -b + F + A,
        s.astype(np.complex128),
        (b * b) / (b + 3),
    ], axis=1)
    return _close(out, want, 2e-6, 2e-5)


@api("complex_cmath")
def _cmath(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(200, 2000))
    z = (ctx.randn(n, np.float64) * 2 + 1j * ctx.randn(n, np.float64) * 2)
    z[0] = complex(np.inf, 1.0)
    z[1] = complex(np.nan, 0.0)
    out = ctx.poison((n, 11), np.complex128)
    outr = ctx.poison((n, 3), np.float64)
    mod.complex_cmath[_blocks(n), TPB](z, out, outr)
    fns = [cmath.exp, cmath.log, cmath.sqrt, cmath.sin, cmath.cos, cmath.tan, cmath.sinh,
           cmath.cosh, cmath.tanh, cmath.log10, lambda v: cmath.rect(*cmath.polar(v))]
    want = np.array([[fn(complex(v)) for fn in fns] for v in z[2:]])
    wantr = np.array([[cmath.phase(v), abs(v), 4.0] for v in z[2:]])
    flags = outr[:2, 2]
    if not np.array_equal(flags, [2.0, 1.0]):
        raise AssertionError(f"isnan/isinf/isfinite of (inf+1j, nan): {flags} != [2, 1]")
    return (_close(out[2:], want, 1e-13, 1e-13, "cmath") + "; "
            + _close(outr[2:], wantr, 1e-14, 1e-14, "phase/abs") + "; flags exact")


@api("complex_scalars")
def _scalars(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(100, 1000))
    x = _crandn(ctx, n, np.complex64)
    c = np.complex64(complex(*ctx.randn(2, np.float32)))
    d = complex(*ctx.randn(2, np.float64))
    want = x * c + np.complex64(d)
    mod.complex_scalars[_blocks(n), TPB](x, c, d)
    return _close(x, want, 1e-6, 1e-6)
