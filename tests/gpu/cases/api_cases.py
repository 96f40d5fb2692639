"""numba.cuda kernel API coverage (issue 4): every kernel of
tests/gpu/kernels/api_kernels.py against a NumPy reference, with fresh random inputs and
poisoned outputs.

Compiled output: <root>/api_kernels, from
    pykc compile tests/gpu/kernels/api_kernels.py --arch sm_90 -o <root>/api_kernels
"""

import numpy as np

from harness import case

FOLDER = "api_kernels"
TPB = 256


def _blocks(n, tpb=TPB):
    return max(1, (n + tpb - 1) // tpb)


def _exact(got, want, what="out"):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype:
        raise AssertionError(f"{what}: {got.dtype}{got.shape} != {want.dtype}{want.shape}")
    bad = ~((got == want) | (np.isnan(got) & np.isnan(want)) if got.dtype.kind == "f"
            else (got == want))
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


def _wrap(v, dt):
    """Python int v as a scalar of integer dtype dt (two's complement wrap)."""
    dt = np.dtype(dt)
    bits = dt.itemsize * 8
    v &= (1 << bits) - 1
    if dt.kind == "i" and v >= 1 << (bits - 1):
        v -= 1 << bits
    return dt.type(v)


def api(name):
    return case(f"api {name}", FOLDER)


# ----------------------------------------------------------------------------- atomics

def _int_ops(ctx, dt):
    mod = ctx.load()
    n = int(ctx.rng.integers(1000, 5000))
    r = int(ctx.rng.integers(0, 1 << 30))
    init = [int(ctx.rng.integers(-1000, 1000)), 1000, 5, 10**6, -1, 0, r, -1, 3, 10**6]
    cells = np.array([_wrap(v, dt) for v in init], dt)
    olds = ctx.poison((n, 10), dt)
    mod.atomic_int_ops[_blocks(n), TPB](cells, olds)
    i = np.arange(n)
    xor_all = 0
    for k in range(n):
        xor_all ^= k
    want = [init[0] + 3 * n, 1000 - 2 * n, max(5, n - 1), 7, -1 & ~((1 << 20) - 1),
            (1 << 24) - 1, r ^ xor_all, None, max(3, n - 1), 11]
    got = cells.copy()
    exch_final = got[7]
    want_cells = np.array([_wrap(v, dt) if v is not None else exch_final for v in want], dt)
    parts = [_exact(got, want_cells, "cells")]
    # add / sub return every intermediate value once.
    parts.append(_exact(np.sort(olds[:, 0]),
                        np.sort(np.array([_wrap(init[0] + 3 * k, dt) for k in range(n)], dt)),
                        "add olds"))
    parts.append(_exact(np.sort(olds[:, 1]),
                        np.sort(np.array([_wrap(1000 - 2 * k, dt) for k in range(n)], dt)),
                        "sub olds"))
    # exch: the olds plus the final value are the initial value and every i.
    parts.append(_exact(np.sort(np.append(olds[:, 7], exch_final)),
                        np.sort(np.append(np.array([_wrap(-1, dt)], dt), i.astype(dt))),
                        "exch olds"))
    # max: every old value is the initial one or an earlier thread's index.
    mx = olds[:, 2].astype(np.int64)
    if not np.all((mx == 5) | ((mx >= 0) & (mx < n))):
        raise AssertionError("max olds out of range")
    return "; ".join(parts)


for _dt in ("int32", "int64", "uint32", "uint64"):
    api(f"atomic_int_ops[{_dt}]")(lambda ctx, dt=_dt: _int_ops(ctx, np.dtype(dt)))


def _inc_dec(ctx, dt):
    mod = ctx.load()
    n = int(ctx.rng.integers(1000, 5000))
    limit = 100
    cells = np.zeros(2, dt)
    olds = ctx.poison((n, 2), dt)
    mod.atomic_inc_dec[_blocks(n), TPB](cells, olds)
    k = np.arange(n)
    return "; ".join([
        _exact(cells, np.array([n % (limit + 1), (-n) % (limit + 1)], dt), "cells"),
        _exact(np.sort(olds[:, 0]), np.sort(k % (limit + 1)).astype(dt), "inc olds"),
        _exact(np.sort(olds[:, 1]), np.sort((-k) % (limit + 1)).astype(dt), "dec olds")])


for _dt in ("uint32", "uint64"):
    api(f"atomic_inc_dec[{_dt}]")(lambda ctx, dt=_dt: _inc_dec(ctx, np.dtype(dt)))


def _float_ops(ctx, dt):
    mod = ctx.load()
    n = int(ctx.rng.integers(1000, 5000))
    vals = ctx.randn(n, dt) * 10
    vals[ctx.rng.random(n) < 0.05] = np.nan
    inf, nan = np.inf, np.nan
    cells = np.array([0, 100, -inf, inf, nan, nan, nan, nan, -inf, inf], dt)
    olds = ctx.poison((n, 2), dt)
    mod.atomic_float_ops[_blocks(n), TPB](cells, vals, olds)
    hi, lo = np.nanmax(vals), np.nanmin(vals)
    want = np.array([0.5 * n, 100 - 0.25 * n, hi, lo, nan, hi, lo, nan, hi, lo], dt)
    k = np.arange(n)
    return "; ".join([
        _exact(cells, want, "cells"),
        _exact(np.sort(olds[:, 0]), (0.5 * k).astype(dt), "add olds"),
        _exact(np.sort(olds[:, 1]), np.sort(100 - 0.25 * k).astype(dt), "sub olds")])


for _dt in ("float32", "float64"):
    api(f"atomic_float_ops[{_dt}]")(lambda ctx, dt=_dt: _float_ops(ctx, np.dtype(dt)))


def _minmax_sequence(ctx, dt):
    """One thread applies max/nanmax/min/nanmin in turn: numba's NaN rules and the
    returned old values, deterministically."""
    mod = ctx.load()
    n = 64
    vals = ctx.randn(n, dt)
    vals[ctx.rng.random(n) < 0.2] = np.nan
    start = np.array([np.nan, np.nan, 0.5, np.nan], dt)
    cells = start.copy()
    olds = ctx.poison((n, 4), dt)
    mod.atomic_minmax_sequence[1, 1](cells, vals, olds)
    cur = [float(c) for c in start]
    want = np.empty((n, 4), dt)
    for k, v in enumerate(vals.astype(np.float64)):
        for c in range(4):
            want[k, c] = cur[c]
            x = cur[c]
            if c == 0:                       # max: NaN on either side: no change
                if not (np.isnan(v) or np.isnan(x)) and x < v:
                    cur[c] = v
            elif c == 1:                     # nanmax: NaN value ignored, NaN cell replaced
                if not np.isnan(v) and (np.isnan(x) or x < v):
                    cur[c] = v
            elif c == 2:                     # min
                if not (np.isnan(v) or np.isnan(x)) and x > v:
                    cur[c] = v
            else:                            # nanmin
                if not np.isnan(v) and (np.isnan(x) or x > v):
                    cur[c] = v
    return (_exact(olds, want, "olds") + "; "
            + _exact(cells, np.array(cur, dt), "cells"))


for _dt in ("float32", "float64"):
    api(f"atomic_minmax_sequence[{_dt}]")(lambda ctx, dt=_dt: _minmax_sequence(ctx, np.dtype(dt)))


@api("atomic_shared_tuple")
def _shared_tuple(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(10_000, 60_000))
    keys = ctx.rng.integers(0, 32, n).astype(np.int32)
    counts = np.zeros((4, 8), np.int32)
    sums = np.zeros((4, 8), np.float64)
    mod.atomic_shared_tuple[_blocks(n), TPB](keys, counts, sums)
    c = np.bincount(keys, minlength=32)
    return (_exact(counts, c.reshape(4, 8).astype(np.int32), "counts") + "; "
            + _exact(sums, (0.5 * np.arange(32) * c).reshape(4, 8), "sums"))


def _cas(ctx, dt):
    mod = ctx.load()
    n = int(ctx.rng.integers(1000, 4000))
    a, b = (int(v) for v in ctx.rng.integers(0, 1000, 2))
    cells = np.array([a, b], dt)
    grid2 = ctx.rng.integers(0, 1000, (3, 4)).astype(dt)
    start = grid2.copy()
    mod.atomic_cas_counter[_blocks(n), TPB](cells, grid2)
    n = _blocks(n) * TPB                 # every launched thread takes part
    want2 = start.copy()
    want2[1, 2] = start[1, 2] + 2 * n
    want2[0, 0] = start[0, 1]
    return (_exact(cells, np.array([a + n, b + 3 * n], dt), "cells") + "; "
            + _exact(grid2, want2, "grid2"))


for _dt in ("int32", "uint64"):
    api(f"atomic_cas_counter[{_dt}]")(lambda ctx, dt=_dt: _cas(ctx, np.dtype(dt)))


# ----------------------------------------------------------------------------- sync, warp

@api("sync_predicates")
def _sync(ctx):
    mod = ctx.load()
    nb = int(ctx.rng.integers(20, 60))
    n = nb * TPB - int(ctx.rng.integers(1, TPB))
    x = np.empty(nb * TPB, np.float32)
    for b in range(nb):
        lo, hi = (-4, 2) if b % 2 == 0 else (-10, 10)
        x[b * TPB:(b + 1) * TPB] = ctx.rng.uniform(lo, hi, TPB)
    x[n:] = 0          # the padding threads see 0
    out = ctx.poison((nb, 3), np.int32)
    mod.sync_predicates[nb, TPB](x[:n].copy(), out)
    w = x.reshape(nb, TPB)
    want = np.stack([(w > 0).sum(axis=1), np.all(w > -5, axis=1), np.any(w > 3, axis=1)],
                    axis=1).astype(np.int32)
    got = out.copy()
    got[:, 1:] = got[:, 1:] != 0
    return _exact(got, want)


def _match(ctx, dt):
    mod = ctx.load()
    # Whole blocks only: the kernel has no bounds check (every lane of a warp
    # takes part in the warp operation), and the launch is n // block blocks.
    n = 128 * int(ctx.rng.integers(2, 16))
    choices = np.array([0.5, 1.5, -2.0, 3.25] if np.dtype(dt).kind == "f" else [0, 7, -3, 1 << 20], dt)
    x = choices[ctx.rng.integers(0, 4, n)]
    x[:32] = choices[1]                 # one warp all equal
    x[32:48] = choices[2]               # one half-warp all equal
    out = ctx.poison((n, 4), np.int32)
    mod.match_sync[n // 128, 128](x, out)
    want = np.empty((n, 4), np.int64)
    for w0 in range(0, n, 32):
        w = x[w0:w0 + 32]
        same = bool(np.all(w == w[0]))
        for lane in range(32):
            eq = w == w[lane]
            half = np.arange(32) // 16 == lane // 16
            want[w0 + lane] = [sum(1 << j for j in range(32) if eq[j]),
                               0xFFFFFFFF if same else 0, int(same),
                               sum(1 << j for j in range(32) if eq[j] and half[j])]
    want = np.array([[_wrap(int(v), np.int32) for v in row] for row in want], np.int32)
    return _exact(out, want)


for _dt in ("int32", "int64", "float32", "float64"):
    api(f"match_sync[{_dt}]")(lambda ctx, dt=_dt: _match(ctx, np.dtype(dt)))


@api("warp_votes")
def _votes(ctx):
    mod = ctx.load()
    # Whole blocks only: the kernel has no bounds check (every lane of a warp
    # takes part in the warp operation), and the launch is n // block blocks.
    n = 128 * int(ctx.rng.integers(2, 16))
    x = ctx.rng.integers(0, 100, n).astype(np.int32)
    x[:32] = ctx.rng.integers(1, 100, 32)          # all positive
    x[32:64] = 2 * ctx.rng.integers(0, 50, 32)      # all even
    out = ctx.poison((n, 7), np.int64)
    mod.warp_votes[n // 64, 64](x, out)
    want = np.empty((n, 7), np.int64)
    for w0 in range(0, n, 32):
        w = x[w0:w0 + 32]
        ballot = sum(1 << j for j in range(32) if w[j] > 50)
        par = w % 2 != 0
        for lane in range(32):
            want[w0 + lane] = [np.all(w > 0), np.any(w > 90), np.all(par == par[0]),
                               int(_wrap(ballot, np.int32)), 0xFFFFFFFF, (1 << lane) - 1, lane]
    return _exact(out, want)


def _shuffles(ctx, dt):
    mod = ctx.load()
    # Whole blocks only: the kernel has no bounds check (every lane of a warp
    # takes part in the warp operation), and the launch is n // block blocks.
    n = 128 * int(ctx.rng.integers(2, 16))
    dt = np.dtype(dt)
    if dt.kind == "f":
        x = ctx.randn(n, dt)
    else:
        info = np.iinfo(dt)
        x = ctx.rng.integers(info.min, info.max, n, dtype=dt)
    out = ctx.poison((n, 4), dt)
    mod.shuffles[n // 128, 128](x, out)
    lane = np.arange(n) % 32
    base = np.arange(n) - lane
    src = [base + (lane * 7) % 32, np.where(lane < 3, lane, lane - 3) + base,
           np.where(lane + 5 > 31, lane, lane + 5) + base, base + (lane ^ 6)]
    want = np.stack([x[s] for s in src], axis=1)
    return _exact(out, want)


for _dt in ("int32", "int64", "float32", "float64"):
    api(f"shuffles[{_dt}]")(lambda ctx, dt=_dt: _shuffles(ctx, dt))


@api("lane_info")
def _lane_info(ctx):
    mod = ctx.load()
    n = 32 * 10
    out = ctx.poison(n, np.int32)
    mod.lane_info[n // 64, 64](out)
    return _exact(out, (np.arange(n) % 32 + 100 * 32).astype(np.int32))


# ----------------------------------------------------------------------------- intrinsics

@api("selp_sleep")
def _selp(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(500, 3000))
    a = ctx.rng.integers(-1000, 1000, n).astype(np.int32)
    b = ctx.rng.integers(-1000, 1000, n).astype(np.int32)
    x = ctx.randn(n, np.float64)
    out = ctx.poison((n, 3), np.float64)
    mod.selp_sleep[_blocks(n), TPB](a, b, x, out)
    want = np.stack([np.where(a > b, a, b), np.abs(x), np.where(a % 2 == 0, a, -7)],
                    axis=1).astype(np.float64)
    return _exact(out, want)


@api("bit_intrinsics")
def _bits(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(500, 2000))
    u = ctx.rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    s = ctx.rng.integers(-(1 << 63), (1 << 63) - 1, n, dtype=np.int64)
    u[:3] = [0, 1, 0x80000000]
    s[:4] = [0, -1, 1, -(1 << 63)]
    o32 = ctx.poison((n, 4), np.int32)
    o64 = ctx.poison((n, 4), np.uint64)
    mod.bit_intrinsics[_blocks(n), TPB](u, s, o32, o64)

    def ffs(v):
        return (v & -v).bit_length()

    w32, w64 = np.empty((n, 4), np.int32), np.empty((n, 4), np.uint64)
    for k in range(n):
        a, b = int(u[k]), int(s[k]) & ((1 << 64) - 1)
        w32[k] = [bin(a).count("1"), 32 - a.bit_length(), ffs(a),
                  _wrap(int(f"{a:032b}"[::-1], 2), np.int32)]
        w64[k] = [bin(b).count("1"), 64 - b.bit_length(), ffs(b), int(f"{b:064b}"[::-1], 2)]
    return _exact(o32, w32, "32-bit") + "; " + _exact(o64, w64, "64-bit")


# ----------------------------------------------------------------------------- iteration

@api("iter_rows")
def _iter_rows(ctx):
    mod = ctx.load()
    r, c = int(ctx.rng.integers(3, 12)), int(ctx.rng.integers(10, 300))
    a = ctx.randn((r, c), np.float64)
    out = ctx.poison(c, np.float64)
    mod.iter_rows[_blocks(c), TPB](a, out)
    i = np.arange(c)
    want = (a * np.arange(1, r + 1)[:, None]).sum(axis=0) + a[i % r].sum(axis=1)
    return _close(out, want, 1e-13, 1e-12)


@api("iter_enumerate_zip")
def _iter_zip(ctx):
    mod = ctx.load()
    r, c = int(ctx.rng.integers(50, 300)), int(ctx.rng.integers(5, 40))
    a, b = ctx.randn((r, c), np.float32), ctx.randn((r, c), np.float32)
    out = ctx.poison(r, np.float32)
    mod.iter_enumerate_zip[_blocks(r), TPB](a, b, out)
    A, B = a.astype(np.float64), b.astype(np.float64)
    k = np.arange(c)
    m = np.arange((c + 1) // 2)
    j = np.arange(min(c, 25))
    want = ((A * k).sum(axis=1) + (A * B).sum(axis=1)
            + ((m + 1) * (A[:, ::2] - B[:, :len(m)])).sum(axis=1)
            + ((3 + 4 * j) * A[:, :len(j)]).sum(axis=1))
    return _close(out, want.astype(np.float32), 1e-4, 1e-3)


@api("iter_tuples")
def _iter_tuples(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(100, 3000))
    x = ctx.randn(n, np.float64)
    out = ctx.poison(n, np.float64)
    mod.iter_tuples[_blocks(n), TPB](x, out)
    want = ((1.5 * x - 2.0) * x + 0.25) + 6 * x * x + 32
    return _close(out, want, 1e-13, 1e-12)


# ----------------------------------------------------------------------------- views

@api("transpose_view")
def _transpose(ctx):
    mod = ctx.load()
    r, c = int(ctx.rng.integers(10, 100)), int(ctx.rng.integers(10, 100))
    a = ctx.randn((r, c), np.float32)
    out = ctx.poison((c, r), np.float32)
    info = ctx.poison(4, np.int64)
    mod.transpose_view[((c + 15) // 16, (r + 15) // 16), (16, 16)](a, out, info)
    return (_exact(out, (a * 2).T.copy(), "out") + "; "
            + _exact(info, np.array([4, 4 * c, c, r], np.int64), "info"))


@api("loop_else")
def _loop_else(ctx):
    mod = ctx.load()
    m = int(ctx.rng.integers(20, 60))
    x = ctx.rng.integers(-5, 200, m).astype(np.int64)
    n = 300
    out = ctx.poison(n, np.int64)
    mod.loop_else[_blocks(n), TPB](x, out)
    want = np.empty(n, np.int64)
    for i in range(n):
        hits = np.flatnonzero(x == i)
        found = int(hits[0]) if hits.size else -2
        if not np.any(x[: i % 7] < 0):
            found += 1000
        want[i] = found + 50
    return _exact(out, want)
