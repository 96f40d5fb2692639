"""The kernels of tests/gpu/kernels/tile_kernels7.py (cuTile's operator functions, math
functions, `item()` and 0-d tiles as numbers) with NumPy references, shared by
tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases7.py.

`operator_cases(run, arr, rng)` yields (what, got, want, kind), kind "exact" or
("close", tolerance); `run(kernel, grid, args)` runs a kernel, `arr(a)` passes an array;
both leave results in the NumPy arrays."""
import numpy as np

# The Constant parameters each kernel was compiled with (its defaults), passed last on the GPU.
CONSTS = {"float_fns": (128,), "int_fns": (128,), "nan_flags": (128,), "zero_d": (2, 64), "forms": (2, 8, 16),
          "scans": (4, 64, 256)}


def operator_cases(run, arr, rng):
    tile, blocks = 128, 3
    n = tile * blocks
    x = (rng.standard_normal(n) * 3).astype(np.float32)
    y = rng.uniform(0.5, 2.5, n).astype(np.float32) * rng.choice([-1, 1], n).astype(np.float32)
    out = np.full((8, n), np.nan, np.float32)
    run("float_fns", blocks, arr(x) + arr(y) + arr(out))
    f32 = np.float32
    yield "ct.negative", out[0], -x, "exact"
    yield "ct.floordiv (floor of the quotient)", out[1], np.floor(x / y), "exact"
    yield "ct.mod (x - floor(x / y) * y)", out[2], x - np.floor(x / y) * y, ("close", 1e-5)
    yield "ct.pow(|x|, 3)", out[3], (np.abs(x).astype(np.float64) ** 3), ("close", 1e-5)
    yield "ct.floor + ct.ceil", out[4], np.floor(x) + np.ceil(y), "exact"
    yield "ct.atan2", out[5], np.arctan2(x.astype(np.float64), y), ("close", 1e-5)
    yield "ct.tan", out[6], np.tan(x.astype(np.float64) * 0.25), ("close", 1e-4)
    yield "ct.sinh - ct.cosh", out[7], np.sinh(x.astype(np.float64)) - np.cosh(y.astype(np.float64)), ("close", 1e-4)
    del f32

    a = rng.integers(-2**31, 2**31 - 1, n, dtype=np.int64).astype(np.int32)
    k = rng.integers(0, 40, n).astype(np.int32)  # some shift counts past the width
    out = np.full((6, n), -1, np.int32)
    flags = np.zeros((3, n), np.bool_)
    run("int_fns", blocks, arr(a) + arr(k) + arr(out) + arr(flags))
    with np.errstate(over="ignore"):
        a64 = a.astype(np.int64)
        wrap = lambda v: ((v + 2**31) % 2**32 - 2**31).astype(np.int32)  # noqa: E731
        yield "ct.bitwise_xor(a, ct.bitwise_lshift(a, 8))", out[0], a ^ wrap(a64 << 8), "exact"
        yield "ct.bitwise_and | ct.bitwise_or", out[1], (a & 0x7FFFFFFF) | (a | 3), "exact"
        # Shifts by 32 or more: the sign (arithmetic right shift) or 0 (left shift).
        yield "ct.bitwise_rshift by 0..39", out[2], np.where(k < 32, a >> np.minimum(k, 31), a >> 31), "exact"
        yield "a << k by 0..39", out[3], np.where(k < 32, wrap(a64 << np.minimum(k, 31)), 0), "exact"
        yield "ct.bitwise_not(a) + ~k", out[4], wrap((~a).astype(np.int64) + (~k)), "exact"
        want = wrap(np.floor_divide(a64, 7) + np.mod(a64, -5))
        yield "ct.floordiv(a, 7) + ct.mod(a, -5) (Python's rules)", out[5], want, "exact"
    yield "ct.greater & ct.not_equal", flags[0], (a > k) & (a != 0), "exact"
    yield "ct.less_equal | ct.equal", flags[1], (a <= k) | (k == 3), "exact"
    yield "ct.greater_equal ^ ct.less", flags[2], (a >= 0) ^ (k < 10), "exact"

    x = rng.standard_normal(n).astype(np.float32)
    x[rng.choice(n, 40, replace=False)] = np.nan
    x[:3] = [np.inf, -np.inf, 0.0]
    nan = np.zeros(n, np.bool_)
    run("nan_flags", blocks, arr(x) + arr(nan))
    yield "ct.isnan (with infinities)", nan, np.isnan(x), "exact"

    rows, cols, blocks = 2, 64, 5
    x = rng.integers(-4, 5, (rows * blocks, cols)).astype(np.float32)  # exact sums in any order
    counts = np.array([[c] for c in (0, 1, 4, 5, 9)], np.int32).ravel()
    sums = np.full((blocks, 4), -1000.0, np.float32)
    partial = np.full(blocks, np.nan, np.float32)
    run("zero_d", blocks, arr(x) + arr(counts) + arr(sums) + arr(partial))
    want = np.full((blocks, 4), -1000.0, np.float32)
    for b in range(blocks):
        total = x[b * rows:(b + 1) * rows].sum()
        want[b, 0] = total
        for j in range(min(-(-counts[b] // 4), 3)):
            want[b, j + 1] = total + j
    yield "0-d sums: cdiv of item(), range bound, scalars stored into a 2-D array, reshape of a 0-d sum", sums, want, "exact"
    yield "ct.full((1,), ct.max(t))", partial, x.reshape(blocks, rows * cols).max(1), "exact"

    # A batched ct.mma, cat of one tile, the extract method, arange(start=, step=).
    blocks = 3
    x = rng.integers(-3, 4, (2 * blocks, 8, 16)).astype(np.float32)  # exact products
    acc = rng.integers(-3, 4, (2 * blocks, 8, 8)).astype(np.float32)
    out = np.full((2 * blocks, 8, 8), np.nan, np.float32)
    ramp = np.full(16 * blocks, np.nan, np.float32)
    run("forms", blocks, arr(x) + arr(acc) + arr(out) + arr(ramp))
    yield "batched ct.mma(x, x^T, acc), cat of one tile, t.extract", out, x @ x.transpose(0, 2, 1) + acc, "exact"
    want = np.concatenate([b * 100 + 0.5 * np.arange(16, dtype=np.float32) for b in range(blocks)])
    yield "ct.arange(16, start=pid * 100, step=0.5) against -inf", ramp, want.astype(np.float32), "exact"

    # ct.cumsum / ct.cumprod: in order along the axis, as NumPy's accumulate.
    blocks = 3
    x = rng.standard_normal((4 * blocks, 64)).astype(np.float32)
    k = rng.choice(np.array([-1, 1, 1, 2], np.int32), (4 * blocks, 64))
    flags = rng.random(256 * blocks) < 0.3
    fwd = np.full((4 * blocks, 64), np.nan, np.float32)
    back = np.full((4 * blocks, 64), np.nan, np.float32)
    prods = np.zeros((4 * blocks, 64), np.int32)
    counts = np.full(256 * blocks, -1, np.int32)
    run("scans", blocks, arr(x) + arr(k) + arr(flags) + arr(fwd) + arr(back) + arr(prods) + arr(counts))
    yield "ct.cumsum(t, axis=1) float32", fwd, np.cumsum(x, axis=1, dtype=np.float32), "exact"
    rows = x.reshape(blocks, 4, 64)
    want = np.flip(np.cumsum(np.flip(rows, 1), axis=1, dtype=np.float32), 1).reshape(4 * blocks, 64)
    yield "ct.cumsum(t, 0, reverse=True) within each block's rows", back, want, "exact"
    with np.errstate(over="ignore"):
        yield "ct.cumprod int32 along rows", prods, np.cumprod(k, axis=1, dtype=np.int32), "exact"
    want = np.concatenate([np.cumsum(flags[b * 256:(b + 1) * 256]).astype(np.int32) for b in range(blocks)])
    yield "ct.cumsum of bools (int32 counts)", counts, want, "exact"
