# ARGS: --arch sm_90 --const TILE=1024
# Docstrings and other constant statements (`...`, a bare number) in tile kernels and
# helpers are accepted and mean nothing (issue 22: 9 of cuTile's 11 samples have one);
# the kernel still scales its tile, through the helper.
# PTX-IN scale: mul\.rn\.f32
# MANIFEST: [k["name"] for k in m["kernels"]] == ["scale"]
import cuda.tile as ct

ConstInt = ct.Constant[int]


def times(t, factor):
    """Multiplies a tile by a scalar.

    A helper's docstring, like the kernel's.
    """
    ...
    return t * factor


@ct.kernel
def scale(x: "float32[::1]", y: "float32[::1]", a: float, TILE: ConstInt):
    """y = a * x, one tile per block."""
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    0
    ct.store(y, index=(bid,), tile=times(t, a))
