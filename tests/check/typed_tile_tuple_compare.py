# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig k(int32[::1],int32,float32)
"""`in`, `not in`, `==` and `!=` with tuples (cuTile's test_tuple): constants decide where they
can (constant tuples, a known match in a display before anything else is compared, tuples of
other lengths), otherwise the comparison runs elementwise on the run-time values (ints as
int64, floats as float64). Starred tuples splice into displays: `(7, *t, 8)`."""
import cuda.tile as ct

MODES = (0, 2)


@ct.kernel
def k(x, a, c):
    t = (a, 1)
    folded = (2 in (1, 2, 3)) + (1 in ()) + (MODES == (0, 2)) + ((a, 1) == (a, 1, 0)) + (2 in (2, a))
    spliced = (7, *t, 8, *MODES)
    runtime = (a in MODES) + (a not in (c, 7)) + (t == (0, 1)) + (((a, 1), 2) != ((0, 1), 2))
    nested = (a, 1) in ((0, 1), (2, 1))
    ct.store(x, (0,), ct.full((16,), folded + runtime + nested + spliced[2] + spliced[4], dtype=ct.int32))
# CHECK:STDOUT: kernel k k__i32a1C_i32_f32 void(int32[::1], int32, float32)
# CHECK:STDOUT:   a: int32
# CHECK:STDOUT:   c: float32
# CHECK:STDOUT:   folded: int64
# CHECK:STDOUT:   nested: bool
# CHECK:STDOUT:   runtime: int32
# CHECK:STDOUT:   spliced: UniTuple(int32 x 6)
# CHECK:STDOUT:   t: UniTuple(int32 x 2)
# CHECK:STDOUT:   x: array(int32, 1d, C)
