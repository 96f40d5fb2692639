"""numba.cuda kernel API coverage (issue 4), part 6: `cuda.libdevice`, cache hints, record
arrays, `numba.cuda.random`, vector types. Every kernel of tests/gpu/kernels/api_kernels6.py
against a host reference: exact where libdevice is exact (integer functions, directed
roundings, conversions and bit casts: Python integers and `fractions.Fraction`), with
tolerances for the transcendental ones.

Compiled output: <root>/api_kernels6, from
    pykc compile tests/gpu/kernels/api_kernels6.py --arch sm_90 -o <root>/api_kernels6
"""

import math
from fractions import Fraction

import numpy as np

try:
    from harness import case
except ImportError:                     # imported by a host tool without the harness
    def case(name, folder):
        return lambda fn: fn

FOLDER = "api_kernels6"
TPB = 128


def _blocks(n, tpb=TPB):
    return max(1, (n + tpb - 1) // tpb)


def _wrap(v, bits=32):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def _u(v, bits=32):
    return v & ((1 << bits) - 1)


def _exact(got, want, what):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        raise AssertionError(f"{what}: shape {got.shape} != {want.shape}")
    same = (got == want) | (np.isnan(got) & np.isnan(want)) if got.dtype.kind == "f" \
        else got == want
    if not np.all(same):
        i = int(np.flatnonzero(~same.ravel())[0])
        raise AssertionError(f"{what}: {int((~same).sum())} of {got.size} differ (first at "
                             f"{np.unravel_index(i, got.shape)}: {got.ravel()[i]!r} != "
                             f"{want.ravel()[i]!r})")
    return f"{what}: exact"


def _close(got, want, rtol, atol, what):
    got = np.asarray(got, np.float64)
    bad = ~np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    if np.any(bad):
        i = int(np.flatnonzero(bad.ravel())[0])
        raise AssertionError(f"{what}: {int(bad.sum())} of {got.size} differ beyond rtol {rtol} "
                             f"atol {atol} (first at {i}: {got.ravel()[i]!r} != "
                             f"{want.ravel()[i]!r})")
    return f"{what}: close"


# ------------------------------------------------------------------------ libdevice

def _brev(v, bits):
    return int(format(_u(v, bits), f"0{bits}b")[::-1], 2)


def _clz(v, bits):
    v = _u(v, bits)
    return bits - v.bit_length()


def _ffs(v, bits):
    v = _u(v, bits)
    return (v & -v).bit_length()


def _byte_perm(x, y, s):
    data = _u(x) | (_u(y) << 32)
    r = 0
    for n in range(4):
        sel = (s >> (4 * n)) & 7
        r |= ((data >> (8 * sel)) & 0xFF) << (8 * n)
    return _wrap(r)


def _int_row(x, y, z, p, q):
    xs, ys = x >> 8, y >> 8
    return [
        _wrap(abs(x - y) + z),
        _wrap(abs(_u(x) - _u(y)) + _u(z)),
        (x * y) >> 32,
        _wrap((_u(x) * _u(y)) >> 32),
        (p * q) >> 64,
        _wrap((_u(p, 64) * _u(q, 64)) >> 64, 64),
        (x + y) >> 1,
        (x + y + 1) >> 1,
        _wrap((_u(x) + _u(y)) >> 1),
        _wrap((_u(x) + _u(y) + 1) >> 1),
        _wrap(xs * ys),
        _wrap(_u(xs, 24) * _u(ys, 24)),
        _byte_perm(x, y, z & 0x7777),
        _wrap(_brev(x, 32)),
        _wrap(_brev(p, 64), 64),
        _clz(x, 32),
        _clz(p, 64),
        _ffs(x, 32),
        _ffs(p, 64),
        bin(_u(x)).count("1"),
        bin(_u(p, 64)).count("1"),
        max(x, y) + 3 * min(x, y),
        _wrap(max(_u(x), _u(y))),
        _wrap(min(_u(x), _u(y))),
        (max(p, q) >> 1) - (min(p, q) >> 1),
        _wrap(max(_u(p, 64), _u(q, 64)), 64),
        _wrap(min(_u(p, 64), _u(q, 64)), 64),
        _wrap(_wrap(abs(x)) + abs(p), 64),
    ]


@case("api6 libdevice_ints", FOLDER)
def _libdevice_ints(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(200, 2000))
    i32 = lambda: ctx.rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
    i64 = lambda: ctx.rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64)
    a, b, c, la, lb = i32(), i32(), i32(), i64(), i64()
    a[:3] = [0, -1, 2**31 - 1]
    la[:3] = [0, -1, 1 << 40]
    out = ctx.poison((n, 28), np.int64)
    mod.libdevice_ints[_blocks(n), TPB](a, b, c, la, lb, out)
    want = np.array([_int_row(int(a[i]), int(b[i]), int(c[i]), int(la[i]), int(lb[i]))
                     for i in range(n)], dtype=np.int64)
    return _exact(out, want, "libdevice ints")


