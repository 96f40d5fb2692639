# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""A name may take another type where no join needs both (cuTile's SSA; TileGym's
rope_quantize and liger's fused_add_rms_norm): in each branch of a run-time `if` when it is
not read after the `if`, and in a loop body that assigns it before reading it. Reading it
where the paths disagree, or carrying a new type into the next iteration, is an error
(tests/check/fail_tile_types.py)."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def branches(x: "float16[::1]", y: "float32[::1]", n: "int32", TILE: ConstInt = 64):
    bid = ct.bid(0)
    k = ct.load(x, index=(bid,), shape=(TILE,))
    if n > 0:
        k = ct.astype(k, ct.float32) * 2.0
        ct.store(y, index=(bid,), tile=k)
    elif n < -5:
        k = ct.load(y, index=(bid,), shape=(TILE // 2,))
        ct.store(y, index=(bid,), tile=k + 1.0)
    else:
        k = ct.astype(k, ct.float32)
        ct.store(y, index=(bid,), tile=k)


@ct.kernel
def loops(x: "float16[::1]", y: "float32[::1]", TILE: ConstInt = 64):
    bid = ct.bid(0)
    s = ct.load(x, index=(bid,), shape=(TILE,))
    for i in range(3):
        s = ct.load(x, index=(bid,), shape=(TILE,))
        s = ct.astype(s, ct.float32) + i
        ct.store(y, index=(bid,), tile=s)
    s = ct.full((TILE,), 1.0, dtype=ct.float32)
    ct.store(y, index=(bid,), tile=s)
# CHECK:STDOUT: kernel branches branches__f16a1C_f32a1C_i32__KTILE_64 void(float16[::1], float32[::1], int32, TILE=64)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   bid: int32
# CHECK:STDOUT:   k: tile(float32, (64,))
# CHECK:STDOUT:   n: int32
# CHECK:STDOUT:   x: array(float16, 1d, C)
# CHECK:STDOUT:   y: array(float32, 1d, C)
# CHECK:STDOUT: kernel loops loops__f16a1C_f32a1C__KTILE_64 void(float16[::1], float32[::1], TILE=64)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   bid: int32
# CHECK:STDOUT:   i: int32
# CHECK:STDOUT:   s: tile(float32, (64,))
# CHECK:STDOUT:   x: array(float16, 1d, C)
# CHECK:STDOUT:   y: array(float32, 1d, C)
