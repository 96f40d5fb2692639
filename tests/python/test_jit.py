"""pykc.cuda's JIT without a GPU: cuda.jit's forms, compiles through libpykc (PYKC_ARCH
names the target), CompileError, numba's types on the host, the import hook and
`python -m pykc run`, and the fast launch path's parameter packing. What needs a GPU is
in tests/gpu/jit/run_jit_tests.py."""

import ctypes
import struct
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIB = os.path.join(ROOT, "build", "lib", "libpykc.so")

pytestmark = pytest.mark.skipif(not os.path.exists(LIB), reason="libpykc is not built")


@pytest.fixture(autouse=True)
def _arch(monkeypatch, tmp_path):
    monkeypatch.setenv("PYKC_ARCH", "sm_90")
    monkeypatch.setenv("PYKC_CACHE_DIR", str(tmp_path / "cache"))


def _module(tmp_path, name, text):
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(text))
    sys.path.insert(0, str(tmp_path))
    try:
        import importlib
        sys.modules.pop(name, None)
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(tmp_path))


KERNELS = """
    import numpy as np
    from pykc import cuda
    from pykc.types import float32, void

    HALF = np.float32(0.5)

    @cuda.jit
    def add(x, y, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] + y[i]

    @cuda.jit("void(float32[::1], float32)")
    def scale(x, a):
        i = cuda.grid(1)
        if i < x.size:
            x[i] *= a * HALF

    @cuda.jit(device=True)
    def twice(v):
        return v * 2

    def use_twice(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] = twice(x[i])

    lazy = cuda.jit(use_twice)
    eager = cuda.jit(void(float32[::1]))(use_twice)

    @cuda.jit
    def scale2d(x, a):
        i, j = cuda.grid(2)
        if i < x.shape[0] and j < x.shape[1]:
            x[i, j] *= a
"""


def test_forms(tmp_path):
    from pykc import cuda
    m = _module(tmp_path, "jit_forms", KERNELS)
    assert isinstance(m.add, cuda.Dispatcher) and m.add.signatures == []
    assert isinstance(m.twice, cuda.DeviceFunction)
    assert m.scale.signatures == [("float32[::1]", "float32")]   # eager: compiled now
    assert m.eager.signatures == [("float32[::1]",)]
    assert m.add.__name__ == "add" and m.lazy.__name__ == "use_twice"
    with pytest.raises(TypeError, match="can only be called from a kernel"):
        m.twice(1.0)
    with pytest.raises(ValueError, match="launch configuration was not specified"):
        m.add(1, 2, 3)


def test_compile_for_signature_and_inspect(tmp_path):
    m = _module(tmp_path, "jit_inspect", KERNELS)
    m.add.compile("void(float32[::1], float32[::1], float32[::1])")
    m.add.compile("(float64[::1], float64[::1], float64[::1])")
    assert len(m.add.overloads) == 2
    ptx = m.add.inspect_asm(("float32[::1]", "float32[::1]", "float32[::1]"))
    # (numba's NVVM -fma=1: an add that ptxas may still fuse, without `.rn`)
    assert ".target sm_90" in ptx and "add.f32" in ptx
    assert set(m.add.inspect_asm()) == set(m.add.signatures)
    # The np.float32 global keeps `scale` in float32.
    assert "mul.rn.f64" not in m.scale.inspect_asm()[("float32[::1]", "float32")]
    m.lazy.compile("(float32[::1],)")
    assert m.lazy.signatures == [("float32[::1]",)]
    # A further signature of an eager kernel is its own instance.
    inst = m.scale.compile("(float64[::1], float32)")
    assert inst.entry_for(("float64[::1]", "float32")).signature == "void(float64[::1], float32)"
    assert ("float64[::1]", "float32") in m.scale.signatures


def test_defaults_are_compiled_in(tmp_path):
    """A signature that leaves out defaulted parameters (a launch that omits them) compiles
    their values in, as numba's omitted arguments."""
    m = _module(tmp_path, "jit_defaults", """
        from pykc import cuda

        @cuda.jit
        def scale(x, factor=2, flag=True):
            if flag:
                x[0] *= factor
    """)
    inst = m.scale.compile("(float32[::1],)")
    entry = inst.entry_for(("float32[::1]",))
    assert entry.signature == "void(float32[::1], factor=2, flag=True)"


