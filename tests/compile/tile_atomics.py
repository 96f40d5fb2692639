"""Tile atomics (docs/TILE.md, "Atomics"): each memory order and scope reaches PTX as
`atom.sem.scope.global` (LLVM 19's NVPTX back end drops both; backend/passes/nvptx_atomics.h
writes them out), relaxed device-scope ones stay plain `atom.global` (PTX's default is
.relaxed.gpu), cas as atom.cas with the bits of float64, and scalar indices as one
thread's atomic shared through shared memory."""
# ARGS: --arch sm_80,sm_90
import cuda.tile as ct


@ct.kernel
def orders(h: "int32[::1]", f: "float32[::1]", d: "float64[::1]", u: "uint64[::1]"):
    i = ct.arange(32, dtype=ct.int32)
    ct.atomic_add(h, i, 1)
    ct.atomic_max(h, i, i, memory_order=ct.MemoryOrder.ACQUIRE, memory_scope=ct.MemoryScope.BLOCK)
    ct.atomic_min(h, i, i, memory_order=ct.MemoryOrder.RELEASE, memory_scope=ct.MemoryScope.SYS)
    ct.atomic_add(f, i, 1.0, memory_order=ct.MemoryOrder.RELAXED, memory_scope=ct.MemoryScope.BLOCK)
    ct.atomic_xor(u, i, 3, memory_order=ct.MemoryOrder.RELAXED, memory_scope=ct.MemoryScope.SYS)
    ct.atomic_cas(d, i, 1.0, 2.0)


@ct.kernel
def relaxed(h: "int32[::1]", f: "float32[::1]"):
    i = ct.arange(32, dtype=ct.int32)
    ct.atomic_add(h, i, 1, memory_order=ct.MemoryOrder.RELAXED)
    ct.atomic_add(f, i, 1.0, memory_order=ct.MemoryOrder.RELAXED, memory_scope=ct.MemoryScope.DEVICE)


@ct.kernel
def scalar(h: "int32[::1]", out: "int32[::1]"):
    ct.scatter(out, 0, ct.atomic_add(h, 0, 1))

# PTX-IN orders: atom\.acq_rel\.gpu\.global\.add\.u32
# PTX-IN orders: atom\.acquire\.cta\.global\.max\.s32
# PTX-IN orders: atom\.release\.sys\.global\.min\.s32
# PTX-IN orders: atom\.relaxed\.cta\.global\.add\.f32
# PTX-IN orders: atom\.relaxed\.sys\.global\.xor\.b64
# PTX-IN orders: atom\.acq_rel\.gpu\.global\.cas\.b64
# PTX-IN relaxed: atom\.global\.add\.u32
# PTX-IN relaxed: atom\.global\.add\.f32
# PTX-NOT-IN relaxed: atom\.relaxed
# PTX-IN scalar: atom\.acq_rel\.gpu\.global\.add\.u32
# PTX-IN scalar: bar\.sync
# LL: atomicrmw max ptr %\d+, i32 %\d+ syncscope\("block"\) acquire
# LL: cmpxchg ptr %\d+, i64 \d+, i64 \d+ syncscope\("device"\) acq_rel acquire
