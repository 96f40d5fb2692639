#include "lowering/simt/complex_math.h"
#include "lowering/scalar.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <cassert>
#include <cfloat>
#include <cmath>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace lowering {
namespace {

using frontend::CmathFn;

class Emitter;

// A float value in an implementation: its LLVM type (float or double) is its
// numba type, float32 or float64.
struct F {
  llvm::Value* v;
  Emitter* e;
};

// Emits numba's scalar operations with numba's typing: an operation of a
// float32 and a float64 (a Python float or int literal is float64) runs in
// float64; libdevice functions run in their arguments' joint type.
class Emitter {
public:
  Emitter(llvm::IRBuilderBase& b, llvm::Module& m, bool fast) : b_(b), m_(m), fast_(fast) {}

  F wrap(llvm::Value* v) { return F{v, this}; }
  // A Python float (or int) literal: float64.
  F lit(double x) { return wrap(llvm::ConstantFP::get(b_.getDoubleTy(), x)); }
  // A constant of `like`'s type (numba's `fty(0.0)`).
  F typed(double x, F like) { return wrap(llvm::ConstantFP::get(like.v->getType(), x)); }

  llvm::Type* join(std::initializer_list<F> fs) {
    for (const F& f : fs) {
      if (f.v->getType()->isDoubleTy()) return b_.getDoubleTy();
    }
    return fs.begin()->v->getType();
  }
  llvm::Value* as(F f, llvm::Type* t) {
    if (f.v->getType() == t) return f.v;
    if (t->isDoubleTy()) return b_.CreateFPExt(f.v, t);
    return b_.CreateFPTrunc(f.v, t);
  }
  F bin(llvm::Instruction::BinaryOps op, F a, F c) {
    llvm::Type* t = join({a, c});
    return wrap(b_.CreateBinOp(op, as(a, t), as(c, t)));
  }
  F neg(F a) { return wrap(b_.CreateFNeg(a.v)); }
  llvm::Value* cmp(llvm::CmpInst::Predicate p, F a, F c) {
    llvm::Type* t = join({a, c});
    return b_.CreateFCmp(p, as(a, t), as(c, t));
  }

  // libdevice `__nv_<base>` (`<base>f` for float32) of the arguments' joint type.
  F call(std::string_view base, std::initializer_list<F> args) {
    llvm::Type* t = join(args);
    std::string prefix;
    if (fast_ && t->isFloatTy()) {
      // numba's fastmath=True (mathimpl's unarys_fastmath, NVVM's -prec-sqrt=0).
      if (base == "sqrt") {
        return wrap(b_.CreateCall(
            llvm::Intrinsic::getDeclaration(&m_, llvm::Intrinsic::nvvm_sqrt_approx_f),
            {as(*args.begin(), t)}));
      }
      if (base == "sin" || base == "cos" || base == "tan" || base == "exp" || base == "log" ||
          base == "log10" || base == "pow") {
        prefix += "fast_";
      }
    }
    std::string name = libdeviceName(prefix + std::string(base), t->isFloatTy());
    std::vector<llvm::Value*> vs;
    std::vector<llvm::Type*> params;
    for (const F& f : args) {
      vs.push_back(as(f, t));
      params.push_back(t);
    }
    auto callee = m_.getOrInsertFunction(name, llvm::FunctionType::get(t, params, false));
    return wrap(b_.CreateCall(callee, vs));
  }
  // abs(x) of a float (numba's math.fabs) and math.copysign(x, y).
  F fabs(F a) { return wrap(b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, a.v)); }
  F copysign(F a, F c) {
    llvm::Type* t = join({a, c});
    return wrap(b_.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, as(a, t), as(c, t)));
  }

  llvm::Value* isnan(F a) { return b_.CreateFCmpUNO(a.v, a.v); }
  llvm::Value* isinf(F a) {
    return b_.CreateFCmpOEQ(fabs(a).v, llvm::ConstantFP::getInfinity(a.v->getType()));
  }
  llvm::Value* isfinite(F a) {
    return b_.CreateFCmpOLT(fabs(a).v, llvm::ConstantFP::getInfinity(a.v->getType()));
  }
  // `if x:` of a float: nonzero or NaN.
  llvm::Value* truth(F a) { return b_.CreateFCmpUNE(a.v, llvm::ConstantFP::get(a.v->getType(), 0.0)); }
  llvm::Value* and_(llvm::Value* a, llvm::Value* c) { return b_.CreateAnd(a, c); }
  llvm::Value* or_(llvm::Value* a, llvm::Value* c) { return b_.CreateOr(a, c); }
  llvm::Value* not_(llvm::Value* a) { return b_.CreateNot(a); }

  // `x if cond else y`, as a variable assigned in two branches (numba unifies
  // its type).
  F sel(llvm::Value* cond, F a, F c) {
    llvm::Type* t = join({a, c});
    return wrap(b_.CreateSelect(cond, as(a, t), as(c, t)));
  }

  llvm::IRBuilderBase& b_;
  llvm::Module& m_;
  bool fast_;
};

