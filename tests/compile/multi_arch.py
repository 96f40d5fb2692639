# ARGS: --arch sm_80,sm_90 -O2
"""Several architectures: one cubin and PTX per arch, one manifest; several
signatures per kernel: one entry each."""
from numba import cuda


@cuda.jit(["void(float32[::1], float32)", "void(float64[::1], float64)"])
def scale(x, s):
    i = cuda.grid(1)
    if i < x.shape[0]:
        x[i] *= s


@cuda.jit("void(int32[::1, :], int32)")
def fill(x, v):
    i, j = cuda.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        x[i, j] = v

# FILES: multi_arch.sm_80.cubin multi_arch.sm_80.ptx multi_arch.sm_90.cubin multi_arch.sm_90.ptx manifest.json
# MANIFEST: [t["arch"] for t in m["targets"]] == ["sm_80", "sm_90"]
# MANIFEST: [k["symbol"] for k in m["kernels"]] == ["scale__f32a1C_f32", "scale__f64a1C_f64", "fill__i32a2F_i32"]
# MANIFEST: sorted(m["kernels"][0]["resources"]) == ["sm_80", "sm_90"]
# MANIFEST: m["kernels"][2]["params"][0]["layout"] == "F"
# PTX: \.target sm_80
