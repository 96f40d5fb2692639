# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# Keyword-only and positional-only parameters of a tile kernel (cuTile's JAX tests:
# `def _scaled_add(A, B, C, *, scale_a: ct.Constant[float], ...)`): parameters in
# declaration order, as ct.launch passes a kernel's arguments as one tuple; a keyword-only
# Constant takes its default from the `*`'s side. `*args` and `**kwargs` stay errors.
import cuda.tile as ct


@ct.kernel
def scaled_add(A: "float32[::1]", B: "float32[::1]", /, C: "float32[::1]", *,
               scale_a: ct.Constant[float] = 2.0, n: "int32", TILE: ct.Constant[int] = 128):
    bid = ct.bid(0)
    a = ct.load(A, index=(bid,), shape=(TILE,))
    b = ct.load(B, index=(bid,), shape=(TILE,))
    ct.store(C, index=(bid,), tile=a * scale_a + b * n)
# CHECK:STDOUT: kernel scaled_add scaled_add__f32a1C_f32a1C_f32a1C_i32__Kscale_a_x4000000000000000__KTILE_128 void(float32[::1], float32[::1], float32[::1], int32, scale_a=2.0, TILE=128)
# CHECK:STDOUT:   A: array(float32, 1d, C)
# CHECK:STDOUT:   B: array(float32, 1d, C)
# CHECK:STDOUT:   C: array(float32, 1d, C)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   a: tile(float32, (128,))
# CHECK:STDOUT:   b: tile(float32, (128,))
# CHECK:STDOUT:   bid: int32
# CHECK:STDOUT:   n: int32
# CHECK:STDOUT:   scale_a: float64
