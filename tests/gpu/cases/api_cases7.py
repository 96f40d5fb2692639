"""numba idioms of real code (issue 21): every kernel of tests/gpu/kernels/api_kernels7.py
run by pykc and by numba-cuda itself (the same file imported with numba, its helper module
beside it) on the same inputs; the outputs must be the same bytes.

Compiled output: <root>/api_kernels7, from
    pykc compile tests/gpu/kernels/api_kernels7.py --arch sm_90 -o <root>/api_kernels7
"""
import importlib
import os
import sys

import numpy as np

try:
    from harness import case
except ImportError:                     # imported by a host tool without the harness
    def case(name, folder):
        return lambda fn: fn

FOLDER = "api_kernels7"
TPB = 128
KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "kernels")


def _numba_module(name="api_kernels7"):
    """A kernel file of tests/gpu/kernels as numba-cuda compiles it (real numba, not pykc's JIT)."""
    if KERNELS not in sys.path:
        sys.path.insert(0, KERNELS)
    # numba-cuda 0.30.4 registers an overload of np.row_stack, which NumPy 2.4 removed
    # (seen on an H100 host's image): give it the alias it had.
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack
    import numba.cuda  # noqa: F401  (the real one: this runs outside `python -m pykc run`)
    return importlib.import_module(name)


def _same(got, want, what):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype:
        raise AssertionError(f"{what}: {got.dtype}{got.shape} != {want.dtype}{want.shape}")
    if got.tobytes() != want.tobytes():
        same = (got == want) | ((got != got) & (want != want))
        i = int(np.flatnonzero(~same.ravel())[0]) if not same.all() else 0
        raise AssertionError(f"{what}: differs from numba-cuda ({int((~same).sum())} of {got.size} "
                             f"values; first at {i}: {got.ravel()[i]!r} != {want.ravel()[i]!r})")
    return f"{what}: same bytes as numba-cuda"


def _run_both(ctx, name, grid, make_args, outputs):
    """Runs kernel `name` through pykc and numba-cuda on copies of the same arguments;
    compares the arguments at `outputs` afterwards."""
    mod, ref = ctx.load(), _numba_module()
    mine, theirs = make_args(), make_args()
    getattr(mod, name)[grid, TPB](*mine)
    getattr(ref, name)[grid, TPB](*theirs)
    return "; ".join(_same(mine[k], theirs[k], f"{name} arg {k}") for k in outputs)


def _blocks(n):
    return max(1, (n + TPB - 1) // TPB)


@case("api7 numba.jit functions called from a kernel", FOLDER)
def _histogram(ctx):
    n = int(ctx.rng.integers(1000, 5000))
    x = ctx.rng.standard_normal(n).astype(np.float32)
    lo, hi = np.float32(x.min()), np.float32(x.max())
    return _run_both(ctx, "histogram", _blocks(n),
                     lambda: [x.copy(), lo, hi, np.zeros(37, np.int32)], [3])


@case("api7 a sibling module object and an njit helper", FOLDER)
def _module_objects(ctx):
    n = int(ctx.rng.integers(1000, 5000))
    s = np.sort(ctx.rng.standard_normal(300))
    x = ctx.rng.standard_normal(n)
    x[:3] = [s[0], s[-1], s[10]]
    return _run_both(ctx, "module_objects", _blocks(n),
                     lambda: [s.copy(), x.copy(), np.full(n, -7, np.int64), np.full(n, -1.0)],
                     [2, 3])


@case("api7 uint64 literals", FOLDER)
def _uint64(ctx):
    n = int(ctx.rng.integers(500, 3000))
    x = ctx.rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64)
    u = ctx.rng.integers(0, 2**64 - 1, n, dtype=np.uint64)
    return _run_both(ctx, "uint64_masks", _blocks(n), lambda: [x.copy(), u.copy()], [0, 1])


@case("api7 module-level if/try and an array's dtype", FOLDER)
def _gates(ctx):
    n = int(ctx.rng.integers(500, 3000))
    a = ctx.rng.standard_normal(n).astype(np.float32)
    a[5] = np.nan
    return _run_both(ctx, "gates_and_dtypes", _blocks(n),
                     lambda: [a.copy(), np.zeros(n, np.float32), np.full(1, -np.inf, np.float32)],
                     [1, 2])


@case("api7 a number's .view(dtype)", FOLDER)
def _views(ctx):
    n = int(ctx.rng.integers(500, 3000))
    x = ctx.rng.standard_normal(n)
    s = ctx.rng.integers(0, 2, n).astype(np.int32)
    f = ctx.rng.standard_normal(n).astype(np.float32)
    return _run_both(ctx, "scalar_views", _blocks(n),
                     lambda: [x.copy(), s.copy(), f.copy(), np.zeros(n, np.uint32)], [0, 3])
