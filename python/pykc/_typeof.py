"""numba's typing of run-time kernel arguments (``numba.typeof``), as pykc signature text.

The JIT (issue 19) types a lazily compiled kernel from the arguments of its first call:
each argument becomes the type numba's ``typeof`` gives it, written as pykc's ``--sig``
syntax takes it (sema/signature.h), and the kernel is compiled for that signature.

    typeof(np.zeros(4, np.float32))      -> "float32[::1]"
    typeof(np.zeros((4, 4)).T)           -> "float64[::1, :]"
    typeof(3), typeof(2.5), typeof(True) -> "int64", "float64", "boolean"
    typeof((1, 2)), typeof((1, 2.0))     -> "UniTuple(int64, 2)", "Tuple(int64, float64)"

Arrays come from NumPy, ``__cuda_array_interface__`` (CuPy, numba device arrays,
PyTorch on the GPU) or DLPack, through the loader's ``describe`` (no CUDA calls). The
layout follows numba: C when C-contiguous (extent-1 dimensions ignored, empty arrays
contiguous), else F when F-contiguous, else A.
"""

from __future__ import annotations

import numpy as np

from ._args import ArgumentError, ArrayArg, ScalarArg, TupleArg, abi_layout, array_facts, describe
from ._manifest import dims_text, facts_text, special_dtype_name

__all__ = ["typeof", "signature_for", "layout_of"]

# numba's names of NumPy dtypes (numba.np.numpy_support.from_dtype).
_DTYPE_NAMES = {
    "bool": "boolean",
    "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
    "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
    "float16": "float16", "float32": "float32", "float64": "float64",
    "complex64": "complex64", "complex128": "complex128",
}


def _contiguous(shape, strides, order, itemsize: int = 1) -> bool:
    """NumPy's flag rule: the strides of the non-trivial dimensions (in elements, or in
    bytes given the ``itemsize``) are those of a dense array in ``order``; arrays with an
    empty dimension are contiguous."""
    if any(int(s) == 0 for s in shape):
        return True
    dims = range(len(shape) - 1, -1, -1) if order == "C" else range(len(shape))
    expected = itemsize
    for d in dims:
        if shape[d] == 1:
            continue
        if strides[d] != expected:
            return False
        expected *= shape[d]
    return True


def layout_of(shape, strides) -> str:
    """numba's layout letter of an array with these extents and element strides."""
    if _contiguous(shape, strides, "C"):
        return "C"
    if _contiguous(shape, strides, "F"):
        return "F"
    return "A"


def _record_text(dt: np.dtype, what: str) -> str:
    """numba's name of a structured dtype of scalar and nested-array fields:
    ``Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True)``,
    ``Record(p[type=nestedarray(int32, (20,));offset=0];80;False)``."""
    fields = []
    for name in dt.names:
        fdt, offset = dt.fields[name][:2]
        nested = fdt.subdtype is not None and fdt.subdtype[0].fields is None \
            and fdt.subdtype[0].subdtype is None
        if fdt.fields is not None or (fdt.subdtype is not None and not nested):
            raise ArgumentError(f"{what}: record field `{name}` is {fdt}; pykc takes records "
                                "of scalar and nested-array fields only")
        if nested:
            base, shape = fdt.subdtype
            text = f"nestedarray({_dtype_text(base, what)}, {tuple(int(n) for n in shape)})"
        else:
            text = _dtype_text(fdt, what)
        fields.append(f"{name}[type={text};offset={offset}]")
    return f"Record({','.join(fields)};{dt.itemsize};{dt.isalignedstruct})"


def _dtype_text(dt: np.dtype, what: str) -> str:
    if dt.fields is not None:
        return _record_text(dt, what)
    name = special_dtype_name(dt) or _DTYPE_NAMES.get(dt.name)
    if name is None:
        raise ArgumentError(f"{what}: dtype {dt} has no numba.cuda type")
    return name


