# ARGS: --lineinfo
"""--lineinfo: PTX .loc directives point at this Python file's lines."""
from numba import cuda


@cuda.jit("void(float32[::1])")
def scale(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * 3.0

# PTX: \.file\s+1\s+"[^"]*lineinfo\.py"
# PTX: \.loc\s+1\s+10\s
# PTX: \.loc\s+1\s+9\s
# LL: !DICompileUnit\(language: DW_LANG_Python
# LL: emissionKind: LineTablesOnly
# LL: !DISubprogram\(name: "scale", linkageName: "scale__f32a1C"
