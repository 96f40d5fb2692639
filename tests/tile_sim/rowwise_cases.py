"""The kernels of tests/gpu/kernels/tile_kernels11.py (softmax, layer norm, RMS norm and
column statistics of (B, N) tiles, several rows a block) with float64 NumPy references,
shared by tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases11.py.

`rowwise_cases(run, arr, rng, bf16=True)` yields (what, got, want, kind); `run(symbol,
grid, args)` runs one specialisation, named by its symbol (`softmax__f32a2C_f32a2C__KB_4__KN_1024`:
the kernel, its arrays' dtypes, B and N); `arr(a)` passes an array."""
import numpy as np

try:
    from ml_dtypes import bfloat16
except ImportError:  # the GPU host may lack it: no bfloat16 cases there
    bfloat16 = None

B_VALUES = (1, 2, 4, 8, 16, 64)
N_VALUES = (128, 1024)
CODES = {np.dtype(np.float32): "f32", np.dtype(np.float16): "f16"}
if bfloat16 is not None:
    CODES[np.dtype(bfloat16)] = "bf16"
# Tolerances against float64: float32 math; 16-bit outputs round once (2^-8 relative for
# bfloat16) after float32 math.
TOL = {"f32": 2e-5, "f16": 2e-3, "bf16": 1.6e-2}


def symbol(kernel, dtypes, b, n):
    return f"{kernel}__{'_'.join(dtypes)}__KB_{b}__KN_{n}"


def _rows(b):
    # Two whole blocks and a ragged third (one block of one row when B is 1 or 2: three).
    return 3 * b - 1 if b > 2 else 3


def _float32(arr):
    """A float32 argument: its bits on the simulator (whose arrays are pointer+shape+strides)."""
    if len(arr(np.zeros(1, np.float32))) > 1:
        return lambda v: [int(np.float32(v).view(np.uint32))]
    return lambda v: [np.float32(v)]


def rowwise_cases(run, arr, rng, bf16=True):
    f32 = _float32(arr)
    dtypes = [np.float32, np.float16] + ([bfloat16] if bf16 and bfloat16 is not None else [])
    for n in N_VALUES:
        for b in B_VALUES:
            rows = _rows(b)
            grid = -(-rows // b)
            for cols in (n, n - 3):
                for dt in dtypes:
                    c = CODES[np.dtype(dt)]
                    tol = ("close", TOL[c])
                    if b == 64 and (cols != n or c != "f32"):
                        continue  # the biggest tile once: the simulator's time
                    x64 = rng.standard_normal((rows, cols)) * 3
                    x = x64.astype(dt)
                    xf = x.astype(np.float64)
                    what = f"B={b} N={n} cols={cols} {c}"
                    # softmax: float32, float16, bfloat16.
                    y = np.full((rows, cols), np.nan, dt)
                    run(symbol("softmax", [c + "a2C"] * 2, b, n), grid, arr(x) + arr(y))
                    e = np.exp(xf - xf.max(axis=1, keepdims=True))
                    yield f"softmax {what}", y, e / e.sum(axis=1, keepdims=True), tol
                    mean = xf.mean(axis=1, keepdims=True)
                    var = ((xf - mean) ** 2).mean(axis=1, keepdims=True)
                    if c in ("f32", "f16"):
                        w = (rng.random(cols) + 0.5).astype(dt)
                        bias = rng.standard_normal(cols).astype(dt)
                        y = np.full((rows, cols), np.nan, dt)
                        run(symbol("layer_norm", [c + "a2C", c + "a1C", c + "a1C", c + "a2C", "f32"], b, n), grid,
                            arr(x) + arr(w) + arr(bias) + arr(y) + f32(1e-5))
                        want = (xf - mean) / np.sqrt(var + 1e-5) * w.astype(np.float64) + bias.astype(np.float64)
                        yield f"layer_norm {what}", y, want, ("close", TOL[c] * 4)
                    if c in ("f32", "bf16"):
                        w = (rng.random(cols) + 0.5).astype(dt)
                        y = np.full((rows, cols), np.nan, dt)
                        rstd = np.full(grid * b, np.nan, np.float32)
                        run(symbol("rms_norm", [c + "a2C", c + "a1C", c + "a2C", "f32a1C", "f32"], b, n), grid,
                            arr(x) + arr(w) + arr(y) + arr(rstd) + f32(1e-6))
                        r = 1 / np.sqrt((xf * xf).mean(axis=1) + 1e-6)
                        yield f"rms_norm rstd {what}", rstd[:rows], r, ("close", 2e-5)
                        yield f"rms_norm {what}", y, xf * r[:, None] * w.astype(np.float64), ("close", TOL[c] * 2)
            # Column statistics (float32, whole tiles): sums along axis 0, the tile minus its
            # column maxima plus its row sums.
            x = rng.standard_normal((grid * b, n)).astype(np.float32)
            sums = np.full(grid * n, np.nan, np.float32)
            out = np.full_like(x, np.nan)
            run(symbol("column_stats", ["f32a2C", "f32a1C", "f32a2C"], b, n), grid, arr(x) + arr(sums) + arr(out))
            blocks = x.astype(np.float64).reshape(grid, b, n)
            yield f"column_stats sums B={b} N={n}", sums, blocks.sum(axis=1).reshape(-1), ("close", 1e-4)
            want = blocks - blocks.max(axis=1, keepdims=True) + blocks.sum(axis=2, keepdims=True)
            yield f"column_stats centered B={b} N={n}", out, want.reshape(grid * b, n), ("close", 1e-3)
