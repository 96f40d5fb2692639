"""CPU-only tests of the pykc loader's manifest reading, argument checks and marshalling.

No GPU, no CUDA: device arrays are fakes exposing ``__cuda_array_interface__``.
Run: python3 -m pytest tests/python
"""

import json
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

import pykc  # noqa: E402
from pykc import ArgumentError, ManifestError, plan_launch  # noqa: E402
from pykc._args import describe, select_entry  # noqa: E402
from pykc._manifest import Target, select_target  # noqa: E402


class FakeDevArray:
    """Anything with __cuda_array_interface__ (stands in for CuPy / torch / numba)."""

    def __init__(self, shape, dtype="float32", strides=None, ptr=0x7F0000001000, version=3,
                 stream=None, mask=None):
        dt = np.dtype(dtype)
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "typestr": dt.str, "data": (ptr, False),
            "strides": None if strides is None else tuple(s * dt.itemsize for s in strides),
            "version": version, "stream": stream, "mask": mask}


def arr(shape, dtype="float32", strides=None, **kw):
    return FakeDevArray(shape, dtype, strides, **kw)


SAXPY = {
    "name": "saxpy", "signature": "void(float32, float32[::1], float32[::1], float32[::1])",
    "symbol": "saxpy__f32_f32a1C_f32a1C_f32a1C",
    "params": [{"name": "a", "kind": "scalar", "dtype": "float32"}]
    + [{"name": n, "kind": "array", "dtype": "float32", "ndim": 1, "layout": "C"}
       for n in ("x", "y", "out")],
    "cooperative": False, "dynamic_shared_memory": False,
    "resources": {"sm_90": {"registers": 16, "max_threads_per_block": 1024}},
}


def manifest_dict(*kernels, targets=({"arch": "sm_90", "cubin": "k.sm_90.cubin",
                                       "ptx": "k.sm_90.ptx"},)):
    return {"format": "pykc-manifest", "abi_version": 1,
            "compiler": {"pykc": "0.1.0"}, "source": "k.py",
            "targets": list(targets), "kernels": list(kernels)}


def entry(d):
    """A KernelEntry from a manifest kernel dict (through the real reader)."""
    return entries(d)[0]


def entries(*ds):
    import tempfile
    with tempfile.TemporaryDirectory() as t:
        p = os.path.join(t, "manifest.json")
        with open(p, "w") as f:
            json.dump(manifest_dict(*ds), f)
        return pykc.read_manifest(t).kernels


def kernel(name, *params, symbol=None):
    return {"name": name, "signature": f"void({', '.join(p.pop('sig') for p in params)})",
            "symbol": symbol or name, "params": list(params)}


def A(name, dtype, ndim, layout):
    dims = [":"] * ndim
    if layout == "C":
        dims[-1] = "::1"
    if layout == "F":
        dims[0] = "::1"
    return {"name": name, "kind": "array", "dtype": dtype, "ndim": ndim, "layout": layout,
            "sig": f"{dtype}[{', '.join(dims)}]"}


def S(name, dtype):
    return {"name": name, "kind": "scalar", "dtype": dtype, "sig": dtype}


# ----------------------------------------------------------------------------- marshalling

def test_saxpy_marshalling_exact_types():
    e = entry(SAXPY)
    x, y, out = arr((100,), ptr=0x1000), arr((100,), ptr=0x2000), arr((100,), ptr=0x3000)
    plan = plan_launch(e, [2.5, x, y, out])
    assert plan.params == [("float32", 2.5),
                           ("pointer", 0x1000), ("int64", 100), ("int64", 1),
                           ("pointer", 0x2000), ("int64", 100), ("int64", 1),
                           ("pointer", 0x3000), ("int64", 100), ("int64", 1)]
    packed = plan.packed()
    assert [type(v) for v in packed] == [np.float32] + [np.uint64, np.int64, np.int64] * 3
    # int64 shapes are never narrowed: a shape beyond 2**31 survives packing.
    big = plan_launch(e, [1.0, arr((2**33,)), arr((2**33,)), arr((2**33,))]).packed()
    assert big[2] == np.int64(2**33) and big[2].dtype == np.int64
    assert plan.copy_back == [] and plan.wait_streams == set()


def test_float64_array_to_float32_kernel_is_refused():
    e = entry(SAXPY)
    with pytest.raises(ArgumentError) as ei:
        plan_launch(e, [2.0, arr((8,), "float64"), arr((8,)), arr((8,))])
    msg = str(ei.value)
    assert "saxpy" in msg and "'x'" in msg and "#2" in msg
    assert "float32[::1]" in msg and "float64" in msg


def test_strided_view_to_c_kernel_is_refused():
    e = entry(SAXPY)
    with pytest.raises(ArgumentError, match=r"saxpy.*'y'.*float32\[::1\].*strides \(2,\)"):
        plan_launch(e, [2.0, arr((8,)), arr((8,), strides=(2,)), arr((8,))])


def test_ndim_and_arity_mismatch():
    e = entry(SAXPY)
    with pytest.raises(ArgumentError, match="ndim differs"):
        plan_launch(e, [2.0, arr((2, 4)), arr((8,)), arr((8,))])
    with pytest.raises(ArgumentError, match="takes 4 arguments, 3 given"):
        plan_launch(e, [2.0, arr((8,)), arr((8,))])
    with pytest.raises(ArgumentError, match="expected array"):
        plan_launch(e, [2.0, 3.0, arr((8,)), arr((8,))])
    with pytest.raises(ArgumentError, match="expected scalar"):
        plan_launch(e, [arr((8,)), arr((8,)), arr((8,)), arr((8,))])


