"""numba idioms of real code (issue 21), third file: the kernels made inside functions of
tests/gpu/kernels/api_kernels9.py, compiled ahead of time by their qualified names (the
factories' arguments given with `-D`), run by pykc and by numba-cuda itself (the kernel
the same factory makes, called with the same arguments) on the same inputs; the outputs must
be the same bytes.

Compiled output: <root>/api_kernels9, from
    bash tests/gpu/compile_kernel_file.sh PYKC tests/gpu/kernels/api_kernels9.py sm_90 <root>/api_kernels9
"""
import math

import numpy as np

from cases.api_cases7 import TPB, _blocks, _numba_module, _same

try:
    from harness import case
except ImportError:                     # imported by a host tool without the harness
    def case(name, folder):
        return lambda fn: fn

FOLDER = "api_kernels9"


def _run_both(ctx, name, make_reference, grid, tpb, make_args, outputs, module="api_kernels9"):
    """Kernel `name` of the pykc-compiled `module` and the one `make_reference(numba's module)`
    gives, launched on copies of the same arguments; the arguments at `outputs` compared."""
    mod, ref = ctx.load(), _numba_module(module)
    mine, theirs = make_args(), make_args()
    mod[name][grid, tpb](*mine)
    make_reference(ref)[grid, tpb](*theirs)
    return "; ".join(_same(mine[k], theirs[k], f"{name} arg {k}") for k in outputs)


@case("api9 kernel factories compiled ahead of time: make_scaler(2.5) and make_mapper(math.sin) "
      "through -D", FOLDER)
def _factories(ctx):
    n = int(ctx.rng.integers(3000, 6000))
    x = ctx.rng.standard_normal(n)
    a = _run_both(ctx, "make_scaler.kernel", lambda ref: ref.make_scaler(2.5), _blocks(n), TPB,
                  lambda: [x.copy(), np.full(n, np.nan)], [1])
    b = _run_both(ctx, "make_mapper.kernel", lambda ref: ref.make_mapper(math.sin), 3, TPB,
                  lambda: [x.copy(), np.full(n, np.nan)], [1])
    return "; ".join(s for s in (a, b) if s) or "same bytes as numba-cuda"


@case("api9 a factory's prelude (constants, a tuple, a device function shadowing the module's "
      "SCALE) and a test method's kernel", FOLDER)
def _preludes(ctx):
    n = int(ctx.rng.integers(1000, 3000))
    x = ctx.rng.standard_normal(n).astype(np.float32)
    a = _run_both(ctx, "make_polynomial.kernel", lambda ref: ref.make_polynomial(), _blocks(n), TPB,
                  lambda: [x.copy()], [0])
    m = ctx.rng.standard_normal((37, 50)).astype(np.float32)
    b = _run_both(ctx, "TestNested.test_stencil.kernel", lambda ref: ref.TestNested().test_stencil(),
                  (3, 4), (16, 16), lambda: [m.copy(), np.zeros((37, 50), np.float32)], [1])
    return "; ".join(s for s in (a, b) if s) or "same bytes as numba-cuda"


@case("api9 a 0-d array argument (float32[()]) read and written at ()", FOLDER)
def _zero_d(ctx):
    v = np.float32(ctx.rng.standard_normal())
    return _run_both(ctx, "zero_d", lambda ref: ref.zero_d, 1, 1,
                     lambda: [np.array(v, np.float32), np.zeros(1, np.float32)], [0, 1]) or "same bytes"
