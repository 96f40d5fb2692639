"""cuTile Python's host API, compiled by pykc: ``import pykc.tile as ct`` where a program
has ``import cuda.tile as ct`` (``python -m pykc run`` maps that import too).

    import pykc.tile as ct
    ConstInt = ct.Constant[int]

    @ct.kernel
    def vec_add(a, b, c, TILE: ConstInt):
        bid = ct.bid(0)
        ct.store(c, index=(bid,), tile=ct.load(a, index=(bid,), shape=(TILE,)) +
                 ct.load(b, index=(bid,), shape=(TILE,)))

    ct.launch(torch.cuda.current_stream(), (ct.cdiv(n, 1024),), vec_add, (a, b, c, 1024))

A kernel compiles on its first launch for the types of its array and scalar arguments
(arrays by dtype, ndim and layout; Python ``int``/``float``/``bool`` as cuTile types
them: int32, float32, bool) and the values of its ``ct.Constant`` parameters (one
specialisation per value), through libpykc in this process and the kernel cache; the
block size is pykc's (docs/TILE.md). Names used only inside kernels (``ct.load``,
``ct.bid``, ...) are compiled from the source; on the host they are placeholders.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import inspect
import threading
import time

from .. import Module
from .._backends import stream_handle
from .._compiler import CompileError, compiler
from .._manifest import parse_manifest
from .._typeof import _array_text, _dtype_text, describe, tile_array_text
from .._args import ArrayArg, ScalarArg, TupleArg, abi_layout
from ..cuda import _runtime
from ..cuda._fastlaunch import FastLauncher, supports_tile, tile_arg_key
from ..cuda._dispatcher import _source_of, target_arch
from ..cuda._host import KernelOnly
from ._errors import (TileCompilerExecutionError, TileCompilerTimeoutError, TileError,
                      TileInternalError, TileRecursionError, TileStaticAssertionError,
                      TileStaticEvalError, TileSyntaxError, TileTypeError,
                      TileUnsupportedFeatureError, TileValueError, tile_error)
from ._nested import nested_tile_source
from ._static import ArrayAnnotation, ListAnnotation, static_arg_text, static_request

__all__ = ["kernel", "launch", "Constant", "ByTarget", "cdiv", "TileKernel", "CompileError",
           "ArrayAnnotation", "ListAnnotation",
           "TileError", "TileSyntaxError", "TileTypeError", "TileValueError",
           "TileUnsupportedFeatureError", "TileRecursionError", "TileStaticEvalError",
           "TileStaticAssertionError", "TileInternalError", "TileCompilerExecutionError",
           "TileCompilerTimeoutError", "compiler_timeout"]

# cuTile's kernel options (hints): recorded and checked, code generation does not
# depend on them (docs/TILE.md).
_HINTS = ("num_ctas", "occupancy", "opt_level", "num_worker_warps")




_timeout = threading.local()


@contextlib.contextmanager
def compiler_timeout(seconds: float):
    """``with ct.compiler_timeout(10): ...``: a kernel compiled inside the block whose
    compile takes longer than ``seconds`` raises ``TileCompilerTimeoutError`` (pykc's
    compile runs in this process and is not interrupted: the error comes when it ends,
    and the kernel is not kept)."""
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds <= 0:
        raise ValueError(f"compiler_timeout takes a positive number of seconds, got {seconds!r}")
    old = getattr(_timeout, "seconds", None)
    _timeout.seconds = float(seconds)
    try:
        yield
    finally:
        _timeout.seconds = old


def _check_hints(hints: dict, what: str):
    for k, v in hints.items():
        if k not in _HINTS:
            raise TypeError(f"{what}: unknown option `{k}`; cuTile's are {', '.join(_HINTS)}")
        values = v.values.values() if isinstance(v, ByTarget) else (v,)
        for x in values:
            if x is not None and (not isinstance(x, int) or isinstance(x, bool) or x < 0):
                raise TypeError(f"{what}: `{k}` takes a non-negative int or ct.ByTarget, "
                                f"got {v!r}")


class _ConstantAnnotation:
    """``ct.Constant[int]``: a compile-time parameter of that kind."""

    def __init__(self, kind):
        self.kind = kind

    def __repr__(self):
        return f"ct.Constant[{getattr(self.kind, '__name__', self.kind)}]"


class _Constant:
    def __getitem__(self, kind):
        return _ConstantAnnotation(kind)

    def __repr__(self):
        return "ct.Constant"


Constant = _Constant()


class ByTarget:
    """A kernel option per target architecture (``num_ctas=ct.ByTarget(sm_100=2,
    default=1)``); pykc records it (docs/TILE.md)."""

    def __init__(self, **values):
        self.values = values


def cdiv(a: int, b: int) -> int:
    """Ceiling division, as cuTile's ``ct.cdiv`` on the host."""
    return -(-int(a) // int(b))


class _DType:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"ct.{self.name}"


_DTYPE_NAMES = ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float16", "bfloat16", "float32", "float64", "tfloat32", "float8_e4m3fn", "float8_e5m2")
for _n in _DTYPE_NAMES:
    globals()[_n] = _DType(_n)
del _n

# cuTile's types of Python scalars passed to a kernel.
_PYTHON_SCALARS = {bool: "boolean", int: "int32", float: "float32"}


class _Hint:
    """cuTile's annotations that name no type (``ct.Array``, ``ct.IndexedWithInt64``,
    ``ct.ScalarInt64``): on the host, markers the launch reads."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"ct.{self.name}"


Array = _Hint("Array")
IndexedWithInt64 = _Hint("IndexedWithInt64")
ScalarInt64 = _Hint("ScalarInt64")


def _scalar_text(d: ScalarArg, int64: bool = False) -> str:
    if d.dtype is not None:
        return _dtype_text(d.dtype, d.describe())
    if int64 and d.pytype is int:
        return "int64"
    if d.pytype in _PYTHON_SCALARS:
        return _PYTHON_SCALARS[d.pytype]
    raise TypeError(f"{d.describe()}: a tile kernel takes no complex scalars")


def _element_text(d) -> str:
    """An element of a tuple argument: arrays without specialisation facts, so that a list
    of tensors is one type whatever their alignments (a run-time index needs that)."""
    if isinstance(d, ArrayArg):
        return _array_text(d, abi_layout(d.shape, d.strides))
    return _arg_text(d)


def _arg_text(d, int64: bool = False) -> str:
    if isinstance(d, ArrayArg):
        return tile_array_text(d)
    if isinstance(d, ScalarArg):
        return _scalar_text(d, int64)
    if isinstance(d, TupleArg):
        items = [_element_text(i) for i in d.items]
        if d.cls is not None:  # a frozen dataclass: `Arg(int32, float32)`
            return f"{d.cls}({', '.join(items)})"
        if items and all(i == items[0] for i in items):
            return f"UniTuple({items[0]}, {len(items)})"
        return f"Tuple({', '.join(items)})"
    raise TypeError(f"{d.describe()}: not an argument a tile kernel takes")


def _const_text(value) -> str:
    """A Constant argument as `--const` spells it: a number, bool, string or None as Python
    writes it, an enum member as `Class.MEMBER` (a class of the kernel's module), a dtype
    (pykc.tile's, cuTile's, torch's or NumPy's) by its cuda.tile path."""
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    if isinstance(value, _DType):
        return f"cuda.tile.{value.name}"
    dtype = _dtype_name(value)
    if dtype is not None:
        return f"cuda.tile.{dtype}"
    if hasattr(value, "item"):
        return repr(value.item())
    if isinstance(value, tuple):
        return "(" + "".join(_const_text(v) + "," for v in value) + ")"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # A frozen dataclass instance: `Spot(idx=(1,2),val=5)` (a class of the kernel's file).
        fields = ",".join(f"{f.name}={_const_text(getattr(value, f.name))}" for f in dataclasses.fields(value))
        return f"{type(value).__name__}({fields})"
    raise TypeError(f"a Constant parameter takes a number, a bool, a string, None, an enum member, "
                    f"a dtype, a tuple or a frozen dataclass instance of them, got {value!r}")


def _dtype_name(value):
    """The cuda.tile name of a torch, NumPy or cuTile dtype object (or class), else None."""
    text = str(value)
    for prefix in ("torch.", "cuda.tile.", "ct."):
        if text.startswith(prefix) and text[len(prefix):] in _DTYPE_NAMES:
            return text[len(prefix):]
    name = getattr(value, "__name__", None) or getattr(value, "name", None)
    module = getattr(value, "__module__", "") or type(value).__module__ or ""
    if isinstance(name, str) and name in _DTYPE_NAMES and (module.startswith("numpy") or module.startswith("cuda")):
        return name
    return None


class TileKernel:
    """A ``ct.kernel``: launched with ``ct.launch(stream, grid, kernel, args)``."""

    def __init__(self, func, options):
        self._func = func
        self.__name__, self.__qualname__ = func.__name__, func.__qualname__
        self.__doc__, self.__wrapped__ = func.__doc__, func
        _check_hints(options, f"ct.kernel `{func.__name__}`")
        self.options = options
        self._params = list(inspect.signature(func).parameters)
        self._constant_positions = None
        self._constant_set = frozenset()  # the same positions, once _constants() ran
        self._int64_set = frozenset()     # parameters annotated ct.ScalarInt64
        self._elements = ()  # (position, path) of tuple parameters' ct.Constant elements
        self._static: dict = {}           # position -> ct.ArrayAnnotation (specialisation constants)
        self._instances: dict = {}   # (types, constant values) -> pykc.Kernel
        self._fast: dict = {}        # tile_arg_key -> (FastLauncher, block, shared bytes)
        self._last_stream = (None, 0)  # the last stream object seen and its handle
        self._bound_thread = None    # the thread whose CUDA context was made current
        self._lock = threading.Lock()

    def _constants(self) -> list:
        """Positions of the ``ct.Constant`` parameters (annotations written as strings
        are evaluated in the function's globals)."""
        if self._constant_positions is None:
            out, int64 = [], []
            ann = getattr(self._func, "__annotations__", {})
            for i, p in enumerate(self._params):
                a = ann.get(p)
                if isinstance(a, str):
                    try:
                        a = eval(a, self._func.__globals__)  # noqa: S307 (the user's own)
                    except Exception:  # noqa: BLE001
                        a = None
                if isinstance(a, _ConstantAnnotation) or a is Constant:
                    out.append(i)
                if a is ScalarInt64:
                    int64.append(i)
                self._elements += tuple((i, path) for path in _constant_elements(a))
                if (req := static_request(a)) is not None:
                    self._static[i] = req
            self._constant_positions, self._constant_set = out, frozenset(out)
            self._int64_set = frozenset(int64)
        return self._constant_positions

    def __call__(self, *args, **kwargs):
        raise TypeError(f"tile kernel `{self.__name__}` is launched with "
                        "ct.launch(stream, grid, kernel, args)")

    def replace_hints(self, **hints) -> "TileKernel":
        """This kernel with some options replaced (``num_ctas``, ``occupancy``,
        ``opt_level``, ``num_worker_warps``), as cuTile's ``replace_hints``: it shares this
        kernel's compiled instances, since pykc's code does not depend on them."""
        _check_hints(hints, f"replace_hints of `{self.__name__}`")
        other = object.__new__(TileKernel)
        other.__dict__.update(self.__dict__)
        other.options = {**self.options, **hints}
        return other

    def _compile(self, types, consts):
        if "<locals>" in self._func.__qualname__:
            # A kernel made inside a function: a module written from the values it sees.
            path = inspect.getsourcefile(self._func) or self._func.__code__.co_filename
            source = nested_tile_source(self._func)
        else:
            path, source = _source_of(self._func)
        arch = target_arch()
        name = self.__name__
        limit, began = getattr(_timeout, "seconds", None), time.perf_counter()
        try:
            compiled = compiler().compile(
                path, source, kernel=name, sigs=[f"{name}({', '.join(types)})"],
                consts=[f"{n}={v}" for n, v in consts], archs=[arch])
        except CompileError as e:
            raise tile_error(e) from None
        took = time.perf_counter() - began
        if limit is not None and took > limit:
            raise TileCompilerTimeoutError(
                f"pykc: error: compiling tile kernel `{name}` took {took:.1f} s, over the "
                f"{limit:g} s of ct.compiler_timeout")
        return compiled, arch, path

    def _kernel_for(self, types, consts):
        key = (types, consts)
        k = self._instances.get(key)
        if k is None:
            with self._lock:
                k = self._instances.get(key)
                if k is None:
                    compiled, arch, path = self._compile(types, consts)
                    manifest = parse_manifest(compiled.manifest, path, None)
                    rt = _runtime.runtime()
                    target = next(t for t in manifest.targets if t.arch == arch)
                    module = Module(manifest, rt.backend, rt.sync_launches,
                                    image=(target, "cubin", compiled.cubins[arch]))
                    k = self._instances[key] = module[self.__name__]
        return k

    def _launch(self, stream, grid, args):
        if type(args) is not tuple:
            args = tuple(args)
        grid = (grid,) if type(grid) is int else tuple(grid)
        if self._fast:
            if type(stream) is int:
                h = stream
            elif stream is self._last_stream[0]:  # held here, so not another object
                h = self._last_stream[1]
            else:
                h = stream_handle(stream)
                self._last_stream = (stream, h)
            key, values = tile_arg_key(args, self._constant_set, h)
            fast = self._fast.get(key)
            if fast is not None and 1 <= len(grid) <= 3:
                if self._bound_thread != threading.get_ident():
                    _runtime.runtime()
                    self._bound_thread = threading.get_ident()
                fl, block, shared = fast
                return fl.launch(grid + (1,) * (3 - len(grid)), block, shared, h, values)
        return self._launch_checked(stream, grid, args)

    def _launch_checked(self, stream, grid, args):
        """Type the arguments, compile if new, launch through pykc's loader; then make the
        fast path for these argument types."""
        # cuTile takes lists (of tensors) where a tuple goes: pykc passes them as tuples.
        args = tuple(tuple(a) if type(a) is list else a for a in args)
        if len(args) != len(self._params):
            raise TypeError(f"tile kernel `{self.__name__}` takes {len(self._params)} "
                            f"arguments ({', '.join(self._params)}), {len(args)} given")
        _runtime.runtime()
        h = stream_handle(stream)
        self._constants()
        types, consts = [], []
        for i, (p, a) in enumerate(zip(self._params, args)):
            try:
                if i in self._constant_set:
                    consts.append((p, _const_text(a)))
                elif i in self._static:
                    types.append(static_arg_text(describe(a, h), self._static[i]))
                else:
                    types.append(_arg_text(describe(a, h), i in self._int64_set))
            except TypeError as e:
                raise TypeError(f"tile kernel `{self.__name__}`, parameter `{p}`: {e}") from None
        for i, path in self._elements:
            value = args[i]
            for k in path:
                if not isinstance(value, tuple) or k >= len(value):
                    raise TypeError(f"tile kernel `{self.__name__}`, parameter `{self._params[i]}`: its "
                                    f"annotation makes element {list(path)} a ct.Constant, but the "
                                    f"argument {args[i]!r} has no such element")
                value = value[k]
            name = self._params[i] + "".join(f"[{k}]" for k in path)
            try:
                consts.append((name, _const_text(value)))
            except TypeError as e:
                raise TypeError(f"tile kernel `{self.__name__}`, parameter `{name}`: {e}") from None
        kernel = self._kernel_for(tuple(types), tuple(consts))
        result = kernel.launch_tile(stream, grid, args)
        self._make_fast(kernel, args, h)
        return result

    def _make_fast(self, kernel, args, h):
        """After a checked launch: the FastLauncher for these argument types."""
        key, _ = tile_arg_key(args, self._constant_set, h)
        # Specialisation constants and constant elements of tuple arguments are no part of
        # the fast path's key: checked launches only.
        if self._static or self._elements:
            return
        if key is None or key in self._fast or kernel.module.sync or len(self._fast) >= 64:
            return
        entries = [e for e in kernel.entries if e.tile]
        if len(entries) != 1 or not supports_tile(entries[0]):
            return
        entry, arch = entries[0], kernel.module.target.arch
        fn = kernel.function(entry)
        handle = getattr(fn, "handle", None)
        if handle is None:
            return  # the CuPy backend: its launches stay on the checked path
        block = tuple(entry.tile["block"]) + (1,) * (3 - len(entry.tile["block"]))
        limit = entry.max_threads_per_block(arch) or 1024
        fl = FastLauncher(int(handle), entry, limit, self.__name__)
        self._fast[key] = (fl, block, entry.dynamic_shared_bytes(arch))

    def __repr__(self):
        return f"<pykc.tile kernel {self.__qualname__}>"


def _constant_elements(annotation, path=()):
    """The paths of the ct.Constant elements of a `tuple[...]` annotation (nested too):
    `tuple[ct.Constant[int], int]` gives [(0,)]."""
    if getattr(annotation, "__origin__", None) is not tuple:
        return []
    out = []
    for i, e in enumerate(getattr(annotation, "__args__", ())):
        if isinstance(e, _ConstantAnnotation) or e is Constant:
            out.append(path + (i,))
        else:
            out += _constant_elements(e, path + (i,))
    return out


def kernel(func=None, **options):
    """``@ct.kernel`` and ``@ct.kernel(num_ctas=..., occupancy=..., opt_level=...)``."""
    if func is None:
        return lambda f: TileKernel(f, options)
    return TileKernel(func, options)


def launch(stream, grid, kernel, args):
    """cuTile's ``ct.launch(stream, grid, kernel, args)``: ``args`` holds every parameter,
    Constant ones included."""
    if not isinstance(kernel, TileKernel):
        from .. import launch as aot_launch
        return aot_launch(stream, grid, kernel, args)
    return kernel._launch(stream, grid, args)


from . import tune  # noqa: E402  (``ct.tune.exhaustive_search``)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return KernelOnly(f"tile.{name}")