def _array_text(a: ArrayArg, layout: str | None = None) -> str:
    """numba's type of an array argument; ``layout``: the one to write (default: numba's
    contiguity, ``layout_of``)."""
    what = a.describe()
    element = _dtype_text(a.dtype, what)
    if len(a.shape) == 0:  # a 0-d array (`np.zeros(())`, `torch.ones(())`): pykc spells it `int32[()]`
        return element + "[()]"
    return element + dims_text(len(a.shape), layout or layout_of(a.shape, a.strides))


def _facts_text(aligned: bool, sdiv: tuple, hdiv: tuple, layout: str) -> str:
    """``.assume(...)`` for an array's facts (``_args.array_facts``) as the compiler
    prints them (nothing the layout says, nothing that says nothing), or ""."""
    sdiv = list(sdiv)
    if sdiv and layout == "C":
        sdiv[-1] = 1
    elif sdiv and layout == "F":
        sdiv[0] = 1
    return facts_text(16 if aligned else 0, tuple(sdiv) if any(x > 1 for x in sdiv) else (),
                      hdiv if any(x > 1 for x in hdiv) else ())


def tile_array_text(a: ArrayArg) -> str:
    """A tile kernel's array argument: its type and the facts cuTile specialises on. Its
    layout is the ABI's promise alone (C: the last stride is 1, F: the first), not numba's
    contiguity: a row-padded matrix is `[:, ::1]`, and its loads know the unit stride."""
    if len(a.shape) == 0:
        return _array_text(a)
    layout = abi_layout(a.shape, a.strides)
    aligned, sdiv, hdiv = array_facts(a.ptr, a.shape, a.strides, a.dtype.itemsize)
    return _array_text(a, layout) + _facts_text(aligned, sdiv, hdiv, layout)


def _text(d) -> str:
    if isinstance(d, ArrayArg):
        return _array_text(d)
    if isinstance(d, TupleArg):
        items = [_text(i) for i in d.items]
        if items and all(i == items[0] for i in items):
            return f"UniTuple({items[0]}, {len(items)})"
        return f"Tuple({', '.join(items)})"
    assert isinstance(d, ScalarArg)
    if d.dtype is not None:  # a NumPy scalar
        return _dtype_text(d.dtype, d.describe())
    # Python scalars as numba types them: int -> int64 (uint64 past int64's range),
    # float -> float64, complex -> complex128, bool -> boolean.
    if d.pytype is bool:
        return "boolean"
    if d.pytype is int:
        if -(1 << 63) <= d.value < (1 << 63):
            return "int64"
        if 0 <= d.value < (1 << 64):
            return "uint64"
        raise ArgumentError(f"Python int {d.value} does not fit in 64 bits")
    if d.pytype is float:
        return "float64"
    return "complex128"


def typeof(value) -> str:
    """numba's type of one kernel argument, as pykc signature text; ArgumentError (a
    TypeError) when it has none."""
    return _text(describe(value))


def check_argument_count(kernel: str, params, args, required=None):
    """A TypeError naming the kernel and its parameters when ``args`` is not one value
    per parameter; with ``required``, the parameters after the first ``required`` have
    defaults and may be left out (numba's omitted arguments, compiled in by pykc)."""
    params = list(params)
    required = len(params) if required is None else required
    if not required <= len(args) <= len(params):
        count = f"{required} to {len(params)}" if required < len(params) else f"{len(params)}"
        raise TypeError(f"kernel `{kernel}` takes {count} argument"
                        f"{'' if len(params) == 1 else 's'} ({', '.join(params)}), "
                        f"{len(args)} given")


def per_parameter(kernel: str, params, values, fn) -> list:
    """``[fn(v) for v in values]``, a TypeError from ``fn`` named by the kernel and the
    parameter it was given for."""
    out = []
    for name, value in zip(params, values):
        try:
            out.append(fn(value))
        except TypeError as e:
            raise TypeError(f"kernel `{kernel}`, parameter `{name}`: {e}") from None
    return out


def signature_for(kernel: str, params, args) -> str:
    """``kernel(t1, t2, ...)`` for a call with ``args`` (pykc's ``--sig`` form). A wrong
    number of arguments, or one that cannot be typed, raises a TypeError naming the
    kernel and the parameter."""
    check_argument_count(kernel, params, args)
    return f"{kernel}({', '.join(per_parameter(kernel, params, args, typeof))})"
