"""Tile kernels, twentieth file: compile-time folding as cuTile's test_constfold and
test_loose_typing use it (session 27, issue 22): strictly typed constants (`ct.uint8(150) +
ct.uint8(110)` wraps to 4 as NumPy does, `ct.int16(2)` promotes tiles as an int16 scalar),
conversions of constants (`ct.float16(0.2)`, `ct.float8_e8m0fnu(0.2)`), strings, slices of
constant tuples, `is` on True/False, a `while True:` whose body always ends in `break`, and
Constant elements of tuple parameters (`cfg: tuple[ct.Constant[int], int]`, given with
`--const cfg[0]=N`: the tuple is still passed whole).
Checked on the CPU by tests/tile_sim (consts_cases.py) and on the GPU by
tests/gpu/cases/tile_cases20.py, both against NumPy.
"""
import cuda.tile as ct

# pykc-compile: --sig partial_tuple(int32[::1],int32[::1],Tuple(UniTuple(int32,2),int32)) --const partial_tuple.cfg[0][1]=16


@ct.kernel
def strict_wrap(x: "int64[::1]", y: "int64[::1]", z: "int64[::1]"):
    ct.scatter(x, 0, ct.int64(ct.uint32(-3)))
    ct.scatter(x, 1, ct.int64(ct.uint32(0x1abcdef23)))
    ct.scatter(x, 2, ct.int64(ct.int32(-3_000_000_000)))
    ct.scatter(x, 3, ct.int64(ct.int8(300)))
    ct.scatter(x, 4, ct.int64(ct.uint8(150) + ct.uint8(110)))
    ct.scatter(x, 5, ct.int64(~ct.uint32(3)))
    ct.scatter(x, 6, ct.int64(-ct.uint32(3)))
    ct.scatter(x, 7, ct.int64(ct.bool_(-3)))
    for i in range(256):
        # Run-time conversions of a loop counter, for comparison.
        ct.scatter(y, i, ct.int64(ct.int8(i - 128 + 3 * i)))
        ct.scatter(z, i, ct.int64(ct.uint8(i - 1000)))


@ct.kernel
def strict_promote(out: "int32[::1]", wide: "float32[::1]", n: ct.Constant[int] = 5):
    t = n + ct.int16(2)  # int16: n is loosely typed
    a = ct.arange(4, dtype=ct.int8)
    b = a + t  # int16: t is strictly typed
    ct.static_assert(b.dtype == ct.int16)
    ct.scatter(out, ct.arange(4, dtype=ct.int32), b)
    h = ct.full((4,), 1.5, ct.float16)
    f = h + ct.float32(0.1)  # float32: the strict constant widens the tile
    ct.static_assert(f.dtype == ct.float32)
    g = h + float(ct.float32(0.25))  # float(): loosely typed again, the tile stays float16
    ct.static_assert(g.dtype == ct.float16)
    ct.scatter(wide, ct.arange(4, dtype=ct.int32), f)
    ct.scatter(wide, ct.arange(4, dtype=ct.int32) + 4, g.astype(ct.float32))


@ct.kernel
def rounded(x: "float64[::1]"):
    ct.scatter(x, 0, ct.float16(0.2))
    ct.scatter(x, 1, ct.float64(ct.float8_e8m0fnu(0.2)))
    ct.scatter(x, 2, ct.float64(ct.float32(0.1)))


@ct.kernel
def folded(out: "int32[::1]"):
    t = (1, 3, 2, 5)
    s1, s2 = t[::2]
    rev = t[::-1]
    name = "foo" + "bar"
    flag = True
    while True:
        if flag is False:
            sz = 1
            break
        else:
            sz = 4
            break
    width = len(name) + len(str(123)) + len("ab" * 3)  # 6 + 3 + 6
    tile = ct.full((sz, sz), s1 + s2 * 10, dtype=ct.int32)  # 4x4 of 21
    row = ct.sum(tile, axis=0) + ct.arange(sz, dtype=ct.int32) * rev[0] + width
    ct.store(out, (0,), row)


