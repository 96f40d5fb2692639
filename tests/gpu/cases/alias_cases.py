"""Alias versioning (docs/compile.md): the kernels of tests/gpu/kernels/alias_kernels.py
with disjoint arrays (the no-alias body, whose loads run ahead of its stores) and with
overlapping views of one buffer (the original body). Overlapping scenarios launch a
single thread, so the whole grid-stride loop runs in order and NumPy's sequential
semantics define the result (numba's as well); had the check picked the no-alias body,
loads would run up to 4 elements ahead of the stores and read stale values.

Compiled output: <root>/alias_kernels, from
    pykc compile tests/gpu/kernels/alias_kernels.py --arch sm_90 -o <root>/alias_kernels
tests/gpu/host_check_alias.py runs the same scenarios on the host (SCENARIOS below).
"""

import numpy as np

try:
    from harness import case
except ImportError:                     # imported by a host tool without the harness
    def case(name, folder):
        return lambda fn: fn

FOLDER = "alias_kernels"


# ------------------------------------------------------------------- sequential references

def saxpy_ref(a, x, y, out):
    a = np.float32(a)
    for i in range(x.shape[0]):
        out[i] = a * x[i] + y[i]


def add2d_ref(a, b, out):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            out[i, j] = 0.5 * a[i, j] + b[i, j]


REFS = {"saxpy": saxpy_ref, "saxpy_any": saxpy_ref, "add2d": add2d_ref}


# -------------------------------------------------------------------------------- scenarios
# Each: (name, kernel, overlapping, make) with make(rng) -> (buffers, views); views(bufs)
# gives the kernel's arguments as views of the buffers (NumPy or CuPy alike).

def _f32(rng, n):
    return rng.standard_normal(n).astype(np.float32)


def _saxpy_disjoint(rng):
    n = int(rng.integers(3000, 5000))
    bufs = {"x": _f32(rng, n), "y": _f32(rng, n), "out": np.full(n, np.nan, np.float32)}
    return bufs, lambda b: (np.float32(0.5), b["x"], b["y"], b["out"])


def _saxpy_out_is_x(rng):
    n = int(rng.integers(3000, 5000))
    bufs = {"x": _f32(rng, n), "y": _f32(rng, n)}
    return bufs, lambda b: (np.float32(0.5), b["x"], b["y"], b["x"])


def _saxpy_shifted(rng):
    # out = buf[1:], x = buf[:-1]: out[i] = a*out[i-1] + y[i], a recurrence.
    n = int(rng.integers(1000, 1500))
    bufs = {"buf": _f32(rng, n + 1), "y": _f32(rng, n)}
    return bufs, lambda b: (np.float32(0.5), b["buf"][:-1], b["y"], b["buf"][1:])


def _saxpy_shifted_back(rng):
    # out = buf[:-2], y = buf[2:]: y's element is overwritten two steps after it is read.
    n = int(rng.integers(1000, 1500))
    bufs = {"buf": _f32(rng, n + 2), "x": _f32(rng, n)}
    return bufs, lambda b: (np.float32(0.5), b["x"], b["buf"][2:], b["buf"][:-2])


def _saxpy_inputs_overlap(rng):
    # Only x and y overlap (both read): the no-alias body is still allowed.
    n = int(rng.integers(3000, 5000))
    bufs = {"buf": _f32(rng, n + 3), "out": np.full(n, np.nan, np.float32)}
    return bufs, lambda b: (np.float32(0.5), b["buf"][:-3], b["buf"][3:], b["out"])


def _saxpy_reversed(rng):
    # out = buf[::-1] over x = buf: negative stride, the halves meet in the middle.
    n = int(rng.integers(1000, 1500))
    bufs = {"buf": _f32(rng, n), "y": _f32(rng, n)}
    return bufs, lambda b: (np.float32(0.5), b["buf"], b["y"], b["buf"][::-1])


def _saxpy_reversed_disjoint(rng):
    # Negative strides, disjoint arrays: the byte ranges must still be computed right.
    n = int(rng.integers(3000, 5000))
    bufs = {"x": _f32(rng, n), "y": _f32(rng, n), "out": np.full(n, np.nan, np.float32)}
    return bufs, lambda b: (np.float32(0.5), b["x"][::-1], b["y"], b["out"][::-1])


def _saxpy_interleaved(rng):
    # x = buf[0::2], out = buf[1::2]: no element shared, but the ranges overlap (the
    # original body runs; the result is the same either way).
    n = int(rng.integers(1000, 1500))
    bufs = {"buf": _f32(rng, 2 * n), "y": _f32(rng, n)}
    return bufs, lambda b: (np.float32(0.5), b["buf"][0::2], b["y"], b["buf"][1::2])


