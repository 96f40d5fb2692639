"""numba.cuda kernel API coverage (issue 4), part 5: the rest of cmath, special values,
complex `**`, assignments to slices. Every kernel of tests/gpu/kernels/api_kernels5.py
against NumPy (regular values) and against numba-cuda's own algorithms (special values:
numba_ref below is a line-by-line transcription of numba-cuda 0.30.4's
cuda/cpython/cmathimpl.py and the cpow of cuda/mathimpl.py, run by CPython on the host,
whose `math` functions follow C99 Annex F as libdevice's do).

Compiled output: <root>/api_kernels5, from
    pykc compile tests/gpu/kernels/api_kernels5.py --arch sm_90 -o <root>/api_kernels5
"""

import ast as pyast
import cmath
import itertools
import math
import os

import numpy as np

try:
    from harness import Skip, case
except ImportError:                     # imported by a host tool without the harness
    def case(name, folder):
        return lambda fn: fn

    class Skip(Exception):
        pass

FOLDER = "api_kernels5"
TPB = 128

NAN = float("nan")
INF = float("inf")
FLT_MAX = 3.40282346638528859812e+38
FLT_MIN = 1.17549435082228750797e-38
DBL_MAX = 1.7976931348623157e+308


# ----------------------------------------------------------------------------- numba_ref

class cm:
    """C99 Annex F math (what libdevice implements) through NumPy's float64 ufuncs:
    CPython's `math` raises where C returns infinities and NaNs."""

    @staticmethod
    def _f(fn, *args):
        with np.errstate(all="ignore"):
            return float(fn(*[np.float64(a) for a in args]))


for _name, _fn in [("cos", np.cos), ("sin", np.sin), ("tan", np.tan), ("exp", np.exp),
                   ("log", np.log), ("cosh", np.cosh), ("sinh", np.sinh), ("tanh", np.tanh),
                   ("atan2", np.arctan2), ("hypot", np.hypot), ("sqrt", np.sqrt),
                   ("asinh", np.arcsinh), ("log1p", np.log1p), ("pow", np.power)]:
    setattr(cm, _name, staticmethod(lambda *a, _fn=_fn: cm._f(_fn, *a)))



