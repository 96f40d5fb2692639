"""The kernels of tests/gpu/kernels/tile_kernels25.py (module dicts indexed at compile time, a
helper's returned bound method, static_eval host effects, a constant's astype, operator
functions by name, a @static_def __init__) with NumPy references, shared by
tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases25.py. The expected values are
those of cuTile's test_atomic, test_tiled_view, test_static_eval and test_dataclass asserts.

`misc25_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)` runs a
kernel, `arr(a)` passes an array; both leave results in the NumPy arrays."""
import numpy as np

# The Constant parameters each kernel was compiled with (its defaults), passed last on the GPU.
CONSTS = {"dict_atomics": (1,), "returned_method": (), "static_effects": (), "static_init": ()}


def misc25_cases(run, arr, rng):
    # test_atomic: func = ct.static_eval(_op_to_func[AtomicOp(op_id)]) with op ADD.
    x = rng.integers(-1000, 1000, 32).astype(np.int32)
    y = rng.integers(-1000, 1000, 32).astype(np.int32)
    z = np.zeros(32, np.int32)
    w = rng.integers(-1000, 1000, 34).astype(np.int32)
    x0, w0 = x.copy(), w.copy()
    run("dict_atomics", 2, arr(x) + arr(y) + arr(z) + arr(w))
    yield "a module dict of enum keys and ct functions, by Op(op_id): atomic_add", x, x0 + y, "exact"
    yield "its old values", z, x0, "exact"
    want = w0.copy()
    want[:32] = np.maximum(w0[:32], y)
    want[32:] = [1100, 1101]
    yield "another entry (atomic_max) and int/str keys giving constants", w, want, "exact"

    # test_tiled_view_atomic: get_tv_method(tv_x)((bidm, bidn), update), add.
    x = rng.integers(-1000, 1000, (40, 32)).astype(np.int32)
    y = rng.integers(-1000, 1000, (40, 32)).astype(np.int32)
    x0 = x.copy()
    run("returned_method", (3, 2), arr(x) + arr(y))
    yield "a helper returning tv.atomic_store_add, called (ragged edges)", x, x0 + y, "exact"

    # test_symbolic_tile (shape, astype) and the binary-op static_eval (15 * 4).
    x = np.zeros((10, 10), np.int32)
    out = np.full(2, 7.0, np.float64)
    run("static_effects", 1, arr(x) + arr(out))
    want = np.zeros((10, 10), np.int32)
    want[0, 0], want[0, 1] = 4, 8
    yield "static_eval(tile.shape), shape[1].astype(dtype), a host-list append not replayed", x, want, "exact"
    yield "ct.static_eval(op_mul(lhs, rhs)) (operator.mul imported by name), operator.lt", out, \
        np.array([60.0, 0.0]), "exact"

    # test_init_static_def: MetaInit(10) -> x = 50, y = 70; test_call_dunder_static_def: 753.
    x = np.zeros(3, np.int32)
    run("static_init", 1, arr(x))
    yield "dataclasses whose __init__ and __call__ are @static_defs", x, np.array([50, 70, 753], np.int32), "exact"
