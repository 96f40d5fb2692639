# ARGS: --diag-kinds inspect %s::fill --emit cache-key --json -O2 --use-fast-math
# MASK: \d+\.\d+(\.\d+)*(\+\[\[HASH\]\])?
# MASK: (?<="size": )\d+
# MASK: \d+(?= bytes, blake3)
"""`--emit cache-key --json`: fields, sizes and digests for tools."""
from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def scale(x, a):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * a


@cuda.jit("void(int32[::1])")
def fill(x):
    x[cuda.grid(1)] = 7
# CHECK:STDOUT: {
# CHECK:STDOUT:   "kernels": [
# CHECK:STDOUT:     {
# CHECK:STDOUT:       "name": "fill",
# CHECK:STDOUT:       "signature": "void(int32[::1])",
# CHECK:STDOUT:       "symbol": "fill__i32a1C",
# CHECK:STDOUT:       "arch": "sm_90",
# CHECK:STDOUT:       "key": "[[HASH]]",
# CHECK:STDOUT:       "fields": [
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "scheme",
# CHECK:STDOUT:           "summary": "\"1\"",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "pykc",
# CHECK:STDOUT:           "summary": "\"[[MASKED]]\"",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "llvm",
# CHECK:STDOUT:           "summary": "\"[[MASKED]]\"",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "nvjitlink",
# CHECK:STDOUT:           "summary": "[[MASKED]] bytes, blake3 [[HASH]]",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "arch",
# CHECK:STDOUT:           "summary": "\"sm_90\"",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "opt",
# CHECK:STDOUT:           "summary": "\"2\"",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "fast-math",
# CHECK:STDOUT:           "summary": "\"1\"",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "ftz",
# CHECK:STDOUT:           "summary": "\"0\"",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "maxrregcount",
# CHECK:STDOUT:           "summary": "\"0\"",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "lineinfo",
# CHECK:STDOUT:           "summary": "\"0\"",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "debug",
# CHECK:STDOUT:           "summary": "\"0\"",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "alias-versioning",
# CHECK:STDOUT:           "summary": "\"1\"",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "libdevice",
# CHECK:STDOUT:           "summary": "[[MASKED]] bytes, blake3 [[HASH]]",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "kernel",
# CHECK:STDOUT:           "summary": "\"fill\"",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "signature",
# CHECK:STDOUT:           "summary": "\"void(int32[::1])\"",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "symbol",
# CHECK:STDOUT:           "summary": "\"fill__i32a1C\"",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "module",
# CHECK:STDOUT:           "summary": "[[MASKED]] bytes, blake3 [[HASH]]",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "function",
# CHECK:STDOUT:           "summary": "\"fill\"",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "tag": "source",
# CHECK:STDOUT:           "summary": "[[MASKED]] bytes, blake3 [[HASH]]",
# CHECK:STDOUT:           "size": [[MASKED]],
# CHECK:STDOUT:           "blake3": "[[HASH]]"
# CHECK:STDOUT:         }
# CHECK:STDOUT:       ]
# CHECK:STDOUT:     }
# CHECK:STDOUT:   ]
# CHECK:STDOUT: }
