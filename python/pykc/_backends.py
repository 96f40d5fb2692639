"""The two ways the loader talks to the GPU: cuda.core (preferred) and CuPy (fallback).

A backend loads a cubin (or PTX), finds entry symbols, launches with already-packed
parameters (NumPy scalars of the exact C types, see ``LaunchPlan.packed``), and copies
NumPy arrays over and back. Every CUDA call's result is checked.
"""

from __future__ import annotations

import warnings

import numpy as np


class CudaError(RuntimeError):
    """A CUDA call failed."""


_BIG_SHARED = 48 * 1024  # above this, dynamic shared memory must be opted into


def stream_handle(stream) -> int:
    """The CUstream handle (an int) of any stream object; None and 0 mean the legacy
    default stream. Understands the ``__cuda_stream__`` protocol (cuda.core, recent CuPy
    and PyTorch), CuPy's ``.ptr``, PyTorch's ``.cuda_stream``, numba's ``.handle``."""
    if stream is None:
        return 0
    if isinstance(stream, int):
        return stream
    if hasattr(stream, "__cuda_stream__"):
        return int(stream.__cuda_stream__()[1])
    for attr in ("cuda_stream", "ptr", "handle"):
        h = getattr(stream, attr, None)
        if h is not None:
            return int(getattr(h, "value", h) or 0)  # ctypes.c_void_p has .value
    raise TypeError(f"cannot use {type(stream).__name__} as a CUDA stream")


class _DeviceCopy:
    """Device memory holding a copy of a host array (cuda.core backend)."""

    def __init__(self, ptr: int, host: np.ndarray):
        self.ptr, self.nbytes = ptr, host.nbytes
        self.dtype, self.shape, self.strides = host.dtype, host.shape, host.strides
        self.order = "F" if host.flags.f_contiguous and not host.flags.c_contiguous else "C"

    @property
    def __cuda_array_interface__(self):
        cai = {"version": 3, "shape": self.shape, "typestr": self.dtype.str,
               "data": (self.ptr, False), "strides": self.strides, "stream": None}
        if self.dtype.fields is not None:
            cai["descr"] = self.dtype.descr
        return cai


