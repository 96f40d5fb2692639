"""numba.cuda kernel API coverage (issue 4), part 4: float16. Every kernel of
tests/gpu/kernels/api_kernels4.py against a NumPy reference (computed in float64;
compared with float16 tolerances).

Compiled output: <root>/api_kernels4, from
    pykc compile tests/gpu/kernels/api_kernels4.py --arch sm_90 -o <root>/api_kernels4
"""

import numpy as np

from harness import case

FOLDER = "api_kernels4"
TPB = 256


def _blocks(n, tpb=TPB):
    return max(1, (n + tpb - 1) // tpb)


def _close(got, want, rtol, atol, what="out"):
    got = np.asarray(got).astype(np.float64)
    if got.shape != want.shape:
        raise AssertionError(f"{what}: shape {got.shape} != {want.shape}")
    bad = ~np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    if np.any(bad):
        i = int(np.flatnonzero(bad.ravel())[0])
        raise AssertionError(f"{what}: {int(bad.sum())} of {got.size} differ beyond rtol {rtol} "
                             f"atol {atol} (first at {i}: {got.ravel()[i]!r} != {want.ravel()[i]!r})")
    return f"{what}: max abs err {float(np.max(np.abs(got - want))) if got.size else 0:.2e}"


@case("api4 half_ops", FOLDER)
def _half(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(200, 3000))
    a = ctx.rng.uniform(-2, 2, n).astype(np.float16)
    b = (ctx.rng.uniform(0.5, 2, n) * ctx.rng.choice([-1, 1], n)).astype(np.float16)
    b[:5] = a[:5]
    f = ctx.randn(n, np.float32)
    s = np.float16(ctx.rng.uniform(-1, 1))
    out = ctx.poison((n, 14), np.float16)
    mod.half_ops[_blocks(n), TPB](a, b, f, out, s)
    x, y, S = a.astype(np.float64), b.astype(np.float64), float(s)
    F = f.astype(np.float64)
    want = np.stack([
        x + y * S,
        x * y - x / y,
        -x + np.abs(y),
        F.astype(np.float16).astype(np.float64) + (x > y),
        (x + y) + x * y - (x - y),
        (x * y + S) + x + x / y,
        np.sin(x) + np.cos(y) + np.exp(x),
        np.maximum(x, y) + np.minimum(x, y) + np.abs(x),
        (x == y) + (x < y) * 2.0 + (x >= y) * 4.0,
        np.sqrt(np.abs(x)) + np.sin(y),
        x * F,
        np.floor_divide(x, y),
        np.sqrt(np.abs(y)) + np.floor(x) + np.ceil(y),
        np.log(np.abs(y)) + np.exp2(x) + 1 / y,
    ], axis=1)
    # half precision: a few roundings of 2**-11 relative each.
    return _close(out, want, 1e-2, 2e-2)
