"""Without --lineinfo or lineinfo=True: no line tables at all."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def scale(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * 3.0


@cuda.jit("void(float32[::1])", lineinfo=True)
def with_lines(x):
    x[0] = 1

# LL: !DICompileUnit
# PTX: \.loc
