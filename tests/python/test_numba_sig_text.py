"""tests/realworld_numba/corpus/numba_sig_text.py: the corpus `--sig` spellings numba's own
parser cannot read (records as numba prints them, 0-d arrays), for run_vs_numba.py. The
record layouts need only NumPy; the numba types need numba (skipped without it)."""
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "realworld_numba", "corpus"))
import numba_sig_text as nst  # noqa: E402

PACKED = "Record(a[type=int8;offset=0],b[type=float64;offset=1];9;False)"
ALIGNED = "Record(a[type=int8;offset=0],b[type=float64;offset=8];16;True)"
NESTED = ("Record(lower[type=int32;offset=0],upper[type=int32;offset=4],letter[type=int32;offset=8],"
          "length[type=int32;offset=12],password[type=nestedarray(int32, (20,));offset=16];96;False)")


def test_record_layouts():
    packed = nst.record_dtype(PACKED)
    assert packed.itemsize == 9 and packed.fields["b"][1] == 1 and not packed.isalignedstruct
    aligned = nst.record_dtype(ALIGNED)
    assert aligned.itemsize == 16 and aligned.fields["b"][1] == 8 and aligned.isalignedstruct
    nested = nst.record_dtype(NESTED)
    assert nested.itemsize == 96 and nested.fields["password"][0] == np.dtype(("<i4", (20,)))
    assert nested.fields["password"][1] == 16


def test_splitting_and_refusals():
    assert nst.split_top("a[x;y],b(c, d);9;False", ";") == ["a[x;y],b(c, d)", "9", "False"]
    assert nst.split_top("f(a, (1, 2)), g", ",") == ["f(a, (1, 2))", "g"]
    with pytest.raises(ValueError):
        nst.record_dtype("int32")


def test_numba_types():
    pytest.importorskip("numba")
    from numba.core import types
    rec_arr, out = nst.numba_argtypes(f"k({NESTED}[::1], uint32[::1])")
    assert isinstance(rec_arr, types.Array) and rec_arr.ndim == 1 and rec_arr.layout == "C"
    assert isinstance(rec_arr.dtype, types.Record) and rec_arr.dtype.size == 96
    assert out == types.uint32[::1]
    r0, r1, i = nst.numba_argtypes(f"record_return({ALIGNED}[()], {ALIGNED}[::1], int64)")
    assert r0.ndim == 0 and r1.ndim == 1 and r0.dtype == r1.dtype and i == types.int64
    (z,) = nst.numba_argtypes("k(int64[()])")
    assert z == types.Array(types.int64, 0, "C")
