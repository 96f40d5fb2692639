# ARGS: --arch sm_90
# ct.add, ct.sub and ct.mul (cuTile's samples/MoE.py: `ct.add(1, ct.exp(-ta),
# flush_to_zero=True)`) type as their operators; flush_to_zero on float32 and a rounding
# mode other than RN pick PTX's rounded instructions (a - b as a + (-b)); integers and
# plain RN are the operator itself.
# PTX-IN rounded: add\.rn\.ftz\.f32
# PTX-IN rounded: mul\.rn\.ftz\.f32
# PTX-IN rounded: add\.rz\.f64
# PTX-IN rounded: add\.rm\.f32
# PTX-IN rounded: mul\.lo\.s32
# MANIFEST: [k["name"] for k in m["kernels"]] == ["rounded"]
import cuda.tile as ct


@ct.kernel
def rounded(a: "float32[::1]", b: "float64[::1]", i: "int32[::1]", out: "float32[::1]",
            TILE: ct.Constant[int] = 128):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    y = ct.load(b, index=(bid,), shape=(TILE,))
    k = ct.load(i, index=(bid,), shape=(TILE,))
    s = ct.add(1, ct.exp(-x), flush_to_zero=True)
    p = ct.mul(x, s, flush_to_zero=True)
    d = ct.sub(y, y, rounding_mode=ct.RoundingMode.RZ)
    q = ct.mul(k, k)
    r = ct.add(x, x, rounding_mode=ct.RoundingMode.RM)
    ct.store(out, index=(bid,), tile=p + d.astype(ct.float32) + q.astype(ct.float32) + r)
