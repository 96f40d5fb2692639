# ARGS: --diag-kinds inspect %s --emit types,resources,cache-key
# MASK: (?<=pykc: ")[^"]+|(?<=llvm: ")[^"]+|(?<=nvjitlink: ).+|(?<=libdevice: )\d+
"""Several forms on stdout: a `==> form <==` header before each."""
from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * a


@cuda.jit("void(int32[::1])")
def fill(x):
    x[cuda.grid(1)] = 7
# CHECK:STDOUT: ==> types <==
# CHECK:STDOUT: # kernel scale void(float32[::1], float32) [scale__f32a1C_f32]
# CHECK:STDOUT:     7 | @cuda.jit("void(float32[::1], float32)")
# CHECK:STDOUT:     8 | def scale(x, a):
# CHECK:STDOUT:       |     # x: array(float32, 1d, C), a: float32
# CHECK:STDOUT:     9 |     i = cuda.grid(1)
# CHECK:STDOUT:       |     # i: int64
# CHECK:STDOUT:    10 |     if i < x.size:
# CHECK:STDOUT:    11 |         x[i] = x[i] * a
# CHECK:STDOUT:
# CHECK:STDOUT: # kernel fill void(int32[::1]) [fill__i32a1C]
# CHECK:STDOUT:    14 | @cuda.jit("void(int32[::1])")
# CHECK:STDOUT:    15 | def fill(x):
# CHECK:STDOUT:       |     # x: array(int32, 1d, C)
# CHECK:STDOUT:    16 |     x[cuda.grid(1)] = 7
# CHECK:STDOUT:
# CHECK:STDOUT: ==> resources <==
# CHECK:STDOUT: scale void(float32[::1], float32) on sm_90
# CHECK:STDOUT:   symbol              scale__f32a1C_f32
# CHECK:STDOUT:   registers           8 per thread
# CHECK:STDOUT:   spills              0 bytes stored, 0 bytes loaded
# CHECK:STDOUT:   stack frame         0 bytes per thread
# CHECK:STDOUT:   static shared       0 bytes per block
# CHECK:STDOUT:   constant memory     556 bytes (bank 0: launch area and parameters)
# CHECK:STDOUT:   parameters          28 bytes
# CHECK:STDOUT:   max threads/block   1024
# CHECK:STDOUT:   occupancy           block  128: 100% (64 of 64 warps/SM, 16 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:                       block  256: 100% (64 of 64 warps/SM, 8 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:                       block  512: 100% (64 of 64 warps/SM, 4 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:                       block 1024: 100% (64 of 64 warps/SM, 2 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:
# CHECK:STDOUT: fill void(int32[::1]) on sm_90
# CHECK:STDOUT:   symbol              fill__i32a1C
# CHECK:STDOUT:   registers           10 per thread
# CHECK:STDOUT:   spills              0 bytes stored, 0 bytes loaded
# CHECK:STDOUT:   stack frame         0 bytes per thread
# CHECK:STDOUT:   static shared       0 bytes per block
# CHECK:STDOUT:   constant memory     552 bytes (bank 0: launch area and parameters)
# CHECK:STDOUT:   parameters          24 bytes
# CHECK:STDOUT:   max threads/block   1024
# CHECK:STDOUT:   occupancy           block  128: 100% (64 of 64 warps/SM, 16 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:                       block  256: 100% (64 of 64 warps/SM, 8 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:                       block  512: 100% (64 of 64 warps/SM, 4 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:                       block 1024: 100% (64 of 64 warps/SM, 2 blocks/SM; limited by warps per SM)
# CHECK:STDOUT:
# CHECK:STDOUT: ==> cache-key <==
# CHECK:STDOUT: # scale void(float32[::1], float32) on sm_90
# CHECK:STDOUT: scheme: "1"
# CHECK:STDOUT: pykc: "[[MASKED]]"
# CHECK:STDOUT: llvm: "[[MASKED]]"
# CHECK:STDOUT: nvjitlink: [[MASKED]]
# CHECK:STDOUT: arch: "sm_90"
# CHECK:STDOUT: opt: "3"
# CHECK:STDOUT: fast-math: "0"
# CHECK:STDOUT: ftz: "0"
# CHECK:STDOUT: maxrregcount: "0"
# CHECK:STDOUT: lineinfo: "0"
# CHECK:STDOUT: debug: "0"
# CHECK:STDOUT: alias-versioning: "1"
# CHECK:STDOUT: libdevice: [[MASKED]] bytes, blake3 [[HASH]]
# CHECK:STDOUT: kernel: "scale"
# CHECK:STDOUT: signature: "void(float32[::1], float32)"
# CHECK:STDOUT: symbol: "scale__f32a1C_f32"
# CHECK:STDOUT: module: 24 bytes, blake3 [[HASH]]
# CHECK:STDOUT: function: "scale"
# CHECK:STDOUT: source: 154 bytes, blake3 [[HASH]]
# CHECK:STDOUT: key: [[HASH]]
# CHECK:STDOUT:
# CHECK:STDOUT: # fill void(int32[::1]) on sm_90
# CHECK:STDOUT: scheme: "1"
# CHECK:STDOUT: pykc: "[[MASKED]]"
# CHECK:STDOUT: llvm: "[[MASKED]]"
# CHECK:STDOUT: nvjitlink: [[MASKED]]
# CHECK:STDOUT: arch: "sm_90"
# CHECK:STDOUT: opt: "3"
# CHECK:STDOUT: fast-math: "0"
# CHECK:STDOUT: ftz: "0"
# CHECK:STDOUT: maxrregcount: "0"
# CHECK:STDOUT: lineinfo: "0"
# CHECK:STDOUT: debug: "0"
# CHECK:STDOUT: alias-versioning: "1"
# CHECK:STDOUT: libdevice: [[MASKED]] bytes, blake3 [[HASH]]
# CHECK:STDOUT: kernel: "fill"
# CHECK:STDOUT: signature: "void(int32[::1])"
# CHECK:STDOUT: symbol: "fill__i32a1C"
# CHECK:STDOUT: module: 24 bytes, blake3 [[HASH]]
# CHECK:STDOUT: function: "fill"
# CHECK:STDOUT: source: 111 bytes, blake3 [[HASH]]
# CHECK:STDOUT: key: [[HASH]]
