"""pykc._typeof: numba's typing of run-time arguments as pykc signature text (issue 19).

The expected strings are what numba-cuda 0.30's ``numba.typeof`` gives, in the syntax
pykc's ``--sig`` parses; `test_signatures_parse` checks that pykc accepts each one.
"""
import os
import subprocess

import numpy as np
import pytest

from pykc._typeof import layout_of, signature_for, typeof


class FakeDeviceArray:
    """A device array as CuPy exposes it (only ``__cuda_array_interface__``)."""

    def __init__(self, shape, typestr, strides=None):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "data": (0x1000, False),
                                         "strides": strides, "version": 3}


CASES = [
    (np.zeros(8, np.float32), "float32[::1]"),
    (np.zeros((4, 5), np.float64), "float64[:, ::1]"),
    (np.zeros((4, 5), np.float64).T, "float64[::1, :]"),
    (np.zeros((4, 5), np.int32)[:, ::2], "int32[:, :]"),
    (np.zeros((4, 5), np.int32)[::2, :], "int32[:, :]"),   # last stride 1, not C: numba says A
    (np.zeros(10, np.int16)[::3], "int16[:]"),
    (np.zeros((2, 3, 4), np.uint8), "uint8[:, :, ::1]"),
    (np.zeros((1, 6), np.float32)[:, 1:4], "float32[:, ::1]"),  # extent-1 dims do not count
    (np.zeros((1, 6), np.float32)[:, ::2], "float32[:, :]"),
    (np.zeros((3, 0), np.float32)[:, ::2], "float32[:, ::1]"),  # empty: contiguous
    (np.zeros(3, np.bool_), "boolean[::1]"),
    (np.zeros(3, np.complex64), "complex64[::1]"),
    (FakeDeviceArray((16,), "<f4"), "float32[::1]"),
    (FakeDeviceArray((4, 8), "<f2"), "float16[:, ::1]"),
    (FakeDeviceArray((4, 8), "<i8", strides=(8, 32)), "int64[::1, :]"),
    (FakeDeviceArray((4, 8), "<i8", strides=(128, 16)), "int64[:, :]"),
    (3, "int64"),
    (-(1 << 63), "int64"),
    (1 << 63, "uint64"),
    (2.5, "float64"),
    (True, "boolean"),
    (1 + 2j, "complex128"),
    (np.float32(1), "float32"),
    (np.int8(1), "int8"),
    (np.uint64(1), "uint64"),
    (np.bool_(False), "boolean"),
    ((1, 2), "UniTuple(int64, 2)"),
    ((1, 2.0), "Tuple(int64, float64)"),
    ((np.zeros(2, np.float32), np.zeros(3, np.float32)), "UniTuple(float32[::1], 2)"),
    ((), "Tuple()"),
    (np.zeros(4, np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)),
     "Record(s0[type=uint64;offset=0],s1[type=uint64;offset=8];16;True)[::1]"),
    (np.zeros(4, np.dtype([("x", np.float32), ("n", np.int8)])),
     "Record(x[type=float32;offset=0],n[type=int8;offset=4];5;False)[::1]"),
    # A nested-array field (advent-of-numba day02), spelt as numba.typeof spells it.
    (np.zeros(2, dtype=[("n", "<i4"), ("p", "<i4", 20), ("c", np.float64, (2, 3))]),
     "Record(n[type=int32;offset=0],p[type=nestedarray(int32, (20,));offset=4],"
     "c[type=nestedarray(float64, (2, 3));offset=84];132;False)[::1]"),
]


@pytest.mark.parametrize("value,expected", CASES, ids=[e for _, e in CASES])
def test_typeof_matches_numba(value, expected):
    assert typeof(value) == expected


def test_layout_rules():
    assert layout_of((5,), (1,)) == "C"
    assert layout_of((5, 1), (1, 5)) == "C"   # both: C wins, as numba's flags
    assert layout_of((2, 3), (1, 2)) == "F"
    assert layout_of((2, 3), (6, 2)) == "A"


@pytest.mark.parametrize("value,why", [
    (None, "cannot pass an argument of type NoneType"),
    ([1, 2], "cannot pass an argument of type list"),
    (np.zeros(3, dtype=object), "not supported"),
    (np.zeros(3, dtype=[("x", [("y", np.float32)])]), "is not supported"),
    (1 << 64, "does not fit in 64 bits"),
    (np.zeros(3, np.dtype(">f4")), "non-native byte order"),
])
def test_untypable_arguments_name_kernel_and_parameter(value, why):
    with pytest.raises(TypeError) as e:
        signature_for("saxpy", ["a", "x"], [2.0, value])
    assert str(e.value).startswith("kernel `saxpy`, parameter `x`: ")
    assert why in str(e.value)


def test_zero_d_arrays():
    """A 0-d array (cuTile's tests pass `torch.ones(())`) is `dtype[()]`, as --sig spells it."""
    assert signature_for("k", ["x"], [np.zeros((), np.float32)]).endswith("(float32[()])")


def test_wrong_argument_count():
    with pytest.raises(TypeError, match=r"kernel `saxpy` takes 2 arguments \(a, x\), 1 given"):
        signature_for("saxpy", ["a", "x"], [1.0])


def test_defaulted_parameters_may_be_left_out():
    """numba's omitted arguments: parameters with defaults may be left out of a launch."""
    from pykc._typeof import check_argument_count
    check_argument_count("k", ["x", "criterion"], [1.0], required=1)
    with pytest.raises(TypeError, match=r"kernel `k` takes 1 to 2 arguments \(x, criterion\), 0 given"):
        check_argument_count("k", ["x", "criterion"], [], required=1)


def test_signatures_parse(tmp_path):
    """pykc's front end takes every signature typeof writes."""
    pykc = os.path.join(os.path.dirname(__file__), "..", "..", "build", "bin", "pykc")
    if not os.path.exists(pykc):
        pytest.skip("build/bin/pykc is not built")
    src = tmp_path / "k.py"
    src.write_text("from numba import cuda\n\n\n@cuda.jit\ndef k(v):\n    pass\n")
    for value, expected in CASES:
        r = subprocess.run([pykc, "compile", str(src), "--phase", "check", "--sig",
                            signature_for("k", ["v"], [value])], capture_output=True, text=True)
        assert r.returncode == 0, (expected, r.stderr)


class _GradTensor:
    """Stands in for a PyTorch tensor that requires grad: no interface until detached."""
    requires_grad = True

    def __init__(self, shape):
        self.shape = shape

    @property
    def __cuda_array_interface__(self):
        raise RuntimeError("Can't get __cuda_array_interface__ on Variable that requires grad")

    def detach(self):
        return FakeDeviceArray(self.shape, "<f4")


def test_tensors_that_require_grad_are_read_detached():
    assert typeof(_GradTensor((4, 8))) == "float32[:, ::1]"


def test_float8_arrays_type_as_cutile_dtypes():
    """NumPy arrays of ml_dtypes' 8-bit floats (PyTorch's float8 tensors take the same
    stand-in dtypes) are typed by their cuTile names, and the manifest's names map back."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    from pykc._manifest import dtype_of
    for name in ("float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu"):
        a = np.zeros((4, 8), getattr(ml_dtypes, name))
        assert typeof(a) == f"{name}[:, ::1]"
        assert dtype_of(name) == a.dtype
