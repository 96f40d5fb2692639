"""The launch path a kernel takes once its argument types have been seen: one
``cuLaunchKernel`` with parameter storage prepared per instance, made by pykc's C
extension ``_launch.abi3.so`` (pyext/launch.c: packing and the driver call in one C call)
where it is found beside libpykc, else through ``struct`` and ctypes
(``$PYKC_NATIVE_LAUNCH=0`` forces the latter).

``arg_key(args)`` reads each argument once (device arrays: pointer, shape, strides;
scalars: the value) and returns a key of their types with what was read; the dispatcher
maps the key to a ``FastLauncher`` made after the first (checked) launch with those types.
Arguments the fast path does not take (NumPy arrays to copy, tuples, records, complex and
float16 scalars, arrays whose producer stream must be waited on) give no key: those
launches take the checked path in pykc's loader (pykc/__init__.py).
"""

from __future__ import annotations

import ctypes
import importlib.machinery
import importlib.util
import os
import struct
import sys
import threading

import numpy as np

from .._args import _c_strides, abi_layout, array_facts
from .._typeof import layout_of
from ._devicearray import DeviceNDArray

__all__ = ["arg_key", "tile_arg_key", "FastLauncher", "supports", "supports_tile",
           "native_module"]

_LAYOUTS: dict = {}  # (shape, element strides) -> "C" / "F" / "A"


def _layout(shape, strides):
    """The layout of an array of `shape` with `strides` in elements, remembered."""
    k = (shape, strides)
    lay = _LAYOUTS.get(k)
    if lay is None:
        if len(_LAYOUTS) > 4096:
            _LAYOUTS.clear()
        lay = _LAYOUTS[k] = layout_of(shape, strides)
    return lay


_FACTS: dict = {}  # (dtype, shape, element strides) -> (layout, stride and extent divisors)


def _facts(dtype, itemsize, shape, strides):
    """How pykc.tile types an array argument apart from its dtype, pointer and ndim
    (_typeof.tile_array_text): the ABI's layout promise it holds and its divisor facts
    (_args.array_facts), remembered; ``itemsize()`` is called on a miss."""
    k = (dtype, shape, strides)
    f = _FACTS.get(k)
    if f is None:
        if len(_FACTS) > 4096:
            _FACTS.clear()
        f = _FACTS[k] = (abi_layout(shape, strides),) + array_facts(16, shape, strides, itemsize())[1:]
    return f


_INT64 = (-(1 << 63), 1 << 63)


