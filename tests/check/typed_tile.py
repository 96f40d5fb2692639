# ARGS: --diag-kinds compile %s --phase=check --dump-typed --const TILE=256 --const TILE=512
# Tile kernels (docs/TILE.md): Constant parameters (a default, `--const` values: one
# specialisation each), broadcasting and cuTile's promotion (a Python number takes
# the tile's dtype), reductions with axis/keepdims, astype, rebinding a name.
import cuda.tile as ct
import numpy as np

ConstInt = ct.Constant[int]
EPS = 1e-5


@ct.kernel(occupancy=2, num_ctas=1)
def norm_rows(x: "float16[:, ::1]", y: "float16[:, ::1]", scale: "float32",
              TILE: ConstInt, ROWS: ct.Constant[int] = 2):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid, 0), shape=(ROWS, TILE), padding_mode=ct.PaddingMode.ZERO)
    half = t * 2
    t = t.astype(ct.float32)
    total = ct.sum(t, axis=1, keepdims=True)
    peak = ct.max(t, axis=-1)
    everything = ct.min(t)
    mean = total / TILE
    r = ct.rsqrt(mean ** 2 + EPS) * scale
    cube = half ** 3
    root = total ** 0.5
    ids = ct.arange(TILE, dtype=ct.int32)
    mask = ids < x.shape[1]
    out = ct.where(mask, (t - mean) * r, 0.0)
    n = ct.cdiv(x.shape[1], TILE) + ct.num_tiles(x, axis=1, shape=(ROWS, TILE))
    acc = ct.zeros((ROWS, TILE), dtype=ct.float32)
    for j in range(n):
        acc += out
    ct.store(y, index=(bid, 0), tile=(acc + everything).astype(y.dtype))
# CHECK:STDOUT: kernel norm_rows norm_rows__f16a2C_f16a2C_f32__KTILE_256__KROWS_2 void(float16[:, ::1], float16[:, ::1], float32, TILE=256, ROWS=2)
# CHECK:STDOUT:   ROWS: int64
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   acc: tile(float32, (2, 256))
# CHECK:STDOUT:   bid: int32
# CHECK:STDOUT:   cube: tile(float16, (2, 256))
# CHECK:STDOUT:   everything: float32
# CHECK:STDOUT:   half: tile(float16, (2, 256))
# CHECK:STDOUT:   ids: tile(int32, (256,))
# CHECK:STDOUT:   j: int32
# CHECK:STDOUT:   mask: tile(bool, (256,))
# CHECK:STDOUT:   mean: tile(float32, (2, 1))
# CHECK:STDOUT:   n: int32
# CHECK:STDOUT:   out: tile(float32, (2, 256))
# CHECK:STDOUT:   peak: tile(float32, (2,))
# CHECK:STDOUT:   r: tile(float32, (2, 1))
# CHECK:STDOUT:   root: tile(float32, (2, 1))
# CHECK:STDOUT:   scale: float32
# CHECK:STDOUT:   t: tile(float32, (2, 256))
# CHECK:STDOUT:   total: tile(float32, (2, 1))
# CHECK:STDOUT:   x: array(float16, 2d, C)
# CHECK:STDOUT:   y: array(float16, 2d, C)
# CHECK:STDOUT: kernel norm_rows norm_rows__f16a2C_f16a2C_f32__KTILE_512__KROWS_2 void(float16[:, ::1], float16[:, ::1], float32, TILE=512, ROWS=2)
# CHECK:STDOUT:   ROWS: int64
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   acc: tile(float32, (2, 512))
# CHECK:STDOUT:   bid: int32
# CHECK:STDOUT:   cube: tile(float16, (2, 512))
# CHECK:STDOUT:   everything: float32
# CHECK:STDOUT:   half: tile(float16, (2, 512))
# CHECK:STDOUT:   ids: tile(int32, (512,))
# CHECK:STDOUT:   j: int32
# CHECK:STDOUT:   mask: tile(bool, (512,))
# CHECK:STDOUT:   mean: tile(float32, (2, 1))
# CHECK:STDOUT:   n: int32
# CHECK:STDOUT:   out: tile(float32, (2, 512))
# CHECK:STDOUT:   peak: tile(float32, (2,))
# CHECK:STDOUT:   r: tile(float32, (2, 1))
# CHECK:STDOUT:   root: tile(float32, (2, 1))
# CHECK:STDOUT:   scale: float32
# CHECK:STDOUT:   t: tile(float32, (2, 512))
# CHECK:STDOUT:   total: tile(float32, (2, 1))
# CHECK:STDOUT:   x: array(float16, 2d, C)
# CHECK:STDOUT:   y: array(float16, 2d, C)
