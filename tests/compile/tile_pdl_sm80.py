# ARGS: --arch sm_80
# PTX-NOT: griddepcontrol
"""Programmatic dependent launch before sm_90: no PDL, so a kernel starts after the previous
one ends and both calls compile to nothing (tile_pdl.py: sm_90)."""
import cuda.tile as ct


@ct.kernel
def producer(a: "float32[::1]", out: "float32[::1]"):
    bid = ct.bid(0)
    ct.grid_dependency_control_launch_dependents()
    t = ct.load(a, index=(bid,), shape=(32,))
    ct.store(out, index=(bid,), tile=t + 1)


@ct.kernel
def consumer(b: "float32[::1]", produced: "float32[::1]", out: "float32[::1]"):
    bid = ct.bid(0)
    t = ct.load(b, index=(bid,), shape=(32,))
    ct.grid_dependency_control_wait()
    p = ct.load(produced, index=(bid,), shape=(32,))
    ct.store(out, index=(bid,), tile=p + t)
