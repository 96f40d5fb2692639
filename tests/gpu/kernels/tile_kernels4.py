"""Tile kernels, fourth file (docs/TILE.md, "Atomics"): `ct.atomic_add`, `atomic_max`,
`atomic_min`, `atomic_and`, `atomic_or`, `atomic_xor`, `atomic_xchg` and `atomic_cas`
with gather-style indices: a histogram (many collisions), float32 sums (order-dependent
rounding), integer max/min/bitwise updates over colliding indices, exchanges and
compare-and-swap with their returned old values, out-of-bounds indices skipped, strided
2-D views, scalar indices, and every memory order and scope. Checked by
tests/gpu/cases/tile_cases4.py on the GPU and by tests/tile_sim/tile_sim.py on the CPU.
"""

import cuda.tile as ct
from cuda.tile import MemoryOrder

ConstInt = ct.Constant[int]


# hist[bins[i]] += 1 for every i (bins outside hist are skipped); old[i] gets the
# count before this element's increment.
@ct.kernel
def histogram(bins: "int32[::1]", hist: "int32[::1]", old: "int32[::1]", TILE: ConstInt = 256):
    pid = ct.bid(0)
    b = ct.load(bins, index=(pid,), shape=(TILE,))
    before = ct.atomic_add(hist, b, 1)
    ct.store(old, index=(pid,), tile=before)


# acc[idx[i]] += x[i] in float32, relaxed (the order of the sums varies).
@ct.kernel
def scatter_add_f32(x: "float32[::1]", idx: "int64[::1]", acc: "float32[:]", TILE: ConstInt = 128):
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,))
    i = ct.load(idx, index=(pid,), shape=(TILE,))
    ct.atomic_add(acc, i, v, memory_order=ct.MemoryOrder.RELAXED)


@ct.kernel
def scatter_add_f64(x: "float64[::1]", idx: "int32[::1]", acc: "float64[::1]", TILE: ConstInt = 64):
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,))
    i = ct.load(idx, index=(pid,), shape=(TILE,))
    ct.atomic_add(acc, i, v, memory_scope=ct.MemoryScope.SYS)


@ct.kernel
def scatter_add_f16(x: "float16[::1]", idx: "int32[::1]", acc: "float16[::1]", TILE: ConstInt = 256):
    pid = ct.bid(0)
    v = ct.load(x, index=(pid,), shape=(TILE,))
    i = ct.load(idx, index=(pid,), shape=(TILE,))
    ct.atomic_add(acc, i, v, memory_order=MemoryOrder.RELAXED)


# The integer read-modify-writes, each on its own target array, over the same
# colliding indices: mx = max, mn = min, a = and, o = or, x = xor (int32), and the
# uint32 / int64 max and min.
@ct.kernel
def int_rmw(v: "int32[::1]", idx: "int32[::1]", mx: "int32[::1]", mn: "int32[::1]",
            a: "int32[::1]", o: "int32[::1]", x: "int32[::1]", TILE: ConstInt = 128):
    pid = ct.bid(0)
    val = ct.load(v, index=(pid,), shape=(TILE,))
    i = ct.load(idx, index=(pid,), shape=(TILE,))
    ct.atomic_max(mx, i, val, memory_order=ct.MemoryOrder.ACQUIRE)
    ct.atomic_min(mn, i, val, memory_order=ct.MemoryOrder.RELEASE)
    ct.atomic_and(a, i, val, memory_scope=ct.MemoryScope.BLOCK)
    ct.atomic_or(o, i, val, memory_order=ct.MemoryOrder.RELAXED, memory_scope=ct.MemoryScope.DEVICE)
    ct.atomic_xor(x, i, val)


@ct.kernel
def wide_rmw(v: "uint32[::1]", w: "int64[::1]", idx: "int32[::1]", umx: "uint32[::1]",
             umn: "uint32[::1]", lmx: "int64[::1]", lmn: "int64[::1]", lsum: "uint64[::1]",
             TILE: ConstInt = 64):
    pid = ct.bid(0)
    val = ct.load(v, index=(pid,), shape=(TILE,))
    big = ct.load(w, index=(pid,), shape=(TILE,))
    i = ct.load(idx, index=(pid,), shape=(TILE,))
    ct.atomic_max(umx, i, val)
    ct.atomic_min(umn, i, val)
    ct.atomic_max(lmx, i, big)
    ct.atomic_min(lmn, i, big)
    ct.atomic_add(lsum, i, val.astype(ct.uint64))


# Distinct indices (a permutation): y[perm[i]] := v[i], old[i] gets what was there.
@ct.kernel
def xchg_perm(v: "float32[::1]", perm: "int32[::1]", y: "float32[::1]", old: "float32[::1]",
              TILE: ConstInt = 256):
    pid = ct.bid(0)
    val = ct.load(v, index=(pid,), shape=(TILE,))
    p = ct.load(perm, index=(pid,), shape=(TILE,))
    ct.store(old, index=(pid,), tile=ct.atomic_xchg(y, p, val))