@ct.kernel
def partial_tuple(a, out, cfg: tuple[tuple[int, ct.Constant[int]], int]):
    """cuTile's test_tuple_arguments: cfg[0][1] a compile-time tile size, the rest run-time."""
    t = ct.load(a, (0,), (cfg[0][1],))
    ct.store(out, (0,), t * cfg[0][0] + cfg[1] + cfg[0][1])


@ct.kernel
def two_axes(x: "float32[:,:,::1]", big: "float32[:,:,::1]", sums: "float32[::1]"):
    """Reductions over a tuple of axes (cuTile's test_reduction: `axis=(a1, a2)`)."""
    t = ct.load(x, (0, 0, 0), (4, 8, 16))
    ct.store(big, (0, 0, 0), ct.max(t, axis=(1, 2), keepdims=True))
    ct.store(sums, (0,), ct.sum(t, axis=(0, -1)))


@ct.kernel
def nan_rows(x: "float32[:, ::1]", f: "float32[:, ::1]", i: "int32[:, ::1]"):
    """cuTile's test_reduce_maxmin_nan / argmaxmin_nan: NaN is ignored by default (the
    other operand, NaN the worst for argmax/argmin), wins with propagate_nan=True."""
    t = ct.load(x, (0, 0), (8, 8), padding_mode=ct.PaddingMode.NAN)
    ct.store(f, (0, 0), ct.max(t, axis=1).reshape((1, 8)))
    ct.store(f, (1, 0), ct.min(t, axis=1).reshape((1, 8)))
    ct.store(f, (2, 0), ct.max(t, axis=1, propagate_nan=True).reshape((1, 8)))
    ct.store(f, (3, 0), ct.min(t, axis=1, propagate_nan=True).reshape((1, 8)))
    ct.store(f, (4, 0), ct.maximum(t, 1.0).reshape((8, 8)).extract((0, 0), (1, 8)))
    ct.store(f, (5, 0), ct.maximum(t, 1.0, propagate_nan=True).extract((1, 0), (1, 8)))
    ct.store(i, (0, 0), ct.argmax(t, axis=1).reshape((1, 8)))
    ct.store(i, (1, 0), ct.argmin(t, axis=1).reshape((1, 8)))
    ct.store(i, (2, 0), ct.argmax(t, axis=1, propagate_nan=True).reshape((1, 8)))
    ct.store(i, (3, 0), ct.argmin(t, axis=1, propagate_nan=True).reshape((1, 8)))


@ct.kernel
def rounded_sums(x: "float32[:, ::1]", p: "float32[:, ::1]", f: "float32[:, ::1]"):
    """sum/prod with rounding_mode= and max with flush_to_zero= (float32)."""
    t = ct.load(x, (0, 0), (4, 8))
    q = ct.load(p, (0, 0), (4, 8))
    ct.store(f, (0, 0), ct.sum(t, axis=1, keepdims=True).reshape((1, 4)))
    ct.store(f, (1, 0), ct.sum(t, axis=1, keepdims=True, rounding_mode=ct.RoundingMode.RZ).reshape((1, 4)))
    ct.store(f, (2, 0), ct.sum(t, axis=1, rounding_mode=ct.RoundingMode.RP).reshape((1, 4)))
    ct.store(f, (3, 0), ct.prod(q, axis=1, rounding_mode=ct.RoundingMode.RM).reshape((1, 4)))
    ct.store(f, (4, 0), ct.prod(q, axis=1, rounding_mode=ct.RoundingMode.RP).reshape((1, 4)))
    ct.store(f, (5, 0), ct.max(t, axis=1, flush_to_zero=True).reshape((1, 4)))
    ct.store(f, (6, 0), ct.max(t, axis=1).reshape((1, 4)))
