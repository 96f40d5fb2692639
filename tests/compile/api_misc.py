"""print() is one vprintf call with a format string in constant memory (numba's
printimpl); module-level np.array literals and cuda.const.array_like become `.const`
globals; a device function with a signature may call itself; `for` over arrays,
enumerate and zip; `.T`."""
import numpy as np
from numba import cuda

TABLE = np.array([[1.5, 2.5], [3.5, 4.5]], dtype=np.float32)


@cuda.jit("int64(int64)", device=True)
def fact(n):
    if n <= 1:
        return 1
    return fact(n - 1) + fact(n - 2)


@cuda.jit(device=True, inline="always")
def twice(v):
    return v * 2


@cuda.jit("void(int64[::1], float32[:, ::1])")
def k(x, m):
    t = cuda.const.array_like(TABLE)
    i = cuda.grid(1)
    x[i] = fact(x[i]) + int(t[i % 2, 1] + TABLE[1, i % 2]) + twice(i)
    for j, (a, b) in enumerate(zip(m[i], m.T[i])):
        x[i] += j * int(a * b)
    print("fact", x[i], m[0, 0], i > 3)

# PTX: \.const \.align 4 \.b8 pykc_const_0\[16\] = \{0, 0, 192, 63, 0, 0, 32, 64, 0, 0, 96, 64, 0, 0, 144, 64\}
# PTX: \.extern \.func .*vprintf
# PTX-IN k: call\.uni[^;]*\n?\s*vprintf
# PTX: \.const \.align 1 \.b8 pykc_str_\d+\[\d+\] = \{37, 115, 32, 37, 108, 108, 100, 32, 37, 102, 32, 37, 115, 10\}
# PTX: \.func  \(\.param \.b64 func_retval0\) pykc_device__fact__i64(.|\n)*call\.uni[^;]*\n?\s*pykc_device__fact__i64
# LL: call i64 @pykc_device__fact__i64\(i64
# LL: define internal i64 @pykc_device__twice__i64\(i64 %v\) #1
# LL: attributes #1 = \{ alwaysinline nounwind \}
