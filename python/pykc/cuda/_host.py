"""numba.cuda's host objects: streams, events, devices, and the names only kernels use.

    s = cuda.stream(); k[g, b, s](x); s.synchronize()
    e0, e1 = cuda.event(), cuda.event(); e0.record(); ...; e1.record(); e1.synchronize()
    e0.elapsed_time(e1)                  # milliseconds
    cuda.get_current_device().name, .compute_capability
"""

from __future__ import annotations

import contextlib

from . import _runtime
from .._backends import stream_handle

__all__ = ["Stream", "Event", "Device", "stream", "default_stream", "legacy_default_stream",
           "per_thread_default_stream", "external_stream", "event", "event_elapsed_time",
           "synchronize", "get_current_device", "select_device", "list_devices", "gpus",
           "is_available", "detect", "close", "current_context", "defer_cleanup",
           "profile_start", "profile_stop", "profiling", "KernelOnly"]


class _Handle(int):
    """A driver handle as an int that also has ctypes' ``.value``."""

    @property
    def value(self) -> int:
        return int(self)


class Stream:
    """A CUDA stream (numba's ``Stream``). ``handle`` is the CUstream as an int."""

    def __init__(self, handle: int, owned: bool = False):
        self._handle, self._owned = int(handle), owned

    @property
    def handle(self) -> "_Handle":
        """The CUstream: ``int(s.handle)`` and ``s.handle.value`` give it as an int."""
        return _Handle(self._handle)

    def __int__(self):
        return self._handle

    def __cuda_stream__(self):
        return (0, self._handle)

    def synchronize(self):
        _runtime.runtime().api.stream_sync(self._handle)

    def query(self) -> bool:
        return _runtime.runtime().api.stream_query(self._handle)

    @contextlib.contextmanager
    def auto_synchronize(self):
        yield self
        self.synchronize()

    def __del__(self):
        if getattr(self, "_owned", False) and self._handle:
            try:
                _runtime.runtime().api.stream_destroy(self._handle)
            except Exception:
                pass

    def __repr__(self):
        return f"<pykc.cuda Stream {self._handle:#x}>"


def stream() -> Stream:
    """A new (non-blocking) stream."""
    return Stream(_runtime.runtime().api.stream_create(), owned=True)


def default_stream() -> Stream:
    return Stream(0)


def legacy_default_stream() -> Stream:
    return Stream(1)  # CU_STREAM_LEGACY


def per_thread_default_stream() -> Stream:
    return Stream(2)  # CU_STREAM_PER_THREAD


def external_stream(ptr) -> Stream:
    """A stream made elsewhere (CuPy, PyTorch): ``ptr`` is its handle."""
    return Stream(int(ptr))


class Event:
    """A CUDA event (numba's ``Event``)."""

    def __init__(self, timing: bool = True):
        self._api = _runtime.runtime().api
        self._event = self._api.event_create(timing)

    def record(self, stream=0):
        self._api.event_record(self._event, stream_handle(stream))

    def synchronize(self):
        self._api.event_sync(self._event)

    def query(self) -> bool:
        return self._api.event_query(self._event)

    def wait(self, stream=0):
        self._api.event_wait(self._event, stream_handle(stream))

    def elapsed_time(self, other: "Event") -> float:
        """Milliseconds from this event to ``other``."""
        return self._api.event_elapsed(self._event, other._event)

    def __del__(self):
        e = getattr(self, "_event", None)
        if e is not None:
            try:
                self._api.event_destroy(e)
            except Exception:
                pass


def event(timing: bool = True) -> Event:
    return Event(timing)


def event_elapsed_time(evtstart: Event, evtend: Event) -> float:
    return evtstart.elapsed_time(evtend)


def synchronize():
    """Wait for all work on the current device."""
    _runtime.runtime().api.synchronize()