def _round_dir(exact, nearest, mode, ftype):
    """`exact` (a Fraction) rounded toward +inf (u), -inf (d) or zero (z) in `ftype`,
    from its round-to-nearest value."""
    r = nearest
    if mode == "u" and Fraction(float(r)) < exact:
        r = np.nextafter(r, ftype(np.inf))
    elif mode == "d" and Fraction(float(r)) > exact:
        r = np.nextafter(r, ftype(-np.inf))
    elif mode == "z" and abs(Fraction(float(r))) > abs(exact):
        r = np.nextafter(r, ftype(0))
    return float(r)


def _round_half_away(v):
    return math.copysign(math.floor(abs(v) + 0.5), v)


def _erfcx(t):
    if t > 25:
        return 1 / (t * math.sqrt(math.pi)) * (1 - 1 / (2 * t * t) + 3 / (4 * t ** 4))
    return math.exp(t * t) * math.erfc(t)


@case("api6 libdevice_floats", FOLDER)
def _libdevice_floats(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(200, 1500))
    d = ctx.rng.uniform(-50, 50, n)
    e = ctx.rng.uniform(0.5, 5, n) * ctx.rng.choice([-1.0, 1.0], n)
    f = ctx.rng.uniform(-3, 3, n).astype(np.float32)
    g = (ctx.rng.uniform(0.25, 3, n) * ctx.rng.choice([-1.0, 1.0], n)).astype(np.float32)
    d[0], f[0] = 2.5, np.float32(0.25)
    iout = ctx.poison((n, 18), np.int64)
    fout = ctx.poison((n, 36), np.float64)
    mod.libdevice_floats[_blocks(n), TPB](d, e, f, g, iout, fout)

    F32 = np.float32
    wi = np.zeros((n, 18), np.int64)
    wf = np.zeros((n, 36), np.float64)
    for i in range(n):
        x, y, u, v = float(d[i]), float(e[i]), f[i], g[i]
        X, Y = Fraction(x), Fraction(y)
        m, ex = math.frexp(x)
        wf[i, 0], wi[i, 0] = m, ex
        mf, exf = np.frexp(u)
        wf[i, 1], wi[i, 1] = float(mf), int(exf)
        wf[i, 3] = float(math.trunc(x))
        wf[i, 2] = x - wf[i, 3]
        r = math.remainder(x, y)
        wf[i, 4] = r
        wi[i, 2] = int((X - Fraction(r)) / Y)          # the quotient; compared mod 8
        fmax, fmin = max(x, y), min(x, y)
        wf[i, 5] = (max(x - y, 0.0) + fmax * 3.0) - fmin
        wf[i, 6] = _round_dir(X + Y, np.float64(x) + np.float64(y), "u", np.float64)
        wf[i, 7] = _round_dir(X + Y, np.float64(x) + np.float64(y), "d", np.float64)
        wf[i, 8] = _round_dir(X * Y, np.float64(x) * np.float64(y), "z", np.float64)
        wf[i, 9] = _round_dir(X / Y, np.float64(x) / np.float64(y), "u", np.float64)
        wf[i, 10] = _round_dir(X, F32(x), "u", F32)
        wf[i, 11] = _round_dir(X, F32(x), "d", F32)
        U, V = Fraction(float(u)), Fraction(float(v))
        wf[i, 12] = _round_dir(U + V, F32(u) + F32(v), "z", F32)
        wf[i, 13] = float(F32(u) / F32(v))
        wf[i, 14] = float(np.sqrt(np.abs(u)))
        wf[i, 15] = 1.0 / x
        wi[i, 3] = math.floor(F32(float(u) * 100.0))
        wi[i, 4] = math.ceil(F32(float(u) * 100.0))
        wi[i, 5] = math.trunc(x * 1e6)
        wi[i, 6] = int(np.rint(x * 100.0))
        wi[i, 7] = int(np.array(u).view(np.int32))
        bits = int(np.array(x).view(np.int64))
        wi[i, 8] = bits
        wi[i, 9] = bits >> 32
        wi[i, 10] = _wrap(bits)
        ybits = int(np.array(y).view(np.int64))
        wf[i, 16] = float(np.array(((ybits >> 32) << 32) | _u(bits), np.int64).view(np.float64))
        wf[i, 17] = float(v)
        half = np.array(np.float16(u)).view(np.int16)
        wi[i, 11] = int(half)
        wf[i, 18] = float(np.float16(u))
        wf[i, 19] = x * 128.0 + float(u) / 8.0
        wf[i, 20] = float(math.frexp(x)[1] - 1)
        wi[i, 12] = math.frexp(float(u))[1] - 1
        wi[i, 13] = int(x < 0)
        wi[i, 14] = 2
        wf[i, 21] = min(max(float(u), 0.0), 1.0)
        wf[i, 22] = float(np.nextafter(x, y))
        wf[i, 23] = float(np.rint(x * 10.0)) + _round_half_away(y * 10.0) * 1000.0
        wi[i, 15] = int(_round_half_away(x * 10.0))
        wf[i, 24], wf[i, 25] = math.sin(x), math.cos(x)
        wf[i, 26], wf[i, 27] = math.sin(float(u)), math.cos(float(u))
        wf[i, 28] = math.sin(float(u)) + math.exp(float(v))
        wf[i, 29] = math.sin(math.pi * x) + math.cos(math.pi * float(u))
        wf[i, 30] = 0.5 * math.erfc(-x / math.sqrt(2))
        wf[i, 31] = x / 64.0
        wf[i, 32] = math.copysign(abs(y) ** (-1 / 3), y) / math.sqrt(abs(float(v)) + 1)
        wf[i, 33] = x ** 3 + 10.0 ** float(u)
        wf[i, 34] = math.hypot(x, y) + math.atan2(float(u), float(v))
        wf[i, 35] = _erfcx(abs(x)) + math.expm1(float(v))
        wi[i, 16] = int(np.array(np.float16(v)).view(np.int16) == half)
        wi[i, 17] = 1

    notes = []
    quo = iout[:, 2]
    exact_i = [k for k in range(18) if k != 2]
    notes.append(_exact(iout[:, exact_i], wi[:, exact_i], "libdevice int results"))
    if not np.all((np.abs(quo) & 7) == (np.abs(wi[:, 2]) & 7)):
        raise AssertionError(f"remquo quotient bits: {quo[:8]} vs {wi[:8, 2]}")
    sign_ok = (quo == 0) | ((quo < 0) == ((d < 0) != (e < 0)))
    if not np.all(sign_ok):
        raise AssertionError("remquo quotient sign")
    exact_f = [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]
    notes.append(_exact(fout[:, exact_f], wf[:, exact_f], "libdevice exact floats"))
    notes.append(_close(fout[:, 5], wf[:, 5], 1e-15, 1e-13, "fdim/fmax/fmin"))
    notes.append(_close(fout[:, 24:26], wf[:, 24:26], 1e-14, 1e-15, "sincos"))
    notes.append(_close(fout[:, 26:28], wf[:, 26:28], 1e-6, 1e-6, "sincosf"))
    notes.append(_close(fout[:, 28], wf[:, 28], 1e-5, 1e-5, "fast_sinf + fast_expf"))
    notes.append(_close(fout[:, 29], wf[:, 29], 1e-6, 1e-6, "sinpi + cospif"))
    notes.append(_close(fout[:, 30], wf[:, 30], 1e-12, 1e-300, "normcdf"))
    notes.append(_close(fout[:, 31], wf[:, 31], 1e-14, 1e-15, "erf(erfinv)"))
    notes.append(_close(fout[:, 32:36], wf[:, 32:36], 1e-6, 1e-6, "rcbrt powi exp10 hypot "
                                                                    "erfcx"))
    return "; ".join(notes)


