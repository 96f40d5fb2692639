# ARGS: compile %s --arch sm_90,sm_99 --no-cache -o %t
# EXIT: 2
"""An arch nvJitLink does not know: refused at the edge, naming every arch pykc builds."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def fill(x):
    x[cuda.grid(1)] = 1.0
# CHECK:STDERR: pykc: error: --arch sm_99: unsupported GPU architecture `sm_99` (supported: sm_75, sm_80, sm_86, sm_87, sm_88, sm_89, sm_90, sm_90a, sm_100, sm_100a, sm_100f, sm_103, sm_103a, sm_103f, sm_110, sm_110a, sm_110f, sm_120, sm_120a, sm_120f, sm_121, sm_121a, sm_121f, compute_75, compute_80, compute_86, compute_87, compute_89, compute_90, compute_90a)
