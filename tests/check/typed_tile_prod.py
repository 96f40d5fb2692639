# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig k(float16[:,::1],float16[::1],int32[::1],bool[:,::1])
"""`ct.prod` reduces like `ct.sum`: the tile's dtype, bools counted as int32."""
import cuda.tile as ct


@ct.kernel
def k(x, y, n, flags):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(4, 32))
    p = ct.prod(t, axis=1)
    ct.store(y, index=(ct.bid(0),), tile=p)
    b = ct.load(flags, index=(ct.bid(0), 0), shape=(4, 32))
    q = ct.prod(b, axis=0)
    ct.store(n, index=(ct.bid(0),), tile=q)
# CHECK:STDOUT: kernel k k__f16a2C_f16a1C_i32a1C_b1a2C void(float16[:, ::1], float16[::1], int32[::1], bool[:, ::1])
# CHECK:STDOUT:   b: tile(bool, (4, 32))
# CHECK:STDOUT:   flags: array(bool, 2d, C)
# CHECK:STDOUT:   n: array(int32, 1d, C)
# CHECK:STDOUT:   p: tile(float16, (4,))
# CHECK:STDOUT:   q: tile(int32, (32,))
# CHECK:STDOUT:   t: tile(float16, (4, 32))
# CHECK:STDOUT:   x: array(float16, 2d, C)
# CHECK:STDOUT:   y: array(float16, 1d, C)
