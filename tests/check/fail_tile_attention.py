# ARGS: --diag-kinds compile %s --phase=check --sig loose(float32[::1],int32,float32) --sig unannotated(float32[::1],float32) --const B=2
# Diagnostics of what cuTile's FMHA sample brought in: `float`/`int`/`bool` annotations
# that the signature contradicts, Constant[bool] values, `order=`, `ct.truediv`'s
# rounding modes, `flush_to_zero=`, builtin max/min on tiles that do not broadcast,
# RoundingMode members, math functions of module constants Python would refuse.
import math

import numpy as np

import cuda.tile as ct
from cuda.tile import RoundingMode as RM

BAD_LOG = math.log(0)
ConstBool = ct.Constant[bool]


@ct.kernel
# CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:30: error: Constant parameter `B` is a `bool`: give it True, False, 1 or 0, not `2` [invalid-signature]
# CHECK:STDERR: def unannotated(x, f: float, B: ConstBool):
# CHECK:STDERR:                              ^~~~~~~~~~~~
# CHECK:STDERR:
def unannotated(x, f: float, B: ConstBool):
    pass


# Only Python scalar annotations beside unannotated arrays: the types must come from --sig.
@ct.kernel
# CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:5: error: tile kernel `nosig` has no types: annotate its parameters (`a: "float32[::1]"`) or give `--sig 'nosig(...)'` with the types of its non-Constant parameters [no-signature]
# CHECK:STDERR: def nosig(x, s: float):
# CHECK:STDERR:     ^~~~~
# CHECK:STDERR:
def nosig(x, s: float):
    pass


@ct.kernel
# CHECK:STDERR: fail_tile_attention.py:[[@LINE+8]]:17: error: parameter `n` is annotated `float`, but the signature gives it `int32` [tile-type]
# CHECK:STDERR: def loose(x, n: float, s: int):
# CHECK:STDERR:                 ^~~~~
# CHECK:STDERR:
# CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:27: error: parameter `s` is annotated `int`, but the signature gives it `float32` [tile-type]
# CHECK:STDERR: def loose(x, n: float, s: int):
# CHECK:STDERR:                           ^~~
# CHECK:STDERR:
def loose(x, n: float, s: int):
    pass


