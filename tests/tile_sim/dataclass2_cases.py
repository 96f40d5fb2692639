"""The kernels of tests/gpu/kernels/tile_kernels26.py (a frozen dataclass's __post_init__; a
frozen dataclass instance as a Constant) with NumPy references, shared by
tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases26.py. The expected values are
those of cuTile's test_post_init and test_dataclass_instance_as_constant_kernel_arg asserts.

`dataclass2_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)` runs
a kernel, `arr(a)` passes an array; both leave results in the NumPy arrays."""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Spot:
    idx: tuple
    val: float


@dataclass(frozen=True)
class Window:
    shape: tuple
    scale: int = 3


# The Constant parameters each kernel was compiled with (its --const values), passed last on
# the GPU: instances of classes of the kernel file's names and fields.
CONSTS = {"post_init": (), "const_instance": (Spot(idx=(1, 2), val=5), Window((2, 3)))}


def dataclass2_cases(run, arr, rng):
    # test_post_init: PostInit(3, x) scatters self.foo into x; here Marker's __post_init__
    # scatters val * 2 at idx, a base's __post_init__ inherited, one made as a helper's argument.
    n = int(rng.integers(-100, 100))
    x = np.zeros(8, np.int32)
    y = np.full(2, np.nan, np.float32)
    run("post_init", 1, arr(x) + arr(y) + [np.int32(n)])
    want = np.zeros(8, np.int32)
    want[0], want[1], want[2], want[5] = n * 2, 8, (n + 1) * 2, 4
    yield "__post_init__ after the generated __init__ (defaults, keywords, a base's, a helper's argument)", \
        x, want, "exact"
    yield "an instance of numbers with a __post_init__ (it prints)", y[:1], np.array([7.5], np.float32), "exact"
    if hasattr(run, "output"):
        printed, _ = run.output()
        # A float field in an f-string prints as printf's %f.
        yield "its __post_init__'s print", printed, "made Pair(7, 0.500000)\n", "exact"

    # test_dataclass_instance_as_constant_kernel_arg: x[1, 2] = 5.0.
    x = np.zeros((3, 3), np.float32)
    z = np.full(4, -1, np.int32)
    run("const_instance", 1, arr(x) + arr(z))
    want = np.zeros((3, 3), np.float32)
    want[1, 2] = 5.0
    yield "a Constant dataclass instance: its fields are constants (x[d.idx] = d.val)", x, want, "exact"
    yield "a default field and a tuple field's element as tile sizes", z, np.full(4, 3 + 1, np.int32), "exact"
