"""cuTile's specialisation constants on the host: ``ct.ArrayAnnotation(static_shape_dims=,
static_stride_dims=)`` (and ``ct.ListAnnotation(element=...)`` for a list of arrays) ask
that the named extents (strides) of an array argument be compile-time constants. The
launch writes them into the argument's type as ``.assume(shape_constant=(16, None),
stride_constant=(10, None))``; each new value compiles a new instance."""
from __future__ import annotations

import typing

from .._args import ArrayArg, TupleArg, abi_layout, array_facts
from .._typeof import _array_text, _dtype_text
from .._manifest import facts_text


def _axes(value, what: str) -> tuple:
    value = tuple(value)
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{what} entries must be int, got {v!r}")
    return value


class ArrayAnnotation:
    """``ct.ArrayAnnotation(static_shape_dims=(0, 1), static_stride_dims=(0,))``."""

    def __init__(self, *, static_shape_dims=(), static_stride_dims=()):
        self.static_shape_dims = _axes(static_shape_dims, "static_shape_dims")
        self.static_stride_dims = _axes(static_stride_dims, "static_stride_dims")

    def __repr__(self):
        return (f"ct.ArrayAnnotation(static_shape_dims={self.static_shape_dims}, "
                f"static_stride_dims={self.static_stride_dims})")


class ListAnnotation:
    """``ct.ListAnnotation(element=...)``: what each array of a list argument is."""

    def __init__(self, element=None):
        self.element = element

    def __repr__(self):
        return f"ct.ListAnnotation(element={self.element!r})"


def static_request(annotation):
    """The ArrayAnnotation an annotation carries (``Annotated[ct.Array, ArrayAnnotation(...)]``
    or ``Annotated[list, ListAnnotation(element=ArrayAnnotation(...))]``), or None."""
    metas = typing.get_args(annotation)[1:] if typing.get_origin(annotation) is typing.Annotated else ()
    for m in metas:
        if isinstance(m, ListAnnotation):
            m = m.element
        if isinstance(m, ArrayAnnotation) and (m.static_shape_dims or m.static_stride_dims):
            return m
    return None


def _dims(axes: tuple, ndim: int, what: str) -> set:
    seen = set()
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(f"{what} contains axis {a}, out of range for an array of {ndim} dimensions")
        a = a % ndim if ndim else a
        if a in seen:
            raise ValueError(f"{what} contains duplicate axis {a}")
        seen.add(a)
    return seen


def _constants(a: ArrayArg, req: ArrayAnnotation) -> tuple:
    ndim = len(a.shape)
    shape_dims = _dims(req.static_shape_dims, ndim, "static_shape_dims")
    stride_dims = _dims(req.static_stride_dims, ndim, "static_stride_dims")
    shape = tuple(int(n) if d in shape_dims else None for d, n in enumerate(a.shape))
    strides = tuple(int(s) if d in stride_dims else None for d, s in enumerate(a.strides))
    return (shape if shape_dims else ()), (strides if stride_dims else ())


def _text(a: ArrayArg, shape: tuple, strides: tuple, facts: bool) -> str:
    layout = abi_layout(a.shape, a.strides)
    aligned, sdiv, hdiv = array_facts(a.ptr, a.shape, a.strides, a.dtype.itemsize) if facts else (False, (), ())
    sdiv = list(sdiv)
    unit = len(a.shape) - 1 if layout == "C" else 0 if layout == "F" else None
    if sdiv and unit is not None:
        sdiv[unit] = 1
    # The layout's unit stride is no constant to write (the compiler knows it).
    if strides and unit is not None:
        strides = tuple(None if d == unit else s for d, s in enumerate(strides))
        if all(s is None for s in strides):
            strides = ()
    return _array_text(a, layout) + facts_text(
        16 if aligned else 0, tuple(sdiv) if any(x > 1 for x in sdiv) else (),
        hdiv if any(x > 1 for x in hdiv) else (), shape, strides)


def static_arg_text(d, req: ArrayAnnotation) -> str:
    """The type of an argument annotated with ``req``: an array with its constants, or a
    list (tuple) of arrays that must agree on them."""
    if isinstance(d, ArrayArg):
        if len(d.shape) == 0:
            return _dtype_text(d.dtype, d.describe()) + "[()]"
        return _text(d, *_constants(d, req), facts=True)
    if isinstance(d, TupleArg) and d.items and all(isinstance(i, ArrayArg) for i in d.items):
        first = _constants(d.items[0], req)
        for item in d.items[1:]:
            mine = _constants(item, req)
            for what, want, got in (("shape", first[0], mine[0]), ("stride", first[1], mine[1])):
                for axis, (w, g) in enumerate(zip(want, got)):
                    if w != g:
                        raise ValueError(f"the arrays of the list vary in static {what} at axis {axis} "
                                         f"({w} and {g})")
        items = [_text(i, *first, facts=False) for i in d.items]
        if all(i == items[0] for i in items):
            return f"UniTuple({items[0]}, {len(items)})"
        return f"Tuple({', '.join(items)})"
    raise TypeError(f"{d.describe()}: a ct.ArrayAnnotation asks for an array or a list of arrays")
