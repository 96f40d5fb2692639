"""The kernels of tests/gpu/kernels/tile_kernels10.py (tuple parameters) with NumPy
references, shared by tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases10.py.

`tuple_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)` runs
a kernel, `arr(a)` passes an array. A tuple argument is a Python tuple on the GPU and its
elements flattened on the simulator (docs/ABI.md): `tup` makes either."""
import numpy as np

# The Constant parameters each kernel was compiled with (its defaults), passed last on the GPU.
CONSTS = {"sum_arrays": (64,), "grouped_scale": (16,), "mixed_tuple": (), "tuple_variables": (16,), "shape_tuples": (), "sibling_helper": (64,), "annotated_names": (64,), "retyped_names": (64,), "rebound_constant": (64, 1), "bitcasts": (64,), "inserts": (128, 32), "straight_constants": (5, 64), "byte_packing": (64,), "asserts": (128,), "prints": (8,)}


def _packer(arr):
    flat = len(arr(np.zeros(1, np.float32))) > 1   # the simulator's arrays are pointer+shape+strides

    def tup(*items):
        """Each item: what `arr` gives, a number, or another `tup`."""
        parts = [i if isinstance(i, list) else [i] for i in items]
        if flat:
            return sum(parts, [])
        return [tuple(np.int32(p[0]) if isinstance(p[0], int) else p[0] for p in parts)]
    return tup


