"""The kernels of tests/gpu/kernels/tile_kernels19.py (ct.mma_scaled, float4_e2m1fn) with
NumPy references, shared by tests/tile_sim/tile_sim.py (CPU) and
tests/gpu/cases/tile_cases19.py (GPU).

`mma_scaled_cases(run, arr, rng)` yields (what, got, want, kind); `arr(a, name)` passes an
array of 8-bit codes (uint8) as the float8 dtype `name` (None: as it is)."""
import numpy as np

CONSTS = {"scaled_e4m3": (32, 32, 64), "scaled_e5m2_batched": (2, 16, 16, 128),
          "scaled_f4_e4m3": (64, 64, 64), "scaled_f4_e8m0": (16, 32, 64), "f4_codec": (128,), "scaled_swizzled": (128, 128, 128)}

# float4_e2m1fn: code -> value (bit 3 the sign).
F4 = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0,
               -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0], np.float32)


def _decode8(codes, name):
    """8-bit float codes (uint8) of `name` as float64, in NumPy alone."""
    c = codes.astype(np.int64)
    if name == "float8_e8m0fnu":
        return np.where(c == 0xFF, np.nan, np.ldexp(1.0, c - 127))
    mbits, bias = (3, 7) if name == "float8_e4m3fn" else (2, 15)
    sign = np.where(c & 0x80, -1.0, 1.0)
    e = (c >> mbits) & ((0x7F >> mbits))
    m = c & ((1 << mbits) - 1)
    v = np.where(e == 0, np.ldexp(m.astype(np.float64), 1 - bias - mbits),
                 np.ldexp((m + (1 << mbits)).astype(np.float64), e - bias - mbits))
    return sign * v


def _unpack4(packed, shape):
    """Bytes of two float4 codes each (the first in the low nibble) as float64 values."""
    codes = np.stack([packed & 0xF, packed >> 4], axis=-1).reshape(shape)
    return F4[codes].astype(np.float64)


def _encode4(x):
    """float32 -> float4_e2m1fn codes: nearest (ties to the even code), saturating at 6."""
    mags = F4[:8].astype(np.float64)
    a = np.minimum(np.abs(x.astype(np.float64)), 6.0)
    d = np.abs(a[:, None] - mags[None, :])
    best = d.min(axis=1, keepdims=True)
    ties = d == best
    # Among equally near codes, the even one (mantissa bit 0).
    code = np.where(ties[:, ::2].any(axis=1), np.argmax(ties & (np.arange(8) % 2 == 0), axis=1),
                    np.argmax(ties, axis=1))
    return (code | (np.signbit(x).astype(np.int64) << 3)).astype(np.uint8)


def _scale_codes(rng, shape, lo=120, hi=134):
    """E8M0 codes of 2^-7 .. 2^6."""
    return rng.integers(lo, hi, shape).astype(np.uint8)


def _f8_codes(rng, shape, name):
    """Codes of finite `name` values (no NaN or infinity)."""
    c = rng.integers(0, 256, shape).astype(np.uint8)
    if name == "float8_e4m3fn":
        return np.where((c & 0x7F) == 0x7F, c ^ 1, c).astype(np.uint8)
    return np.where((c & 0x7C) == 0x7C, c & 0x83, c).astype(np.uint8)


