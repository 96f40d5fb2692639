"""Alias versioning (backend/passes/alias_versioning.h, docs/compile.md): a kernel whose loop
stores to one array argument and loads from another gets a run-time overlap check of
the arrays' byte ranges (unsigned compares, `setp.*.u64`) and a second body in which
loads may move above stores to other arrays; other kernels are left as they were."""
from numba import cuda


@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
def saxpy(a, x, y, out):
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        out[i] = a * x[i] + y[i]


@cuda.jit("void(float32[:, :], float32[:, :], float32[:, :])")
def add2d(a, b, out):
    for i in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):
        for j in range(a.shape[1]):
            out[i, j] = a[i, j] + b[i, j]


@cuda.jit("void(float32[::1], float32)")
def scale_inplace(x, a):
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        x[i] = x[i] * a


@cuda.jit("void(float32[::1], float32[::1])")
def total(x, out):
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        cuda.atomic.add(out, 0, x[i])


@cuda.jit("void(float32[::1], float32[::1])")
def copy_once(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = x[i]

@cuda.jit("void(float32[::1], float32[::1], float32[::1], float32[::1], float32[::1], "
          "float32[::1], float32[::1], float32[::1])")
def sum7(a, b, c, d, e, f, g, out):
    for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        out[i] = a[i] + b[i] + c[i] + d[i] + e[i] + f[i] + g[i]


@cuda.jit("void(float32[::1], float32[::1], float32[::1], float32[::1], float32[::1], "
          "float32[::1], float32[::1], float32[::1], float32[::1])")
def sum8(a, b, c, d, e, f, g, h, out):
    for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        out[i] = a[i] + b[i] + c[i] + d[i] + e[i] + f[i] + g[i] + h[i]


# nvtabular's _slice_rows: a row's offsets are read, then the row copied. The check goes
# above the copy loop, after the offsets' loads, not into the entry.
@cuda.jit("void(int32[::1], int64[::1], int32[::1], int64[::1])")
def copy_rows(offsets, elements, new_offsets, new_elements):
    row = cuda.grid(1)
    if row < new_offsets.size - 1:
        offset = offsets[row]
        for k in range(new_offsets[row], new_offsets[row + 1]):
            new_elements[k] = elements[offset]
            offset += 1


# A read-only loop beside the copying one (softmax's shape): the copy's extra registers
# would cost the read-only loop's occupancy, so no check, no second body.
@cuda.jit("void(float32[::1], float32[::1])")
def normalise(x, out):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        out[i] = x[i] / s

# The check, then the grid-stride loop unrolled by 4 with its 8 loads before a store
# (the no-alias body; tests/inspect/alias_versioning.py shows both bodies).
# PTX-IN saxpy: setp\.\w+\.u64
# PTX-IN saxpy: (?s)(?:ld\.global\.f32(?:(?!st\.global).)*?){8}st\.global\.f32
# PTX-IN add2d: setp\.\w+\.u64
# PTX-IN add2d: (?s)(?:ld\.global\.f32(?:(?!st\.global).)*?){8}st\.global\.f32
# Contiguous arrays' strides are not negative: their byte ranges need no min/max (every
# thread computes the check; nvtabular's _slice_rows spent 124 SASS instructions on it,
# now 47 with the rest of its prologue); add2d's `[:, :]` arrays may have negative strides.
# PTX-NOT-IN saxpy: min\.s64
# PTX-IN add2d: min\.s64
# PTX-IN copy_rows: (?s)\A(?:(?!setp\.\w+\.u64).)*ld\.global\.
# PTX-IN copy_rows: (?s)(?:ld\.global\.u64(?:(?!st\.global).)*?){4}st\.global\.u64
# At most 8 arrays (kAliasVersioningMaxArrays: 7 pairs checked for sum7, 8 for sum8).
# PTX-IN sum7: setp\.\w+\.u64
# PTX-NOT-IN sum8: setp\.\w+\.u64
# One array, atomics only, or no loop: no check, no second body.
# PTX-NOT-IN scale_inplace: setp\.\w+\.u64
# PTX-NOT-IN total: setp\.\w+\.u64
# PTX-NOT-IN copy_once: setp\.\w+\.u64
# (normalise's read-only loop is unrolled with a 64-bit trip-count compare of its own:
# tell the bodies apart by their stores, one without the second body.)
# PTX-NOT-IN normalise: (?s)st\.global.*st\.global
# FILES: alias_versioning.sm_90.cubin alias_versioning.sm_90.ptx manifest.json
