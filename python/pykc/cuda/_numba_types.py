"""numba's own type objects (an installed numba's ``numba.types``, which a program run
under ``python -m pykc run`` gets once it uses numba outside CUDA) as pykc's signature
text, so that ``cuda.jit(void(float32[::1]))`` takes them as it takes pykc.types'."""

from __future__ import annotations

from .._manifest import dims_text

__all__ = ["is_numba_object", "numba_type_text", "numba_signature_text"]

_SCALAR_NAMES = {"bool": "boolean"}


def is_numba_object(obj) -> bool:
    """A type or signature object of the real numba."""
    return type(obj).__module__.startswith(("numba.core.types", "numba.core.typing"))


def numba_type_text(t) -> str:
    """pykc's spelling of one numba type (``array(float32, 2d, C)`` -> ``float32[:, ::1]``)."""
    kind = type(t).__name__
    if kind == "Array":
        return numba_type_text(t.dtype) + dims_text(t.ndim, t.layout)
    if kind == "UniTuple":
        return f"UniTuple({numba_type_text(t.dtype)}, {t.count})"
    if kind == "Tuple":
        return f"Tuple({', '.join(numba_type_text(e) for e in t.types)})"
    if kind == "CPointer":
        return f"CPointer({numba_type_text(t.dtype)})"
    if kind == "RawPointer":
        return "voidptr"
    if kind == "NoneType":
        return "void"
    text = str(t)  # scalars and Record(...) are spelt alike
    return _SCALAR_NAMES.get(text, text)


def numba_signature_text(sig) -> str:
    """``void(float32[::1], int64)`` for a numba Signature (``void(...)`` called on types)."""
    args = ", ".join(numba_type_text(a) for a in sig.args)
    if sig.return_type is None:
        return f"({args})"
    return f"{numba_type_text(sig.return_type)}({args})"
