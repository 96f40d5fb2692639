"""cuda.ld<op>/st<op> (numba-cuda's cache_hints.py): one `ld.global.<op>.b<bits>` or
`st.global.<op>.b<bits>` per call, 8-bit values in 32-bit registers, floats as their
bits, n-d arrays with tuple indices (negative ones wrap), CPointers with an integer."""
import cffi
from numba import cuda

ffi = cffi.FFI()


@cuda.jit("void(int8[::1], float16[::1], float32[:, ::1], float64[::1], uint64[::1])")
def hints(a, h, f, d, u):
    i = cuda.grid(1)
    cuda.stcg(a, i, cuda.ldca(a, i) + 1)
    cuda.stcs(h, i, cuda.ldcg(h, -1))
    cuda.stwb(f, (i, 0), cuda.ldcs(f, (0, i)) * 2)
    cuda.stwt(d, i, cuda.ldlu(d, i) + cuda.ldcv(d, i))
    p = ffi.from_buffer(u)
    cuda.stcg(p, i + 1, cuda.ldcv(p, i) + 1)

# PTX-IN hints: ld\.global\.ca\.b8 %r\d+, \[%rd\d+\];
# PTX-IN hints: st\.global\.cg\.b8 \[%rd\d+\], %r\d+;
# PTX-IN hints: ld\.global\.cg\.b16 %rs\d+
# PTX-IN hints: st\.global\.cs\.b16
# PTX-IN hints: ld\.global\.cs\.b32 %r\d+
# PTX-IN hints: st\.global\.wb\.b32
# PTX-IN hints: ld\.global\.lu\.b64 %rd\d+
# PTX-IN hints: ld\.global\.cv\.b64 %rd\d+
# PTX-IN hints: st\.global\.wt\.b64
# PTX-IN hints: st\.global\.cg\.b64 \[%rd\d+\], %rd\d+;
# LL: call i32 asm sideeffect "ld\.global\.ca\.b8 \$0, \[\$1\];", "=r,l"\(ptr
# LL: call void asm sideeffect "st\.global\.wt\.b64 \[\$0\], \$1;", "l,l,~\{memory\}"\(ptr
