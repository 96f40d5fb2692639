"""What the JIT hands the compiler for one kernel: a source, a path to name it by, and the
values only run time knows.

A kernel defined at the top level of its file is compiled from that file, unchanged, as
the CLI compiles it (so that ``pykc cache populate`` fills the entries the JIT asks for).
Module globals the compiler cannot evaluate from the source (computed at run time) are
passed as ``-D NAME=VALUE`` with the value they have at the first compile, as numba
freezes them (``defines_for``).

A kernel defined inside a function (a closure, a kernel made in a test method, a factory)
is compiled from a module written here (``nested_source``): a header that binds every
name its code reads to the value it has now (modules as imports, numbers, NumPy scalars
and arrays, strings, tuples, numba types, device functions and kernels by their own
source), then the function's own lines, dedented and placed at their line numbers in the
file, so diagnostics name the user's file and line.
"""

from __future__ import annotations

import builtins
import inspect
import textwrap
import types as pytypes

import numpy as np

__all__ = ["referenced_names", "value_text", "defines_for", "nested_source", "is_nested"]

_JIT = "__pykc_cuda"   # the name the written module binds pykc.cuda to


def is_nested(func) -> bool:
    return "<locals>" in func.__qualname__


def _codes(code):
    yield code
    for c in code.co_consts:
        if isinstance(c, pytypes.CodeType):
            yield from _codes(c)


def referenced_names(func) -> list:
    """The global and free names ``func``'s code (and the code nested in it) reads."""
    seen, out = set(), []
    for code in _codes(func.__code__):
        for n in (*code.co_freevars, *code.co_names):
            if n not in seen:
                seen.add(n)
                out.append(n)
    return out


def lookup(func, name):
    """(found, value) of ``name`` as ``func`` sees it: its closure, then its globals."""
    code = func.__code__
    if name in code.co_freevars and func.__closure__:
        cell = func.__closure__[code.co_freevars.index(name)]
        try:
            return True, cell.cell_contents
        except ValueError:  # an empty cell (assigned after the def)
            return False, None
    g = func.__globals__
    if name in g:
        return True, g[name]
    return False, None


_NP_SCALARS = {"bool": "bool_", "int8": "int8", "int16": "int16", "int32": "int32",
               "int64": "int64", "uint8": "uint8", "uint16": "uint16", "uint32": "uint32",
               "uint64": "uint64", "float32": "float32", "float64": "float64"}


def value_text(value, np_prefix: str = ""):
    """A Python expression for a constant value (numbers, bools, NumPy scalars, tuples of
    them), or None. NumPy scalars are written ``float32(0.5)`` (``np_prefix`` before the
    type name), which the compiler types as numba does."""
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value) if -(1 << 63) <= value < (1 << 64) else None
    if isinstance(value, float):
        return repr(value) if np.isfinite(value) else f"float({str(value)!r})"
    if isinstance(value, np.generic):
        name = _NP_SCALARS.get(value.dtype.name)
        if name is None:
            return None
        v = value.item()
        inner = repr(v) if not isinstance(v, float) or np.isfinite(v) else None
        return f"{np_prefix}{name}({inner})" if inner is not None else None
    if isinstance(value, tuple):
        items = [value_text(v, np_prefix) for v in value]
        if any(i is None for i in items):
            return None
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    return None


def defines_for(func, names) -> list:
    """``NAME=VALUE`` for each of ``names`` whose current value ``func`` sees is a
    constant (value_text)."""
    out = []
    for n in names:
        found, v = lookup(func, n)
        if found:
            text = value_text(v)
            if text is not None:
                out.append(f"{n}={text}")
    return out


def _function_lines(func):
    """(first line number, dedented lines) of ``func``'s ``def`` without its decorators."""
    lines, first = inspect.getsourcelines(func)
    text = textwrap.dedent("".join(lines))
    out = text.splitlines()
    k = next(i for i, ln in enumerate(out) if ln.lstrip().startswith(("def ", "async def ")))
    return first + k, out[k:]


def _decorator(obj) -> str:
    """``@__pykc_cuda.jit(...)`` for a Dispatcher or DeviceFunction with the options the
    compiler reads (a kernel's signatures travel with the compile request)."""
    opts = obj.targetoptions
    args = ["device=True"] if opts.get("device") else []
    for key in ("fastmath", "lineinfo", "debug", "forceinline"):
        if opts.get(key):
            args.append(f"{key}=True")
    if opts.get("opt") is False:
        args.append("opt=False")
    if opts.get("max_registers"):
        args.append(f"max_registers={int(opts['max_registers'])}")
    if opts.get("inline") == "always":
        args.append("inline='always'")
    return f"@{_JIT}.jit({', '.join(args)})" if args else f"@{_JIT}.jit"


