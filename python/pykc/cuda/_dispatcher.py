"""``cuda.jit``'s objects: a kernel dispatcher typed from its run-time arguments, and
device functions.

A kernel's first launch with new argument types compiles that instance through libpykc
(in this process, from the function's source file, through the kernel cache the CLI
shares); later launches with those types find it in a table keyed by the types. The
compile happens once per (kernel, types) even when several threads launch at once.
"""

from __future__ import annotations

import functools
import inspect
import os
import re
import shutil
import subprocess
import tempfile
import threading

from .. import Module, _Configured, normalize_dims
from .._args import describe, select_entry
from .._backends import stream_handle
from .._compiler import CompileError, CompileWarning, compiler
from .._manifest import parse_manifest
from .._typeof import _text as _type_text
from .._typeof import check_argument_count, per_parameter
from . import _jitsource, _runtime
from ._fastlaunch import FastLauncher, arg_key, supports
from ._numba_types import is_numba_object, numba_signature_text, numba_type_text

__all__ = ["Dispatcher", "DeviceFunction", "CompileError", "signature_text"]

# numba's `cuda.jit` options pykc takes from the call (the rest it reads from the source).
_OPTIONS = {"device", "inline", "forceinline", "fastmath", "lineinfo", "debug", "opt",
            "max_registers", "cache", "link", "boundscheck", "lto", "extensions"}


def signature_text(name: str, sig) -> str:
    """``name(types)`` (pykc's ``--sig`` form) for a numba signature: a string
    (``"void(float32[::1], int32)"`` or ``"(float32[::1], int32)"``), a pykc.types
    Signature, or a tuple of types."""
    if isinstance(sig, (tuple, list)):
        return f"{name}({', '.join(numba_type_text(t) if is_numba_object(t) else str(t) for t in sig)})"
    if is_numba_object(sig):  # the installed numba's Signature (python -m pykc run)
        sig = numba_signature_text(sig)
    text = str(sig).strip()
    paren = text.find("(")
    if paren < 0:
        raise TypeError(f"`{name}`: {sig!r} is not a signature (expected something like "
                        "\"void(float32[::1], int32)\")")
    return name + text[paren:]


def _source_of(func):
    """(path, bytes) of the file defining ``func``; CompileError when there is none."""
    path = inspect.getsourcefile(func)
    if path is None or not os.path.exists(path):
        where = getattr(func.__code__, "co_filename", "?")
        raise CompileError(f"pykc: error: `{func.__qualname__}` was defined in {where}: pykc "
                           "compiles kernels from their source file, and this one has none")
    with open(path, "rb") as f:
        return path, f.read()


class _Instance:
    """One compiled kernel instance (or, for an eager kernel, all of its signatures):
    the compiler's output, loaded onto the device on first launch."""

    def __init__(self, compiled, arch: str, path: str, types=None):
        self.compiled, self.arch = compiled, arch
        self.manifest = parse_manifest(compiled.manifest, path, None)
        self.entries = self.manifest.kernels
        # The argument types of each entry: the launch's key for a lazy instance, the
        # manifest's signatures for an eager one.
        if types is not None:
            # The compiler also builds the signatures the source declares: keep the one
            # asked for.
            self.entries = [self.entry_for(types)]
        self.types = [types] if types is not None else [
            _argument_types(e.signature) for e in self.entries]
        self._kernel = None
        self._lock = threading.Lock()

    def entry_for(self, types):
        """The manifest entry of the argument types ``types`` (the manifest spells
        ``UniTuple(t, n)`` as ``Tuple(t, ..., t)``)."""
        want = ", ".join(_manifest_spelling(t) for t in types)
        for e in self.entries:
            if ", ".join(_argument_types(e.signature)) == want:
                return e
        raise KeyError(f"no entry for ({want}) in {[e.signature for e in self.entries]}")

    @property
    def kernel(self):
        """The loaded kernel (pykc.Kernel) on the current device."""
        if self._kernel is None:
            with self._lock:
                if self._kernel is None:
                    rt = _runtime.runtime()
                    if self.arch not in (rt.arch, device_target(rt.arch)):
                        raise RuntimeError(f"kernel compiled for {self.arch}, but the current "
                                           f"device is {rt.arch}")
                    target = next(t for t in self.manifest.targets if t.arch == self.arch)
                    module = Module(self.manifest, rt.backend, rt.sync_launches,
                                    image=(target, "cubin", self.cubin))
                    self._kernel = next(iter(module._kernels.values()))
        return self._kernel

    def max_cooperative_grid_blocks(self, blockdim, dynsmem: int = 0) -> int:
        """How many blocks of ``blockdim`` threads a cooperative launch may have on the
        current device (numba's overload method of that name)."""
        threads = 1
        for d in normalize_dims(blockdim, "block"):
            threads *= d
        kernel = self.kernel
        fn = kernel.function(self.entries[0])
        rt = _runtime.runtime()
        d = rt.backend.driver
        h = fn.handle
        if hasattr(d, "CUkernel") and isinstance(h, d.CUkernel):
            h = rt.backend._check(d.cuKernelGetFunction(h), "cuKernelGetFunction")
        per_sm = rt.backend._check(
            d.cuOccupancyMaxActiveBlocksPerMultiprocessor(h, threads, dynsmem),
            "cuOccupancyMaxActiveBlocksPerMultiprocessor")
        return int(per_sm) * int(rt.api.device_info()["MULTIPROCESSOR_COUNT"])

    @property
    def ptx(self) -> str:
        return self.compiled.ptx[self.arch]

    @property
    def cubin(self) -> bytes:
        return self.compiled.cubins[self.arch]


