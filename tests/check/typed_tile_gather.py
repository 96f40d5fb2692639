# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# ct.gather / ct.scatter typing (docs/TILE.md, "Gather and scatter"): the result has the
# array's dtype and the indices' broadcast shape (scalar indices: a scalar); a 1-D array
# takes one index alone; mask=None and padding_value=None mean none; scatter converts
# its value to the array's dtype.
import cuda.tile as ct


@ct.kernel
def gathers(probs_2d: "float32[:, :]", mean_ptr: "float16[::1]", out: "int64[:, ::1]",
            C: "int32", TILE: ct.Constant[int] = 64):
    row_idx = ct.arange(16, dtype=ct.int32)[:, None]
    col_idx = ct.arange(TILE, dtype=ct.int64).reshape((1, TILE))
    p = ct.gather(probs_2d, (row_idx, col_idx), check_bounds=True, padding_value=0.0)
    channel = ct.arange(TILE, dtype=ct.int32) % C
    mean = ct.gather(mean_ptr, channel, mask=None, padding_value=None, latency=2)
    one = ct.gather(probs_2d, (0, C))
    ct.scatter(out, (row_idx, col_idx), p.astype(ct.int64) + one.astype(ct.int64))
    ct.scatter(out, (row_idx, 3), 1, mask=row_idx > 2, check_bounds=False)
    ct.scatter(mean_ptr, channel, mean * 2, mask=True)
# CHECK:STDOUT: kernel gathers gathers__f32a2A_f16a1C_i64a2C_i32__KTILE_64 void(float32[:, :], float16[::1], int64[:, ::1], int32, TILE=64)
# CHECK:STDOUT:   C: int32
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   channel: tile(int32, (64,))
# CHECK:STDOUT:   col_idx: tile(int64, (1, 64))
# CHECK:STDOUT:   mean: tile(float16, (64,))
# CHECK:STDOUT:   mean_ptr: array(float16, 1d, C)
# CHECK:STDOUT:   one: float32
# CHECK:STDOUT:   out: array(int64, 2d, C)
# CHECK:STDOUT:   p: tile(float32, (16, 64))
# CHECK:STDOUT:   probs_2d: array(float32, 2d, A)
# CHECK:STDOUT:   row_idx: tile(int32, (16, 1))
