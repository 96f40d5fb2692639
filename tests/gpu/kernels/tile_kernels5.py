"""Tile kernels, fifth file: the scalar rules the tile lowering shares with the SIMT one
(lowering/scalar.h) and docstrings (issue 22). Integer `//` and `%` round toward negative
infinity with the divisor's sign for the remainder, a zero divisor gives 0 (numba's GPU
error model; cuTile leaves it undefined) and INT_MIN // -1 wraps; a kernel and a helper
with docstrings and `...`. Checked by tests/gpu/cases/tile_cases5.py against NumPy.
"""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def divmod_i32(x: "int32[::1]", y: "int32[::1]", q: "int32[::1]", r: "int32[::1]", TILE: ConstInt = 256):
    pid = ct.bid(0)
    a = ct.load(x, index=(pid,), shape=(TILE,))
    b = ct.load(y, index=(pid,), shape=(TILE,))
    ct.store(q, index=(pid,), tile=a // b)
    ct.store(r, index=(pid,), tile=a % b)


@ct.kernel
def divmod_i64(x: "int64[::1]", y: "int64[::1]", q: "int64[::1]", r: "int64[::1]", TILE: ConstInt = 256):
    pid = ct.bid(0)
    a = ct.load(x, index=(pid,), shape=(TILE,))
    b = ct.load(y, index=(pid,), shape=(TILE,))
    ct.store(q, index=(pid,), tile=a // b)
    ct.store(r, index=(pid,), tile=a % b)


@ct.kernel
def divmod_u32(x: "uint32[::1]", y: "uint32[::1]", q: "uint32[::1]", r: "uint32[::1]", TILE: ConstInt = 256):
    pid = ct.bid(0)
    a = ct.load(x, index=(pid,), shape=(TILE,))
    b = ct.load(y, index=(pid,), shape=(TILE,))
    ct.store(q, index=(pid,), tile=a // b)
    ct.store(r, index=(pid,), tile=a % b)


# One scalar divisor for the whole tile (a run-time kernel argument).
@ct.kernel
def divmod_scalar(x: "int32[::1]", d: "int32", q: "int32[::1]", r: "int32[::1]", TILE: ConstInt = 256):
    pid = ct.bid(0)
    a = ct.load(x, index=(pid,), shape=(TILE,))
    ct.store(q, index=(pid,), tile=a // d)
    ct.store(r, index=(pid,), tile=a % d)


def times(t, factor):
    """Multiplies a tile by a scalar (a helper's docstring)."""
    ...
    return t * factor


@ct.kernel
def scale_documented(x: "float32[::1]", y: "float32[::1]", a: float, TILE: ConstInt = 256):
    """y = a * x, one tile per block.

    The docstring of a kernel, as 9 of cuTile's 11 samples have.
    """
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    ct.store(y, index=(bid,), tile=times(t, a))
