# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# PyTorch's dtypes name tile dtypes inside a kernel, as cuTile's samples write them
# (`ct.arange(TILE, dtype=torch.int32)` in samples/VectorAddition.py), with PyTorch's
# aliases (torch.half, torch.long, torch.float) and in dtype comparisons.
import torch
import cuda.tile as ct


@ct.kernel
def torch_dtypes(a: "float32[::1]", c: "float16[::1]", TILE: ct.Constant[int] = 64):
    bid = ct.bid(0)
    indices = bid * TILE + ct.arange(TILE, dtype=torch.int32)
    wide = ct.arange(TILE, dtype=torch.long)
    t = ct.gather(a, indices)
    h = t.astype(torch.half)
    if a.dtype == torch.float32:
        h = h + ct.astype(wide, torch.float16)
    f = ct.full((TILE,), 0, dtype=torch.float)
    ct.scatter(c, indices, h + f.astype(torch.float16))
# CHECK:STDOUT: kernel torch_dtypes torch_dtypes__f32a1C_f16a1C__KTILE_64 void(float32[::1], float16[::1], TILE=64)
# CHECK:STDOUT:   TILE: int64
# CHECK:STDOUT:   a: array(float32, 1d, C)
# CHECK:STDOUT:   bid: int32
# CHECK:STDOUT:   c: array(float16, 1d, C)
# CHECK:STDOUT:   f: tile(float32, (64,))
# CHECK:STDOUT:   h: tile(float16, (64,))
# CHECK:STDOUT:   indices: tile(int32, (64,))
# CHECK:STDOUT:   t: tile(float32, (64,))
# CHECK:STDOUT:   wide: tile(int64, (64,))