class Device:
    """A GPU (numba's ``Device``): ``id``, ``name``, ``compute_capability`` and the
    attributes numba programs read (``MULTIPROCESSOR_COUNT``, ``WARP_SIZE``, ...)."""

    def __init__(self, device_id: int):
        self.id = int(device_id)
        self._info = None

    def _rt(self):
        return _runtime.runtime(self.id)

    @property
    def compute_capability(self) -> tuple:
        return self._rt().cc

    @property
    def info(self) -> dict:
        if self._info is None:
            self._info = self._rt().api.device_info()
        return self._info

    @property
    def name(self) -> str:
        return self.info["name"]

    def __getattr__(self, attr):
        if attr.isupper():
            info = self.info
            if attr in info:
                return info[attr]
        raise AttributeError(attr)

    def get_memory_info(self):
        return self._rt().api.mem_info()

    def reset(self):
        synchronize()

    def __enter__(self):
        self._previous = _runtime.current_device_id()
        _runtime.select(self.id)
        return self

    def __exit__(self, *exc):
        _runtime.select(self._previous)

    def __repr__(self):
        return f"<pykc.cuda Device {self.id} '{self.name}'>"


def _device_count() -> int:
    try:
        from cuda.bindings import driver as d
    except ImportError:
        try:
            from cuda import cuda as d
        except ImportError:
            d = None
    if d is not None:
        if d.cuInit(0)[0] != d.CUresult.CUDA_SUCCESS:
            return 0
        err, n = d.cuDeviceGetCount()
        return int(n) if err == d.CUresult.CUDA_SUCCESS else 0
    try:
        import cupy
        return int(cupy.cuda.runtime.getDeviceCount())
    except Exception:
        return 0


class _Gpus:
    """``cuda.gpus``: the devices, indexable, iterable; ``cuda.gpus.current``."""

    def __len__(self):
        return _device_count()

    def __getitem__(self, i):
        if not 0 <= int(i) < len(self):
            raise IndexError(f"no GPU {i}")
        return Device(int(i))

    def __iter__(self):
        return (Device(i) for i in range(len(self)))

    @property
    def current(self) -> Device:
        return get_current_device()

    def __repr__(self):
        return f"<pykc.cuda gpus: {len(self)}>"


gpus = _Gpus()


def list_devices() -> list:
    return list(gpus)


def get_current_device() -> Device:
    return Device(_runtime.current_device_id())


def select_device(device_id: int) -> Device:
    _runtime.select(device_id)
    return Device(device_id)


def current_context():
    return get_current_device()


def is_available() -> bool:
    """True when a CUDA GPU can be used."""
    try:
        return _device_count() > 0 and _runtime.runtime() is not None
    except Exception:
        return False


def detect() -> bool:
    """Print the GPUs found (as numba's ``cuda.detect``); True when there is one."""
    n = _device_count()
    print(f"Found {n} CUDA devices")
    for d in gpus:
        cc = d.compute_capability
        print(f"id {d.id:>4} {d.name!r:>30}                              [SUPPORTED]")
        print(f"{'Compute Capability:':>40} {cc[0]}.{cc[1]}")
    print("Summary:")
    print(f"\t{n}/{n} devices are supported")
    return n > 0


def close():
    """Forget this process's device state (numba's ``cuda.close``)."""
    synchronize()
    _runtime.reset_runtime()


@contextlib.contextmanager
def defer_cleanup():
    """numba defers freeing memory inside this block; pykc frees when the last view goes,
    so this only groups the code."""
    yield


def _profiler(start: bool):
    try:
        from cuda.bindings import driver as d
        (d.cuProfilerStart if start else d.cuProfilerStop)()
    except Exception:
        pass


def profile_start():
    _profiler(True)


def profile_stop():
    _profiler(False)


@contextlib.contextmanager
def profiling():
    profile_start()
    try:
        yield
    finally:
        profile_stop()


class KernelOnly:
    """A name that only means something inside a kernel (``cuda.grid``,
    ``cuda.threadIdx``, ``cuda.shared.array``, ...): pykc compiles it from the source;
    using it on the host is an error."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return KernelOnly(f"{self._name}.{attr}")

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"`cuda.{self._name}` can only be used inside a kernel or device "
                           "function")

    def __repr__(self):
        return f"<pykc.cuda kernel-only name cuda.{self._name}>"
