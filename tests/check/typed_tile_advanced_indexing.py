# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# ct.load_advanced_indexing / ct.store_advanced_indexing (docs/TILE.md, "Advanced
# indexing"): one 1-D integer tile (the sparse axis) and a ct.Slice(start, length) per
# other axis; the tile's shape is the index tile's length there and each Slice's length
# elsewhere. Also: indices of ct.gather/ct.scatter held in a name (`idx = (rows, cols)`),
# and a name bound to None before a compile-time branch rebinds it (TileGym's
# fmha_prefill_bsr).
import cuda.tile as ct


@ct.kernel
def advanced(x: "int32[:, ::1]", y: "int32[:, ::1]", cache: "float16[:, :, :, ::1]", col: "int32",
             ROWS: ct.Constant[int] = 8, COLS: ct.Constant[int] = 4):
    rows = ct.arange(ROWS, dtype=ct.int32) * 2
    t = ct.load_advanced_indexing(x, (rows, ct.Slice(col, COLS)), padding_mode=ct.PaddingMode.ZERO)
    ct.store_advanced_indexing(y, (rows, ct.Slice(0, COLS)), t + 1, latency=2, allow_tma=False)
    ct.store_advanced_indexing(y, (rows, ct.Slice(col, COLS)), 7)
    pages = ct.arange(2, dtype=ct.int64)
    four = ct.load_advanced_indexing(cache, (pages, ct.Slice(col, 16), ct.Slice(0, 1), ct.Slice(col * 64, 64)))
    idx = (rows, ct.full((ROWS,), col, dtype=ct.int32))
    g = ct.gather(x, idx)
    ct.scatter(y, idx, g * 2)
    maybe = None
    if COLS > 2:
        maybe = ct.reshape(four, (32, 64))
# CHECK:STDOUT: kernel advanced advanced__i32a2C_i32a2C_f16a4C_i32__KROWS_8__KCOLS_4 void(int32[:, ::1], int32[:, ::1], float16[:, :, :, ::1], int32, ROWS=8, COLS=4)
# CHECK:STDOUT:   COLS: int64
# CHECK:STDOUT:   ROWS: int64
# CHECK:STDOUT:   cache: array(float16, 4d, C)
# CHECK:STDOUT:   col: int32
# CHECK:STDOUT:   four: tile(float16, (2, 16, 1, 64))
# CHECK:STDOUT:   g: tile(int32, (8,))
# CHECK:STDOUT:   idx: UniTuple(tile(int32, (8,)) x 2)
# CHECK:STDOUT:   maybe: tile(float16, (32, 64))
# CHECK:STDOUT:   pages: tile(int64, (2,))
# CHECK:STDOUT:   rows: tile(int32, (8,))
# CHECK:STDOUT:   t: tile(int32, (8, 4))
# CHECK:STDOUT:   x: array(int32, 2d, C)
# CHECK:STDOUT:   y: array(int32, 2d, C)