class _Writer:
    """Collects the header and the function blocks of a written module."""

    def __init__(self):
        self.header = [f"import pykc.cuda as {_JIT}", "import numpy as __pykc_np"]
        self.blocks = []          # (first line, lines) of function definitions
        self.bound: dict = {}     # name -> (the function that reads it, its value)
        self.functions: set = set()
        self.unbound: list = []
        self.aliases: list = []

    def bind(self, name, value, owner):
        if hasattr(builtins, name) and not _is_shadowed(owner, name):
            return
        if name in self.bound:
            first_owner, first = self.bound[name]
            if first is not value and not _same(first, value):
                from .._compiler import CompileError
                raise CompileError(
                    f"pykc: error: `{name}` means one thing in `{first_owner.__qualname__}` "
                    f"and another in `{owner.__qualname__}`: pykc compiles a kernel and "
                    "the functions it calls as one module, where each name has one value; "
                    "rename one of them")
            return
        self.bound[name] = (owner, value)
        from ._dispatcher import DeviceFunction, Dispatcher
        from .. import types as nbtypes
        from ._host import KernelOnly
        if isinstance(value, KernelOnly):
            # A name only kernels use (`cuda.grid`, `xoroshiro128p_uniform_float32`, ...).
            parent, _, leaf = ("cuda." + value._name).rpartition(".")
            self.header.append(f"from numba.{parent} import {leaf} as {name}")
        elif isinstance(value, pytypes.ModuleType):
            mod = value.__name__
            self.header.append(f"import {mod} as {name}" if "." in mod or mod != name
                               else f"import {mod}")
        elif isinstance(value, (Dispatcher, DeviceFunction)):
            self.function(value)
            if value.py_func.__name__ != name:
                # After the definitions: the alias names a function defined below.
                self.aliases.append(f"{name} = {value.py_func.__name__}")
        elif isinstance(value, nbtypes.Type) and not isinstance(
                value, (nbtypes.Array, nbtypes.UniTuple, nbtypes.Tuple)) and value.name != "void":
            self.header.append(f"from numba.types import {value.name} as {name}")
        elif isinstance(value, str):
            self.header.append(f"{name} = {value!r}")
        elif isinstance(value, nbtypes.Signature):
            self.header.append(f"{name} = {str(value)!r}")
        elif isinstance(value, np.ndarray) and value.dtype.name in _NP_SCALARS and \
                value.ndim >= 1 and value.size <= 1 << 16:
            self.header.append(f"{name} = __pykc_np.array({value.tolist()!r}, "
                               f"dtype=__pykc_np.{value.dtype.name})")
        else:
            text = value_text(value, "__pykc_np.")
            if text is not None:
                self.header.append(f"{name} = {text}")
            elif hasattr(value, "__cuda_array_interface__"):
                from .._compiler import CompileError
                raise CompileError(
                    f"pykc: error: kernel `{owner.__name__}` reads `{name}`, a device array "
                    "captured from its scope: pykc does not capture device arrays by "
                    "pointer yet; pass it to the kernel as an argument")
            else:
                self.unbound.append(name)

    def function(self, obj):
        func = obj.py_func
        if func.__name__ in self.functions:
            return
        self.functions.add(func.__name__)
        first, lines = _function_lines(func)
        self.blocks.append((first, [_decorator(obj)] + lines))
        for n in referenced_names(func):
            found, v = lookup(func, n)
            if found:
                self.bind(n, v, func)

    def text(self) -> str:
        """The module: the header, then each function at its line in the user's file
        where the lines before it leave room, else after the previous one."""
        out = list(self.header)
        for first, lines in sorted(self.blocks, key=lambda b: b[0]):
            # `first` is the def's line; its decorator goes on the line before it.
            want = first - 1
            if len(out) + 1 < want:
                out += [""] * (want - 1 - len(out))
            else:
                out.append("")
            out += lines
        out += self.aliases
        return "\n".join(out) + "\n"


def _same(a, b) -> bool:
    try:
        if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and \
                a.dtype == b.dtype and np.array_equal(a, b)
        return type(a) is type(b) and bool(a == b)
    except Exception:  # noqa: BLE001
        return False


def _is_shadowed(func, name) -> bool:
    found, _ = lookup(func, name)
    return found


def nested_source(dispatcher) -> str:
    """The module the compiler reads for a kernel (or device function) defined inside a
    function."""
    w = _Writer()
    w.function(dispatcher)
    return w.text()
