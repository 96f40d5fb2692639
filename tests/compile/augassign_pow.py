"""`s += d ** k` with an integer power on the right (sgkit's euclidean_map_kernel:
`square_sum += (a[i] - b[i]) ** types.uint32(2)` on int64 arrays): the power is an integer
power (repeated multiplication), never libdevice's double `pow` handed the integers' bits,
which wrote INT64_MAX. The augmented assignment's own exponent type (for `x **= k`) is kept
apart from the right side's."""
from numba import cuda, types


@cuda.jit("void(int64[::1], int64[::1], int64[::1])")
def sq_sum(a, b, out):
    s = types.float32(0)
    for i in range(a.shape[0]):
        s += (a[i] - b[i]) ** types.uint32(2)
    out[0] = s


@cuda.jit("void(float64[::1])")
def pow_in_place(x):
    v = x[0]
    v **= 3
    x[0] = v

# LL-NOT: call .*@__nv_pow\(i64
# LL: call i64 @pykc.pow.i64.i64
# LL: call.* double @pykc.pow.f64.i64
