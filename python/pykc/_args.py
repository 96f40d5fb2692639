"""Argument checking and marshalling (docs/ABI.md, "Parameters").

Pure functions, no CUDA: ``describe`` turns a Python argument into a descriptor,
``match`` checks a descriptor against a declared parameter, ``plan_launch`` flattens
checked arguments into the ``(ctype, value)`` list the kernel receives.

An array of ndim n becomes ``pointer, shape[0..n-1] (int64), strides[0..n-1] (int64,
in elements)``; a scalar becomes one value of its exact C type; a tuple its elements.
"""

from __future__ import annotations

import ctypes
import dataclasses
from dataclasses import dataclass, field

import numpy as np

from ._manifest import FLOAT8_NAMES, KernelEntry, Param, bfloat16_dtype, float8_dtype, special_dtype_name


class ArgumentError(TypeError):
    """An argument does not match the kernel's signature (or cannot be passed at all)."""


# --------------------------------------------------------------------------- descriptors

def _holds_c(shape, strides) -> bool:
    return shape == () or shape[-1] <= 1 or strides[-1] == 1


def _holds_f(shape, strides) -> bool:
    return shape == () or shape[0] <= 1 or strides[0] == 1


def abi_layout(shape, strides) -> str:
    """The layout whose ABI promise (docs/ABI.md: a unit last or first stride) an array of
    these extents and element strides holds: "C", "F" or "A"."""
    return "C" if _holds_c(shape, strides) else "F" if _holds_f(shape, strides) else "A"


@dataclass
class ArrayArg:
    """An array argument: device memory, or a host (NumPy) array still to be copied."""
    dtype: np.dtype
    shape: tuple                   # ints
    strides: tuple                 # ints, in elements
    ptr: int = 0                   # device pointer (0 for host arrays until uploaded)
    host: np.ndarray | None = None  # set for host arrays: copied over and back
    stream: int | None = None      # CAI v3 producer stream the launch must wait for
    keep: object = None            # whatever must outlive the launch (a DLPack capsule)

    def holds_c(self) -> bool:     # the ABI's C promise: stride[n-1] == 1 (or extent <= 1)
        return _holds_c(self.shape, self.strides)

    def holds_f(self) -> bool:     # the ABI's F promise: stride[0] == 1 (or extent <= 1)
        return _holds_f(self.shape, self.strides)

    def describe(self) -> str:
        where = "host (NumPy)" if self.host is not None else "device"
        lay = ("C-contiguous" if self.holds_c() else
               "F-contiguous" if self.holds_f() else "strided")
        return (f"{where} {dtype_name(self.dtype)} array, ndim {len(self.shape)}, shape "
                f"{self.shape}, strides {self.strides} elements ({lay})")


@dataclass
class ScalarArg:
    value: object                  # Python or NumPy scalar
    dtype: np.dtype | None         # NumPy scalar: its dtype; Python scalar: None
    pytype: type | None = None     # Python scalar: bool, int, float or complex

    def describe(self) -> str:
        t = self.dtype.name if self.dtype is not None else f"Python {self.pytype.__name__}"
        return f"{t} {self.value!r}"


@dataclass
class TupleArg:
    items: list
    # A frozen dataclass instance (docs/ABI.md): its class name; its fields are `items`,
    # in field order.
    cls: str | None = None

    def describe(self) -> str:
        if self.cls is not None:
            return self.cls + "(" + ", ".join(i.describe() for i in self.items) + ")"
        return "tuple(" + ", ".join(i.describe() for i in self.items) + ")"


# --------------------------------------------------------------------------- describe

_KDL_CPU, _KDL_CUDA, _KDL_CUDA_HOST, _KDL_CUDA_MANAGED = 1, 2, 3, 13


def dtype_name(dt: np.dtype) -> str:
    """NumPy's name of a dtype, ``bfloat16`` for pykc's stand-in."""
    return special_dtype_name(dt) or dt.name


def _native(dt: np.dtype, what: str) -> np.dtype:
    if not dt.isnative:
        raise ArgumentError(f"{what}: non-native byte order ({dt.str}) is not supported")
    return dt


