#!/usr/bin/env python3
"""libpykc in one process with torch, CuPy, numba-cuda and Triton (issue 17).

Imports the four, does GPU work with each, then loads libpykc.so with ctypes,
compiles a kernel from a string in-process, loads the cubin with CuPy, runs
it on fresh random data against CuPy's own result, and checks that the
frameworks still work and see the same GPUs afterwards (pykc hides the CUDA
driver from nvJitLink, never from the process). Skips (77) without a GPU.

    python3 tests/gpu/capi_beside_frameworks.py --lib build/lib/libpykc.so
"""
import argparse
import ctypes
import os
import sys
import tempfile
import time

try:
    import triton
    import triton.language as tl

    @triton.jit
    def triton_add(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)
except ImportError:
    triton = None

SOURCE = b'''from numba import cuda

@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]
'''


class SessionOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("cache_dir", ctypes.c_char_p), ("no_cache", ctypes.c_int),
                ("threads", ctypes.c_uint), ("libdevice_path", ctypes.c_char_p),
                ("nvjitlink_path", ctypes.c_char_p), ("nvrtc_path", ctypes.c_char_p)]


class CompileOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("path", ctypes.c_char_p), ("source", ctypes.c_char_p),
                ("source_size", ctypes.c_size_t), ("kernel", ctypes.c_char_p),
                ("sigs", ctypes.POINTER(ctypes.c_char_p)), ("num_sigs", ctypes.c_size_t),
                ("consts", ctypes.POINTER(ctypes.c_char_p)), ("num_consts", ctypes.c_size_t),
                ("archs", ctypes.POINTER(ctypes.c_char_p)), ("num_archs", ctypes.c_size_t),
                ("defines", ctypes.POINTER(ctypes.c_char_p)), ("num_defines", ctypes.c_size_t),
                ("opt_level", ctypes.c_int), ("fast_math", ctypes.c_int), ("lineinfo", ctypes.c_int),
                ("max_registers", ctypes.c_int)]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lib", required=True)
    args = p.parse_args()
    import numpy
    if not hasattr(numpy, "row_stack"):
        numpy.row_stack = numpy.vstack  # numba-cuda 0.30.4 with numpy 2.5
    try:
        import torch
        import cupy
        from numba import cuda
    except ImportError as e:
        print(f"SKIP: {e}")
        return 77
    if not torch.cuda.is_available():
        print("SKIP: no GPU")
        return 77
    failures = []

    def check(what, ok):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    devices = (torch.cuda.device_count(), cupy.cuda.runtime.getDeviceCount(), len(cuda.gpus))
    t = torch.randn(1 << 20, device="cuda")
    check("torch works before", abs(float((t * 2).sum()) - 2 * float(t.sum())) < 1e-2 * (1 + abs(float(t.sum()))))

    @cuda.jit
    def inc(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] += 1.0
    d = cuda.to_device(numpy.zeros(1024, numpy.float32))
    inc[4, 256](d)
    check("numba-cuda works before", bool((d.copy_to_host() == 1.0).all()))

    lib = ctypes.CDLL(os.path.abspath(args.lib))
    lib.pykc_session_create.restype = ctypes.c_void_p
    lib.pykc_session_create.argtypes = [ctypes.POINTER(SessionOptions)]
    lib.pykc_compile.restype = ctypes.c_void_p
    lib.pykc_compile.argtypes = [ctypes.c_void_p, ctypes.POINTER(CompileOptions)]
    lib.pykc_result_exit_class.argtypes = [ctypes.c_void_p]
    lib.pykc_result_diagnostics.restype = ctypes.c_char_p
    lib.pykc_result_diagnostics.argtypes = [ctypes.c_void_p]
    lib.pykc_result_cubin.restype = ctypes.c_void_p
    lib.pykc_result_cubin.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]
    lib.pykc_result_kernel_symbol.restype = ctypes.c_char_p
    lib.pykc_result_kernel_symbol.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    lib.pykc_result_free.argtypes = [ctypes.c_void_p]
    lib.pykc_session_options_init.argtypes = [ctypes.POINTER(SessionOptions)]
    lib.pykc_compile_options_init.argtypes = [ctypes.POINTER(CompileOptions)]
    so = SessionOptions()
    lib.pykc_session_options_init(ctypes.byref(so))
    so.no_cache = 1
    session = lib.pykc_session_create(ctypes.byref(so))
    co = CompileOptions()
    lib.pykc_compile_options_init(ctypes.byref(co))
    co.path = b"from_a_string.py"
    co.source = SOURCE
    co.source_size = len(SOURCE)
    arch = (ctypes.c_char_p * 1)(b"sm_90")
    co.archs = arch
    co.num_archs = 1
    times = []
    for _ in range(5):
        start = time.perf_counter()
        result = lib.pykc_compile(session, ctypes.byref(co))
        times.append((time.perf_counter() - start) * 1e3)
        status = lib.pykc_result_exit_class(result)
        if _ < 4:
            lib.pykc_result_free(result)
    check("pykc_compile in this process exits 0", status == 0)
    if status != 0:
        print(lib.pykc_result_diagnostics(result).decode())
        return 1
    print(f"     in-process cold compiles (no cache), ms: {' '.join(f'{t:.1f}' for t in times)}")
    size = ctypes.c_size_t()
    addr = lib.pykc_result_cubin(result, 0, ctypes.byref(size))
    cubin = ctypes.string_at(addr, size.value)
    symbol = lib.pykc_result_kernel_symbol(result, 0).decode()
    with tempfile.NamedTemporaryFile(suffix=".cubin", delete=False) as f:
        f.write(cubin)
    module = cupy.RawModule(path=f.name)
    kernel = module.get_function(symbol)
    n = (1 << 22) + 17
    x = cupy.random.rand(n, dtype=cupy.float32)
    y = cupy.random.rand(n, dtype=cupy.float32)
    out = cupy.full(n, cupy.nan, dtype=cupy.float32)
    a = numpy.float32(1.75)
    one = numpy.int64(1)
    size64 = numpy.int64(n)
    kernel(((n + 255) // 256,), (256,), (a, x, size64, one, y, size64, one, out, size64, one))
    cupy.cuda.runtime.deviceSynchronize()
    ref = a * x + y
    err = float(cupy.abs(out - ref).max())
    check(f"pykc's cubin on CuPy arrays matches CuPy (max error {err:.2e})", err < 1e-5 and not bool(cupy.isnan(out).any()))
    lib.pykc_result_free(result)
    lib.pykc_session_free.argtypes = [ctypes.c_void_p]
    lib.pykc_session_free(session)

    if triton is None:
        print("SKIP: no triton")
        return 77
    tx = torch.randn(4096, device="cuda")
    ty = torch.randn(4096, device="cuda")
    to = torch.empty_like(tx)
    triton_add[(4,)](tx, ty, to, 4096, BLOCK=1024)
    check("triton works after", bool(torch.allclose(to, tx + ty)))
    inc[4, 256](d)
    check("numba-cuda works after", bool((d.copy_to_host() == 2.0).all()))
    after = (torch.cuda.device_count(), cupy.cuda.runtime.getDeviceCount(), len(cuda.gpus))
    check(f"the frameworks see the same GPUs before and after ({devices} / {after})", devices == after)
    print("PASS" if not failures else "FAILED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