F operator+(F a, F c) { return a.e->bin(llvm::Instruction::FAdd, a, c); }
F operator-(F a, F c) { return a.e->bin(llvm::Instruction::FSub, a, c); }
F operator*(F a, F c) { return a.e->bin(llvm::Instruction::FMul, a, c); }
F operator/(F a, F c) { return a.e->bin(llvm::Instruction::FDiv, a, c); }
F operator+(F a, double c) { return a + a.e->lit(c); }
F operator-(F a, double c) { return a - a.e->lit(c); }
F operator*(F a, double c) { return a * a.e->lit(c); }
F operator/(F a, double c) { return a / a.e->lit(c); }
F operator+(double a, F c) { return c.e->lit(a) + c; }
F operator-(double a, F c) { return c.e->lit(a) - c; }
F operator*(double a, F c) { return c.e->lit(a) * c; }
F operator/(double a, F c) { return c.e->lit(a) / c; }
F operator-(F a) { return a.e->neg(a); }

// A complex value inside an implementation: its parts may differ in type
// (numba's complex(float64, float32) is complex128).
struct C {
  F re;
  F im;
};

class ComplexImpl {
public:
  ComplexImpl(llvm::IRBuilderBase& b, llvm::Module& m, bool fast) : e_(b, m, fast) {}

  // numba's `complex(re, im)`: both parts in their joint type.
  C make(F re, F im) {
    llvm::Type* t = e_.join({re, im});
    return C{e_.wrap(e_.as(re, t)), e_.wrap(e_.as(im, t))};
  }
  // A cmath function's return value cast to its complex type.
  C round(C z, llvm::Type* part) { return C{e_.wrap(e_.as(z.re, part)), e_.wrap(e_.as(z.im, part))}; }
  C sel(llvm::Value* cond, C a, C c) { return C{e_.sel(cond, a.re, c.re), e_.sel(cond, a.im, c.im)}; }
  llvm::Type* partOf(C z) { return e_.join({z.re, z.im}); }
  F lit(double x) { return e_.lit(x); }

  // cmathimpl.exp_impl.
  C exp(C z) {
    F x = z.re, y = z.im;
    llvm::Value* xFinite = e_.isfinite(x);
    llvm::Value* yFinite = e_.isfinite(y);
    F nan = lit(NAN);
    F r = e_.call("exp", {x});
    F c = e_.call("cos", {y});
    F s = e_.call("sin", {y});
    C finite = make(r * c, r * s);
    C nanY = make(nan, nan);
    C nanX = sel(e_.truth(y), make(x, x), make(x, y));
    // x == +inf: keep cos(y) or sin(y) when it is 0 (no 0 * inf).
    F zero = e_.typed(0.0, c);
    F re = e_.sel(e_.cmp(llvm::CmpInst::FCMP_UNE, c, zero), c * x, c);
    F im = e_.sel(e_.cmp(llvm::CmpInst::FCMP_UNE, s, zero), s * x, s);
    C posInf = sel(yFinite, make(re, im), make(x, nan));
    C negInf = sel(yFinite, finite, make(lit(0.0), lit(0.0)));
    C inf = sel(e_.cmp(llvm::CmpInst::FCMP_OGT, x, lit(0.0)), posInf, negInf);
    C notFinite = sel(e_.isnan(x), nanX, inf);
    return round(sel(xFinite, sel(yFinite, finite, nanY), notFinite), x.v->getType());
  }

