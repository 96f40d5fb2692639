#!/usr/bin/env python3
"""Bandwidth of pykc's tile kernels (docs/TILE.md) against a device-to-device copy.

Runs on the GPU machine, on the output of
    pykc compile bench/gpu/tile_bandwidth_kernels.py --arch sm_90 \\
        -o ROOT/tile_bandwidth_kernels --const TILE=1024 --const TILE=2048 --const TILE=4096

    python3 bench/gpu/tile_bandwidth.py ROOT [ROOT...] [--reps 50] [--refs]

(cases whose tile size a ROOT lacks are left out.)
Each case is first checked against a float64 reference computed with cupy (fresh
random inputs, a poisoned output), then timed with CUDA events around --reps launches
queued back to back (see Timer). Bandwidth counts the bytes the kernel must move (vector
add: read a and b, write c; softmax: read and write the matrix), against cupy's
device-to-device copy of the same number of bytes measured in the same run. Several
ROOTs (builds of the same kernels by different pykc versions) are measured on the
same inputs. --refs adds cupy's own add and a hand-written CUDA C++ softmax (one row
per block, NVRTC) as references. Prints JSON. Issue 9's target: at least 85 % of the
copy's bandwidth.
"""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import cupy as cp  # noqa: E402

import pykc  # noqa: E402

# (kernel, dtype, n, tile): n not a multiple of tile exercises the edge path.
VECTOR_ADD = [
    ("vector_add", "float32", 1 << 28, 1024),
    ("vector_add", "float32", 1 << 28, 4096),
    ("vector_add", "float32", (1 << 28) - 37, 1024),
    ("vector_add", "float32", 1 << 27, 1024),
    ("vector_add", "float32", 1 << 25, 1024),
    ("vector_add_f16", "float16", 1 << 28, 2048),
    ("vector_add_f16", "float16", 1 << 28, 4096),
    ("vector_add_f16", "float16", (1 << 28) - 37, 2048),
    ("vector_add_f16", "float16", 1 << 29, 2048),
]
# (kernel, dtype, rows, cols, tile): cols < tile pads every row (the edge path).
SOFTMAX = [
    ("softmax", "float32", 1 << 16, 1024, 1024),
    ("softmax", "float32", 1 << 14, 4096, 4096),
    ("softmax", "float32", 1 << 16, 1000, 1024),
    ("softmax_f16", "float16", 1 << 16, 2048, 2048),
    ("softmax_f16", "float16", 1 << 16, 1024, 1024),
    ("softmax_f16", "float16", 1 << 16, 1000, 1024),
    # 4x the rows: 1024-column rows of 1 << 16 are too short a launch to time without
    # the Python launcher showing (the bench flags them host-bound).
    ("softmax_f16", "float16", 1 << 18, 1024, 1024),
    ("softmax_f16", "float16", 1 << 18, 1000, 1024),
    # ct.exp(..., rounding_mode=APPROX) and ct.truediv(..., rounding_mode=APPROX), as a
    # cuTile user asks for a fast softmax (builds without the kernel skip these).
    ("softmax_f16_approx", "float16", 1 << 16, 2048, 2048),
    ("softmax_f16_approx", "float16", 1 << 16, 1024, 1024),
    ("softmax_f16_approx", "float16", 1 << 16, 1000, 1024),
    ("softmax_f16_approx", "float16", 1 << 18, 1024, 1024),
    ("softmax_f16_approx", "float16", 1 << 18, 1000, 1024),
]