@ct.kernel
def bad(x: "float32[:, ::1]", h: "float16[:, ::1]", T: ct.Constant[int] = 16):
    i = ct.bid(0)
    # CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:54: error: `order=` takes a tuple of axes, "C" or "F", found "K" [tile-type]
    # CHECK:STDERR:     t = ct.load(x, index=(i, 0), shape=(T, T), order="K")
    # CHECK:STDERR:                                                      ^~~
    # CHECK:STDERR:
    t = ct.load(x, index=(i, 0), shape=(T, T), order="K")
    # CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:54: error: `order=` must be a permutation of the array's 2 axes (a tuple of constants), "C" or "F", found `(0, 0)` [tile-type]
    # CHECK:STDERR:     t = ct.load(x, index=(i, 0), shape=(T, T), order=(0, 0))
    # CHECK:STDERR:                                                      ^~~~~~
    # CHECK:STDERR:
    t = ct.load(x, index=(i, 0), shape=(T, T), order=(0, 0))
    # CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:54: error: `order=` must be a permutation of the array's 2 axes (a tuple of constants), "C" or "F", found `(0, 1, 2)` [tile-type]
    # CHECK:STDERR:     t = ct.load(x, index=(i, 0), shape=(T, T), order=(0, 1, 2))
    # CHECK:STDERR:                                                      ^~~~~~~~~
    # CHECK:STDERR:
    t = ct.load(x, index=(i, 0), shape=(T, T), order=(0, 1, 2))
    t = ct.load(x, index=(i, 0), shape=(T, T))
    u = ct.load(h, index=(i, 0), shape=(T, T))
    # CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:40: error: `ct.truediv` with `rounding_mode=RoundingMode.APPROX` on `float16` is not supported in tile kernels yet (float32 only) [tile-unsupported]
    # CHECK:STDERR:     a = ct.truediv(u, u, rounding_mode=RM.APPROX)
    # CHECK:STDERR:                                        ^~~~~~~~~
    # CHECK:STDERR:
    a = ct.truediv(u, u, rounding_mode=RM.APPROX)
    # CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:40: error: `ct.truediv` with `rounding_mode=RoundingMode.RZI` on `float32` is not supported in tile kernels yet (RZI rounds to integers; division takes RN, RZ, RM, RP, FULL or APPROX) [tile-unsupported]
    # CHECK:STDERR:     b = ct.truediv(t, t, rounding_mode=RM.RZI)
    # CHECK:STDERR:                                        ^~~~~~
    # CHECK:STDERR:
    b = ct.truediv(t, t, rounding_mode=RM.RZI)
    # CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:40: error: expected a `ct.RoundingMode` member or None, found `cuda.tile.PaddingMode.ZERO` [tile-type]
    # CHECK:STDERR:     c = ct.truediv(t, t, rounding_mode=ct.PaddingMode.ZERO)
    # CHECK:STDERR:                                        ^~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    c = ct.truediv(t, t, rounding_mode=ct.PaddingMode.ZERO)
    # CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:34: error: `flush_to_zero` must be a compile-time constant [not-constant]
    # CHECK:STDERR:     d = ct.exp2(t, flush_to_zero=i > 0)
    # CHECK:STDERR:                                  ^~~~~
    # CHECK:STDERR:
    d = ct.exp2(t, flush_to_zero=i > 0)
    # CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:19: error: `ct.exp` has no parameter `flush_to_zero` [invalid-call]
    # CHECK:STDERR:     e = ct.exp(t, flush_to_zero=True)
    # CHECK:STDERR:                   ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    e = ct.exp(t, flush_to_zero=True)
    # CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:9: error: shapes of `tile(float32, (16, 16))` and `tile(int32, (8,))` do not broadcast [tile-shape]
    # CHECK:STDERR:     f = max(t, ct.arange(8, dtype=np.int32))
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    f = max(t, ct.arange(8, dtype=np.int32))
    # CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:9: error: `cuda.tile.RoundingMode` has no attribute `NEAREST` [unknown-attribute]
    # CHECK:STDERR:     g = RM.NEAREST
    # CHECK:STDERR:         ^~~~~~~~~~
    # CHECK:STDERR:
    g = RM.NEAREST
    # CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:13: error: `BAD_LOG` is not a compile-time constant: kernels can use module constants (numbers, bools, tuples), imports and decorated functions [host-global]
    # CHECK:STDERR:     z = t * BAD_LOG
    # CHECK:STDERR:             ^~~~~~~
    # CHECK:STDERR:
    z = t * BAD_LOG
    # CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:33: error: `ct.exp` with `rounding_mode=RoundingMode.RZ` on `float32` is not supported in tile kernels yet (FULL, or APPROX on float32) [tile-unsupported]
    # CHECK:STDERR:     h = ct.exp(t, rounding_mode=RM.RZ)
    # CHECK:STDERR:                                 ^~~~~
    # CHECK:STDERR:
    h = ct.exp(t, rounding_mode=RM.RZ)
    # CHECK:STDERR: fail_tile_attention.py:[[@LINE+4]]:54: error: `ct.exp` with `rounding_mode=RoundingMode.APPROX` on `float16` is not supported in tile kernels yet (FULL, or APPROX on float32) [tile-unsupported]
    # CHECK:STDERR:     h16 = ct.exp(t.astype(ct.float16), rounding_mode=RM.APPROX)
    # CHECK:STDERR:                                                      ^~~~~~~~~
    # CHECK:STDERR:
    h16 = ct.exp(t.astype(ct.float16), rounding_mode=RM.APPROX)
