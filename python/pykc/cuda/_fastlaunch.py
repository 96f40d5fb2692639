"""The launch path a kernel takes once its argument types have been seen: one
``cuLaunchKernel`` through ctypes with parameter storage prepared per instance.

``arg_key(args)`` reads each argument once (device arrays: pointer, shape, strides;
scalars: the value) and returns a key of their types with what was read; the dispatcher
maps the key to a ``FastLauncher`` made after the first (checked) launch with those types.
Arguments the fast path does not take (NumPy arrays to copy, tuples, records, complex and
float16 scalars, arrays whose producer stream must be waited on) give no key: those
launches take the checked path in pykc's loader (pykc/__init__.py).
"""

from __future__ import annotations

import ctypes
import struct
import threading

import numpy as np

from .._args import _c_strides
from .._typeof import layout_of
from ._devicearray import DeviceNDArray

__all__ = ["arg_key", "FastLauncher", "supports", "launch_config"]

_LAYOUTS: dict = {}  # (shape, element strides) -> "C" / "F" / "A"


def _layout(shape, strides, itemsize):
    k = (shape, strides, itemsize)
    lay = _LAYOUTS.get(k)
    if lay is None:
        if len(_LAYOUTS) > 4096:
            _LAYOUTS.clear()
        lay = _LAYOUTS[k] = layout_of(shape, tuple(s // itemsize for s in strides))
    return lay


_INT64 = (-(1 << 63), 1 << 63)


def _array_info(ptr, shape, strides, dt):
    """(key part, flat kernel parameters) of an array: pointer, extents, element strides."""
    item = dt.itemsize
    elem = tuple(st // item for st in strides)
    return (dt.char, len(shape), _layout(shape, strides, item)), (ptr, *shape, *elem)


def arg_key(args, launch_stream: int):
    """(key, flat parameter values) for the fast path, or (None, None)."""
    key, flat = [], []
    for a in args:
        t = type(a)
        if t is DeviceNDArray:
            info = a._fastinfo
            if info is None:
                dt = a.dtype
                if dt.fields is not None or dt.kind == "c" or dt.itemsize == 2 and dt.kind == "f":
                    return None, None
                info = a._fastinfo = _array_info(a._ptr, a.shape, a.strides, dt)
            key.append(info[0])
            flat += info[1]
        elif t is float:
            key.append("f8")
            flat.append(a)
        elif t is int:
            if not _INT64[0] <= a < _INT64[1]:
                return None, None
            key.append("i8")
            flat.append(a)
        elif t is bool:
            key.append("b")
            flat.append(a)
        elif isinstance(a, np.generic):
            dt = a.dtype
            if dt.kind not in "biuf" or dt.itemsize == 2 and dt.kind == "f":
                return None, None
            key.append(dt.char)
            flat.append(a)
        else:
            cai = getattr(a, "__cuda_array_interface__", None) if t is not np.ndarray else None
            if cai is None:
                return None, None
            s = cai.get("stream")
            if s is not None and (s or 1) != (launch_stream or 1):
                return None, None  # a producer stream to wait on: the checked path
            if cai.get("mask") is not None or cai.get("descr") and len(cai["descr"]) > 1:
                return None, None
            dt = np.dtype(cai["typestr"])
            if dt.kind == "c" or dt.itemsize == 2 and dt.kind == "f":
                return None, None
            shape = tuple(cai["shape"])
            strides = cai.get("strides") or _c_strides(shape, dt.itemsize)
            info = _array_info(cai["data"][0] or 0, shape, tuple(strides), dt)
            key.append(info[0])
            flat += info[1]
    return tuple(key), flat


_FORMAT = {"bool": "?", "int8": "b", "int16": "h", "int32": "i", "int64": "q",
           "uint8": "B", "uint16": "H", "uint32": "I", "uint64": "Q", "float32": "f",
           "float64": "d"}


def supports(entry) -> bool:
    """Whether an instance can launch on the fast path."""
    if entry.cooperative or entry.errors or entry.tile:
        return False
    for p in entry.params:
        if p.kind == "array":
            if p.record or p.dtype in ("complex64", "complex128", "float16"):
                return False
        elif p.kind != "scalar" or p.dtype not in _FORMAT:
            return False
    return True


_RANGE = {f"{u}int{b}": ((0, (1 << b) - 1) if u else (-(1 << (b - 1)), (1 << (b - 1)) - 1))
          for u in ("", "u") for b in (8, 16, 32, 64)}

_LIB = None


def _libcuda():
    global _LIB
    if _LIB is None:
        lib = ctypes.CDLL("libcuda.so.1")
        f = lib.cuLaunchKernel
        f.argtypes = None  # callers pass ctypes values prepared once (launch_config)
        f.restype = ctypes.c_int
        lib.cuGetErrorName.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
        _LIB = lib
    return _LIB


class FastLauncher:
    """One instance's launch: the CUfunction, one buffer holding every parameter (each at
    an 8-byte aligned offset, packed by one ``struct.pack_into``), the pointer array
    ``cuLaunchKernel`` reads, and the block limit."""

    def __init__(self, function_handle: int, entry, max_threads: int, name: str,
                 launch_kernel=None):
        self.fn = ctypes.c_void_p(function_handle)
        self.launch_kernel = launch_kernel or _libcuda().cuLaunchKernel
        self.max_threads, self.name, self.signature = max_threads, name, entry.signature
        fmt, offsets = "<", []
        for p in entry.params:
            codes = ["Q"] + ["q"] * (2 * p.ndim) if p.kind == "array" else [_FORMAT[p.dtype]]
            for c in codes:
                offsets.append(8 * len(offsets))
                fmt += c + "x" * (8 - struct.calcsize(c))
        self._struct = struct.Struct(fmt)
        self._buffer = ctypes.create_string_buffer(max(self._struct.size, 8))
        base = ctypes.addressof(self._buffer)
        self._params = (ctypes.c_void_p * max(len(offsets), 1))(*[base + o for o in offsets])
        self._pack = self._struct.pack_into
        self._lock = threading.Lock()

    def launch(self, config, block, stream, values):
        """``config``: (grid x, y, z, block x, y, z, shared bytes, stream) as ctypes values
        (a launcher prepares them once); ``block`` the block as ints."""
        if block[0] * block[1] * block[2] > self.max_threads:
            raise ValueError(f"kernel '{self.name}' {self.signature}: block {block} has "
                             f"{block[0] * block[1] * block[2]} threads, more than its limit "
                             f"of {self.max_threads}")
        with self._lock:  # one buffer per instance; cuLaunchKernel copies it
            try:
                self._pack(self._buffer, 0, *values)
            except struct.error as e:
                raise OverflowError(f"kernel '{self.name}' {self.signature}: an argument "
                                    f"does not fit its parameter's type ({e})") from None
            err = self.launch_kernel(self.fn, *config, stream, self._params, None)
        if err:
            name = ctypes.c_char_p()
            _libcuda().cuGetErrorName(err, ctypes.byref(name))
            from .._backends import CudaError
            raise CudaError(f"cuLaunchKernel of '{self.name}' failed: "
                            f"{(name.value or b'?').decode()}")


def launch_config(grid, block, shared) -> tuple:
    """The ctypes values of a launch configuration (grid and block already 3-tuples)."""
    u = ctypes.c_uint
    return (u(grid[0]), u(grid[1]), u(grid[2]), u(block[0]), u(block[1]), u(block[2]),
            u(shared))
