"""numba-cuda peer for the compile benchmark: compile every kernel of a numba.cuda
Python file to PTX for sm_90, without a GPU.

    build-bench/venv/bin/python bench/compile/numba_compile.py FILE.py [--out DIR] [--quiet]

numba compiles a kernel with a signature eagerly, at decoration, for the current device,
so a file cannot simply be imported without a GPU. Instead ``numba.cuda.jit`` is replaced,
while the file runs, by a recorder: kernels (no ``device=True``) are recorded with their
signatures and not compiled; device functions go to the real ``cuda.jit`` (lazy). Then
every (kernel, signature) goes through ``numba.cuda.compile_ptx(pyfunc, sig, cc=(9, 0))``,
which is what numba runs up to the PTX (NVVM included). numba stops at PTX: turning it
into a cubin (ptxas, or the driver at load) is not counted here, whereas pykc's and
NVRTC's times include it.
"""
import argparse
import os
import sys
import time

t_start = time.perf_counter()
os.environ.setdefault("NUMBA_DISABLE_CUDA", "0")

from numba import cuda  # noqa: E402
import numba.cuda.dispatcher as _dispatcher  # noqa: E402

t_import = time.perf_counter()


class _FakeDevice:
    """Device functions are compiled (lazily, from a kernel's compile) for the current
    device's compute capability; without a GPU that query fails, so answer (9, 0)."""
    compute_capability = (9, 0)


_dispatcher.get_current_device = lambda: _FakeDevice()

_real_jit = cuda.jit
_recorded = []  # (name, pyfunc, [signatures], options)


def _recording_jit(*args, **kwargs):
    sigs = None
    func = None
    if args and callable(args[0]) and not isinstance(args[0], (str, list, tuple)):
        # bare @cuda.jit or cuda.jit(func, ...)
        func, args = args[0], args[1:]
    if args:
        sigs = args[0]
    elif "signature" in kwargs or "sig" in kwargs:
        sigs = kwargs.get("signature", kwargs.get("sig"))
    if kwargs.get("device"):
        if func is not None:
            return _real_jit(func, *args, **kwargs)
        return _real_jit(*args, **kwargs)

    def record(f):
        if sigs is None:
            import inspect
            ann = inspect.get_annotations(f, eval_str=True)
            params = list(inspect.signature(f).parameters)
            siglist = [tuple(ann[p] for p in params)]
        elif isinstance(sigs, list):
            siglist = sigs
        else:
            siglist = [sigs]
        opts = {k: v for k, v in kwargs.items() if k in ("fastmath", "lineinfo", "debug", "opt")}
        _recorded.append((f.__name__, f, siglist, opts))
        return f

    return record(func) if func is not None else record


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--out", help="write NAME_i.ptx files here")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--json", help="append the in-process times (ms) to this JSON-lines file")
    a = ap.parse_args()

    cuda.jit = _recording_jit
    try:
        src = open(a.file).read()
        g = {"__name__": "pykc_bench_kernels", "__file__": os.path.abspath(a.file)}
        sys.path.insert(0, os.path.dirname(os.path.abspath(a.file)))
        exec(compile(src, a.file, "exec"), g)
    finally:
        cuda.jit = _real_jit
    t_exec = time.perf_counter()

    n = 0
    for name, f, siglist, opts in _recorded:
        for k, sig in enumerate(siglist):
            ptx, _resty = cuda.compile_ptx(f, sig, cc=(9, 0), **opts)
            n += 1
            if a.out:
                os.makedirs(a.out, exist_ok=True)
                with open(os.path.join(a.out, f"{name}_{k}.ptx"), "w") as fh:
                    fh.write(ptx)
    t_end = time.perf_counter()
    if not a.quiet:
        print(f"{a.file}: {n} kernel signatures; import numba {1e3 * (t_import - t_start):.0f} ms, "
              f"run file {1e3 * (t_exec - t_import):.0f} ms, compile_ptx {1e3 * (t_end - t_exec):.0f} ms")
    if a.json:
        import json
        with open(a.json, "a") as fh:
            fh.write(json.dumps({"file": os.path.basename(a.file), "signatures": n,
                                 "import_ms": 1e3 * (t_import - t_start),
                                 "exec_ms": 1e3 * (t_exec - t_import),
                                 "compile_ptx_ms": 1e3 * (t_end - t_exec)}) + "\n")
    if n == 0:
        print("no kernels found", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