def _from_cai(obj, cai: dict) -> ArrayArg:
    what = type(obj).__name__
    if cai.get("mask") is not None:
        raise ArgumentError(f"{what}: masked arrays (__cuda_array_interface__ 'mask') "
                            "are not supported")
    dt = np.dtype(cai["typestr"])
    if dt.kind == "V" and dt.itemsize == 2 and str(getattr(obj, "dtype", "")).endswith("bfloat16"):
        dt = bfloat16_dtype()  # PyTorch describes bfloat16 as "<V2"
    elif dt.kind == "V" and cai.get("descr") and cai["descr"][0][0] != "":
        # A structured dtype (records): CAI's `descr` names the fields.
        dt = _structured(cai["descr"], dt.itemsize)
    dt = _native(dt, what)
    if special_dtype_name(dt) is None and (dt.subdtype is not None or
                                   (dt.fields is not None and not _scalar_fields(dt))):
        raise ArgumentError(f"{what}: dtype {dt} is not supported")
    shape = tuple(int(s) for s in cai["shape"])
    if cai.get("strides") is None:  # None means C-contiguous
        strides = _c_strides(shape)
    else:
        strides = []
        for s in cai["strides"]:
            if int(s) % dt.itemsize:
                raise ArgumentError(
                    f"{what}: byte stride {s} is not a multiple of the item size "
                    f"{dt.itemsize} of {dt.name}; pykc passes strides in elements")
            strides.append(int(s) // dt.itemsize)
        strides = tuple(strides)
    ptr = int(cai["data"][0] or 0)
    stream = cai.get("stream") if cai.get("version", 0) >= 3 else None
    return ArrayArg(dt, shape, strides, ptr, stream=stream)


def _structured(descr, itemsize: int) -> np.dtype:
    """A structured dtype from __array_interface__-style ``descr`` (padding entries,
    named '', skipped)."""
    names, formats, offsets, at = [], [], [], 0
    for entry in descr:
        # A nested array field has its shape third: ('password', '<i4', (20,)).
        name, fmt = entry[0], np.dtype((entry[1], entry[2]) if len(entry) > 2 else entry[1])
        if name:
            names.append(name)
            formats.append(fmt)
            offsets.append(at)
        at += fmt.itemsize
    return np.dtype({"names": names, "formats": formats, "offsets": offsets,
                     "itemsize": itemsize})


def _scalar_fields(dt: np.dtype) -> bool:
    """Whether every field of a structured dtype is a native scalar or a nested array of
    them (what pykc records hold)."""
    def scalar(f):
        return f.fields is None and f.subdtype is None and f.isnative and f.kind in "biufc"
    return all(scalar(f[0].subdtype[0] if f[0].subdtype is not None else f[0])
               for f in dt.fields.values())


def _record_key(dt: np.dtype):
    """What must agree between a structured argument and a record parameter: field
    names, dtypes and offsets, and the itemsize."""
    return (tuple((n, dt.fields[n][0].str, dt.fields[n][1]) for n in dt.names), dt.itemsize)


def _c_strides(shape, itemsize: int = 1) -> tuple:
    """The strides of a dense C-order array of ``shape`` (in elements, or in bytes given
    the ``itemsize``)."""
    out, acc = [], itemsize
    for s in reversed(shape):
        out.append(acc)
        acc *= max(int(s), 1)
    return tuple(reversed(out))


def _f_strides(shape, itemsize: int = 1) -> tuple:
    """The strides of a dense Fortran-order array of ``shape``."""
    return tuple(reversed(_c_strides(tuple(reversed(shape)), itemsize)))


def _from_numpy(a: np.ndarray) -> ArrayArg:
    dt = _native(a.dtype, "NumPy array")
    if special_dtype_name(dt) is None and (dt.hasobject or dt.subdtype is not None or (
            dt.fields is not None and not _scalar_fields(dt))):
        raise ArgumentError(f"NumPy array of dtype {dt} is not supported")
    if any(s % dt.itemsize for s in a.strides):
        raise ArgumentError(f"NumPy array with byte strides {a.strides} not a multiple of "
                            f"its item size {dt.itemsize}")
    return ArrayArg(dt, tuple(a.shape), tuple(s // dt.itemsize for s in a.strides), host=a)


# DLPack (legacy "dltensor" capsule, DLPack 0.x / 1.x unversioned ABI), read with ctypes.
class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_capsule_ptr = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_ptr.restype, _capsule_ptr.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
_DL_KIND = {0: "int", 1: "uint", 2: "float", 4: "bfloat", 5: "complex", 6: "bool"}


def dlpack_to_array(capsule, what="DLPack tensor") -> ArrayArg:
    """Read a ``dltensor`` capsule (without consuming it: the capsule's own destructor
    releases the tensor once the capsule is dropped, so keep it alive for the launch)."""
    t = _DLTensor.from_address(_capsule_ptr(capsule, b"dltensor"))
    code, bits, lanes = t.dtype.code, t.dtype.bits, t.dtype.lanes
    if lanes != 1 or code not in _DL_KIND:
        raise ArgumentError(f"{what}: DLPack dtype (code {code}, bits {bits}, lanes {lanes}) "
                            "is not supported")
    if code == 4 and bits != 16:
        raise ArgumentError(f"{what}: DLPack bfloat{bits} is not supported")
    dt = (np.dtype("bool") if code == 6 else bfloat16_dtype() if code == 4
          else np.dtype(f"{_DL_KIND[code]}{bits}"))
    n = t.ndim
    shape = tuple(t.shape[i] for i in range(n))
    strides = tuple(t.strides[i] for i in range(n)) if t.strides else _c_strides(shape)
    ptr = (t.data or 0) + t.byte_offset
    return ArrayArg(dt, shape, strides, ptr, keep=capsule)


def _from_dataclass(arg, stream):
    """A dataclass instance: the tuple of its fields in field order (cuTile's calling
    convention v3 flattens it so), lists among them as tuples. Frozen ones only (cuTile)."""
    cls = type(arg)
    params = getattr(cls, "__dataclass_params__", None)
    if params is not None and not params.frozen:
        raise ArgumentError(f"Only frozen dataclasses are supported: {cls.__name__} is not frozen")
    items = []
    for f in dataclasses.fields(arg):
        v = getattr(arg, f.name)
        if isinstance(v, list):
            v = tuple(v)
        try:
            items.append(describe(v, stream))
        except (ArgumentError, TypeError) as e:
            raise ArgumentError(f"field '{f.name}' of {cls.__name__}: {e}") from None
    return TupleArg(items, cls.__name__)


def describe(arg, stream: int | None = None):
    """Turn one Python argument into ArrayArg / ScalarArg / TupleArg (no CUDA calls).

    ``stream`` is the launch stream's handle, passed to ``__dlpack__(stream=...)`` so the
    producer orders its pending work before the launch (None: legacy default stream).
    """
    if isinstance(arg, np.ndarray):
        return _from_numpy(arg)
    if isinstance(arg, (bool, np.bool_)):
        return ScalarArg(arg, np.dtype("bool") if isinstance(arg, np.bool_) else None, bool)
    if isinstance(arg, np.generic):
        if not isinstance(arg, (np.number,)):
            raise ArgumentError(f"NumPy scalar of type {type(arg).__name__} is not supported")
        return ScalarArg(arg, _native(arg.dtype, "NumPy scalar"))
    if isinstance(arg, (int, float, complex)):
        return ScalarArg(arg, None, int if isinstance(arg, int) else type(arg))
    if isinstance(arg, tuple):
        return TupleArg([describe(a, stream) for a in arg])
    if dataclasses.is_dataclass(arg) and not isinstance(arg, type):
        return _from_dataclass(arg, stream)
    what = type(arg).__name__
    if getattr(arg, "requires_grad", False) and callable(getattr(arg, "detach", None)):
        # A PyTorch tensor in an autograd graph: the kernel reads its data (as cuTile and
        # numba do); PyTorch exports neither interface for it.
        arg = arg.detach()
    torch_name = str(getattr(arg, "dtype", "")).removeprefix("torch.")
    if ((torch_name in FLOAT8_NAMES or (torch_name == "bfloat16" and getattr(arg, "is_cuda", False)))
            and callable(getattr(arg, "view", None))):
        # PyTorch's float8 and bfloat16 tensors export no __cuda_array_interface__ (DLPack,
        # the other way, costs a stream handshake and a capsule per launch): their bits as
        # an integer tensor of the same width, typed as pykc's stand-in dtype.
        import torch
        float8 = torch_name in FLOAT8_NAMES
        raw = arg.view(torch.uint8 if float8 else torch.int16)
        a = _from_cai(raw, raw.__cuda_array_interface__)
        a.dtype = float8_dtype(torch_name) if float8 else bfloat16_dtype()
        a.keep = (raw, getattr(a, "keep", None))
        return a
    try:
        cai = arg.__cuda_array_interface__
    except (AttributeError, TypeError, KeyError, RuntimeError):
        # PyTorch raises TypeError for bfloat16 and KeyError for float8 dtypes: DLPack
        # below says what it can.
        cai = None
    if cai is not None:
        return _from_cai(arg, cai)
    if hasattr(arg, "__dlpack__") and hasattr(arg, "__dlpack_device__"):
        dev_type, _ = arg.__dlpack_device__()
        if int(dev_type) == _KDL_CPU:  # a host tensor: treat like NumPy (shares memory)
            return _from_numpy(np.from_dlpack(arg))
        if int(dev_type) not in (_KDL_CUDA, _KDL_CUDA_HOST, _KDL_CUDA_MANAGED):
            raise ArgumentError(f"{what}: DLPack device type {dev_type} is not CUDA")
        capsule = arg.__dlpack__(stream=1 if stream in (None, 0) else stream)
        return dlpack_to_array(capsule, what)
    raise ArgumentError(f"cannot pass an argument of type {what} to a pykc kernel: expected "
                        "a scalar, a tuple, a NumPy array, or an array exposing "
                        "__cuda_array_interface__ or __dlpack__")


# --------------------------------------------------------------------------- matching

def _scalar_value(p: Param, a: ScalarArg):
    """(converted value, number of conversions) for scalar ``a`` as param ``p``, or raise
    ArgumentError with the reason. Exact: a NumPy scalar of that dtype, or the Python type
    numba gives it (int -> int64, float -> float64, bool -> bool, complex -> complex128)."""
    t = np.dtype(p.dtype)
    natural = a.dtype if a.dtype is not None else {
        bool: np.dtype("bool"), int: np.dtype("int64"), float: np.dtype("float64"),
        complex: np.dtype("complex128")}[a.pytype]
    exact = natural == t
    v = a.value
    if t.kind == "b":
        if natural.kind != "b":
            raise ArgumentError(f"expected bool, got {a.describe()}")
        return bool(v), 0
    if natural.kind == "b":
        raise ArgumentError(f"expected {t.name}, got {a.describe()} (bool is not a number here)")
    if t.kind in "iu":
        if natural.kind not in "iu":
            raise ArgumentError(f"expected {t.name}, got {a.describe()}")
        info, iv = np.iinfo(t), int(v)
        if not info.min <= iv <= info.max:
            raise ArgumentError(f"value {iv} is out of range for {t.name} "
                                f"[{info.min}, {info.max}]")
        return iv, int(not exact)
    if t.kind == "f":
        if natural.kind not in "iuf":
            raise ArgumentError(f"expected {t.name}, got {a.describe()}")
        fv = float(v)
        with np.errstate(over="ignore"):
            if np.isfinite(fv) and not np.isfinite(t.type(fv)):
                raise ArgumentError(f"value {fv!r} is out of range for {t.name}")
        return fv, int(not exact)
    if t.kind == "c":
        if natural.kind not in "iufc":
            raise ArgumentError(f"expected {t.name}, got {a.describe()}")
        return complex(v), int(not exact)
    raise ArgumentError(f"unsupported parameter dtype {t.name}")


def array_facts(ptr: int, shape, strides, itemsize: int) -> tuple:
    """What cuTile's launch specialises on, for an array at ``ptr`` (0: not yet on the
    device) with ``strides`` in elements: (16-byte aligned base, per-dimension stride
    divisors, per-dimension extent divisors); a stride divisor is 16 bytes' worth of
    elements where the stride is a multiple of 16 bytes (any stride where the extent is
    at most 1: it is never used), an extent divisor 16 where the extent is a multiple of
    16. Divisors of 1 say nothing."""
    k = 16 // itemsize if itemsize < 16 else 1
    sdiv = tuple(k if n <= 1 or s % k == 0 else 1 for n, s in zip(shape, strides))
    hdiv = tuple(16 if n % 16 == 0 else 1 for n in shape)
    return ptr != 0 and ptr % 16 == 0, sdiv, hdiv


def _unmet_fact(p: Param, a: ArrayArg) -> str | None:
    """The first of ``p``'s array facts that ``a`` does not hold, in words, or None."""
    if p.alignment and a.ptr % p.alignment:
        return f"its base address must be a multiple of {p.alignment} bytes"
    for what, want, given in (("extent", p.shape_constant, a.shape), ("stride", p.stride_constant, a.strides)):
        for d, (w, g) in enumerate(zip(want, given)):
            if w is not None and w != g:
                return f"{what} {d} is {w}"
    for d, (n, s) in enumerate(zip(a.shape, a.strides)):
        if d < len(p.shape_divisible_by) and n % p.shape_divisible_by[d]:
            return f"extent {d} must be a multiple of {p.shape_divisible_by[d]}"
        if d < len(p.stride_divisible_by) and n > 1 and s % p.stride_divisible_by[d]:
            return f"stride {d} must be a multiple of {p.stride_divisible_by[d]} elements"
    return None


def match(p: Param, a) -> tuple:
    """Check argument descriptor ``a`` against parameter ``p``.

    Returns a score ``(conversions, generalisations)`` (lower is a better fit) or raises
    ArgumentError saying what was expected and what was given.
    """
    want = p.type_str()
    if p.kind == "array":
        if not isinstance(a, ArrayArg):
            raise ArgumentError(f"expected array {want}, got {a.describe()}")
        if p.dtype == "record":
            if a.dtype.fields is None or _record_key(a.dtype) != _record_key(p.numpy_dtype()):
                raise ArgumentError(f"expected {want}, got {a.describe()}: dtype differs "
                                    f"({a.dtype} given, {p.numpy_dtype()} expected)")
        elif a.dtype != p.numpy_dtype():
            raise ArgumentError(f"expected {want}, got {a.describe()}: dtype differs "
                                f"({dtype_name(a.dtype)} given, {p.dtype} expected)")
        if len(a.shape) != p.ndim:
            raise ArgumentError(f"expected {want}, got {a.describe()}: ndim differs "
                                f"({len(a.shape)} given, {p.ndim} expected)")
        if p.layout == "C" and not a.holds_c():
            raise ArgumentError(f"expected {want} (C layout: last stride must be 1 element), "
                                f"got {a.describe()}")
        if p.layout == "F" and not a.holds_f():
            raise ArgumentError(f"expected {want} (F layout: first stride must be 1 element), "
                                f"got {a.describe()}")
        if p.shape_constant or p.stride_constant or (
                a.host is None and (p.alignment or p.stride_divisible_by or p.shape_divisible_by)):
            unmet = _unmet_fact(p, a)
            if unmet:
                raise ArgumentError(f"expected {want}, got {a.describe()}: the kernel was "
                                    f"compiled for arrays whose {unmet}")
        # An 'A' parameter fed a contiguous array is a generalisation: prefer C/F entries.
        return 0, int(p.layout == "A" and (a.holds_c() or a.holds_f()))
    if p.kind == "scalar":
        if not isinstance(a, ScalarArg):
            raise ArgumentError(f"expected scalar {want}, got {a.describe()}")
        return _scalar_value(p, a)[1], 0
    if p.kind == "tuple":
        if not isinstance(a, TupleArg) or len(a.items) != len(p.elements):
            raise ArgumentError(f"expected {want} ({len(p.elements)} elements), "
                                f"got {a.describe()}")
        if p.cls and a.cls is not None and a.cls != p.cls:
            raise ArgumentError(f"expected {want}, got {a.describe()}")
        conv = gen = 0
        for i, (pe, ae) in enumerate(zip(p.elements, a.items)):
            try:
                c, g = match(pe, ae)
            except ArgumentError as e:
                raise ArgumentError(f"element {i}: {e}") from None
            conv, gen = conv + c, gen + g
        return conv, gen
    raise ArgumentError(f"unknown parameter kind {p.kind!r}")


def _score(entry: KernelEntry, descs) -> tuple:
    if len(descs) != len(entry.params):
        raise ArgumentError(f"takes {len(entry.params)} arguments, {len(descs)} given")
    conv = gen = 0
    for i, (p, a) in enumerate(zip(entry.params, descs)):
        try:
            c, g = match(p, a)
        except ArgumentError as e:
            raise ArgumentError(f"parameter '{p.name}' (#{i + 1}): {e}") from None
        conv, gen = conv + c, gen + g
    return conv, gen


def score_entry(entry: KernelEntry, descs) -> tuple:
    """Score an entry against described arguments; raise ArgumentError naming the
    kernel, the parameter (name and position), and expected vs given."""
    try:
        return _score(entry, descs)
    except ArgumentError as e:
        raise ArgumentError(f"kernel '{entry.name}' {entry.signature}: {e}") from None


def select_entry(entries, descs) -> KernelEntry:
    """Pick the signature that fits the arguments best (fewest scalar conversions, then
    fewest layout generalisations); raise listing every signature and why it failed."""
    if len(entries) == 1:
        score_entry(entries[0], descs)
        return entries[0]
    scored, reasons = [], []
    for e in entries:
        try:
            scored.append((_score(e, descs), e))
        except ArgumentError as err:
            reasons.append(f"  {e.signature}: {err}")
    if not scored:
        given = ", ".join(d.describe() for d in descs) or "no arguments"
        raise ArgumentError(f"no signature of kernel '{entries[0].name}' accepts ({given}):\n"
                            + "\n".join(reasons))
    scored.sort(key=lambda s: s[0])
    best = [e for s, e in scored if s == scored[0][0]]
    if len(best) > 1:
        raise ArgumentError(f"ambiguous call of kernel '{entries[0].name}': "
                            + ", ".join(e.signature for e in best) + " fit equally well")
    return best[0]


# --------------------------------------------------------------------------- marshalling

#: ctype name (NumPy dtype name, or "pointer") -> NumPy scalar type used to pack it.
CTYPES = {"pointer": np.uint64, "bool": np.uint8, **{
    n: np.dtype(n).type for n in "int8 int16 int32 int64 uint8 uint16 uint32 uint64 "
    "float16 float32 float64 complex64 complex128".split()}}


@dataclass
class LaunchPlan:
    """What a launch needs: the flattened kernel parameters, and the bookkeeping."""
    entry: KernelEntry
    params: list                   # [(ctype, value)]: ctype a key of CTYPES
    copy_back: list = field(default_factory=list)  # [(host ndarray, device copy)]
    wait_streams: set = field(default_factory=set)  # CAI producer streams to wait on
    keep_alive: list = field(default_factory=list)  # device copies, capsules, ...

    def packed(self) -> list:
        """The parameters as NumPy scalars of their exact C type (float16 as its 16-bit
        pattern, bool as uint8, pointers as uint64), ready for cuda.core or CuPy."""
        out = []
        for ct, v in self.params:
            if ct == "float16":
                out.append(np.float16(v).view(np.uint16))
            else:
                out.append(CTYPES[ct](v))
        return out


def _no_upload(a: np.ndarray):
    raise ArgumentError("NumPy arrays need a device to be copied to (no upload function)")


def _flatten(p: Param, a, plan: LaunchPlan, upload) -> None:
    if p.kind == "tuple":
        for pe, ae in zip(p.elements, a.items):
            _flatten(pe, ae, plan, upload)
        return
    if p.kind == "scalar":
        v, _ = _scalar_value(p, a)
        if p.dtype in ("complex64", "complex128"):
            # docs/ABI.md: a complex scalar is two parameters (real, imaginary).
            part = "float32" if p.dtype == "complex64" else "float64"
            c = complex(v)
            plan.params.append((part, c.real))
            plan.params.append((part, c.imag))
            return
        plan.params.append(("bool" if p.dtype == "bool" else p.dtype,
                            int(v) if p.dtype == "bool" else v))
        return
    if a.host is not None:
        # Copy the host array in the order that keeps the layout the kernel expects,
        # then describe the device copy instead. Read-only arrays are not copied back.
        order = "F" if (a.holds_f() and not a.holds_c()) else "C"
        dev = upload(np.asarray(a.host, order=order))
        plan.keep_alive.append(dev)
        if a.host.flags.writeable:
            plan.copy_back.append((a.host, dev))
        a = _from_cai(dev, dev.__cuda_array_interface__)
        unmet = _unmet_fact(p, a)
        if unmet:
            raise ArgumentError(f"parameter `{p.name}`: the device copy of {a.describe()} "
                                f"does not hold the kernel's array facts: its {unmet}")
    if a.stream not in (None, 0, 1, 2):
        plan.wait_streams.add(int(a.stream))
    if a.keep is not None:
        plan.keep_alive.append(a.keep)
    strides = list(a.strides)
    # Extents <= 1 make the stride meaningless; pass 1 so the layout promise holds.
    for i, s in enumerate(a.shape):
        if s <= 1:
            strides[i] = 1
    plan.params.append(("pointer", a.ptr))
    plan.params.extend(("int64", int(s)) for s in a.shape)
    plan.params.extend(("int64", int(s)) for s in strides)


def plan_launch(entry: KernelEntry, args, *, upload=_no_upload, stream=None) -> LaunchPlan:
    """Check ``args`` against ``entry`` and flatten them per docs/ABI.md.

    ``args`` are Python objects (or descriptors from ``describe``). ``upload(ndarray)``
    copies a contiguous host array to the device and returns an object exposing
    ``__cuda_array_interface__``; it is called only after every argument passed its check.
    Raises ArgumentError on any mismatch.
    """
    descs = [a if isinstance(a, (ArrayArg, ScalarArg, TupleArg)) else describe(a, stream)
             for a in args]
    score_entry(entry, descs)
    plan = LaunchPlan(entry, [])
    for p, a in zip(entry.params, descs):
        _flatten(p, a, plan, upload)
    return plan