def _swizzle_32_4_4(scale):
    """(M, K_s) scales in tcgen05's 32x4x4 order, as cuTile's docs build them on the host:
    (M // 128, K_s // 4, 32, 16)."""
    m, ks = scale.shape
    s5 = scale.reshape(m // 128, 4, 32, ks // 4, 4).transpose(0, 3, 2, 1, 4)
    return np.ascontiguousarray(s5).reshape(m // 128, ks // 4, 32, 16)


def _close(got, want, xa, xb):
    """got and want over the largest sum of |terms| (float32 sums differ from float64's
    by a few ulps of that), compared to 1e-5."""
    bound = float((np.abs(xa) @ np.abs(xb)).max()) + 1.0
    return np.asarray(got, np.float64) / bound, want / bound, ("close", 1e-5)


def mma_scaled_cases(run, arr, rng):
    # E4M3 x E8M0, blocks of 32: 64x256 @ 256x32 over 2 row blocks, onto c.
    m, k, n = 64, 256, 32
    a = _f8_codes(rng, (m, k), "float8_e4m3fn")
    b = _f8_codes(rng, (k, n), "float8_e4m3fn")
    sa, sb = _scale_codes(rng, (m, k // 32)), _scale_codes(rng, (k // 32, n))
    c0 = rng.standard_normal((m, n)).astype(np.float32)
    c = c0.copy()
    run("scaled_e4m3", m // 32, arr(a, "float8_e4m3fn") + arr(sa, "float8_e8m0fnu") + arr(b, "float8_e4m3fn") +
        arr(sb, "float8_e8m0fnu") + arr(c, None))
    xa = _decode8(a, "float8_e4m3fn") * np.repeat(_decode8(sa, "float8_e8m0fnu"), 32, axis=1)
    xb = _decode8(b, "float8_e4m3fn") * np.repeat(_decode8(sb, "float8_e8m0fnu"), 32, axis=0)
    yield ("ct.mma_scaled of float8_e4m3fn by float8_e8m0fnu (B = 32; 64x256 @ 256x32 onto c)",
           *_close(c, xa @ xb + c0, xa, xb))

    # E5M2 x E8M0, a 2-D x against a batch of 2 y.
    tb, m, k, n = 2, 16, 128, 16
    a = _f8_codes(rng, (m, k), "float8_e5m2")
    b = _f8_codes(rng, (tb, k, n), "float8_e5m2")
    sa, sb = _scale_codes(rng, (m, k // 32)), _scale_codes(rng, (tb, k // 32, n))
    c = np.full((tb, m, n), np.nan, np.float32)
    run("scaled_e5m2_batched", 1, arr(a, "float8_e5m2") + arr(sa, "float8_e8m0fnu") + arr(b, "float8_e5m2") +
        arr(sb, "float8_e8m0fnu") + arr(c, None))
    xa = _decode8(a, "float8_e5m2") * np.repeat(_decode8(sa, "float8_e8m0fnu"), 32, axis=1)
    xb = _decode8(b, "float8_e5m2") * np.repeat(_decode8(sb, "float8_e8m0fnu"), 32, axis=1)
    yield "ct.mma_scaled of float8_e5m2, 2-D x by a batch of 2 y (16x128 @ 2x128x16)", *_close(c, xa @ xb, xa, xb)

    # float4 operands, packed; E4M3 scales (blocks of 16; 64x64 tiles, tensor cores) and E8M0
    # scales (blocks of 32; 16x32 tiles, CUDA cores).
    for kernel, scale, block, m, k, n, tm in (("scaled_f4_e4m3", "float8_e4m3fn", 16, 128, 64, 64, 64),
                                              ("scaled_f4_e8m0", "float8_e8m0fnu", 32, 32, 64, 32, 16)):
        pa = rng.integers(0, 256, (m, k // 2)).astype(np.uint8)
        pb = rng.integers(0, 256, (k, n // 2)).astype(np.uint8)
        if scale == "float8_e4m3fn":  # positive normal E4M3 scales: 2^-4 .. 2^4 with mantissas
            sa = rng.integers(0x18, 0x58, (m, k // block)).astype(np.uint8)
            sb = rng.integers(0x18, 0x58, (k // block, n)).astype(np.uint8)
        else:
            sa, sb = _scale_codes(rng, (m, k // block)), _scale_codes(rng, (k // block, n))
        c0 = rng.standard_normal((m, n)).astype(np.float32)
        c = c0.copy() if kernel == "scaled_f4_e8m0" else np.full((m, n), np.nan, np.float32)
        run(kernel, m // tm, arr(pa, None) + arr(sa, scale) + arr(pb, None) + arr(sb, scale) + arr(c, None))
        xa = _unpack4(pa, (m, k)) * np.repeat(_decode8(sa, scale), block, axis=1)
        xb = _unpack4(pb, (k, n)) * np.repeat(_decode8(sb, scale), block, axis=0)
        want = xa @ xb + (c0 if kernel == "scaled_f4_e8m0" else 0)
        yield f"ct.mma_scaled of packed float4_e2m1fn by {scale} (B = {block})", *_close(c, want, xa, xb)

    # cuTile's block_scaled_matmul_kernel sizes (128x128x128 tiles, swizzled scales):
    # 256x256 @ 256x256 over a 2x2 grid, two K steps.
    m = k = n = 256
    a = _f8_codes(rng, (m, k), "float8_e4m3fn")
    b = _f8_codes(rng, (k, n), "float8_e4m3fn")
    sa, sbt = _scale_codes(rng, (m, k // 32)), _scale_codes(rng, (n, k // 32))  # B's scales N-major
    c = np.full((m, n), np.nan, np.float32)
    run("scaled_swizzled", (2, 2), arr(a, "float8_e4m3fn") + arr(_swizzle_32_4_4(sa), "float8_e8m0fnu") +
        arr(b, "float8_e4m3fn") + arr(_swizzle_32_4_4(sbt), "float8_e8m0fnu") + arr(c, None))
    xa = _decode8(a, "float8_e4m3fn") * np.repeat(_decode8(sa, "float8_e8m0fnu"), 32, axis=1)
    xb = _decode8(b, "float8_e4m3fn") * np.repeat(_decode8(sbt, "float8_e8m0fnu").T, 32, axis=0)
    yield "ct.mma_scaled at 128x128x128 tiles with swizzled scales (cuTile's scaled_matmul)", *_close(c, xa @ xb, xa, xb)

    # float32 -> float4 -> packed bytes -> float32: the 16 values, ties, and beyond +-6.
    tile, blocks = 128, 4
    nn = tile * blocks
    x = (rng.standard_normal(nn) * 3).astype(np.float32)
    x[:16] = F4
    x[16:24] = [0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, -5.0]  # ties: to the even code
    x[24:28] = [6.5, 100.0, -1e30, 0.2]
    packed = np.zeros(nn // 2, np.uint8)
    back = np.full(nn, np.nan, np.float32)
    consts = np.full(4 * blocks, np.nan, np.float32)
    run("f4_codec", blocks, arr(x, None) + arr(packed, None) + arr(back, None) + arr(consts, None))
    yield "float4_e2m1fn constants (5.0 -> 4, -2.6 -> -3)", consts, np.tile(np.float32([4, 4, -3, -3]), blocks), "exact"
    codes = _encode4(x)
    yield "float32 -> float4_e2m1fn packed two per byte (nearest even, saturating)", packed, \
        (codes[0::2] | (codes[1::2] << 4)).astype(np.uint8), "exact"
    yield "float4_e2m1fn -> float32 (unpacked)", back, F4[codes], "exact"
