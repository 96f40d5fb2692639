# ARGS: --diag-kinds compile %s --arch sm_90 --no-cache -o %t
# A tile kernel whose shared memory passes what a block can have (docs/TILE.md,
# "Matrix products"): a diagnostic at the kernel, not ptxas's log. The transpose of a
# 512 x 512 float32 tile stages 1 MiB in shared memory (its reduction along an axis stays
# in registers and shuffles since issue 23).
import cuda.tile as ct


@ct.kernel
# CHECK:STDERR: fail_tile_shared_limit.py:[[@LINE+4]]:5: error: kernel `too_big` void(float32[:, ::1], float32[::1]) needs more shared memory than a block can have (1024 KiB, sm_90 allows a block 227 KiB): use smaller tiles (shared memory holds a tile kernel's staged tiles, reductions and pipeline stages, up to 48 KiB static and past that as much as the arch allows) [shared-memory-limit]
# CHECK:STDERR: def too_big(x: "float32[:, ::1]", y: "float32[::1]"):
# CHECK:STDERR:     ^~~~~~~
# CHECK:STDERR:
def too_big(x: "float32[:, ::1]", y: "float32[::1]"):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(512, 512))
    ct.store(y, index=(ct.bid(0),), tile=ct.sum(ct.transpose(t), axis=1))
