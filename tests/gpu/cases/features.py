"""Loader features on the GPU: strided 2-D arrays (strides in elements), bool/int32/int64
scalars, overload dispatch, >48 KiB dynamic shared memory, cooperative launch.

Compiled output: <root>/features, from tests/gpu/kernels/features.py (or the nvcc fixture).
"""

import numpy as np

import pykc
from harness import BACKENDS, VIAS, case

for _be in BACKENDS:
    for _via in VIAS:
        def _axpby2d(ctx, be=_be, via_name=_via):
            """x: a step-sliced view; out: a transposed (F-order) view: every stride is
            used, and NumPy views are copied back into place."""
            mod, via = ctx.load(be), ctx.via(via_name)
            m, n = int(ctx.rng.integers(100, 700)), int(ctx.rng.integers(100, 700))
            xbig = ctx.randn((2 * m + 1, 3 * n), np.float64)
            out0 = ctx.randn((n, m), np.float64)
            dxbig, dout0 = via.to_dev(xbig), via.to_dev(out0)
            dx, dout = dxbig[1::2, ::3], dout0.T           # shapes (m, n), strided
            alpha, beta = float(ctx.rng.uniform(-2, 2)), int(ctx.rng.integers(-5, 5))
            mod.axpby2d[((m + 15) // 16, (n + 15) // 16), (16, 16)](dx, dout, alpha, beta,
                                                                    True)
            via.sync()
            want = -(alpha * xbig[1::2, ::3] + beta * out0.T)
            d = ctx.compare(via.to_host(dout0).T, want)
            ctx.expect_error(pykc.ArgumentError,
                             lambda: mod.axpby2d[1, 1](dx, dout, alpha, 2**31, True),
                             "axpby2d", "'beta'", "out of range for int32")
            ctx.expect_error(pykc.ArgumentError,
                             lambda: mod.axpby2d[1, 1](dx, dout, alpha, 1, 1), "'negate'")
            return f"{m}x{n} {d}"
        case(f"axpby2d strided[{_be},{_via}]", "features")(_axpby2d)


for _be in BACKENDS:
    def _scale(ctx, be=_be):
        """Two signatures: float32 and float64 arrays must reach their own entry."""
        mod = ctx.load(be)
        out = []
        for dt in (np.float32, np.float64):
            x = ctx.randn(100_003, dt)
            s = dt(ctx.rng.uniform(-3, 3))
            got = x.copy()
            mod.scale[64, 256](got, s)
            out.append(ctx.compare(got, (x.astype(np.float64) * s).astype(dt), dt.__name__))
        ctx.expect_error(pykc.ArgumentError, lambda: mod.scale[1, 32](np.ones(4, np.int32), 1),
                         "no signature of kernel 'scale'", "float32[::1]", "float64[::1]")
        return "; ".join(out)
    case(f"scale overloads[{_be}]", "features")(_scale)

    def _iota64(ctx, be=_be):
        """An int64 scalar beyond 2**32 and int64 output: nothing narrowed to 32 bits."""
        mod = ctx.load(be)
        n = int(ctx.rng.integers(1000, 100_000))
        base = (1 << 40) + int(ctx.rng.integers(0, 1 << 20))
        out = ctx.poison(n, np.int64)
        mod.iota64[32, 128](out, base)
        return ctx.compare(out, base + np.arange(n, dtype=np.int64))
    case(f"iota64 int64 scalar[{_be}]", "features")(_iota64)

    def _block_reverse(ctx, be=_be):
        """64 KiB of dynamic shared memory per block (needs the opt-in attribute)."""
        mod = ctx.load(be)
        m, blocks = 16384, 8
        x = ctx.randn(m * blocks, np.float32)
        out = ctx.poison(m * blocks, np.float32)
        mod.block_reverse[blocks, 256, None, m * 4](x, out, m)
        return ctx.compare(out, x.reshape(blocks, m)[:, ::-1].ravel()) + " (64 KiB dyn smem)"
    case(f"block_reverse dynamic shared[{_be}]", "features")(_block_reverse)

    def _grid_sync(ctx, be=_be):
        """Cooperative kernel (manifest cooperative: true): grid-wide sync between phases."""
        mod = ctx.load(be)
        n = int(ctx.rng.integers(100_000, 1_000_000))
        x = ctx.randn(n, np.float32)
        tmp, out = ctx.poison(n, np.float32), ctx.poison(n, np.float32)
        mod.rotate_grid_sync[64, 256](x, tmp, out)  # 64 blocks: co-resident anywhere
        d = ctx.compare(out, np.roll(2 * x, -1)) + f" n={n}"
        # Proof that the launch is cooperative: a grid that cannot be co-resident is
        # refused (cuda.core checks it; the loader turns CuPy's silent shrink into an
        # error), where a plain launch would run it and grid.sync() would misbehave.
        try:
            mod.rotate_grid_sync[100_000, 1024](x, tmp, out)
        except Exception as e:  # ValueError, or the driver's COOPERATIVE_LAUNCH_TOO_LARGE
            if not any(m in str(e) for m in ("exceeds", "COOPERATIVE_LAUNCH_TOO_LARGE")):
                raise
        else:
            raise AssertionError("an oversized cooperative grid was launched")
        return d
    case(f"rotate_grid_sync cooperative[{_be}]", "features")(_grid_sync)
