"""The kernels of tests/gpu/kernels/tile_kernels8.py (8-bit floats) with references from
ml_dtypes (on the CPU) or PyTorch (on the GPU host), shared by tests/tile_sim/tile_sim.py
and tests/gpu/cases/tile_cases8.py.

`float8_cases(run, arr, rng)` yields (what, got, want, kind); `arr(a, name)` passes an
array of 8-bit codes (uint8) as the float8 dtype `name` (None: as it is)."""
import numpy as np

CONSTS = {"decode": (128,), "encode": (128,), "mma_e4m3": (64, 64, 32), "mma_e5m2": (64, 64, 32)}
MAX = {"float8_e4m3fn": 448.0, "float8_e5m2": 57344.0}
SATURATED = {"float8_e4m3fn": 0x7E, "float8_e5m2": 0x7B}


def _reference(name):
    """(decode: uint8 codes -> float32, encode: float32 -> uint8 codes, round to nearest
    even, for values within the format's range)."""
    try:
        import ml_dtypes
        dt = getattr(ml_dtypes, name)
        return (lambda c: c.view(dt).astype(np.float32),
                lambda x: x.astype(dt).view(np.uint8))
    except ImportError:
        import torch
        td = getattr(torch, name)
        return (lambda c: torch.from_numpy(c.copy()).view(td).float().numpy(),
                lambda x: torch.from_numpy(x.copy()).to(td).view(torch.uint8).numpy())


def _e8m0_codes(x):
    """E8M0 (2^(code - 127)) of |x| rounded up; 0 for zero, 0xFF for NaN, at most 0xFE."""
    m, e = np.frexp(np.abs(x).astype(np.float64))
    code = np.where(m == 0.5, e - 1, e) + 127
    code = np.where(x == 0, 0, np.clip(code, 0, 0xFE))
    code = np.where(np.isinf(x), 0xFE, code)
    return np.where(np.isnan(x), 0xFF, code).astype(np.uint8)


def float8_cases(run, arr, rng):
    tile, blocks = 128, 2
    codes = np.arange(256, dtype=np.uint8)
    out = np.full((3, 256), -1.0, np.float32)
    run("decode", blocks, arr(codes, "float8_e4m3fn") + arr(codes, "float8_e5m2") +
        arr(codes, "float8_e8m0fnu") + arr(out, None))
    for row, name in ((0, "float8_e4m3fn"), (1, "float8_e5m2")):
        want = _reference(name)[0](codes)
        yield f"{name} -> float32, all 256 codes", out[row], want, "exact-nan"
    e8 = np.where(codes == 0xFF, np.nan, np.ldexp(1.0, codes.astype(np.int64) - 127)).astype(np.float32)
    yield "float8_e8m0fnu -> float32, all 256 codes", out[2], e8, "exact-nan"

    # float32 -> 8-bit: every binade the formats cover, their denormals, ties, and beyond.
    n = tile * 8
    x = (rng.standard_normal(n) * np.exp2(rng.integers(-24, 18, n))).astype(np.float32)
    x[:6] = [np.inf, -np.inf, np.nan, 0.0, -0.0, 464.0]  # 464: E4M3's tie past its largest value
    x[6:10] = [0.5 * 2.0 ** -9, 1.5 * 2.0 ** -9, 2.5 * 2.0 ** -9, 2.0 ** -127]  # ties among E4M3's denormals
    blocks = n // tile
    a = np.zeros(n, np.uint8)
    b = np.zeros(n, np.uint8)
    c = np.zeros(n, np.uint8)
    run("encode", blocks, arr(x, None) + arr(a, "float8_e4m3fn") + arr(b, "float8_e5m2") + arr(c, "float8_e8m0fnu"))
    for got, name in ((a, "float8_e4m3fn"), (b, "float8_e5m2")):
        decode, encode = _reference(name)
        big = np.abs(x) > MAX[name]
        inside = ~big & ~np.isnan(x)
        want = np.where(inside, encode(np.where(inside, x, 0).astype(np.float32)), 0)
        want = np.where(big, SATURATED[name] | (np.signbit(x).astype(np.uint8) << 7), want)
        # Past the largest value but rounding to it (E4M3: below 464) is that value: same code.
        yield f"float32 -> {name} (round to nearest even, saturating)", np.where(np.isnan(x), 0, got), \
            np.where(np.isnan(x), 0, want).astype(np.uint8), "exact"
        yield f"float32 NaN -> {name} NaN", bool(np.all(np.isnan(decode(got[np.isnan(x)])))), True, "bool"
    yield "float32 -> float8_e8m0fnu (rounded up)", c, _e8m0_codes(x), "exact"

    # FP8 matrix products: small values (exact products and sums), K of 96 (a ragged tile).
    for kernel, name, vals in (("mma_e4m3", "float8_e4m3fn", [-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2]),
                               ("mma_e5m2", "float8_e5m2", [-2, -1, -0.5, 0, 0.5, 1, 2])):
        decode, encode = _reference(name)
        m, k, nn = 128, 96, 64
        av = rng.choice(np.array(vals, np.float32), (m, k))
        bv = rng.choice(np.array(vals, np.float32), (k, nn))
        ca, cb = encode(av), encode(bv)
        out = np.full((m, nn), np.nan, np.float32)
        run(kernel, m // 64, arr(ca, name) + arr(cb, name) + arr(out, None))
        want = (decode(ca).astype(np.float64) @ decode(cb).astype(np.float64)).astype(np.float32)
        yield f"ct.mma of {name} tiles (128x96 @ 96x64, float32 accumulation)", out, want, "exact"