class numba_ref:
    """numba-cuda's complex functions, transcribed (float64 arithmetic)."""

    @staticmethod
    def exp(z):
        x, y = z.real, z.imag
        if math.isfinite(x):
            if math.isfinite(y):
                r = cm.exp(x)
                return complex(r * cm.cos(y), r * cm.sin(y))
            return complex(NAN, NAN)
        if math.isnan(x):
            return complex(x, x) if y else complex(x, y)
        if x > 0.0:
            if math.isfinite(y):
                real, imag = cm.cos(y), cm.sin(y)
                if real != 0:
                    real *= x
                if imag != 0:
                    imag *= x
                return complex(real, imag)
            return complex(x, NAN)
        if math.isfinite(y):
            r = cm.exp(x)
            return complex(r * cm.cos(y), r * cm.sin(y))
        return complex(0.0, 0.0)

    @staticmethod
    def log(z):
        return complex(cm.log(cm.hypot(z.real, z.imag)), cm.atan2(z.imag, z.real))

    @staticmethod
    def log10(z):
        z = numba_ref.log(z)
        return complex(z.real / 2.302585092994045684, z.imag / 2.302585092994045684)

    @staticmethod
    def sqrt(z, maxvalue=DBL_MAX):
        thres = maxvalue / (1.0 + 1.414213562373095048801688724209698079e0)
        a, b = z.real, z.imag
        if a == 0.0 and b == 0.0:
            return complex(abs(b), b)
        if math.isinf(b):
            return complex(abs(b), b)
        if math.isnan(a):
            return complex(a, a)
        if math.isinf(a):
            if a < 0.0:
                return complex(abs(b - b), math.copysign(a, b))
            return complex(a, math.copysign(b - b, b))
        scale = abs(a) >= thres or abs(b) >= thres
        if scale:
            a *= 0.25
            b *= 0.25
        if a >= 0:
            t = cm.sqrt((a + cm.hypot(a, b)) * 0.5)
            real, imag = t, b / (2 * t)
        else:
            t = cm.sqrt((-a + cm.hypot(a, b)) * 0.5)
            real, imag = abs(b) / (2 * t), math.copysign(t, b)
        return complex(real * 2, imag) if scale else complex(real, imag)

    @staticmethod
    def cosh(z):
        x, y = z.real, z.imag
        if math.isinf(x):
            if math.isnan(y) or y == 0.0:
                real, imag = abs(x), y
            else:
                real, imag = math.copysign(x, cm.cos(y)), math.copysign(x, cm.sin(y))
            if x < 0.0:
                imag = -imag
            return complex(real, imag)
        return complex(cm.cos(y) * cm.cosh(x), cm.sin(y) * cm.sinh(x))

    @staticmethod
    def sinh(z):
        x, y = z.real, z.imag
        if math.isinf(x):
            if math.isnan(y):
                return complex(x, y)
            real, imag = cm.cos(y), cm.sin(y)
            if real != 0.0:
                real *= x
            if imag != 0.0:
                imag *= abs(x)
            return complex(real, imag)
        return complex(cm.cos(y) * cm.sinh(x), cm.sin(y) * cm.cosh(x))

    @staticmethod
    def tanh(z):
        x, y = z.real, z.imag
        if math.isinf(x):
            real = math.copysign(1.0, x)
            imag = 0.0 if math.isinf(y) else math.copysign(0.0, cm.sin(2.0 * y))
            return complex(real, imag)
        tx = cm.tanh(x)
        ty = cm.tan(y)
        cx = 1.0 / cm.cosh(x)
        txty = tx * ty
        denom = 1.0 + txty * txty
        return complex(tx * (1.0 + ty * ty) / denom, ((ty / denom) * cx) * cx)

    @staticmethod
    def cos(z):
        return numba_ref.cosh(complex(-z.imag, z.real))

    @staticmethod
    def sin(z):
        r = numba_ref.sinh(complex(-z.imag, z.real))
        return complex(r.imag, -r.real)

    @staticmethod
    def tan(z):
        r = numba_ref.tanh(complex(-z.imag, z.real))
        return complex(r.imag, -r.real)

    @staticmethod
    def acos(z):
        if abs(z.real) > FLT_MAX / 4 or abs(z.imag) > FLT_MAX / 4:
            real = cm.atan2(abs(z.imag), z.real)
            imag = math.copysign(cm.log(cm.hypot(z.real * 0.5, z.imag * 0.5)) + cm.log(4),
                                 -z.imag)
            return complex(real, imag)
        s1 = numba_ref.sqrt(complex(1.0 - z.real, -z.imag))
        s2 = numba_ref.sqrt(complex(1.0 + z.real, z.imag))
        return complex(2.0 * cm.atan2(s1.real, s2.real),
                       cm.asinh(s2.real * s1.imag - s2.imag * s1.real))

    @staticmethod
    def acosh(z):
        if abs(z.real) > FLT_MAX / 4 or abs(z.imag) > FLT_MAX / 4:
            return complex(cm.log(cm.hypot(z.real * 0.5, z.imag * 0.5)) + cm.log(4),
                           cm.atan2(z.imag, z.real))
        s1 = numba_ref.sqrt(complex(z.real - 1.0, z.imag))
        s2 = numba_ref.sqrt(complex(z.real + 1.0, z.imag))
        return complex(cm.asinh(s1.real * s2.real + s1.imag * s2.imag),
                       2.0 * cm.atan2(s1.imag, s2.real))

    @staticmethod
    def asinh(z):
        if abs(z.real) > FLT_MAX / 4 or abs(z.imag) > FLT_MAX / 4:
            return complex(math.copysign(cm.log(cm.hypot(z.real * 0.5, z.imag * 0.5))
                                         + cm.log(4), z.real),
                           cm.atan2(z.imag, abs(z.real)))
        s1 = numba_ref.sqrt(complex(1.0 + z.imag, -z.real))
        s2 = numba_ref.sqrt(complex(1.0 - z.imag, z.real))
        return complex(cm.asinh(s1.real * s2.imag - s2.real * s1.imag),
                       cm.atan2(z.imag, s1.real * s2.real - s1.imag * s2.imag))

    @staticmethod
    def asin(z):
        r = numba_ref.asinh(complex(-z.imag, z.real))
        return complex(r.imag, -r.real)

    @staticmethod
    def atan(z):
        r = numba_ref.atanh(complex(-z.imag, z.real))
        if math.isinf(z.real) and math.isnan(z.imag):
            return complex(r.imag, r.real)
        return complex(r.imag, -r.real)

    @staticmethod
    def atanh(z):
        thres_large = cm.sqrt(FLT_MAX / 4)
        thres_small = cm.sqrt(FLT_MIN)
        negate = z.real < 0.0
        if negate:
            z = complex(-z.real, -z.imag)
        ay = abs(z.imag)
        if math.isnan(z.real) or z.real > thres_large or ay > thres_large:
            if math.isinf(z.imag):
                real = math.copysign(0.0, z.real)
            elif math.isinf(z.real):
                real = 0.0
            else:
                h = cm.hypot(z.real * 0.5, z.imag * 0.5)
                real = z.real / 4.0 / h / h
            imag = -math.copysign(math.pi / 2, -z.imag)
        elif z.real == 1.0 and ay < thres_small:
            if ay == 0.0:
                real, imag = INF, z.imag
            else:
                real = -cm.log(cm.sqrt(ay) / cm.sqrt(cm.hypot(ay, 2.0)))
                imag = math.copysign(cm.atan2(2.0, -ay) / 2, z.imag)
        else:
            sqay = ay * ay
            zr1 = 1 - z.real
            real = cm.log1p(4.0 * z.real / (zr1 * zr1 + sqay)) * 0.25
            imag = -cm.atan2(-2.0 * z.imag, zr1 * (1 + z.real) - sqay) * 0.5
        if math.isnan(z.imag):
            imag = NAN
        return complex(-real, -imag) if negate else complex(real, imag)

    @staticmethod
    def rect(r, phi):
        if not math.isfinite(phi):
            if not r:
                return complex(abs(r), 0.0)
            if math.isinf(r):
                return complex(r, phi)
        real, imag = cm.cos(phi), cm.sin(phi)
        real = real / r if real == 0.0 and math.isinf(r) else real * r
        imag = imag / r if imag == 0.0 and math.isinf(r) else imag * r
        return complex(real, imag)

    @staticmethod
    def pow(a, b):
        if b.real == 0.0 and b.imag == 0.0:
            return complex(1.0, 0.0)
        if a.real == 0.0 and b.real == 0.0:           # numba-cuda's test, not CPython's
            return complex(0.0, 0.0)
        vabs = cm.hypot(a.real, a.imag)
        length = cm.pow(vabs, b.real)
        at = cm.atan2(a.imag, a.real)
        phase = at * b.real
        if b.imag != 0.0:
            length /= cm.exp(at * b.imag)
            phase += b.imag * cm.log(vabs)
        s, c = cm.sin(phase), cm.cos(phase)
        ure, uim = c + (s * 0.0 - 0.0 * 1.0), 0.0 + (s * 1.0 + 0.0 * 0.0)
        return complex(length * ure - 0.0 * uim, length * uim + 0.0 * ure)


