"""Tile kernels, twenty-sixth file: the last two kernels of cuTile's test_dataclass (issue 22):
a frozen dataclass's `__post_init__(self)`, run inline after the generated `__init__` fills
the fields (an instance holding an array whose `__post_init__` scatters into it; one of
numbers whose `__post_init__` prints; a base's `__post_init__` inherited), and a frozen
dataclass instance given as a `ct.Constant` (`--const d=Spot(idx=(1,2),val=5)`), whose fields
are compile-time constants in the kernel. Checked on the CPU by tests/tile_sim
(dataclass2_cases.py) and on the GPU by tests/gpu/cases/tile_cases26.py, both against NumPy.
"""
# pykc-compile: --const const_instance.d=Spot(idx=(1,2),val=5) --const const_instance.w=Window((2,3))
from dataclasses import dataclass

import cuda.tile as ct


@dataclass(frozen=True)
class Marker:
    out: ct.Array
    idx: int
    val: int = 7

    def __post_init__(self):
        ct.scatter(self.out, self.idx, self.val * 2)


@dataclass(frozen=True)
class Derived(Marker):
    extra: int = 1


@dataclass(frozen=True)
class Pair:
    a: int
    b: float

    def __post_init__(self):
        print(f"made Pair({self.a}, {self.b})")


def use(m):
    ct.scatter(m.out, m.idx + 4, m.val)


@ct.kernel
def post_init(x: "int32[::1]", y: "float32[::1]", n: "int32"):
    # test_post_init: PostInit(3, x) scatters 3 at x[()]; here into x[0], x[1], x[2], x[5].
    Marker(x, 0, n)
    m = Marker(x, 1)
    Derived(out=x, idx=2, val=n + 1, extra=9)
    use(Marker(x, 1, 4))
    p = Pair(m.val, 0.5)
    ct.scatter(y, 0, p.a + p.b)


@dataclass(frozen=True)
class Spot:
    idx: tuple
    val: float


@dataclass(frozen=True)
class Window:
    shape: tuple
    scale: int = 3


@ct.kernel
def const_instance(x: "float32[:,::1]", z: "int32[::1]", d: ct.Constant, w: ct.Constant):
    # test_dataclass_instance_as_constant_kernel_arg: x[1, 2] = 5.0.
    ct.scatter(x, d.idx, d.val)
    t = ct.full(w.shape[1] + 1, w.scale, ct.int32)
    ct.store(z, (0,), tile=t + d.idx[0])