def target_arch() -> str:
    """The architecture the JIT compiles for: ``$PYKC_ARCH``, else the current device's,
    with its architecture-specific features where pykc uses them: ``sm_90a`` on Hopper
    (compute capability 9.0, where every GPU runs an sm_90a cubin), for wgmma's tensor-core
    products, which plain sm_90 lacks."""
    return os.environ.get("PYKC_ARCH") or device_target(_runtime.runtime().arch)


def device_target(arch: str) -> str:
    """The architecture pykc compiles for on a GPU of architecture ``arch`` (``sm_90`` ->
    ``sm_90a``; others unchanged)."""
    return "sm_90a" if arch == "sm_90" else arch


class _Launcher:
    """``kernel[grid, block(, stream(, shared))]``."""

    __slots__ = ("dispatcher", "grid", "block", "stream", "shared")

    def __init__(self, dispatcher, grid, block, stream=0, shared=0):
        self.dispatcher = dispatcher
        self.grid, self.block = normalize_dims(grid, "grid"), normalize_dims(block, "block")
        if not isinstance(shared, int) or shared < 0:
            raise ValueError(f"dynamic shared memory must be a non-negative int, got {shared!r}")
        self.stream, self.shared = stream, shared

    def __call__(self, *args):
        d = self.dispatcher
        if d._fast:
            h = self.stream if type(self.stream) is int else stream_handle(self.stream)
            key, values = arg_key(args, h)
            fl = d._fast.get(key)
            if fl is not None and self.shared <= 48 * 1024:
                if d._bound_thread != threading.get_ident():
                    _runtime.runtime()
                    d._bound_thread = threading.get_ident()
                return fl.launch(self.grid, self.block, self.shared, h, values)
            return d._launch(self.grid, self.block, self.stream, self.shared, args,
                             (key, values))
        return d._launch(self.grid, self.block, self.stream, self.shared, args)