def test_cai_byte_strides_converted_and_checked():
    k = kernel("k", A("a", "float64", 2, "A"))
    e = entry(k)
    a = FakeDevArray((3, 4), "float64")
    a.__cuda_array_interface__["strides"] = (64, 16)  # bytes
    assert plan_launch(e, [a]).params[1:] == [("int64", 3), ("int64", 4),
                                              ("int64", 8), ("int64", 2)]
    a.__cuda_array_interface__["strides"] = (64, 12)  # not a multiple of 8
    with pytest.raises(ArgumentError, match="not a multiple of the item size"):
        plan_launch(e, [a])
    # None strides mean C-contiguous
    b = FakeDevArray((3, 4, 5), "float64")
    k3 = entry(kernel("k3", A("a", "float64", 3, "C")))
    assert [v for _, v in plan_launch(k3, [b]).params[4:]] == [20, 5, 1]


def test_layout_promises_c_f_a():
    c2 = entry(kernel("c2", A("a", "float32", 2, "C")))
    f2 = entry(kernel("f2", A("a", "float32", 2, "F")))
    a2 = entry(kernel("a2", A("a", "float32", 2, "A")))
    c_arr, f_arr = arr((3, 4)), arr((3, 4), strides=(1, 3))
    odd = arr((3, 4), strides=(8, 2))
    plan_launch(c2, [c_arr]), plan_launch(f2, [f_arr])
    for e, a in ((c2, f_arr), (f2, c_arr), (c2, odd), (f2, odd)):
        with pytest.raises(ArgumentError, match="layout"):
            plan_launch(e, [a])
    for a in (c_arr, f_arr, odd):
        plan_launch(a2, [a])
    # ABI C promise is the last stride only: a row-sliced C array still qualifies.
    plan_launch(c2, [arr((3, 4), strides=(8, 1))])
    # extent <= 1: the stride is irrelevant, and is passed as 1 to honour the promise
    p = plan_launch(c2, [arr((3, 1), strides=(1, 7))])
    assert p.params[-1] == ("int64", 1)


def test_negative_strides_allowed_for_A():
    e = entry(kernel("k", A("a", "int32", 1, "A")))
    assert plan_launch(e, [arr((5,), "int32", strides=(-1,))]).params[-1] == ("int64", -1)
    with pytest.raises(ArgumentError):
        plan_launch(entry(kernel("k", A("a", "int32", 1, "C"))),
                    [arr((5,), "int32", strides=(-1,))])


def test_scalar_ranges_and_types():
    e = entry(kernel("k", S("n", "int32"), S("b", "bool"), S("u", "uint8"),
                     S("h", "float16"), S("z", "complex64")))
    p = plan_launch(e, [7, True, np.uint8(255), 1.5, 1 + 2j])
    # docs/ABI.md: a complex scalar is two parameters (real, imaginary).
    assert p.params == [("int32", 7), ("bool", 1), ("uint8", 255), ("float16", 1.5),
                        ("float32", 1.0), ("float32", 2.0)]
    packed = p.packed()
    assert packed[0].dtype == np.int32 and packed[1].dtype == np.uint8 and packed[1] == 1
    assert packed[3].dtype == np.uint16 and packed[3] == np.float16(1.5).view(np.uint16)
    assert packed[4].dtype == np.float32 and packed[5].dtype == np.float32
    with pytest.raises(ArgumentError, match=r"'n'.*out of range for int32"):
        plan_launch(e, [2**31, True, 1, 1.0, 0j])
    with pytest.raises(ArgumentError, match="out of range for uint8"):
        plan_launch(e, [1, True, -1, 1.0, 0j])
    with pytest.raises(ArgumentError, match=r"'b'.*expected bool"):
        plan_launch(e, [1, 1, 1, 1.0, 0j])
    with pytest.raises(ArgumentError, match=r"'n'.*expected int32"):
        plan_launch(e, [1.0, True, 1, 1.0, 0j])
    with pytest.raises(ArgumentError, match="bool is not a number"):
        plan_launch(e, [True, True, 1, 1.0, 0j])
    with pytest.raises(ArgumentError, match="out of range for float16"):
        plan_launch(e, [1, True, 1, 1e6, 0j])
    with pytest.raises(ArgumentError, match="expected float16"):
        plan_launch(e, [1, True, 1, 1j, 0j])


def test_int64_scalar_is_8_bytes():
    e = entry(kernel("k", S("n", "int64"), S("f", "float64")))
    packed = plan_launch(e, [2**40, 3]).packed()
    assert packed[0].dtype == np.int64 and packed[0] == 2**40
    assert packed[1].dtype == np.float64 and packed[1] == 3.0


