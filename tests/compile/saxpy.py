"""Grid-stride saxpy: a clean inner loop (global loads, one fma, no float64, no
negative-index select: cuda.grid(1) is known non-negative), and the ABI. Without alias
versioning (tests/compile/alias_versioning.py has it), whose unrolled no-alias loop
computes its trip count with a select."""
# ARGS: --no-alias-versioning
from numba import cuda


@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
def saxpy(a, x, y, out):
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        out[i] = a * x[i] + y[i]

# PTX-IN saxpy: ld\.global\.f32
# PTX-IN saxpy: fma\.rn\.f32
# PTX-IN saxpy: st\.global\.f32
# PTX-NOT-IN saxpy: \.f64
# PTX-NOT-IN saxpy: selp
# PTX: \.visible \.entry saxpy__f32_f32a1C_f32a1C_f32a1C\(
# PTX: \.version 8\.5
# PTX: \.target sm_90
# LL: define ptx_kernel void @saxpy__f32_f32a1C_f32a1C_f32a1C\(float %a, ptr %x\.0, i64 %x\.1, i64 %x\.2,
# LL: !range
# LL: fmul contract float
# MANIFEST: m["format"] == "pykc-manifest" and m["abi_version"] == 1
# MANIFEST: m["kernels"][0]["symbol"] == "saxpy__f32_f32a1C_f32a1C_f32a1C"
# MANIFEST: m["kernels"][0]["signature"] == "void(float32, float32[::1], float32[::1], float32[::1])"
# MANIFEST: [p["kind"] for p in m["kernels"][0]["params"]] == ["scalar", "array", "array", "array"]
# MANIFEST: m["kernels"][0]["params"][1] == {"name": "x", "kind": "array", "dtype": "float32", "ndim": 1, "layout": "C"}
# MANIFEST: m["kernels"][0]["resources"]["sm_90"]["registers"] > 0
# MANIFEST: m["targets"] == [{"arch": "sm_90", "cubin": "saxpy.sm_90.cubin", "ptx": "saxpy.sm_90.ptx"}]
# FILES: saxpy.sm_90.cubin saxpy.sm_90.ptx saxpy.sm_90.ll manifest.json
