# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig make.kernel(int32[:,::1],int32[:,::1]) -D get_method=add_method
"""An enum class imported from a sibling module (`from sibling.ops import AtomicOp`, as
cuTile's tests import theirs from util.py) is pasted in: `AtomicOp(op_id)` indexes a module
dict at compile time. `-D NAME=FUNCTION` names a function the file defines (a helper passed
to the function that makes a kernel): here one returning a bound method of its parameter."""
import cuda.tile as ct

from sibling.ops import AtomicOp

_OP_TO_FUNC = {AtomicOp.XCHG: ct.atomic_xchg, AtomicOp.ADD: ct.atomic_add}


def add_method(tv):
    return tv.atomic_store_add


@ct.kernel
def by_enum(x: "int32[::1]", y: "int32[::1]", op_id: ct.Constant[int] = 1):
    offset = ct.arange(16, dtype=ct.int64)
    old = ct.static_eval(_OP_TO_FUNC[AtomicOp(op_id)])(x, offset, ct.gather(y, offset))
    ct.scatter(y, offset, old)


def make(get_method):
    @ct.kernel
    def kernel(x, y):
        tv_x = x.tiled_view((16, 16))
        get_method(tv_x)((ct.bid(0), 0), y.tiled_view((16, 16)).load((ct.bid(0), 0)))
    return kernel
# CHECK:STDOUT: kernel by_enum by_enum__i32a1C_i32a1C__Kop_id_1 void(int32[::1], int32[::1], op_id=1)
# CHECK:STDOUT:   offset: tile(int64, (16,))
# CHECK:STDOUT:   old: tile(int32, (16,))
# CHECK:STDOUT:   op_id: int64
# CHECK:STDOUT:   x: array(int32, 1d, C)
# CHECK:STDOUT:   y: array(int32, 1d, C)
# CHECK:STDOUT: kernel make.kernel make$002Ekernel__i32a2C_i32a2C void(int32[:, ::1], int32[:, ::1])
# CHECK:STDOUT:   tv_x: TiledView[array(int32, 2d, C),tile_shape=(16, 16),padding_mode=UNDETERMINED,traversal_steps=(16, 16)]
# CHECK:STDOUT:   x: array(int32, 2d, C)
# CHECK:STDOUT:   y: array(int32, 2d, C)
# CHECK:STDOUT: device get_method get_method__i32a2Cv0w16x16z16x16 atomic_store_add(int32[:, ::1])
# CHECK:STDOUT:   tv: TiledView[array(int32, 2d, C),tile_shape=(16, 16),padding_mode=UNDETERMINED,traversal_steps=(16, 16)]
