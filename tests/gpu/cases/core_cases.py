"""Core language coverage (issue 3): every kernel of tests/gpu/kernels/core_kernels.py
against a NumPy reference, with fresh random inputs and poisoned outputs.

Compiled output: <root>/core_kernels, from
    pykc compile tests/gpu/kernels/core_kernels.py --arch sm_90 -o <root>/core_kernels
"""

import math

import numpy as np

from harness import case

FOLDER = "core_kernels"
TPB = 256


def _blocks(n, tpb=TPB):
    return max(1, (n + tpb - 1) // tpb)


def _close(got, want, rtol, atol, what="out"):
    """For results of libdevice math: elementwise rtol/atol (ulp-level differences)."""
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


def _exact(got, want, what="out"):
    got = np.asarray(got)
    if got.shape != want.shape or got.dtype != want.dtype:
        raise AssertionError(f"{what}: {got.dtype}{got.shape} != {want.dtype}{want.shape}")
    bad = got != want
    if np.any(bad):
        i = int(np.flatnonzero(bad.ravel())[0])
        raise AssertionError(f"{what}: {int(bad.sum())} of {got.size} differ (first at {i}: "
                             f"{got.ravel()[i]} != {want.ravel()[i]})")
    return f"{what}: exact"


def core(name):
    return case(f"core {name}", FOLDER)


# ----------------------------------------------------------------------------- basics

@core("saxpy_gs")
def _saxpy(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(1 << 18, 1 << 20))
    a = np.float32(ctx.rng.uniform(-3, 3))
    x, y = ctx.randn(n, np.float32), ctx.randn(n, np.float32)
    out = ctx.poison(n, np.float32)
    mod.saxpy_gs[120, TPB](a, x, y, out)
    return ctx.compare(out, (np.float64(a) * x + y).astype(np.float32))


@core("double_f64_semantics")
def _double(ctx):
    mod = ctx.load()
    n = 10_007
    x = ctx.randn(n, np.float32) * np.float32(1e3)
    out = ctx.poison(n, np.float32)
    mod.double_f64_semantics[_blocks(n), TPB](x, out)
    # Computed in float64 (numba's typing), rounded once: exact.
    return _exact(out, (x.astype(np.float64) * 2.0 + 0.1).astype(np.float32))


@core("int_floordiv_mod")
def _ifloordiv(ctx):
    mod = ctx.load()
    n = 5000
    a = ctx.rng.integers(-1000, 1000, n).astype(np.int64)
    b = ctx.rng.integers(-13, 14, n).astype(np.int64)
    b[:7] = 0
    a[7] = np.iinfo(np.int64).min
    b[7] = -1
    q, r = ctx.poison(n, np.int64), ctx.poison(n, np.int64)
    mod.int_floordiv_mod[_blocks(n), TPB](a, b, q, r)
    safe = np.where(b == 0, 1, b)
    with np.errstate(all="ignore"):
        wq = np.where(b == 0, 0, a // safe)
        wr = np.where(b == 0, 0, a % safe)
    return _exact(q, wq, "q") + "; " + _exact(r, wr, "r")


@core("float_floordiv_mod")
def _ffloordiv(ctx):
    mod = ctx.load()
    n = 5000
    a = ctx.randn(n, np.float64) * 50
    b = ctx.randn(n, np.float64) * 3
    b[np.abs(b) < 1e-3] = 0.5
    q, r = ctx.poison(n, np.float64), ctx.poison(n, np.float64)
    mod.float_floordiv_mod[_blocks(n), TPB](a, b, q, r)
    return _exact(q, np.floor_divide(a, b), "q") + "; " + _close(r, np.mod(a, b), 0, 1e-12, "r")


@core("true_division")
def _truediv(ctx):
    mod = ctx.load()
    n = 3000
    a = ctx.rng.integers(-10**6, 10**6, n).astype(np.int32)
    b = ctx.rng.integers(1, 1000, n).astype(np.int32) * ctx.rng.choice([-1, 1], n).astype(np.int32)
    out = ctx.poison(n, np.float64)
    mod.true_division[_blocks(n), TPB](a, b, out)
    return _exact(out, a.astype(np.float64) / b.astype(np.float64))


@core("power_ops")
def _power(ctx):
    mod = ctx.load()
    n = 2000
    base = ctx.rng.integers(-6, 7, n).astype(np.int64)
    e = ctx.rng.integers(0, 12, n).astype(np.int64)
    b0 = base.copy()
    fout, dout = ctx.poison(n, np.float32), ctx.poison(n, np.float64)
    mod.power_ops[_blocks(n), TPB](base, e, fout, dout)
    i = np.arange(n)
    f = (1.0 + (i % 7) * 0.25)
    want_f = (f ** e).astype(np.float32)
    want_d = (1.0 + i * 0.001) ** 2.5 + (b0 ** 2).astype(np.float64)
    return "; ".join([_exact(base, b0 ** e, "int**int"), _close(fout, want_f, 2e-6, 0, "f32**int"),
                      _close(dout, want_d, 1e-14, 0, "float**float")])


@core("mixed_int_types")
def _mixed(ctx):
    mod = ctx.load()
    n = 3000
    a = ctx.rng.integers(-40000, 40000, n).astype(np.int32)
    ua = ctx.rng.integers(0, 4_000_000_000, n, dtype=np.uint64).astype(np.uint32)
    out64, uout, fout = ctx.poison(n, np.int64), ctx.poison(n, np.uint64), ctx.poison(n, np.float64)
    mod.mixed_int_types[_blocks(n), TPB](a, ua, out64, uout, fout)
    a64, u64 = a.astype(np.int64), ua.astype(np.int64)
    return "; ".join([
        _exact(out64, a64 * a64 + a64 + a64 + u64, "int64"),
        _exact(uout, ua.astype(np.uint64) * np.uint64(2), "uint64"),
        _exact(fout, np.maximum(a64, u64).astype(np.float64), "max->float64")])


@core("bit_ops")
def _bits(ctx):
    mod = ctx.load()
    n = 4000
    v = ctx.rng.integers(-2**40, 2**40, n).astype(np.int64)
    out = ctx.poison(n, np.int64)
    mod.bit_ops[_blocks(n), TPB](v, out)
    want = ((v << 3) ^ (v >> 2)) | (v & 0xFF) + (~v & 7)
    return _exact(out, want)


@core("compare_chain")
def _compare(ctx):
    mod = ctx.load()
    n = 4000
    x = ctx.randn(n, np.float64) * 2
    x[:4] = [-1.0, 1.0, 2.0, -2.0]
    out = ctx.poison(n, np.int64)
    mod.compare_chain[_blocks(n), TPB](x, out)
    inside = (-1.0 < x) & (x <= 1.0)
    outside = (x < -2.0) | (x > 2.0)
    want = inside.astype(np.int64) * 10 + (~outside) + (inside & ~outside).astype(np.int64) * 100
    return _exact(out, want)


@core("conditional_expr")
def _condexpr(ctx):
    mod = ctx.load()
    n = 3000
    x = ctx.randn(n, np.float32)
    out = ctx.poison(n, np.float32)
    mod.conditional_expr[_blocks(n), TPB](x, out)
    return _exact(out, np.where(x > 0, x, -x * np.float32(0.5)))


@core("casts")
def _casts(ctx):
    mod = ctx.load()
    n = 3000
    x = ctx.randn(n, np.float64) * 100
    x[:4] = [2.5, -2.5, 0.5, 1.25]
    iout, fout = ctx.poison(n, np.int64), ctx.poison(n, np.float64)
    mod.casts[_blocks(n), TPB](x, iout, fout)
    want_i = (np.trunc(x).astype(np.int64) + np.trunc(x * 2).astype(np.int64)
              + np.trunc(x.astype(np.float32)).astype(np.int64))
    want_f = (np.trunc(x) + x.astype(np.float32).astype(np.float64) + np.rint(x)
              + np.rint(x * 10) / 10)
    return _exact(iout, want_i, "int") + "; " + _close(fout, want_f, 1e-15, 1e-12, "float")


@core("builtins_minmax_abs")
def _minmax(ctx):
    mod = ctx.load()
    n = 3000
    x = ctx.randn(n, np.float64)
    out = ctx.poison(n, np.float64)
    mod.builtins_minmax_abs[_blocks(n), TPB](x, out)
    want = np.maximum(x, 0.0) + np.minimum(x, 0.25) + np.abs(x) + 3 + 2
    return _exact(out, want)


@core("math_f32")
def _mathf32(ctx):
    mod = ctx.load()
    n = 4096
    v = (ctx.rng.uniform(-3, 3, n)).astype(np.float32)
    out = ctx.poison(n, np.float32)
    mod.math_f32[_blocks(n), TPB](v, out)
    d = v.astype(np.float64)
    f32 = np.float32
    a = np.sin(d) + np.cos(d) + np.exp((v * f32(0.1)).astype(np.float64)) + np.sqrt(np.abs(d))
    b = np.arctan2(d, 1.5) + np.tanh(d) + np.log1p(np.abs(d)) + np.floor(d)
    erf = np.vectorize(math.erf)(d)
    want = a + b + np.abs(d) + erf + np.hypot(d, 2.0)
    return _close(out, want.astype(np.float32), 1e-5, 3e-5)


@core("math_f64")
def _mathf64(ctx):
    mod = ctx.load()
    n = 4096
    v = ctx.rng.uniform(-5, 5, n)
    out = ctx.poison(n, np.float64)
    mod.math_f64[_blocks(n), TPB](v, out)
    av = np.abs(v) + 1.0
    a = np.log(av) + np.log10(av) + np.log2(av)
    b = np.abs(v) ** 1.5 + np.ceil(v) + np.trunc(v) + np.copysign(2.0, v)
    c = np.fmod(v, 0.75) + np.expm1(v * 0.1) + np.arcsinh(v) + np.arctan(v)
    d = np.degrees(v) * 0.01 + np.radians(v) + math.pi + math.e + math.gamma(1.5)
    want = a + b + c + d + 4
    return _close(out, want, 1e-13, 1e-13)


@core("math_int_args")
def _mathint(ctx):
    mod = ctx.load()
    n = 1000
    x, out = ctx.poison(n, np.float64), ctx.poison(n, np.int64)
    mod.math_int_args[_blocks(n), TPB](x, out)
    i = np.arange(n)
    return (_close(x, np.sqrt(i) + np.exp(i % 3), 1e-15, 0, "x") + "; "
            + _exact(out, np.full(n, 3, np.int64)))


# ----------------------------------------------------------------------------- control flow

@core("loops")
def _loops(ctx):
    mod = ctx.load()
    n = 1000
    m = int(ctx.rng.integers(0, 50))
    out = ctx.poison(n, np.int64)
    mod.loops[_blocks(n), TPB](out, m)
    want = []
    for i in range(n):
        acc = sum(range(m)) + sum(k * 100 for k in range(10, 2, -3))
        for k in range(-7, 3):
            if k == 0:
                continue
            if k == 2:
                break
            acc += k
        acc += 1000 * (i % 5)
        acc += 7 * len(range(i % 4, -(i % 3) - 1, -1))
        want.append(acc)
    return _exact(out, np.array(want, np.int64))


@core("dynamic_step")
def _dynstep(ctx):
    mod = ctx.load()
    n = 500
    details = []
    for step in (int(ctx.rng.integers(1, 5)), -int(ctx.rng.integers(1, 5))):
        out = ctx.poison(n, np.int64)
        mod.dynamic_step[_blocks(n), TPB](out, step)
        want = [sum(range(0, i % 50, step)) if step > 0 else sum(range(i % 50, 0, step))
                for i in range(n)]
        details.append(_exact(out, np.array(want, np.int64), f"step {step}"))
    return "; ".join(details)


@core("unify_types")
def _unify(ctx):
    mod = ctx.load()
    n = 2000
    x = ctx.randn(n, np.float64)
    out = ctx.poison(n, np.float64)
    mod.unify_types[_blocks(n), TPB](x, out)
    want = 0.0 + x * 0 + x * 1 + x * 2 + x * 3
    return _close(out, want, 1e-14, 1e-14)


@core("elif_chain")
def _elif(ctx):
    mod = ctx.load()
    n = 3000
    x = ctx.rng.integers(-30, 30, n).astype(np.int32)
    out = ctx.poison(n, np.int32)
    mod.elif_chain[_blocks(n), TPB](x, out)
    want = np.select([x < -10, x < 0, x == 0, x <= 10], [-2, -1, 0, 1], 2).astype(np.int32)
    return _exact(out, want)


# ----------------------------------------------------------------------------- device functions

@core("device_calls")
def _devcalls(ctx):
    mod = ctx.load()
    n = 3000
    x = ctx.randn(n, np.float64)
    pairs, out = ctx.poison(n, np.int64), ctx.poison(n, np.float64)
    mod.device_calls[_blocks(n), TPB](x, pairs, out)
    i = np.arange(n)
    want = np.clip(x, -0.5, 0.5) + (x + (0.25 - x) * 0.25) + np.clip(i, 3, 9)
    return _exact(pairs, (i // 7) * 100 + i % 7, "pairs") + "; " + _close(out, want, 1e-14, 1e-14)


@core("gelu_2d")
def _gelu(ctx):
    mod = ctx.load()
    m, n = int(ctx.rng.integers(50, 300)), int(ctx.rng.integers(50, 300))
    x = ctx.randn((m, n), np.float64)
    out = ctx.poison((m, n), np.float64)
    mod.gelu_2d[((m + 15) // 16, (n + 15) // 16), (16, 16)](x, out)
    want = 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))
    return _close(out, want, 1e-14, 1e-15)


# ----------------------------------------------------------------------------- arrays

@core("layouts_2d")
def _layouts(ctx):
    mod = ctx.load()
    m, n = 70, 90
    c = ctx.randn((m, n), np.float32)
    f = np.asfortranarray(ctx.randn((m, n), np.float32))
    outbig = ctx.poison((n, 2 * m), np.float32)
    out = outbig.T[::2]            # (m, n), strided, A layout
    mod.layouts_2d[((m + 15) // 16, (n + 15) // 16), (16, 16)](c, f, out)
    want = (c.astype(np.float64) + f.astype(np.float64) * 2).astype(np.float32)
    return _exact(np.ascontiguousarray(out), want)


@core("array_3d")
def _array3d(ctx):
    mod = ctx.load()
    shape = (9, 10, 11)
    xbig = ctx.randn((9, 20, 11), np.float64)
    x = xbig[:, ::2, :]
    out = ctx.poison(shape, np.float64)
    mod.array_3d[(2, 3, 3), (8, 4, 4)](x, out)
    return _exact(out, x * 3 + 11)


@core("negative_index")
def _negidx(ctx):
    mod = ctx.load()
    n = 1234
    x = ctx.randn(n, np.float32)
    out = ctx.poison(n, np.float32)
    mod.negative_index[_blocks(n), TPB](x, out)
    return _exact(out, x[::-1] + x[0])


@core("tuple_index")
def _tupidx(ctx):
    mod = ctx.load()
    m, k = 777, 5
    a = ctx.rng.integers(-100, 100, (m, k)).astype(np.int64)
    out = ctx.poison(m, np.int64)
    mod.tuple_index[_blocks(m), TPB](a, out)
    i = np.arange(m)
    return _exact(out, a[:, -1] + a[:, 0] + k + 3 + 5 + i)


@core("local_array")
def _local(ctx):
    mod = ctx.load()
    n = 2000
    x = ctx.randn(n, np.float32)
    out = ctx.poison(n, np.float32)
    mod.local_array[_blocks(n), TPB](x, out)
    acc = np.zeros(n, np.float32)
    for k in range(7, -1, -1):
        acc = acc + x * np.float32(k)
    return _close(out, acc, 1e-6, 1e-6)


@core("array_views")
def _views(ctx):
    mod = ctx.load()
    rows, cols = int(ctx.rng.integers(50, 300)), int(ctx.rng.integers(4, 40))
    a = ctx.randn((rows, cols), np.float32)
    rowsum = ctx.poison(rows, np.float32)
    outbig = ctx.poison((rows, 4), np.float32)
    out = outbig[:, 1:3]                       # A layout
    mod.array_views[_blocks(rows), TPB](a, rowsum, out)
    i = np.arange(rows)
    a64 = a.astype(np.float64)
    want0 = a64[0, i % cols] + a64[:, -1] + a64[:, 1] + len(range(1, cols - 1, 2))
    want1 = a64[:, 2] + a64[-1, 0]
    acc = np.zeros(rows, np.float32)
    for k in range(cols):
        acc = acc + a[:, k]
    return "; ".join([_close(rowsum, acc, 1e-6, 1e-6, "rowsum"),
                      _close(outbig[:, 1], want0.astype(np.float32), 1e-6, 1e-6, "views"),
                      _exact(outbig[:, 2], want1.astype(np.float32), "2-d slice")])


# ----------------------------------------------------------------------------- threads, shared memory, atomics

@core("block_sum")
def _blocksum(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(10_000, 100_000))
    x = ctx.randn(n, np.float32)
    nb = _blocks(n)
    partial = ctx.poison(nb, np.float32)
    mod.block_sum[nb, TPB](x, partial)
    xp = np.zeros(nb * TPB, np.float64)
    xp[:n] = x
    return _close(partial, xp.reshape(nb, TPB).sum(axis=1).astype(np.float32), 1e-5, 1e-4)


@core("block_sum_atomic")
def _blocksumatomic(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(100_000, 1_000_000))
    x = ctx.randn(n, np.float32)
    total = np.zeros(1, np.float32)
    mod.block_sum_atomic[64, TPB](x, total)
    want = np.array([x.astype(np.float64).sum()], np.float32)
    return _close(total, want, 1e-4, 1e-2)


@core("matmul_tiled")
def _matmul(ctx):
    mod = ctx.load()
    m, k, n = (int(v) for v in ctx.rng.integers(30, 200, 3))
    a, b = ctx.randn((m, k), np.float32), ctx.randn((k, n), np.float32)
    c = ctx.poison((m, n), np.float32)
    mod.matmul_tiled[((n + 15) // 16, (m + 15) // 16), (16, 16)](a, b, c)
    want = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    return _close(c, want, 1e-5, 1e-4)


@core("softmax_rows")
def _softmax(ctx):
    mod = ctx.load()
    rows, cols = int(ctx.rng.integers(10, 100)), int(ctx.rng.integers(100, 3000))
    x = ctx.randn((rows, cols), np.float32) * 4
    out = ctx.poison((rows, cols), np.float32)
    mod.softmax_rows[rows, TPB](x, out)
    d = x.astype(np.float64)
    e = np.exp(d - d.max(axis=1, keepdims=True))
    return _close(out, (e / e.sum(axis=1, keepdims=True)).astype(np.float32), 1e-5, 1e-7)


@core("histogram_atomic")
def _hist(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(10_000, 50_000))
    x = ctx.rng.integers(0, 1000, n).astype(np.int32)
    nb = _blocks(n)
    bins = np.zeros(16, np.int32)
    old = ctx.poison(nb * 16, np.int32)
    mod.histogram_atomic[nb, TPB](x, bins, old)
    return (_exact(bins, np.bincount(x % 16, minlength=16).astype(np.int32), "bins") + "; "
            + _exact(old, np.ones(nb * 16, np.int32), "old"))


@core("atomics_misc")
def _atomics(ctx):
    mod = ctx.load()
    grid, block = 37, 128
    t = grid * block
    counts = np.zeros((4, 3), np.int64)
    maxes = np.array([0, 2**32 - 1], np.uint32)
    fsum = np.zeros(1, np.float64)
    mod.atomics_misc[grid, block](counts, maxes, fsum)
    i = np.arange(t)
    want = np.zeros((4, 3), np.int64)
    np.add.at(want, (i % 4, i % 3), 1)
    return "; ".join([_exact(counts, want, "counts"),
                      _exact(maxes, np.array([t - 1, 5], np.uint32), "max/min"),
                      _exact(fsum, np.array([0.5 * t]), "fsum")])


@core("thread_indices")
def _threads(ctx):
    mod = ctx.load()
    h, w = 40, 70
    out = ctx.poison((h, w), np.int32)
    mod.thread_indices[((w + 15) // 16, (h + 7) // 8), (16, 8)](out)
    y, x = np.mgrid[0:h, 0:w]
    want = (x % 16) + (y % 8) * 1000 + (x // 16) * 100000
    return _exact(out, want.astype(np.int32))


# ----------------------------------------------------------------------------- constants, annotations

@core("annotated")
def _annotated(ctx):
    mod = ctx.load()
    n = 999
    x = ctx.randn(n, np.float64)
    out = ctx.poison(n, np.float64)
    k = int(ctx.rng.integers(-100, 100))
    mod.annotated[_blocks(n), TPB](x, out, k)
    # a*b + c may be contracted to an fma (as numba does): 1 ulp.
    return _close(out, x * 2.5 + k + 17 + 1, 1e-15, 1e-12)


@core("multi_sig")
def _multisig(ctx):
    mod = ctx.load()
    n = 1000
    xi = ctx.rng.integers(-1000, 1000, n).astype(np.int32)
    xf = ctx.randn(n, np.float64)
    wi = (xi.astype(np.int64) * 3 + 1).astype(np.int32)
    wf = xf * 1.5 + 1
    mod.multi_sig[_blocks(n), TPB](xi, 3)
    mod.multi_sig[_blocks(n), TPB](xf, 1.5)
    return _exact(xi, wi, "int32") + "; " + _close(xf, wf, 1e-15, 1e-14, "float64")


@core("fastmath_kernel")
def _fastmath(ctx):
    mod = ctx.load()
    n = 3000
    x = ctx.randn(n, np.float32) * 10
    out = ctx.poison(n, np.float32)
    mod.fastmath_kernel[_blocks(n), TPB](x, out)
    want = (x.astype(np.float64) / 3.0 + np.sqrt(np.abs(x.astype(np.float64)))).astype(np.float32)
    return _close(out, want, 1e-5, 1e-5)


@core("unsigned_range")
def _urange(ctx):
    mod = ctx.load()
    n = 500
    m = int(ctx.rng.integers(0, 2000))
    out = ctx.poison(n, np.uint64)
    mod.unsigned_range[_blocks(n), TPB](out, m)
    return _exact(out, (np.uint64(m * (m - 1) // 2) + np.arange(n, dtype=np.uint64)))


# ----------------------------------------------------------------------------- warp intrinsics

@core("warp_shuffles")
def _shuffles(ctx):
    mod = ctx.load()
    n = 32 * int(ctx.rng.integers(10, 200))
    x = ctx.randn(n, np.float32)
    wsum, dsum, first = ctx.poison(n // 32, np.float32), ctx.poison(n, np.float64), ctx.poison(n, np.int64)
    mod.warp_shuffles[n // 32, 32](x, wsum, dsum, first)
    w = x.astype(np.float64).reshape(-1, 32)
    i = np.arange(n)
    up = np.where(i % 32 == 0, i, i - 1)      # shfl_up keeps lane 0's own value
    return "; ".join([
        _close(wsum, w.sum(axis=1).astype(np.float32), 1e-5, 1e-5, "shfl_down"),
        _close(dsum, np.repeat(w.sum(axis=1), 32), 1e-12, 1e-12, "shfl_xor"),
        _exact(first, ((i // 32 * 32).astype(np.int64) << 33) + up, "shfl/shfl_up")])


@core("warp_vote_bits")
def _vote(ctx):
    mod = ctx.load()
    n = 32 * 64
    x = ctx.rng.integers(-100, 100, n).astype(np.int32)
    x[:32] = np.abs(x[:32]) + 1        # one warp all positive
    out = ctx.poison((n, 6), np.int32)
    mod.warp_vote_bits[n // 32, 32](x, out)
    w = x.reshape(-1, 32)
    pos = np.repeat((w > 0).sum(axis=1), 32)
    allv = np.repeat(np.all(w > -1000, axis=1), 32).astype(np.int32)
    anyv = np.repeat(np.any(w < 0, axis=1), 32).astype(np.int32)
    low = (x & 0xFF).astype(np.uint32)
    ffs = np.array([(int(v) & -int(v)).bit_length() for v in low], np.int32)
    clz = np.array([32 - int(v).bit_length() if v >= 0 else 0 for v in x], np.int32)
    brev = np.array([int(f"{int(v) & 0xFFFFFFFF:032b}"[::-1], 2) >> 16 for v in x], np.int32)
    fma = (x.astype(np.float64) * 2 + 1 + 3).astype(np.int32)
    want = np.stack([pos, allv + 2 * anyv, ffs, clz, brev, fma], axis=1).astype(np.int32)
    return _exact(out, want)
