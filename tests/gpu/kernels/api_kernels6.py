"""numba.cuda kernel API coverage for pykc (issue 4), part 6: `cuda.libdevice` (numba's
stubs of every libdevice function), the cache-hint loads and stores, record arrays,
`numba.cuda.random`'s xoroshiro128+ and vector types. tests/gpu/cases/api_cases6.py
holds the references.

Compile: pykc compile tests/gpu/kernels/api_kernels6.py --arch sm_90 -o <root>/api_kernels6
"""
import numpy as np
from numba import cuda, float32, float64, from_dtype, int16, int32, uint64, void
from numba.cuda import libdevice
from numba.cuda.random import (init_xoroshiro128p_state, xoroshiro128p_jump, xoroshiro128p_next,
                               xoroshiro128p_normal_float32, xoroshiro128p_normal_float64,
                               xoroshiro128p_type, xoroshiro128p_uniform_float32,
                               xoroshiro128p_uniform_float64)

# Records: an aligned dtype (padding after `n`) and a packed one (`b` at byte 2).
particle = np.dtype([("x", np.float32), ("n", np.int8), ("m", np.float64)], align=True)
Particle = from_dtype(particle)
Packed = from_dtype(np.dtype([("a", np.int16), ("b", np.float64), ("c", np.uint8)]))


@cuda.jit("void(int32[::1], int32[::1], int32[::1], int64[::1], int64[::1], int64[:, ::1])")
def libdevice_ints(a, b, c, la, lb, out):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    x, y, z, p, q = a[i], b[i], c[i], la[i], lb[i]
    out[i, 0] = libdevice.sad(x, y, z)
    out[i, 1] = libdevice.usad(x, y, z)
    out[i, 2] = libdevice.mulhi(x, y)
    out[i, 3] = libdevice.umulhi(x, y)
    out[i, 4] = libdevice.mul64hi(p, q)
    out[i, 5] = libdevice.umul64hi(p, q)
    out[i, 6] = libdevice.hadd(x, y)
    out[i, 7] = libdevice.rhadd(x, y)
    out[i, 8] = libdevice.uhadd(x, y)
    out[i, 9] = libdevice.urhadd(x, y)
    out[i, 10] = libdevice.mul24(x >> 8, y >> 8)
    out[i, 11] = libdevice.umul24(x >> 8, y >> 8)
    out[i, 12] = libdevice.byte_perm(x, y, z & 0x7777)
    out[i, 13] = libdevice.brev(x)
    out[i, 14] = libdevice.brevll(p)
    out[i, 15] = libdevice.clz(x)
    out[i, 16] = libdevice.clzll(p)
    out[i, 17] = libdevice.ffs(x)
    out[i, 18] = libdevice.ffsll(p)
    out[i, 19] = libdevice.popc(x)
    out[i, 20] = libdevice.popcll(p)
    out[i, 21] = libdevice.max(x, y) + 3 * libdevice.min(x, y)
    out[i, 22] = libdevice.umax(x, y)
    out[i, 23] = libdevice.umin(x, y)
    # Halved: int64 overflow is undefined (nsw, as numba emits it), and LLVM may
    # then rewrite max - min as |p - q|.
    out[i, 24] = (libdevice.llmax(p, q) >> 1) - (libdevice.llmin(p, q) >> 1)
    out[i, 25] = libdevice.ullmax(p, q)
    out[i, 26] = libdevice.ullmin(p, q)
    out[i, 27] = libdevice.abs(x) + libdevice.llabs(p)


@cuda.jit("void(float64[::1], float64[::1], float32[::1], float32[::1], int64[:, ::1], "
          "float64[:, ::1])")