class CudaCoreBackend:
    """Loads and launches through ``cuda.core`` (>= 0.2: ``launch(stream, config, kernel,
    *args)``), importing ``cuda.core`` or, for older releases, ``cuda.core.experimental``.
    Memory copies for NumPy arguments use ``cuda.bindings.driver`` directly."""

    name = "cuda.core"

    def __init__(self, device=None):
        try:
            import cuda.core as cc
            cc.LaunchConfig, cc.ObjectCode  # noqa: B018  (1.x exports these at top level)
        except (ImportError, AttributeError):
            import cuda.core.experimental as cc
        try:
            from cuda.bindings import driver
        except ImportError:  # cuda-python < 12.6
            from cuda import cuda as driver
        self.cc, self.driver = cc, driver
        self.dev = cc.Device(device)
        self.dev.set_current()
        cap = self.dev.compute_capability
        self.cc_version = (int(cap[0]), int(cap[1]))
        self._smem_set: dict = {}

    def _check(self, res, what: str):
        err, rest = (res[0], res[1:]) if isinstance(res, tuple) else (res, ())
        if err != self.driver.CUresult.CUDA_SUCCESS:
            _, name = self.driver.cuGetErrorName(err)
            raise CudaError(f"{what} failed: {name.decode() if name else err}")
        return rest[0] if len(rest) == 1 else rest

    # -- code
    def load(self, code, kind: str):
        """``code``: a file's path, or the bytes themselves."""
        if isinstance(code, (bytes, bytearray)):
            data = bytes(code)
        else:
            with open(code, "rb") as f:
                data = f.read()
        if kind == "cubin":
            return self.cc.ObjectCode.from_cubin(data)
        if kind == "fatbin":
            # cuLibraryLoadData takes a fatbin as it takes a cubin (cuda.core < 0.3 has no
            # from_fatbin): the driver picks the GPU's code from it.
            make = getattr(self.cc.ObjectCode, "from_fatbin", self.cc.ObjectCode.from_cubin)
            return make(data)
        return self.cc.ObjectCode.from_ptx(data if data.endswith(b"\0") else data + b"\0")

    def get_function(self, module, symbol: str, cooperative: bool):
        return module.get_kernel(symbol)

    def read_error_word(self, module, reset: bool) -> int:
        """The module's `pykc_error` word (debug=True kernels), zeroed after reading."""
        d = self.driver
        handle = getattr(module, "_handle", None)
        if handle is None:
            handle = getattr(module, "handle", None)
        if hasattr(d, "CUlibrary") and isinstance(handle, d.CUlibrary):
            ptr, _ = self._check(d.cuLibraryGetGlobal(handle, b"pykc_error"), "cuLibraryGetGlobal")
        else:
            ptr, _ = self._check(d.cuModuleGetGlobal(handle, b"pykc_error"), "cuModuleGetGlobal")
        word = np.zeros(1, np.uint32)
        self._check(d.cuMemcpyDtoH(word.ctypes.data, ptr, 4), "cuMemcpyDtoH(pykc_error)")
        if reset and word[0]:
            self._check(d.cuMemsetD32(ptr, 0, 1), "cuMemsetD32(pykc_error)")
        return int(word[0])

    # -- streams
    def stream(self, handle: int):
        if handle == 0:
            return self.dev.default_stream
        if hasattr(self.cc.Stream, "from_handle"):
            return self.cc.Stream.from_handle(handle)

        class _Foreign:  # __cuda_stream__ protocol: (version, handle)
            def __cuda_stream__(self):
                return 0, handle
        return self.dev.create_stream(_Foreign())

    def wait_for(self, handles, stream, launch_handle: int):
        for h in handles - {launch_handle}:
            self._check(self.driver.cuStreamSynchronize(self.driver.CUstream(h)),
                        "cuStreamSynchronize (producer stream of an argument)")

    def sync(self, stream):
        stream.sync()

    # -- NumPy arguments
    def upload(self, host: np.ndarray, stream) -> _DeviceCopy:
        d = self.driver
        ptr = int(self._check(d.cuMemAlloc(max(host.nbytes, 1)), "cuMemAlloc"))
        copy = _DeviceCopy(ptr, host)
        if host.nbytes:
            self._check(d.cuMemcpyHtoDAsync(d.CUdeviceptr(ptr), host.ctypes.data, host.nbytes,
                                            d.CUstream(int(stream.handle))),
                        "cuMemcpyHtoDAsync")
        return copy

    def download(self, copy: _DeviceCopy, host: np.ndarray, stream):
        tmp = np.empty(copy.shape, copy.dtype, order=copy.order)
        if copy.nbytes:
            d = self.driver
            self._check(d.cuMemcpyDtoHAsync(tmp.ctypes.data, d.CUdeviceptr(copy.ptr),
                                            copy.nbytes, d.CUstream(int(stream.handle))),
                        "cuMemcpyDtoHAsync")
            stream.sync()
        host[...] = tmp

    def free(self, copy: _DeviceCopy):
        self._check(self.driver.cuMemFree(self.driver.CUdeviceptr(copy.ptr)), "cuMemFree")

    # -- launch
    def _opt_in_shared(self, kernel, nbytes: int):
        if self._smem_set.get(id(kernel), _BIG_SHARED) >= nbytes:
            return
        d, h = self.driver, kernel.handle
        attr = d.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        if hasattr(d, "CUkernel") and isinstance(h, d.CUkernel):  # library-loaded kernel
            self._check(d.cuKernelSetAttribute(attr, nbytes, h, d.CUdevice(self.dev.device_id)),
                        "cuKernelSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)")
        else:
            self._check(d.cuFuncSetAttribute(h, attr, nbytes),
                        "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)")
        self._smem_set[id(kernel)] = nbytes

    def launch(self, kernel, grid, block, shmem: int, cooperative: bool, stream, params):
        if shmem > _BIG_SHARED:
            self._opt_in_shared(kernel, shmem)
        kw = dict(grid=grid, block=block, shmem_size=shmem)
        if cooperative:
            try:
                config = self.cc.LaunchConfig(**kw, is_cooperative=True)       # >= 0.4
            except TypeError:
                config = self.cc.LaunchConfig(**kw, cooperative_launch=True)   # 0.3
        else:
            config = self.cc.LaunchConfig(**kw)
        self.cc.launch(stream, config, kernel, *params)


