"""A kernel launched first from eight threads at once (run_jit_tests.py): compiled once."""
from pykc import cuda


@cuda.jit
def twice(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 2