def libdevice_floats(d, e, f, g, iout, fout):
    i = cuda.grid(1)
    if i >= d.shape[0]:
        return
    x, y, u, v = d[i], e[i], f[i], g[i]
    m, ex = libdevice.frexp(x)
    fout[i, 0] = m
    iout[i, 0] = ex
    mf, exf = libdevice.frexpf(u)
    fout[i, 1] = mf
    iout[i, 1] = exf
    frac, whole = libdevice.modf(x)
    fout[i, 2] = frac
    fout[i, 3] = whole
    r, quo = libdevice.remquo(x, y)
    fout[i, 4] = r
    iout[i, 2] = quo
    fout[i, 5] = libdevice.fdim(x, y) + libdevice.fmax(x, y) * 3.0 - libdevice.fmin(x, y)
    fout[i, 6] = libdevice.dadd_ru(x, y)
    fout[i, 7] = libdevice.dadd_rd(x, y)
    fout[i, 8] = libdevice.dmul_rz(x, y)
    fout[i, 9] = libdevice.ddiv_ru(x, y)
    fout[i, 10] = libdevice.double2float_ru(x)
    fout[i, 11] = libdevice.double2float_rd(x)
    fout[i, 12] = libdevice.fadd_rz(u, v)
    fout[i, 13] = libdevice.fdiv_rn(u, v)
    fout[i, 14] = libdevice.fsqrt_rn(libdevice.fabsf(u))
    fout[i, 15] = libdevice.drcp_rn(x)
    iout[i, 3] = libdevice.float2int_rd(u * 100.0)
    iout[i, 4] = libdevice.float2int_ru(u * 100.0)
    iout[i, 5] = libdevice.double2ll_rz(x * 1e6)
    iout[i, 6] = libdevice.double2int_rn(x * 100.0)
    iout[i, 7] = libdevice.float_as_int(u)
    iout[i, 8] = libdevice.double_as_longlong(x)
    iout[i, 9] = libdevice.double2hiint(x)
    iout[i, 10] = libdevice.double2loint(x)
    fout[i, 16] = libdevice.hiloint2double(libdevice.double2hiint(y), libdevice.double2loint(x))
    fout[i, 17] = libdevice.int_as_float(libdevice.float_as_int(v))
    half = libdevice.float2half_rn(u)
    iout[i, 11] = half
    fout[i, 18] = libdevice.half2float(half)
    fout[i, 19] = libdevice.scalbn(x, 7) + libdevice.ldexpf(u, -3)
    fout[i, 20] = libdevice.logb(x)
    iout[i, 12] = libdevice.ilogbf(u)
    iout[i, 13] = libdevice.signbitd(x) != 0
    iout[i, 14] = (libdevice.isnanf(u / v) != 0) + 2 * (libdevice.isinfd(x / 0.0) != 0)
    fout[i, 21] = libdevice.saturatef(u)
    fout[i, 22] = libdevice.nextafter(x, y)
    fout[i, 23] = libdevice.rint(x * 10.0) + libdevice.round(y * 10.0) * 1000.0
    iout[i, 15] = libdevice.llround(x * 10.0)
    s, co = libdevice.sincos(x)
    fout[i, 24] = s
    fout[i, 25] = co
    sf, cf = libdevice.sincosf(u)
    fout[i, 26] = sf
    fout[i, 27] = cf
    fout[i, 28] = libdevice.fast_sinf(u) + libdevice.fast_expf(v)
    fout[i, 29] = libdevice.sinpi(x) + libdevice.cospif(u)
    fout[i, 30] = libdevice.normcdf(x)
    fout[i, 31] = libdevice.erf(libdevice.erfinv(x / 64.0))
    fout[i, 32] = libdevice.rcbrt(y) * libdevice.rsqrtf(libdevice.fabsf(v) + float32(1))
    fout[i, 33] = libdevice.powi(x, 3) + libdevice.exp10(u)
    fout[i, 34] = libdevice.hypot(x, y) + libdevice.atan2f(u, v)
    fout[i, 35] = libdevice.erfcx(libdevice.fabs(x)) + libdevice.expm1f(v)
    iout[i, 16] = int16(libdevice.float2half_rn(v)) == half
    iout[i, 17] = int32(libdevice.finitef(u / v) != 0)


@cuda.jit("void(int8[::1], float16[::1], float32[:, ::1], float64[::1], uint64[::1], "
          "int16[::1], float16[::1], float32[:, ::1], float64[::1])")
def cache_hints(a, h, m, d, u, s, hout, mout, dout):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    cuda.stcg(a, i, cuda.ldca(a, i) + 1)
    cuda.stcs(hout, i, cuda.ldcg(h, -1 - i))
    cuda.stwb(mout, (i, 0), cuda.ldcs(m, (i, 1)) * 2)
    cuda.stwt(mout, (i, 1), cuda.ldlu(m, (i, -1)))
    dout[i] = cuda.ldcv(d, i) + cuda.ldlu(d, -1)
    cuda.stcg(u, i, cuda.ldcv(u, i) + uint64(3))
    cuda.stcs(s, i, cuda.ldcg(s, i) - 7)


