"""pykc's JIT (``from pykc import cuda``) on a GPU, checked against NumPy.

    PYTHONPATH=python python3 tests/gpu/jit/run_jit_tests.py [--json OUT]

Needs a CUDA GPU, cuda.core (or CuPy), and libpykc (build/lib/libpykc.so or
$PYKC_LIBRARY). Without a GPU it says so and exits 77 (CTest's skip). Each case prints PASS/FAIL;
the exit status is 1 when any case fails.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
import traceback

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

CASES = []


def case(fn):
    CASES.append(fn)
    return fn


def close(a, b, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol)


@case
def lazy_kernel_on_numpy_arrays(cuda, k):
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    out = np.zeros_like(x)
    k.add[8, 128](x, y, out)      # NumPy: copied over and back, as numba does
    close(out, x + y)
    assert k.add.signatures == [("float32[::1]", "float32[::1]", "float32[::1]")], \
        k.add.signatures


@case
def second_type_compiles_a_second_instance(cuda, k):
    x = np.arange(100, dtype=np.float64)
    out = np.zeros_like(x)
    k.add[1, 128](x, x, out)
    close(out, 2 * x)
    k.add[1, 128](x, x, out)      # served from the table
    assert len(k.add.overloads) == 2, k.add.overloads


@case
def device_arrays(cuda, k):
    h = np.linspace(0, 1, 4096, dtype=np.float32)
    d = cuda.to_device(h)
    out = cuda.device_array_like(d)
    k.add[16, 256](d, d, out)
    close(out.copy_to_host(), 2 * h)
    assert out.shape == (4096,) and out.dtype == np.float32 and out.size == 4096
    part = out[100:200]
    close(part.copy_to_host(), 2 * h[100:200])
    assert out[5] == np.float32(2 * h[5])
    out[0:3] = 7
    close(out.copy_to_host()[:4], [7, 7, 7, 2 * h[3]])
    d2 = cuda.device_array((4, 8), dtype=np.int32)
    d2.copy_to_device(np.arange(32, dtype=np.int32).reshape(4, 8))
    close(d2.copy_to_host(), np.arange(32).reshape(4, 8))


@case
def eager_signature_and_conversions(cuda, k):
    x = cuda.to_device(np.ones(300, dtype=np.float32))
    k.scale_eager[3, 128](x, 2.5)  # Python float converted to the declared float32
    close(x.copy_to_host(), np.full(300, 2.5, np.float32))


@case
def device_function(cuda, k):
    x = np.linspace(-2, 2, 500).astype(np.float32)
    want = np.clip(x, -1, 1)
    k.clamp_all[4, 128](x, np.float32(-1), np.float32(1))
    close(x, want)


@case
def call_forms(cuda, k):
    x = np.arange(256, dtype=np.float64)
    y = np.ones(256, dtype=np.float64)
    k.axpy[2, 128](3.0, x, y)                    # cuda.jit(f), lazy
    close(y, 3 * x + 1)
    xf = np.arange(256, dtype=np.float32)
    yf = np.zeros(256, dtype=np.float32)
    k.axpy_f32[2, 128](np.float32(2), xf, yf)    # cuda.jit(void(...))(f), eager
    close(yf, 2 * xf)


@case
def two_dimensional_and_fortran_layout(cuda, k):
    a = np.arange(48, dtype=np.float64).reshape(6, 8)
    out = np.zeros((8, 6), dtype=np.float64, order="F")
    k.transpose2d[(1, 1), (8, 8)](a, out)
    close(out, a.T)
    types = k.transpose2d.signatures[0]
    assert types == ("float64[:, ::1]", "float64[::1, :]"), types


@case
def shared_memory_and_atomics(cuda, k):
    x = np.random.default_rng(0).random(10000).astype(np.float32)
    out = np.zeros(1, np.float32)
    k.block_sum[(10000 + 127) // 128, 128](x, out)
    close(out[0], x.sum(dtype=np.float64), rtol=1e-4)


@case
def typed_numpy_scalar_global(cuda, k):
    x = np.linspace(0, 3, 200).astype(np.float32)
    out = np.zeros_like(x)
    k.scaled_sin[2, 128](x, out)
    close(out, np.sin(x) * np.float32(0.5), rtol=1e-5)
    ptx = k.scaled_sin.inspect_asm()[("float32[::1]", "float32[::1]")]
    # The product with the np.float32 global is a float32 multiply by 0.5f.
    assert "mul.rn.f32" in ptx and "0f3F000000" in ptx, ptx


@case
def zip_over_enumerate(cuda, k):
    x = np.arange(10, dtype=np.float32)
    y = x * 2
    error = np.zeros(2, np.int32)
    k.zip_enumerate[1, 1](x, y, error)
    assert list(error) == [0, 10], error   # the shortest source (x, y: 10) stops both


@case
def numpy_ufuncs_on_scalars(cuda, k):
    x = np.linspace(-1, 1, 300).astype(np.float32)
    out = np.zeros((300, 8), np.float32)
    k.numpy_ufuncs[3, 128](x, out)
    want = np.stack([np.sin(x), np.arcsin(x * np.float32(0.5)), np.exp(x), np.sqrt(x + 2),
                     np.floor(x * 3), np.arctan2(x, 0.5), np.log1p(x + 1), np.deg2rad(x)], 1)
    close(out, want.astype(np.float32), rtol=2e-6, atol=1e-6)


@case
def python_scalars_and_tuples(cuda, k):
    out = cuda.to_device(np.zeros(1, np.int32))
    k.count_into[4, 256](1000, out)            # Python int -> int64
    assert out.copy_to_host()[0] == 1000
    o = np.zeros(1, np.int64)
    k.tuple_arg[1, 1](( 40, 2), o)
    assert o[0] == 42
    assert k.tuple_arg.signatures == [("UniTuple(int64, 2)", "int64[::1]")]


@case
def random_states_and_records(cuda, k):
    from pykc.random import create_xoroshiro128p_states as host_states
    from pykc.random import xoroshiro128p_next
    states = cuda.random.create_xoroshiro128p_states(4096, seed=42)
    out = cuda.device_array(4096, np.float32)
    k.draw_uniform[16, 256](states, out)
    u = out.copy_to_host()
    # numba-cuda's uniform float32: float32((next >> 11) * 2**-53).
    ref = host_states(4096, 42)
    want = np.array([(xoroshiro128p_next((int(s["s0"]), int(s["s1"])))[0] >> 11) *
                     2.0 ** -53 for s in ref]).astype(np.float32)
    close(u, want, rtol=0, atol=0)
    rec = np.zeros(100, np.dtype([("x", np.float32), ("n", np.int32)], align=True))
    rec["x"] = np.arange(100)
    rec["n"] = 3
    o = np.zeros(100, np.float32)
    k.record_sum[1, 128](rec, o)
    close(o, 3 * np.arange(100, dtype=np.float32))


@case
def device_function_from_another_module(cuda, k):
    x = np.linspace(-3, 3, 300)
    out = np.zeros_like(x)
    k.soften[3, 128](x, out)
    close(out, x / (1 + np.abs(x)) + 1e-3, rtol=1e-12)


@case
def tile_kernels_through_ct_launch(cuda, k):
    import torch
    import pykc.tile as ct
    import tile_kernels as tk
    a = torch.randn(1 << 16, device="cuda")
    b = torch.randn_like(a)
    c = torch.empty_like(a)
    stream = torch.cuda.current_stream()
    for tile in (256, 1024):   # one specialisation per Constant value
        c.zero_()
        ct.launch(stream, (ct.cdiv(a.numel(), tile),), tk.vec_add, (a, b, c, tile))
        torch.cuda.synchronize()
        close(c.cpu().numpy(), (a + b).cpu().numpy())
    assert len(tk.vec_add._instances) == 2
    x = torch.randn(64, 128, device="cuda", dtype=torch.float16)
    out = torch.empty_like(x)
    for s in (0.5, 3.0, -1.25):   # the first launch checked, the others on the fast path
        ct.launch(stream, (64 // 16,), tk.scale_rows, (x, out, s, 16, 128))
        torch.cuda.synchronize()
        close(out.float().cpu().numpy(), (x.float() * s).cpu().numpy(), rtol=1e-3, atol=1e-3)
    assert len(tk.scale_rows._fast) == 1, tk.scale_rows._fast
    xt = x.t()                    # another layout: a new instance, checked first
    outt = torch.empty_like(xt)
    ct.launch(stream, (128 // 16,), tk.scale_rows, (xt, outt, 2.0, 16, 64))
    ct.launch(stream, (128 // 16,), tk.scale_rows, (xt, outt, 4.0, 16, 64))
    torch.cuda.synchronize()
    close(outt.float().cpu().numpy(), (xt.float() * 4.0).cpu().numpy(), rtol=1e-3, atol=1e-3)
    assert len(tk.scale_rows._fast) == 2 and len(tk.scale_rows._instances) == 2
    n = 1000 + 37                                # not a multiple of the tile
    a, b, c = a[:n], b[:n], torch.zeros(n + 5, device="cuda")
    ct.launch(stream, (ct.cdiv(n, 128),), tk.gather_add_torch_dtypes, (a, b, c[:n], 128))
    torch.cuda.synchronize()
    close(c[:n].cpu().numpy(), (a + b).cpu().numpy())
    assert not c[n:].any().item()                # nothing written past the view
    ids = torch.tensor([3, 0, 2, 2], dtype=torch.int32, device="cuda")
    table = torch.randn(4, 16, device="cuda")
    rows = torch.empty(4, 16, device="cuda")
    ct.launch(stream, (4,), tk.rows_by_id, (ids, table, rows, 16))
    torch.cuda.synchronize()
    close(rows.cpu().numpy(), table[ids.long()].cpu().numpy())
    a, b = torch.randn(4096, device="cuda"), torch.randn(4096, device="cuda")
    out = torch.empty_like(a)
    ct.launch(stream, (4096 // 256,), tk.silu_mul, (a, b, out, 256))
    torch.cuda.synchronize()
    close(out.cpu().numpy(), (torch.nn.functional.silu(a) * b).cpu().numpy(), rtol=1e-5, atol=1e-5)
    # Views at offsets that break the tensors' alignment (1, 7, ...): ct.launch types x, y
    # as 16-byte aligned with 16-divisible extents; the views keep neither fact.
    x = torch.randn(4096, device="cuda")
    y = torch.full_like(x, float("nan"))
    offsets = torch.tensor([0, 1, 8, 300, 301, 2000, 4096], dtype=torch.int32, device="cuda")
    ct.launch(stream, (offsets.numel() - 1,), tk.segment_double, (x, y, offsets, 256))
    torch.cuda.synchronize()
    close(y.cpu().numpy(), (x * 2).cpu().numpy())
    # A list of tensors (one aligned, one not, one a view) and a ct.ScalarInt64 scalar.
    base = torch.randn(3 * 1000 + 1, device="cuda")
    xs = [torch.randn(1000, device="cuda"), base[1:1001], base[2001:3001]]
    out = torch.empty(1000, device="cuda")
    ct.launch(stream, (ct.cdiv(1000, 256),), tk.list_sum, (xs, out, 3, 256))
    torch.cuda.synchronize()
    close(out.cpu().numpy(), ((xs[0] + xs[1] + xs[2]) * 3).cpu().numpy(), rtol=1e-5, atol=1e-5)
    sig = next(iter(tk.list_sum._instances))[0]
    assert sig[0].startswith("UniTuple(float32[::1], 3)") and sig[2] == "int64", sig


@case
def tile_autotuning(cuda, k):
    """cuda.tile.tune.exhaustive_search over tile sizes and hints: every config compiles
    and is timed; a failing config (a tile shape pykc refuses) is a recorded failure; the
    best config then computes the right result."""
    import torch
    import pykc.tile as ct
    from types import SimpleNamespace
    import tile_kernels as tk
    n = 1 << 20
    a, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    stream = torch.cuda.current_stream()
    space = [SimpleNamespace(TILE=t, occupancy=o) for t in (256, 1024, 4096) for o in (1, 2)]
    space.append(SimpleNamespace(TILE=1000, occupancy=1))   # not a power of two: refused
    with ct.compiler_timeout(60):
        result = ct.tune.exhaustive_search(
            space, stream, grid_fn=lambda cfg: (ct.cdiv(n, cfg.TILE),), kernel=tk.vec_add,
            args_fn=lambda cfg: (a, b, torch.empty_like(a), cfg.TILE),
            hints_fn=lambda cfg: {"occupancy": cfg.occupancy}, quiet=True)
    assert len(result.successes) == 6, result
    assert [c.TILE for c, _, _ in result.failures] == [1000], result.failures
    assert all(m.num_samples >= 5 and m.mean_us > 0 for m in result.successes), result
    assert result.best.mean_us == min(m.mean_us for m in result.successes)
    best = result.best.config
    c = torch.empty_like(a)
    ct.launch(stream, (ct.cdiv(n, best.TILE),), tk.vec_add.replace_hints(occupancy=2),
              (a, b, c, best.TILE))
    torch.cuda.synchronize()
    close(c.cpu().numpy(), (a + b).cpu().numpy())
    print(f"    {result.summary(top_k=3)}".replace("\n", "\n    "))


@case
def streams_and_events(cuda, k):
    s = cuda.stream()
    h = np.arange(1 << 20, dtype=np.float32)
    d = cuda.to_device(h, stream=s)
    out = cuda.device_array_like(d)
    e0, e1 = cuda.event(), cuda.event()
    e0.record(s)
    k.add[(1 << 20) // 256, 256, s](d, d, out)
    e1.record(s)
    e1.synchronize()
    ms = e0.elapsed_time(e1)
    assert ms >= 0, ms
    res = out.copy_to_host(stream=s)
    s.synchronize()
    close(res, 2 * h)


@case
def cupy_and_torch_arrays(cuda, k):
    done = []
    try:
        import cupy as cp
        a = cp.arange(1000, dtype=cp.float32)
        o = cp.zeros_like(a)
        k.add[8, 128](a, a, o)
        close(cp.asnumpy(o), 2 * np.arange(1000, dtype=np.float32))
        done.append("cupy")
    except ImportError:
        pass
    try:
        import torch
        t = torch.arange(1000, dtype=torch.float32, device="cuda")
        o = torch.zeros_like(t)
        k.add[8, 128](t, t, o)
        torch.cuda.synchronize()
        close(o.cpu().numpy(), 2 * np.arange(1000, dtype=np.float32))
        done.append("torch")
    except ImportError:
        pass
    assert done, "neither CuPy nor PyTorch is installed"


@case
def devices_and_host_api(cuda, k):
    assert cuda.is_available()
    dev = cuda.get_current_device()
    assert dev.compute_capability >= (7, 5), dev.compute_capability
    assert isinstance(dev.name, str) and dev.name
    assert len(cuda.gpus) >= 1
    p = cuda.pinned_array(16, dtype=np.float32)
    p[:] = 3
    d = cuda.to_device(p)
    close(d.copy_to_host(), np.full(16, 3, np.float32))
    assert cuda.is_cuda_array(d) and not cuda.is_cuda_array(p)
    v = cuda.as_cuda_array(d)
    assert v.shape == (16,)
    cuda.synchronize()


@case
def forall_and_specialize(cuda, k):
    x = np.arange(1000, dtype=np.float32)
    out = np.zeros_like(x)
    k.add.forall(1000)(x, x, out)
    close(out, 2 * x)
    spec = k.add.specialize(x, x, out)
    spec[8, 128](x, x, out)
    close(out, 2 * x)


@case
def errors_are_python_exceptions(cuda, k):
    try:
        k.add[1, 32](np.zeros(4, np.float32), np.zeros(4, np.float32))
        raise AssertionError("wrong argument count accepted")
    except TypeError as e:
        assert "takes 3 arguments" in str(e), e
    try:
        k.add[1, 32]([1, 2], [1, 2], [1, 2])
        raise AssertionError("a list accepted")
    except TypeError as e:
        assert "parameter `x`" in str(e), e
    try:
        k.add(1, 2, 3)
        raise AssertionError("a launch without configuration accepted")
    except ValueError as e:
        assert "launch configuration" in str(e), e
    import bad_kernels
    try:
        bad_kernels.undefined_name[1, 1](np.zeros(1, np.float32))
        raise AssertionError("a kernel with an error compiled")
    except cuda.CompileError as e:
        text = str(e)
        assert "bad_kernels.py:" in text and "error:" in text and "^" in text, text
    try:
        k.add[1, 2048](np.zeros(4, np.float32), np.zeros(4, np.float32),
                       np.zeros(4, np.float32))
        raise AssertionError("a block of 2048 threads accepted")
    except ValueError as e:
        assert "2048 threads" in str(e), e
    z = np.zeros(0, np.float32)
    k.add[1, 32](z, z, z)   # zero-size arrays launch fine
    for bad, what in [(None, "NoneType"), ("text", "str"), (np.zeros(3, "U4"), "dtype")]:
        try:
            k.add[1, 32](bad, np.zeros(3, np.float32), np.zeros(3, np.float32))
            raise AssertionError(f"{what} accepted")
        except TypeError as e:
            assert "add" in str(e) and "parameter `x`" in str(e), e
    x = np.arange(40, dtype=np.float32)
    out = np.zeros(10, np.float32)
    k.add[1, 32](x[::4], x[::-4], out)          # strided and negative-stride views
    close(out, x[::4] + x[::-4])
    xi = np.arange(10, dtype=np.int64)          # another dtype: another instance
    outi = np.zeros(10, np.int64)
    k.add[1, 32](xi, xi, outi)
    assert list(outi) == list(2 * xi)
    for grid in [(1 << 32,), (1, 1 << 16), (0,), (-1,), 2.5]:
        try:
            k.add[grid, 32](x, x, x)
            raise AssertionError(f"grid {grid} accepted")
        except ValueError as e:
            assert "grid" in str(e), e
    # A kernel that faults: a Python exception at synchronisation, in a process of its own
    # (the fault ends that context for good).
    code = ("import numpy as np, sys; sys.path.insert(0, %r); from pykc import cuda; "
            "import bad_kernels; x = cuda.to_device(np.zeros(1, np.float32)); "
            "bad_kernels.faults[1, 1](x); print('launched', flush=True)\n"
            "try:\n    cuda.synchronize()\nexcept Exception as e:\n"
            "    print('raised', type(e).__name__, e)" % HERE)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    assert "launched" in r.stdout and "raised" in r.stdout, r.stdout + r.stderr
    # The driver names the fault (ILLEGAL_ADDRESS, INVALID_ADDRESS_SPACE, ... by where
    # the stray pointer lands); any CUDA error raised at synchronisation will do.
    assert "raised CudaError" in r.stdout and "CUDA_ERROR_" in r.stdout, r.stdout


@case
def threads_compile_once(cuda, k):
    import kernels_threads as kt
    errors = []
    x = np.arange(512, dtype=np.int32)

    def work():
        try:
            out = np.zeros_like(x)
            kt.twice[4, 128](x, out)
            close(out, 2 * x)
        except Exception as e:  # noqa: BLE001
            errors.append(e)
    ts = [threading.Thread(target=work) for _ in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors
    assert len(kt.twice.overloads) == 1


@case
def numba_program_runs_unchanged(cuda, k):
    """A program written for numba (`from numba import cuda`) under python -m pykc run."""
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-m", "pykc", "run",
                        os.path.join(HERE, "numba_program.py")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0 and "numba_program: OK" in r.stdout, r.stdout + r.stderr


@case
def numba_cpu_compiler_beside_pykc_cuda(cuda, k):
    """numba.njit/prange from the installed numba, numba.cuda from pykc, in one program
    under python -m pykc run (skips where numba itself is not installed)."""
    import importlib.util
    if importlib.util.find_spec("numba") is None:
        print("  (numba is not installed here: case skipped)")
        return
    r = subprocess.run([sys.executable, "-m", "pykc", "run",
                        os.path.join(HERE, "numba_mixed_program.py")],
                       capture_output=True, text=True, env=dict(os.environ), timeout=300)
    assert r.returncode == 0 and "numba_mixed_program: OK" in r.stdout, r.stdout + r.stderr


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", help="write the results here")
    ns = ap.parse_args()
    try:
        from pykc import cuda
        if not cuda.is_available():
            raise RuntimeError("no CUDA device")
    except Exception as e:  # noqa: BLE001
        print(f"SKIP: pykc's JIT tests need a CUDA GPU ({e})")
        return 77
    import kernels as k
    results, failed = [], 0
    for fn in CASES:
        t0 = time.perf_counter()
        try:
            fn(cuda, k)
            status, detail = "PASS", ""
        except Exception:  # noqa: BLE001
            status, detail = "FAIL", traceback.format_exc()
            failed += 1
        ms = (time.perf_counter() - t0) * 1e3
        print(f"{status} {fn.__name__} ({ms:.1f} ms)")
        if detail:
            print(detail)
        results.append({"case": fn.__name__, "status": status, "ms": ms, "detail": detail})
    print(f"{len(CASES) - failed} passed, {failed} failed")
    if ns.json:
        with open(ns.json, "w") as f:
            json.dump(results, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