REFERENCE_SOFTMAX = r"""
#include <cuda_fp16.h>
// One row per block; 16-byte loads and stores; the row stays in registers.
template <typename T, int COLS, int THREADS>
__global__ void __launch_bounds__(THREADS) softmax_ref(const T* __restrict__ x, T* __restrict__ y) {
  constexpr int VEC = 16 / sizeof(T);
  constexpr int CHUNKS = COLS / (THREADS * VEC);
  constexpr int WARPS = THREADS / 32;
  __shared__ float red[2][WARPS];
  const uint4* row = reinterpret_cast<const uint4*>(x + (size_t)blockIdx.x * COLS);
  float v[CHUNKS * VEC];
#pragma unroll
  for (int c = 0; c < CHUNKS; ++c) {
    uint4 raw = row[c * THREADS + threadIdx.x];
    const T* e = reinterpret_cast<const T*>(&raw);
#pragma unroll
    for (int j = 0; j < VEC; ++j) v[c * VEC + j] = (float)e[j];
  }
  float m = __int_as_float(0xff800000);  // -inf
#pragma unroll
  for (int i = 0; i < CHUNKS * VEC; ++i) m = fmaxf(m, v[i]);
  for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  if (threadIdx.x % 32 == 0) red[0][threadIdx.x / 32] = m;
  __syncthreads();
  m = red[0][0];
#pragma unroll
  for (int w = 1; w < WARPS; ++w) m = fmaxf(m, red[0][w]);
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < CHUNKS * VEC; ++i) { v[i] = __expf(v[i] - m); s += v[i]; }
  for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0) red[1][threadIdx.x / 32] = s;
  __syncthreads();
  s = red[1][0];
#pragma unroll
  for (int w = 1; w < WARPS; ++w) s += red[1][w];
  uint4* out = reinterpret_cast<uint4*>(y + (size_t)blockIdx.x * COLS);
#pragma unroll
  for (int c = 0; c < CHUNKS; ++c) {
    uint4 raw;
    T* e = reinterpret_cast<T*>(&raw);
#pragma unroll
    for (int j = 0; j < VEC; ++j) e[j] = (T)(v[c * VEC + j] / s);
    out[c * THREADS + threadIdx.x] = raw;
  }
}
"""
REFERENCE_CONFIGS = [("float", "float32", 1024, 64), ("float", "float32", 1024, 128),
                     ("float", "float32", 1024, 256),
                     ("float", "float32", 4096, 256), ("__half", "float16", 2048, 128),
                     ("__half", "float16", 2048, 256)]


class Timer:
    """GPU time per launch: `reps` launches queued back to back between two CUDA events,
    behind about 2 ms of copies that keep the GPU busy while the host queues them (timing
    one launch between events counts the host's launch overhead, tens of microseconds
    for a Python launcher, as GPU time). `host_bound` lists the cases whose queueing was
    not ahead of the GPU (their times include idle gaps)."""

    def __init__(self, reps):
        self.reps, self.host_bound = reps, []
        self.busy_src = cp.empty(1 << 30, cp.uint8)
        self.busy_dst = cp.empty_like(self.busy_src)

    def __call__(self, fn, name=""):
        fn()
        cp.cuda.runtime.deviceSynchronize()
        for _ in range(2):
            cp.cuda.runtime.memcpyAsync(self.busy_dst.data.ptr, self.busy_src.data.ptr,
                                        self.busy_src.nbytes, cp.cuda.runtime.memcpyDeviceToDevice, 0)
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        host = time.perf_counter()
        for _ in range(self.reps):
            fn()
        host = time.perf_counter() - host
        stop.record()
        stop.synchronize()
        gpu = cp.cuda.get_elapsed_time(start, stop) * 1e-3
        if host > gpu:
            self.host_bound.append(name)
        return gpu / self.reps


