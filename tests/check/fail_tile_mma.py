# ARGS: --diag-kinds compile %s --phase=check
# Matrix products of tile kernels (docs/TILE.md, "Matrix products"): what ct.mma,
# ct.matmul and `@` reject.
import cuda.tile as ct


@ct.kernel
def products(a: "float16[:, ::1]", b: "bfloat16[:, ::1]", c: "int16[:, ::1]", d: "float16[::1]"):
    ta = ct.load(a, index=(0, 0), shape=(16, 32))
    tb = ct.load(b, index=(0, 0), shape=(32, 16))
    tc = ct.load(c, index=(0, 0), shape=(16, 16))
    acc = ct.zeros((16, 16), dtype=ct.float32)
    # ct.mma does not promote: both operands of one dtype.
    # CHECK:STDERR: fail_tile_mma.py:[[@LINE+4]]:9: error: `ct.mma` takes operands of one dtype (it does not promote), found `float16` and `bfloat16` [tile-type]
    # CHECK:STDERR:     x = ct.mma(ta, tb, acc)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    x = ct.mma(ta, tb, acc)
    # The shapes must agree.
    # CHECK:STDERR: fail_tile_mma.py:[[@LINE+4]]:9: error: `ct.mma`: the shapes `tile(float16, (16, 32))` and `tile(float16, (16, 32))` do not agree (the left's columns must equal the right's rows) [tile-shape]
    # CHECK:STDERR:     y = ct.mma(ta, ta, acc)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    y = ct.mma(ta, ta, acc)
    # The accumulator has the product's shape.
    # CHECK:STDERR: fail_tile_mma.py:[[@LINE+4]]:9: error: `ct.mma`'s accumulator `tile(float32, (16, 16))` must have the product's shape `tile(float32, (16, 8))` [tile-shape]
    # CHECK:STDERR:     z = ct.mma(ta, ct.load(a, index=(0, 0), shape=(32, 8)), acc)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    z = ct.mma(ta, ct.load(a, index=(0, 0), shape=(32, 8)), acc)
    # bfloat16 accumulates in float32 only.
    # CHECK:STDERR: fail_tile_mma.py:[[@LINE+4]]:9: error: `ct.mma` of `bfloat16` tiles accumulates in float32, not `bfloat16` [tile-type]
    # CHECK:STDERR:     w = ct.mma(ct.load(b, index=(0, 0), shape=(32, 32)), tb, ct.zeros((32, 16), dtype=ct.bfloat16))
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    w = ct.mma(ct.load(b, index=(0, 0), shape=(32, 32)), tb, ct.zeros((32, 16), dtype=ct.bfloat16))
    # int16 is not a matrix-product dtype.
    # CHECK:STDERR: fail_tile_mma.py:[[@LINE+4]]:9: error: `@` of `int16` tiles: matrix products take float16, bfloat16, float32, tfloat32, float64, int8 or uint8 [tile-type]
    # CHECK:STDERR:     v = tc @ tc
    # CHECK:STDERR:         ^~~~~~~
    # CHECK:STDERR:
    v = tc @ tc
    # Tiles of 2 or more dimensions only.
    # CHECK:STDERR: fail_tile_mma.py:[[@LINE+4]]:9: error: `ct.matmul` of 1-D tiles is not supported in tile kernels yet (tiles of 2 or more dimensions: a batch of matrices) [tile-unsupported]
    # CHECK:STDERR:     u = ct.matmul(ct.load(d, index=(0,), shape=(16,)), ta)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    u = ct.matmul(ct.load(d, index=(0,), shape=(16,)), ta)
    # An accumulator that is no tile.
    # CHECK:STDERR: fail_tile_mma.py:[[@LINE+4]]:9: error: `ct.mma`'s accumulator must be a tile, found `0` [tile-type]
    # CHECK:STDERR:     s = ct.mma(ta, ct.load(a, index=(0, 0), shape=(32, 16)), 0)
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    s = ct.mma(ta, ct.load(a, index=(0, 0), shape=(32, 16)), 0)


@ct.kernel
def batches(x: "float32[:, :, ::1]"):
    # Batch dimensions broadcast as NumPy's do: 2 and 4 do not; a batched ct.mma's
    # accumulator has the batched product's shape.
    p = ct.load(x, index=(0, 0, 0), shape=(2, 8, 8))
    q = ct.load(x, index=(0, 0, 0), shape=(4, 8, 8))
    # CHECK:STDERR: fail_tile_mma.py:[[@LINE+4]]:9: error: `@`: the batch dimensions of `tile(float32, (2, 8, 8))` and `tile(float32, (4, 8, 8))` do not broadcast [tile-shape]
    # CHECK:STDERR:     r = p @ q
    # CHECK:STDERR:         ^~~~~
    # CHECK:STDERR:
    r = p @ q
    # CHECK:STDERR: fail_tile_mma.py:[[@LINE+4]]:9: error: `ct.mma`'s accumulator `tile(float32, (8, 8))` must have the product's shape `tile(float32, (2, 8, 8))` [tile-shape]
    # CHECK:STDERR:     s = ct.mma(p, p, ct.zeros((8, 8), dtype=ct.float32))
    # CHECK:STDERR:         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    s = ct.mma(p, p, ct.zeros((8, 8), dtype=ct.float32))