  // cmathimpl.log_impl.
  C log(C z) {
    return make(e_.call("log", {e_.call("hypot", {z.re, z.im})}), e_.call("atan2", {z.im, z.re}));
  }

  // cmathimpl.impl_cmath_log10: log's parts over ln(10) in float64.
  C log10(C z) {
    llvm::Type* part = partOf(z);
    C l = round(log(z), part);
    const double ln10 = 2.302585092994045684;
    return round(make(l.re / ln10, l.im / ln10), part);
  }

  // cmathimpl.sqrt_impl (NumPy's npy_csqrt).
  C sqrt(C z) {
    llvm::Type* part = partOf(z);
    const double maxValue = part->isDoubleTy() ? DBL_MAX : FLT_MAX;
    const double thres = maxValue / (1.0 + 1.414213562373095048801688724209698079e0);
    F a = z.re, b = z.im;
    C zero = make(e_.fabs(b), b);
    C bInf = zero;
    C aNan = make(a, a);
    C aInf = sel(e_.cmp(llvm::CmpInst::FCMP_OLT, a, lit(0.0)),
                 make(e_.fabs(b - b), e_.copysign(a, b)), make(a, e_.copysign(b - b, b)));
    // The scaled variables are float64 (`a *= 0.25` unifies them).
    llvm::Value* scale = e_.or_(e_.cmp(llvm::CmpInst::FCMP_OGE, e_.fabs(a), lit(thres)),
                                e_.cmp(llvm::CmpInst::FCMP_OGE, e_.fabs(b), lit(thres)));
    F as = e_.sel(scale, a * 0.25, a);
    F bs = e_.sel(scale, b * 0.25, b);
    F h = e_.call("hypot", {as, bs});
    llvm::Value* nonNegative = e_.cmp(llvm::CmpInst::FCMP_OGE, as, lit(0.0));
    F t = e_.call("sqrt", {e_.sel(nonNegative, as + h, -as + h) * 0.5});
    F re = e_.sel(nonNegative, t, e_.fabs(bs) / (2.0 * t));
    F im = e_.sel(nonNegative, bs / (2.0 * t), e_.copysign(t, bs));
    C general = sel(scale, make(re * 2.0, im), make(re, im));
    C r = sel(e_.isinf(a), aInf, general);
    r = sel(e_.isnan(a), aNan, r);
    r = sel(e_.isinf(b), bInf, r);
    r = sel(e_.and_(e_.cmp(llvm::CmpInst::FCMP_OEQ, a, lit(0.0)), e_.cmp(llvm::CmpInst::FCMP_OEQ, b, lit(0.0))),
            zero, r);
    return round(r, part);
  }

  // cmathimpl.impl_cmath_cosh.
  C cosh(C z) {
    F x = z.re, y = z.im;
    F cy = e_.call("cos", {y});
    F sy = e_.call("sin", {y});
    F re = e_.sel(e_.or_(e_.isnan(y), e_.cmp(llvm::CmpInst::FCMP_OEQ, y, lit(0.0))), e_.fabs(x),
                  e_.copysign(x, cy));
    F im = e_.sel(e_.or_(e_.isnan(y), e_.cmp(llvm::CmpInst::FCMP_OEQ, y, lit(0.0))), y,
                  e_.copysign(x, sy));
    im = e_.sel(e_.cmp(llvm::CmpInst::FCMP_OLT, x, lit(0.0)), -im, im);
    C general = make(cy * e_.call("cosh", {x}), sy * e_.call("sinh", {x}));
    return round(sel(e_.isinf(x), make(re, im), general), partOf(z));
  }

  // cmathimpl.impl_cmath_sinh.
  C sinh(C z) {
    F x = z.re, y = z.im;
    F cy = e_.call("cos", {y});
    F sy = e_.call("sin", {y});
    F zero = e_.typed(0.0, cy);
    F re = e_.sel(e_.cmp(llvm::CmpInst::FCMP_UNE, cy, zero), cy * x, cy);
    F im = e_.sel(e_.cmp(llvm::CmpInst::FCMP_UNE, sy, zero), sy * e_.fabs(x), sy);
    C inf = sel(e_.isnan(y), make(x, y), make(re, im));
    C general = make(cy * e_.call("sinh", {x}), sy * e_.call("cosh", {x}));
    return round(sel(e_.isinf(x), inf, general), partOf(z));
  }

