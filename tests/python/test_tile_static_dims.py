"""pykc.tile's specialisation constants without a GPU: ``ct.ArrayAnnotation(static_shape_dims=,
static_stride_dims=)`` (and ``ct.ListAnnotation(element=...)``) make a launch's argument
types carry the extents and strides asked for (``.assume(shape_constant=, stride_constant=)``),
the compiler keeps them in the manifest, and the loader refuses arrays that differ."""

import os
import sys
from typing import Annotated

import numpy as np
import pytest

import pykc.tile as ct
from pykc._args import ArgumentError, ArrayArg, TupleArg, match
from pykc._manifest import parse_manifest
from pykc.tile._static import static_arg_text, static_request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
F32 = np.dtype(np.float32)

SOURCE = '''
from typing import Annotated
import pykc.tile as ct


@ct.kernel
def strided(x: Annotated[ct.Array, ct.ArrayAnnotation(static_stride_dims=(0,))], out):
    ct.static_assert(x.strides[0] == 10)
    ct.store(out, (0, 0), ct.load(x, (0, 0), (4, 8)))
'''


def test_annotation_validation():
    with pytest.raises(TypeError, match="must be int"):
        ct.ArrayAnnotation(static_shape_dims=(False,))
    with pytest.raises(TypeError, match="must be int"):
        ct.ArrayAnnotation(static_stride_dims=(1.0,))
    req = static_request(Annotated[ct.Array, ct.ArrayAnnotation(static_shape_dims=(0, 1))])
    assert req.static_shape_dims == (0, 1)
    listed = Annotated[list, ct.ListAnnotation(element=ct.ArrayAnnotation(static_stride_dims=(0,)))]
    assert static_request(listed).static_stride_dims == (0,)
    assert static_request(Annotated[ct.Array, ct.ArrayAnnotation()]) is None
    assert static_request(int) is None


def test_argument_text():
    x = ArrayArg(F32, (4, 8), (10, 1), ptr=0x1004)
    shape = ct.ArrayAnnotation(static_shape_dims=(0, 1))
    stride = ct.ArrayAnnotation(static_shape_dims=(0,), static_stride_dims=(0, 1))
    assert static_arg_text(x, shape) == "float32[:, ::1].assume(shape_constant=(4, 8))"
    # The unit stride is the layout's (`::1`): no constant to write.
    assert static_arg_text(x, stride) == \
        "float32[:, ::1].assume(shape_constant=(4, None), stride_constant=(10, None))"
    aligned = ArrayArg(F32, (16, 16), (16, 1), ptr=0x1000)
    assert static_arg_text(aligned, shape) == ("float32[:, ::1].assume(alignment=16, stride_divisible_by=(4, 1), "
                                               "shape_divisible_by=(16, 16), shape_constant=(16, 16))")
    broadcast = ArrayArg(F32, (4, 8), (1, 0), ptr=0x1004)
    assert static_arg_text(broadcast, ct.ArrayAnnotation(static_stride_dims=(1,))) == \
        "float32[::1, :].assume(stride_divisible_by=(1, 4), stride_constant=(None, 0))"
    with pytest.raises(ValueError, match="static_shape_dims contains axis 5"):
        static_arg_text(x, ct.ArrayAnnotation(static_shape_dims=(5,)))
    with pytest.raises(ValueError, match="duplicate axis"):
        static_arg_text(x, ct.ArrayAnnotation(static_stride_dims=(0, -2)))


def test_lists_agree():
    req = ct.ArrayAnnotation(static_stride_dims=(0,))
    a = ArrayArg(F32, (4, 8), (10, 1), ptr=0x1000)
    b = ArrayArg(F32, (4, 8), (10, 1), ptr=0x2004)
    assert static_arg_text(TupleArg((a, b)), req) == \
        "UniTuple(float32[:, ::1].assume(stride_constant=(10, None)), 2)"
    c = ArrayArg(F32, (4, 8), (12, 1), ptr=0x3000)
    with pytest.raises(ValueError, match="vary in static stride at axis 0"):
        static_arg_text(TupleArg((a, c)), req)


@pytest.mark.skipif(not os.path.exists(os.path.join(ROOT, "build", "lib", "libpykc.so")),
                    reason="libpykc is not built")
def test_compiled_constants(tmp_path, monkeypatch):
    monkeypatch.setenv("PYKC_ARCH", "sm_90")
    monkeypatch.setenv("PYKC_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "tile_static_kernels.py").write_text(SOURCE)
    sys.path.insert(0, str(tmp_path))
    try:
        import importlib
        sys.modules.pop("tile_static_kernels", None)
        mod = importlib.import_module("tile_static_kernels")
        mod.strided._constants()
        assert set(mod.strided._static) == {0}
        x = ArrayArg(F32, (4, 8), (10, 1), ptr=0x1004)
        text = static_arg_text(x, mod.strided._static[0])
        compiled, _, path = mod.strided._compile((text, "float32[:, ::1]"), ())
        k = compiled.manifest["kernels"][0]
        assert k["params"][0]["stride_constant"] == [10, None]
        p = parse_manifest(compiled.manifest, path, None).kernels[0].params[0]
        assert p.type_str() == text
        assert match(p, x) == (0, 0)
        with pytest.raises(ArgumentError, match="stride 0 is 10"):
            match(p, ArrayArg(F32, (4, 8), (12, 1), ptr=0x1004))
    finally:
        sys.path.remove(str(tmp_path))