def _array_info(ptr, shape, strides, dt):
    """(key part, flat kernel parameters) of an array: pointer, extents, element strides."""
    item = dt.itemsize
    elem = tuple(st // item for st in strides)
    return (dt.char, len(shape), _layout(shape, elem)), (ptr, *shape, *elem)


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


_TORCH_TYPES: set = set()  # the tensor classes seen (torch.Tensor, nn.Parameter)


def _new_torch_tensor_type(t) -> bool:
    """Whether `t` (not in _TORCH_TYPES) is PyTorch's tensor class; remembered if so."""
    if t.__name__ in ("Tensor", "Parameter") and t.__module__.startswith("torch"):
        _TORCH_TYPES.add(t)
        return True
    return False


def tile_arg_key(args, constants, launch_stream: int):
    """``arg_key`` for a tile kernel's ``ct.launch`` arguments: ``constants`` holds the
    positions of its ``ct.Constant`` parameters, whose values (not types) go into the key
    and pass no value; PyTorch CUDA tensors are read through ``data_ptr``/``stride``
    (their strides are in elements already); Python scalars are keyed by type (cuTile
    types them int32/float32/bool). (None, None) where the checked path must decide."""
    key, flat = [], []
    for i, a in enumerate(args):
        t = type(a)
        if i in constants:
            if t not in (int, float, bool):
                return None, None
            key.append((t, a))
        elif t in _TORCH_TYPES or _new_torch_tensor_type(t):
            if not a.is_cuda:  # (complex dtypes: their key has no launcher)
                return None, None
            shape, strides = a.shape, a.stride()  # torch.Size is a tuple
            ptr = a.data_ptr()
            # The instance depends on the array facts too (pykc.tile types them).
            key.append((a.dtype, len(shape), _facts(a.dtype, a.element_size, shape, strides),
                        not ptr & 15))
            flat.append(ptr)
            flat += shape
            flat += strides
        elif t is float or t is int or t is bool:
            if t is int and not -(1 << 31) <= a < (1 << 31):
                return None, None
            key.append(t)
            flat.append(a)
        else:
            k, f = arg_key((a,), launch_stream)
            if k is None or k[0] in ("f8", "i8", "b"):
                return None, None
            if type(k[0]) is tuple:  # an array: (dtype char, ndim, layout); its facts too
                char, nd = k[0][0], k[0][1]
                facts = _facts(char, lambda: np.dtype(char).itemsize, tuple(f[1:1 + nd]),
                               tuple(f[1 + nd:]))
                key.append((k[0], facts, not f[0] & 15))
            else:
                key.append(k[0])
            flat += f
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


def supports_tile(entry) -> bool:
    """Whether a tile kernel's instance can launch on the fast path: arrays of any dtype
    (bfloat16 and float16 included: only their pointer, extents and strides are passed)
    and plain scalars."""
    if entry.cooperative or entry.errors:
        return False
    return all(p.kind == "array" and not p.record or
               p.kind == "scalar" and p.dtype in _FORMAT for p in entry.params)


_RANGE = {f"{u}int{b}": ((0, (1 << b) - 1) if u else (-(1 << (b - 1)), (1 << (b - 1)) - 1))
          for u in ("", "u") for b in (8, 16, 32, 64)}

_LIB = None


def _libcuda():
    global _LIB
    if _LIB is None:
        lib = ctypes.CDLL("libcuda.so.1")
        f = lib.cuLaunchKernel
        f.argtypes = None  # callers pass ctypes values prepared once (_config)
        f.restype = ctypes.c_int
        lib.cuGetErrorName.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
        _LIB = lib
    return _LIB


_NATIVE: list = []  # [module or None] once looked for


def native_module():
    """pykc's launch extension (``pykc._launch``), or None where it is not built or
    ``$PYKC_NATIVE_LAUNCH`` is 0. Looked for beside each place libpykc is looked for."""
    if _NATIVE:
        return _NATIVE[0]
    module = None
    if os.environ.get("PYKC_NATIVE_LAUNCH", "1") != "0":
        module = sys.modules.get("pykc._launch")
        if module is None:
            from .._compiler import find_library
            for place in find_library():
                path = os.path.join(os.path.dirname(place), "_launch.abi3.so")
                if os.sep not in place or not os.path.exists(path):
                    continue
                loader = importlib.machinery.ExtensionFileLoader("pykc._launch", path)
                spec = importlib.util.spec_from_file_location("pykc._launch", path,
                                                              loader=loader)
                try:
                    module = importlib.util.module_from_spec(spec)
                    loader.exec_module(module)
                except ImportError:
                    module = None
                    continue
                sys.modules["pykc._launch"] = module
                break
    _NATIVE.append(module)
    return module


def _codes(entry) -> str:
    """One struct code per 8-byte parameter slot (docs/ABI.md: an array is its pointer,
    its extents and its element strides)."""
    return "".join("Q" + "q" * (2 * p.ndim) if p.kind == "array" else _FORMAT[p.dtype]
                   for p in entry.params)


class FastLauncher:
    """One instance's launch. ``launch(grid, block, shared, stream, values)``: grid and
    block as 3-tuples of ints, ``stream`` a CUstream handle as an int, ``values`` one
    value per parameter slot (``arg_key``'s). With the C extension one call packs and
    launches; without it one buffer holds every parameter (each at an 8-byte aligned
    offset, packed by one ``struct.pack_into``) and ctypes calls ``cuLaunchKernel``.

    ``launch_kernel``: for tests, a stand-in for ``cuLaunchKernel`` (a ctypes function
    pointer of its C signature where the extension is used, any callable otherwise);
    ``native``: the extension module to use, False for none, None to look for it."""

    def __init__(self, function_handle: int, entry, max_threads: int, name: str,
                 launch_kernel=None, native=None):
        self.max_threads, self.name, self.signature = max_threads, name, entry.signature
        self.codes = _codes(entry)
        if native is None:
            native = native_module()
        self._native = None
        if native and (launch_kernel is None or
                                   isinstance(launch_kernel, ctypes._CFuncPtr)):
            f = launch_kernel if launch_kernel is not None else _libcuda().cuLaunchKernel
            address = ctypes.cast(f, ctypes.c_void_p).value
            self._function_pointer = f  # the extension holds only its address
            self._native = native.Launch(function_handle, address, self.codes, max_threads,
                                         name, entry.signature)
            self.launch = self._launch_native
            return
        self.fn = ctypes.c_void_p(function_handle)
        self.launch_kernel = launch_kernel or _libcuda().cuLaunchKernel
        fmt = "<" + "".join(c + "x" * (8 - struct.calcsize(c)) for c in self.codes)
        self._struct = struct.Struct(fmt)
        self._buffer = ctypes.create_string_buffer(max(self._struct.size, 8))
        base = ctypes.addressof(self._buffer)
        self._params = (ctypes.c_void_p * max(len(self.codes), 1))(
            *[base + 8 * i for i in range(len(self.codes))])
        self._pack = self._struct.pack_into
        self._lock = threading.Lock()
        self._config = (None, None)  # (grid, block, shared, stream) -> its ctypes values
        self.launch = self._launch_ctypes

    def packed(self) -> bytes:
        """The parameter buffer as last packed, 8 bytes per slot (for tests)."""
        if self._native is not None:
            return self._native.packed()
        return bytes(self._buffer)[:8 * len(self.codes)]

    def _launch_native(self, grid, block, shared, stream, values):
        err = self._native.launch(grid, block, shared, stream, values)
        if err:
            self._failed(err)

    def _launch_ctypes(self, grid, block, shared, stream, values):
        if block[0] * block[1] * block[2] > self.max_threads:
            raise ValueError(f"kernel '{self.name}' {self.signature}: block {block} has "
                             f"{block[0] * block[1] * block[2]} threads, more than its limit "
                             f"of {self.max_threads}")
        k = (grid, block, shared, stream)
        config = self._config[1] if self._config[0] == k else None
        if config is None:
            u = ctypes.c_uint
            config = (u(grid[0]), u(grid[1]), u(grid[2]), u(block[0]), u(block[1]),
                      u(block[2]), u(shared), ctypes.c_void_p(stream))
            self._config = (k, config)
        with self._lock:  # one buffer per instance; cuLaunchKernel copies it
            try:
                self._pack(self._buffer, 0, *values)
            except struct.error as e:
                raise OverflowError(f"kernel '{self.name}' {self.signature}: an argument "
                                    f"does not fit its parameter's type ({e})") from None
            err = self.launch_kernel(self.fn, *config, self._params, None)
        if err:
            self._failed(err)

    def _failed(self, err: int):
        name = ctypes.c_char_p()
        try:
            _libcuda().cuGetErrorName(err, ctypes.byref(name))
        except OSError:  # a test's stand-in launch on a machine without a driver
            pass
        from .._backends import CudaError
        raise CudaError(f"cuLaunchKernel of '{self.name}' failed: "
                        f"{(name.value or f'CUresult {err}'.encode()).decode()}")
