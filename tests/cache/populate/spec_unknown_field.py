# ARGS: cache populate %s --arch sm_90 --cache-dir %t --spec %d/specs/unknown_field.json
# EXIT: 2
# MASK: \d+\.\d\d s$
# MASK: [^\s`]*tests/cache/populate/
from numba import cuda

N = 2


@cuda.jit("void(float32[::1])")
def k(x):
    x[0] = 1.0 + N
# CHECK:STDERR: pykc: error: --spec `[[MASKED]]specs/unknown_field.json`: `x.py`: unknown field `fastmath` (known: sigs, defines, consts, opt, use_fast_math, lineinfo, maxrregcount, link, include_dirs, nvrtc_options, lto, alias_versioning)
