"""Where loads end up (backend/passes/load_pins.h, constant_trip_loops.h).

ratio: `r = a[i]` is read before `if d != 0:` but only used inside it (xarray-spatial's
_ebbi_gpu); the three loads are issued together, before the branch, not `a[i]` after it.
sipi: `numerator = nir - blue` is computed before `if denominator != 0:` as the source has it
(xarray-spatial's _sipi_gpu): were it sunk into the branch, as InstCombine does, `blue`'s
only user would follow the branch and ptxas would issue its load there
(backend/passes/load_pins.h).
accept: `r[i]` is read after `math.exp(...)`, whose inlined libdevice body branches to a
slow path (NVIDIA's ising update_lattice): the load moves above the exp, to the block the
join after it post-dominates, and is issued with `x[i]` (backend/passes/hoist_loads.h,
hoistLoadsAboveJoins).
window: `for j in range(lo, hi)` with `hi = lo + 25` (advent-of-numba day09's window) has a
trip count of 25 and is unrolled fully, its 25 loads in straight-line code."""
import math

from numba import cuda

WINDOW = 25


@cuda.jit("void(float32[:, ::1], float32[:, ::1], float32[:, ::1], float32[:, ::1])")
def ratio(a, b, c, out):
    y, x = cuda.grid(2)
    if y < out.shape[0] and x < out.shape[1]:
        r = a[y, x]
        s = b[y, x]
        t = c[y, x]
        d = 10 * math.sqrt(s + t)
        if d != 0.0:
            out[y, x] = (s - r) / d


@cuda.jit("void(float32[:, ::1], float32[:, ::1], float32[:, ::1], float32[:, ::1])")
def sipi(nir_data, red_data, blue_data, out):
    y, x = cuda.grid(2)
    if y < out.shape[0] and x < out.shape[1]:
        nir = nir_data[y, x]
        red = red_data[y, x]
        blue = blue_data[y, x]
        numerator = nir - blue
        denominator = nir - red
        if denominator != 0.0:
            out[y, x] = numerator / denominator


@cuda.jit("void(float32[::1], float32[::1], float64, int8[::1])")
def accept(x, r, t, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        a = math.exp(-t * x[i])
        if r[i] < a:
            out[i] = 1


@cuda.jit("void(uint32[::1], uint32[::1])")
def window(seq, out):
    lo = cuda.grid(1)
    hi = lo + WINDOW
    if hi >= len(seq):
        return
    total = 0
    for j in range(lo, hi):
        total += seq[j]
    out[lo] = total

# PTX-IN ratio: (?s)ld\.global\.f32(?:(?!bra).)*ld\.global\.f32(?:(?!bra).)*ld\.global\.f32(?:(?!bra).)*sqrt\.rn\.f32
# PTX-IN sipi: (?s)ld\.global\.f32(?:(?!bra).)*ld\.global\.f32(?:(?!bra).)*ld\.global\.f32(?:(?!bra).)*sub(?:\.rn)?\.f32(?:(?!bra).)*sub(?:\.rn)?\.f32
# PTX-IN accept: (?s)ld\.global\.f32(?:(?!bra).)*ld\.global\.f32(?:(?!bra).)*fma\.rn\.f64
# PTX-IN window: (?s)(?:ld\.global\.u32(?:(?!bra).)*?){25}st\.global\.u32
