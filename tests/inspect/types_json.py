# ARGS: --diag-kinds inspect %s --emit types --json -Wno-float64
"""`--emit types --json`: per function, its variables and, per line, the
variables bound there and the float64 operations."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def halve(x):
    i = cuda.grid(1)
    x[i] = x[i] * 0.5
# CHECK:STDOUT: {
# CHECK:STDOUT:   "functions": [
# CHECK:STDOUT:     {
# CHECK:STDOUT:       "kind": "kernel",
# CHECK:STDOUT:       "name": "halve",
# CHECK:STDOUT:       "signature": "void(float32[::1])",
# CHECK:STDOUT:       "symbol": "halve__f32a1C",
# CHECK:STDOUT:       "file": "types_json.py",
# CHECK:STDOUT:       "line": 8,
# CHECK:STDOUT:       "variables": {
# CHECK:STDOUT:         "i": "int64",
# CHECK:STDOUT:         "x": "array(float32, 1d, C)"
# CHECK:STDOUT:       },
# CHECK:STDOUT:       "lines": [
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "line": 7,
# CHECK:STDOUT:           "source": "@cuda.jit(\"void(float32[::1])\")",
# CHECK:STDOUT:           "variables": {},
# CHECK:STDOUT:           "float64": []
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "line": 8,
# CHECK:STDOUT:           "source": "def halve(x):",
# CHECK:STDOUT:           "variables": {
# CHECK:STDOUT:             "x": "array(float32, 1d, C)"
# CHECK:STDOUT:           },
# CHECK:STDOUT:           "float64": []
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "line": 9,
# CHECK:STDOUT:           "source": "    i = cuda.grid(1)",
# CHECK:STDOUT:           "variables": {
# CHECK:STDOUT:             "i": "int64"
# CHECK:STDOUT:           },
# CHECK:STDOUT:           "float64": []
# CHECK:STDOUT:         },
# CHECK:STDOUT:         {
# CHECK:STDOUT:           "line": 10,
# CHECK:STDOUT:           "source": "    x[i] = x[i] * 0.5",
# CHECK:STDOUT:           "variables": {},
# CHECK:STDOUT:           "float64": [
# CHECK:STDOUT:             {
# CHECK:STDOUT:               "column": 12,
# CHECK:STDOUT:               "operation": "float32 * float64",
# CHECK:STDOUT:               "source": "x[i] * 0.5",
# CHECK:STDOUT:               "note": "`0.5` is a float64 literal; write `float32(0.5)` to compute in float32"
# CHECK:STDOUT:             }
# CHECK:STDOUT:           ]
# CHECK:STDOUT:         }
# CHECK:STDOUT:       ]
# CHECK:STDOUT:     }
# CHECK:STDOUT:   ]
# CHECK:STDOUT: }
