# ARGS: --diag-kinds compile %s --phase=check --dump-typed --kernel make.<locals>.kernel --sig make.kernel(float32[::1]) --const make.kernel.TILE=64 --const ROWS=2 -D factor=3
"""`--const` values of a kernel made inside a function: qualified by its qualified name
(`make.kernel.TILE=64`), or unqualified with `--kernel` naming it."""
import cuda.tile as ct


def make(factor):
    @ct.kernel
    def kernel(x, TILE: ct.Constant[int], ROWS: ct.Constant[int]):
        t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
        ct.store(x, index=(ct.bid(0),), tile=t * factor * ROWS)
    return kernel
# CHECK:STDOUT: kernel make.kernel make$002Ekernel__f32a1C__KTILE_64__KROWS_2 void(float32[::1], TILE=64, ROWS=2)
# CHECK:STDOUT:   ROWS: int64
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   t: tile(float32, (64,))
# CHECK:STDOUT:   x: array(float32, 1d, C)
