"""pykc run-time loader: load ``pykc compile`` output and launch its kernels.

    import pykc
    mod = pykc.load("build/kernels")            # the folder, or its manifest.json
    mod.saxpy[blocks, threads](2.0, x, y, out)  # numba-like launch syntax
    mod["saxpy"][grid, block, stream, dynamic_shared_bytes](...)

Arguments: CuPy / PyTorch / numba device arrays (``__cuda_array_interface__``), DLPack
tensors, NumPy arrays (copied to the device and back, synchronising), scalars and tuples.
Every argument is checked against the compiled signature (docs/ABI.md) before launch.
See docs/LOADER.md.
"""

from __future__ import annotations

import dataclasses
import logging
import os

from ._args import (ArgumentError, ArrayArg, LaunchPlan, ScalarArg, TupleArg, describe,
                    plan_launch, select_entry)
from ._backends import BACKENDS, CudaError, stream_handle
from ._manifest import (KernelEntry, Manifest, ManifestError, Param, arch_text, choose,
                        fatbin_targets, read_manifest, select_target)

#: The loader's log: which code it loads for the GPU, at DEBUG level
#: (``logging.basicConfig(level=logging.DEBUG)`` or ``PYKC_LOG=debug`` shows it).
log = logging.getLogger("pykc")
if os.environ.get("PYKC_LOG", "").lower() == "debug" and not log.handlers:
    _handler = logging.StreamHandler()
    _handler.setFormatter(logging.Formatter("pykc: %(message)s"))
    log.addHandler(_handler)
    log.setLevel(logging.DEBUG)

__version__ = "0.1.0"


def install():
    """Map ``numba`` imports to pykc's modules (see ``python -m pykc run``)."""
    from ._hook import install as _install
    _install()

__all__ = ["install", "load", "launch", "Module", "Kernel", "plan_launch", "describe", "read_manifest",
           "select_target", "choose_code", "ArgumentError", "ManifestError", "CudaError", "LaunchPlan",
           "KernelEntry", "Param", "normalize_dims"]


# CUDA's largest grid: 2**31 - 1 blocks along x, 65535 along y and z.
_GRID_LIMITS = ((1 << 31) - 1, 65535, 65535)


def normalize_dims(dims, what: str) -> tuple:
    """An int or a tuple of 1 to 3 positive ints -> a 3-tuple (a grid within CUDA's
    limits)."""
    try:
        t = (dims,) if isinstance(dims, int) else tuple(dims)
    except TypeError:  # neither an int nor a sequence (2.5, None)
        t = ()
    if not 1 <= len(t) <= 3 or not all(isinstance(d, int) and d >= 1 for d in t):
        raise ValueError(f"{what} must be a positive int or a tuple of 1 to 3 positive "
                         f"ints, got {dims!r}")
    t = t + (1,) * (3 - len(t))
    if what == "grid" and any(d > limit for d, limit in zip(t, _GRID_LIMITS)):
        raise ValueError(f"grid {dims!r} is larger than CUDA allows (at most "
                         f"{_GRID_LIMITS[0]} x {_GRID_LIMITS[1]} x {_GRID_LIMITS[2]} blocks)")
    return t


def choose_code(manifest: Manifest, cc: tuple) -> tuple:
    """What to load for a GPU of compute capability ``cc``: ``(target, kind, code,
    load_kind)``. ``kind`` is ``"cubin"`` or ``"ptx"`` (what runs), ``code`` the file to
    load and ``load_kind`` its form (``"fatbin"`` when the manifest has one: the driver
    then picks from it what ``choose`` predicts). Logs the choice at DEBUG level; raises
    ManifestError naming the GPU's arch and what the build holds when nothing fits."""
    where = os.path.dirname(manifest.path) or manifest.path
    if manifest.fatbin is not None:
        target, kind, how = choose(fatbin_targets(manifest.fatbin), cc, where + " (fatbin)")
        log.debug("%s: %s on this GPU (%s): %s %s from %s", where, how, arch_text(cc),
                  target.arch, "(the driver's JIT)" if kind == "ptx" else "", manifest.fatbin.path)
        return target, kind, manifest.fatbin.path, "fatbin"
    target, kind, how = choose(manifest.targets, cc, where)
    code = target.cubin if kind == "cubin" else target.ptx
    log.debug("%s: %s on this GPU (%s): %s %s from %s", where, how, arch_text(cc), target.arch,
              "(the driver's JIT)" if kind == "ptx" else "", code)
    return target, kind, code, kind


