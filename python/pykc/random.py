"""Host side of ``numba.cuda.random`` for pykc kernels: xoroshiro128+ states made the
way numba-cuda makes them (its ``random.py``: SplitMix64 of the seed for the first
state, each further state the previous one jumped 2**64 steps ahead).

    from pykc.random import create_xoroshiro128p_states
    states = create_xoroshiro128p_states(n, seed=1)   # a NumPy array, xoroshiro128p_dtype
    mod.kernel[blocks, threads](states, out)           # copied over and back

The kernels call ``xoroshiro128p_uniform_float32(states, i)`` and the other device
functions of ``numba.cuda.random`` (compiled by pykc, docs/compile.md). Pass a device
array of this dtype (CuPy, numba) instead to keep the states on the GPU between launches.
"""

from __future__ import annotations

import numpy as np

__all__ = ["xoroshiro128p_dtype", "init_xoroshiro128p_states", "create_xoroshiro128p_states",
           "xoroshiro128p_next", "xoroshiro128p_jump"]

xoroshiro128p_dtype = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)

_MASK = (1 << 64) - 1
_JUMP = (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _MASK


def _splitmix64(seed: int) -> int:
    z = (seed + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def xoroshiro128p_next(state: tuple) -> tuple:
    """(result, new state) for a state ``(s0, s1)`` of Python ints: numba's
    ``xoroshiro128p_next``."""
    s0, s1 = state
    result = (s0 + s1) & _MASK
    s1 ^= s0
    return result, (_rotl(s0, 55) ^ s1 ^ ((s1 << 14) & _MASK), _rotl(s1, 36))


def xoroshiro128p_jump(state: tuple) -> tuple:
    """The state 2**64 steps ahead: numba's ``xoroshiro128p_jump``."""
    s0 = s1 = 0
    for word in _JUMP:
        for b in range(64):
            if word & (1 << b):
                s0 ^= state[0]
                s1 ^= state[1]
            state = xoroshiro128p_next(state)[1]
    return s0, s1


def init_xoroshiro128p_states(states: np.ndarray, seed: int, subsequence_start: int = 0):
    """Fill a 1-d host array of ``xoroshiro128p_dtype`` in place, as numba-cuda's
    ``init_xoroshiro128p_states`` does (its CPU initialisation)."""
    if states.ndim != 1 or states.dtype != xoroshiro128p_dtype:
        raise TypeError(f"states must be a 1-d array of {xoroshiro128p_dtype}, "
                        f"got {states.dtype} with ndim {states.ndim}")
    if states.shape[0] == 0:
        return
    seed, subsequence_start = int(np.uint64(seed)), int(np.uint64(subsequence_start))
    if states.flags.c_contiguous:
        try:
            from ._compiler import compiler
            lib = compiler()
        except Exception:  # noqa: BLE001  (no libpykc: the Python loop below)
            lib = None
        if lib is not None:
            lib.xoroshiro128p_states(states.view(np.uint64), seed, subsequence_start)
            return
    z = _splitmix64(seed)
    state = (z, z)
    for _ in range(int(np.uint64(subsequence_start))):
        state = xoroshiro128p_jump(state)
    for i in range(states.shape[0]):
        if i:
            state = xoroshiro128p_jump(state)
        states[i] = state


def create_xoroshiro128p_states(n: int, seed: int, subsequence_start: int = 0) -> np.ndarray:
    """A host array of ``n`` generator states, numba-cuda's
    ``create_xoroshiro128p_states(n, seed, subsequence_start)`` on the host."""
    states = np.empty(n, dtype=xoroshiro128p_dtype)
    init_xoroshiro128p_states(states, seed, subsequence_start)
    return states
