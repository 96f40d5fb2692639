# ARGS: -v compile %s --arch sm_100,sm_120,compute_90 --fatbin --cache-dir %t/cache -o %t/out
# MASK: [0-9a-f]{64}
"""-v: each arch misses the cache and compiles (compute_90 too, as PTX), then the fatbin
misses and is made (docs/compile.md, "Fatbins"); tests/arch/run_arch_outputs.py shows
the warm run hitting without nvFatbin."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def fill(x):
    x[cuda.grid(1)] = 1.0
# CHECK:STDERR: pykc: info: cache miss for blackwell_fatbin_cache.py sm_100 ([[MASKED]])
# CHECK:STDERR: pykc: info: cache miss for blackwell_fatbin_cache.py sm_120 ([[MASKED]])
# CHECK:STDERR: pykc: info: cache miss for blackwell_fatbin_cache.py compute_90 ([[MASKED]])
# CHECK:STDERR: pykc: info: compiling blackwell_fatbin_cache.py for sm_100
# CHECK:STDERR: pykc: info: compiling blackwell_fatbin_cache.py for sm_120
# CHECK:STDERR: pykc: info: compiling blackwell_fatbin_cache.py for compute_90
# CHECK:STDERR: pykc: info: cache miss for fatbin blackwell_fatbin_cache.fatbin ([[MASKED]])
