"""numba.cuda.random on the host: generator states made as numba-cuda makes them, on the
device. The device functions (``xoroshiro128p_uniform_float32`` and the rest) are
compiled by pykc from the kernel's source; on the host they are placeholders."""

from __future__ import annotations

from .. import random as _host_random
from ._devicearray import to_device
from ._host import KernelOnly

xoroshiro128p_dtype = _host_random.xoroshiro128p_dtype
init_xoroshiro128p_states_host = _host_random.init_xoroshiro128p_states

__all__ = ["xoroshiro128p_dtype", "create_xoroshiro128p_states", "init_xoroshiro128p_states"]


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A device array of ``n`` xoroshiro128+ states (numba-cuda's sequence for ``seed``)."""
    return to_device(_host_random.create_xoroshiro128p_states(int(n), int(seed),
                                                              int(subsequence_start)),
                     stream=stream)


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Fill the device array ``states`` (numba-cuda's sequence for ``seed``)."""
    host = _host_random.create_xoroshiro128p_states(len(states), int(seed),
                                                    int(subsequence_start))
    states.copy_to_device(host, stream=stream)


for _name in ("xoroshiro128p_uniform_float32", "xoroshiro128p_uniform_float64",
              "xoroshiro128p_normal_float32", "xoroshiro128p_normal_float64",
              "xoroshiro128p_next", "xoroshiro128p_jump", "init_xoroshiro128p_state",
              "uint64_to_unit_float32", "uint64_to_unit_float64", "xoroshiro128p_type"):
    globals()[_name] = KernelOnly(f"random.{_name}")
del _name
