"""A file of several kernels is compiled in partitions (docs/compile.md, "Kernel
partitions"): each group of kernels lowered and optimised on its own, the parts' PTX
merged into one module. Names every part defines (device functions, constant arrays,
strings) get the part's `$pN` suffix, call sites are numbered per part; declarations every part makes (`vprintf`,
dynamic shared memory) appear once. The test runner compiles with -j1 and -j4 and
compares the outputs byte for byte."""
import numpy as np
from numba import cuda

TABLE = np.array([1.5, 2.5, 3.5, 4.5], dtype=np.float32)


@cuda.jit(device=True)
def fact(n):
    # Recursive: stays a real function in each part that calls it.
    if n <= 1:
        return 1
    return n * fact(n - 1)


@cuda.jit(["void(int64[::1])", "void(int32[::1])"])
def first(x):
    sm = cuda.shared.array(0, dtype="int64")
    t = cuda.const.array_like(TABLE)
    i = cuda.grid(1)
    sm[cuda.threadIdx.x] = fact(x[i]) + int(t[i % 4])
    cuda.syncthreads()
    x[i] = sm[0]
    print("first", i)


@cuda.jit("void(float32[::1])")
def second(x):
    sm = cuda.shared.array(0, dtype="float32")
    t = cuda.const.array_like(TABLE)
    i = cuda.grid(1)
    sm[cuda.threadIdx.x] = x[i] * t[i % 4] + fact(i % 5)
    cuda.syncthreads()
    x[i] = sm[0]
    print("second", i)


@cuda.jit("void(float64[::1])")
def third(x):
    x[cuda.grid(1)] += 1.0

# ARGS: -Wno-float64
# PTX: \.const \.align 1 \.b8 pykc_str_0\$p0\[6\] = \{102, 105, 114, 115, 116\};
# PTX: \.const \.align 1 \.b8 pykc_str_0\$p2\[7\] = \{115, 101, 99, 111, 110, 100\};
# PTX: \{ // callseq 0, 0(.|\n)*\{ // callseq 0, 0(.|\n)*\{ // callseq 0, 0
# PTX: \.const \.align \d+ \.b8 pykc_const_0\$p0\[
# PTX: \.const \.align \d+ \.b8 pykc_const_0\$p2\[
# PTX: \.extern \.func .*vprintf
# PTX-NOT: \.extern \.func(.|\n)*\.extern \.func
# PTX: \.extern \.shared \.align \d+ \.b8 pykc_dynamic_shared\[\];
# PTX-NOT: \.extern \.shared(.|\n)*\.extern \.shared
# PTX-NOT: \.version(.|\n)*\.version
# PTX-IN first: call\.uni[^;]*\n?\s*vprintf
# PTX-IN second: call\.uni[^;]*\n?\s*vprintf
# MANIFEST: [k["name"] for k in m["kernels"]] == ["first", "first", "second", "third"]
# MANIFEST: [k["dynamic_shared_memory"] for k in m["kernels"]] == [True, True, True, False]
# LL: define ptx_kernel void @first__i64a1C(.|\n)*define ptx_kernel void @third__f64a1C
# LL-NOT: ModuleID(.|\n)*ModuleID