UNARY = ["acos", "asin", "atan", "acosh", "asinh", "atanh", "exp", "log", "log10", "sqrt",
         "sin", "cos", "tan", "sinh", "cosh", "tanh"]
NP_UNARY = [np.arccos, np.arcsin, np.arctan, np.arccosh, np.arcsinh, np.arctanh, np.exp,
            np.log, np.log10, np.sqrt, np.sin, np.cos, np.tan, np.sinh, np.cosh, np.tanh]


def reference_row(v, complex64=False):
    """numba-cuda's 17 outputs of cmath_all* for one input (column 16: rect(re, im))."""
    row = []
    for name in UNARY:
        fn = getattr(numba_ref, name)
        if name == "sqrt" and complex64:
            row.append(fn(v, FLT_MAX))
        elif name in ("log", "log10") and complex64:
            # numba computes log's hypot in float32: it overflows beyond FLT_MAX.
            with np.errstate(all="ignore"):
                h = float(np.hypot(np.float32(v.real), np.float32(v.imag)))
            w = complex(cm.log(h), cm.atan2(v.imag, v.real))
            row.append(w if name == "log" else complex(w.real / 2.302585092994045684,
                                                       w.imag / 2.302585092994045684))
        else:
            row.append(fn(v))
    row.append(numba_ref.rect(v.real, v.imag))
    return row


# Special inputs: every pair of these parts.
SPECIAL_PARTS = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e-20, 1e19, -1e20, 1e38, -3e38, INF, -INF,
                 NAN]


def special_inputs():
    return np.array([complex(a, b) for a, b in itertools.product(SPECIAL_PARTS, repeat=2)])