def test_compile_error_carries_diagnostics(tmp_path):
    from pykc import cuda
    m = _module(tmp_path, "jit_bad", """
        from pykc import cuda

        @cuda.jit
        def bad(x):
            x[0] = undefined_name
    """)
    with pytest.raises(cuda.CompileError) as e:
        m.bad.compile("(float32[::1],)")
    text = str(e.value)
    assert "jit_bad.py:6:12: error: name `undefined_name` is not defined" in text
    assert "^" in text
    assert e.value.diagnostics and e.value.diagnostics[0]["line"] == 6


def test_signature_errors(tmp_path):
    from pykc.cuda._dispatcher import signature_text
    assert signature_text("k", "void(int32)") == "k(int32)"
    assert signature_text("k", "(int32, float32[::1])") == "k(int32, float32[::1])"
    with pytest.raises(TypeError, match="is not a signature"):
        signature_text("k", "int32")


def test_numba_types_on_the_host():
    from pykc import types as t
    assert str(t.float32[::1]) == "float32[::1]"
    assert str(t.float64[:, ::1]) == "float64[:, ::1]"
    assert str(t.int8[::1, :]) == "int8[::1, :]"
    assert str(t.uint16[:, :, :]) == "uint16[:, :, :]"
    assert str(t.void(t.float32[::1], t.int32)) == "void(float32[::1], int32)"
    assert str(t.UniTuple(t.int64, 3)) == "UniTuple(int64, 3)"
    assert t.float32(1.5) == np.float32(1.5) and type(t.float32(1.5)) is np.float32
    with pytest.raises(TypeError, match="only ':' and '::1'"):
        t.float32[::2]
    with pytest.raises(TypeError, match="first or the last"):
        t.float32[:, ::1, :]


NUMBA_DEPS = os.path.join(ROOT, "build", "pydeps-numba")


@pytest.mark.skipif(not os.path.isdir(os.path.join(NUMBA_DEPS, "numba")),
                    reason="numba is not installed in build/pydeps-numba (scripts/deps.sh)")
def test_hook_takes_names_outside_cuda_from_installed_numba(tmp_path, monkeypatch):
    """With numba installed, a program's numba.njit, numba.prange and numba.np modules
    are numba's own; numba.cuda stays pykc's, and cuda.jit takes numba's type objects."""
    monkeypatch.setenv("PYKC_ARCH", "sm_90")
    monkeypatch.setenv("PYKC_CACHE_DIR", str(tmp_path / "cache"))
    prog = tmp_path / "mixed.py"
    prog.write_text(textwrap.dedent("""
        import numpy as np
        import numba
        from numba import cuda

        @numba.njit
        def host_sum(x):
            s = 0.0
            for i in numba.prange(x.shape[0]):
                s += x[i]
            return s

        print("host", host_sum(np.arange(10.0)))
        from numba import float32, int64, void
        from numba.np import numpy_support
        print("types", type(float32).__module__.split(".")[0], numpy_support.__name__)

        @cuda.jit(void(float32[::1], int64))
        def k(x, n):
            i = cuda.grid(1)
            if i < n:
                x[i] = 2 * x[i]

        print("kernel", k.signatures, cuda.__name__)
    """))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.join(ROOT, "python"), NUMBA_DEPS, os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-m", "pykc", "run", str(prog)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "host 45.0" in r.stdout
    assert "types numba numba.np.numpy_support" in r.stdout
    assert "kernel [('float32[::1]', 'int64')] pykc.cuda" in r.stdout