# ------------------------------------------------------------------------ cache hints

@case("api6 cache_hints", FOLDER)
def _cache_hints(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(200, 3000))
    a = ctx.rng.integers(-128, 128, n).astype(np.int8)
    h = ctx.rng.uniform(-4, 4, n).astype(np.float16)
    m = ctx.randn((n, 3), np.float32)
    d = ctx.randn(n, np.float64)
    u = ctx.rng.integers(0, 2**64 - 1, n, dtype=np.uint64)
    s = ctx.rng.integers(-2**15, 2**15, n).astype(np.int16)
    hout = ctx.poison(n, np.float16)
    mout = ctx.poison((n, 2), np.float32)
    dout = ctx.poison(n, np.float64)
    a0, u0, s0 = a.copy(), u.copy(), s.copy()
    mod.cache_hints[_blocks(n), TPB](a, h, m, d, u, s, hout, mout, dout)
    with np.errstate(over="ignore"):
        notes = [
            _exact(a, (a0.astype(np.int32) + 1).astype(np.int8), "stcg(ldca) int8"),
            _exact(hout, h[::-1], "stcs(ldcg) float16, negative index"),
            _exact(mout, np.stack([m[:, 1] * np.float32(2), m[:, 2]], axis=1),
                   "stwb/stwt, ldcs/ldlu 2-d"),
            _exact(dout, d + d[-1], "ldcv + ldlu float64"),
            _exact(u, u0 + np.uint64(3), "stcg(ldcv) uint64"),
            _exact(s, (s0.astype(np.int64) - 7).astype(np.int16), "stcs(ldcg) int16"),
        ]
    return "; ".join(notes)


