"""numba's type objects on the host, as ``numba.types`` spells them, for signatures given
to ``cuda.jit`` from Python (``cuda.jit(void(float32[::1], int32))(f)``).

    from pykc.types import float32, int32, void
    str(void(float32[::1], int32))   -> "void(float32[::1], int32)"
    str(float32[:, ::1])             -> "float32[:, ::1]"

The text is pykc's signature syntax (sema/signature.h), which the compiler parses; kernel
code that names these types is compiled from its source and never calls this module.
"""

from __future__ import annotations

import numpy as np

__all__ = ["Type", "Array", "Signature", "UniTuple", "Tuple", "CPointer", "voidptr", "void", "none", "boolean",
           "b1", "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
           "uint64", "intp", "uintp", "intc", "uintc", "int_", "float16", "float32",
           "float64", "float_", "double", "complex64", "complex128", "i1", "i2", "i4", "i8",
           "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16", "byte", "char", "uchar",
           "short", "ushort", "long_", "ulong", "longlong", "ulonglong", "half"]


class Type:
    """A numba type: a scalar, or (through subclasses) an array, tuple or signature."""

    def __init__(self, name: str, dtype=None):
        self.name, self._dtype = name, dtype

    def __str__(self):
        return self.name

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, Type) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    @property
    def dtype(self):
        return self._dtype

    def __getitem__(self, index) -> "Array":
        """``float32[:]``, ``float32[::1]``, ``float32[:, ::1]``, ``float32[::1, :]``."""
        dims = index if isinstance(index, tuple) else (index,)
        if not all(isinstance(d, slice) for d in dims):
            raise TypeError(f"an array type is written with slices, as {self.name}[:] or "
                            f"{self.name}[::1], got {index!r}")
        steps = [d.step for d in dims]
        if any(s not in (None, 1) for s in steps) or any(d.start is not None or
                                                         d.stop is not None for d in dims):
            raise TypeError(f"{self.name}[{index!r}]: only ':' and '::1' are allowed")
        ndim = len(dims)
        if steps[-1] == 1 and all(s is None for s in steps[:-1]):
            layout = "C"
        elif steps[0] == 1 and all(s is None for s in steps[1:]):
            layout = "F"
        elif all(s is None for s in steps):
            layout = "A"
        else:
            raise TypeError(f"{self.name}[...]: '::1' goes on the first or the last "
                            "dimension")
        return Array(self, ndim, layout)

    def __call__(self, *args):
        """With types: the signature returning this type. With a value (host code): the
        value converted to this type as a NumPy scalar."""
        if all(isinstance(a, Type) for a in args):
            return Signature(self, args)
        if len(args) == 1 and self._dtype is not None:
            return np.dtype(self._dtype).type(args[0])
        raise TypeError(f"{self.name}(...) takes types (a signature) or one value")


class Array(Type):
    def __init__(self, dtype: Type, ndim: int, layout: str = "A", readonly: bool = False):
        if isinstance(dtype, str):
            dtype = _BY_NAME[dtype]
        self.element, self.ndim, self.layout = dtype, int(ndim), layout
        dims = [":"] * self.ndim
        if layout == "C" and self.ndim:
            dims[-1] = "::1"
        elif layout == "F" and self.ndim:
            dims[0] = "::1"
        super().__init__(f"{dtype}[{', '.join(dims)}]")


class Signature:
    def __init__(self, return_type: Type, args):
        self.return_type, self.args = return_type, tuple(args)

    def __str__(self):
        return f"{self.return_type}({', '.join(str(a) for a in self.args)})"

    __repr__ = __str__


class UniTuple(Type):
    def __init__(self, dtype: Type, count: int):
        self.element, self.count = dtype, int(count)
        super().__init__(f"UniTuple({dtype}, {self.count})")


class Tuple(Type):
    def __init__(self, types):
        self.types = tuple(types)
        super().__init__(f"Tuple({', '.join(str(t) for t in self.types)})")


class CPointer(Type):
    """A pointer to ``dtype`` (numba's ``types.CPointer``), for device functions written in
    CUDA C++ and ``ffi.from_buffer``."""

    def __init__(self, dtype: Type):
        self.element = dtype
        super().__init__(f"CPointer({dtype})")


voidptr = Type("voidptr")


def _scalar(name, dtype):
    return Type(name, dtype)


void = none = Type("void")
boolean = b1 = bool_ = _scalar("boolean", "bool")
int8, int16, int32, int64 = (_scalar(f"int{n}", f"int{n}") for n in (8, 16, 32, 64))
uint8, uint16, uint32, uint64 = (_scalar(f"uint{n}", f"uint{n}") for n in (8, 16, 32, 64))
float16, float32, float64 = (_scalar(f"float{n}", f"float{n}") for n in (16, 32, 64))
complex64, complex128 = _scalar("complex64", "complex64"), _scalar("complex128", "complex128")
i1, i2, i4, i8 = int8, int16, int32, int64
u1, u2, u4, u8 = uint8, uint16, uint32, uint64
f2, f4, f8, c8, c16 = float16, float32, float64, complex64, complex128
half, float_, double = float16, float32, float64
intp, uintp, int_, intc, uintc = int64, uint64, int64, int32, uint32
byte, char, uchar, short, ushort = uint8, int8, uint8, int16, uint16
long_, ulong, longlong, ulonglong = int64, uint64, int64, uint64

_BY_NAME = {t.name: t for t in (boolean, int8, int16, int32, int64, uint8, uint16, uint32,
                                uint64, float16, float32, float64, complex64, complex128)}
