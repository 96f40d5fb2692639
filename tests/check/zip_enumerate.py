# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# enumerate(...) as an argument of zip (numba-cuda's tests/cudapy/test_iterators.py:
# test_zip_enumerate): each yields (int64 count, item), counting from its own start.
from numba import cuda


@cuda.jit("void(float32[::1], float32[::1], int32[::1])")
def zipper_enumerator(x, y, error):
    count = 0
    for (i, xv), yv in zip(enumerate(x), y):
        if i != count:
            error[0] = 1
        if xv != x[i]:
            error[0] = 2
        if yv != y[i]:
            error[0] = 3
        count += 1
    for (j, a), (k, b), r in zip(enumerate(x, 5), enumerate(y), range(3, 100)):
        if j - 5 != k or r != k + 3 or a != x[k] or b != y[k]:
            error[0] = 5
    if count != len(x):
        error[0] = 4
# CHECK:STDOUT: kernel zipper_enumerator zipper_enumerator__f32a1C_f32a1C_i32a1C void(float32[::1], float32[::1], int32[::1])
# CHECK:STDOUT:   a: float32
# CHECK:STDOUT:   b: float32
# CHECK:STDOUT:   count: int64
# CHECK:STDOUT:   error: array(int32, 1d, C)
# CHECK:STDOUT:   i: int64
# CHECK:STDOUT:   j: int64
# CHECK:STDOUT:   k: int64
# CHECK:STDOUT:   r: int64
# CHECK:STDOUT:   x: array(float32, 1d, C)
# CHECK:STDOUT:   xv: float32
# CHECK:STDOUT:   y: array(float32, 1d, C)
# CHECK:STDOUT:   yv: float32
