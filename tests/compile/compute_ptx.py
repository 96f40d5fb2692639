# ARGS: --arch sm_90,compute_90 --fatbin
# compute_90: PTX for the driver's JIT and no cubin (docs/compile.md, "Architectures");
# --fatbin puts the sm_90 cubin and that PTX in one file the manifest names.
# MANIFEST: m["targets"][1] == {"arch": "compute_90", "ptx": "compute_ptx.compute_90.ptx"}
# MANIFEST: m["fatbin"] == {"file": "compute_ptx.fatbin", "cubins": ["sm_90"], "ptx": ["compute_90"]}
# MANIFEST: "compute_90" not in m["kernels"][0]["resources"]
# FILES: compute_ptx.sm_90.cubin compute_ptx.sm_90.ptx compute_ptx.compute_90.ptx compute_ptx.fatbin manifest.json
from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def scale(x, s):
    i = cuda.grid(1)
    if i < x.shape[0]:
        x[i] *= s