def test_tuple_params_flatten_in_order():
    tup = {"name": "t", "kind": "tuple", "sig": "Tuple(int32, float32[::1])", "elements": [
        {"name": "", "kind": "scalar", "dtype": "int32"},
        {"name": "", "kind": "array", "dtype": "float32", "ndim": 1, "layout": "C"}]}
    e = entry(kernel("k", tup, S("s", "float64")))
    p = plan_launch(e, [(3, arr((4,), ptr=0x10)), 2.0])
    assert p.params == [("int32", 3), ("pointer", 0x10), ("int64", 4), ("int64", 1),
                        ("float64", 2.0)]
    with pytest.raises(ArgumentError, match="element 1"):
        plan_launch(e, [(3, arr((4,), "float64")), 2.0])
    with pytest.raises(ArgumentError, match="2 elements"):
        plan_launch(e, [(3,), 2.0])


def test_dataclass_params_flatten_in_field_order():
    """A frozen dataclass parameter (manifest `class`, docs/ABI.md): an instance is flattened
    as the tuple of its fields in field order (lists as tuples), as cuTile's calling
    convention v3 does; a plain tuple of the field values is taken too."""
    import dataclasses
    from typing import Any

    @dataclasses.dataclass(frozen=True)
    class Job:
        src: Any
        idx: Any
        val: float

    @dataclasses.dataclass
    class Thawed:
        src: Any
        idx: Any
        val: float

    @dataclasses.dataclass(frozen=True)
    class Other:
        src: Any
        idx: Any
        val: float

    job = {"name": "job", "kind": "tuple", "class": "Job", "sig": "Job(float32[::1], UniTuple(int32, 2), float32)",
           "elements": [
               {"name": "job.src", "field": "src", "kind": "array", "dtype": "float32", "ndim": 1, "layout": "C"},
               {"name": "job.idx", "field": "idx", "kind": "tuple", "elements": [
                   {"name": "job.idx[0]", "kind": "scalar", "dtype": "int32"},
                   {"name": "job.idx[1]", "kind": "scalar", "dtype": "int32"}]},
               {"name": "job.val", "field": "val", "kind": "scalar", "dtype": "float32"}]}
    e = entry(kernel("k", job))
    assert e.params[0].cls == "Job" and e.params[0].type_str() == "Job(float32[::1], Tuple(int32, int32), float32)"
    want = [("pointer", 0x10), ("int64", 4), ("int64", 1), ("int32", 1), ("int32", 2), ("float32", 5.0)]
    assert plan_launch(e, [Job(arr((4,), ptr=0x10), (1, 2), 5.0)]).params == want
    assert plan_launch(e, [Job(arr((4,), ptr=0x10), [1, 2], 5.0)]).params == want
    assert plan_launch(e, [(arr((4,), ptr=0x10), (1, 2), 5.0)]).params == want
    with pytest.raises(ArgumentError, match="Only frozen dataclasses"):
        plan_launch(e, [Thawed(arr((4,), ptr=0x10), (1, 2), 5.0)])
    with pytest.raises(ArgumentError, match="expected Job"):
        plan_launch(e, [Other(arr((4,), ptr=0x10), (1, 2), 5.0)])
    with pytest.raises(ArgumentError, match="element 0"):
        plan_launch(e, [Job(arr((4,), "float64"), (1, 2), 5.0)])


def test_numpy_arrays_are_uploaded_after_all_checks_and_copied_back():
    e = entry(SAXPY)
    uploads = []

    def upload(a):
        assert a.flags.c_contiguous
        uploads.append(a)
        return FakeDevArray(a.shape, a.dtype, ptr=0x9000 + len(uploads))

    x = np.ones(8, np.float32)
    ro = np.ones(8, np.float32)
    ro.flags.writeable = False
    out = np.zeros(8, np.float32)
    plan = plan_launch(e, [2.0, x, ro, out], upload=upload)
    assert [h is x or h is out for h, _ in plan.copy_back] == [True, True]
    assert len(plan.copy_back) == 2  # the read-only array is not copied back
    assert plan.params[1] == ("pointer", 0x9001)
    # A failing check must not upload anything.
    uploads.clear()
    with pytest.raises(ArgumentError):
        plan_launch(e, [2.0, x, np.ones(8, np.float64), out], upload=upload)
    assert uploads == []
    # Strided NumPy views are refused for a C kernel as well.
    with pytest.raises(ArgumentError, match="strided"):
        plan_launch(e, [2.0, x, np.ones(16, np.float32)[::2], out], upload=upload)
    with pytest.raises(ArgumentError, match="no upload function"):
        plan_launch(e, [2.0, x, x, out])


def test_numpy_f_order_upload_keeps_layout():
    e = entry(kernel("k", A("a", "float32", 2, "F")))
    seen = []

    def upload(a):
        seen.append(a)
        return FakeDevArray(a.shape, a.dtype, strides=(1, a.shape[0]))

    h = np.asfortranarray(np.ones((3, 4), np.float32))
    p = plan_launch(e, [h], upload=upload)
    assert seen[0].flags.f_contiguous and p.params[3:] == [("int64", 1), ("int64", 3)]


def test_cai_stream_and_mask():
    e = entry(kernel("k", A("a", "float32", 1, "A")))
    p = plan_launch(e, [arr((4,), stream=0xABC)])
    assert p.wait_streams == {0xABC}
    assert plan_launch(e, [arr((4,), stream=1)]).wait_streams == set()
    with pytest.raises(ArgumentError, match="masked"):
        plan_launch(e, [arr((4,), mask=object())])
    bad = FakeDevArray((4,), ">f4")
    with pytest.raises(ArgumentError, match="byte order"):
        plan_launch(e, [bad])


