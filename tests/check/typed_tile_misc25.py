# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# What the last kernels of cuTile's test_atomic, test_tiled_view, test_static_eval and
# test_dataclass use (docs/TILE.md): a module dict with enum keys indexed at compile time, a
# helper returning a bound method of its parameter, `ct.static_eval(LOG.append(...))` (a host
# effect pykc does not replay: a warning), a constant's astype, operator functions (imported
# by name, comparisons), a dataclass whose `__init__` is a `@static_def`.
from dataclasses import dataclass
from enum import Enum
import operator
from operator import add as op_add

import cuda.tile as ct
from cuda.tile._execution import static_def


class Op(Enum):
    ADD = 1
    MAX = 2


_OP_TO_FUNC = {Op.ADD: ct.atomic_add, Op.MAX: ct.atomic_max}
_SCALE = {1: 10, "two": 2}
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
        object.__setattr__(self, "y", n + 1)

    @static_def
    def __call__(self, z):
        items = [self.x, self.y, z]
        res = 0
        while items:
            res = res * 10 + items.pop()
        return res


@ct.kernel
def by_enum(x: "int32[::1]", y: "int32[::1]", op_id: ct.Constant[int] = 2):
    offset = ct.arange(16, dtype=ct.int64)
    func = ct.static_eval(_OP_TO_FUNC[Op(op_id)])
    old = func(x, offset, ct.gather(y, offset))
    ct.scatter(y, offset, old + _SCALE[1])
    ct.scatter(y, 0, _SCALE["two"])


@ct.kernel
def method(x: "int32[:, ::1]", y: "int32[:, ::1]"):
    tv_x = x.tiled_view((16, 16))
    get_add(tv_x)((ct.bid(0), 0), y.tiled_view((16, 16)).load((ct.bid(0), 0)))


@ct.kernel
def effects(x: "int32[:, ::1]"):
    t = ct.load(x, (0, 0), (4, 8))
    shape = ct.static_eval(t.shape)
    # CHECK:STDERR: typed_tile_misc25.py:[[@LINE+4]]:5: warning: `LOG.append(...)` inside `ct.static_eval` changes `LOG`, a module variable, when cuTile compiles the kernel: pykc runs no host code, so `LOG` stays as it is (the kernel does not depend on it) [unsupported-construct]
    # CHECK:STDERR:     ct.static_eval(LOG.append(repr(t)))
    # CHECK:STDERR:     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    ct.static_eval(LOG.append(repr(t)))
    ct.scatter(x, (0, 1), shape[1].astype(ct.int16))
    lhs = ct.bid(0) + 15
    ct.scatter(x, (0, 2), ct.static_eval(op_add(lhs, 3)))
    ct.scatter(x, (0, 3), ct.static_eval(operator.ge(lhs, 3)))


@ct.kernel
def init(x: "int32[::1]"):
    d = MetaInit(4)
    ct.scatter(x, 0, d.x + d.y)
    ct.scatter(x, 1, d(7))
# CHECK:STDOUT: kernel by_enum by_enum__i32a1C_i32a1C__Kop_id_2 void(int32[::1], int32[::1], op_id=2)
# CHECK:STDOUT:   offset: tile(int64, (16,))
# CHECK:STDOUT:   old: tile(int32, (16,))
# CHECK:STDOUT:   op_id: int64
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT:   y: array(int32, 1d, C)
# CHECK:STDOUT: kernel method method__i32a2C_i32a2C void(int32[:, ::1], int32[:, ::1])
# CHECK:STDOUT:   tv_x: TiledView[array(int32, 2d, C),tile_shape=(16, 16),padding_mode=UNDETERMINED,traversal_steps=(16, 16)]
# CHECK:STDOUT:   x: array(int32, 2d, C)
# CHECK:STDOUT:   y: array(int32, 2d, C)
# CHECK:STDOUT: kernel effects effects__i32a2C void(int32[:, ::1])
# CHECK:STDOUT:   lhs: int32
# CHECK:STDOUT:   shape: UniTuple(int64 x 2)
# CHECK:STDOUT:   t: tile(int32, (4, 8))
# CHECK:STDOUT:   x: array(int32, 2d, C)
# CHECK:STDOUT: kernel init init__i32a1C void(int32[::1])
# CHECK:STDOUT:   d: MetaInit(int32, int32)
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT: device get_add get_add__i32a2Cv0w16x16z16x16 atomic_store_add(int32[:, ::1])
# CHECK:STDOUT:   tv: TiledView[array(int32, 2d, C),tile_shape=(16, 16),padding_mode=UNDETERMINED,traversal_steps=(16, 16)]
