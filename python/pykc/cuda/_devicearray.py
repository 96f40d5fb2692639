"""numba's device arrays: ``DeviceNDArray`` over memory pykc allocates (or borrows through
``__cuda_array_interface__``), with numba's host API around it (``to_device``,
``device_array``, ``copy_to_host``, slicing, ...).

A DeviceNDArray is a view: a pointer, a shape, byte strides and a dtype, plus the owner
that keeps the memory alive. It exports ``__cuda_array_interface__`` (version 3), so CuPy,
PyTorch and numba take it, and pykc kernels take it as any such array.
"""

from __future__ import annotations

import numpy as np

from . import _runtime
from .._args import _c_strides, _f_strides
from .._backends import stream_handle
from .._typeof import _contiguous

__all__ = ["DeviceNDArray", "DeviceRecord", "to_device", "device_array", "device_array_like",
           "as_cuda_array", "is_cuda_array", "from_cuda_array_interface", "pinned_array",
           "pinned_array_like", "mapped_array", "mapped_array_like"]


class _Allocation:
    """Device memory owned by pykc, freed when the last view is gone."""

    __slots__ = ("ptr", "nbytes", "api", "__weakref__")

    def __init__(self, nbytes: int):
        self.api = _runtime.runtime().api
        self.nbytes = int(nbytes)
        self.ptr = self.api.alloc(self.nbytes)

    def __del__(self):
        ptr, self.ptr = getattr(self, "ptr", 0), 0
        if ptr:
            try:
                self.api.free(ptr)
            except Exception:
                pass  # interpreter shutdown, or a context already gone