def test_hook_maps_numba_imports(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(textwrap.dedent("""
        import sys
        import numba
        from numba import cuda, float32, void
        from numba.cuda.random import create_xoroshiro128p_states
        import numba.types as nt


        def numba_version():
            import numba as nb
            return nb.__version__

        @cuda.jit(void(float32[::1]))
        def k(x):
            x[0] = 1

        print("compiled", k.signatures, nt.int32, numba.__version__.endswith("+pykc"))
        try:
            numba.njit
        except AttributeError as e:
            print("njit:", e)
        try:
            import numba.np.ufunc  # noqa: F401
        except ImportError as e:
            print("ufunc:", e)
        print("argv", sys.argv[1:])
        if __name__ == "__main__":
            import multiprocessing as mp
            import subprocess
            ctx = mp.get_context("spawn")
            with ctx.Pool(1) as pool:   # a spawned child maps numba to pykc too
                print("child", pool.apply(numba_version))
            out = subprocess.run([sys.executable, "-c", "import numba; print(numba.__version__)"],
                                 capture_output=True, text=True).stdout.strip()
            print("subprocess", out)
    """))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.join(ROOT, "python"), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, "-m", "pykc", "run", str(prog), "a", "b"],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert "compiled [('float32[::1]',)] int32 True" in r.stdout
    assert "njit: pykc runs numba's CUDA API" in r.stdout
    assert "ufunc: pykc runs numba's CUDA API" in r.stdout
    assert "argv ['a', 'b']" in r.stdout
    assert "child 0.61.0+pykc" in r.stdout and "subprocess 0.61.0+pykc" in r.stdout
    r = subprocess.run([sys.executable, "-m", "pykc", "run", str(tmp_path / "nope.py")],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 2 and "no such file" in r.stderr


_LAUNCH_C = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, *[ctypes.c_uint] * 7,
                             ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p)


