# ARGS: --diag-kinds compile %s --emit ptx -o -
# EXIT: 2
"""`-o -` is no standard output for `pykc compile` (it writes a folder; it used to make a
folder named `-`): a usage error that points at `pykc inspect`."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def fill(x):
    x[cuda.grid(1)] = 1.0
# CHECK:STDERR: pykc: error: -o -: `pykc compile` writes a folder of files (cubins, PTX, manifest.json); give a folder, or print a stage with `pykc inspect FILE --emit ptx`