  // cmathimpl.impl_cmath_tanh (CPython's c_tanh without its large-x branch).
  C tanh(C z) {
    F x = z.re, y = z.im;
    F infRe = e_.copysign(lit(1.0), x);
    F infIm = e_.sel(e_.isinf(y), lit(0.0), e_.copysign(lit(0.0), e_.call("sin", {2.0 * y})));
    F tx = e_.call("tanh", {x});
    F ty = e_.call("tan", {y});
    F cx = 1.0 / e_.call("cosh", {x});
    F txty = tx * ty;
    F denom = 1.0 + txty * txty;
    C general = make(tx * (1.0 + ty * ty) / denom, ((ty / denom) * cx) * cx);
    return round(sel(e_.isinf(x), make(infRe, infIm), general), partOf(z));
  }

  // f(i z) / i and friends: complex(-z.imag, z.real).
  C timesI(C z) { return make(-z.im, z.re); }

  C cos(C z) { return cosh(timesI(z)); }
  C sin(C z) {
    C r = sinh(timesI(z));
    return round(make(r.im, -r.re), partOf(z));
  }
  C tan(C z) {
    C r = tanh(timesI(z));
    return round(make(r.im, -r.re), partOf(z));
  }

  // CPython's thresholds as numba spells them: FLT_MAX / 4 for both types.
  static constexpr double kLarge = FLT_MAX / 4.0;
  static constexpr double kLn4 = 1.3862943611198906;  // math.log(4)

  // cmathimpl.acos_impl (CPython's c_acos).
  C acos(C z) {
    F x = z.re, y = z.im;
    llvm::Value* large = e_.or_(e_.cmp(llvm::CmpInst::FCMP_OGT, e_.fabs(x), lit(kLarge)),
                                e_.cmp(llvm::CmpInst::FCMP_OGT, e_.fabs(y), lit(kLarge)));
    C big = make(e_.call("atan2", {e_.fabs(y), x}),
                 e_.copysign(e_.call("log", {e_.call("hypot", {x * 0.5, y * 0.5})}) + kLn4, -y));
    C s1 = sqrt(make(1.0 - x, -y));
    C s2 = sqrt(make(1.0 + x, y));
    C small = make(2.0 * e_.call("atan2", {s1.re, s2.re}),
                   e_.call("asinh", {s2.re * s1.im - s2.im * s1.re}));
    return round(sel(large, big, small), partOf(z));
  }

  // cmathimpl.impl_cmath_acosh (CPython's c_acosh).
  C acosh(C z) {
    F x = z.re, y = z.im;
    llvm::Value* large = e_.or_(e_.cmp(llvm::CmpInst::FCMP_OGT, e_.fabs(x), lit(kLarge)),
                                e_.cmp(llvm::CmpInst::FCMP_OGT, e_.fabs(y), lit(kLarge)));
    C big = make(e_.call("log", {e_.call("hypot", {x * 0.5, y * 0.5})}) + kLn4, e_.call("atan2", {y, x}));
    C s1 = sqrt(make(x - 1.0, y));
    C s2 = sqrt(make(x + 1.0, y));
    C small = make(e_.call("asinh", {s1.re * s2.re + s1.im * s2.im}),
                   2.0 * e_.call("atan2", {s1.im, s2.re}));
    return round(sel(large, big, small), partOf(z));
  }

  // cmathimpl.asinh_impl (CPython's c_asinh).
  C asinh(C z) {
    F x = z.re, y = z.im;
    llvm::Value* large = e_.or_(e_.cmp(llvm::CmpInst::FCMP_OGT, e_.fabs(x), lit(kLarge)),
                                e_.cmp(llvm::CmpInst::FCMP_OGT, e_.fabs(y), lit(kLarge)));
    C big = make(e_.copysign(e_.call("log", {e_.call("hypot", {x * 0.5, y * 0.5})}) + kLn4, x),
                 e_.call("atan2", {y, e_.fabs(x)}));
    C s1 = sqrt(make(1.0 + y, -x));
    C s2 = sqrt(make(1.0 - y, x));
    C small = make(e_.call("asinh", {s1.re * s2.im - s2.re * s1.im}),
                   e_.call("atan2", {y, s1.re * s2.re - s1.im * s2.im}));
    return round(sel(large, big, small), partOf(z));
  }

