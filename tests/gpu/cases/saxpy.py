"""saxpy (docs/ABI.md): out[i] = a*x[i] + y[i], float32[::1], grid-stride.

Compiled output: <root>/saxpy, from tests/gpu/kernels/saxpy.py (or the nvcc fixture).
Runs through both backends and all three array paths, plus the argument checks.
"""

import numpy as np

import pykc
from harness import BACKENDS, VIAS, case


def _run(ctx, backend, via_name, n, grid, block=256, stream=False):
    mod = ctx.load(backend)
    via = ctx.via(via_name)
    a = np.float32(ctx.rng.uniform(-4, 4))
    x, y = ctx.randn(n, np.float32), ctx.randn(n, np.float32)
    dx, dy, dout = via.to_dev(x), via.to_dev(y), via.to_dev(ctx.poison(n, np.float32))
    if stream and via_name == "cupy":
        s = via.xp.cuda.Stream(non_blocking=True)
        mod.saxpy[grid, block, s, 0](a, dx, dy, dout)
        s.synchronize()
    else:
        mod.saxpy[grid, block](a, dx, dy, dout)
    via.sync()
    want = (np.float64(a) * x.astype(np.float64) + y).astype(np.float32)
    return ctx.compare(via.to_host(dout), want)


for _be in BACKENDS:
    for _via in VIAS:
        # Many blocks (one element per thread) and few blocks (the grid-stride loop).
        def _saxpy(ctx, be=_be, via=_via):
            n = int(ctx.rng.integers(1 << 20, 1 << 22))
            d1 = _run(ctx, be, via, n, (n + 255) // 256)
            _run(ctx, be, via, n, 132)
            _run(ctx, be, via, 1, 1, 32)
            _run(ctx, be, via, 1000, (2, 1, 1), (64, 2))  # 3-d launch shapes
            return f"n={n} {d1}"
        case(f"saxpy[{_be},{_via}]", "saxpy")(_saxpy)


@case("saxpy[cuda.core,cupy,user stream]", "saxpy")
def saxpy_stream(ctx):
    return _run(ctx, "cuda.core", "cupy", 1 << 20, 512, stream=True)


@case("saxpy[cupy,cupy,user stream]", "saxpy")
def saxpy_stream_cupy(ctx):
    return _run(ctx, "cupy", "cupy", 1 << 20, 512, stream=True)


# ---------------------------------------------------------------------- argument checks

for _be in BACKENDS:
    for _via in VIAS:
        def _refuse_f64(ctx, be=_be, via_name=_via):
            mod, via = ctx.load(be), ctx.via(via_name)
            n = 4096
            out = via.to_dev(ctx.poison(n, np.float32))
            x64 = via.to_dev(ctx.randn(n, np.float64))
            y = via.to_dev(ctx.randn(n, np.float32))
            msg = ctx.expect_error(pykc.ArgumentError,
                                   lambda: mod.saxpy[16, 256](1.0, x64, y, out),
                                   "saxpy", "'x'", "float32[::1]", "float64")
            if not np.all(np.isnan(via.to_host(out))):
                raise AssertionError("out was written although the launch was refused")
            return msg
        case(f"saxpy refuses float64[{_be},{_via}]", "saxpy")(_refuse_f64)

        def _refuse_strided(ctx, be=_be, via_name=_via):
            mod, via = ctx.load(be), ctx.via(via_name)
            n = 4096
            out = via.to_dev(ctx.poison(n, np.float32))
            x = via.to_dev(ctx.randn(n, np.float32))
            ybig = via.to_dev(ctx.randn(2 * n, np.float32))
            return ctx.expect_error(pykc.ArgumentError,
                                    lambda: mod.saxpy[16, 256](1.0, x, ybig[::2], out),
                                    "saxpy", "'y'", "float32[::1]", "strides (2,)")
        case(f"saxpy refuses strided[{_be},{_via}]", "saxpy")(_refuse_strided)


@case("saxpy refuses bad launches", "saxpy")
def saxpy_bad_launch(ctx):
    mod = ctx.load()
    x = ctx.randn(8, np.float32)
    ctx.expect_error(ValueError, lambda: mod.saxpy[1, 2048](1.0, x, x, x.copy()), "2048")
    ctx.expect_error(ValueError, lambda: mod.saxpy[0, 32], "grid")
    ctx.expect_error(pykc.ArgumentError, lambda: mod.saxpy[1, 32](1.0, x, x), "4 arguments")
    return ctx.expect_error(pykc.ArgumentError,
                            lambda: mod.saxpy[1, 32](1.0, x, x, x.reshape(2, 4)), "ndim")