# Compare-and-swap over distinct indices: y[i] := desired[i] where y[i] == expected[i];
# old[i] gets y[i] before (the expected value where i is outside y).
@ct.kernel
def cas_i32(y: "int32[::1]", expected: "int32[::1]", desired: "int32[::1]", idx: "int32[::1]",
            old: "int32[::1]", TILE: ConstInt = 128):
    pid = ct.bid(0)
    e = ct.load(expected, index=(pid,), shape=(TILE,))
    d = ct.load(desired, index=(pid,), shape=(TILE,))
    i = ct.load(idx, index=(pid,), shape=(TILE,))
    ct.store(old, index=(pid,), tile=ct.atomic_cas(y, i, e, d))


@ct.kernel
def cas_f64(y: "float64[::1]", expected: "float64[::1]", desired: "float64[::1]",
            idx: "int64[::1]", old: "float64[::1]", TILE: ConstInt = 64):
    pid = ct.bid(0)
    e = ct.load(expected, index=(pid,), shape=(TILE,))
    d = ct.load(desired, index=(pid,), shape=(TILE,))
    i = ct.load(idx, index=(pid,), shape=(TILE,))
    r = ct.atomic_cas(y, i, e, d, memory_order=ct.MemoryOrder.ACQUIRE, memory_scope=ct.MemoryScope.BLOCK)
    ct.store(old, index=(pid,), tile=r)


# Every block claims one slot: the first to find 0 in flag[0] writes its id + 1 there
# (one winner); won[pid] gets the old value the block saw (0 for the winner). The
# count of blocks goes to count[0] (a scalar atomic_add: one thread, old value shared).
@ct.kernel
def claim(flag: "int32[::1]", count: "int32[::1]", seen: "int32[::1]", order: "int32[::1]"):
    pid = ct.bid(0)
    before = ct.atomic_cas(flag, 0, 0, pid + 1)
    prev = ct.atomic_add(count, 0, 1, memory_scope=ct.MemoryScope.DEVICE)
    ct.scatter(seen, pid, before)
    ct.scatter(order, pid, prev)


# A 2-D strided target: grid[rows[r], cols[c]] += w[r, c] over an (M, 1) x (1, N) index
# block, with check_bounds on both axes; the old values go to old (M, N).
@ct.kernel
def add_2d(w: "float32[:, ::1]", rows: "int32[::1]", cols: "int32[::1]", grid: "float32[:, :]",
           old: "float32[:, ::1]", TM: ConstInt = 16, TN: ConstInt = 32):
    pid = ct.bid(0)
    r = ct.load(rows, index=(pid,), shape=(TM,))
    c = ct.load(cols, index=(0,), shape=(TN,))
    t = ct.load(w, index=(pid, 0), shape=(TM, TN))
    prev = ct.atomic_add(grid, (r[:, None], c[None, :]), t, memory_order=MemoryOrder.ACQ_REL)
    ct.store(old, index=(pid, 0), tile=prev)


# max over a strided int32 column view with a scalar update broadcast to the indices.
@ct.kernel
def max_scalar_update(idx: "int32[::1]", target: "int32[:]", bound: "int32", TILE: ConstInt = 64):
    pid = ct.bid(0)
    i = ct.load(idx, index=(pid,), shape=(TILE,))
    ct.atomic_max(target, i, bound + pid)


# LayerNorm's backward pattern (cuTile's samples/LayerNorm.py): each CTA adds its row of x
# into acc[row % G] under a spin lock, `while ct.atomic_cas(locks, g, 0, 1, ACQUIRE) == 1`,
# released by `ct.atomic_xchg(locks, g, 0, RELEASE)`.
@ct.kernel
def locked_rows(x: "float32[:, ::1]", acc: "float32[:, ::1]", locks: "int32[::1]", TILE: ConstInt = 64):
    row = ct.bid(0)
    g = row % acc.shape[0]
    t = ct.load(x, index=(row, 0), shape=(1, TILE))
    while ct.atomic_cas(locks, g, 0, 1, memory_order=MemoryOrder.ACQUIRE) == 1:
        pass
    ct.store(acc, index=(g, 0), tile=t + ct.load(acc, index=(g, 0), shape=(1, TILE)))
    ct.atomic_xchg(locks, g, 0, memory_order=MemoryOrder.RELEASE)


# A data-dependent `while` with `continue` and `break`: out[b] = the sum of rows
# 0 .. min(counts[b], 6) - 1 of x but row 2, plus 1000 x the trips of a `while True`.
@ct.kernel
def while_rows(x: "float32[:, ::1]", counts: "int32[::1]", out: "float32[:, ::1]", TILE: ConstInt = 64):
    bid = ct.bid(0)
    n = ct.load(counts, index=(bid,), shape=())
    acc = ct.full((1, TILE), 0, dtype=ct.float32)
    i = 0
    while i < n:
        i += 1
        if i == 3:
            continue
        acc += ct.load(x, index=(i - 1, 0), shape=(1, TILE))
        if i >= 6:
            break
    j = 0
    while True:
        if j >= n:
            break
        j += 1
    ct.store(out, index=(bid, 0), tile=acc + j * 1000.0)