# ------------------------------------------------------------------------ records

PARTICLE = np.dtype([("x", np.float32), ("n", np.int8), ("m", np.float64)], align=True)
PACKED = np.dtype([("a", np.int16), ("b", np.float64), ("c", np.uint8)])


@case("api6 records", FOLDER)
def _records(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(200, 3000))
    p = np.zeros(n, PARTICLE)
    p["x"] = ctx.randn(n, np.float32)
    p["n"] = ctx.rng.integers(-128, 128, n)
    p["m"] = ctx.randn(n, np.float64)
    q = np.zeros((n, 2), PACKED)
    q["a"] = ctx.rng.integers(-2**15, 2**15, (n, 2))
    q["b"] = ctx.randn((n, 2), np.float64)
    q["c"] = ctx.rng.integers(0, 250, (n, 2))
    out = ctx.poison(n, np.float64)
    p0, q0 = p.copy(), q.copy()
    mod.records[_blocks(n), TPB](p, q, out)
    idx = np.arange(n)
    wq = q0.copy()
    wq["b"][:, 0] = q0["a"][:, 1]
    wq["c"][:, 1] = q0["c"][:, 1] + 3
    return "; ".join([
        _exact(p["x"], p0["x"] * np.float32(2), "p.x"),
        _exact(p["m"], p0["m"] + p0["n"], "p['m'] += r.n"),
        _exact(p["n"], (idx % 100).astype(np.int8), "p.n"),
        _exact(out, q0["b"][:, 0] + q0["a"][:, 1] * 0.5 + q0["c"][:, 1], "packed reads"),
        _exact(q["a"], wq["a"], "packed a"),
        _exact(q["b"], wq["b"], "packed b (unaligned)"),
        _exact(q["c"], wq["c"], "packed c"),
    ])


# ------------------------------------------------------------------------ numba.cuda.random
# numba-cuda's random.py transcribed with Python integers (raw draws, uniforms, jumps and
# seeding are exact); the normals use NumPy's float32 log/sqrt/cos where the GPU uses
# libdevice's (a few ulp apart), so they are compared with a tolerance.

_M64 = (1 << 64) - 1


def _next(s):
    s0, s1 = s
    r = (s0 + s1) & _M64
    s1 ^= s0
    rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & _M64  # noqa: E731
    return r, (rotl(s0, 55) ^ s1 ^ ((s1 << 14) & _M64), rotl(s1, 36))


