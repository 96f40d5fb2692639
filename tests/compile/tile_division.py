# ARGS: --arch sm_90 --const TILE=2048
# A float32 tile divided by one value (softmax's `num / den`) on a GPU with full-rate
# float64: the divisor's float64 reciprocal once (rcp.approx.ftz.f64 and Newton steps,
# no rcp.rn.f64 and its slow-path call), then per element a float64 product rounded to
# float32 (docs/TILE.md, "Division by one value"); no div.rn.f32 per element. The
# kernel fits the first register budget, 32 (16 CTAs of 128 threads), without spills;
# vector add f32 spills under 32 and under 40 and is linked without a budget.
# PTX-IN softmax_f16: rcp\.approx\.ftz\.f64
# PTX-IN softmax_f16: cvt\.rn\.f32\.f64
# PTX-IN softmax_f16: \.minnctapersm 16
# PTX-NOT-IN softmax_f16: div\.rn\.f32
# PTX-NOT-IN softmax_f16: rcp\.rn\.f64
# PTX-IN elementwise: div\.rn\.f32
# MANIFEST: [k["resources"]["sm_90"]["registers"] for k in m["kernels"] if k["name"] == "softmax_f16"] == [32]
# MANIFEST: all(k["resources"]["sm_90"]["spill_stores"] == 0 for k in m["kernels"])
# MANIFEST: [k["resources"]["sm_90"]["registers"] > 40 for k in m["kernels"] if k["name"] == "vector_add"] == [True]
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def softmax_f16(x: "float16[:, ::1]", y: "float16[:, ::1]", TILE: ConstInt):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.NEG_INF)
    t = t.astype(ct.float32)
    num = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    den = ct.sum(num, axis=1, keepdims=True)
    ct.store(y, index=(row, 0), tile=(num / den).astype(y.dtype))


# Each element by its own divisor: div.rn.f32 per element.
@ct.kernel
def elementwise(a: "float32[::1]", b: "float32[::1]", c: "float32[::1]", TILE: ConstInt):
    pid = ct.bid(0)
    ct.store(c, index=(pid,), tile=ct.load(a, index=(pid,), shape=(TILE,)) / ct.load(b, index=(pid,), shape=(TILE,)))


@ct.kernel
def vector_add(a: "float32[::1]", b: "float32[::1]", c: "float32[::1]", TILE: ConstInt):
    pid = ct.bid(0)
    ct.store(c, index=(pid,), tile=ct.load(a, index=(pid,), shape=(TILE,)) + ct.load(b, index=(pid,), shape=(TILE,)))