class Dispatcher:
    """A ``cuda.jit`` kernel. ``k[grid, block](*args)``, ``k[grid, block, stream,
    dynamic_shared_bytes](*args)``, ``k.forall(n)(*args)``; ``k.signatures``,
    ``k.specialize(*args)``, ``k.inspect_asm()``, ``k.inspect_sass()``."""

    def __init__(self, py_func, sigs=None, options=None):
        functools.update_wrapper(self, py_func)
        self.py_func = py_func
        self.targetoptions = dict(options or {})
        self._explicit = [signature_text(py_func.__name__, s) for s in (sigs or [])]
        parameters = inspect.signature(py_func).parameters
        self._params = list(parameters)
        # Parameters with defaults may be left out of a launch (numba's omitted arguments):
        # pykc compiles their values in (`--sig` with fewer types).
        self._required = sum(1 for p in parameters.values() if p.default is inspect.Parameter.empty)
        self._launchers: dict = {}     # (grid, block, ...) -> _Launcher
        self._fast: dict = {}          # arg_key -> FastLauncher
        self._bound_thread = None
        self._instances: dict = {}     # argument types (a tuple of str) -> _Instance
        self._eager: _Instance | None = None
        self._lock = threading.RLock()
        if self._explicit:
            self._eager = self._compile(self._explicit)

    # -- compiling
    def _compile(self, sigs, types=None) -> _Instance:
        func, arch = self.py_func, target_arch()
        if _jitsource.is_nested(func):
            # A kernel made inside a function: a module written from the values it sees.
            path = inspect.getsourcefile(func) or func.__code__.co_filename
            source = _jitsource.nested_source(self)
        else:
            path, source = _source_of(func)
        request = dict(kernel=func.__name__, sigs=sigs, archs=[arch])
        try:
            try:
                compiled = compiler().compile(path, source, **request)
            except CompileError as e:
                # A top-level function made a kernel where the compiler cannot see it
                # (`cuda.jit(sig)(f)` inside a test method): compile it as written here.
                if not any(d.get("kind") == "unknown-kernel" for d in e.diagnostics):
                    raise
                source = _jitsource.nested_source(self)
                compiled = compiler().compile(path, source, **request)
        except CompileError as e:
            names = [n for n in (_quoted(d.get("message", "")) for d in e.diagnostics
                                 if d.get("kind") == "host-global") if n]
            values = [_jitsource.lookup(func, n) for n in names]
            if any(found and isinstance(v, (Dispatcher, DeviceFunction))
                   for found, v in values):
                # Device functions imported from other modules: the written module holds
                # their source (a failure there reports the original error).
                written = _jitsource.nested_source(self)  # its own errors are clearer
                try:
                    compiled = compiler().compile(path, written, **request)
                    _warn(compiled)
                    return _Instance(compiled, arch, path, types)
                except CompileError:
                    raise e from None
            # Module globals computed at run time: their values now, as numba freezes them.
            defines = _jitsource.defines_for(func, names)
            if not defines:
                raise
            compiled = compiler().compile(path, source, defines=defines, **request)
        _warn(compiled)
        return _Instance(compiled, arch, path, types)

    def _instance_for(self, types: tuple) -> _Instance:
        inst = self._instances.get(types)
        if inst is None:
            with self._lock:
                inst = self._instances.get(types)
                if inst is None:
                    sig = f"{self.py_func.__name__}({', '.join(types)})"
                    inst = self._instances[types] = self._compile([sig], types)
        return inst

    def compile(self, sig):
        """Compile for ``sig`` now (numba's ``Dispatcher.compile``)."""
        return self._instance_for(_argument_types(signature_text(self.py_func.__name__, sig)))

    # -- launching
    def __getitem__(self, config):
        try:
            return self._launchers[config]
        except (KeyError, TypeError):  # TypeError: an unhashable stream object
            pass
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise ValueError(f"launch with kernel[grid, block], kernel[grid, block, stream] or "
                             f"kernel[grid, block, stream, dynamic_shared_bytes], got {config!r}")
        launcher = _Launcher(self, *config)
        if all(type(c) in (int, tuple) for c in config) and len(self._launchers) < 256:
            self._launchers[config] = launcher
        return launcher

    def __call__(self, *args, **kwargs):
        raise ValueError(f"kernel `{self.py_func.__name__}`: the launch configuration was not "
                         "specified; launch it with kernel[blockspergrid, threadsperblock]"
                         "(arg0, arg1, ..., argn)")

    def forall(self, ntasks: int, tpb: int = 0, stream=0, sharedmem: int = 0):
        """A launcher that runs ``ntasks`` threads (numba's ``forall``)."""
        if not isinstance(ntasks, int) or ntasks < 0:
            raise ValueError(f"Can't create ForAll with negative task count: {ntasks!r}")
        tpb = tpb or 128
        return _Launcher(self, max(1, -(-ntasks // tpb)), tpb, stream, sharedmem)

    def _launch(self, grid, block, stream, shared, args, fast_args=None):
        """The launch when no FastLauncher took it: type, compile if new, then the fast
        path (a lazy instance) or the checked one. ``fast_args``: ``arg_key(args)``
        when the caller has read it already."""
        _runtime.runtime()  # makes the device's context current in this thread
        handle = stream_handle(stream)
        name, params = self.py_func.__name__, self._params
        # An eager kernel's signatures name every parameter (numba's rule).
        check_argument_count(name, params, args, len(params) if self._eager is not None else self._required)
        descs = per_parameter(name, params, args, lambda a: describe(a, handle))
        if self._eager is not None:
            inst = self._eager
        else:
            inst = self._instance_for(tuple(per_parameter(name, params, descs, _type_text)))
        kernel = inst.kernel
        key, values = fast_args if fast_args is not None else arg_key(args, handle)
        if key is not None and self._eager is None and shared <= 48 * 1024:
            # A lazy instance was typed from these very arguments: nothing to check or
            # convert, so its first launch already takes the fast path where it can.
            fl = self._fast_for(inst, kernel, key, descs)
            if fl is not None:
                return fl.launch(grid, block, shared, handle, values)
        result = _Configured(kernel, grid, block, stream, shared,
                             entries=inst.entries).launch_described(descs, handle)
        if key is not None:  # after a checked launch: the fast path for these types
            self._fast_for(inst, kernel, key, descs)
        return result

    def _fast_for(self, inst, kernel, key, descs):
        """The FastLauncher of argument key ``key`` (made now if the instance can take
        the fast path), or None."""
        fl = self._fast.get(key)
        if fl is not None or kernel.module.sync or len(self._fast) >= 64:
            return fl
        entry = select_entry(inst.entries, descs)
        if not supports(entry):
            return None
        fn = kernel.function(entry)
        h = getattr(fn, "handle", None)
        if h is None:
            return None  # the CuPy backend: its launches stay on the checked path
        limit = entry.max_threads_per_block(inst.arch) or 1024
        fl = self._fast[key] = FastLauncher(int(h), entry, limit, self.py_func.__name__)
        return fl

    # -- introspection
    def _all(self):
        eager = [self._eager] if self._eager is not None else []
        return eager + [i for i in self._instances.values() if i is not self._eager]

    @property
    def signatures(self) -> list:
        """The argument types of every compiled instance, as pykc signature text."""
        return [t for inst in self._all() for t in inst.types]

    @property
    def overloads(self) -> dict:
        """Argument types -> compiled instance; also indexed by a numba signature or a
        tuple of numba types (``k.overloads[sig]``), as numba's is."""
        return _Overloads({t: inst for inst in self._all() for t in inst.types})

    def _pick(self, signature):
        if signature is None:
            return None
        key = _type_key(signature)
        for inst in self._all():
            if key in inst.types:
                return inst
        raise KeyError(f"kernel `{self.py_func.__name__}` has no instance for {signature!r}; "
                       f"it has {self.signatures}")

    def inspect_asm(self, signature=None):
        """The PTX of one instance, or of each (a dict keyed by argument types)."""
        inst = self._pick(signature)
        if inst is not None:
            return inst.ptx
        return {types: self._pick(types).ptx for types in self.signatures}

    def inspect_sass(self, signature=None):
        """The SASS of one instance, or of each, by ``nvdisasm`` (from the CUDA toolkit
        or the nvidia-cuda-nvdisasm package)."""
        inst = self._pick(signature)
        if inst is not None:
            return _disassemble(inst.cubin)
        return {types: _disassemble(self._pick(types).cubin) for types in self.signatures}

    def inspect_types(self, file=None, signature=None):
        """The signature of each instance (pykc's typed view is `pykc inspect --emit
        types`)."""
        import sys
        file = file or sys.stdout
        for types in self.signatures if signature is None else [signature]:
            print(f"{self.py_func.__name__} ({', '.join(types)})", file=file)

    def specialize(self, *args):
        """A kernel that accepts only the types of ``args`` (compiled now)."""
        types = tuple(_type_text(describe(a)) for a in args)
        inst = self._instance_for(types) if self._eager is None else self._eager
        spec = Dispatcher.__new__(Dispatcher)
        spec.__dict__.update(self.__dict__)
        spec._eager, spec._instances, spec._lock = inst, {types: inst}, threading.RLock()
        spec._launchers, spec._fast = {}, {}
        return spec

    def __repr__(self):
        return f"<pykc.cuda kernel {self.py_func.__qualname__} signatures={self.signatures}>"


class DeviceFunction:
    """A ``cuda.jit(device=True)`` function: compiled as part of the kernels that call
    it; calling it from the host is an error, as in numba."""

    def __init__(self, py_func, sigs=None, options=None):
        functools.update_wrapper(self, py_func)
        self.py_func = py_func
        self.targetoptions = dict(options or {})
        self._explicit = [signature_text(py_func.__name__, s) for s in (sigs or [])]

    def __call__(self, *args, **kwargs):
        raise TypeError(f"device function `{self.py_func.__name__}` can only be called from "
                        "a kernel or another device function")

    def __repr__(self):
        return f"<pykc.cuda device function {self.py_func.__qualname__}>"


def _warn(compiled):
    """The compiler's warnings as Python warnings (numba reports its own so)."""
    text = compiled.diagnostics.strip()
    if text and "warning:" in text:
        import warnings
        warnings.warn("\n" + text, CompileWarning, stacklevel=4)


def _type_key(key) -> tuple:
    """Argument types as a tuple of pykc type text, from a signature object or string, a
    tuple of numba types, or such a tuple already."""
    from .. import types as nbtypes
    if isinstance(key, nbtypes.Signature):
        return tuple(str(a) for a in key.args)
    if isinstance(key, str):
        return _argument_types(key)
    return tuple(str(t) for t in key)


class _Overloads(dict):
    def __getitem__(self, key):
        return dict.__getitem__(self, _type_key(key))

    def __contains__(self, key):
        return dict.__contains__(self, _type_key(key))

    def get(self, key, default=None):
        return dict.get(self, _type_key(key), default)


def _quoted(message: str):
    """The first `name` quoted in a diagnostic's message."""
    a = message.find("`")
    b = message.find("`", a + 1)
    return message[a + 1:b] if a >= 0 and b > a else None


def _manifest_spelling(t: str) -> str:
    """A type as the manifest writes it: tuples as ``Tuple(...)`` of their elements."""
    if t.startswith("UniTuple(") and t.endswith(")"):
        elem, count = _split_types(t[len("UniTuple("):-1])
        e = _manifest_spelling(elem)
        return f"Tuple({', '.join([e] * int(count))})"
    if t.startswith("Tuple(") and t.endswith(")"):
        return f"Tuple({', '.join(_manifest_spelling(x) for x in _split_types(t[6:-1]))})"
    return t


def _argument_types(signature: str) -> tuple:
    """The argument types of ``ret(a, b)`` / ``name(a, b)`` / ``(a, b)``; values compiled
    in (``void(float32[::1], criterion=-1)``: omitted arguments) are no argument types."""
    parts = _split_types(signature[signature.find("(") + 1:signature.rfind(")")])
    return tuple(p for p in parts if not re.match(r"[A-Za-z_]\w*=", p))


def _split_types(text: str) -> list:
    """Top-level comma split of ``float32[:, ::1], UniTuple(int64, 2)``."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _disassemble(cubin: bytes) -> str:
    tool = shutil.which("nvdisasm") or next(
        (p for p in ("/usr/local/cuda/bin/nvdisasm",) if os.path.exists(p)), None)
    if tool is None:
        try:
            import nvidia.cuda_nvdisasm as pkg  # the nvidia-cuda-nvdisasm wheel
            cand = os.path.join(os.path.dirname(pkg.__file__), "bin", "nvdisasm")
            tool = cand if os.path.exists(cand) else None
        except ImportError:
            pass
    if tool is None:
        raise RuntimeError("inspect_sass needs nvdisasm (CUDA toolkit, or pip install "
                           "nvidia-cuda-nvdisasm)")
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        return subprocess.run([tool, "-c", f.name], check=True, capture_output=True,
                              text=True).stdout