class CupyBackend:
    """Loads through ``cupy.RawModule(path=...)`` and launches its ``get_function``
    kernels (cooperative ones from a second RawModule with enable_cooperative_groups)."""

    name = "cupy"

    def __init__(self, device=None):
        import cupy
        self.cp = cupy
        self.dev = cupy.cuda.Device(device)
        self.dev.use()
        cap = str(self.dev.compute_capability)  # e.g. "90"
        self.cc_version = (int(cap[:-1]), int(cap[-1]))

    def load(self, code, kind: str):
        """``code``: a file's path, or the bytes themselves (written to a temporary file:
        CuPy's RawModule loads cubins from paths only)."""
        if isinstance(code, (bytes, bytearray)):
            import atexit
            import os
            import tempfile
            fd, path = tempfile.mkstemp(suffix="." + kind, prefix="pykc-")
            with os.fdopen(fd, "wb") as f:
                f.write(code)
            atexit.register(os.unlink, path)  # RawModule may read the file lazily
            return self.load(path, kind)
        # Two modules over the same file: CuPy decides cooperativeness per module.
        return {False: self.cp.RawModule(path=code),
                True: self.cp.RawModule(path=code, enable_cooperative_groups=True)}

    def get_function(self, module, symbol: str, cooperative: bool):
        return module[cooperative].get_function(symbol)

    def read_error_word(self, module, reset: bool) -> int:
        """The `pykc_error` word of both RawModules (debug=True kernels), zeroed."""
        code = 0
        for m in module.values():
            try:
                mem = m.get_global("pykc_error")
            except Exception:
                continue  # that RawModule was never loaded
            word = np.zeros(1, np.uint32)
            mem.copy_to_host(word.ctypes.data, 4)
            if word[0]:
                code = code or int(word[0])
                if reset:
                    mem.memset(0, 4)
        return code

    def stream(self, handle: int):
        return self.cp.cuda.Stream.null if handle == 0 else self.cp.cuda.ExternalStream(handle)

    def wait_for(self, handles, stream, launch_handle: int):
        for h in handles - {launch_handle}:
            self.cp.cuda.ExternalStream(h).synchronize()

    def sync(self, stream):
        stream.synchronize()

    def upload(self, host: np.ndarray, stream):
        with stream:
            return self.cp.array(host, order="F" if host.flags.f_contiguous
                                 and not host.flags.c_contiguous else "C")

    def download(self, copy, host: np.ndarray, stream):
        tmp = copy.get(stream=stream)
        stream.synchronize()
        host[...] = tmp

    def free(self, copy):
        pass  # CuPy's memory pool owns it

    def launch(self, kernel, grid, block, shmem: int, cooperative: bool, stream, params):
        if shmem > _BIG_SHARED and kernel.max_dynamic_shared_size_bytes < shmem:
            kernel.max_dynamic_shared_size_bytes = shmem
        with stream, warnings.catch_warnings():
            if cooperative:  # CuPy shrinks a too-large cooperative grid with a warning:
                warnings.simplefilter("error", UserWarning)  # refuse instead
            try:
                kernel(grid, block, tuple(params), shared_mem=shmem)
            except UserWarning as w:
                raise ValueError(f"cooperative launch refused: {w}") from None


BACKENDS = {"cuda.core": CudaCoreBackend, "cupy": CupyBackend}