  C asin(C z) {
    C r = asinh(timesI(z));
    return round(make(r.im, -r.re), partOf(z));
  }

  // cmathimpl.atan_impl, with numba's swap for an infinite real part and a
  // NaN imaginary part.
  C atan(C z) {
    C r = atanh(timesI(z));
    llvm::Value* odd = e_.and_(e_.isinf(z.re), e_.isnan(z.im));
    return round(sel(odd, make(r.im, r.re), make(r.im, -r.re)), partOf(z));
  }

  // cmathimpl.atanh_impl (CPython's c_atanh).
  C atanh(C z0) {
    llvm::Type* part = partOf(z0);
    const double thresLarge = std::sqrt(FLT_MAX / 4.0);
    const double thresSmall = std::sqrt(FLT_MIN);
    const double pi2 = M_PI / 2.0;
    llvm::Value* negate = e_.cmp(llvm::CmpInst::FCMP_OLT, z0.re, lit(0.0));
    C z = sel(negate, make(-z0.re, -z0.im), z0);
    F x = z.re, y = z.im;
    F ay = e_.fabs(y);
    llvm::Value* big = e_.or_(e_.isnan(x), e_.or_(e_.cmp(llvm::CmpInst::FCMP_OGT, x, lit(thresLarge)),
                                                  e_.cmp(llvm::CmpInst::FCMP_OGT, ay, lit(thresLarge))));
    F h = e_.call("hypot", {x * 0.5, y * 0.5});
    F bigRe = e_.sel(e_.isinf(y), e_.copysign(lit(0.0), x),
                     e_.sel(e_.isinf(x), lit(0.0), x / 4.0 / h / h));
    F bigIm = -e_.copysign(lit(pi2), -y);
    llvm::Value* one = e_.and_(e_.cmp(llvm::CmpInst::FCMP_OEQ, x, lit(1.0)),
                               e_.cmp(llvm::CmpInst::FCMP_OLT, ay, lit(thresSmall)));
    llvm::Value* ayZero = e_.cmp(llvm::CmpInst::FCMP_OEQ, ay, lit(0.0));
    F oneRe = e_.sel(ayZero, lit(INFINITY),
                     -e_.call("log", {e_.call("sqrt", {ay}) / e_.call("sqrt", {e_.call("hypot", {ay, lit(2.0)})})}));
    F oneIm = e_.sel(ayZero, y, e_.copysign(e_.call("atan2", {lit(2.0), -ay}) / 2.0, y));
    F sqay = ay * ay;
    F zr1 = 1.0 - x;
    F re = e_.call("log1p", {4.0 * x / (zr1 * zr1 + sqay)}) * 0.25;
    F im = -e_.call("atan2", {-2.0 * y, zr1 * (1.0 + x) - sqay}) * 0.5;
    re = e_.sel(big, bigRe, e_.sel(one, oneRe, re));
    im = e_.sel(big, bigIm, e_.sel(one, oneIm, im));
    im = e_.sel(e_.isnan(y), lit(NAN), im);
    return round(sel(negate, make(-re, -im), make(re, im)), part);
  }

  // cmathimpl.impl_cmath_rect.
  C rect(F r, F phi) {
    F c = e_.call("cos", {phi});
    F s = e_.call("sin", {phi});
    llvm::Value* rInf = e_.isinf(r);
    F re = e_.sel(e_.and_(e_.cmp(llvm::CmpInst::FCMP_OEQ, c, lit(0.0)), rInf), c / r, c * r);
    F im = e_.sel(e_.and_(e_.cmp(llvm::CmpInst::FCMP_OEQ, s, lit(0.0)), rInf), s / r, s * r);
    C general = make(re, im);
    C special = sel(e_.not_(e_.truth(r)), make(e_.fabs(r), e_.typed(0.0, r)), make(r, phi));
    llvm::Value* useSpecial = e_.and_(e_.not_(e_.isfinite(phi)), e_.or_(e_.not_(e_.truth(r)), rInf));
    C out = sel(useSpecial, special, general);
    return round(out, e_.join({r, phi}));
  }