def tuple_cases(run, arr, rng):
    tup = _packer(arr)
    # A loop over a tuple of three arrays (a run-time index into it), a ragged last tile.
    n = 200
    a = [rng.standard_normal(n).astype(np.float32) for _ in range(3)]
    out = np.full(n, np.nan, np.float32)
    run("sum_arrays", -(-n // 64), tup(*(arr(x) for x in a)) + arr(out))
    yield "sum_arrays: a loop over a tuple of 3 arrays", out, (a[0] + a[1]) + a[2], "exact"
    # Groups of different sizes, each block picking its group's arrays and factor.
    rows = (5, 40, 17)
    xs = [rng.standard_normal((m, 8)).astype(np.float32) for m in rows]
    ys = [np.full((m, 8), np.nan, np.float32) for m in rows]
    factors = (3, -2, 7)
    run("grouped_scale", (-(-max(rows) // 16), 3),
        tup(*(arr(x) for x in xs)) + tup(*(arr(y) for y in ys)) + tup(*factors))
    for g in range(3):
        yield (f"grouped_scale group {g} ({rows[g]} rows, factor {factors[g]})", ys[g],
               xs[g] * np.float32(factors[g]) + np.float32(g), "exact")
    # Constant, negative and nested indices into tuples of an array and numbers.
    x = rng.integers(-50, 50, 16).astype(np.int32)
    out = np.zeros(16, np.int32)
    run("mixed_tuple", 1, tup(arr(x), 9) + arr(out) + tup(4, tup(6, -3), 2))
    yield "mixed_tuple: pair[0], pair[1], nested[1][-1], len", out, x + 9 + 4 - 2 + 6 * -3 + 300, "exact"
    # A tile index and weights held in tuple variables, one weight picked at run time.
    x = rng.standard_normal((40, 8)).astype(np.float32)
    for k in (0, 1, 2, 4):
        y = np.full_like(x, np.nan)
        run("tuple_variables", 3, arr(x) + arr(y) + [k])
        w = (k + 1, k * 2, k - 5)[k % 3]
        yield f"tuple_variables k={k} (weight {w})", y, x * np.float32(w), "exact"
    # array.shape and array.strides as tuples, of a strided view.
    base = np.zeros((30, 12), np.float32)
    view = base[2:27:3, 1:11:2]
    out = np.full(5, -1, np.int32)
    run("shape_tuples", 1, arr(view) + arr(out))
    want = np.array([view.shape[0], view.shape[1], view.strides[0] // 4, view.strides[1] // 4,
                     view.shape[0] * 10], np.int32)
    yield "shape_tuples: array.shape / array.strides of a strided view", out, want, "exact"
    # A helper imported from a sibling module (tests/gpu/kernels/helpers/tile_math.py).
    x = rng.standard_normal(300).astype(np.float32) * 4
    y = np.full_like(x, np.nan)
    run("sibling_helper", -(-x.size // 64), arr(x) + arr(y))
    yield "sibling_helper: softsign from helpers/tile_math.py", y, x / (1 + np.abs(x)) * 0.5, ("close", 1e-6)
    # Annotated assignments in a kernel.
    x = rng.standard_normal(100).astype(np.float32)
    y = np.full(100, np.nan, np.float32)
    run("annotated_names", -(-100 // 32), arr(x) + arr(y))
    yield "annotated_names: `HALF: ConstInt = TILE // 2`, `s: float = 3.0`", y, x * np.float32(3), "exact"
    # A name retyped per branch and in a loop body (dead at every join).
    x = rng.standard_normal(100).astype(np.float16)
    for n_arg, want in ((5, x.astype(np.float32) * 2 + 1), (0, x.astype(np.float32) + 3)):
        y = np.full(100, np.nan, np.float32)
        run("retyped_names", -(-100 // 64), arr(x) + arr(y) + [n_arg])
        yield f"retyped_names(n={n_arg}): a name retyped per branch and in a loop", y, want, "exact"
    # A Constant parameter rebound to the array's length, then `7 if N == 1 else N`.
    for n in (100, 1):
        x = rng.standard_normal(n).astype(np.float32)
        y = np.full(n, np.nan, np.float32)
        run("rebound_constant", -(-n // 64), arr(x) + arr(y))
        yield f"rebound_constant(n={n}): a Constant rebound at run time", y, x * np.float32(7 if n == 1 else n), "exact"
    # ct.bitcast: float32 -> int32, float16 -> uint16 (then & 0x7FFF).
    x = rng.standard_normal(128).astype(np.float32)
    h = rng.standard_normal(128).astype(np.float16)
    y = np.zeros(128, np.int32)
    u = np.zeros(128, np.uint16)
    run("bitcasts", 2, arr(x) + arr(y) + arr(h) + arr(u))
    yield "bitcasts: float32 bits as int32", y, x.view(np.int32), "exact"
    yield "bitcasts: float16 bits as uint16, sign cleared", u, h.view(np.uint16) & np.uint16(0x7FFF), "exact"
    # ct.insert / tile.insert: a sub-tile at a run-time index, a number, a 2-D block.
    x = rng.standard_normal(128).astype(np.float32)
    m = rng.standard_normal((32, 32)).astype(np.float16)
    for k in (0, 3):
        y = np.full(128, np.nan, np.float32)
        n = np.zeros((32, 32), np.float16)
        run("inserts", 1, arr(x) + arr(y) + arr(m) + arr(n) + [k])
        want = x.copy()
        want[k * 32:(k + 1) * 32] += np.float32(5)
        want[0] = -1
        yield f"inserts k={k}: a sub-tile and a number", y, want, "exact"
        wm = m.copy()
        wm[16:32, 16:24] += np.float16(5)
        yield f"inserts k={k}: a 2-D block", n, wm, "exact"
    # Straight-line rebinding keeps constants (cuTile's loose typing); a constant offset that
    # grows by a run-time value.
    x = rng.standard_normal(128).astype(np.float32)
    y = np.zeros(128, np.float32)
    out = np.zeros(4, np.int32)
    run("straight_constants", 2, arr(x) + arr(y) + arr(out))
    yield "straight_constants: int8 minus a rebound constant", out, np.arange(18, 22, dtype=np.int32), "exact"
    yield "straight_constants: offset from 0 plus the block id", y, x * np.float32(2), "exact"
    # ct.pack_to_bytes / unpack_from_bytes: bytes, another dtype's view, a 2-D round trip.
    x = rng.standard_normal(64).astype(np.float32)
    b = np.zeros(256, np.uint8)
    y = np.zeros(128, np.int16)
    m = rng.standard_normal((32, 32)).astype(np.float16)
    n = np.zeros((32, 32), np.float16)
    run("byte_packing", 2, arr(x) + arr(b) + arr(y) + arr(m) + arr(n))
    yield "byte_packing: a float32 tile's bytes", b, x.view(np.uint8), "exact"
    yield "byte_packing: the bytes as int16", y, x.view(np.int16), "exact"
    yield "byte_packing: a 2-D float16 round trip", n, m, "exact"
    # ct.assert_: all hold (a copy), then (the simulator only) one false element in block 0.
    x = rng.standard_normal(256).astype(np.float32)
    y = np.zeros(256, np.float32)
    cond = np.ones(256, np.bool_)
    run("asserts", 2, arr(x) + arr(cond) + arr(y))
    yield "asserts: every condition holds", y, x, "exact"
    if hasattr(run, "output"):
        printed, traps = run.output()
        yield "asserts: nothing printed when all hold", printed == "" and traps == 0, True, "bool"
        cond[5] = False
        y = np.zeros(256, np.float32)
        run("asserts", 2, arr(x) + arr(cond) + arr(y))
        printed, traps = run.output()
        print(f"     printed {printed!r}, {traps} threads trapped")
        yield ("asserts: a false element prints once and traps its block",
               printed.count("assert failed") == 1 and "asserts:" in printed and "block (0, 0, 0)" in printed and traps > 0, True, "bool")
        yield "asserts: the other block still copies", y[128:], x[128:], "exact"
    # print / ct.print / ct.printf (the simulator compares the text; on a GPU the kernel
    # runs and its values are checked only by eye).
    x = np.arange(16, dtype=np.float32) * np.float32(0.5)
    y = np.arange(8, dtype=np.int32).reshape(2, 4)
    flags = np.arange(16) % 3 == 0
    run("prints", 2, arr(x) + arr(y) + arr(flags))
    if hasattr(run, "output"):
        printed, traps = run.output()
        want = ""
        for b in range(2):
            t = x[8 * b:8 * b + 8]
            fl = flags[8 * b:8 * b + 8]
            want += f"tile[{b}]:[{', '.join(f'{v:.5f}' for v in t)}]\n"
            want += (f"tile[{b}]: a=[{', '.join(f'{v:.6f}' for v in t)}] "
                     f"b=[{', '.join(f'{2 * v:.6f}' for v in t)}]\n")
            want += f"tile:[{', '.join(str(int(v)) for v in t)}]\n"
            want += "[[0, 1, 2, 3], [4, 5, 6, 7]]|\n"
            want += f"(2, 4) (1, \"a'b\", 2.5) {b > 0} {b:+04d}\n"
            want += f"printf%[{b}]:[{', '.join(str(int(v)) for v in fl)}]\n"
        if printed != want:
            print(f"     printed {printed!r}\n     wanted  {want!r}")
        yield "prints: the text of printf, print and ct.print", printed == want and traps == 0, True, "bool"