def _fake_launch(calls, slots, result=0):
    """A stand-in for cuLaunchKernel with its C signature: records the configuration and
    the 8 bytes behind each parameter pointer."""
    def launch(fn, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        raw = b"".join(ctypes.string_at(params[i], 8) for i in range(slots))
        calls.append(((fn, gx, gy, gz, bx, by, bz, shared, stream), raw))
        return result
    return _LAUNCH_C(launch)


@pytest.mark.parametrize("native", [True, False], ids=["c-extension", "ctypes"])
def test_fast_path_packs_parameters(tmp_path, native):
    """The fast launcher writes pointer, extents and element strides of each array and the
    scalars at 8-byte offsets, as docs/ABI.md flattens them; the C extension and the
    ctypes path write the same bytes and raise the same errors."""
    from pykc.cuda._devicearray import DeviceNDArray
    from pykc.cuda._fastlaunch import FastLauncher, arg_key, native_module, supports
    ext = native_module()
    if native and ext is None:
        pytest.skip("pykc._launch is not built (no Python headers at build time)")
    m = _module(tmp_path, "jit_fast", KERNELS)
    entry = m.scale2d.compile("(float32[:, :], float32)").entries[0]
    assert supports(entry)
    calls = []
    fake = _fake_launch(calls, 6)
    fl = FastLauncher(7, entry, 1024, "scale2d", launch_kernel=fake,
                      native=ext if native else False)
    assert (fl._native is not None) == native
    x = DeviceNDArray((3, 4), (64, 8), np.float32, 0x10000)   # a strided view
    key, values = arg_key([x, 2.5], 0)
    assert key == (("f", 2, "A"), "f8")
    assert values == [0x10000, 3, 4, 16, 2, 2.5]
    fl.launch((2, 3, 1), (32, 1, 1), 128, 0x55, values)
    raw = fl.packed()
    assert list(np.frombuffer(raw[:40], np.int64)) == [0x10000, 3, 4, 16, 2]
    assert np.frombuffer(raw[40:44], np.float32)[0] == np.float32(2.5)
    assert raw[44:48] == bytes(4)
    assert calls == [((7, 2, 3, 1, 32, 1, 1, 128, 0x55), raw)]
    with pytest.raises(ValueError, match=r"block \(2048, 1, 1\) has 2048 threads, more "
                                         r"than its limit of 1024"):
        fl.launch((1, 1, 1), (2048, 1, 1), 0, 0, values)
    with pytest.raises(OverflowError, match="an argument does not fit its parameter's type"):
        fl.launch((1, 1, 1), (32, 1, 1), 0, 0, [1 << 64, 3, 4, 16, 2, 2.5])
    assert len(calls) == 1
    failing = FastLauncher(7, entry, 1024, "scale2d", launch_kernel=_fake_launch([], 6, 1),
                           native=ext if native else False)
    from pykc._backends import CudaError
    with pytest.raises(CudaError, match="cuLaunchKernel of 'scale2d' failed: "
                                        "(CUDA_ERROR_INVALID_VALUE|CUresult 1)"):
        failing.launch((1, 1, 1), (32, 1, 1), 0, 0, values)
    assert arg_key([np.zeros(3)], 0) == (None, None)      # NumPy: the checked path
    assert arg_key([1 << 70], 0) == (None, None)


def test_native_launch_checks_its_inputs():
    """pykc._launch's own checks: slot codes, value counts, grid tuples, integer ranges of
    each parameter type, NumPy scalars through __index__."""
    from pykc.cuda._fastlaunch import native_module
    ext = native_module()
    if ext is None:
        pytest.skip("pykc._launch is not built (no Python headers at build time)")
    calls = []
    fake = _fake_launch(calls, 11)
    address = ctypes.cast(fake, ctypes.c_void_p).value
    with pytest.raises(ValueError, match="unknown parameter code 'z'"):
        ext.Launch(1, address, "qz", 1024, "k", "(int64)")
    with pytest.raises(ValueError, match="cuLaunchKernel's address"):
        ext.Launch(1, 0, "q", 1024, "k", "(int64)")
    k = ext.Launch(1, address, "?bBhHiIqQfd", 1024, "k", "(...)")
    values = [True, -128, 255, -32768, 65535, -(1 << 31), (1 << 32) - 1, -(1 << 63),
              np.uint64((1 << 64) - 1), 1.5, -2.25]
    assert k.launch((1, 1, 1), (1, 1, 1), 0, 0, values) == 0
    want = struct.pack("<?7xb7xB7xh6xH6xi4xI4xqQf4xd", *[int(v) if i == 8 else v
                                                       for i, v in enumerate(values)])
    assert k.packed() == want == calls[0][1]
    for slot, bad in [(1, 128), (2, -1), (3, 1 << 15), (5, 1 << 31), (6, -1), (8, -1)]:
        v = list(values)
        v[slot] = bad
        with pytest.raises(OverflowError, match=rf"kernel 'k' \(\.\.\.\): an argument does "
                                                rf"not fit its parameter's type \(slot {slot}"):
            k.launch((1, 1, 1), (1, 1, 1), 0, 0, v)
    with pytest.raises(TypeError, match="11 slots"):
        k.launch((1, 1, 1), (1, 1, 1), 0, 0, values[:3])
    with pytest.raises(TypeError, match="grid must be a tuple of three ints"):
        k.launch((1, 1), (1, 1, 1), 0, 0, values)
    with pytest.raises(TypeError):
        k.launch((1, 1, 1), (1, 1, 1), 0, 0, values[:-1] + ["x"])
    assert len(calls) == 1


def test_device_array_views_without_memory():
    from pykc.cuda._devicearray import DeviceNDArray, _index
    a = DeviceNDArray((4, 6), (24, 4), np.float32, 1000)
    v = _index(a, (slice(1, 3), slice(None, None, 2)))
    assert v.shape == (2, 3) and v.strides == (24, 8) and v._ptr == 1024
    assert not v.is_c_contiguous() and a.is_c_contiguous()
    assert a.T.shape == (6, 4) and a.T.is_f_contiguous()
    assert a.reshape(24).shape == (24,) and a.reshape(-1, 8).shape == (3, 8)
    assert a.view(np.int16).shape == (4, 12)
    cai = a.__cuda_array_interface__
    assert cai["data"] == (1000, False) and cai["typestr"] == "<f4"
    with pytest.raises(IndexError):
        _index(a, (4,))


def test_native_xoroshiro_states_match_the_python_reference():
    from pykc import random as r
    native = r.create_xoroshiro128p_states(40, seed=12345, subsequence_start=3)
    z = r._splitmix64(12345)
    state = (z, z)
    for _ in range(3):
        state = r.xoroshiro128p_jump(state)
    want = []
    for i in range(40):
        if i:
            state = r.xoroshiro128p_jump(state)
        want.append(state)
    assert [(int(s["s0"]), int(s["s1"])) for s in native] == want
    # A strided view takes the Python loop and agrees.
    big = np.zeros(80, r.xoroshiro128p_dtype)
    r.init_xoroshiro128p_states(big[::2], 12345, 3)
    assert [(int(s["s0"]), int(s["s1"])) for s in big[::2]] == want


def test_nested_kernels_and_aliased_device_functions(tmp_path):
    """A kernel made inside a function sees its closure; a device function jitted under
    another name (`cufoo = cuda.jit(device=True)(foo)`) is called by that name; a top-level
    function jitted inside a function compiles too."""
    m = _module(tmp_path, "jit_nested", """
        import numpy as np
        from pykc import cuda

        def foo(v):
            return v + 1

        def top(x):
            i = cuda.grid(1)
            if i < x.size:
                x[i] = 0

        def make(scale):
            offsets = np.array([1.0, 2.0, 3.0])
            cufoo = cuda.jit(device=True)(foo)

            @cuda.jit
            def k(x):
                i = cuda.grid(1)
                if i < x.size:
                    x[i] = cufoo(x[i]) * scale + offsets[i % 3]
            return k

        def later():
            return cuda.jit("void(float32[::1])")(top)
    """)
    k = m.make(np.float32(2))
    inst = k.compile("(float32[::1],)")
    assert ".entry" in inst.ptx
    assert m.later().signatures == [("float32[::1]",)]
    from pykc.cuda._jitsource import nested_source
    text = nested_source(k)
    assert "scale = __pykc_np.float32(2.0)" in text and text.rstrip().endswith("cufoo = foo")
    # The kernel's def stands at its own line of the file.
    lines = text.splitlines()
    src = (tmp_path / "jit_nested.py").read_text().splitlines()
    n = next(i for i, ln in enumerate(src) if "def k(x):" in ln)
    assert lines[n].strip() == "def k(x):"


def test_device_functions_from_another_module(tmp_path):
    """`from helpers import soft` of a cuda.jit device function in a sibling module: the
    kernel compiles with the helper's source and the helper's own globals; a name that
    means two things in the two modules is an error, never a silent choice."""
    (tmp_path / "jit_helpers.py").write_text(textwrap.dedent("""
        import math
        from pykc import cuda

        EPS = 1e-3

        @cuda.jit(device=True)
        def soft(v):
            return v / (1.0 + math.fabs(v)) + EPS
    """))
    m = _module(tmp_path, "jit_uses_helpers", """
        from pykc import cuda
        from jit_helpers import soft

        @cuda.jit
        def k(x):
            i = cuda.grid(1)
            if i < x.size:
                x[i] = soft(x[i])
    """)
    assert ".entry" in m.k.compile("(float64[::1],)").ptx
    clash = _module(tmp_path, "jit_clash", """
        from pykc import cuda
        from jit_helpers import soft

        EPS = 5.0

        @cuda.jit
        def k(x):
            x[0] = soft(x[0]) + EPS
    """)
    from pykc import cuda
    with pytest.raises(cuda.CompileError, match="`EPS` means one thing"):
        clash.k.compile("(float64[::1],)")


def test_compiler_warnings_are_python_warnings(tmp_path):
    from pykc import cuda
    m = _module(tmp_path, "jit_warn", """
        from pykc import cuda

        def traced(f):
            return f

        @traced
        @cuda.jit
        def k(x):
            x[0] = x[0] * 0.5
    """)
    with pytest.warns(cuda.CompileWarning, match="decorator ignored"):
        m.k.compile("(float32[::1],)")


def test_libdevice_digest_is_remembered_in_the_cache(tmp_path):
    """A process's first cache hit reads libdevice's digest from `libdevice.memo` (keyed by
    its path, size, mtime, device and inode) instead of hashing the file: the key, and so
    the hit, is the same either way; a memo that does not match the file is ignored."""
    from pykc._compiler import Compiler
    cache = tmp_path / "c"
    src = b"from numba import cuda\n\n\n@cuda.jit\ndef k(x):\n    x[0] = 1\n"
    args = dict(kernel="k", sigs=["k(float32[::1])"], archs=["sm_90"])
    assert not Compiler(cache_dir=str(cache)).compile("k.py", src, **args).cache_hits["sm_90"]
    memo = cache / "libdevice.memo"
    lines = memo.read_text().splitlines()
    assert lines[0] == "pykc-libdevice-memo 1" and len(lines) == 4
    assert Compiler(cache_dir=str(cache)).compile("k.py", src, **args).cache_hits["sm_90"]
    memo.unlink()                                   # the content's digest: the same key
    assert Compiler(cache_dir=str(cache)).compile("k.py", src, **args).cache_hits["sm_90"]
    assert memo.exists()
    stale = lines[:2] + ["1 2 3 4", lines[3].split()[0] + " " + "0" * 64]
    memo.write_text("\n".join(stale) + "\n")        # another file's memo: not trusted
    assert Compiler(cache_dir=str(cache)).compile("k.py", src, **args).cache_hits["sm_90"]


def test_check_only_compiles_type_check_without_code(tmp_path):
    from pykc._compiler import CompileError, Compiler
    c = Compiler(cache_dir=str(tmp_path / "c"))
    good = b"from numba import cuda\n\n\n@cuda.jit\ndef k(x):\n    x[0] = 1\n"
    out = c.compile("k.py", good, kernel="k", sigs=["k(float32[::1])"], check_only=True)
    assert out.cubins == {} and not (tmp_path / "c" / "ac").exists()
    with pytest.raises(CompileError, match="name `y` is not defined"):
        c.compile("k.py", good.replace(b"= 1", b"= y"), kernel="k", sigs=["k(float32[::1])"],
                  check_only=True)


def test_compiler_prepare(tmp_path):
    """Compiler.prepare sets nvJitLink up ahead of the first compile (True), refuses an
    architecture pykc does not know (False) without harming later compiles."""
    from pykc import _compiler
    c = _compiler.Compiler(cache_dir=str(tmp_path / "cache"))
    assert c.prepare("sm_90") is True
    assert c.prepare("sm_1") is False
    src = tmp_path / "k.py"
    src.write_text("from numba import cuda\n\n@cuda.jit\ndef k(x):\n    x[0] = 1\n")
    out = c.compile(str(src), kernel="k", sigs=["k(int32[::1])"], archs=["sm_90"])
    assert out.cubin("sm_90")[:4] == b"\x7fELF"


def test_populated_cache_makes_the_first_jit_call_a_hit(tmp_path):
    """`pykc cache populate --spec` in CI, then a production process: the JIT's first
    compile of the kernel is a cache hit, and nvJitLink is never loaded into the process
    (issue 19 item 4). On the CPU machine through PYKC_ARCH; the launch itself is
    tests/gpu's."""
    pykc_bin = os.path.join(ROOT, "build", "bin", "pykc")
    if not os.path.exists(pykc_bin):
        pytest.skip("build/bin/pykc is not built")
    src = tmp_path / "prod_kernels.py"
    src.write_text("from pykc import cuda\n\n\n@cuda.jit\ndef inc(x):\n    i = cuda.grid(1)\n"
                   "    if i < x.size:\n        x[i] += 1\n")
    spec = tmp_path / "spec.json"
    spec.write_text('{"prod_kernels.py": {"sigs": ["inc(float32[::1])"]}}')
    env = dict(os.environ, PYKC_CACHE_DIR=str(tmp_path / "cache"), PYKC_ARCH="sm_90")
    r = subprocess.run([pykc_bin, "cache", "populate", str(src), "--arch", "sm_90",
                        "--spec", str(spec)], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        import prod_kernels
        from pykc import _compiler
        hits = []
        real = _compiler.Compiler.compile
        def spy(self, *a, **k):
            out = real(self, *a, **k)
            hits.append(out.cache_hits)
            return out
        _compiler.Compiler.compile = spy
        prod_kernels.inc.compile("(float32[::1])")
        maps = open("/proc/self/maps").read()
        print("hits", hits, "nvjitlink", "libnvJitLink" in maps)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(env, PYTHONPATH=os.pathsep.join(
                           [os.path.join(ROOT, "python")] +
                           [p for p in sys.path if "pydeps" in p])))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "hits [{'sm_90': True}] nvjitlink False" in r.stdout, r.stdout + r.stderr
