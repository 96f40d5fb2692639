"""A kernel with a mistake, for run_jit_tests.py: its launch raises pykc.cuda.CompileError."""
from pykc import cuda


@cuda.jit
def undefined_name(x):
    x[0] = not_defined_anywhere  # noqa: F821
