# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# ct.static_assert on true compile-time conditions (tile shapes, dtypes, Constant
# parameters, array ranks) compiles to nothing; ct.static_eval of a compile-time
# expression is that constant (`k` below folds into the tile's shape).
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def checked(x: "float32[:, ::1]", TILE: ConstInt = 32):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(1, TILE))
    ct.static_assert(t.shape[1] == TILE)
    ct.static_assert(x.dtype == ct.float32, "float32 only")
    ct.static_assert(x.ndim == 2 and TILE % 16 == 0)
    k = ct.static_eval(TILE // 2)
    ct.store(x, index=(ct.bid(0), 0), tile=ct.extract(t, index=(0, 0), shape=(1, k)) * 2)
# CHECK:STDOUT: kernel checked checked__f32a2C__KTILE_32 void(float32[:, ::1], TILE=32)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   k: int64
# CHECK:STDOUT:   t: tile(float32, (1, 32))
# CHECK:STDOUT:   x: array(float32, 2d, C)
