# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig k(float32[::1],float32[::1],int32)
"""A view with constant bounds bound once in straight-line code has a constant extent along
its sliced axis (cuTile's test_array_slice): `sub.shape[0]` sizes a tile and folds in
`ct.static_assert`; run-time bounds give an int32."""
import cuda.tile as ct


@ct.kernel
def k(x, y, stop):
    sub = x.slice(axis=0, start=2, stop=18)
    n = sub.shape[0]
    ct.static_assert(sub.shape[-1] == 16)
    tile = ct.load(sub, index=(0,), shape=(n,))
    dyn = x.slice(axis=0, start=0, stop=stop)
    m = dyn.shape[0]
    ct.store(y, index=(0,), tile=tile + m)
# CHECK:STDOUT: kernel k k__f32a1C_f32a1C_i32 void(float32[::1], float32[::1], int32)
# CHECK:STDOUT:   dyn: array(float32, 1d, C)
# CHECK:STDOUT:   m: int32
# CHECK:STDOUT:   n: int64
# CHECK:STDOUT:   stop: int32
# CHECK:STDOUT:   sub: array(float32, 1d, C)
# CHECK:STDOUT:   tile: tile(float32, (16,))
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT:   y: array(float32, 1d, C)