def _shape_tuple(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


class DeviceNDArray:
    """An array in GPU memory (numba's ``DeviceNDArray``)."""

    __array_priority__ = -1  # NumPy must not treat it as a sequence

    def __init__(self, shape, strides, dtype, ptr: int, owner=None, stream=0):
        self.shape = _shape_tuple(shape)
        self.dtype = np.dtype(dtype)
        self.strides = tuple(int(s) for s in strides)
        self._ptr, self._owner, self.stream = int(ptr), owner, stream
        self._fastinfo = None  # the fast launch path's reading of it (_fastlaunch)

    # -- attributes numba code reads
    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def alloc_size(self) -> int:
        return getattr(self._owner, "nbytes", self.nbytes)

    @property
    def device_ctypes_pointer(self):
        import ctypes
        return ctypes.c_void_p(self._ptr)

    @property
    def gpu_data(self):
        return self._owner

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d device array")
        return self.shape[0]

    @property
    def __cuda_array_interface__(self) -> dict:
        cai = {"version": 3, "shape": self.shape, "typestr": self.dtype.str,
               "data": (self._ptr, False), "strides": self.strides,
               "stream": None}
        if self.dtype.fields is not None:
            cai["descr"] = self.dtype.descr
        return cai

    def is_c_contiguous(self) -> bool:
        return _contiguous(self.shape, self.strides, "C", self.dtype.itemsize)

    def is_f_contiguous(self) -> bool:
        return _contiguous(self.shape, self.strides, "F", self.dtype.itemsize)

    @property
    def flags(self) -> dict:
        return {"C_CONTIGUOUS": self.is_c_contiguous(), "F_CONTIGUOUS": self.is_f_contiguous()}

    def _contiguous(self) -> bool:
        return self.is_c_contiguous() or self.is_f_contiguous()

    def _need_contiguous(self, what: str):
        if not self._contiguous():
            raise ValueError(f"{what} needs a contiguous device array; this one has shape "
                             f"{self.shape} and strides {self.strides}")

    # -- copies
    def copy_to_host(self, ary=None, stream=0):
        """The array on the host: into ``ary`` when given (same shape and dtype), else a
        new NumPy array of the same layout. Waits for the copy unless ``stream`` is a
        stream other than the default one (then the host must synchronise it)."""
        self._need_contiguous("copy_to_host")
        order = "C" if self.is_c_contiguous() else "F"
        if ary is None:
            out = np.empty(self.shape, self.dtype, order=order)
        else:
            out = ary
            if out.shape != self.shape or out.dtype != self.dtype:
                raise ValueError(f"copy_to_host: the host array has shape {out.shape} and "
                                 f"dtype {out.dtype}, the device array {self.shape} and "
                                 f"{self.dtype}")
        host = out if _host_contiguous_like(out, order) else \
            np.empty(self.shape, self.dtype, order=order)
        h = stream_handle(stream)
        api = _runtime.runtime().api
        api.copy(host.ctypes.data, self._ptr, self.nbytes, h)
        if h == 0:
            api.stream_sync(0)
        if host is not out:
            if h != 0:
                api.stream_sync(h)
            out[...] = host
        return out

    def copy_to_device(self, ary, stream=0):
        """Copy ``ary`` (a NumPy array or another device array of the same shape) in."""
        self._need_contiguous("copy_to_device")
        h = stream_handle(stream)
        api = _runtime.runtime().api
        if hasattr(ary, "__cuda_array_interface__") and not isinstance(ary, np.ndarray):
            src = as_cuda_array(ary)
            if src.shape != self.shape or src.dtype != self.dtype:
                raise ValueError(f"copy_to_device: shape/dtype {src.shape}/{src.dtype} do "
                                 f"not match {self.shape}/{self.dtype}")
            src._need_contiguous("copy_to_device")
            api.copy(self._ptr, src._ptr, self.nbytes, h)
            return
        host = np.asarray(ary, dtype=self.dtype)
        if host.shape != self.shape and host.size == self.size:
            host = host.reshape(self.shape)
        if host.shape != self.shape:
            raise ValueError(f"copy_to_device: shape {host.shape} does not match "
                             f"{self.shape}")
        order = "C" if self.is_c_contiguous() else "F"
        host = np.require(host, requirements=order)
        api.copy(self._ptr, host.ctypes.data, self.nbytes, h)
        if h == 0:
            api.stream_sync(0)

    def copy(self):
        out = device_array(self.shape, self.dtype,
                           order="C" if self.is_c_contiguous() else "F")
        out.copy_to_device(self)
        return out

    # -- views
    def __getitem__(self, index):
        view = _index(self, index)
        if isinstance(view, DeviceNDArray) and view.ndim == 0:
            host = np.empty((), self.dtype)
            api = _runtime.runtime().api
            api.copy(host.ctypes.data, view._ptr, self.dtype.itemsize, 0)
            api.stream_sync(0)
            return host[()]
        return view

    def __setitem__(self, index, value):
        view = _index(self, index)
        if not isinstance(view, DeviceNDArray):
            raise TypeError("cannot assign to this index")
        if view.ndim == 0:
            view = DeviceNDArray((1,), (self.dtype.itemsize,), self.dtype, view._ptr,
                                 self._owner)
        if np.isscalar(value) or (isinstance(value, np.ndarray) and value.ndim == 0):
            value = np.full(view.shape, value, dtype=self.dtype)
        if hasattr(value, "__cuda_array_interface__") and not isinstance(value, np.ndarray):
            view.copy_to_device(value)
        else:
            view.copy_to_device(np.broadcast_to(np.asarray(value, self.dtype), view.shape))

    def reshape(self, *newshape, order="C"):
        if len(newshape) == 1 and not isinstance(newshape[0], (int, np.integer)):
            newshape = tuple(newshape[0])
        newshape = list(_shape_tuple(newshape))
        if newshape.count(-1) == 1:
            known = int(np.prod([n for n in newshape if n != -1])) or 1
            newshape[newshape.index(-1)] = self.size // known
        newshape = tuple(newshape)
        if int(np.prod(newshape)) != self.size:
            raise ValueError(f"cannot reshape a device array of size {self.size} into "
                             f"{newshape}")
        if order == "C" and self.is_c_contiguous():
            strides = _c_strides(newshape, self.dtype.itemsize)
        elif order == "F" and self.is_f_contiguous():
            strides = _f_strides(newshape, self.dtype.itemsize)
        else:
            raise NotImplementedError("reshape of a non-contiguous device array (or in "
                                      "the other order)")
        return DeviceNDArray(newshape, strides, self.dtype, self._ptr, self._owner)

    def ravel(self, order="C"):
        return self.reshape(self.size, order=order)

    def view(self, dtype):
        dtype = np.dtype(dtype)
        if not self.shape or self.strides[-1] != self.dtype.itemsize:
            raise ValueError("view() needs a last dimension of unit stride")
        last = self.shape[-1] * self.dtype.itemsize
        if last % dtype.itemsize:
            raise ValueError(f"cannot view {self.dtype} as {dtype}: sizes do not divide")
        shape = self.shape[:-1] + (last // dtype.itemsize,)
        strides = self.strides[:-1] + (dtype.itemsize,)
        return DeviceNDArray(shape, strides, dtype, self._ptr, self._owner)

    def transpose(self, axes=None):
        axes = tuple(reversed(range(self.ndim))) if axes is None else tuple(axes)
        return DeviceNDArray(tuple(self.shape[a] for a in axes),
                             tuple(self.strides[a] for a in axes), self.dtype, self._ptr,
                             self._owner)

    @property
    def T(self):
        return self.transpose()

    def split(self, section, stream=0):
        if self.ndim != 1 or not self.is_c_contiguous():
            raise ValueError("split() takes a 1-d contiguous device array")
        return [self[i:i + section] for i in range(0, self.size, section)]

    def bind(self, stream=0):
        return DeviceNDArray(self.shape, self.strides, self.dtype, self._ptr, self._owner,
                             stream)

    def as_cuda_arg(self):
        return self

    def get_ipc_handle(self):
        raise NotImplementedError("IPC handles are not supported by pykc.cuda yet")

    def __repr__(self):
        return f"<pykc.cuda DeviceNDArray shape={self.shape} dtype={self.dtype}>"


class DeviceRecord(DeviceNDArray):
    """A single record in device memory."""


def _host_contiguous_like(a: np.ndarray, order: str) -> bool:
    return a.flags.c_contiguous if order == "C" else a.flags.f_contiguous


def _index(arr: DeviceNDArray, index):
    """Basic indexing (ints, slices, Ellipsis) as a view."""
    if not isinstance(index, tuple):
        index = (index,)
    if any(i is Ellipsis for i in index):
        k = index.index(Ellipsis)
        fill = arr.ndim - (len(index) - 1)
        index = index[:k] + (slice(None),) * fill + index[k + 1:]
    if len(index) > arr.ndim:
        raise IndexError(f"too many indices for a {arr.ndim}-d device array")
    offset, shape, strides = 0, [], []
    for d, i in enumerate(index + (slice(None),) * (arr.ndim - len(index))):
        n, st = arr.shape[d], arr.strides[d]
        if isinstance(i, (int, np.integer)):
            i = int(i)
            if i < 0:
                i += n
            if not 0 <= i < n:
                raise IndexError(f"index {int(index[d])} is out of bounds for axis {d} "
                                 f"with size {n}")
            offset += i * st
        elif isinstance(i, slice):
            start, stop, step = i.indices(n)
            count = len(range(start, stop, step))
            offset += start * st if count else 0
            shape.append(count)
            strides.append(st * step)
        else:
            raise TypeError(f"device arrays take ints and slices as indices, got "
                            f"{type(i).__name__}")
    return DeviceNDArray(tuple(shape), tuple(strides), arr.dtype, arr._ptr + offset,
                         arr._owner)


# --------------------------------------------------------------------------- constructors

def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """An uninitialised device array."""
    shape = _shape_tuple(shape)
    dtype = np.dtype(dtype)
    if strides is None:
        strides = (_c_strides if order == "C" else _f_strides)(shape, dtype.itemsize)
    nbytes = int(np.prod(shape)) * dtype.itemsize if shape else dtype.itemsize
    owner = _Allocation(nbytes)
    return DeviceNDArray(shape, strides, dtype, owner.ptr, owner, stream)


def device_array_like(ary, stream=0):
    """An uninitialised device array of ``ary``'s shape, dtype and layout."""
    order = "F" if _is_f(ary) else "C"
    return device_array(ary.shape, ary.dtype, order=order, stream=stream)


def _is_f(ary) -> bool:
    flags = getattr(ary, "flags", None)
    if flags is None:
        return False
    c, f = flags["C_CONTIGUOUS"], flags["F_CONTIGUOUS"]
    return bool(f and not c)


def to_device(obj, stream=0, copy=True, to=None):
    """Copy a NumPy array (or anything ``np.asarray`` takes) to the device; with ``to``,
    into that device array."""
    if to is not None:
        to.copy_to_device(obj, stream=stream)
        return to
    if isinstance(obj, DeviceNDArray):
        return obj
    host = np.asarray(obj)
    if not (host.flags.c_contiguous or host.flags.f_contiguous):
        host = np.ascontiguousarray(host)
    out = device_array(host.shape, host.dtype, order="F" if _is_f(host) else "C",
                       stream=stream)
    if copy:
        out.copy_to_device(host, stream=stream)
    return out


def is_cuda_array(obj) -> bool:
    return hasattr(obj, "__cuda_array_interface__")


def from_cuda_array_interface(desc: dict, owner=None, sync=True):
    """A DeviceNDArray viewing the memory a ``__cuda_array_interface__`` dict describes."""
    shape = tuple(desc["shape"])
    dtype = np.dtype(desc.get("descr") if desc.get("descr") and len(desc["descr"]) > 1
                     else desc["typestr"])
    strides = desc.get("strides") or _c_strides(shape, dtype.itemsize)
    ptr = desc["data"][0] or 0
    return DeviceNDArray(shape, strides, dtype, ptr, owner)


def as_cuda_array(obj, sync=True):
    """A DeviceNDArray view of an object exporting ``__cuda_array_interface__`` (CuPy,
    PyTorch, numba), sharing its memory and keeping it alive."""
    if isinstance(obj, DeviceNDArray):
        return obj
    if not is_cuda_array(obj):
        raise TypeError(f"{type(obj).__name__} does not export __cuda_array_interface__")
    return from_cuda_array_interface(obj.__cuda_array_interface__, owner=obj, sync=sync)


class _HostAllocation:
    __slots__ = ("ptr", "api", "__weakref__")

    def __init__(self, nbytes: int, mapped: bool):
        self.api = _runtime.runtime().api
        self.ptr = self.api.host_alloc(nbytes, mapped)

    def __del__(self):
        ptr, self.ptr = getattr(self, "ptr", 0), 0
        if ptr:
            try:
                self.api.host_free(ptr)
            except Exception:
                pass


class _PinnedArray(np.ndarray):
    """A NumPy array in page-locked host memory (keeps its allocation alive)."""

    def __array_finalize__(self, obj):
        self._pykc_alloc = getattr(obj, "_pykc_alloc", None)


class _MappedArray(_PinnedArray):
    """Page-locked host memory mapped into the device: usable from kernels directly."""

    @property
    def __cuda_array_interface__(self):
        base = self._pykc_alloc
        dev = base.api.host_device_pointer(base.ptr) + (self.ctypes.data - base.ptr)
        return {"version": 3, "shape": self.shape, "typestr": self.dtype.str,
                "data": (dev, False), "strides": self.strides, "stream": None}


def _host_array(shape, dtype, order, mapped):
    shape, dtype = _shape_tuple(shape), np.dtype(dtype)
    nbytes = max(int(np.prod(shape)) * dtype.itemsize, 1) if shape else dtype.itemsize
    alloc = _HostAllocation(nbytes, mapped)
    strides = (_c_strides if order == "C" else _f_strides)(shape, dtype.itemsize)
    arr = _runtime.host_array(alloc.ptr, shape, dtype, strides)
    out = arr.view(_MappedArray if mapped else _PinnedArray)
    out._pykc_alloc = alloc
    return out


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A NumPy array in page-locked host memory (fast, asynchronous copies)."""
    return _host_array(shape, dtype, order, mapped=False)


def pinned_array_like(ary):
    return pinned_array(ary.shape, ary.dtype, order="F" if _is_f(ary) else "C")


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False,
                 wc=False):
    """A host array that kernels read and write directly (mapped, page-locked)."""
    return _host_array(shape, dtype, order, mapped=True)


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    return mapped_array(ary.shape, ary.dtype, order="F" if _is_f(ary) else "C")