def _saxpy_adjacent(rng):
    # out = buf[n:], x = buf[:n]: touching but disjoint ranges (the no-alias body).
    n = int(rng.integers(1000, 1500))
    bufs = {"buf": _f32(rng, 2 * n), "y": _f32(rng, n)}
    return bufs, lambda b: (np.float32(0.5), b["buf"][:n], b["y"], b["buf"][n:])


def _saxpy_empty(rng):
    bufs = {"x": _f32(rng, 0), "y": _f32(rng, 0), "out": np.full(0, np.nan, np.float32)}
    return bufs, lambda b: (np.float32(0.5), b["x"], b["y"], b["out"])


def _add2d_shifted_rows(rng):
    # out = buf[1:], a = buf[:-1] (rows): row i reads the row written just before.
    rows, cols = int(rng.integers(40, 60)), int(rng.integers(9, 40))
    bufs = {"buf": rng.standard_normal((rows + 1, cols)),
            "b": rng.standard_normal((rows, cols))}
    return bufs, lambda b: (b["buf"][:-1], b["b"], b["buf"][1:])


def _add2d_shifted_columns(rng):
    # out = buf[:, 1:], a = buf[:, :-1]: along each row, a recurrence (as saxpy's).
    rows, cols = int(rng.integers(20, 40)), int(rng.integers(30, 60))
    bufs = {"buf": rng.standard_normal((rows, cols + 1)),
            "b": rng.standard_normal((rows, cols))}
    return bufs, lambda b: (b["buf"][:, :-1], b["b"], b["buf"][:, 1:])


def _add2d_transposed(rng):
    # out = buf.T over a = buf: a square matrix written through its transpose.
    n = int(rng.integers(20, 40))
    bufs = {"buf": rng.standard_normal((n, n)), "b": rng.standard_normal((n, n))}
    return bufs, lambda b: (b["buf"], b["b"], b["buf"].T)


def _add2d_disjoint(rng):
    rows, cols = int(rng.integers(300, 500)), int(rng.integers(9, 40))
    bufs = {"a": rng.standard_normal((rows, cols)), "b": rng.standard_normal((rows, cols)),
            "out": np.full((rows, cols), np.nan)}
    return bufs, lambda b: (b["a"], b["b"][:, ::-1], b["out"])


SCENARIOS = [
    ("saxpy disjoint", "saxpy", False, _saxpy_disjoint),
    ("saxpy out is x", "saxpy", True, _saxpy_out_is_x),
    ("saxpy out = buf[1:], x = buf[:-1]", "saxpy", True, _saxpy_shifted),
    ("saxpy out = buf[:-2], y = buf[2:]", "saxpy", True, _saxpy_shifted_back),
    ("saxpy x and y overlap", "saxpy", False, _saxpy_inputs_overlap),
    ("saxpy adjacent", "saxpy", False, _saxpy_adjacent),
    ("saxpy empty", "saxpy", False, _saxpy_empty),
    ("saxpy_any out = buf[::-1]", "saxpy_any", True, _saxpy_reversed),
    ("saxpy_any negative strides disjoint", "saxpy_any", False, _saxpy_reversed_disjoint),
    ("saxpy_any interleaved", "saxpy_any", True, _saxpy_interleaved),
    ("add2d out = buf[1:], a = buf[:-1]", "add2d", True, _add2d_shifted_rows),
    ("add2d out = buf[:, 1:], a = buf[:, :-1]", "add2d", True, _add2d_shifted_columns),
    ("add2d out = buf.T", "add2d", True, _add2d_transposed),
    ("add2d disjoint", "add2d", False, _add2d_disjoint),
]


def expected(kernel, bufs, views):
    """The buffers after a sequential run of `kernel` on copies of `bufs`."""
    want = {k: v.copy() for k, v in bufs.items()}
    REFS[kernel](*views(want))
    return want


# ------------------------------------------------------------------------------- GPU cases

for _name, _kernel, _overlapping, _make in SCENARIOS:
    def _run(ctx, kernel=_kernel, overlapping=_overlapping, make=_make):
        import cupy as cp
        mod = ctx.load()
        bufs, views = make(ctx.rng)
        want = expected(kernel, bufs, views)
        dev = {k: cp.asarray(v) for k, v in bufs.items()}
        # Overlapping: one thread runs the loop in order. Disjoint: many threads, and
        # a grid small enough that each runs the unrolled loop several times.
        grid, block = ((1,), (1,)) if overlapping else ((8,), (64,))
        getattr(mod, kernel)[grid, block](*views(dev))
        cp.cuda.runtime.deviceSynchronize()
        details = []
        for k in bufs:
            if bufs[k].size:
                details.append(ctx.compare(cp.asnumpy(dev[k]), want[k], k))
        return f"{kernel} grid={grid[0]}x{block[0]} " + " ".join(details)
    case(f"alias versioning: {_name}", FOLDER)(_run)