def same_values(got, want, rtol, what, inputs=None):
    """NaN matches NaN, infinities and zeros their sign, other values within rtol of
    the complex number's magnitude. With inputs (one per row), an infinite part of a row
    whose input has an infinite or NaN part may have either sign: numba's algorithms copy
    the sign of a NaN they generate (inf - inf, 0 * inf, cos(inf)) into such results,
    and a generated NaN is negative on x86 (where the reference runs) but positive on
    the GPU. numba_cuda_same_values checks those signs exactly against numba-cuda."""
    got, want = np.asarray(got, np.complex128), np.asarray(want, np.complex128)
    bad = []
    for idx in np.ndindex(*want.shape):
        g, w = got[idx], want[idx]
        scale = abs(w) if math.isfinite(abs(w)) else 0.0
        ok = True
        either_sign = inputs is not None and not cmath.isfinite(complex(inputs[idx[0]]))
        for gp, wp in ((g.real, w.real), (g.imag, w.imag)):
            if math.isnan(wp):
                ok &= math.isnan(gp)
            elif either_sign and math.isinf(wp):
                ok &= math.isinf(gp)
            elif math.isinf(wp) or wp == 0.0:
                ok &= gp == wp and math.copysign(1, gp) == math.copysign(1, wp) or (
                    wp == 0.0 and abs(gp) <= rtol * scale)
            else:
                ok &= abs(gp - wp) <= rtol * max(scale, abs(wp)) + 1e-300
        if not ok:
            bad.append((idx, g, w))
    if bad:
        idx, g, w = bad[0]
        raise AssertionError(f"{what}: {len(bad)} of {want.size} differ (first at {idx}: "
                             f"{g!r} != {w!r})")
    return f"{what}: {want.size} match"


