"""Tile kernels for run_jit_tests.py, in cuTile's dialect through `import pykc.tile as ct`
(`import cuda.tile as ct` under python -m pykc run)."""
import pykc.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def vec_add(a, b, c, TILE: ConstInt):
    """c = a + b, one tile per block."""
    bid = ct.bid(0)
    a_tile = ct.load(a, index=(bid,), shape=(TILE,))
    b_tile = ct.load(b, index=(bid,), shape=(TILE,))
    ct.store(c, index=(bid,), tile=a_tile + b_tile)


@ct.kernel
def scale_rows(x, out, s: float, TM: ConstInt, TN: ConstInt):
    bx = ct.bid(0)
    t = ct.load(x, index=(bx, 0), shape=(TM, TN))
    ct.store(out, index=(bx, 0), tile=t * s)
