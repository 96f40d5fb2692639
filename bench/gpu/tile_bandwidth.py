#!/usr/bin/env python3
"""Bandwidth of pykc's tile kernels (docs/TILE.md) against a device-to-device copy.

Runs on the GPU machine, on the output of
    pykc compile tests/gpu/kernels/tile_kernels.py --arch sm_90 -o ROOT/tile_kernels
(what tests/gpu/build_artifacts.sh ROOT writes):

    python3 bench/gpu/tile_bandwidth.py ROOT [--reps 50]

Times each kernel with CUDA events (median of --reps launches after warm-up) and
prints JSON: bytes moved / time for vector add (fp32, fp16) and row softmax (fp32,
fp16: read + write), and cupy's device-to-device copy of the same bytes as the
reference. Issue 9's target is at least 85% of the copy's bandwidth.
"""
import argparse
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "python"))

import cupy as cp  # noqa: E402
import numpy as np  # noqa: E402

import pykc  # noqa: E402


def timed(fn, reps):
    fn()
    cp.cuda.runtime.deviceSynchronize()
    times = []
    for _ in range(reps):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) * 1e-3)
    return statistics.median(times)


def d2d(dst, src):
    cp.cuda.runtime.memcpyAsync(dst.data.ptr, src.data.ptr, src.nbytes,
                                cp.cuda.runtime.memcpyDeviceToDevice, 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root")
    ap.add_argument("--reps", type=int, default=50)
    a = ap.parse_args()
    mod = pykc.load(os.path.join(a.root, "tile_kernels"), backend="cupy")
    results = []

    def record(name, nbytes, seconds, copy_seconds):
        bw, copy_bw = nbytes / seconds / 1e9, nbytes / copy_seconds / 1e9
        results.append({"kernel": name, "bytes": nbytes, "seconds": seconds, "GB/s": round(bw, 1),
                        "copy GB/s": round(copy_bw, 1), "of copy": round(bw / copy_bw, 3)})

    for kernel, dtype, tile in (("vector_add", cp.float32, 1024), ("vector_add_f16", cp.float16, 2048)):
        n = 1 << 28
        x, y = cp.random.rand(n).astype(dtype), cp.random.rand(n).astype(dtype)
        out = cp.empty_like(x)
        grid = ((n + tile - 1) // tile,)
        t = timed(lambda: pykc.launch(None, grid, mod[kernel], (x, y, out, tile)), a.reps)
        src = cp.empty(3 * n * x.itemsize // 2, cp.uint8)
        dst = cp.empty_like(src)
        tc = timed(lambda: d2d(dst, src), a.reps)  # reads + writes 3n items
        np.testing.assert_allclose(cp.asnumpy(out[:1000]).astype(np.float64),
                                   cp.asnumpy(x[:1000] + y[:1000]).astype(np.float64), rtol=1e-3)
        record(kernel, 3 * n * x.itemsize, t, tc)

    for kernel, dtype, cols in (("softmax", cp.float32, 1024), ("softmax_f16", cp.float16, 2048)):
        rows = 1 << 16
        x = cp.random.standard_normal((rows, cols)).astype(dtype)
        y = cp.empty_like(x)
        t = timed(lambda: pykc.launch(None, (rows,), mod[kernel], (x, y, cols)), a.reps)
        src = cp.empty(x.nbytes, cp.uint8)
        dst = cp.empty_like(src)
        tc = timed(lambda: d2d(dst, src), a.reps)
        record(kernel, 2 * x.nbytes, t, tc)

    print(json.dumps({"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                      "results": results}, indent=1))


if __name__ == "__main__":
    main()
