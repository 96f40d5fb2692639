# ARGS: --arch sm_90 --const TILE=2048 --use-fast-math
# With --use-fast-math the division by one value is not made exact through float64: the
# approximate division --use-fast-math asks for (LLVM multiplies by an approximate
# reciprocal; docs/TILE.md, "Division by one value").
# PTX: mul\.ftz\.f32
# PTX-NOT: div\.rn
# PTX-NOT: \.f64
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def softmax(x: "float32[:, ::1]", y: "float32[:, ::1]", TILE: ConstInt):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.NEG_INF)
    num = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    ct.store(y, index=(row, 0), tile=num / ct.sum(num, axis=1, keepdims=True))
