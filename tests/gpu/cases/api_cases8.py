"""numba idioms of real code (issue 21), second file: every kernel of
tests/gpu/kernels/api_kernels8.py (Optional returns, raise in device functions) run by pykc
and by numba-cuda itself on the same inputs; the outputs must be the same bytes.

Compiled output: <root>/api_kernels8, from
    pykc compile tests/gpu/kernels/api_kernels8.py --arch sm_90 -o <root>/api_kernels8
"""

import numpy as np

from cases.api_cases7 import TPB, _blocks, _numba_module, _same

try:
    from harness import case
except ImportError:                     # imported by a host tool without the harness
    def case(name, folder):
        return lambda fn: fn

FOLDER = "api_kernels8"


def _run_both(ctx, name, grid, make_args, outputs, tpb=TPB):
    mod, ref = ctx.load(), _numba_module("api_kernels8")
    mine, theirs = make_args(), make_args()
    getattr(mod, name)[grid, tpb](*mine)
    getattr(ref, name)[grid, tpb](*theirs)
    return "; ".join(_same(mine[k], theirs[k], f"{name} arg {k}") for k in outputs)


@case("api8 Optional returns: numba-examples' compute_bin (None ends the thread)", FOLDER)
def _optional_histogram(ctx):
    n = int(ctx.rng.integers(3000, 6000))
    x = ctx.rng.standard_normal(n).astype(np.float32)
    lo, hi = np.float32(-1.5), np.float32(1.5)  # values outside: None
    blocks = 4  # a grid-stride loop: threads that meet None stop early
    return _run_both(ctx, "optional_histogram", blocks,
                     lambda: [x.copy(), lo, hi, np.zeros(23, np.int32), np.zeros(blocks * TPB, np.int32)],
                     [3, 4])


@case("api8 Optional search result, a discarded Optional call, raise in a device function", FOLDER)
def _optional_search(ctx):
    m = int(ctx.rng.integers(300, 700))
    a = ctx.rng.standard_normal(m * 8) + 1.2
    return _run_both(ctx, "optional_search", _blocks(m),
                     lambda: [a.copy(), np.full(m, -5, np.int64), np.full(m, -1.0)], [1, 2])
