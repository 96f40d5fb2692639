# ARGS: --diag-kinds compile %s --phase=check --dump-typed --sig scale(float32[:,:],float32) --sig scale(float64[:,::1],float64)
# A tile kernel written exactly as for cuTile (no annotations) takes its types from
# `--sig`, listing only the non-Constant parameters; one instance per signature.
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def scale(x, factor, TM: ConstInt = 8, TN: ConstInt = 128):
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.NAN)
    ct.store(x, index=(i, j), tile=t * factor)
# CHECK:STDOUT: kernel scale scale__f32a2A_f32__KTM_8__KTN_128 void(float32[:, :], float32, TM=8, TN=128)
# CHECK:STDOUT:   TM: int64
# CHECK:STDOUT:   TN: int64
# CHECK:STDOUT:   factor: float32
# CHECK:STDOUT:   i: int32
# CHECK:STDOUT:   j: int32
# CHECK:STDOUT:   t: tile(float32, (8, 128))
# CHECK:STDOUT:   x: array(float32, 2d, A)
# CHECK:STDOUT: kernel scale scale__f64a2C_f64__KTM_8__KTN_128 void(float64[:, ::1], float64, TM=8, TN=128)
# CHECK:STDOUT:   TM: int64
# CHECK:STDOUT:   TN: int64
# CHECK:STDOUT:   factor: float64
# CHECK:STDOUT:   i: int32
# CHECK:STDOUT:   j: int32
# CHECK:STDOUT:   t: tile(float64, (8, 128))
# CHECK:STDOUT:   x: array(float64, 2d, C)
