"""In-domain inputs for corpus kernels whose generic inputs would take them out of bounds.

run_vs_numba.py launches every corpus kernel on generic inputs (arrays of 4096 elements,
scalars 16). Kernels that index with values read from their inputs (lengths, labels, an
index computed from a size argument) then read or write past their arrays, and what they
compute depends on where the allocator put the neighbouring memory: a comparison of such a
launch says nothing. For those kernels corpus.json's entry holds an `inputs` object, keyed
by kernel name, that spells what the kernel's own caller passes:

    "inputs": {"compute_alphas_kernel": {
        "let":   {"B": 4, "T": 8, "U": 6, "V": 5},       # names the expressions may use
        "grow":  ["B"],                                  # doubled per step when timed
        "args":  ["rand(B*T*U*V)", "zeros(B*T*U)", "ints(1, T + 1, B)", "B", "T", ...],
        "grid":  "B", "block": "U",
        "shared": "0"}}                                  # dynamic shared memory, bytes

Each argument is a Python expression over the `let` names and these constructors (the
array's dtype and layout come from the kernel's signature, not from the expression):

    rand(*shape)         uniform values in [0, 1)
    unit(*shape)         random unit complex numbers, shape + (2,): real and imaginary parts
    ints(lo, hi, *shape) integers in [lo, hi)
    zeros(*shape), full(value, *shape), arange(n), array([...])

`grid` and `block` are expressions giving an int or a tuple, `shared` (optional) the bytes of
dynamic shared memory the caller passes. Without `grow` the kernel is timed at these sizes
only. corpus.json is ours, so the expressions are evaluated with `eval`.
"""
import math

import numpy as np

from sig_text import sig_params


def _constructors(rng):
    return {
        "rand": lambda *shape: rng.random(shape),
        "unit": lambda *shape: unit(lambda *s: rng.random(s), lambda t: np.stack([np.cos(t), np.sin(t)], -1), *shape),
        "ints": lambda lo, hi, *shape: rng.integers(lo, hi, shape),
        "zeros": lambda *shape: np.zeros(shape),
        "full": lambda value, *shape: np.full(shape, value),
        "arange": np.arange,
        "array": np.array,
        "math": math,
        "np": np,
    }


def _dims(value):
    value = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    if not value or not all(isinstance(v, (int, np.integer)) and v > 0 for v in value):
        raise ValueError(f"a launch dimension must be positive ints, not {value!r}")
    return tuple(int(v) for v in value)


def unit(rand, stack, *shape):
    """Random unit complex numbers as (..., 2) real/imaginary pairs (DFT factors, twiddles)."""
    theta = rand(*shape) * (2 * math.pi)
    return stack(theta)


def _shape_constructors():
    """Constructors that give arrays of the right shape and no values (zero-stride views: no
    memory), for planning launches on a machine without the inputs' memory."""
    def nothing(*shape):
        return np.broadcast_to(np.float64(0), shape)
    return {
        "rand": nothing,
        "ints": lambda lo, hi, *shape: np.broadcast_to(np.int64(lo), shape),
        "unit": lambda *shape: nothing(*shape, 2),
        "zeros": nothing,
        "full": lambda value, *shape: np.broadcast_to(np.asarray(value), shape),
        "arange": np.arange,
        "array": np.array,
        "math": math,
        "np": np,
    }


def _values(spec, n_params, constructors, scale):
    """The `let` names (the `grow` ones times `scale`) with `constructors`, and the `args`
    values evaluated there."""
    env = dict(spec.get("let", {}))
    for name in spec.get("grow", []):
        if name not in env:
            raise ValueError(f"grow names {name!r}, which `let` does not define")
        env[name] = env[name] * scale
    env.update(constructors)
    args = spec.get("args")
    if not isinstance(args, list) or len(args) != n_params:
        raise ValueError(f"`args` must list {n_params} expressions, one per parameter")
    return env, [eval(str(a), env) for a in args]  # noqa: S307 - corpus.json is ours


def evaluate(spec, n_params, rng, scale=1):
    """(values, (grid, block, shared_bytes)) of one kernel's `inputs` spec: raw NumPy arrays and Python
    numbers, one per parameter, before the signature's dtypes are applied. `scale` multiplies
    the `grow` names (timing grows the problem). Raises ValueError on a malformed spec."""
    env, values = _values(spec, n_params, _constructors(rng), scale)
    shared = eval(str(spec.get("shared", 0)), env)  # noqa: S307
    if not isinstance(shared, (int, np.integer)) or shared < 0:
        raise ValueError(f"`shared` must be a non-negative int of bytes, not {shared!r}")
    launch = (_dims(eval(str(spec["grid"]), env)), _dims(eval(str(spec["block"]), env)), int(shared))  # noqa: S307
    return values, launch


def evaluate_tile(spec, n_params, constructors=None, scale=1):
    """(values, grid) of a tile kernel's `inputs` spec (the tile corpus: no `block`, no
    `shared`; `args` lists the kernel's run-time parameters, not its constants).
    `constructors` make the arrays (rand, ints, zeros, full, arange, array: the GPU run's
    make device tensors); without them the arrays have their shapes and no values
    (planning)."""
    if "block" in spec or "shared" in spec:
        raise ValueError("a tile kernel's inputs name no `block` or `shared`: the compiler picks them")
    if constructors is None:
        constructors = _shape_constructors()
    env, values = _values(spec, n_params, {"math": math, "np": np, **constructors}, scale)
    return values, _dims(eval(str(spec["grid"]), env))  # noqa: S307


def expected_tile(spec, n_params):
    """A tile kernel's `expect` (corpus.json `inputs`): what its test asserts each run-time
    argument holds after the launch (nested lists of numbers, None where nothing is
    asserted), one entry per `args` entry; [] without one. For kernels that cuTile itself
    refuses, whose values nothing else on the GPU host gives. Raises ValueError on a
    malformed one."""
    expect = spec.get("expect")
    if expect is None:
        return []
    if not isinstance(expect, list) or len(expect) != n_params:
        raise ValueError(f"`expect` must list {n_params} values, one per `args` entry (None: not asserted)")
    return expect


def sig_param_count(sig):
    """How many parameters a corpus `--sig` string names."""
    return len(sig_params(sig))