def _jump(s):
    a0 = a1 = 0
    for word in (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922):
        for b in range(64):
            if word >> b & 1:
                a0, a1 = a0 ^ s[0], a1 ^ s[1]
            s = _next(s)[1]
    return a0, a1


def _unit64(x):
    return float(x >> 11) * (1.0 / (1 << 53))


def _normal(u1, u2, f64):
    u1, u2 = np.float32(u1), np.float32(u2)
    log = np.log(u1)                                     # float32 in both (numba's typing)
    if f64:
        return math.sqrt(-2.0 * float(log)) * math.cos(2 * math.pi * float(u2))
    return float(np.sqrt(np.float32(-2.0) * log) * np.cos(np.float32(2 * math.pi) * u2))


@case("api6 random_xoroshiro128p", FOLDER)
def _random(ctx):
    import pykc.random as pr
    mod = ctx.load()
    n = int(ctx.rng.integers(100, 600))
    seed = int(ctx.rng.integers(0, 2**63))
    states = pr.create_xoroshiro128p_states(n, seed, subsequence_start=int(ctx.rng.integers(0, 3)))
    start = states.copy()
    raw = ctx.poison((n, 5), np.uint64)
    f32 = ctx.poison((n, 6), np.float32)
    f64 = ctx.poison((n, 6), np.float64)
    mod.random_draws[_blocks(n), TPB](states, raw, f32, f64)
    want_raw = np.zeros((n, 5), np.uint64)
    want32 = np.zeros((n, 6), np.float64)
    want64 = np.zeros((n, 6), np.float64)
    want_states = np.zeros(n, pr.xoroshiro128p_dtype)
    for i in range(n):
        s = (int(start[i]["s0"]), int(start[i]["s1"]))
        for k in range(5):
            want_raw[i, k], s = _next(s)
        for k in range(3):
            x, s = _next(s)
            want32[i, 2 * k] = float(np.float32(_unit64(x)))
            x, s = _next(s)
            want64[i, 2 * k] = _unit64(x)
            a, s = _next(s)
            b, s = _next(s)
            want32[i, 2 * k + 1] = _normal(np.float32(_unit64(a)), np.float32(_unit64(b)), False)
            a, s = _next(s)
            b, s = _next(s)
            want64[i, 2 * k + 1] = _normal(np.float32(_unit64(a)), np.float32(_unit64(b)), True)
        want_states[i] = _jump(s) if i % 2 == 0 else s
    notes = [
        _exact(raw, want_raw, "xoroshiro128p_next"),
        _exact(f32[:, 0::2].astype(np.float64), want32[:, 0::2], "uniform_float32"),
        _exact(f64[:, 0::2], want64[:, 0::2], "uniform_float64"),
        _close(f32[:, 1::2], want32[:, 1::2], 2e-6, 2e-6, "normal_float32"),
        _close(f64[:, 1::2], want64[:, 1::2], 2e-7, 2e-7, "normal_float64"),
        _exact(states["s0"], want_states["s0"], "states s0 after draws and jumps"),
        _exact(states["s1"], want_states["s1"], "states s1 after draws and jumps"),
    ]
    # Seeding on the GPU (init_xoroshiro128p_state) against the host helper's SplitMix64.
    fresh = np.zeros(n, pr.xoroshiro128p_dtype)
    mod.random_init[_blocks(n), TPB](fresh, np.uint64(seed))
    want_init = np.array([pr._splitmix64((seed + i) & _M64) for i in range(n)], np.uint64)
    notes.append(_exact(fresh["s0"], want_init, "init_xoroshiro128p_state s0"))
    notes.append(_exact(fresh["s1"], want_init, "init_xoroshiro128p_state s1"))
    return "; ".join(notes)


# ------------------------------------------------------------------------ vector types

@case("api6 vectors", FOLDER)
def _vectors(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(200, 3000))
    fin = ctx.randn((n, 4), np.float32)
    f0 = fin.copy()
    iout = ctx.poison(n, np.int32)
    dout = ctx.poison(n, np.float64)
    mod.vectors[_blocks(n), TPB](fin, iout, dout)
    idx = np.arange(n)
    want = f0.copy()
    want[:, 0] = 2.5
    want[:, 1] = f0[:, 2]
    want[:, 2] = f0[:, 1] + f0[:, 0]
    p3 = f0[:, 3].astype(np.float64)
    return "; ".join([
        _exact(fin, want, "float32x2/float4/float32x4 from parts"),
        _exact(iout, (idx * 10 - 3 * idx).astype(np.int32), "int2"),
        _close(dout, p3 * 2 + 1.5 * idx + idx * p3, 1e-15, 1e-12,
               "double3 through a device function"),
    ])


