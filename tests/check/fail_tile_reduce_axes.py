# ARGS: --diag-kinds compile %s --phase=check
# A tuple of axes: reductions take distinct axes in range; ct.argmax/argmin one axis.
import cuda.tile as ct


@ct.kernel
def axes(x: "float32[:,:,::1]", y: "float32[::1]", i: "int32[::1]"):
    t = ct.load(x, (0, 0, 0), (4, 8, 16))
    # CHECK:STDERR: fail_tile_reduce_axes.py:[[@LINE+4]]:24: error: axis -2 is given twice [tile-shape]
    # CHECK:STDERR:     a = ct.sum(t, axis=(1, -2))
    # CHECK:STDERR:                        ^~~~~~~
    # CHECK:STDERR:
    a = ct.sum(t, axis=(1, -2))
    # CHECK:STDERR: fail_tile_reduce_axes.py:[[@LINE+4]]:24: error: axis 3 is out of range for `tile(float32, (4, 8, 16))` [tile-shape]
    # CHECK:STDERR:     b = ct.max(t, axis=(0, 3))
    # CHECK:STDERR:                        ^~~~~~
    # CHECK:STDERR:
    b = ct.max(t, axis=(0, 3))
    # CHECK:STDERR: fail_tile_reduce_axes.py:[[@LINE+4]]:27: error: the axis must be one axis (an integer) or None, found `(1, 2)` [tile-type]
    # CHECK:STDERR:     c = ct.argmax(t, axis=(1, 2))
    # CHECK:STDERR:                           ^~~~~~
    # CHECK:STDERR:
    c = ct.argmax(t, axis=(1, 2))
    # CHECK:STDERR: fail_tile_reduce_axes.py:[[@LINE+4]]:24: error: the axis must be an integer, a tuple of integers or None, found `(0, 1.5)` [tile-type]
    # CHECK:STDERR:     d = ct.min(t, axis=(0, 1.5))
    # CHECK:STDERR:                        ^~~~~~~~
    # CHECK:STDERR:
    d = ct.min(t, axis=(0, 1.5))
