# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig k(int16[::1],float32[::1])
"""The dtype of a constant (cuTile's test_typeinfer): a NumPy scalar keeps its own
(`np.int16(4).dtype` is int16), a Python number takes the type it has in a tile kernel."""
import numpy as np
import cuda.tile as ct

VAL = np.int16(4)
SCALE = 0.5


@ct.kernel
def k(x, y):
    ct.static_assert(VAL.dtype == ct.int16)
    ct.static_assert(SCALE.dtype == ct.float32)
    t = ct.full((16,), VAL, dtype=VAL.dtype)
    ct.store(x, index=(0,), tile=t)
    ct.store(y, index=(0,), tile=ct.full((16,), SCALE, dtype=SCALE.dtype))
# CHECK:STDOUT: kernel k k__i16a1C_f32a1C void(int16[::1], float32[::1])
# CHECK:STDOUT:   t: tile(int16, (16,))
# CHECK:STDOUT:   x: array(int16, 1d, C)
# CHECK:STDOUT:   y: array(float32, 1d, C)
