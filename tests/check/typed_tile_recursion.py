# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig k(float32[()],float32[()])
"""A helper that calls itself with a smaller Constant (cuTile's test_helper_function): each
level is its own instance, and `if N > 0` is decided at compile time, so the recursion ends
there. Without `--const`, N's default 3 gives three levels."""
import cuda.tile as ct


def add_levels(x, N):
    if N > 0:
        y = add_levels(x, N - 1) + 1
    else:
        y = x
    return y


@ct.kernel
def k(x, out, N: ct.Constant[int] = 3):
    t = ct.gather(x, ())
    ct.scatter(out, (), add_levels(t, N))
# CHECK:STDOUT: kernel k k__f32a0C_f32a0C__KN_3 void(float32[()], float32[()], N=3)
# CHECK:STDOUT:   N: int64
# CHECK:STDOUT:   out: array(float32, 0d, C)
# CHECK:STDOUT:   t: float32
# CHECK:STDOUT:   x: array(float32, 0d, C)
# CHECK:STDOUT: device add_levels add_levels__f32__K3 float32(float32, N=3)
# CHECK:STDOUT:   N: int64
# CHECK:STDOUT:   x: float32
# CHECK:STDOUT:   y: float32
# CHECK:STDOUT: device add_levels add_levels__f32__K2 float32(float32, N=2)
# CHECK:STDOUT:   N: int64
# CHECK:STDOUT:   x: float32
# CHECK:STDOUT:   y: float32
# CHECK:STDOUT: device add_levels add_levels__f32__K1 float32(float32, N=1)
# CHECK:STDOUT:   N: int64
# CHECK:STDOUT:   x: float32
# CHECK:STDOUT:   y: float32
# CHECK:STDOUT: device add_levels add_levels__f32__K0 float32(float32, N=0)
# CHECK:STDOUT:   N: int64
# CHECK:STDOUT:   x: float32
# CHECK:STDOUT:   y: float32
