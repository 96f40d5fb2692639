# ARGS: --diag-kinds compile %s --phase=check --dump-typed
# ct.atomic_* typing (docs/TILE.md, "Atomics"): the result, the old values, has the
# array's dtype and the indices' broadcast shape (scalar indices: a scalar); updates
# broadcast and convert to the array's dtype; ct.MemoryOrder / ct.MemoryScope members,
# also imported by name and held in names.
import cuda.tile as ct
from cuda.tile import MemoryOrder, MemoryScope


@ct.kernel
def atomics(h: "int32[::1]", f: "float32[:, :]", d: "float64[::1]", u: "uint64[::1]",
            g: "float16[::1]", n: "int32"):
    i = ct.arange(16, dtype=ct.int32)
    j = ct.arange(32, dtype=ct.int64)
    relaxed = ct.MemoryOrder.RELAXED
    a = ct.atomic_add(h, i, 1)
    b = ct.atomic_add(f, (i[:, None], j[None, :]), 0.5, memory_order=relaxed)
    c = ct.atomic_max(h, i, n, memory_order=MemoryOrder.ACQUIRE, memory_scope=MemoryScope.BLOCK)
    e = ct.atomic_xchg(d, 3, 2.0, memory_scope=ct.MemoryScope.SYS)
    k = ct.atomic_cas(h, i, i, i + 1, check_bounds=False)
    m = ct.atomic_xor(u, j, 5, memory_order=ct.MemoryOrder.RELEASE)
    p = ct.atomic_add(g, i, ct.ones((16,), dtype=ct.float16), memory_order=ct.MemoryOrder.ACQ_REL)
    q = ct.atomic_min(u, 0, 7)
    ct.atomic_and(h, i, i)
    ct.atomic_or(h, n, 3)
# CHECK:STDOUT: kernel atomics atomics__i32a1C_f32a2A_f64a1C_u64a1C_f16a1C_i32 void(int32[::1], float32[:, :], float64[::1], uint64[::1], float16[::1], int32)
# CHECK:STDOUT:   a: tile(int32, (16,))
# CHECK:STDOUT:   b: tile(float32, (16, 32))
# CHECK:STDOUT:   c: tile(int32, (16,))
# CHECK:STDOUT:   d: array(float64, 1d, C)
# CHECK:STDOUT:   e: float64
# CHECK:STDOUT:   f: array(float32, 2d, A)
# CHECK:STDOUT:   g: array(float16, 1d, C)
# CHECK:STDOUT:   h: array(int32, 1d, C)
# CHECK:STDOUT:   i: tile(int32, (16,))
# CHECK:STDOUT:   j: tile(int64, (32,))
# CHECK:STDOUT:   k: tile(int32, (16,))
# CHECK:STDOUT:   m: tile(uint64, (32,))
# CHECK:STDOUT:   n: int32
# CHECK:STDOUT:   p: tile(float16, (16,))
# CHECK:STDOUT:   q: uint64
# CHECK:STDOUT:   u: array(uint64, 1d, C)