# ------------------------------------------------------------------- ufuncs with out

@case("api6 ufuncs with an output array", FOLDER)
def _ufuncs(ctx):
    mod = ctx.load()
    x = (np.arange(10, dtype=np.float32) - 5)
    r = np.zeros_like(x)
    mod.ufunc_doc[1, 1](r, x)
    n, m = int(ctx.rng.integers(50, 400)), int(ctx.rng.integers(3, 40))
    xs = ctx.randn((n, m), np.float32)
    xs[0, 0] = np.nan
    b = ctx.randn(m, np.float32)
    ints = ctx.rng.integers(0, 30000, (n, m)).astype(np.int16)
    hyp = ctx.poison((n, m), np.float64)
    lg = ctx.poison((n, m), np.float32)
    nan = np.zeros((n, m), np.bool_)
    mod.ufunc_rows[_blocks(n), TPB](xs, b, hyp, ints, lg, nan)
    row = ctx.randn(m, np.float64)
    out = ctx.poison((5, m), np.float64)
    inplace = ctx.randn(m, np.float32)
    want_exp = np.exp(inplace)
    mod.ufunc_broadcast[1, 1](out, row, np.float64(0.75), inplace)
    return "; ".join([
        _close(r, np.sin(x), 1e-6, 1e-7, "np.sin(x, r)"),
        _close(hyp, np.hypot(xs, b).astype(np.float64), 1e-6, 1e-7,
               "np.hypot(row, b, out=) float32 loop into float64"),
        _close(lg, np.log1p(ints.astype(np.float32)), 1e-6, 1e-7, "np.log1p of int16 (f->f)"),
        _exact(nan, np.isnan(xs), "np.isnan into bool"),
        _close(out, np.broadcast_to(np.arctan2(row, 0.75), (5, m)), 1e-15, 1e-15,
               "np.arctan2 broadcast onto 2-D"),
        _close(inplace, want_exp, 1e-6, 1e-7, "np.exp in place"),
    ])


@case("api6 NumPy ufuncs on numbers", FOLDER)
def _numpy_scalar_ufuncs(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(200, 3000))
    a = ctx.randn(n, np.float32)
    b = ctx.randn(n, np.float32)
    a[:8] = [np.nan, 1, np.nan, 0.0, -0.0, 2, -3, np.inf]
    b[:8] = [1, np.nan, np.nan, -0.0, 0.0, 2, 5, np.nan]
    p = ctx.rng.integers(-1000, 1000, n).astype(np.int32)
    q = ctx.rng.integers(1, 50, n).astype(np.int32) * np.where(ctx.rng.random(n) < 0.5, -1, 1)
    q = q.astype(np.int32)
    p[:3] = [0, -7, 7]
    fo = ctx.poison((n, 10), np.float32)
    io = ctx.poison((n, 6), np.int64)
    mod.numpy_scalar_ufuncs[_blocks(n), TPB](a, b, p, q, fo, io)
    with np.errstate(all="ignore"):
        want_f = np.stack([np.maximum(a, b), np.minimum(a, b), np.fmax(a, b), np.fmin(a, b),
                           np.sign(a), np.abs(a), (a + b) + a * b, a / b, a * a + b,
                           np.power(a, 2)], axis=1).astype(np.float32)
    want_i = np.stack([np.sign(p), np.maximum(p, q), np.floor_divide(p, q), np.remainder(p, q),
                       np.abs(p), p.astype(np.int64) - q], axis=1).astype(np.int64)
    return "; ".join([
        _exact(fo[:, :6], want_f[:, :6], "maximum/minimum/fmax/fmin/sign/abs (NaN rules)"),
        _close(fo[:, 6:], want_f[:, 6:], 1e-6, 1e-6, "add/multiply/true_divide/square/negative/power"),
        _exact(io, want_i, "integer sign/maximum/floor_divide/remainder/absolute/subtract"),
    ])
