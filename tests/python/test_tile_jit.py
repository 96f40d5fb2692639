"""pykc.tile (cuTile's host API) without a GPU: Constants found from annotations (also
through aliases and string annotations), argument types as cuTile gives them, compiles
through libpykc, `import cuda.tile as ct` under pykc.install()."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pykc.tile as ct  # the string annotation in test_constants_and_types names it

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
pytestmark = pytest.mark.skipif(not os.path.exists(os.path.join(ROOT, "build", "lib",
                                                                "libpykc.so")),
                                reason="libpykc is not built")

SOURCE = '''
import pykc.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def vec_add(a, b, c, TILE: ConstInt):
    """cuTile's VectorAddition sample's 1-d kernel."""
    bid = ct.bid(0)
    a_tile = ct.load(a, index=(bid,), shape=(TILE,))
    b_tile = ct.load(b, index=(bid,), shape=(TILE,))
    ct.store(c, index=(bid,), tile=a_tile + b_tile)


@ct.kernel(num_ctas=ct.ByTarget(sm_100=2, default=1))
def scale(x, s: float, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    ct.store(x, index=(bid,), tile=ct.load(x, index=(bid,), shape=(TILE,)) * s)
'''


@pytest.fixture()
def mod(tmp_path, monkeypatch):
    monkeypatch.setenv("PYKC_ARCH", "sm_90")
    monkeypatch.setenv("PYKC_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "tile_jit_kernels.py").write_text(SOURCE)
    sys.path.insert(0, str(tmp_path))
    import importlib
    sys.modules.pop("tile_jit_kernels", None)
    try:
        yield importlib.import_module("tile_jit_kernels")
    finally:
        sys.path.remove(str(tmp_path))


def test_constants_and_types(mod):
    from pykc._typeof import describe
    from pykc.tile import _arg_text
    assert mod.vec_add._constants() == [3]
    assert mod.scale._constants() == [2]
    def string_annotations(x, TILE: "ct.Constant[int]"):
        pass
    assert ct.kernel(string_annotations)._constants() == [1]
    assert _arg_text(describe(np.zeros(4, np.float32))) == "float32[::1]"
    assert _arg_text(describe(2.0)) == "float32"       # cuTile: Python float is float32
    assert _arg_text(describe(3)) == "int32"
    assert ct.cdiv(1000, 128) == 8
    with pytest.raises(TypeError, match="ct.launch"):
        mod.vec_add(1, 2, 3, 4)


def test_compile_per_constant_value(mod):
    compiled, arch, _ = mod.vec_add._compile(("float32[::1]",) * 3, (("TILE", "1024"),))
    k = compiled.manifest["kernels"]
    assert arch == "sm_90" and len(k) == 1 and k[0]["tile"]["constants"][0]["value"] == 1024
    compiled, _, _ = mod.scale._compile(("float16[::1]", "float16"), (("TILE", "256"),))
    assert compiled.manifest["kernels"][0]["tile"]["constants"][0]["value"] == 256


def test_array_facts(mod):
    """cuTile's specialisation facts: a launch's arrays are typed with what holds for them
    (16-byte aligned base, strides of 16 bytes' multiples, 16-divisible extents); the
    compiler keeps them in the manifest; the loader refuses arrays that break them."""
    from pykc._args import ArgumentError, ArrayArg, match
    from pykc._manifest import parse_manifest
    f32 = np.dtype(np.float32)
    full = ArrayArg(f32, (64, 128), (128, 1), ptr=0x1000)
    want = ("float32[:, ::1].assume(alignment=16, stride_divisible_by=(4, 1), "
            "shape_divisible_by=(16, 16))")
    assert ct._arg_text(full) == want
    assert ct._arg_text(ArrayArg(f32, (100,), (1,), ptr=0x1004)) == "float32[::1]"
    assert ct._arg_text(ArrayArg(f32, (64, 100), (130, 1), ptr=0x1000)) == \
        "float32[:, ::1].assume(alignment=16, shape_divisible_by=(16, 1))"
    assert ct._arg_text(ArrayArg(np.dtype(np.float16), (1, 48), (7, 1), ptr=0x20)) == \
        "float16[:, ::1].assume(alignment=16, stride_divisible_by=(8, 1), shape_divisible_by=(1, 16))"
    vec = ArrayArg(f32, (4096,), (1,), ptr=0x1000)
    vec_text = "float32[::1].assume(alignment=16, shape_divisible_by=(16,))"
    assert ct._arg_text(vec) == vec_text
    compiled, _, path = mod.vec_add._compile((vec_text,) * 3, (("TILE", "1024"),))
    k = compiled.manifest["kernels"][0]
    assert k["params"][0]["alignment"] == 16 and k["params"][0]["shape_divisible_by"] == [16]
    assert "q16" in k["symbol"] and ".assume(alignment=16" in k["signature"]
    p = parse_manifest(compiled.manifest, path, None).kernels[0].params[0]
    assert p.type_str() == vec_text
    assert match(p, vec) == (0, 0)
    for bad, why in ((ArrayArg(f32, (4096,), (1,), ptr=0x1008), "multiple of 16 bytes"),
                     (ArrayArg(f32, (4008,), (1,), ptr=0x1000), "extent 0 must be a multiple of 16")):
        with pytest.raises(ArgumentError, match=why):
            match(p, bad)
    from pykc._manifest import Param
    p2 = Param("m", "array", "float32", 2, "C", alignment=16, stride_divisible_by=(4, 1))
    assert match(p2, full) == (0, 0)
    with pytest.raises(ArgumentError, match="stride 0 must be a multiple of 4"):
        match(p2, ArrayArg(f32, (64, 128), (130, 1), ptr=0x1000))


def test_import_cuda_tile_under_pykc_run(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(textwrap.dedent("""
        import cuda.tile as ct
        print(ct.__name__, ct.cdiv(10, 4), ct.Constant[int])
    """))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.join(ROOT, "python"), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-m", "pykc", "run", str(prog)], capture_output=True,
                       text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert "pykc.tile 3 ct.Constant[int]" in r.stdout


class _FakeTensor:
    """Stands for a PyTorch CUDA tensor in tile_arg_key (which reads data_ptr, shape,
    stride, dtype and is_cuda, and recognises tensors by class name and
    module)."""

    def __init__(self, shape, strides, ptr, dtype="torch.float32", cuda=True):
        self.shape, self._strides, self._ptr, self.dtype, self.is_cuda = \
            shape, strides, ptr, dtype, cuda

    def data_ptr(self):
        return self._ptr

    def stride(self):
        return self._strides

    def element_size(self):
        return 2 if "16" in self.dtype else 4


_FakeTensor.__name__, _FakeTensor.__module__ = "Tensor", "torch._fake"


def test_tile_fast_path_key():
    """ct.launch's fast-path key: tensors by dtype, ndim, layout and array facts (16-byte
    alignment, stride and extent divisors) with pointer, extents and element strides as
    values; Constant values in the key and not passed; Python scalars keyed by type;
    anything else to the checked path."""
    from pykc.cuda._fastlaunch import tile_arg_key
    a = _FakeTensor((64, 128), (128, 1), 0x1000)
    t = _FakeTensor((128, 64), (1, 128), 0x2000)
    key, values = tile_arg_key((a, t, 0.5, 16), frozenset({3}), 0)
    assert key == (("torch.float32", 2, ("C", (4, 1), (16, 16)), True),
                   ("torch.float32", 2, ("F", (1, 4), (16, 16)), True), float, (int, 16))
    assert values == [0x1000, 64, 128, 128, 1, 0x2000, 128, 64, 1, 128, 0.5]
    # Another alignment, a ragged extent, an odd stride: other instances, other keys.
    for other in (_FakeTensor((64, 128), (128, 1), 0x1004), _FakeTensor((64, 100), (128, 1), 0x1000),
                  _FakeTensor((64, 128), (130, 1), 0x1000), _FakeTensor((64, 128), (130, 2), 0x1000)):
        assert tile_arg_key((other, t, 0.5, 16), frozenset({3}), 0)[0] != key
    assert tile_arg_key((a, t, 0.5, 32), frozenset({3}), 0)[0] != key   # another Constant
    assert tile_arg_key((a, t, 1, 16), frozenset({3}), 0)[0] != key     # int, not float
    assert tile_arg_key((_FakeTensor((4,), (1,), 0, cuda=False),), frozenset(), 0) == \
        (None, None)                                    # a CPU tensor: the checked path
    assert tile_arg_key((a, [1, 2]), frozenset(), 0) == (None, None)
    assert tile_arg_key((1 << 40,), frozenset(), 0) == (None, None)      # not an int32
    assert tile_arg_key((a, "x"), frozenset({1}), 0) == (None, None)     # Constant: a str


def test_hints_timeout_and_tune_without_gpu(mod, tmp_path):
    """replace_hints checks cuTile's options and shares compiled instances; unknown options
    are errors at decoration; compiler_timeout takes positive seconds and fails a compile
    that ran over; cuda.tile.tune is pykc's under pykc.install(), private cuTile modules
    are refused by name."""
    k = mod.vec_add.replace_hints(num_ctas=ct.ByTarget(sm_100=2, default=1), occupancy=2)
    assert k.options == {"num_ctas": k.options["num_ctas"], "occupancy": 2}
    assert mod.vec_add.options == {} and k._instances is mod.vec_add._instances
    assert k.__name__ == "vec_add" and isinstance(k, ct.TileKernel)
    with pytest.raises(TypeError, match="unknown option `num_stages`"):
        mod.vec_add.replace_hints(num_stages=3)
    with pytest.raises(TypeError, match="non-negative int"):
        mod.vec_add.replace_hints(occupancy="2")
    with pytest.raises(TypeError, match="unknown option `nctas`"):
        ct.kernel(nctas=2)(lambda x: None)
    for bad in (0, -1, "10", True):
        with pytest.raises(ValueError, match="positive number of seconds"):
            with ct.compiler_timeout(bad):
                pass
    with pytest.raises(ct.TileCompilerTimeoutError, match="over the 1e-06 s"):
        with ct.compiler_timeout(1e-6):
            mod.vec_add._compile(("float32[::1]",) * 3, (("TILE", "512"),))
    mod.vec_add._compile(("float32[::1]",) * 3, (("TILE", "512"),))  # no limit outside
    with pytest.raises(ValueError, match="Search space is empty"):
        ct.tune.exhaustive_search([], 0, lambda c: (1,), mod.vec_add, lambda c: ())
    prog = tmp_path / "prog_tune.py"
    prog.write_text(textwrap.dedent("""
        import cuda.tile as ct
        from cuda.tile.tune import exhaustive_search, TuningResult
        print(exhaustive_search is ct.tune.exhaustive_search, TuningResult.__module__)
        try:
            from cuda.tile._cext import get_compute_capability
        except ImportError as e:
            print("refused:", e)
    """))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.join(ROOT, "python"), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-m", "pykc", "run", str(prog)], capture_output=True,
                       text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert "True pykc.tile.tune" in r.stdout
    assert "refused: pykc provides cuda.tile's API; `cuda.tile._cext` is not part of it" \
        in r.stdout


def test_tuples_lists_and_int64_scalars(tmp_path, monkeypatch):
    """A list or tuple argument is typed as a tuple, its arrays without specialisation facts
    (a list of differently aligned tensors is one UniTuple type); ct.ScalarInt64 makes a
    Python int int64; the kernel compiles for those types."""
    from pykc._typeof import describe
    monkeypatch.setenv("PYKC_ARCH", "sm_90")
    monkeypatch.setenv("PYKC_CACHE_DIR", str(tmp_path / "cache"))
    a, b = np.zeros(64, np.float32), np.zeros(65, np.float32)[1:]
    assert ct._arg_text(describe((a, b))) == "UniTuple(float32[::1], 2)"
    assert ct._arg_text(describe((a, 3))) == "Tuple(float32[::1], int32)"
    assert ct._arg_text(describe(7), True) == "int64" and ct._arg_text(describe(7)) == "int32"
    (tmp_path / "tile_list_kernels.py").write_text(textwrap.dedent('''
        import pykc.tile as ct

        @ct.kernel
        def list_sum(xs, out, scale: ct.ScalarInt64, TILE: ct.Constant[int]):
            acc = ct.zeros((TILE,), dtype=ct.float32)
            for i in range(len(xs)):
                acc = acc + ct.load(xs[i], index=(ct.bid(0),), shape=(TILE,))
            ct.store(out, index=(ct.bid(0),), tile=acc * scale)
    '''))
    sys.path.insert(0, str(tmp_path))
    try:
        import importlib
        m = importlib.import_module("tile_list_kernels")
        assert m.list_sum._constants() == [3] and m.list_sum._int64_set == {2}
        compiled, _, _ = m.list_sum._compile(("UniTuple(float32[::1], 3)", "float32[::1]", "int64"),
                                             (("TILE", "128"),))
        k = compiled.manifest["kernels"][0]
        assert k["params"][0]["kind"] == "tuple" and len(k["params"][0]["elements"]) == 3
        assert k["params"][2]["dtype"] == "int64"
    finally:
        sys.path.remove(str(tmp_path))


NESTED = '''
import pykc.tile as ct

ConstInt = ct.Constant[int]


def make(scale, dtype):
    def helper(t):
        return t * scale

    @ct.kernel
    def k(x, y, TILE: ConstInt):
        """A kernel made by a factory: a closure over `scale`, `dtype` and `helper`."""
        bid = ct.bid(0)
        t = ct.load(x, index=(bid,), shape=(TILE,))
        ct.store(y, index=(bid,), tile=helper(t).astype(dtype))
    return k


def bad():
    @ct.kernel
    def wrong(x):
        t = ct.load(x, index=(0,), shape=(16,))
        ct.store(x, index=(0,), tile=t @ 2)
    return wrong
'''


def test_nested_kernels_and_cutile_errors(tmp_path, monkeypatch):
    """A tile kernel made inside a function compiles from the values it sees (the written
    module keeps the user's file and line numbers); a failed compile raises cuTile's
    exception classes, all pykc.CompileError subclasses."""
    monkeypatch.setenv("PYKC_ARCH", "sm_90")
    monkeypatch.setenv("PYKC_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "tile_nested.py").write_text(NESTED)
    sys.path.insert(0, str(tmp_path))
    try:
        import importlib
        sys.modules.pop("tile_nested", None)
        m = importlib.import_module("tile_nested")
        from pykc.tile._nested import nested_tile_source
        k = m.make(2.0, ct.float16)
        text = nested_tile_source(k._func)
        assert "scale = 2.0" in text and "dtype = __pykc_tile.float16" in text
        assert "ConstInt = __pykc_tile.Constant[int]" in text
        # The helper and the kernel stand at their own lines of the user's file.
        lines = text.splitlines()
        assert lines[7] == "def helper(t):" and lines[11] == "def k(x, y, TILE: ConstInt):"
        compiled, arch, path = k._compile(("float32[::1]", "float16[::1]"), (("TILE", "256"),))
        assert arch == "sm_90" and compiled.cubins["sm_90"][:4] == b"\x7fELF"
        assert path == str(tmp_path / "tile_nested.py")
        w = m.bad()
        with pytest.raises(ct.TileUnsupportedFeatureError) as info:
            w._compile(("float32[::1]",), ())  # `@` of 1-D tiles
        assert isinstance(info.value, ct.TileError) and isinstance(info.value, ct.CompileError)
        assert "tile_nested.py:24:" in str(info.value)
        from pykc.tile._errors import tile_error
        for kind, cls in (("tile-type", ct.TileTypeError), ("static-assert",
                          ct.TileStaticAssertionError), ("unsupported-construct",
                          ct.TileSyntaxError), ("undefined-name", ct.TileError)):
            e = tile_error(ct.CompileError("x", [{"severity": "error", "kind": kind}]))
            assert type(e) is cls, kind
        assert type(tile_error(ct.CompileError("x", []))) is ct.TileCompilerExecutionError
    finally:
        sys.path.remove(str(tmp_path))


def test_constant_kinds(tmp_path, monkeypatch):
    """Constant arguments beyond numbers (cuTile's test_constant and test_enum): an enum member
    of the kernel's module, a dtype (pykc.tile's, NumPy's), a string and None are spelled as
    `--const` takes them and compile one specialisation each."""
    import enum
    monkeypatch.setenv("PYKC_ARCH", "sm_90")
    monkeypatch.setenv("PYKC_CACHE_DIR", str(tmp_path / "cache"))

    class Mode(enum.Enum):
        FAST = 1

    class Level(enum.IntEnum):
        HIGH = 4

    assert ct._const_text(Mode.FAST) == "Mode.FAST" and ct._const_text(Level.HIGH) == "Level.HIGH"
    assert ct._const_text(ct.float16) == "cuda.tile.float16"
    assert ct._const_text(np.float32) == "cuda.tile.float32"
    assert ct._const_text(np.dtype("int8")) == "cuda.tile.int8"
    assert ct._const_text("hi") == "'hi'" and ct._const_text(None) == "None" and ct._const_text(3) == "3"
    with pytest.raises(TypeError, match="an enum member, a dtype"):
        ct._const_text(object())
    # A frozen dataclass instance (cuTile's test_dataclass_instance_as_constant_kernel_arg) as
    # `--const` spells it, and the manifest's value matched with the instance at launch.
    import dataclasses
    import pykc

    @dataclasses.dataclass(frozen=True)
    class Spot:
        idx: tuple
        val: float

    assert ct._const_text(Spot((1, 2), 5)) == "Spot(idx=(1,2,),val=5)"
    compiled = {"class": "Spot", "fields": {"idx": [1, 2], "val": 5}}
    assert pykc._same_constant(Spot((1, 2), 5), compiled)
    assert not pykc._same_constant(Spot((1, 3), 5), compiled) and not pykc._same_constant((1, 2), compiled)
    (tmp_path / "tile_const_kinds.py").write_text(textwrap.dedent('''
        from enum import Enum, IntEnum
        import pykc.tile as ct

        class Mode(Enum):
            FAST = 1
            SLOW = 2

        class Level(IntEnum):
            HIGH = 4

        @ct.kernel
        def pick(out, mode: ct.Constant, level: ct.Constant, dt: ct.Constant, tag: ct.Constant,
                 nothing: ct.Constant):
            v = ct.full((16,), level, dtype=dt) if mode == Mode.FAST else ct.zeros((16,), dtype=dt)
            if nothing is None and tag == "x":
                ct.store(out, index=(0,), tile=v.astype(ct.float32) + len(tag))
    '''))
    sys.path.insert(0, str(tmp_path))
    try:
        import importlib
        m = importlib.import_module("tile_const_kinds")
        consts = (("mode", "Mode.FAST"), ("level", "Level.HIGH"), ("dt", "cuda.tile.float16"),
                  ("tag", "'x'"), ("nothing", "None"))
        compiled, _, _ = m.pick._compile(("float32[::1]",), consts)
        assert len(compiled.manifest["kernels"]) == 1
    finally:
        sys.path.remove(str(tmp_path))


ENUMS = '''
from enum import Enum, IntEnum
import pykc.tile as ct


class Color(Enum):
    RED = 0
    BLUE = "blue"


class Level(IntEnum):
    LOW = 1


def make(enum_value, name):
    @ct.kernel
    def k(out):
        if enum_value == Color.BLUE and name == "BLUE" and Level.LOW < 2:
            ct.scatter(out, 0, 1)
    return k
'''


def test_nested_kernel_enum_values(tmp_path, monkeypatch):
    """A tile kernel made inside a function that sees an enum member, a string and enum classes
    (cuTile's test_enum under the JIT): the written module defines the classes on one line
    each and binds the values; the kernel compiles."""
    monkeypatch.setenv("PYKC_ARCH", "sm_90")
    monkeypatch.setenv("PYKC_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "tile_nested_enums.py").write_text(ENUMS)
    sys.path.insert(0, str(tmp_path))
    try:
        import importlib
        sys.modules.pop("tile_nested_enums", None)
        m = importlib.import_module("tile_nested_enums")
        from pykc.tile._nested import nested_tile_source
        k = m.make(m.Color.BLUE, "BLUE")
        text = nested_tile_source(k._func)
        assert "class Color(__pykc_enum.Enum): RED = 0; BLUE = 'blue'" in text
        assert "enum_value = Color.BLUE" in text and "name = 'BLUE'" in text
        assert "class Level(__pykc_enum.IntEnum): LOW = 1" in text
        compiled, arch, _ = k._compile(("int32[::1]",), ())
        assert arch == "sm_90" and compiled.cubins["sm_90"][:4] == b"\x7fELF"
    finally:
        sys.path.remove(str(tmp_path))


def test_constant_elements_of_tuple_parameters(tmp_path, monkeypatch):
    """`cfg: tuple[ct.Constant[int], int]` (cuTile's test_tuple_arguments): the JIT finds
    the element, compiles with `--const cfg[0]=N`, and the manifest says which element."""
    monkeypatch.setenv("PYKC_ARCH", "sm_90")
    monkeypatch.setenv("PYKC_CACHE_DIR", str(tmp_path / "cache"))

    def partial(a, out, cfg: tuple[ct.Constant[int], int]):
        t = ct.load(a, (0,), (cfg[0],))
        ct.store(out, (0,), t + cfg[1])

    def nested(a, cfg: "tuple[tuple[int, ct.Constant[int]], ct.Constant[int]]"):
        pass

    k = ct.kernel(partial)
    assert k._constants() == [] and k._elements == ((2, (0,)),)
    n = ct.kernel(nested)
    assert n._constants() == [] and n._elements == ((1, (0, 1)), (1, (1,)))
    compiled, _, _ = k._compile(("int32[::1]", "int32[::1]", "UniTuple(int32, 2)"), (("cfg[0]", "8"),))
    assert compiled.manifest["kernels"][0]["tile"]["constants"] == [
        {"name": "cfg[0]", "position": 2, "value": 8, "element": [0]}]