def _make_backend(name: str, device):
    if name not in BACKENDS:
        raise ValueError(f"unknown pykc backend {name!r} (choose from {sorted(BACKENDS)})")
    return BACKENDS[name](device)


class Module:
    """A loaded pykc output folder. ``mod.name`` / ``mod["name"]`` gives a Kernel."""

    def __init__(self, manifest: Manifest, backend, sync: bool = False, image=None):
        """``image``: ``(target, kind, bytes)`` when the code is in memory (the JIT's)
        rather than in the files the manifest names."""
        self.manifest, self.backend, self.sync = manifest, backend, sync
        if image is not None:
            self.target, self.code_kind, code = image
            load_kind = self.code_kind
        else:
            self.target, self.code_kind, code, load_kind = choose_code(manifest, backend.cc_version)
        self._code = backend.load(code, load_kind)
        self._kernels = {n: Kernel(self, es) for n, es in manifest.by_name().items()}
        for k in self._kernels.values():  # resolve every symbol now: fail early, clearly
            for e in k.entries:
                k.function(e)

    @property
    def kernels(self) -> list:
        return list(self._kernels)

    def __getitem__(self, name: str) -> "Kernel":
        try:
            return self._kernels[name]
        except KeyError:
            raise KeyError(f"no kernel {name!r} in {self.manifest.path}; it has: "
                           f"{', '.join(self._kernels) or 'none'}") from None

    def __getattr__(self, name: str) -> "Kernel":
        # Kernels named `_like_this` are common (TileGym, xarray-spatial); dunder names and
        # lookups before __init__ has set `_kernels` are Python's own.
        kernels = self.__dict__.get("_kernels")
        if kernels is None or (name.startswith("__") and name.endswith("__")):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError as e:
            raise AttributeError(e.args[0]) from None

    def __dir__(self):
        return [*super().__dir__(), *self._kernels]

    def __repr__(self):
        return (f"<pykc.Module {self.manifest.path} target={self.target.arch} "
                f"({self.code_kind}) backend={self.backend.name} kernels={self.kernels}>")


