"""Shared arrays are addrspace(3) globals (ld/st.shared); syncthreads is bar.sync;
atomics on global and shared memory; dynamic shared memory; max_registers."""
import numpy as np
from numba import cuda, int32

TPB = 128


@cuda.jit("void(float32[::1], float32[::1])")
def reduce(x, total):
    buf = cuda.shared.array(TPB, np.float32)
    t = cuda.threadIdx.x
    buf[t] = x[cuda.grid(1)]
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        cuda.atomic.add(total, 0, buf[0])


@cuda.jit("void(int32[::1], int32[::1])", max_registers=32)
def hist(x, bins):
    local = cuda.shared.array((4, 4), int32)
    local[cuda.threadIdx.x % 4, 0] = 0
    cuda.syncthreads()
    old = cuda.atomic.add(local, (x[cuda.grid(1)] % 4, 0), 1)
    cuda.syncthreads()
    if cuda.threadIdx.x < 4:
        cuda.atomic.add(bins, cuda.threadIdx.x, local[cuda.threadIdx.x, 0] + old * 0)


@cuda.jit("void(float32[::1])")
def dynamic(x):
    sm = cuda.shared.array(0, dtype="float32")
    sm[cuda.threadIdx.x] = x[cuda.grid(1)]
    cuda.syncthreads()
    x[cuda.grid(1)] = sm[sm.size - 1 - cuda.threadIdx.x]

# PTX-IN reduce: \.shared \.align 16 \.b8 [\w$]+\[512\]
# PTX-IN reduce: st\.shared\.f32
# PTX-IN reduce: bar\.sync\s+0
# PTX-IN reduce: (atom|red)\.global\.add\.f32
# PTX-IN hist: atom\.shared\.add\.u32
# PTX-IN hist: (atom|red)\.global\.add\.u32
# PTX-IN hist: \.maxnreg 32
# PTX-NOT-IN reduce: \.maxnreg
# PTX-IN dynamic: %dynamic_smem_size
# MANIFEST: [k["dynamic_shared_memory"] for k in m["kernels"]] == [False, False, True]
# MANIFEST: m["kernels"][0]["resources"]["sm_90"]["static_shared_bytes"] == 512
# MANIFEST: m["kernels"][1]["resources"]["sm_90"]["registers"] <= 32