def _blocks(n, tpb=TPB):
    return max(1, (n + tpb - 1) // tpb)


def _close(got, want, rtol, atol, what="out"):
    got = np.asarray(got)
    if got.shape != want.shape:
        raise AssertionError(f"{what}: shape {got.shape} != {want.shape}")
    bad = ~np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    if np.any(bad):
        i = int(np.flatnonzero(bad.ravel())[0])
        raise AssertionError(f"{what}: {int(bad.sum())} of {got.size} differ beyond rtol {rtol} "
                             f"atol {atol} (first at {i}: {got.ravel()[i]!r} != {want.ravel()[i]!r})")
    return f"{what}: max abs err {float(np.nanmax(np.abs(got - want))) if got.size else 0:.2e}"


def _exact(got, want, what="out"):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype:
        raise AssertionError(f"{what}: {got.dtype}{got.shape} != {want.dtype}{want.shape}")
    bad = got != want
    if np.any(bad):
        i = int(np.flatnonzero(bad.ravel())[0])
        raise AssertionError(f"{what}: {int(bad.sum())} of {got.size} differ (first at {i}: "
                             f"{got.ravel()[i]!r} != {want.ravel()[i]!r})")
    return f"{what}: exact"


def api(name):
    return case(f"api5 {name}", FOLDER)


def _regular(ctx, n, dt):
    z = ctx.randn(n, np.float64) * 2 + 1j * ctx.randn(n, np.float64) * 2
    return z.astype(dt)


def _numpy_rows(z):
    cols = [f(z) for f in NP_UNARY] + [z.real * np.cos(z.imag) + 1j * z.real * np.sin(z.imag)]
    return np.stack(cols, axis=1)


@api("cmath_regular")
def _cmath_regular(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(300, 3000))
    z = _regular(ctx, n, np.complex128)
    out = ctx.poison((n, 17), np.complex128)
    mod.cmath_all128[_blocks(n), TPB](z, out)
    z64 = z.astype(np.complex64)
    out64 = ctx.poison((n, 17), np.complex64)
    mod.cmath_all64[_blocks(n), TPB](z64, out64)
    with np.errstate(all="ignore"):
        want = _numpy_rows(z)
        want64 = _numpy_rows(z64.astype(np.complex128))
    return (_close(out, want, 1e-12, 1e-13, "complex128 vs numpy") + "; "
            + _close(out64.astype(np.complex128), want64, 2e-5, 2e-5, "complex64 vs numpy"))


@api("cmath_special")
def _cmath_special(ctx):
    mod = ctx.load()
    z = special_inputs()
    n = z.size
    out = ctx.poison((n, 17), np.complex128)
    mod.cmath_all128[_blocks(n), TPB](z, out)
    want = np.array([reference_row(complex(v)) for v in z])
    z64 = z.astype(np.complex64)
    out64 = ctx.poison((n, 17), np.complex64)
    mod.cmath_all64[_blocks(n), TPB](z64, out64)
    want64 = np.array([reference_row(complex(v), True) for v in z64.astype(np.complex128)])
    # Where numba's values differ from CPython's cmath (informational).
    differ = 0
    for v, row in zip(z, want):
        for name, w in zip(UNARY, row):
            try:
                c = getattr(cmath, name)(complex(v))
            except (ValueError, OverflowError):
                continue
            if not (cmath.isclose(c, w, rel_tol=1e-9) or (cmath.isnan(c) and cmath.isnan(w))):
                differ += 1
    # numba_cuda_same_values compares these inputs exactly with numba-cuda on the GPU.
    return (same_values(out, want, 1e-12, "complex128 vs numba", inputs=z) + "; "
            + same_values(out64, want64, 2e-5, "complex64 vs numba", inputs=z64)
            + f"; {differ} values where numba differs from CPython cmath")


@api("cmath_log_base")
def _log_base(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(100, 1000))
    z = _regular(ctx, n, np.complex128)
    b = _regular(ctx, n, np.complex128)
    out = ctx.poison((n, 3), np.complex128)
    mod.cmath_log_base[_blocks(n), TPB](z, b, out)
    want = np.stack([np.log(z) / np.log(b), np.log(z) / np.log(2.0 + 0j),
                     z + complex(0.0, math.inf)], axis=1)
    return _close(out, want, 1e-12, 1e-13)


@api("complex_pow")
def _complex_pow(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(300, 3000))
    a = _regular(ctx, n, np.complex128)
    b = _regular(ctx, n, np.complex128) * 0.5
    c = _regular(ctx, n, np.complex64)
    d = (_regular(ctx, n, np.complex64) * 0.5).astype(np.complex64)
    k = ctx.rng.integers(-4, 5, n).astype(np.int32)
    f = ctx.randn(n, np.float64)
    # Special values for numba-cuda's zero tests.
    a[:4] = [0.0, 2j, 0.0, 1 + 1j]
    b[:4] = [0.0, 1j, 2.0, 0.0]
    c[:4], d[:4] = a[:4], b[:4]
    k[:4], f[:4] = 2, 1.5
    out = ctx.poison((n, 7), np.complex128)
    out64 = ctx.poison((n, 3), np.complex64)
    mod.complex_pow[_blocks(n), TPB](a, b, c, d, k, f, out, out64)
    with np.errstate(all="ignore"):
        want = np.stack([a ** b, a ** k.astype(np.complex128), a ** f.astype(np.complex128),
                         f.astype(np.complex128) ** b, a ** b, a * a, a ** 0.5], axis=1)
        want64 = np.stack([c.astype(np.complex128) ** d, c.astype(np.complex128) ** d,
                           c.astype(np.complex128) ** c], axis=1)
    for j in range(4):        # numba-cuda's own values for its zero tests
        want[j, 0] = want[j, 4] = numba_ref.pow(complex(a[j]), complex(b[j]))
        want64[j, 0] = want64[j, 1] = numba_ref.pow(complex(c[j]), complex(d[j]))
        want64[j, 2] = numba_ref.pow(complex(c[j]), complex(c[j]))
    return (_close(out, want, 1e-11, 1e-12, "complex128") + "; "
            + _close(out64.astype(np.complex128), want64, 1e-4, 1e-4, "complex64"))



@api("cmath_fastmath")
def _cmath_fast(ctx):
    mod = ctx.load()
    n = int(ctx.rng.integers(200, 2000))
    z = _regular(ctx, n, np.complex64) * np.complex64(0.5)
    out = ctx.poison((n, 5), np.complex64)
    mod.cmath_fast64[_blocks(n), TPB](z, out)
    w = z.astype(np.complex128)
    want = np.stack([np.exp(w), np.log(w), np.sin(w), np.sqrt(w), w ** np.roll(w, -1)], axis=1)
    return _close(out.astype(np.complex128), want, 2e-4, 2e-4, "fastmath complex64")


# ----------------------------------------------------------------------------- slices

def slice_ops_inputs(rng):
    r, n = int(rng.integers(7, 12)), int(rng.integers(4, 9))
    a = rng.standard_normal((r, n)).astype(np.float32)
    v = rng.standard_normal(max(n, r) + int(rng.integers(0, 4)))
    base = rng.integers(-100, 100, (r, 2 * n)).astype(np.int32)
    base[base == 0] = 1
    m = base[:, ::2]                              # A layout: strided columns
    c = rng.standard_normal((r, n))
    col = rng.standard_normal((r, 1)).astype(np.float32)
    z = (rng.standard_normal((r, 3)) + 1j * rng.standard_normal((r, 3)))
    return a, v, m, c, col, z


def slice_ops_reference(a, v, m, c, col, z):
    """slice_ops replayed in NumPy (numba's in-place ufuncs are NumPy's, with
    numba-cuda's cpow for `**` of complex numbers)."""
    with np.errstate(all="ignore"):
        n = a.shape[1]
        a[1:3] += 1.5
        a[0, :] -= v[:n]
        a[3:5, :] = v[:n]
        a[5:, 1:] *= a[0, 1:]
        c[:, :] = col
        c[:] += 2
        c[1:, ::2] /= c[0, ::2]
        m[:, 0] //= 3
        m[1:, :] %= m[0, :]
        m[::2] **= 2
        m[-1, :] = 9
        v[1:4] = 7
        v[4:7] = (3, 5, -1)
        v[::2] /= 4.0
        z[:, 1] = v[: z.shape[0]]
        z[0, :] = [numba_ref.pow(complex(x), 2 + 0j) for x in z[0, :]]
        z[1:, :] *= 1j


def slice_ops_check(got, want):
    names = ["a", "v", "m", "c", "col", "z"]
    parts = []
    for name, g, w in zip(names, got, want):
        if w.dtype.kind in "iu":
            parts.append(_exact(np.ascontiguousarray(g), np.ascontiguousarray(w), name))
        else:
            tol = 1e-6 if w.dtype in (np.float32, np.complex64) else 1e-13
            parts.append(_close(g, w, tol, tol, name))
    return "; ".join(parts)


@api("slice_ops")
def _slice_ops(ctx):
    mod = ctx.load()
    inputs = slice_ops_inputs(ctx.rng)
    want = [x.copy() for x in inputs]
    slice_ops_reference(*want)
    got = [x.copy() for x in inputs]
    got[2] = np.repeat(inputs[2], 2, axis=1)[:, ::2]    # strided (A layout)
    mod.slice_ops[1, 32](*got)
    return slice_ops_check(got, want)


def slice_mismatch_reference(a, b, flag):
    """Thread 0 (3 <- 2 elements), thread 2 (the same in a device function), thread 4
    (2 <- 3, in place) and thread 5 (a tuple of 2 into 3) end before writing; threads
    1, 3 and 6 assign."""
    a[3:5] = b[0:2]
    flag[1] = 1
    a[8:10] = b[2:4]
    flag[3] = 1
    a[14:16] = (1.0, 2.0)
    flag[6] = 1


@api("slice_mismatch")
def _slice_mismatch(ctx):
    mod = ctx.load()
    a = ctx.randn(16, np.float32)
    b = ctx.randn(6, np.float32)
    flag = np.zeros(7, np.int32)
    wa, wflag = a.copy(), flag.copy()
    slice_mismatch_reference(wa, b, wflag)
    mod.slice_mismatch[1, 32](a, b, flag)
    return _exact(a, wa, "a") + "; " + _exact(flag, wflag, "flags")


@api("slice_mismatch_debug")
def _slice_mismatch_debug(ctx):
    mod = ctx.load()
    a = ctx.randn(8, np.float32)
    b = ctx.randn(4, np.float32)
    return ctx.expect_error(ValueError, lambda: mod.slice_mismatch_debug[1, 32](a, b),
                            "cannot assign slice from input of different size")


# ----------------------------------------------------------------------------- numba-cuda

KERNELS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "kernels",
                            "api_kernels5.py")