@cuda.jit(void(Particle[::1], Packed[:, ::1], float64[::1]))
def records(p, q, out):
    i = cuda.grid(1)
    if i >= p.shape[0]:
        return
    r = p[i]
    r.x = r.x * 2
    p[i]["m"] += r.n
    p[i].n = i % 100
    row = q[i]
    out[i] = row[0].b + row[1]["a"] * 0.5 + row[1].c
    q[i, 0].b = row[1].a
    q[i, 1]["c"] += 3


@cuda.jit(void(xoroshiro128p_type[::1], uint64[:, ::1], float32[:, ::1], float64[:, ::1]))
def random_draws(states, raw, f32, f64):
    i = cuda.grid(1)
    if i >= states.shape[0]:
        return
    for k in range(raw.shape[1]):
        raw[i, k] = xoroshiro128p_next(states, i)
    for k in range(f32.shape[1] // 2):
        f32[i, 2 * k] = xoroshiro128p_uniform_float32(states, i)
        f64[i, 2 * k] = xoroshiro128p_uniform_float64(states, i)
        f32[i, 2 * k + 1] = xoroshiro128p_normal_float32(states, i)
        f64[i, 2 * k + 1] = xoroshiro128p_normal_float64(states, i)
    if i % 2 == 0:
        xoroshiro128p_jump(states, i)


@cuda.jit(void(xoroshiro128p_type[::1], uint64))
def random_init(states, seed):
    i = cuda.grid(1)
    if i < states.shape[0]:
        init_xoroshiro128p_state(states, i, seed + i)


@cuda.jit(device=True)
def dot3(a, b):
    return a.x * b.x + a.y * b.y + a.z * b.z


@cuda.jit("void(float32[:, ::1], int32[::1], float64[::1])")
def vectors(fin, iout, dout):
    i = cuda.grid(1)
    if i >= fin.shape[0]:
        return
    a = cuda.float32x2(fin[i, 0], fin[i, 1])
    b = cuda.float4(a, fin[i, 2], 2.5)
    c = cuda.float32x4(cuda.float32x1(b.w), cuda.float32x3(b.z, b.y, b.x))
    fin[i, 0] = c.x
    fin[i, 1] = c.y
    fin[i, 2] = c.z + c.w
    v = cuda.int2(i, -3 * i)
    iout[i] = v.x * 10 + v.y
    p = cuda.double3(fin[i, 3], 1.5, i)
    dout[i] = dot3(p, cuda.float64x3(2, p.z, p.x))


# NumPy ufuncs with an output array (numba-cuda's ex_cuda_ufunc example, and rows).
@cuda.jit("void(float32[::1], float32[::1])")
def ufunc_doc(r, x):
    np.sin(x, r)


@cuda.jit("void(float32[:, ::1], float32[::1], float64[:, ::1], int16[:, ::1], float32[:, ::1], "
          "boolean[:, ::1])")
def ufunc_rows(x, b, hyp, ints, lg, nan):
    i = cuda.grid(1)
    if i < x.shape[0]:
        np.hypot(x[i], b, out=hyp[i])
        np.log1p(ints[i], lg[i])
        np.isnan(x[i], nan[i])


@cuda.jit("void(float64[:, ::1], float64[::1], float64, float32[::1])")
def ufunc_broadcast(out, row, s, inplace):
    np.arctan2(row, s, out)
    np.exp(inplace, inplace)


# NumPy's arithmetic ufuncs on numbers.
@cuda.jit("void(float32[::1], float32[::1], int32[::1], int32[::1], float32[:, ::1], int64[:, ::1])")
def numpy_scalar_ufuncs(a, b, n, m, fo, io):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    x, y, p, q = a[i], b[i], n[i], m[i]
    fo[i, 0] = np.maximum(x, y)
    fo[i, 1] = np.minimum(x, y)
    fo[i, 2] = np.fmax(x, y)
    fo[i, 3] = np.fmin(x, y)
    fo[i, 4] = np.sign(x)
    fo[i, 5] = np.abs(x)
    fo[i, 6] = np.add(x, y) + np.multiply(x, y)
    fo[i, 7] = np.true_divide(x, y)
    fo[i, 8] = np.square(x) - np.negative(y)
    fo[i, 9] = np.power(x, 2)
    io[i, 0] = np.sign(p)
    io[i, 1] = np.maximum(p, q)
    io[i, 2] = np.floor_divide(p, q)
    io[i, 3] = np.remainder(p, q)
    io[i, 4] = np.absolute(p)
    io[i, 5] = np.subtract(p, q)