def test_dlpack_capsule_reader_on_host_tensor():
    from pykc._args import dlpack_to_array
    base = np.arange(20, dtype=np.float64).reshape(4, 5)
    view = base[1:, ::2]
    a = dlpack_to_array(view.__dlpack__())
    assert a.dtype == np.float64 and a.shape == (3, 3) and a.strides == (5, 2)
    assert a.ptr == view.__array_interface__["data"][0]
    b = dlpack_to_array(np.zeros(3, np.bool_).__dlpack__())
    assert b.dtype == np.bool_ and b.strides in ((1,),)


class FakeDLPackCPU:
    def __init__(self, a):
        self.a = a

    def __dlpack__(self, stream=None):
        return self.a.__dlpack__()

    def __dlpack_device__(self):
        return (1, 0)


def test_dlpack_host_objects_behave_like_numpy():
    d = describe(FakeDLPackCPU(np.ones(4, np.float32)))
    assert d.host is not None and d.dtype == np.float32


def test_unsupported_argument_type():
    with pytest.raises(ArgumentError, match="cannot pass an argument of type str"):
        describe("hello")
    with pytest.raises(ArgumentError, match="cannot pass"):
        describe([1.0, 2.0])


# ----------------------------------------------------------------------------- dispatch

def test_overload_selection_exact_dtype_and_layout():
    es = entries(kernel("k", A("a", "float32", 1, "C"), symbol="k_f32C"),
                 kernel("k", A("a", "float32", 1, "A"), symbol="k_f32A"),
                 kernel("k", A("a", "float64", 1, "C"), symbol="k_f64C"))
    assert select_entry(es, [describe(arr((8,)))]).symbol == "k_f32C"
    assert select_entry(es, [describe(arr((8,), strides=(2,)))]).symbol == "k_f32A"
    assert select_entry(es, [describe(arr((8,), "float64"))]).symbol == "k_f64C"
    with pytest.raises(ArgumentError) as ei:
        select_entry(es, [describe(arr((8,), "int32"))])
    msg = str(ei.value)
    assert "no signature of kernel 'k'" in msg
    assert msg.count("void(") == 3  # lists every available signature with its reason


def test_overload_selection_scalars_like_numba():
    es = entries(kernel("s", S("v", "int32"), symbol="s_i32"),
                 kernel("s", S("v", "int64"), symbol="s_i64"),
                 kernel("s", S("v", "float32"), symbol="s_f32"),
                 kernel("s", S("v", "float64"), symbol="s_f64"))
    pick = lambda v: select_entry(es, [describe(v)]).symbol  # noqa: E731
    assert pick(5) == "s_i64"                 # Python int is int64
    assert pick(5.0) == "s_f64"               # Python float is float64
    assert pick(np.int32(5)) == "s_i32"       # NumPy scalars by dtype
    assert pick(np.float32(5)) == "s_f32"
    # a single int32 signature accepts a Python int in range
    one = entries(kernel("s", S("v", "int32")))
    assert select_entry(one, [describe(7)]) is one[0]
    with pytest.raises(ArgumentError, match="out of range for int32"):
        select_entry(one, [describe(2**31)])


def test_ambiguous_overloads_raise():
    es = entries(kernel("k", S("v", "int32"), symbol="a"),
                 kernel("k", S("v", "int16"), symbol="b"))
    with pytest.raises(ArgumentError, match="ambiguous"):
        select_entry(es, [describe(3)])


# ----------------------------------------------------------------------------- manifest

def test_read_manifest_folder_and_file(tmp_path):
    (tmp_path / "manifest.json").write_text(json.dumps(manifest_dict(SAXPY)))
    for p in (tmp_path, tmp_path / "manifest.json"):
        m = pykc.read_manifest(str(p))
        assert m.kernels[0].symbol == "saxpy__f32_f32a1C_f32a1C_f32a1C"
        assert m.kernels[0].params[1].type_str() == "float32[::1]"
        assert m.targets[0].cubin == str(tmp_path / "k.sm_90.cubin")
        assert m.kernels[0].max_threads_per_block("sm_90") == 1024


def test_manifest_errors(tmp_path):
    with pytest.raises(ManifestError, match="cannot read"):
        pykc.read_manifest(str(tmp_path))
    (tmp_path / "manifest.json").write_text("{}")
    with pytest.raises(ManifestError, match="not a pykc manifest"):
        pykc.read_manifest(str(tmp_path))
    d = manifest_dict(SAXPY)
    d["abi_version"] = 2
    (tmp_path / "manifest.json").write_text(json.dumps(d))
    with pytest.raises(ManifestError, match="ABI version 2"):
        pykc.read_manifest(str(tmp_path))
    d = manifest_dict({**SAXPY, "params": [{"name": "a", "kind": "scalar", "dtype": "f32"}]})
    (tmp_path / "manifest.json").write_text(json.dumps(d))
    with pytest.raises(ManifestError, match="unknown dtype"):
        pykc.read_manifest(str(tmp_path))


def T(arch, cubin=True, ptx=True):
    return Target(arch, f"{arch}.cubin" if cubin else None, f"{arch}.ptx" if ptx else None)


