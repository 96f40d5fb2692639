# ARGS: --diag-kinds compile %s --no-cache -o %t
"""Kernels made inside functions (cuTile's and numba's tests build them in factories and
test functions) are named when a file has no module-level kernel: `pykc compile` cannot
type or build them, the JIT can."""
import cuda.tile as ct
from numba import cuda


def make_scale(factor):
    @ct.kernel
    # CHECK:STDERR: fail_nested_kernels.py:[[@LINE+4]]:5: error: kernel `scale` is defined inside `make_scale` (and 1 more kernel defined inside functions): name it to compile it ahead of time (`--kernel make_scale.scale` with its `--sig`, and `-D NAME=VALUE` for the values it takes from `make_scale`), or run the program under the JIT (`python -m pykc run PROGRAM`), which compiles a kernel made inside a function at its first launch [nested-kernel]
    # CHECK:STDERR:     def scale(x, out, TILE: ct.Constant[int]):
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    def scale(x, out, TILE: ct.Constant[int]):
        t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
        ct.store(out, index=(ct.bid(0),), tile=t * factor)
    return scale


class TestKernels:
    def test_add(self):
        @cuda.jit
        def add(a, b):
            a[cuda.grid(1)] += b[cuda.grid(1)]
        return add
