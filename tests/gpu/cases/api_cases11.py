"""numba idioms of real code (issue 21), fifth file: tests/gpu/kernels/api_kernels11.py (records
with nested-array fields, whole-record stores) run by pykc and by numba-cuda itself on the same
inputs; the outputs must be the same bytes.

Compiled output: <root>/api_kernels11, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/api_kernels11.py sm_90 <root>/api_kernels11
"""
import numpy as np

from cases.api_cases7 import TPB, _blocks
from cases.api_cases9 import _run_both as _run_pair

try:
    from harness import case
except ImportError:                     # imported by a host tool without the harness
    def case(name, folder):
        return lambda fn: fn

FOLDER = "api_kernels11"

PASSWORD = np.dtype([("lower", "<i4"), ("upper", "<i4"), ("letter", "<i4"), ("length", "<i4"),
                     ("password", "<i4", 8)])
PACKED = np.dtype([("a", np.int8), ("b", np.float64)])
ALIGNED = np.dtype([("a", np.int8), ("b", np.float64)], align=True)
GRID = np.dtype([("id", np.int16), ("cells", np.float64, (2, 3))], align=True)


def _run_both(ctx, name, grid, tpb, make_args, outputs):
    return _run_pair(ctx, name, lambda ref: getattr(ref, name), grid, tpb, make_args, outputs, "api_kernels11")


def _passwords(ctx, n):
    e = np.zeros(n, PASSWORD)
    e["length"] = ctx.rng.integers(1, 9, n)
    e["lower"] = ctx.rng.integers(1, 4, n)
    e["upper"] = e["lower"] + ctx.rng.integers(0, 5, n)
    e["letter"] = ctx.rng.integers(97, 100, n)
    for i in range(n):
        e["password"][i, :e["length"][i]] = ctx.rng.integers(97, 100, e["length"][i])
    return e


@case("api11 records with a nested-array field (advent-of-numba day02: `entry['password'][p]`, "
      "len of the field)", FOLDER)
def _nested(ctx):
    n = int(ctx.rng.integers(500, 1500))
    e = _passwords(ctx, n)
    a = _run_both(ctx, "count_valid", _blocks(n), TPB, lambda: [e.copy(), np.zeros(1, np.uint32)], [1])
    b = _run_both(ctx, "new_policy", _blocks(n), TPB, lambda: [e.copy(), np.zeros(1, np.uint32)], [1])
    return "; ".join(s for s in (a, b) if s)


@case("api11 a 2-d nested-array field written through (cells[a, b] += ..., cells.shape, cells.size)",
      FOLDER)
def _cells(ctx):
    n = int(ctx.rng.integers(300, 900))
    g = np.zeros(n, GRID)
    g["id"] = ctx.rng.integers(-100, 100, n)
    g["cells"] = ctx.rng.standard_normal((n, 2, 3))
    return _run_both(ctx, "fill_cells", _blocks(n), TPB, lambda: [g.copy()], [0])


@case("api11 whole records stored into elements (cache_usecases' record_return, packed and aligned; "
      "a reversed copy)", FOLDER)
def _records(ctx):
    out = []
    for dt in (PACKED, ALIGNED):
        src = np.zeros(5, dt)
        src["a"] = np.arange(1, 6)
        src["b"] = np.arange(5) + 42.5
        out.append(_run_both(ctx, "record_return", 1, 1, lambda: [np.zeros((), dt), src.copy(), 3], [0]))
    n = int(ctx.rng.integers(300, 900))
    p = np.zeros(n, PACKED)
    p["a"] = ctx.rng.integers(-100, 100, n)
    p["b"] = ctx.rng.standard_normal(n)
    out.append(_run_both(ctx, "copy_records", _blocks(n), TPB, lambda: [np.zeros(n, PACKED), p.copy()], [0]))
    return "; ".join(out)
