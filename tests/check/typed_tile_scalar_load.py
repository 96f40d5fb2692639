# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# `ct.load(array, index, shape=())` (cuTile's samples/MoE.py): the one element at the
# index, typed as a scalar of the array's dtype, usable as an index of another load;
# outside the array it is the padding value.
import cuda.tile as ct


@ct.kernel
def scalar_load(ids: "int32[::1]", table: "float32[:, ::1]", out: "float32[:, ::1]",
                TILE: ct.Constant[int] = 16):
    bid = ct.bid(0)
    row = ct.load(ids, index=bid, shape=())
    past = ct.load(ids, index=(bid + 1000,), shape=(), padding_mode=ct.PaddingMode.ZERO)
    t = ct.load(table, index=(row, 0), shape=(1, TILE))
    ct.store(out, index=(bid, 0), tile=t + past)
# CHECK:STDOUT: kernel scalar_load scalar_load__i32a1C_f32a2C_f32a2C__KTILE_16 void(int32[::1], float32[:, ::1], float32[:, ::1], TILE=16)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   bid: int32
# CHECK:STDOUT:   ids: array(int32, 1d, C)
# CHECK:STDOUT:   out: array(float32, 2d, C)
# CHECK:STDOUT:   past: int32
# CHECK:STDOUT:   row: int32
# CHECK:STDOUT:   t: tile(float32, (1, 16))
# CHECK:STDOUT:   table: array(float32, 2d, C)