def _numba_cuda_kernels(names):
    """The named kernels of api_kernels5.py (the same source) compiled by numba-cuda,
    when it is installed and sees a GPU."""
    try:
        if not hasattr(np, "row_stack"):
            np.row_stack = np.vstack        # numba-cuda 0.30.4 with NumPy >= 2.5
        from numba import cuda as numba_cuda
        if not numba_cuda.is_available():
            raise Skip("numba-cuda sees no GPU")
    except Skip:
        raise
    except Exception as e:                  # not installed, or cannot initialise
        raise Skip(f"numba-cuda not usable: {str(e).splitlines()[0][:80]}")
    tree = pyast.parse(open(KERNELS_FILE).read())
    keep = [n for n in tree.body if isinstance(n, (pyast.Import, pyast.ImportFrom)) or
            (isinstance(n, pyast.FunctionDef) and n.name in names)]
    ns = {}
    exec(compile(pyast.Module(body=keep, type_ignores=[]), KERNELS_FILE, "exec"), ns)
    return ns


@api("numba_cuda_same_values")
def _numba_cuda_same_values(ctx):
    """pykc's cmath and complex `**` against numba-cuda's own kernels on the same GPU:
    special inputs (NaN, infinities, signed zeros) and random ones."""
    ns = _numba_cuda_kernels({"cmath_all128", "cmath_all64", "complex_pow"})
    mod = ctx.load()
    rng = ctx.rng
    z = np.concatenate([special_inputs(), rng.standard_normal(500) * 3 + 1j * rng.standard_normal(500) * 3])
    n = z.size
    parts = []
    for name, dt, tol in [("cmath_all128", np.complex128, 1e-13), ("cmath_all64", np.complex64, 2e-6)]:
        zz = z.astype(dt)
        ours = ctx.poison((n, 17), dt)
        theirs = ctx.poison((n, 17), dt)
        getattr(mod, name)[_blocks(n), TPB](zz, ours)
        ns[name][_blocks(n), TPB](zz, theirs)
        parts.append(same_values(ours, theirs, tol, f"{name} vs numba-cuda"))
    m = 600
    a = rng.standard_normal(m) * 2 + 1j * rng.standard_normal(m) * 2
    b = (rng.standard_normal(m) + 1j * rng.standard_normal(m)) * 0.5
    a[:4], b[:4] = [0.0, 2j, 0.0, 1 + 1j], [0.0, 1j, 2.0, 0.0]
    c, d = a.astype(np.complex64), b.astype(np.complex64)
    k = rng.integers(-4, 5, m).astype(np.int32)
    f = rng.standard_normal(m)
    outs = []
    for kernel in (mod.complex_pow, ns["complex_pow"]):
        out, out64 = ctx.poison((m, 7), np.complex128), ctx.poison((m, 3), np.complex64)
        kernel[_blocks(m), TPB](a, b, c, d, k, f, out, out64)
        outs.append((out, out64))
    parts.append(same_values(outs[0][0], outs[1][0], 1e-13, "complex ** vs numba-cuda"))
    parts.append(same_values(outs[0][1], outs[1][1], 2e-6, "complex64 ** vs numba-cuda"))
    return "; ".join(parts)


