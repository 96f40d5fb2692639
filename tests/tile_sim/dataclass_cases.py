"""The kernels of tests/gpu/kernels/tile_kernels22.py (cuTile's frozen dataclasses) with NumPy
references, shared by tests/tile_sim/tile_sim.py (CPU) and tests/gpu/cases/tile_cases22.py.

`dataclass_cases(run, arr, rng)` yields (what, got, want, kind); `run(kernel, grid, args)` runs a
kernel, `arr(a)` passes an array. A dataclass argument is an instance on the GPU (pykc's launcher
flattens it in field order) and its fields flattened on the simulator (docs/ABI.md)."""
from dataclasses import dataclass
from typing import Any

import numpy as np

# The Constant parameters each kernel was compiled with (its defaults), passed last on the GPU.
CONSTS = {"basics": (), "methods": (), "tile_fields": (16,), "job_param": (16,), "unpacked": (), "prints": (4,), "helpers": ()}


@dataclass(frozen=True)
class Job:
    src: Any
    dst: Any
    scale: float
    offset: Any


@dataclass(frozen=True)
class Arg:
    a: int
    b: float


@dataclass(frozen=True)
class At:
    idx: Any
    n: int


def dataclass_cases(run, arr, rng):
    flat = len(arr(np.zeros(1, np.float32))) > 1   # the simulator's arrays are pointer+shape+strides

    x = np.full(12, -1, np.int32)
    n = 3
    run("basics", 1, arr(x) + [np.int32(n)])
    foo, bar = 2, 7
    for i in range(n):
        foo, bar = foo + 1, bar + i
    yield "fields, defaults, nested instances, replace (also loop-carried), a base class, module-level instances", x, \
        np.array([2, 7, 5, 35, 163, foo, bar, 5, 357, 3005, 40 + 200 + 50000, 23 + 6], np.int32), "exact"

    xs = rng.standard_normal(8 * 3).astype(np.float32)
    y = np.full(16 * 3, -1, np.int32)
    z = np.full(8 * 3, np.nan, np.float32)
    run("methods", 3, arr(xs) + arr(y) + arr(z))
    want = np.full(16 * 3, -1, np.int32)
    for b in range(3):
        s = b + 5
        want[16 * b:16 * b + 5] = [s * 10 + 7, 246, s + 7, 100 * s + 3, 7 * 4]
    yield "methods, class constants, a property, __call__ and __getitem__ (int fields)", y, want, "exact"
    wantz = xs * np.repeat(np.arange(5, 8, dtype=np.float32), 8) + np.float32(7)
    yield "a method on a tile (scale and shift fields)", z, wantz, ("close", 1e-6)

    x = rng.standard_normal(16 * 4).astype(np.float32)
    y = np.full(16 * 4, np.nan, np.float32)
    run("tile_fields", 4, arr(x) + arr(y))
    f = np.float32
    lo, hi = x, x * f(2) + f(1)
    want = lo * f(3) + hi
    want[:16] = hi[:16] * f(3) + lo[:16]
    yield "tiles in fields, replaced, swapped in a run-time branch", y, want, ("close", 1e-6)

    x = rng.standard_normal(16 * 3).astype(np.float32)
    y = np.full(16 * 3, np.nan, np.float32)
    scale, offset = np.float32(1.5), (3, -10)
    if flat:
        args = arr(x) + arr(y) + [scale, np.int32(offset[0]), np.int32(offset[1])]
    else:
        args = [Job(arr(x)[0], arr(y)[0], scale, offset)]
    run("job_param", 3, args)
    yield "a dataclass kernel parameter (arrays, a float and a tuple among its fields)", y, \
        x * scale + f(offset[0]) + f(offset[1]), ("close", 1e-6)

    out = np.full(2, np.nan, np.float32)
    z = np.full((3, 3), -1, np.int32)
    if flat:
        args = [np.int32(4), np.float32(0.5)] + arr(out) + [np.int32(1), np.int32(2), np.int32(7)] + arr(z)
    else:
        args = [(Arg(np.int32(4), np.float32(0.5)), arr(out)[0]), At((1, 2), np.int32(7))] + arr(z)
    run("unpacked", 1, args)
    yield "a tuple parameter holding a dataclass and an array, unpacked", out[:1], np.array([40.5], np.float32), \
        "exact"
    wz = np.full((3, 3), -1, np.int32)
    wz[1, 2], wz[0, 1] = 7, 9
    yield "a dataclass field (a parameter's, a constant one) as a scatter index tuple", z, wz, "exact"

    x = np.full(5, -1, np.int32)
    y = np.concatenate([rng.standard_normal(4).astype(np.float32), np.full(4, np.nan, np.float32)])
    run("helpers", 1, arr(x) + arr(y))
    yield "instances passed to and returned from helpers; methods calling methods; static methods", x, \
        np.array([301, 1, 8, 4, 11], np.int32), "exact"
    yield "a helper reading tile fields", y[4:], y[:4] * np.float32(100) + y[:4] * np.float32(2), ("close", 1e-6)

    # Printing instances (the simulator compares the text; on a GPU the kernel runs and its
    # values are checked only by eye).
    x = np.arange(4, dtype=np.int32) * 3
    run("prints", 1, arr(x))
    if hasattr(run, "output"):
        printed, _ = run.output()
        t = "[" + ", ".join(str(v) for v in x) + "]"
        t1 = "[" + ", ".join(str(v + 1) for v in x) + "]"
        want = (f"Shown(x={t}, z='hello')\n" f"CUSTOM{{{t1}|7}}\n" f"(R(7), <Hidden object>)\n"
                "<Hidden object> int32 'a'\n")
        yield "printing instances: generated repr, custom __str__/__repr__, repr=False, a dtype", printed, want, \
            "exact"