def test_select_target():
    ts = [T("sm_75"), T("sm_80"), T("sm_86"), T("sm_90")]
    assert select_target(ts, (9, 0))[0].arch == "sm_90"
    assert select_target(ts, (8, 9))[0].arch == "sm_86"   # newest same major, not newer
    assert select_target(ts, (8, 0))[0].arch == "sm_80"
    # the arch-specific cubin of the device's own chip first (wgmma)
    assert select_target([T("sm_90a"), T("sm_90")], (9, 0))[0].arch == "sm_90a"
    assert select_target([T("sm_90"), T("sm_90a")], (9, 0))[0].arch == "sm_90a"
    assert select_target([T("sm_90a"), T("sm_80")], (9, 0))[0].arch == "sm_90a"
    # sm_90a runs only on exactly 9.0; no same-major cubin -> PTX JIT of the newest PTX
    t, kind = select_target([T("sm_90a"), T("sm_90")], (10, 0))
    assert (t.arch, kind) == ("sm_90", "ptx")
    with pytest.raises(ManifestError, match=r"runs on this GPU \(sm_75, compute capability 7.5\): "
                       r"it holds cubins for sm_80 and PTX for no arch; compile with --arch sm_75"):
        select_target([T("sm_80")], (7, 5))
    # `a` PTX only on its own arch (the driver's JIT of sm_90a PTX needs 9.0 exactly)
    assert select_target([T("sm_90a", cubin=False)], (9, 0))[1] == "ptx"
    with pytest.raises(ManifestError, match="sm_100.*PTX for sm_90a"):
        select_target([T("sm_90a", cubin=False)], (10, 0))


def test_choose_exact_compatible_ptx():
    """The loader's three steps (docs/LOADER.md, "Which code runs"), with the reason."""
    from pykc._manifest import choose
    ts = [T(a, ptx=False) for a in ("sm_80", "sm_90", "sm_100", "sm_120")] + [T("compute_90", cubin=False)]
    assert [(t.arch, k, how) for t, k, how in [choose(ts, (9, 0))]] == [("sm_90", "cubin", "exact cubin")]
    t, kind, how = choose(ts, (10, 3))                  # B300: sm_100's cubin runs there
    assert (t.arch, kind, how) == ("sm_100", "cubin", "compatible cubin")
    t, kind, how = choose(ts, (12, 1))                  # DGX Spark: sm_120's
    assert (t.arch, how) == ("sm_120", "compatible cubin")
    t, kind, how = choose(ts, (11, 0))                  # Thor: no 11.x cubin -> PTX
    assert (t.arch, kind, how) == ("compute_90", "ptx", "PTX")
    t, kind, how = choose(ts, (8, 9))                   # same major, older minor
    assert (t.arch, how) == ("sm_80", "compatible cubin")
    # `f` counts as its major's family; `a` of another minor never
    assert choose([T("sm_100f"), T("sm_100a")], (10, 3))[0].arch == "sm_100f"
    assert choose([T("sm_100a"), T("sm_100f"), T("sm_100")], (10, 0))[0].arch == "sm_100a"
    assert choose([T("sm_100f"), T("sm_100")], (10, 0))[0].arch == "sm_100"
    assert choose([T("sm_100a"), T("sm_100f")], (10, 0))[0].arch == "sm_100a"
    with pytest.raises(ManifestError, match=r"sm_103.*cubins for sm_100a and PTX for no arch"):
        choose([T("sm_100a", ptx=False)], (10, 3))
    # An sm_100 target's PTX is sm_90's (ptx_target): usable on 9.0 through the JIT
    ts = [Target("sm_100", "k.sm_100.cubin", "k.sm_100.ptx", "sm_90")]
    t, kind, how = choose(ts, (9, 0))
    assert (t.arch, kind) == ("sm_100", "ptx")
    with pytest.raises(ManifestError, match="sm_89"):
        choose(ts, (8, 9))


def test_load_picks_from_the_fatbin_and_logs_it(tmp_path, caplog):
    """With a fatbin the loader loads it (the driver picks) and logs what runs."""
    import logging
    d = manifest_dict(SAXPY, targets=(
        {"arch": "sm_80", "cubin": "k.sm_80.cubin"}, {"arch": "sm_90", "cubin": "k.sm_90.cubin"},
        {"arch": "sm_100", "cubin": "k.sm_100.cubin", "ptx_target": "sm_90"},
        {"arch": "compute_90", "ptx": "k.compute_90.ptx"}))
    d["fatbin"] = {"file": "k.fatbin", "cubins": ["sm_80", "sm_90", "sm_100"], "ptx": ["compute_90"]}
    (tmp_path / "manifest.json").write_text(json.dumps(d))
    m = pykc.read_manifest(str(tmp_path))
    assert m.fatbin.path == str(tmp_path / "k.fatbin") and m.targets[2].ptx_target == "sm_90"
    with caplog.at_level(logging.DEBUG, logger="pykc"):
        target, kind, code, load_kind = pykc.choose_code(m, (9, 0))
    assert (target.arch, kind, code, load_kind) == ("sm_90", "cubin", str(tmp_path / "k.fatbin"), "fatbin")
    assert "exact cubin on this GPU (sm_90): sm_90" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="pykc"):
        target, kind, _, load_kind = pykc.choose_code(m, (12, 0))
    assert (target.arch, kind, load_kind) == ("compute_90", "ptx", "fatbin")
    assert "PTX on this GPU (sm_120): compute_90 (the driver's JIT)" in caplog.text
    with pytest.raises(ManifestError, match=r"no code in .*\(fatbin\) runs on this GPU \(sm_75"):
        pykc.choose_code(m, (7, 5))
    # Without the fatbin: the files themselves
    del d["fatbin"]
    (tmp_path / "manifest.json").write_text(json.dumps(d))
    target, kind, code, load_kind = pykc.choose_code(pykc.read_manifest(str(tmp_path)), (8, 6))
    assert (target.arch, code, load_kind) == ("sm_80", str(tmp_path / "k.sm_80.cubin"), "cubin")