  // numba-cuda's cpow_implement (mathimpl.py): fty(...) constants stay in
  // the part type, so complex64 computes in float32.
  C pow(C a, C b) {
    F zero = e_.typed(0.0, a.re);
    F one = e_.typed(1.0, a.re);
    llvm::Value* bZero = e_.and_(e_.cmp(llvm::CmpInst::FCMP_OEQ, b.re, zero),
                                 e_.cmp(llvm::CmpInst::FCMP_OEQ, b.im, zero));
    // numba-cuda tests a.real and b.real here (CPython: a == 0).
    llvm::Value* aZero = e_.and_(e_.cmp(llvm::CmpInst::FCMP_OEQ, a.re, zero),
                                 e_.cmp(llvm::CmpInst::FCMP_OEQ, b.re, zero));
    F vabs = e_.call("hypot", {a.re, a.im});
    F len = e_.call("pow", {vabs, b.re});
    F at = e_.call("atan2", {a.im, a.re});
    F phase = at * b.re;
    llvm::Value* bImag = e_.cmp(llvm::CmpInst::FCMP_UNE, b.im, zero);
    len = e_.sel(bImag, len / e_.call("exp", {at * b.im}), len);
    phase = e_.sel(bImag, phase + b.im * e_.call("log", {vabs}), phase);
    F s = e_.call("sin", {phase});
    F c = e_.call("cos", {phase});
    // cty(cos) + cty(sin * 1j), then len * that, as complex products.
    F unitRe = c + (s * zero - zero * one);
    F unitIm = zero + (s * one + zero * zero);
    C result = make(len * unitRe - zero * unitIm, len * unitIm + zero * unitRe);
    C r = sel(aZero, make(zero, zero), result);
    return round(sel(bZero, make(one, zero), r), a.re.v->getType());
  }

  C unary(CmathFn fn, C z) {
    switch (fn) {
      case CmathFn::Exp: return exp(z);
      case CmathFn::Log: return round(log(z), partOf(z));
      case CmathFn::Log10: return log10(z);
      case CmathFn::Sqrt: return sqrt(z);
      case CmathFn::Sin: return sin(z);
      case CmathFn::Cos: return cos(z);
      case CmathFn::Tan: return tan(z);
      case CmathFn::Sinh: return sinh(z);
      case CmathFn::Cosh: return cosh(z);
      case CmathFn::Tanh: return tanh(z);
      case CmathFn::Acos: return acos(z);
      case CmathFn::Asin: return asin(z);
      case CmathFn::Atan: return atan(z);
      case CmathFn::Acosh: return acosh(z);
      case CmathFn::Asinh: return asinh(z);
      case CmathFn::Atanh: return atanh(z);
      default: break;
    }
    assert(false && "not a unary complex cmath function");
    return z;
  }

  F wrap(llvm::Value* v) { return e_.wrap(v); }

private:
  Emitter e_;
};

}  // namespace

ComplexParts lowerCmathUnary(llvm::IRBuilderBase& b, llvm::Module& module, frontend::CmathFn fn,
                             ComplexParts z, bool fastmath) {
  ComplexImpl impl(b, module, fastmath);
  C r = impl.unary(fn, C{impl.wrap(z.re), impl.wrap(z.im)});
  return ComplexParts{r.re.v, r.im.v};
}

ComplexParts lowerCmathRect(llvm::IRBuilderBase& b, llvm::Module& module, llvm::Value* r,
                            llvm::Value* phi, bool fastmath) {
  ComplexImpl impl(b, module, fastmath);
  C out = impl.rect(impl.wrap(r), impl.wrap(phi));
  return ComplexParts{out.re.v, out.im.v};
}

ComplexParts lowerComplexPow(llvm::IRBuilderBase& b, llvm::Module& module, ComplexParts a,
                             ComplexParts e, bool fastmath) {
  ComplexImpl impl(b, module, fastmath);
  C r = impl.pow(C{impl.wrap(a.re), impl.wrap(a.im)}, C{impl.wrap(e.re), impl.wrap(e.im)});
  return ComplexParts{r.re.v, r.im.v};
}

}  // namespace lowering
