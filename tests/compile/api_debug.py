"""debug=True: a failing assert or raise stores its code in the visible global word
`pykc_error` (first failure wins, atom.cas) and ends the thread; the manifest lists
the codes. Without debug=True both are ignored and no word is emitted."""
from numba import cuda


@cuda.jit("void(float32[::1])", debug=True)
def checked(x):
    i = cuda.grid(1)
    assert x[i] >= 0, "negative input"
    if x[i] > 100:
        raise OverflowError
    x[i] += 1


@cuda.jit("void(float32[::1])")
def unchecked(x):
    assert x[0] >= 0
    x[0] += 1

# PTX: \.visible \.global \.align 4 \.u32 pykc_error;
# PTX-IN checked: atom\.global\.cas\.b32\s+%r\d+, \[%rd\d+\], 0, 1;
# PTX-IN checked: atom\.global\.cas\.b32\s+%r\d+, \[%rd\d+\], 0, 2;
# PTX-NOT-IN unchecked: pykc_error
# MANIFEST: m["kernels"][0]["errors"] == [{"code": 1, "type": "AssertionError", "message": "negative input", "line": 10}, {"code": 2, "type": "OverflowError", "message": "", "line": 12}]
# MANIFEST: "errors" not in m["kernels"][1]
