"""numba.cuda kernel API coverage (issue 4), part 2: every kernel of
tests/gpu/kernels/api_kernels2.py against a NumPy reference, with fresh random inputs and
poisoned outputs.

Compiled output: <root>/api_kernels2, from
    pykc compile tests/gpu/kernels/api_kernels2.py --arch sm_90 -o <root>/api_kernels2
"""

import ctypes
import math
import os
import sys
import tempfile

import numpy as np

from harness import case

FOLDER = "api_kernels2"
TPB = 256
LUT = np.array([1.0, 0.5, 0.25, 0.125, -1.0, -0.5, -0.25, -0.125], dtype=np.float32)
STENCIL = np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]], dtype=np.int64)
FLAGS = np.array([1, 0, 1, 1], dtype=np.int64)


def _blocks(n, tpb=TPB):
    return max(1, (n + tpb - 1) // tpb)


def _exact(got, want, what="out"):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype:
        raise AssertionError(f"{what}: {got.dtype}{got.shape} != {want.dtype}{want.shape}")
    bad = got != want
    if np.any(bad):
        i = int(np.flatnonzero(bad.ravel())[0])
        raise AssertionError(f"{what}: {int(bad.sum())} of {got.size} differ (first at {i}: "
                             f"{got.ravel()[i]!r} != {want.ravel()[i]!r})")
    return f"{what}: exact"


def _close(got, want, rtol, atol, what="out"):
    got = np.asarray(got)
    if got.shape != want.shape:
        raise AssertionError(f"{what}: shape {got.shape} != {want.shape}")
    g, w = got.astype(np.float64), want.astype(np.float64)
    bad = ~np.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
    if np.any(bad):
        i = int(np.flatnonzero(bad.ravel())[0])
        raise AssertionError(f"{what}: {int(bad.sum())} of {g.size} differ beyond rtol {rtol} "
                             f"atol {atol} (first at {i}: {g.ravel()[i]!r} != {w.ravel()[i]!r})")
    return f"{what}: max abs err {float(np.max(np.abs(g - w))) if g.size else 0:.2e}"


def api(name):
    return case(f"api2 {name}", FOLDER)


@api("const_arrays")
def _const(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(500, 3000))
    h, w = int(ctx.rng.integers(5, 40)), int(ctx.rng.integers(5, 40))
    idx = ctx.rng.integers(0, 1000, n).astype(np.int32)
    img = ctx.rng.integers(-50, 50, (h, w)).astype(np.int32)
    out = ctx.poison(n, np.float32)
    m = (h - 2) * (w - 2)
    out2 = ctx.poison(m, np.int64)
    mod.const_arrays[_blocks(max(n, m)), TPB](idx, out, img, out2)
    conv = np.zeros((h - 2, w - 2), np.int64)
    for dr in range(3):
        for dc in range(3):
            conv += STENCIL[dr, dc] * img[dr:dr + h - 2, dc:dc + w - 2]
    i = np.arange(m)
    want2 = conv.ravel() + FLAGS[i % 4] + 3 * 1000 + 4 * 10000
    return (_exact(out, LUT[idx % 8] + LUT[(idx + 1) % 8], "lut") + "; "
            + _exact(out2, want2.astype(np.int64), "stencil"))


def _fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


@api("device_functions")
def _device(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(200, 1500))
    c = int(ctx.rng.integers(3, 40))
    k = ctx.rng.integers(0, 1000, n).astype(np.int64)
    x = ctx.randn(n, np.float64)
    m = ctx.randn((n, c), np.float64)
    out = ctx.poison((n, 8), np.float64)
    mod.device_functions[_blocks(n), TPB](k, x, m, out)
    i = np.arange(n)
    want = np.stack([
        np.array([_fib(int(v) % 20) for v in k], np.float64),
        x ** (k % 9),
        0.5 * x + 1.0,
        (6 + k).astype(np.float64),
        m.sum(axis=1),
        m[:, i % c].sum(axis=0),
        m[:, 1::2].sum(axis=1),
        np.abs(x - 0.25) + 6,
    ], axis=1)
    return _close(out, want, 1e-12, 1e-12)


@api("printer")
def _printer(ctx):
    mod = ctx.load()
    a = int(ctx.rng.integers(1, 1000))
    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            mod.printer[2, 64](np.int32(a), 2.5, np.uint8(7))    # synchronises: flushes printf
            libc.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        tmp.seek(0)
        text = tmp.read().decode()
    want = f"values {a} 2.500000 7 True ({a}, 2.500000)\n{-a} 1.500000 True\n\n"
    if text != want:
        raise AssertionError(f"printed {text!r}, expected {want!r}")
    return "printed: exact"


@api("math_rest")
def _math(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(200, 2000))
    x = ctx.randn(n, np.float64) * 3
    x[0], x[1] = np.inf, np.nan
    k = ctx.rng.integers(0, 10_000, n).astype(np.int64)
    f = ctx.randn(n, np.float32) * 2
    out = ctx.poison((n, 10), np.float64)
    outf = ctx.poison((n, 3), np.float32)
    mod.math_rest[_blocks(n), TPB](x, k, f, out, outf)
    want = np.empty((n, 10))
    for j in range(n):
        v = float(x[j])
        if not math.isfinite(v):
            continue
        mm, e = math.frexp(v)
        fr, wh = math.modf(v)
        want[j] = [math.copysign(v, -1.0) + math.hypot(v, 3.0) + math.atan2(v, 2.0),
                   mm + e,
                   math.ldexp(v, 3) + math.fmod(v, 0.7) + math.remainder(v, 0.7),
                   fr * 10 + wh,
                   math.erf(v) + math.erfc(v) * 2 + math.lgamma(abs(v) + 0.5),
                   math.gamma(abs(v) / 4 + 0.5) + math.trunc(v) + math.degrees(v) + math.radians(v),
                   math.sqrt(k[j]) + math.exp(k[j] % 5) + float(np.cbrt(v)),
                   5.0,
                   float(np.nextafter(v, 10.0)) - v,
                   (v * 2.0 + 1.0) + math.expm1(v / 10) + math.log1p(abs(v))]
    flags = out[:2, 7]
    w = f.astype(np.float64)
    wantf = np.stack([np.sin(f).astype(np.float64) + np.cos(f).astype(np.float64) * np.tan(w / 4),
                      np.hypot(f, np.float32(2)).astype(np.float64) - np.abs(w),
                      w * w + 1 + np.floor(w) + np.ceil(w)], axis=1)
    return "; ".join([
        _exact(flags, np.array([3.0, 2.0]), "isnan/isinf/isfinite of inf, nan"),
        _close(out[2:], want[2:], 1e-12, 1e-12, "float64"),
        _close(outf, wantf.astype(np.float32), 2e-6, 2e-5, "float32")])


@api("arrays_nd")
def _arrays_nd(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(100, 1000))
    a3 = ctx.randn((3, 4, 5), np.float32)
    a4 = ctx.randn((2, 3, 4, 5), np.float32)
    base = ctx.randn((14, 20), np.float64)
    strided = base[::2, ::3]                     # A layout: both strides > 1
    fortran = np.asfortranarray(ctx.randn((6, 7), np.float32))
    out = ctx.poison(n, np.float64)
    mod.arrays_nd[_blocks(n), TPB](a3, a4, strided, fortran, out)
    i = np.arange(n)
    s = a3.astype(np.float64)[:, :, i % 5].sum(axis=(0, 1))
    t = a4.astype(np.float64)[:, 2, i % 4, 4 - (i % 5)].sum(axis=0)
    u = strided[i % strided.shape[0], :].sum(axis=1)
    q = np.arange(1, 8)
    wv = (fortran.astype(np.float64)[i % 6, :] * q).sum(axis=1)
    want = s + 10 * t + 100 * u + 1000 * wv + 4 + a3.size
    return _close(out, want, 1e-12, 1e-9)


@api("local_2d")
def _local(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(100, 2000))
    x = ctx.randn(n, np.float64)
    out = ctx.poison((n, 2), np.float64)
    mod.local_2d[_blocks(n), TPB](x, out)
    r = np.arange(3)[:, None]
    c = np.arange(4)[None, :]
    tiles = x[:, None, None] * r + c
    acc = (tiles * tiles[:, ::-1, ::-1]).sum(axis=(1, 2))
    return _close(out, np.stack([acc, 2 * x + 3], axis=1), 1e-13, 1e-12)


@api("dynamic_shared")
def _dynamic(ctx):
    mod = ctx.load()
    nb = int(ctx.rng.integers(2, 50))
    n = nb * TPB
    x = ctx.randn(n, np.float32)
    out = ctx.poison(n, np.float32)
    mod.dynamic_shared[nb, TPB, None, TPB * 4](x, out)
    want = x.reshape(nb, TPB)[:, ::-1].ravel() + TPB
    return _exact(out, want.astype(np.float32))


@api("debug_checks")
def _debug(ctx):
    mod = ctx.load()
    n = 1000
    x = ctx.rng.uniform(-1, 1, n).astype(np.float32)
    ok = x.copy()
    mod.debug_checks[_blocks(n), TPB](ok, np.float32(5))        # nothing fails
    if not np.array_equal(ok, x * 2):
        raise AssertionError("debug kernel computed wrong values")
    big = x.copy()
    big[17] = 9.0
    detail = ctx.expect_error(ValueError, lambda: mod.debug_checks[_blocks(n), TPB](
        big, np.float32(5)), "value above limit", "line")
    nan = x.copy()
    nan[3] = np.nan
    detail2 = ctx.expect_error(AssertionError, lambda: mod.debug_checks[_blocks(n), TPB](
        nan, np.float32(5)), "NaN input")
    again = x.copy()
    mod.debug_checks[_blocks(n), TPB](again, np.float32(5))     # the word was reset
    return detail + "; " + detail2


@api("slice_assign")
def _slices(ctx):
    mod = ctx.load()
    r, c = int(ctx.rng.integers(6, 10)), int(ctx.rng.integers(4, 9))
    a = ctx.randn((r, c), np.float32)
    b = ctx.randn(c + int(ctx.rng.integers(0, 5)), np.float64)
    base = ctx.rng.integers(-100, 100, (r, 2 * c)).astype(np.int32)
    m = base[:, ::2]                              # A layout: strided columns
    wa, wb, wm = a.copy(), b.copy(), m.copy()
    wa[1:3, ::2] = 7
    wa[0, :] = wb[:c]
    wb[::3] = -1.5
    wm[:, 1] = wm[:, 0]
    wa[3] = 0
    wa[r - 2:, -2:] = wa[:2, :2]
    mod.slice_assign[1, 32](a, b, m)
    return "; ".join([_exact(a, wa, "a"), _exact(b, wb, "b"), _exact(np.ascontiguousarray(m), wm, "m")])


@api("tuple_args")
def _tuple_args(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(100, 1000))
    a = int(ctx.rng.integers(-1000, 1000))
    b = float(ctx.rng.standard_normal())
    c0, c1 = (int(v) for v in ctx.rng.integers(-10**6, 10**6, 2))
    out = ctx.poison(n, np.float64)
    mod.tuple_args[_blocks(n), TPB]((np.int32(a), b, (c0, c1)), out)
    want = a + b * c0 + (a * b + c1) + np.arange(n)
    return _close(out, want, 1e-13, 1e-9)


@api("returned_views")
def _returned(ctx):
    mod = ctx.load()
    n = 2 * int(ctx.rng.integers(100, 1000))
    x = ctx.randn(n, np.float32)
    m = ctx.randn((3, 4), np.float32)
    out = ctx.poison(n // 2, np.float32)
    mod.returned_views[_blocks(n), TPB](x, m, out)
    i = np.arange(n // 2)
    return _exact(out, x[n // 2:] + np.where(i % 2 == 0, m[1, 0], m[0, 1]))


@api("recursion_inferred")
def _recursion(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(100, 1000))
    k = ctx.rng.integers(0, 1000, n).astype(np.int64)
    out = ctx.poison(n, np.float64)
    mod.recursion_inferred[_blocks(n), TPB](k, out)
    want = np.array([math.factorial(max(int(v) % 15, 1)) + 0.5 ** (int(v) % 6) for v in k])
    return _close(out, want, 1e-15, 0)