def test_module_loads_the_fatbin_through_the_backend(tmp_path):
    """Module hands the fatbin's path and kind to the backend (cuda.core's from_fatbin,
    CuPy's RawModule): a fake backend records what it is asked to load."""
    d = manifest_dict(SAXPY, targets=({"arch": "sm_90", "cubin": "k.sm_90.cubin"},))
    d["fatbin"] = {"file": "k.fatbin", "cubins": ["sm_90"], "ptx": []}
    (tmp_path / "manifest.json").write_text(json.dumps(d))

    class Fake:
        name, cc_version = "fake", (9, 0)

        def load(self, code, kind):
            self.loaded = (code, kind)
            return object()

        def get_function(self, module, symbol, cooperative):
            return symbol

    be = Fake()
    mod = pykc.Module(pykc.read_manifest(str(tmp_path)), be)
    assert be.loaded == (str(tmp_path / "k.fatbin"), "fatbin")
    assert (mod.target.arch, mod.code_kind) == ("sm_90", "cubin")
    be.cc_version = (8, 0)
    with pytest.raises(ManifestError, match=r"sm_80.*cubins for sm_90"):
        pykc.Module(pykc.read_manifest(str(tmp_path)), be)


def test_launch_config_normalisation():
    assert pykc.normalize_dims(128, "block") == (128, 1, 1)
    assert pykc.normalize_dims((4, 2), "grid") == (4, 2, 1)
    for bad in (0, (1, 2, 3, 4), (), (2.0,), -1):
        with pytest.raises(ValueError):
            pykc.normalize_dims(bad, "grid")
    assert pykc.normalize_dims(((1 << 31) - 1, 65535, 65535), "grid") == \
        ((1 << 31) - 1, 65535, 65535)
    for bad in (1 << 31, (1, 65536), (1, 1, 1 << 40)):   # past CUDA's grid: said, not cut
        with pytest.raises(ValueError, match="larger than CUDA allows"):
            pykc.normalize_dims(bad, "grid")


def test_load_without_gpu_reports_every_backend(tmp_path, monkeypatch):
    """On a machine without CUDA, load fails with a clear message naming each backend."""
    (tmp_path / "manifest.json").write_text(json.dumps(manifest_dict(SAXPY)))
    monkeypatch.delenv("PYKC_BACKEND", raising=False)

    class Broken:
        def __init__(self, device):
            raise RuntimeError("no driver")

    monkeypatch.setattr(pykc, "BACKENDS", {"cuda.core": Broken, "cupy": Broken})
    with pytest.raises(RuntimeError, match=r"(?s)cuda\.core: RuntimeError: no driver.*cupy"):
        pykc.load(str(tmp_path))


# --------------------------------------------------------------------------- tile kernels

def _tile_kernel(tile):
    arrays = [{"name": n, "kind": "array", "dtype": "float32", "ndim": 1, "layout": "C"}
              for n in ("a", "b", "c")]
    return {"name": "vector_add",
            "signature": f"void(float32[::1], float32[::1], float32[::1], tile_size={tile})",
            "symbol": f"vector_add__f32a1C_f32a1C_f32a1C__Ktile_size_{tile}",
            "params": arrays, "cooperative": False, "dynamic_shared_memory": False,
            "tile": {"block": [128 if tile < 4096 else 256, 1, 1],
                     "constants": [{"name": "tile_size", "position": 3, "value": tile}]},
            "resources": {"sm_90": {"registers": 32, "max_threads_per_block": 1024}}}


class FakeBackend:
    """Records launches; no CUDA."""
    cc_version = (9, 0)

    def __init__(self):
        self.launches = []

    def load(self, path, kind):
        return object()

    def get_function(self, code, symbol, cooperative):
        return symbol

    def stream(self, handle):
        return handle

    def wait_for(self, streams, stream, handle):
        pass

    def launch(self, fn, grid, block, shared, cooperative, stream, packed):
        self.launches.append((fn, grid, block, len(packed)))
        self.shared = getattr(self, "shared", []) + [shared]

    def sync(self, stream):
        pass