class Kernel:
    """All signatures of one kernel; ``kernel[grid, block(, stream(, shared))](*args)``."""

    def __init__(self, module: Module, entries: list):
        self.module, self.entries, self.name = module, entries, entries[0].name
        self._functions: dict = {}

    @property
    def signatures(self) -> list:
        return [e.signature for e in self.entries]

    def function(self, entry: KernelEntry):
        """The backend's function object for one signature (loaded on first use)."""
        f = self._functions.get(entry.symbol)
        if f is None:
            f = self._functions[entry.symbol] = self.module.backend.get_function(
                self.module._code, entry.symbol, entry.cooperative)
        return f

    def __getitem__(self, config) -> "_Configured":
        if any(e.tile for e in self.entries):
            raise ValueError(f"kernel '{self.name}' is a tile kernel: launch it with "
                             f"pykc.launch(stream, grid, kernel, args)")
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise ValueError(f"launch with kernel[grid, block], kernel[grid, block, stream] or "
                             f"kernel[grid, block, stream, dynamic_shared_bytes], got {config!r}")
        return _Configured(self, *config)

    def launch(self, grid, block, *args, stream=None, shared_mem: int = 0):
        if any(e.tile for e in self.entries):
            raise ValueError(f"kernel '{self.name}' is a tile kernel: launch it with "
                             f"pykc.launch(stream, grid, kernel, args)")
        return _Configured(self, grid, block, stream, shared_mem)(*args)

    @property
    def is_tile(self) -> bool:
        return any(e.tile for e in self.entries)

    def launch_tile(self, stream, grid, args):
        """cuTile's ``ct.launch(stream, grid, kernel, args)`` for a tile kernel: ``args``
        holds every parameter, Constant ones included; their values pick the compiled
        specialisation, and the block size is the one pykc chose (docs/ABI.md)."""
        args = tuple(args)
        entries, reasons = [], []
        for e in self.entries:
            if not e.tile:
                continue
            consts = e.tile["constants"]
            dropped = sum(1 for c in consts if not c[3])
            if len(args) != len(e.params) + dropped:
                reasons.append(f"  {e.signature}: takes {len(e.params) + dropped} "
                               f"arguments, {len(args)} given")
                continue
            bad = [f"{n}={_element(args[pos], el)!r} given, compiled for {n}={v!r}"
                   for n, pos, v, el in consts if not _same_constant(_element(args[pos], el), v)]
            if bad:
                reasons.append(f"  {e.signature}: " + "; ".join(bad))
                continue
            entries.append(e)
        if not entries:
            if not reasons:
                raise ValueError(f"kernel '{self.name}' is not a tile kernel: launch it "
                                 f"with kernel[grid, block](*args)")
            raise ArgumentError(f"no specialisation of tile kernel '{self.name}' accepts "
                                f"these arguments:\n" + "\n".join(reasons))
        positions = {pos for _, pos, _, el in entries[0].tile["constants"] if not el}
        runtime = [a for i, a in enumerate(args) if i not in positions]
        return _Configured(self, grid, entries[0].tile["block"], stream, 0,
                           entries=entries)(*runtime)

    def __repr__(self):
        return f"<pykc.Kernel {self.name} signatures={self.signatures}>"


def _element(arg, path):
    """A tuple argument's element at `path` (a Constant element, `cfg[0]`); the argument
    itself for an empty path; None where the argument has no such element."""
    for i in path:
        if not isinstance(arg, (tuple, list)) or i >= len(arg):
            return None
        arg = arg[i]
    return arg


def _same_constant(given, compiled) -> bool:
    # The manifest writes a tuple constant as an array, None as null, a string as itself, a
    # frozen dataclass instance as {"class": name, "fields": {field: value}}.
    if isinstance(compiled, dict):
        fields = compiled.get("fields", {})
        return type(given).__name__ == compiled.get("class") and dataclasses.is_dataclass(given) \
            and [f.name for f in dataclasses.fields(given)] == list(fields) \
            and all(_same_constant(getattr(given, k), v) for k, v in fields.items())
    if isinstance(compiled, list):
        return isinstance(given, (tuple, list)) and len(given) == len(compiled) \
            and all(_same_constant(g, c) for g, c in zip(given, compiled))
    if compiled is None or isinstance(compiled, str):
        return given is None if compiled is None else isinstance(given, str) and given == compiled
    if isinstance(given, bool) or isinstance(compiled, bool):
        return isinstance(given, (bool, int)) and bool(given) == bool(compiled) \
            and int(given) == int(compiled)
    try:
        return given == compiled and float(given) == float(compiled)
    except (TypeError, ValueError):
        return False


def launch(stream, grid, kernel, args):
    """Launch a tile kernel as cuTile's ``ct.launch`` does: ``launch(stream, grid, kernel,
    (a, b, c, TILE))``; grid is up to 3 ints, padded with 1s."""
    if not isinstance(kernel, Kernel):
        raise TypeError(f"pykc.launch takes a kernel of a loaded module, got {kernel!r}")
    return kernel.launch_tile(stream, grid, args)


