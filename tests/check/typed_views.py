# ARGS: --diag-kinds compile %s --phase=check --dump-typed
"""Array views keep numba's layouts: C rows, A columns and steps, F columns."""
from numba import cuda


@cuda.jit("void(float32[:, ::1], float64[::1, :], int32[:, :, ::1])")
def views(c, f, t):
    c_row = c[0]
    c_rows = c[1:3]
    c_col = c[:, 0]
    c_step = c[0, ::2]
    c_tail = c[0, 1:]
    f_col = f[:, 0]
    f_row = f[0]
    f_block = f[1:3, 2]
    t_plane = t[0]
    t_line = t[0, 1]
    t_mixed = t[:, 0, 1:2]
    c_row[0] = f_col[0] + f_row[0] + f_block[0] + t_plane[0, 0] + t_line[0] + t_mixed[0, 0]
# CHECK:STDOUT: kernel views views__f32a2C_f64a2F_i32a3C void(float32[:, ::1], float64[::1, :], int32[:, :, ::1])
# CHECK:STDOUT:   c: array(float32, 2d, C)
# CHECK:STDOUT:   c_col: array(float32, 1d, A)
# CHECK:STDOUT:   c_row: array(float32, 1d, C)
# CHECK:STDOUT:   c_rows: array(float32, 2d, C)
# CHECK:STDOUT:   c_step: array(float32, 1d, A)
# CHECK:STDOUT:   c_tail: array(float32, 1d, C)
# CHECK:STDOUT:   f: array(float64, 2d, F)
# CHECK:STDOUT:   f_block: array(float64, 1d, C)
# CHECK:STDOUT:   f_col: array(float64, 1d, C)
# CHECK:STDOUT:   f_row: array(float64, 1d, A)
# CHECK:STDOUT:   t: array(int32, 3d, C)
# CHECK:STDOUT:   t_line: array(int32, 1d, C)
# CHECK:STDOUT:   t_mixed: array(int32, 2d, A)
# CHECK:STDOUT:   t_plane: array(int32, 2d, C)