def test_tile_launch_picks_the_specialisation_and_block(tmp_path):
    """pykc.launch(stream, grid, kernel, args) as ct.launch: Constant args select the
    specialisation and are not passed; the block is the manifest's."""
    (tmp_path / "manifest.json").write_text(
        json.dumps(manifest_dict(_tile_kernel(1024), _tile_kernel(4096))))
    be = FakeBackend()
    mod = pykc.Module(pykc.read_manifest(str(tmp_path)), be)
    a, b, c = arr((5000,)), arr((5000,)), arr((5000,))
    pykc.launch(None, (5,), mod.vector_add, (a, b, c, 1024))
    pykc.launch(None, 2, mod.vector_add, (a, b, c, 4096))
    assert be.launches[0][:3] == ("vector_add__f32a1C_f32a1C_f32a1C__Ktile_size_1024",
                                  (5, 1, 1), (128, 1, 1))
    assert be.launches[1][:3] == ("vector_add__f32a1C_f32a1C_f32a1C__Ktile_size_4096",
                                  (2, 1, 1), (256, 1, 1))
    # Three arrays of 1 + 2 parameters each; the Constant is not passed.
    assert be.launches[0][3] == 9
    with pytest.raises(ArgumentError, match=r"tile_size=512 given, compiled for tile_size=1024"):
        pykc.launch(None, 5, mod.vector_add, (a, b, c, 512))
    with pytest.raises(ArgumentError, match=r"takes 4 arguments, 3 given"):
        pykc.launch(None, 5, mod.vector_add, (a, b, c))
    with pytest.raises(ArgumentError, match=r"'c'.*float64"):
        pykc.launch(None, 5, mod.vector_add, (a, b, arr((5000,), "float64"), 1024))
    with pytest.raises(ValueError, match="tile kernel"):
        mod.vector_add[5, 128](a, b, c)


def test_tile_launch_passes_the_dynamic_shared_memory_of_its_arch(tmp_path):
    """A tile kernel past 48 KiB of shared memory (docs/ABI.md): every launch passes
    the manifest's per-arch dynamic_shared_bytes; without it, none."""
    big = _tile_kernel(1024)
    big["resources"]["sm_90"]["dynamic_shared_bytes"] = 99328
    (tmp_path / "manifest.json").write_text(json.dumps(manifest_dict(big, _tile_kernel(4096))))
    be = FakeBackend()
    mod = pykc.Module(pykc.read_manifest(str(tmp_path)), be)
    a, b, c = arr((5000,)), arr((5000,)), arr((5000,))
    pykc.launch(None, (5,), mod.vector_add, (a, b, c, 1024))
    pykc.launch(None, (5,), mod.vector_add, (a, b, c, 4096))
    assert be.shared == [99328, 0]


def test_tile_launch_matches_tuple_none_and_string_constants(tmp_path):
    """The manifest writes a tuple Constant as an array, None as null, a string as itself
    (cuTile's test_tuple_arguments passes `shape=(8,)`): the launcher matches them."""
    k = _tile_kernel(1024)
    k["tile"]["constants"] = [{"name": "shape", "position": 3, "value": [8, [1, 2]]},
                              {"name": "mode", "position": 4, "value": "fast"},
                              {"name": "extra", "position": 5, "value": None}]
    (tmp_path / "manifest.json").write_text(json.dumps(manifest_dict(k)))
    be = FakeBackend()
    mod = pykc.Module(pykc.read_manifest(str(tmp_path)), be)
    a, b, c = arr((64,)), arr((64,)), arr((64,))
    pykc.launch(None, 1, mod.vector_add, (a, b, c, (8, (1, 2)), "fast", None))
    assert len(be.launches) == 1 and be.launches[0][3] == 9
    for wrong in [((8,), "fast", None), ((8, (1, 3)), "fast", None), ((8, (1, 2)), "slow", None),
                  ((8, (1, 2)), "fast", 0), (8, "fast", None)]:
        with pytest.raises(ArgumentError, match="compiled for"):
            pykc.launch(None, 1, mod.vector_add, (a, b, c) + wrong)


def test_tile_manifest_errors(tmp_path):
    bad = _tile_kernel(1024)
    bad["tile"] = {"block": [0, 1, 1], "constants": []}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest_dict(bad)))
    with pytest.raises(ManifestError, match="bad tile block"):
        pykc.read_manifest(str(tmp_path))


# ----------------------------------------------------------------------------- records

def test_record_arrays_match_structured_dtypes_by_fields_offsets_and_itemsize():
    aligned = np.dtype([("x", np.float32), ("n", np.int8), ("m", np.float64)], align=True)
    p = A("p", "record", 1, "C")
    p["sig"] = "Record(...)[::1]"
    p["record"] = {"names": ["x", "n", "m"], "formats": ["float32", "int8", "float64"],
                   "offsets": [0, 4, 8], "itemsize": 16, "aligned": True}
    e = entry(kernel("k", p))
    # NumPy (host) and __cuda_array_interface__ (with `descr`, padding included).
    assert select_entry([e], [describe(np.zeros(5, aligned))]) is e
    dev = FakeDevArray((5,), "float32")
    dev.__cuda_array_interface__["typestr"] = aligned.str
    dev.__cuda_array_interface__["descr"] = aligned.descr
    assert plan_launch(e, [dev]).params[1:] == [("int64", 5), ("int64", 1)]
    packed = np.dtype([("x", np.float32), ("n", np.int8), ("m", np.float64)])
    with pytest.raises(ArgumentError, match="dtype differs"):
        select_entry([e], [describe(np.zeros(5, packed))])
    renamed = np.dtype([("x", np.float32), ("k", np.int8), ("m", np.float64)], align=True)
    with pytest.raises(ArgumentError, match="dtype differs"):
        select_entry([e], [describe(np.zeros(5, renamed))])
    with pytest.raises(ArgumentError, match="expected record"):
        select_entry([e], [describe(np.zeros(5, np.float32))])


