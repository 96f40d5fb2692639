"""The CUDA driver as ``pykc.cuda``'s host API needs it: a context per device, memory,
copies, streams and events. Built on ``cuda.bindings`` (shipped with cuda.core), with
CuPy's runtime API as the fallback; never on numba.

Every call is checked and raises ``CudaError`` naming the call and the driver's error.
One ``Runtime`` per device, made on first use (``runtime()``), bound to the device's
primary context as CuPy, PyTorch and numba bind theirs, so memory moves freely between
them.
"""

from __future__ import annotations

import ctypes
import os
import threading

import numpy as np

from .._backends import CudaCoreBackend, CudaError, CupyBackend

__all__ = ["Runtime", "runtime", "CudaError", "reset_runtime"]


class _DriverApi:
    """cuda.bindings.driver, called with plain ints."""

    name = "cuda.core"

    def __init__(self, device):
        self.backend = CudaCoreBackend(device)
        self.d = self.backend.driver
        self.device_id = self.backend.dev.device_id

    def _check(self, res, what):
        return self.backend._check(res, what)

    def alloc(self, nbytes):
        return int(self._check(self.d.cuMemAlloc(max(int(nbytes), 1)), "cuMemAlloc"))

    def free(self, ptr):
        self._check(self.d.cuMemFree(self.d.CUdeviceptr(ptr)), "cuMemFree")

    def host_alloc(self, nbytes, mapped):
        flags = self.d.CU_MEMHOSTALLOC_PORTABLE
        if mapped:
            flags |= self.d.CU_MEMHOSTALLOC_DEVICEMAP
        return int(self._check(self.d.cuMemHostAlloc(max(int(nbytes), 1), flags),
                               "cuMemHostAlloc"))

    def host_free(self, ptr):
        self._check(self.d.cuMemFreeHost(ptr), "cuMemFreeHost")

    def host_device_pointer(self, ptr):
        return int(self._check(self.d.cuMemHostGetDevicePointer(ptr, 0),
                               "cuMemHostGetDevicePointer"))

    def copy(self, dst, src, nbytes, stream):
        # Unified addressing: one call for every direction.
        if nbytes:
            self._check(self.d.cuMemcpyAsync(dst, src, nbytes, self.d.CUstream(stream)),
                        "cuMemcpyAsync")

    def memset(self, ptr, byte, nbytes, stream):
        if nbytes:
            self._check(self.d.cuMemsetD8Async(self.d.CUdeviceptr(ptr), byte, nbytes,
                                               self.d.CUstream(stream)), "cuMemsetD8Async")

    def synchronize(self):
        self._check(self.d.cuCtxSynchronize(), "cuCtxSynchronize")

    def stream_create(self):
        h = self._check(self.d.cuStreamCreate(self.d.CUstream_flags.CU_STREAM_NON_BLOCKING),
                        "cuStreamCreate")
        return int(h)

    def stream_destroy(self, h):
        self._check(self.d.cuStreamDestroy(self.d.CUstream(h)), "cuStreamDestroy")

    def stream_sync(self, h):
        self._check(self.d.cuStreamSynchronize(self.d.CUstream(h)), "cuStreamSynchronize")

    def stream_query(self, h) -> bool:
        err = self.d.cuStreamQuery(self.d.CUstream(h))[0]
        return err == self.d.CUresult.CUDA_SUCCESS

    def event_create(self, timing):
        flags = 0 if timing else self.d.CUevent_flags.CU_EVENT_DISABLE_TIMING
        return self._check(self.d.cuEventCreate(flags), "cuEventCreate")

    def event_destroy(self, e):
        self._check(self.d.cuEventDestroy(e), "cuEventDestroy")

    def event_record(self, e, stream):
        self._check(self.d.cuEventRecord(e, self.d.CUstream(stream)), "cuEventRecord")

    def event_sync(self, e):
        self._check(self.d.cuEventSynchronize(e), "cuEventSynchronize")

    def event_query(self, e) -> bool:
        return self.d.cuEventQuery(e)[0] == self.d.CUresult.CUDA_SUCCESS

    def event_wait(self, e, stream):
        self._check(self.d.cuStreamWaitEvent(self.d.CUstream(stream), e, 0),
                    "cuStreamWaitEvent")

    def event_elapsed(self, start, end) -> float:
        return float(self._check(self.d.cuEventElapsedTime(start, end), "cuEventElapsedTime"))

    def device_info(self):
        d, dev = self.d, self.d.CUdevice(self.device_id)
        name = self._check(d.cuDeviceGetName(256, dev), "cuDeviceGetName")
        name = bytes(name).split(b"\0", 1)[0].decode()
        total = int(self._check(d.cuDeviceTotalMem(dev), "cuDeviceTotalMem"))
        attr = d.CUdevice_attribute

        def get(a):
            return int(self._check(d.cuDeviceGetAttribute(a, dev), "cuDeviceGetAttribute"))
        return {"name": name, "total_memory": total,
                "MULTIPROCESSOR_COUNT": get(attr.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
                "MAX_THREADS_PER_BLOCK": get(attr.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
                "WARP_SIZE": get(attr.CU_DEVICE_ATTRIBUTE_WARP_SIZE),
                "MAX_SHARED_MEMORY_PER_BLOCK":
                    get(attr.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
                "PCI_BUS_ID": get(attr.CU_DEVICE_ATTRIBUTE_PCI_BUS_ID)}

    def mem_info(self):
        free, total = self._check(self.d.cuMemGetInfo(), "cuMemGetInfo")
        return int(free), int(total)


class _CupyApi:
    """CuPy's runtime API, where cuda.core is missing."""

    name = "cupy"

    def __init__(self, device):
        self.backend = CupyBackend(device)
        self.cp = self.backend.cp
        self.rt = self.cp.cuda.runtime
        self.device_id = self.backend.dev.id

    def alloc(self, nbytes):
        return int(self.rt.malloc(max(int(nbytes), 1)))

    def free(self, ptr):
        self.rt.free(ptr)

    def host_alloc(self, nbytes, mapped):
        return int(self.rt.hostAlloc(max(int(nbytes), 1), 2 if mapped else 0))

    def host_free(self, ptr):
        self.rt.freeHost(ptr)

    def host_device_pointer(self, ptr):
        return int(self.rt.hostGetDevicePointer(ptr, 0))

    def copy(self, dst, src, nbytes, stream):
        if nbytes:
            self.rt.memcpyAsync(dst, src, nbytes, 4, stream)  # cudaMemcpyDefault

    def memset(self, ptr, byte, nbytes, stream):
        if nbytes:
            self.rt.memsetAsync(ptr, byte, nbytes, stream)

    def synchronize(self):
        self.rt.deviceSynchronize()

    def stream_create(self):
        return int(self.rt.streamCreateWithFlags(1))

    def stream_destroy(self, h):
        self.rt.streamDestroy(h)

    def stream_sync(self, h):
        self.rt.streamSynchronize(h)

    def stream_query(self, h) -> bool:
        return self.rt.streamQuery(h) == 0

    def event_create(self, timing):
        return self.rt.eventCreateWithFlags(0 if timing else 2)

    def event_destroy(self, e):
        self.rt.eventDestroy(e)

    def event_record(self, e, stream):
        self.rt.eventRecord(e, stream)

    def event_sync(self, e):
        self.rt.eventSynchronize(e)

    def event_query(self, e) -> bool:
        return self.rt.eventQuery(e) == 0

    def event_wait(self, e, stream):
        self.rt.streamWaitEvent(stream, e, 0)

    def event_elapsed(self, start, end) -> float:
        return float(self.rt.eventElapsedTime(start, end))

    def device_info(self):
        p = self.rt.getDeviceProperties(self.device_id)
        name = p["name"]
        return {"name": name.decode() if isinstance(name, bytes) else name,
                "total_memory": int(p["totalGlobalMem"]),
                "MULTIPROCESSOR_COUNT": int(p["multiProcessorCount"]),
                "MAX_THREADS_PER_BLOCK": int(p["maxThreadsPerBlock"]),
                "WARP_SIZE": int(p["warpSize"]),
                "MAX_SHARED_MEMORY_PER_BLOCK": int(p["sharedMemPerBlock"]),
                "PCI_BUS_ID": int(p["pciBusID"])}

    def mem_info(self):
        free, total = self.rt.memGetInfo()
        return int(free), int(total)


class Runtime:
    """One device: its driver API, the loader backend that loads and launches code on it,
    and its compute capability."""

    def __init__(self, device: int = 0, api: str | None = None):
        api = api or os.environ.get("PYKC_BACKEND") or None
        reasons = []
        for name, cls in (("cuda.core", _DriverApi), ("cupy", _CupyApi)):
            if api and api != name:
                continue
            try:
                self.api = cls(device)
                break
            except Exception as e:  # ImportError, no driver, no device
                reasons.append(f"  {name}: {type(e).__name__}: {e}")
        else:
            raise CudaError("pykc.cuda: no CUDA device can be used:\n" + "\n".join(reasons))
        self.device_id = device
        self.backend = self.api.backend
        self.cc = self.backend.cc_version
        self.arch = f"sm_{self.cc[0]}{self.cc[1]}"
        self.sync_launches = os.environ.get("PYKC_SYNC", "") not in ("", "0")

    def make_current(self):
        """Make this device's (primary) context current in the calling thread."""
        if self.api.name == "cuda.core":
            self.backend.dev.set_current()
        else:
            self.backend.dev.use()


_RUNTIMES: dict = {}
_LOCK = threading.Lock()
_CURRENT = threading.local()


def current_device_id() -> int:
    return getattr(_CURRENT, "device", None) or 0


def select(device: int) -> "Runtime":
    _CURRENT.device = int(device)
    rt = runtime()
    rt.make_current()
    return rt


def runtime(device: int | None = None) -> Runtime:
    """The Runtime of ``device`` (default: the thread's current one), made on first use;
    its context is made current in the calling thread the first time that thread asks
    (a CUDA context is current per thread)."""
    device = current_device_id() if device is None else int(device)
    rt = _RUNTIMES.get(device)
    if rt is None:
        with _LOCK:
            rt = _RUNTIMES.get(device)
            if rt is None:
                rt = _RUNTIMES[device] = Runtime(device)
                _bound().add(device)  # Runtime() made it current in this thread
    bound = _bound()
    if device not in bound:
        rt.make_current()
        bound.add(device)
    return rt


def _bound() -> set:
    b = getattr(_CURRENT, "bound", None)
    if b is None:
        b = _CURRENT.bound = set()
    return b


def reset_runtime():
    """Forget every Runtime (``cuda.close()``); the next use makes new ones."""
    with _LOCK:
        _RUNTIMES.clear()
    _bound().clear()


def host_array(ptr: int, shape, dtype, strides=None) -> np.ndarray:
    """A NumPy array over host memory at ``ptr`` (pinned or mapped allocations)."""
    dtype = np.dtype(dtype)
    count = int(np.prod(shape)) if len(shape) else 1
    buf = (ctypes.c_byte * max(count * dtype.itemsize, 1)).from_address(ptr)
    arr = np.frombuffer(buf, dtype=np.uint8, count=count * dtype.itemsize).view(dtype)
    return np.lib.stride_tricks.as_strided(arr, shape=shape, strides=strides) \
        if strides is not None else arr.reshape(shape)
