# ARGS: --arch sm_86 --const TILE=2048
# The same division by one value on sm_86, whose float64 runs at 1/64 of float32:
# div.rn.f32 per element, no float64 (docs/TILE.md, "Division by one value").
# PTX: div\.rn\.f32
# PTX-NOT: \.f64
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def softmax(x: "float32[:, ::1]", y: "float32[:, ::1]", TILE: ConstInt):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.NEG_INF)
    num = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    ct.store(y, index=(row, 0), tile=num / ct.sum(num, axis=1, keepdims=True))