def test_numpy_record_arrays_upload_with_descr():
    from pykc._backends import _DeviceCopy
    aligned = np.dtype([("x", np.float32), ("n", np.int8), ("m", np.float64)], align=True)
    p = A("p", "record", 1, "C")
    p["sig"] = "Record(...)[::1]"
    p["record"] = {"names": ["x", "n", "m"], "formats": ["float32", "int8", "float64"],
                   "offsets": [0, 4, 8], "itemsize": 16, "aligned": True}
    e = entry(kernel("k", p))
    # The device copy's __cuda_array_interface__ carries `descr` (padding included), so
    # the structured dtype survives the upload.
    plan = plan_launch(e, [np.zeros(5, aligned)], upload=lambda a: _DeviceCopy(0x9000, a))
    assert plan.params == [("pointer", 0x9000), ("int64", 5), ("int64", 1)]


class _NoGpuBackend:
    """Just enough of a backend for Module: loads nothing, resolves every symbol."""
    cc_version = (9, 0)

    def load(self, code, kind):
        return object()

    def get_function(self, module, symbol, cooperative):
        return symbol


def test_private_kernel_names_are_attributes(tmp_path):
    # Kernels named `_like_this` (TileGym, xarray-spatial) are reached as mod._like_this,
    # as numba's module attributes are; dunder lookups stay Python's.
    with open(tmp_path / "manifest.json", "w") as f:
        json.dump(manifest_dict(kernel("_run_gpu", S("n", "int32")), kernel("public", S("n", "int32"))), f)
    (tmp_path / "k.sm_90.cubin").write_bytes(b"")
    mod = pykc.Module(pykc.read_manifest(str(tmp_path)), _NoGpuBackend())
    assert mod._run_gpu is mod["_run_gpu"]
    assert mod.public is mod["public"]
    with pytest.raises(AttributeError):
        mod.__wrapped__
    with pytest.raises(AttributeError, match="no kernel '_missing'"):
        mod._missing


def _partial_kernel(n):
    """A tile kernel with a tuple parameter whose element 0 is a ct.Constant (as
    `pykc compile --const cfg[0]=N` writes it): the tuple is still passed."""
    arrays = [{"name": x, "kind": "array", "dtype": "int32", "ndim": 1, "layout": "C"} for x in ("a", "out")]
    cfg = {"name": "cfg", "kind": "tuple", "elements": [
        {"name": "cfg[0]", "kind": "scalar", "dtype": "int32"},
        {"name": "cfg[1]", "kind": "scalar", "dtype": "int32"}]}
    return {"name": "partial", "signature": f"void(int32[::1], int32[::1], Tuple(int32, int32), cfg[0]={n})",
            "symbol": f"partial__i32a1C_i32a1C_t2i32i32__Kcfg$005B0$005D_{n}",
            "params": arrays + [cfg], "cooperative": False, "dynamic_shared_memory": False,
            "tile": {"block": [64, 1, 1],
                     "constants": [{"name": "cfg[0]", "position": 2, "value": n, "element": [0]}]},
            "resources": {"sm_90": {"registers": 32, "max_threads_per_block": 1024}}}


def test_tile_launch_checks_constant_elements_of_tuples(tmp_path):
    """cuTile's `cfg: tuple[ct.Constant[int], int]`: the element picks the specialisation,
    and the whole tuple is passed (two int32 words)."""
    (tmp_path / "manifest.json").write_text(json.dumps(manifest_dict(_partial_kernel(8), _partial_kernel(16))))
    be = FakeBackend()
    mod = pykc.Module(pykc.read_manifest(str(tmp_path)), be)
    a, out = arr((16,), "int32"), arr((16,), "int32")
    pykc.launch(None, 1, mod.partial, (a, out, (16, 5)))
    pykc.launch(None, 1, mod.partial, (a, out, (8, 5)))
    assert [x[0] for x in be.launches] == ["partial__i32a1C_i32a1C_t2i32i32__Kcfg$005B0$005D_16",
                                          "partial__i32a1C_i32a1C_t2i32i32__Kcfg$005B0$005D_8"]
    with pytest.raises(ArgumentError, match=r"cfg\[0\]=4 given, compiled for cfg\[0\]=8"):
        pykc.launch(None, 1, mod.partial, (a, out, (4, 5)))
    with pytest.raises(ArgumentError, match=r"cfg\[0\]=None given"):
        pykc.launch(None, 1, mod.partial, (a, out, 7))


def test_tile_jit_types_dataclass_arguments():
    """pykc.tile types a frozen dataclass argument as `--sig` writes it: `Class(field types)`."""
    import dataclasses
    from typing import Any

    from pykc.tile import _arg_text

    @dataclasses.dataclass(frozen=True)
    class Arg:
        a: Any
        b: float

    assert _arg_text(describe(Arg(np.zeros(3, np.float32), (1, 2)))) == "Arg(float32[::1], UniTuple(int32, 2))"
    assert _arg_text(describe((Arg(1, 2.5), Arg(3, 4.5)))) == "UniTuple(Arg(int32, float32), 2)"
