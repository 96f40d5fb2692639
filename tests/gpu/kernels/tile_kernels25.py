"""Tile kernels, twenty-fifth file: what the last kernels of cuTile's test_atomic,
test_tiled_view, test_static_eval and test_dataclass use (issue 22): a module-level dict with
enum-member keys and ct functions as values indexed at compile time
(`ct.static_eval(_OP_TO_FUNC[Op(op_id)])`), a helper returning a bound method of its
parameter (`get_add(tv)((i, j), update)`), `ct.static_eval(LOG.append(...))` (a host effect
pykc does not replay: a warning), a constant's `astype`, Python's operator functions imported
by name, and dataclasses whose `__init__` and `__call__` are `@static_def`s.
Checked on the CPU by tests/tile_sim (misc25_cases.py) and on the GPU by
tests/gpu/cases/tile_cases25.py, both against NumPy.
"""
from dataclasses import dataclass
from enum import Enum
import operator
from operator import mul as op_mul

import cuda.tile as ct
from cuda.tile._execution import static_def


class Op(Enum):
    XCHG = 0
    ADD = 1
    MAX = 2


_OP_TO_FUNC = {
    Op.XCHG: ct.atomic_xchg,
    Op.ADD: ct.atomic_add,
    Op.MAX: ct.atomic_max,
}

_SCALE = {1: 10, 2: 100, "three": 1000}

LOG = []


def get_add(tv):
    return tv.atomic_store_add


@dataclass(frozen=True)
class MetaInit:
    x: int
    y: int

    @static_def
    def __init__(self, n):
        object.__setattr__(self, "x", n * 5)
        object.__setattr__(self, "y", n * 7)


@dataclass(frozen=True)
class WithCallStaticDef:
    x: int
    y: int

    @static_def
    def __call__(self, z):
        items = [self.x, self.y, z]
        res = 0
        while items:
            res = res * 10 + items.pop()
        return res


@ct.kernel
def dict_atomics(x: "int32[::1]", y: "int32[::1]", z: "int32[::1]", w: "int32[::1]",
                 op_id: ct.Constant[int] = 1):
    offset = ct.arange(16, dtype=ct.int64) + ct.bid(0) * 16
    val = ct.gather(y, offset)
    func = ct.static_eval(_OP_TO_FUNC[Op(op_id)])
    old = func(x, offset, val, memory_order=ct.MemoryOrder.ACQ_REL, memory_scope=ct.MemoryScope.DEVICE)
    ct.scatter(z, offset, old)
    # Max through another entry, then the scale table by an int and a str key.
    ct.static_eval(_OP_TO_FUNC[Op.MAX])(w, offset, val)
    ct.scatter(w, 32 + ct.bid(0), _SCALE[2] + _SCALE["three"] + ct.bid(0))


@ct.kernel
def returned_method(x: "int32[:, ::1]", y: "int32[:, ::1]"):
    bidm = ct.bid(0)
    bidn = ct.bid(1)
    tv_x = x.tiled_view((16, 16))
    tv_y = y.tiled_view((16, 16))
    update = tv_y.load((bidm, bidn))
    get_add(tv_x)((bidm, bidn), update)


@ct.kernel
def static_effects(x: "int32[:, ::1]", out: "float64[::1]"):
    tile = ct.load(x, (0, 0), (4, 8))
    shape = ct.static_eval(tile.shape)
    dtype = ct.static_eval(tile.dtype)
    ct.static_eval(LOG.append(repr(tile)))
    ct.scatter(x, (0, 0), shape[0])
    ct.scatter(x, (0, 1), shape[1].astype(dtype))
    lhs = ct.bid(0) + 15
    rhs = ct.bid(1) + 4
    ct.scatter(out, 0, ct.static_eval(op_mul(lhs, rhs)))
    cmp = operator.lt
    ct.scatter(out, 1, ct.static_eval(cmp(lhs, rhs)))


@ct.kernel
def static_init(x: "int32[::1]"):
    d = MetaInit(10)
    ct.scatter(x, 0, d.x)
    ct.scatter(x, 1, d.y)
    ct.scatter(x, 2, WithCallStaticDef(3, 5)(7))