class _Configured:
    def __init__(self, kernel: Kernel, grid, block, stream=None, shared_mem: int = 0,
                 entries=None):
        self.kernel = kernel
        self.entries = entries
        self.grid, self.block = normalize_dims(grid, "grid"), normalize_dims(block, "block")
        if not isinstance(shared_mem, int) or shared_mem < 0:
            raise ValueError(f"dynamic shared memory must be a non-negative int, "
                             f"got {shared_mem!r}")
        self.stream, self.shared_mem = stream, shared_mem

    def __call__(self, *args):
        handle = stream_handle(self.stream)
        return self.launch_described([describe(a, handle) for a in args], handle)

    def launch_described(self, descs, handle: int):
        """Launch with the arguments already described (``describe``) for the stream
        ``handle``."""
        k, mod = self.kernel, self.kernel.module
        be = mod.backend
        entry = select_entry(self.entries or [e for e in k.entries if not e.tile], descs)
        # The manifest's per-kernel limit, else the hardware's (1024 on sm_75 and newer).
        limit = entry.max_threads_per_block(mod.target.arch) or 1024
        threads = self.block[0] * self.block[1] * self.block[2]
        if threads > limit:
            raise ValueError(f"kernel '{k.name}' {entry.signature}: block {self.block} has "
                             f"{threads} threads, more than its limit of {limit} on "
                             f"{mod.target.arch}")
        fn = k.function(entry)
        stream = be.stream(handle)
        # A tile kernel past 48 KiB of shared memory takes it as dynamic shared memory.
        shared_mem = entry.dynamic_shared_bytes(mod.target.arch) if entry.tile else self.shared_mem
        plan, synced = None, False
        try:
            plan = plan_launch(entry, descs, upload=lambda a: be.upload(a, stream),
                               stream=handle)
            be.wait_for(plan.wait_streams, stream, handle)
            be.launch(fn, self.grid, self.block, shared_mem, entry.cooperative, stream,
                      plan.packed())
            if plan.copy_back or mod.sync or any(map(_is_copy, plan.keep_alive)):
                be.sync(stream)       # NumPy arguments: wait, then copy back (like numba)
                synced = True
            for host, dev in plan.copy_back:
                be.download(dev, host, stream)
            if entry.errors:
                if not synced:
                    be.sync(stream)
                _raise_kernel_error(k, entry, be.read_error_word(mod._code, reset=True))
        finally:
            copies = [d for d in (plan.keep_alive if plan else ()) if _is_copy(d)]
            if copies and not synced:  # failed half-way: let queued work finish first
                try:
                    be.sync(stream)
                except Exception:
                    pass
            for dev in copies:
                be.free(dev)


def _raise_kernel_error(kernel, entry, code):
    """debug=True kernels: raise the exception of the first failing assert/raise, as
    numba does on the host after the launch (code 0: none failed)."""
    if not code:
        return
    import builtins
    etype, message, line = entry.errors.get(code, ("RuntimeError", f"error code {code}", 0))
    cls = getattr(builtins, etype, None)
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        cls = RuntimeError
    where = f"kernel '{kernel.name}' {entry.signature}, line {line}"
    raise cls(f"{message} ({where})" if message else where)


def _is_copy(obj) -> bool:
    """keep_alive holds device copies of NumPy arrays (to free) and DLPack capsules."""
    return hasattr(obj, "__cuda_array_interface__")


def load(path: str, *, backend: str | None = None, device: int | None = None,
         sync: bool | None = None) -> Module:
    """Load a pykc output (its folder, or its ``manifest.json``).

    ``backend``: ``"cuda.core"`` or ``"cupy"``; default ``$PYKC_BACKEND``, else cuda.core
    with CuPy as fallback. ``device``: the device ordinal (default: the current one).
    ``sync``: synchronise and check errors after every launch (default ``$PYKC_SYNC``).
    """
    manifest = read_manifest(path)
    backend = backend or os.environ.get("PYKC_BACKEND") or None
    if sync is None:
        sync = os.environ.get("PYKC_SYNC", "") not in ("", "0")
    if backend:
        return Module(manifest, _make_backend(backend, device), sync)
    reasons = []
    for name in ("cuda.core", "cupy"):  # fall back to CuPy when cuda.core fails anywhere
        try:
            return Module(manifest, _make_backend(name, device), sync)
        except ManifestError:
            raise
        except Exception as e:  # ImportError, no driver, no device, load failure, ...
            reasons.append(f"  {name}: {type(e).__name__}: {e}")
    raise RuntimeError(f"pykc: no CUDA backend could load {manifest.path}:\n"
                       + "\n".join(reasons))
