# ARGS: --diag-kinds inspect %s --emit cache-key
# MASK: (?<=pykc: ")[^"]+|(?<=llvm: ")[^"]+|(?<=nvjitlink: ).+|(?<=libdevice: )\d+
"""`--emit cache-key`: the fields of each kernel's key (versions and digests masked)."""
from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * a


@cuda.jit("void(int32[::1])")
def fill(x):
    x[cuda.grid(1)] = 7
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
