"""The module the compiler reads for a tile kernel defined inside a function (a kernel made
in a test function, a factory, a closure): as for numba kernels (``pykc.cuda._jitsource``),
a header binds every name the kernel and its helpers read to the value it has now, then
each function's own lines follow, dedented, at their line numbers in the user's file, so
that diagnostics name the user's file and line.

What a name can be bound to: modules (``ct``, ``math``, ``torch``), numbers, bools and
tuples of them, NumPy scalars, cuTile dtypes and ``ct.Constant[...]`` annotations, Python's
``int``/``float``/``bool``, PyTorch dtypes, names only kernels use (``ct.load`` imported
under another name), plain Python functions (tile helpers, written from their source) and
other tile kernels. Anything else is left unbound: the compiler then reports the name at its
use, as it would in a file.
"""

from __future__ import annotations

import ast
import builtins
import enum
import types as pytypes

from ..cuda._jitsource import _function_lines, _same, lookup, referenced_names, value_text

__all__ = ["nested_tile_source"]

_TILE = "__pykc_tile"   # the name the written module binds pykc.tile to
_PY_TYPES = {int: "int", float: "float", bool: "bool"}


def _annotation_roots(func) -> list:
    """(name, value) for the parameter annotations of ``func`` written as a plain name
    (``TILE: ConstInt``), with the value the annotation had at the ``def``; and the root
    names of dotted or subscripted ones (``ct`` of ``ct.Constant[int]``)."""
    try:
        _, lines = _function_lines(func)
        tree = ast.parse("\n".join(lines))
    except (OSError, SyntaxError, StopIteration):
        return []
    defs = (ast.FunctionDef, ast.AsyncFunctionDef)
    fn = next((n for n in tree.body if isinstance(n, defs)), None)
    if fn is None:
        return []
    given = getattr(func, "__annotations__", {})
    out = []
    args = fn.args
    for a in (*args.posonlyargs, *args.args, *args.kwonlyargs):
        ann = a.annotation
        if ann is None:
            continue
        if isinstance(ann, ast.Name) and a.arg in given and not isinstance(given[a.arg], str):
            out.append((ann.id, True, given[a.arg]))
            continue
        for node in ast.walk(ann):
            if isinstance(node, ast.Name):
                out.append((node.id, False, None))
    return out


class _TileWriter:
    def __init__(self):
        self.header = [f"import pykc.tile as {_TILE}", "import numpy as __pykc_np"]
        self.blocks = []          # (first line, lines)
        self.bound: dict = {}     # name -> (the function that reads it, its value)
        self.functions: set = set()
        self.aliases: list = []
        self._torch = False
        self._enum = False

    def bind(self, name, value, owner):
        if hasattr(builtins, name) and not _shadowed(owner, name):
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
        line = self._binding(name, value, owner)
        if line is not None:
            self.header.append(line)

    def _binding(self, name, value, owner):
        from . import TileKernel, _ConstantAnnotation, _DType, _Hint, Constant
        from ..cuda._host import KernelOnly
        if isinstance(value, pytypes.ModuleType):
            mod = value.__name__
            return f"import {mod} as {name}" if "." in mod or mod != name else f"import {mod}"
        if isinstance(value, TileKernel):
            self.function(value._func, decorated=True)
            return self._alias(name, value._func)
        if isinstance(value, pytypes.FunctionType):
            self.function(value, decorated=False)
            return self._alias(name, value)
        if isinstance(value, KernelOnly):
            parent, _, leaf = ("cuda." + value._name).rpartition(".")
            return f"from {parent} import {leaf} as {name}"
        if isinstance(value, _DType):
            return f"{name} = {_TILE}.{value.name}"
        if isinstance(value, _Hint):
            return f"{name} = {_TILE}.{value.name}"
        if value is Constant:
            return f"{name} = {_TILE}.Constant"
        if isinstance(value, _ConstantAnnotation):
            kind = _PY_TYPES.get(value.kind)
            return f"{name} = {_TILE}.Constant[{kind}]" if kind else None
        if isinstance(value, type) and value in _PY_TYPES:
            return f"{name} = {_PY_TYPES[value]}"
        if type(value).__module__ == "torch" and type(value).__name__ == "dtype":
            if not self._torch:
                self._torch = True
                self.header.insert(2, "import torch as __pykc_torch")
            return f"{name} = __pykc_torch.{str(value).rpartition('.')[2]}"
        if isinstance(value, type) and issubclass(value, enum.Enum):
            return self._enum_class(name, value)
        if isinstance(value, enum.Enum):
            # A member: its class written under the class's own name, then the member.
            cls = type(value)
            self.bind(cls.__name__, cls, owner)
            if self.bound.get(cls.__name__, (None, None))[1] is not cls:
                return None
            return f"{name} = {cls.__name__}.{value.name}"
        if value is None or isinstance(value, str):
            return f"{name} = {value!r}"
        text = value_text(value, "__pykc_np.")
        return None if text is None else f"{name} = {text}"

    def _enum_class(self, name, cls):
        """An Enum/IntEnum class whose members are numbers, strings or tuples of them, written
        on one line (the header keeps the user's line numbers below it) as a class of the
        module, whose members the compiler reads as constants; else None."""
        base = "IntEnum" if issubclass(cls, enum.IntEnum) else "Enum"
        members = []
        for member_name, member in cls.__members__.items():
            v = member.value
            text = repr(v) if isinstance(v, str) else value_text(v, "__pykc_np.")
            if text is None:
                return None
            members.append(f"{member_name} = {text}")
        if not self._enum:
            self._enum = True
            self.header.insert(2, "import enum as __pykc_enum")
        return f"class {name}(__pykc_enum.{base}): " + ("; ".join(members) or "pass")

    def _alias(self, name, func):
        if func.__name__ != name:
            self.aliases.append(f"{name} = {func.__name__}")
        return None

    def function(self, func, decorated: bool):
        if func.__name__ in self.functions:
            return
        self.functions.add(func.__name__)
        first, lines = _function_lines(func)
        self.blocks.append((first, ([f"@{_TILE}.kernel"] if decorated else []) + lines,
                            decorated))
        for name, has_value, value in _annotation_roots(func):
            if has_value:
                self.bind(name, value, func)
            else:
                found, v = lookup(func, name)
                if found:
                    self.bind(name, v, func)
        for n in referenced_names(func):
            found, v = lookup(func, n)
            if found:
                self.bind(n, v, func)

    def text(self) -> str:
        out = list(self.header)
        for first, lines, decorated in sorted(self.blocks, key=lambda b: b[0]):
            # `first` is the def's line; a kernel's decorator goes on the line before it.
            want = first - 1 if decorated else first
            if len(out) + 1 < want:
                out += [""] * (want - 1 - len(out))
            else:
                out.append("")
            out += lines
        out += self.aliases
        return "\n".join(out) + "\n"


def _shadowed(func, name) -> bool:
    found, _ = lookup(func, name)
    return found


def nested_tile_source(func) -> str:
    """The module the compiler reads for tile kernel ``func`` defined inside a function."""
    w = _TileWriter()
    w.function(func, decorated=True)
    return w.text()