@api("numba_cuda_slice_ops")
def _numba_cuda_slice_ops(ctx):
    """slice_ops compiled by numba-cuda on the same inputs (skips, saying why, where
    numba-cuda cannot compile it: array sources of `=` need its NRT for the overlap
    copy)."""
    ns = _numba_cuda_kernels(set())
    from numba import cuda as numba_cuda
    tree = pyast.parse(open(KERNELS_FILE).read())
    src = [n for n in tree.body if isinstance(n, pyast.FunctionDef) and n.name == "slice_ops"]
    try:
        exec(compile(pyast.Module(body=src, type_ignores=[]), KERNELS_FILE, "exec"), ns)
        theirs_kernel = ns["slice_ops"]
    except Exception as e:
        raise Skip(f"numba-cuda does not compile slice_ops: {str(e).splitlines()[0][:160]}")
    del numba_cuda
    mod = ctx.load()
    inputs = slice_ops_inputs(ctx.rng)
    ours = [x.copy() for x in inputs]
    ours[2] = np.repeat(inputs[2], 2, axis=1)[:, ::2]
    theirs = [x.copy() for x in inputs]
    theirs[2] = np.repeat(inputs[2], 2, axis=1)[:, ::2]
    mod.slice_ops[1, 32](*ours)
    try:
        theirs_kernel[1, 32](*theirs)
    except Exception as e:              # numba-cuda compiles lazily in some versions
        raise Skip(f"numba-cuda does not run slice_ops: {str(e).splitlines()[0][:160]}")
    return slice_ops_check(ours, theirs)