class CopyReference:
    """Device-to-device copy time per byte count (cached: one measurement per size)."""

    def __init__(self, timed):
        self.timed, self.seen = timed, {}

    def seconds(self, nbytes):
        if nbytes not in self.seen:
            src = cp.empty(nbytes // 2, cp.uint8)
            dst = cp.empty_like(src)
            self.seen[nbytes] = self.timed(lambda: cp.cuda.runtime.memcpyAsync(
                dst.data.ptr, src.data.ptr, src.nbytes, cp.cuda.runtime.memcpyDeviceToDevice, 0),
                f"copy {nbytes}")
        return self.seen[nbytes]


def check(name, got, want, tol, failures):
    """Whether `got` matches; a mismatch is reported and remembered (the run goes on)."""
    err = float(cp.max(cp.abs(got.astype(cp.float64) - want) / (cp.abs(want) + tol)))
    if err <= tol:  # False for NaN too
        return True
    print(f"tile_bandwidth: {name}: wrong result (max relative error {err:.3g})", file=sys.stderr)
    failures.append(name)
    return False


def softmax64(x):
    x = x.astype(cp.float64)
    e = cp.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("roots", nargs="+")
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--refs", action="store_true", help="also time cupy's add and a CUDA C++ softmax")
    a = ap.parse_args()
    mods = {os.path.basename(os.path.normpath(r)) or r: pykc.load(os.path.join(r, "tile_bandwidth_kernels"),
                                                                  backend="cupy") for r in a.roots}
    timed = Timer(a.reps)
    copy = CopyReference(timed)
    results, failures = [], []

    def record(build, case, nbytes, seconds):
        copy_s = copy.seconds(nbytes)
        results.append({"build": build, "case": case, "bytes": nbytes,
                        "us": round(seconds * 1e6, 1), "GB/s": round(nbytes / seconds / 1e9, 1),
                        "of copy": round(copy_s / seconds, 3)})
        print(json.dumps(results[-1]), file=sys.stderr, flush=True)

    def launch_or_skip(mod, kernel, grid, args):
        """A launcher, after one launch; None where the build has no such specialisation."""
        try:
            k = mod[kernel]
        except KeyError:
            return None
        run = lambda: pykc.launch(None, grid, k, args)  # noqa: E731
        try:
            run()
        except pykc.ArgumentError:
            return None
        return run

    for kernel, dtype, n, tile in VECTOR_ADD:
        x = cp.random.rand(n).astype(dtype)
        y = cp.random.rand(n).astype(dtype)
        want = x.astype(cp.float64) + y.astype(cp.float64)
        out = cp.empty_like(x)
        case = f"{kernel} n={n} tile={tile}"
        nbytes = 3 * x.nbytes
        for build, mod in mods.items():
            out.fill(float("nan"))
            run = launch_or_skip(mod, kernel, ((n + tile - 1) // tile,), (x, y, out, tile))
            if run is None:
                continue
            if check(f"{build} {case}", out, want, 1e-3, failures):
                record(build, case, nbytes, timed(run, f"{build} {case}"))
        if a.refs:
            record("cupy", case, nbytes, timed(lambda: cp.add(x, y, out=out), f"cupy {case}"))
        del x, y, want, out

    ref_module = None
    if a.refs:
        names = [f"softmax_ref<{t}, {c}, {th}>" for t, _, c, th in REFERENCE_CONFIGS]
        try:
            ref_module = cp.RawModule(code=REFERENCE_SOFTMAX, options=("-std=c++17",),
                                      name_expressions=names)
            ref_module.compile()
        except Exception as err:  # the pykc numbers still count without the reference
            print(f"tile_bandwidth: CUDA C++ reference not built: {err}", file=sys.stderr)
            ref_module = None
    for kernel, dtype, rows, cols, tile in SOFTMAX:
        x = cp.random.standard_normal((rows, cols)).astype(dtype)
        want = softmax64(x)
        out = cp.empty_like(x)
        case = f"{kernel} {rows}x{cols} tile={tile}"
        tol = 1e-2 if dtype == "float16" else 1e-4
        nbytes = 2 * x.nbytes
        for build, mod in mods.items():
            out.fill(float("nan"))
            run = launch_or_skip(mod, kernel, (rows,), (x, out, tile))
            if run is None:
                continue
            if check(f"{build} {case}", out, want, tol, failures):
                record(build, case, nbytes, timed(run, f"{build} {case}"))
        for t, dt, c, th in REFERENCE_CONFIGS if ref_module is not None else []:
            if dt != dtype or c != cols:
                continue
            fn = ref_module.get_function(f"softmax_ref<{t}, {c}, {th}>")
            run = lambda: fn((rows,), (th,), (x, out))  # noqa: E731
            out.fill(float("nan"))
            run()
            if check(f"cuda-{th} {case}", out, want, tol, failures):
                record(f"cuda-{th}", case, nbytes, timed(run, f"cuda-{th} {case}"))
        del x, want, out

    print(json.dumps({"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                      "results": results, "wrong": failures,
                      "host_bound": timed.host_bound}, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
