"""Tile kernels, sixteenth file: cuTile's TiledView and specialisation constants (issue 22,
cuTile's test_tiled_view, test_array and test_list): `array.tiled_view(tile_shape,
padding_mode=, traversal_steps=)` with its attributes, `load`/`store` by tile index,
`num_tiles`, overlapping and gapped tiles (traversal steps other than the tile shape, not
powers of two), 0-d tiles, padding modes, broadcast stores and `atomic_store_*`; and
arrays whose extents and strides are compile-time constants (`.assume(shape_constant=,
stride_constant=)`, what `ct.ArrayAnnotation(static_shape_dims=, static_stride_dims=)`
asks a launch for). Checked on the CPU by tests/tile_sim (tiledview_cases.py) and on the
GPU by tests/gpu/cases/tile_cases16.py, both against NumPy.
"""
import cuda.tile as ct


def copy_tile(src, dst, i):
    dst.store(i, src.load(i))


@ct.kernel
def view_copy_2d(x: "float32[:, ::1]", y: "float32[:, ::1]", n: "int32[::1]"):
    bm = ct.bid(0)
    bn = ct.bid(1)
    tv_x = x.tiled_view((16, 32))
    tv_y = y.tiled_view((16, 32), padding_mode=ct.PaddingMode.ZERO)
    ct.static_assert(tv_x.tile_shape == (16, 32) and tv_x.traversal_steps == (16, 32))
    ct.static_assert(tv_x.dtype == ct.float32)
    tv_y.store((bm, bn), tv_x.load((bm, bn), check_bounds=True, latency=2) * 2.0)
    tv_n = n.tiled_view(())
    if bm == 0 and bn == 0:
        tv_n.store(0, tv_x.num_tiles(0))
        tv_n.store(1, tv_x.num_tiles(-1))


@ct.kernel
def view_windows(x: "int32[::1]", y: "int32[::1]", z: "int32[::1]", n: "int32[::1]"):
    # Overlapping windows (4 elements, 2 apart) and gapped ones (4 elements, 7 apart).
    tv = x.tiled_view(4, traversal_steps=2)
    out = y.tiled_view(4, traversal_steps=2)
    for i in range(tv.num_tiles(0)):
        copy_tile(tv, out, i)
    gapped = x.tiled_view((4,), traversal_steps=(7,))
    out_z = z.tiled_view(4, traversal_steps=7)
    for i in range(gapped.num_tiles(0)):
        out_z.store(i, gapped.load(i) + 1)
    ct.static_assert(gapped.traversal_steps == (7,))
    n.tiled_view(()).store(0, tv.num_tiles(0))
    n.tiled_view(()).store(1, gapped.num_tiles(0))


@ct.kernel
def view_padding(x: "float32[::1]", out: "float32[::1]"):
    # A 100-element array read as 128-element tiles: the rest is the padding.
    hi = x.tiled_view(128, padding_mode=ct.PaddingMode.NEG_INF).load(0)
    lo = x.tiled_view(128, padding_mode=ct.PaddingMode.POS_INF).load(0)
    zero = x.tiled_view(128, padding_mode=ct.PaddingMode.ZERO).load(0)
    o = out.tiled_view(())
    o.store(0, ct.max(hi))
    o.store(1, ct.min(lo))
    o.store(2, ct.sum(zero))


@ct.kernel
def view_scalars(x: "float32[:, ::1]", out: "float32[::1]", s: "float32[:, ::1]"):
    # 0-d tiles: element (2i, 3j); a 0-d tile stored to (4, 8) tiles broadcasts.
    tv = x.tiled_view((), traversal_steps=(2, 3))
    o = out.tiled_view(())
    for i in range(2):
        for j in range(2):
            o.store(i * 2 + j, tv.load((i, j)))
    one = x.tiled_view(()).load((1, 1))
    s.tiled_view((4, 8)).store((0, 0), one)
    row = x.tiled_view((1, 8)).load((0, 0))
    s.tiled_view((4, 8)).store((1, 0), row)


@ct.kernel
def view_box_filter(x: "int32[:, ::1]", out: "int32[::1]"):
    # A 2x2 box filter: 2x2 tiles one element apart (cuTile's test_tiled_view_2d_conv).
    tv = x.tiled_view((2, 2), traversal_steps=(1, 1))
    o = out.tiled_view(())
    for i in range(5):
        for j in range(5):
            o.store(i * 5 + j, ct.sum(tv.load((i, j))))


@ct.kernel
def view_atomics(x: "float32[:, ::1]", u: "float32[:, ::1]", k: "int32[:, ::1]", m: "int32[:, ::1]"):
    bid = ct.bid(0)
    update = u.tiled_view((1, 16)).load((0, 0))
    x.tiled_view((16, 16)).atomic_store_add((bid, 0), update)
    tv_k = k.tiled_view((8, 8), traversal_steps=(6, 6))
    tv_m = m.tiled_view((8, 8), traversal_steps=(6, 6))
    upd = tv_m.load((bid, bid))
    tv_k.atomic_store_xor((bid, bid), upd)
    tv_k.atomic_store_max((0, 1), 3)


@ct.kernel
def static_strides(x: "float16[:, :].assume(shape_constant=(4, None), stride_constant=(10, None))",
                   out: "float16[:, ::1]", info: "int32[::1]"):
    ct.static_assert(x.strides[0] == 10 and x.shape[0] == 4)
    row_stride = ct.static_eval(x.strides[0])
    m, n = x.shape
    ct.static_assert(m == 4)
    t = ct.load(x, (0, 0), (4, 8))
    ct.store(out, (0, 0), t)
    ct.store(info, (0,), row_stride)
    ct.store(info, (1,), n)
    # A view of it knows its tile count along the constant axis.
    ct.static_assert(x.tiled_view((2, 8)).num_tiles(0) == 2)
