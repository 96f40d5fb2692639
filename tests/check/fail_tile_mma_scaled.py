# ARGS: --diag-kinds compile %s --phase=check
# What ct.mma_scaled rejects, in cuTile's order and with its rules (its ops.mma_scaled_impl:
# operand, scale and accumulator dtypes, 2-D or 3-D tiles, scale shapes and scaling block
# sizes B = K // K_s), and float4_e2m1fn's limits: no arithmetic, no ct.mma, whole bytes.
import cuda.tile as ct


@ct.kernel
def scaled(a: "float8_e4m3fn[:, ::1]", e: "float8_e5m2[:, ::1]", s: "float8_e8m0fnu[:, ::1]",
           h: "float16[:, ::1]", p: "uint8[::1]"):
    x = ct.load(a, index=(0, 0), shape=(16, 64))
    y = ct.load(a, index=(0, 0), shape=(64, 16))
    xs = ct.load(s, index=(0, 0), shape=(16, 2))
    ys = ct.load(s, index=(0, 0), shape=(2, 16))
    acc = ct.zeros((16, 16), dtype=ct.float32)
    ok = ct.mma_scaled(x, xs, y, ys, acc)
    # x and y of one dtype, and their scales of one dtype.
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:33: error: `ct.mma_scaled`: x and y must have the same dtype, found `float8_e4m3fn` and `float8_e5m2` [tile-type]
    # CHECK:STDERR:     bad1 = ct.mma_scaled(x, xs, ct.load(e, index=(0, 0), shape=(64, 16)), ys, acc)
    # CHECK:STDERR:                                 ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    bad1 = ct.mma_scaled(x, xs, ct.load(e, index=(0, 0), shape=(64, 16)), ys, acc)
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:36: error: `ct.mma_scaled`: x_scale and y_scale must have the same dtype, found `float8_e8m0fnu` and `float8_e4m3fn` [tile-type]
    # CHECK:STDERR:     bad2 = ct.mma_scaled(x, xs, y, ys.astype(ct.float8_e4m3fn), acc)
    # CHECK:STDERR:                                    ^~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    bad2 = ct.mma_scaled(x, xs, y, ys.astype(ct.float8_e4m3fn), acc)
    # float8 or float4 operands; float8's scales are E8M0; float32 accumulators.
    hx = ct.load(h, index=(0, 0), shape=(16, 64))
    hy = ct.load(h, index=(0, 0), shape=(64, 16))
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:26: error: `ct.mma_scaled`: unsupported input dtype `float16`; the supported input dtypes are float8_e4m3fn, float8_e5m2, float4_e2m1fn [tile-type]
    # CHECK:STDERR:     bad3 = ct.mma_scaled(hx, xs, hy, ys, acc)
    # CHECK:STDERR:                          ^~
    # CHECK:STDERR:
    bad3 = ct.mma_scaled(hx, xs, hy, ys, acc)
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:29: error: `ct.mma_scaled`: unsupported scale dtype `bfloat16` for input dtype `float8_e4m3fn`; the supported scale dtypes are float8_e8m0fnu [tile-type]
    # CHECK:STDERR:     bad4 = ct.mma_scaled(x, xs.astype(ct.bfloat16), y, ys.astype(ct.bfloat16), acc)
    # CHECK:STDERR:                             ^~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    bad4 = ct.mma_scaled(x, xs.astype(ct.bfloat16), y, ys.astype(ct.bfloat16), acc)
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:40: error: `ct.mma_scaled`: unsupported acc dtype `float16`; expected float32 [tile-type]
    # CHECK:STDERR:     bad5 = ct.mma_scaled(x, xs, y, ys, acc.astype(ct.float16))
    # CHECK:STDERR:                                        ^~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    bad5 = ct.mma_scaled(x, xs, y, ys, acc.astype(ct.float16))
    # 2-D or 3-D tiles.
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:26: error: `ct.mma_scaled`'s `x` must be 2-D or 3-D, found shape (1024,) [tile-shape]
    # CHECK:STDERR:     bad6 = ct.mma_scaled(x.reshape((1024,)), xs, y, ys, acc)
    # CHECK:STDERR:                          ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    bad6 = ct.mma_scaled(x.reshape((1024,)), xs, y, ys, acc)
    # A scale matches its operand but along K, which it splits into blocks of 32 (float8).
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:29: error: `ct.mma_scaled`: x_scale shape (8, 2) is not compatible with x shape (16, 64): all dimensions except the K axis 1 must match [tile-shape]
    # CHECK:STDERR:     bad7 = ct.mma_scaled(x, ct.load(s, index=(0, 0), shape=(8, 2)), y, ys, acc)
    # CHECK:STDERR:                             ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    bad7 = ct.mma_scaled(x, ct.load(s, index=(0, 0), shape=(8, 2)), y, ys, acc)
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:36: error: `ct.mma_scaled`: y_scale shape (2, 8) is not compatible with y shape (64, 16): all dimensions except the K axis 0 must match [tile-shape]
    # CHECK:STDERR:     bad8 = ct.mma_scaled(x, xs, y, ct.load(s, index=(0, 0), shape=(2, 8)), acc)
    # CHECK:STDERR:                                    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    bad8 = ct.mma_scaled(x, xs, y, ct.load(s, index=(0, 0), shape=(2, 8)), acc)
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:29: error: `ct.mma_scaled`: for dtype float8_e4m3fn scaled by float8_e8m0fnu, x.shape[1] must be an exact multiple of x_scale.shape[1] with scaling block size B = K // K_s in {32}, found x.shape[1] = 64 and x_scale.shape[1] = 8 [tile-shape]
    # CHECK:STDERR:     bad9 = ct.mma_scaled(x, ct.load(s, index=(0, 0), shape=(16, 8)), y, ys, acc)
    # CHECK:STDERR:                             ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    bad9 = ct.mma_scaled(x, ct.load(s, index=(0, 0), shape=(16, 8)), y, ys, acc)
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:30: error: `ct.mma_scaled`: x_scale shape (16, 1, 2) is not compatible with x shape (16, 64): all dimensions except the K axis 1 must match [tile-shape]
    # CHECK:STDERR:     bad10 = ct.mma_scaled(x, xs.reshape((16, 1, 2)), y, ys, acc)
    # CHECK:STDERR:                              ^~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    bad10 = ct.mma_scaled(x, xs.reshape((16, 1, 2)), y, ys, acc)
    # The accumulator has the product's shape.
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:41: error: `ct.mma_scaled`: the accumulator's shape must be (16, 16), found (16, 32) [tile-shape]
    # CHECK:STDERR:     bad11 = ct.mma_scaled(x, xs, y, ys, ct.zeros((16, 32), dtype=ct.float32))
    # CHECK:STDERR:                                         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    bad11 = ct.mma_scaled(x, xs, y, ys, ct.zeros((16, 32), dtype=ct.float32))
    # float4 operands take E4M3 scales in blocks of 16 only.
    q = ct.unpack_from_bytes(ct.load(p, index=(0,), shape=(512,)), ct.float4_e2m1fn).reshape((16, 64))
    qy = ct.unpack_from_bytes(ct.load(p, index=(0,), shape=(512,)), ct.float4_e2m1fn).reshape((64, 16))
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:30: error: `ct.mma_scaled`: for dtype float4_e2m1fn scaled by float8_e4m3fn, x.shape[1] must be an exact multiple of x_scale.shape[1] with scaling block size B = K // K_s in {16}, found x.shape[1] = 64 and x_scale.shape[1] = 2 [tile-shape]
    # CHECK:STDERR:     bad12 = ct.mma_scaled(q, xs.astype(ct.float8_e4m3fn), qy, ys.astype(ct.float8_e4m3fn), acc)
    # CHECK:STDERR:                              ^~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    bad12 = ct.mma_scaled(q, xs.astype(ct.float8_e4m3fn), qy, ys.astype(ct.float8_e4m3fn), acc)
    # float4 tiles have no arithmetic and are no ct.mma operands.
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:17: error: `float4_e2m1fn` tiles are unpacked, packed, converted and `ct.mma_scaled` operands, without arithmetic: convert with `.astype(ct.float32)` first [tile-type]
    # CHECK:STDERR:     bad13 = q * 2
    # CHECK:STDERR:                 ^
    # CHECK:STDERR:
    bad13 = q * 2
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:13: error: `ct.mma` of `float4_e2m1fn` tiles: float4 operands take block scales (ct.mma_scaled) [tile-type]
    # CHECK:STDERR:     bad14 = ct.mma(q, qy, acc)
    # CHECK:STDERR:             ^~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    bad14 = ct.mma(q, qy, acc)
    # ct.pack_to_bytes takes whole bytes of float4 values; ct.bitcast keeps the width.
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:13: error: `ct.pack_to_bytes` of an odd number (1) of `float4_e2m1fn` elements: they pack two per byte [tile-shape]
    # CHECK:STDERR:     bad15 = ct.pack_to_bytes(ct.full((1,), 1.0, dtype=ct.float4_e2m1fn))
    # CHECK:STDERR:             ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    bad15 = ct.pack_to_bytes(ct.full((1,), 1.0, dtype=ct.float4_e2m1fn))
    # CHECK:STDERR: fail_tile_mma_scaled.py:[[@LINE+4]]:13: error: `ct.bitcast` keeps the bits, so it needs two non-bool dtypes of one width, found `float4_e2m1fn` (4 bits) and `uint8` (8 bits) [tile-type]
    # CHECK:STDERR:     bad16 = ct.bitcast(q, ct.uint8)
    # CHECK:STDERR:             ^~~~~~~~~~~~~~~~~~~~~~~
    # CHECK:STDERR:
    bad16 = ct.bitcast(q, ct.uint8)
