# ARGS: --diag-kinds compile %s --phase=check
# What pykc's tile dialect does not compile yet (docs/TILE.md, "Missing").
import cuda.tile as ct


@ct.kernel
def later(a: "float16[:, ::1]", b: "float16[:, ::1]"):
    ta = ct.load(a, index=(0, 0), shape=(16, 16))
    tb = ct.load(b, index=(0, 0), shape=(16, 16))
    e = ct.argmax(ta, axis=1)
    # CHECK:STDERR: fail_tile_unsupported.py:[[@LINE+4]]:9: error: this indexing of `tile(float16, (16, 16))` is not supported in tile kernels yet: tiles take `None`, `:` and `...` only (`t[:, None]` adds an axis) [tile-unsupported]
    # CHECK:STDERR:     g = ta[0]
    # CHECK:STDERR:         ^~~~~
    # CHECK:STDERR:
    g = ta[0]
    # CHECK:STDERR: fail_tile_unsupported.py:[[@LINE+4]]:9: error: calling a dtype is not supported in tile kernels yet: use `x.astype(cuda.tile.float32)` [tile-unsupported]
    # CHECK:STDERR:     h = ct.float32(ta)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~
    # CHECK:STDERR:
    h = ct.float32(ta)


@ct.kernel
def with_block(x: "int32[::1]"):
    # CHECK:STDERR: fail_tile_unsupported.py:[[@LINE+4]]:10: error: name `open` is not defined [undefined-name]
    # CHECK:STDERR:     with open("f") as g:
    # CHECK:STDERR:          ^~~~
    # CHECK:STDERR:
    with open("f") as g:
        ct.scatter(x, 0, 1)
