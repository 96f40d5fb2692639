# ARGS: compile %s --arch sm_90,compute_90 --fatbin --nvfatbin %d/no-such-dir/libnvfatbin.so.13 --no-cache -o %t
# EXIT: 3
"""--fatbin without nvFatbin: an environment error (exit 3) saying what to install; the
cubins compiled, nothing is written."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def fill(x):
    x[cuda.grid(1)] = 1.0
# CHECK:STDERR: pykc: error: cannot make env_fatbin_no_nvfatbin.fatbin: cannot load nvFatbin (the CUDA toolkit's lib64/libnvfatbin.so.13, or the `nvidia-nvfatbin` wheel's on LD_LIBRARY_PATH):
# CHECK:STDERR:   no-such-dir/libnvfatbin.so.13: cannot open shared object file: No such file or directory
