# ARGS: --sig launched(float32[::1])
"""Omitted arguments (a `--sig` with fewer types than parameters, numba's
`omitted(default=...)`) are compiled in: no kernel parameters, the symbol and the
signature name their values as tile kernels' Constant parameters do (docs/ABI.md); a
device function called without its defaulted argument folds the default."""
from numba import cuda


@cuda.jit(device=True)
def pick(a, b, criterion=-1):
    if criterion == -1:
        return a + b
    return a * b


@cuda.jit
def launched(x, scale=3, flag=True):
    if flag:
        x[0] = pick(x[0], x[1]) * scale

# MANIFEST: m["kernels"][0]["symbol"] == "launched__f32a1C__Kscale_3__Kflag_T"
# MANIFEST: m["kernels"][0]["signature"] == "void(float32[::1], scale=3, flag=True)"
# MANIFEST: [p["name"] for p in m["kernels"][0]["params"]] == ["x"]
# LL: define internal float @pykc_device__pick__f32_f32__Kcriterion_n0p1\(float %a, float %b\)
# PTX-NOT: _param_3
