# ARGS: --diag-kinds compile %s --phase=check --dump-typed --const kern.d=Spot(idx=(1,2),val=5) --const kern.w=Window((2,3))
# A frozen dataclass's __post_init__ (cuTile's test_post_init) is a helper instance with `self`
# first, called after the generated __init__ fills the fields (a base's too); a Constant may
# be an instance (`--const d=Spot(...)`, test_dataclass_instance_as_constant_kernel_arg):
# its fields are constants, defaults applied, `val: float` given 5 stays the int 5 (cuTile
# types constants by their values), and it names the instance in the signature.
from dataclasses import dataclass

import cuda.tile as ct


@dataclass(frozen=True)
class PostInit:
    foo: int
    bar: ct.Array

    def __post_init__(self):
        ct.scatter(self.bar, (), self.foo)


@dataclass(frozen=True)
class Child(PostInit):
    extra: int = 1


@dataclass(frozen=True)
class Spot:
    idx: tuple
    val: float

    LIMIT = 9


@dataclass(frozen=True)
class Window:
    shape: tuple
    scale: int = 3


@ct.kernel
def post(x: "int32[()]"):
    PostInit(3, x)
    Child(4, x, extra=2)


@ct.kernel
def kern(x: "float32[:,::1]", d: ct.Constant, w: ct.Constant):
    ct.scatter(x, d.idx, d.val + w.scale + d.LIMIT + w.shape[1])
# CHECK:STDOUT: kernel post post__i32a0C void(int32[()])
# CHECK:STDOUT:   x: array(int32, 0d, C)
# CHECK:STDOUT: kernel kern kern__f32a2C__Kd_DSpot_t_1_2_e_5__Kw_DWindow_t_2_3_e_3 void(float32[:, ::1], d=Spot(idx=(1, 2), val=5), w=Window(shape=(2, 3), scale=3))
# CHECK:STDOUT:   x: array(float32, 2d, C)
# CHECK:STDOUT: device PostInit.__post_init__ PostInit___post_init____D8PostInit2i32i32a0C void(PostInit(int32, array(int32, 0d, C)))
# CHECK:STDOUT:   self: PostInit(int32, array(int32, 0d, C))
# CHECK:STDOUT: device PostInit.__post_init__ Child___post_init____D5Child3i32i32a0Ci32 void(Child(int32, array(int32, 0d, C), int32))
# CHECK:STDOUT:   self: Child(int32, array(int32, 0d, C), int32)
