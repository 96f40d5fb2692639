"""numba.cuda's API, compiled by pykc: ``from pykc import cuda`` where a program has
``from numba import cuda``.

    from pykc import cuda
    import numpy as np

    @cuda.jit
    def axpy(a, x, y, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a * x[i] + y[i]

    x = cuda.to_device(np.arange(1 << 20, dtype=np.float32))
    out = cuda.device_array_like(x)
    axpy[4096, 256](np.float32(2), x, x, out)   # typed from the arguments, compiled once
    out.copy_to_host()

A kernel is compiled on its first launch with new argument types (numba's ``typeof``
rules), in this process through libpykc, from the function's source file; instances are
kept per argument types, and on disk in the kernel cache the CLI shares (``pykc cache
populate`` in CI makes a production process's first launch a cache hit). Signatures given
to ``cuda.jit`` compile eagerly. Errors in the kernel raise ``pykc.cuda.CompileError``
with pykc's diagnostics. Host memory, streams, events and devices come from cuda.core
(CuPy where cuda.core is missing). See docs/JIT.md.
"""

from __future__ import annotations

from .. import types as _types
from .._compiler import CompileError, CompileWarning  # noqa: F401
from ..types import *  # noqa: F401,F403  (numba.cuda exports the numba types)
from ._devicearray import (DeviceNDArray, DeviceRecord, as_cuda_array, device_array,  # noqa
                           device_array_like, from_cuda_array_interface, is_cuda_array,
                           mapped_array, mapped_array_like, pinned_array, pinned_array_like,
                           to_device)
from ._dispatcher import _OPTIONS, DeviceFunction, Dispatcher
from ._numba_types import is_numba_object
from ._host import (Device, Event, KernelOnly, Stream, close, current_context,  # noqa: F401
                    default_stream, defer_cleanup, detect, event, event_elapsed_time,
                    external_stream, get_current_device, gpus, is_available,
                    legacy_default_stream, list_devices, per_thread_default_stream,
                    profile_start, profile_stop, profiling, select_device, stream,
                    synchronize)
from ._runtime import CudaError  # noqa: F401
from . import config, random  # noqa: F401,E402

types = _types
# numba-cuda's flag for "numba's CPU compiler is installed too": not under pykc.
HAS_NUMBA = False

# libpykc loads while the program sets up its data: a first launch needs it.
from .._compiler import preload as _preload  # noqa: E402
_preload()

__all__ = ["jit", "CompileError", "CudaError", "Dispatcher", "DeviceFunction", "DeviceNDArray",
           "to_device", "device_array", "device_array_like", "pinned_array", "mapped_array",
           "as_cuda_array", "is_cuda_array", "from_cuda_array_interface", "stream",
           "default_stream", "external_stream", "event", "synchronize", "get_current_device",
           "select_device", "gpus", "is_available", "detect", "close", "random", "types",
           "pinned", "mapped", "declare_device"]


def _is_type(obj) -> bool:
    return isinstance(obj, _types.Type) or (is_numba_object(obj) and not hasattr(obj, "args"))


def _is_one_signature(obj) -> bool:
    return isinstance(obj, (str, _types.Signature)) or (is_numba_object(obj) and hasattr(obj, "args"))


def _is_signature(obj) -> bool:
    if _is_one_signature(obj):
        return True
    if isinstance(obj, (list, tuple)):
        return len(obj) > 0 and all(_is_one_signature(s) for s in obj) \
            or (len(obj) > 0 and all(_is_type(t) for t in obj))
    return False


def _signature_list(sig):
    if isinstance(sig, list) or (isinstance(sig, tuple) and sig and not _is_type(sig[0])):
        return list(sig)
    return [sig]


def jit(func_or_sig=None, device: bool = False, inline="never", link=(), debug=None,
        opt=None, lineinfo: bool = False, cache: bool = False, **kws):
    """numba's ``cuda.jit``: ``@cuda.jit``, ``@cuda.jit(sig)``, ``@cuda.jit([sig, ...])``,
    ``@cuda.jit(device=True)``, ``k = cuda.jit(f)``, ``k = cuda.jit(sig)(f)``.

    Options (``fastmath``, ``lineinfo``, ``debug``, ``opt``, ``max_registers``, ``inline``,
    ``link``, ``cache``) are those of numba; pykc reads them from the decorator in the
    source file, where the compiler sees them, and checks here that they are known."""
    unknown = set(kws) - _OPTIONS
    if unknown:
        raise TypeError(f"cuda.jit got unknown option(s): {', '.join(sorted(unknown))}")
    options = dict(kws, device=device, inline=inline, link=link, debug=debug, opt=opt,
                   lineinfo=lineinfo, cache=cache)

    def make(func, sigs):
        if isinstance(func, (Dispatcher, DeviceFunction)):
            func = func.py_func
        if not callable(func):
            raise TypeError(f"cuda.jit applies to a function, got {func!r}")
        cls = DeviceFunction if device else Dispatcher
        return cls(func, sigs, options)

    if func_or_sig is None:
        return lambda func: make(func, None)
    if _is_signature(func_or_sig):
        sigs = _signature_list(func_or_sig)
        return lambda func: make(func, sigs)
    return make(func_or_sig, None)


def declare_device(name, sig, link=None):
    """A device function written in CUDA C++ (numba's ``declare_device``): pykc resolves
    it from the kernel's source file, so on the host it is only a placeholder."""
    return KernelOnly(f"declare_device({name!r})")


def pinned(*arrays):
    """numba's ``cuda.pinned``: pykc copies NumPy arrays as they are; a no-op context."""
    return defer_cleanup()


def mapped(*arrays, **kws):
    return defer_cleanup()


# Names that only mean something inside kernels; the compiler reads them from the source.
for _name in ("grid", "gridsize", "threadIdx", "blockIdx", "blockDim", "gridDim", "laneid",
              "warpsize", "shared", "local", "const", "atomic", "syncthreads",
              "syncthreads_count", "syncthreads_and", "syncthreads_or", "syncwarp",
              "threadfence", "threadfence_block", "threadfence_system", "cg", "fp16",
              "libdevice", "activemask", "lanemask_lt", "ballot_sync", "shfl_sync",
              "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync", "all_sync", "any_sync",
              "eq_sync", "match_any_sync", "match_all_sync", "popc", "brev", "clz", "ffs",
              "fma", "cbrt", "selp", "nanosleep", "vote_sync_intrinsic", "float16x2",
              "int32x2", "float32x2", "float32x3", "float32x4", "float64x2", "int32x3",
              "int32x4", "uint32x2", "uint32x4", "int64x2", "uint64x2"):
    globals()[_name] = KernelOnly(_name)
del _name
