"""A kernel with a mistake, for run_jit_tests.py: its launch raises pykc.cuda.CompileError."""
from pykc import cuda


@cuda.jit
def undefined_name(x):
    x[0] = not_defined_anywhere  # noqa: F821


@cuda.jit
def faults(x):
    """Writes 4 GB past a one-element array (kernels do not check bounds, as in numba):
    the launch returns, the illegal address comes at the next synchronisation."""
    x[1000000000] = 1.0
