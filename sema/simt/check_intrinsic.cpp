// numba.cuda intrinsics (checkIntrinsicCall) (the checker: sema/simt/check_internal.h).
#include "sema/simt/check_internal.h"

namespace frontend::simt {

Val FunctionChecker::checkIntrinsicCall(ExprId id, const Val& callee, const ast::Call& c,
                                        const std::vector<Val>& args) {
  const Expr& e = ast_.expr(id);
  Intrinsic kind = callee.meaning.kind;
  auto argList = ast_.list(c.args);
  std::string name = textOf(c.func);
  auto needArgs = [&](size_t lo, size_t hi, std::string_view what) {
    if (args.size() < lo || args.size() > hi || !c.keywords.empty()) {
      error(e.range, Diag::WrongArgCount, name, what,
            std::to_string(args.size() + ast_.list(c.keywords).size()));
      return false;
    }
    return true;
  };
  auto needNumber = [&](size_t k) {
    if (!args[k].isValue() || !types().isNumber(args[k].type)) {
      error(ast_.expr(argList[k]).range, Diag::InvalidCall,
            "`" + name + "` takes numbers, found `" +
                (args[k].isValue() ? typeName(args[k].type) : textOf(argList[k])) + "`");
      return false;
    }
    return true;
  };
  if (isAtomic(kind)) {
    Val v = checkAtomic(id, kind, c, args);
    if (v.ok) v.meaning = callee.meaning;
    return v;
  }
  switch (kind) {
    case Intrinsic::TypeObject: {
      // numba types `arr.dtype` as a dtype, which is not callable (a NumPy dtype object).
      if (const auto* at = ast_.expr(c.func).dyn<ast::Attribute>(); at != nullptr && ast_.str(at->attr) == "dtype") {
        error(e.range, Diag::UnsupportedFeature,
              "`" + callee.path + "` is a dtype, which numba cannot call: convert with the "
              "element type (`" + typeName(TypeId(callee.meaning.payload)) + "(...)`)");
        return Val::bad();
      }
      if (!needArgs(1, 1, "1 argument")) return Val::bad();
      TypeId target(callee.meaning.payload);
      if (types().isComplex(target) && args[0].isValue() && types().isComplex(args[0].type)) {
        inst_.opTypes[id.index] = target;
        return valueOf(target);
      }
      if (!needNumber(0)) return Val::bad();
      if (types().isNone(target)) {
        error(e.range, Diag::NotCallable, name);
        return Val::bad();
      }
      inst_.opTypes[id.index] = target;
      return valueOf(target);
    }
    case Intrinsic::Int:
    case Intrinsic::Float:
    case Intrinsic::Bool: {
      if (!needArgs(1, 1, "1 argument")) return Val::bad();
      if (!needNumber(0)) return Val::bad();
      TypeId a = args[0].type;
      TypeId target;
      if (kind == Intrinsic::Int) {
        target = types().isInt(a) ? a : types().int64();
      } else if (kind == Intrinsic::Float) {
        target = types().isFloat(a) ? a : types().float64();
      } else {
        target = types().boolean();
      }
      inst_.opTypes[id.index] = target;
      if (args[0].constant) {
        const ConstValue& cv = *args[0].constant;
        if (kind == Intrinsic::Float && cv.isNumber()) {
          double f = cv.kind == ConstValue::Kind::Float ? cv.floatValue
                     : cv.kind == ConstValue::Kind::Int ? static_cast<double>(cv.intValue)
                                                        : (cv.boolValue ? 1.0 : 0.0);
          if (target == types().float64()) return constantVal(ConstValue::ofFloat(f));
        }
        if (kind == Intrinsic::Int && cv.kind != ConstValue::Kind::Float && target == types().int64()) {
          return constantVal(ConstValue::ofInt(cv.kind == ConstValue::Kind::Bool ? cv.boolValue : cv.intValue));
        }
      }
      return valueOf(target);
    }
    case Intrinsic::Abs: {
      if (!needArgs(1, 1, "1 argument")) return Val::bad();
      if (args[0].isValue() && types().isComplex(args[0].type)) {
        inst_.opTypes[id.index] = args[0].type;
        return valueOf(types().complexPart(args[0].type));
      }
      if (!needNumber(0)) return Val::bad();
      TypeId t = types().isBool(args[0].type) ? types().int64() : args[0].type;
      inst_.opTypes[id.index] = t;
      return valueOf(t);
    }
    case Intrinsic::Min:
    case Intrinsic::Max: {
      if (args.size() < 2 || !c.keywords.empty()) {
        error(e.range, Diag::UnsupportedFeature,
              "`" + name + "` of one iterable is not supported in kernels: pass the values as "
              "arguments");
        return Val::bad();
      }
      std::optional<TypeId> t;
      for (size_t k = 0; k < args.size(); ++k) {
        if (!needNumber(k)) return Val::bad();
        if (!t) {
          t = args[k].type;
        } else {
          t = unifyTypes(types(), *t, args[k].type);
          if (!t) {
            error(e.range, Diag::InvalidCall, "no common type for the arguments of `" + name + "`");
            return Val::bad();
          }
        }
      }
      inst_.opTypes[id.index] = *t;
      return valueOf(*t);
    }
    case Intrinsic::Len: {
      if (!needArgs(1, 1, "1 argument")) return Val::bad();
      if (args[0].isValue() && types().isArray(args[0].type)) {
        return valueOf(types().int64());
      }
      if (args[0].isValue() && types().isTuple(args[0].type)) {
        return constantVal(
            ConstValue::ofInt(static_cast<int64_t>(types().get(args[0].type).elements.size())));
      }
      error(e.range, Diag::InvalidCall,
            "`len` takes an array or a tuple, found `" +
                (args[0].isValue() ? typeName(args[0].type) : textOf(argList[0])) + "`");
      return Val::bad();
    }
    case Intrinsic::Round: {
      if (!needArgs(1, 2, "1 or 2 arguments")) return Val::bad();
      if (!needNumber(0)) return Val::bad();
      TypeId a = args[0].type;
      if (args.size() == 2) {
        if (!args[1].isValue() || !types().isIntegral(args[1].type)) {
          error(ast_.expr(argList[1]).range, Diag::InvalidCall, "`round`'s digits must be an integer");
          return Val::bad();
        }
        TypeId t = types().isFloat(a) ? a : types().float64();
        inst_.opTypes[id.index] = t;
        return valueOf(types().isFloat(a) ? a : a);
      }
      inst_.opTypes[id.index] = a;
      return valueOf(types().isFloat(a) ? types().int64() : (types().isBool(a) ? types().int64() : a));
    }
    case Intrinsic::Range:
    case Intrinsic::Enumerate:
    case Intrinsic::Zip:
      error(e.range, Diag::UnsupportedFeature,
            "`" + name + "` can only be iterated by a `for` loop in kernels");
      return Val::bad();
    case Intrinsic::Print: {
      // numba: numbers, bools, string literals and tuples of those, through
      // vprintf, at most 32 arguments, no keywords.
      if (!c.keywords.empty()) {
        error(e.range, Diag::UnsupportedFeature, "`print` takes no keyword arguments in kernels");
        return Val::bad();
      }
      if (args.size() > 32) {
        error(e.range, Diag::WrongArgCount, name, "at most 32 arguments", std::to_string(args.size()));
        return Val::bad();
      }
      std::function<bool(TypeId)> printable = [&](TypeId t) {
        if (types().isNumber(t)) return true;
        if (!types().isTuple(t)) return false;
        for (TypeId x : types().get(t).elements) {
          if (!printable(x)) return false;
        }
        return true;
      };
      for (size_t k = 0; k < args.size(); ++k) {
        const Expr& ae = ast_.expr(argList[k]);
        if (ae.is<ast::Constant>() && args[k].constant &&
            args[k].constant->kind == ConstValue::Kind::Str) {
          continue;
        }
        if (!args[k].isValue() || !printable(args[k].type)) {
          error(ae.range, Diag::InvalidCall,
                "`print` in kernels prints numbers, bools, string literals and tuples of "
                "those, found `" + (args[k].isValue() ? typeName(args[k].type) : textOf(argList[k])) +
                    "`");
          return Val::bad();
        }
      }
      Val v = valueOf(types().none());
      v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::NumpyFn:
      return checkNumpyFnCall(id, static_cast<NumpyFn>(callee.meaning.payload), c, args,
                              callee.path.starts_with("operator."));
    case Intrinsic::Math:
      return checkMathCall(id, static_cast<MathFn>(callee.meaning.payload), c, args, callee.path);
    case Intrinsic::Pow: {
      // pow(a, b) is a ** b.
      if (!needArgs(2, 2, "2 arguments")) return Val::bad();
      for (size_t k = 0; k < 2; ++k) {
        // Numbers, complex ones included.
        if (!args[k].isValue() || !types().isScalar(args[k].type)) {
          if (!needNumber(k)) return Val::bad();
        }
      }
      auto typing = binaryResultType(types(), ArithOp::Pow, args[0].type, args[1].type);
      if (!typing) {
        error(e.range, Diag::MismatchedOperandTypes, "**", typeName(args[0].type), typeName(args[1].type));
        return Val::bad();
      }
      inst_.opTypes[id.index] = typing->operand;
      inst_.powExponentTypes[id.index] = typing->exponent;
      return valueOf(typing->result);
    }
    case Intrinsic::ComplexCtor: {
      // numba: complex(re[, im]) of the parts' float type (complex(float32) is complex64).
      if (!needArgs(0, 2, "0 to 2 arguments")) return Val::bad();
      TypeId part = types().float32();
      if (args.empty()) part = types().float64();
      for (size_t k = 0; k < args.size(); ++k) {
        if (!needNumber(k)) return Val::bad();
        TypeId t = args[k].type;
        TypeId f = types().isFloat(t) ? t
                   : (types().isBool(t) || types().get(t).bits <= 16) ? types().float32()
                                                                      : types().float64();
        if (types().get(f).bits > types().get(part).bits) part = f;
      }
      TypeId result = types().complexOf(part);
      inst_.opTypes[id.index] = part;
      return valueOf(result);
    }
    case Intrinsic::ScalarView: {
      // numba-cuda: `Integer.view`/`Float.view` reinterpret the bits; sizes must match.
      if (!needArgs(1, 1, "1 argument (a dtype)")) return Val::bad();
      const auto& attr = ast_.expr(c.func).as<ast::Attribute>();
      TypeId from = inst_.exprTypes[attr.value.index];
      if (args[0].meaning.kind != Intrinsic::TypeObject ||
          !(types().isInt(TypeId(args[0].meaning.payload)) || types().isFloat(TypeId(args[0].meaning.payload)))) {
        error(e.range, Diag::UnsupportedFeature, "`.view` of a number takes an integer or float dtype");
        return Val::bad();
      }
      TypeId to(args[0].meaning.payload);
      if (types().get(to).bits != types().get(from).bits) {
        error(e.range, Diag::UnsupportedFeature,
              "`" + typeName(from) + ".view(" + typeName(to) + ")` changes the size: a number's "
              "view keeps its bits (" + std::to_string(types().get(from).bits) + " here)");
        return Val::bad();
      }
      inst_.opTypes[id.index] = from;
      return valueOf(to);
    }
    case Intrinsic::ComplexConjugate: {
      if (!needArgs(0, 0, "no arguments")) return Val::bad();
      const auto& attr = ast_.expr(c.func).as<ast::Attribute>();
      TypeId t = inst_.exprTypes[attr.value.index];
      return valueOf(t);
    }
    case Intrinsic::Fp16: {
      auto fn = static_cast<Fp16Fn>(callee.meaning.payload);
      unsigned arity = fp16FnArity(fn);
      if (!needArgs(arity, arity, plural(arity, "argument"))) return Val::bad();
      for (size_t k = 0; k < args.size(); ++k) {
        if (!needNumber(k)) return Val::bad();
      }
      TypeId half = types().floatType(16);
      inst_.opTypes[id.index] = half;
      bool compare = fn == Fp16Fn::Heq || fn == Fp16Fn::Hne || fn == Fp16Fn::Hgt ||
                     fn == Fp16Fn::Hge || fn == Fp16Fn::Hlt || fn == Fp16Fn::Hle;
      return valueOf(compare ? types().boolean() : half);
    }
    case Intrinsic::VectorCtor: {
      // numba-cuda's constructor overloads: the arguments' elements (a number
      // is one, converted to the base type; a vector of the same base type is
      // its count) fill the vector exactly.
      TypeId vector(callee.meaning.payload);
      const Type& vt = types().get(vector);
      if (!c.keywords.empty()) {
        error(e.range, Diag::InvalidCall, "pass the arguments of `" + name + "` by position");
        return Val::bad();
      }
      size_t filled = 0;
      for (size_t k = 0; k < args.size(); ++k) {
        TypeId t = args[k].isValue() ? args[k].type : TypeId();
        if (t.valid() && types().isNumber(t)) {
          ++filled;
          continue;
        }
        if (t.valid() && types().isVector(t) && types().get(t).elements[0] == vt.elements[0]) {
          filled += types().get(t).elements.size();
          continue;
        }
        error(ast_.expr(argList[k]).range, Diag::InvalidCall,
              "`" + name + "` takes numbers and `" + typeName(vt.elements[0]) +
                  "` vectors, found `" + (t.valid() ? typeName(t) : textOf(argList[k])) + "`");
        return Val::bad();
      }
      if (filled != vt.elements.size()) {
        error(e.range, Diag::InvalidCall,
              "`" + name + "` needs " + std::to_string(vt.elements.size()) +
                  " elements, found " + std::to_string(filled));
        return Val::bad();
      }
      Val v = valueOf(vector);
      v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::Random: {
      // numba.cuda.random: (states, index) with states a 1-d array of records
      // holding uint64 fields s0 and s1 (xoroshiro128p_dtype); init also takes
      // a seed; uint64_to_unit_float32/64 take an integer.
      auto fn = static_cast<RandomFn>(callee.meaning.payload);
      bool unit = fn == RandomFn::ToUnitFloat32 || fn == RandomFn::ToUnitFloat64;
      size_t arity = unit ? 1 : fn == RandomFn::InitState ? 3 : 2;
      std::string what = unit ? "1 argument" : arity == 3 ? "3 arguments (states, index, seed)"
                                                          : "2 arguments (states, index)";
      if (!needArgs(arity, arity, what)) return Val::bad();
      for (size_t k = unit ? 0 : 1; k < args.size(); ++k) {
        if (!args[k].isValue() || !types().isIntegral(args[k].type)) {
          error(ast_.expr(argList[k]).range, Diag::InvalidCall,
                "`" + name + "` takes an integer " + (k == 2 ? "seed" : unit ? "value" : "index") +
                    ", found `" + (args[k].isValue() ? typeName(args[k].type) : textOf(argList[k])) +
                    "`");
          return Val::bad();
        }
      }
      if (!unit) {
        TypeId states = args[0].isValue() ? args[0].type : TypeId();
        bool ok = states.valid() && types().isArray(states) && types().get(states).ndim == 1;
        if (ok) {
          TypeId rec = types().get(states).element;
          ok = types().isRecord(rec);
          for (const char* field : {"s0", "s1"}) {
            auto index = ok ? types().fieldIndex(rec, field) : std::nullopt;
            ok = ok && index && types().get(rec).elements[*index] == types().uint64();
          }
        }
        if (!ok) {
          error(ast_.expr(argList[0]).range, Diag::InvalidCall,
                "`" + name + "` takes a 1-d array of `xoroshiro128p_dtype` states, found `" +
                    (states.valid() ? typeName(states) : textOf(argList[0])) + "`");
          return Val::bad();
        }
      }
      Val v;
      switch (fn) {
        case RandomFn::Next: v = valueOf(types().uint64()); break;
        case RandomFn::Jump:
        case RandomFn::InitState: v = valueOf(types().none()); break;
        case RandomFn::UniformFloat32:
        case RandomFn::NormalFloat32:
        case RandomFn::ToUnitFloat32: v = valueOf(types().float32()); break;
        default: v = valueOf(types().float64()); break;
      }
      v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::CacheLoad:
    case Intrinsic::CacheStore: {
      Val v = checkCacheHint(id, kind, c, args);
      if (v.ok) v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::Libdevice: {
      // numba's stub signature: any number converts to each parameter's type.
      LibdeviceSignature sig = libdeviceSignature(callee.meaning.payload, types());
      if (!c.keywords.empty()) {
        error(e.range, Diag::InvalidCall, "pass the arguments of `" + name + "` by position");
        return Val::bad();
      }
      if (!needArgs(sig.args.size(), sig.args.size(), plural(sig.args.size(), "argument"))) {
        return Val::bad();
      }
      for (size_t k = 0; k < args.size(); ++k) {
        if (!needNumber(k)) return Val::bad();
      }
      return valueOf(sig.value);
    }
    case Intrinsic::Cmath: {
      auto fn = static_cast<CmathFn>(callee.meaning.payload);
      std::string fname = "cmath." + std::string(cmathFnName(fn));
      // cmath.log(z, base) is numba's log(z) / log(base).
      size_t arity = fn == CmathFn::Rect ? 2 : 1;
      size_t maxArity = fn == CmathFn::Log ? 2 : arity;
      if (args.size() < arity || args.size() > maxArity || !c.keywords.empty()) {
        error(e.range, Diag::WrongArgCount, fname,
              maxArity > arity ? "1 or 2 arguments" : plural(arity, "argument"),
              std::to_string(args.size() + ast_.list(c.keywords).size()));
        return Val::bad();
      }
      auto floatOf = [&](TypeId t) {
        if (types().isComplex(t)) return types().complexPart(t);
        if (types().isFloat(t)) return t;
        return types().float64();
      };
      TypeId part;
      for (size_t k = 0; k < args.size(); ++k) {
        bool ok = args[k].isValue() && (fn == CmathFn::Rect ? types().isNumber(args[k].type)
                                                            : types().isScalar(args[k].type));
        if (!ok) {
          error(ast_.expr(argList[k]).range, Diag::InvalidCall,
                "`" + fname + "` takes " + (fn == CmathFn::Rect ? "real numbers" : "a number") +
                    ", found `" + (args[k].isValue() ? typeName(args[k].type) : textOf(argList[k])) + "`");
          return Val::bad();
        }
        TypeId f = floatOf(args[k].type);
        if (!part.valid() || types().get(f).bits > types().get(part).bits) part = f;
      }
      TypeId complex = types().complexOf(part);
      inst_.opTypes[id.index] = complex;
      switch (fn) {
        case CmathFn::Isnan:
        case CmathFn::Isinf:
        case CmathFn::Isfinite:
          return valueOf(types().boolean());
        case CmathFn::Phase:
          return valueOf(part);
        case CmathFn::Polar:
          return valueOf(types().uniTuple(part, 2));
        default:
          return valueOf(complex);
      }
    }
    case Intrinsic::Grid:
    case Intrinsic::Gridsize: {
      if (!needArgs(1, 1, "1 argument (1, 2 or 3)")) return Val::bad();
      const auto& cv = args[0].constant;
      if (!cv || cv->kind != ConstValue::Kind::Int || cv->intValue < 1 || cv->intValue > 3) {
        error(ast_.expr(argList[0]).range, Diag::NotConstant, "the argument of `" + name + "` (1, 2 or 3)");
        return Val::bad();
      }
      Val v = cv->intValue == 1 ? valueOf(types().int64())
                                : valueOf(types().uniTuple(types().int64(),
                                                           static_cast<unsigned>(cv->intValue)));
      v.meaning = ExprMeaning{kind, static_cast<uint32_t>(cv->intValue)};
      return v;
    }
    case Intrinsic::ShflSync:
    case Intrinsic::ShflUpSync:
    case Intrinsic::ShflDownSync:
    case Intrinsic::ShflXorSync: {
      if (!needArgs(3, 3, "3 arguments (mask, value, lane or delta)")) return Val::bad();
      for (size_t k : {size_t(0), size_t(2)}) {
        if (!args[k].isValue() || !types().isInt(args[k].type)) {
          error(ast_.expr(argList[k]).range, Diag::InvalidCall,
                "`" + name + "` takes an integer " + (k == 0 ? "mask" : "lane"));
          return Val::bad();
        }
      }
      if (!args[1].isValue() || !types().isNumber(args[1].type) ||
          types().isBool(args[1].type) || types().get(args[1].type).bits < 32) {
        error(ast_.expr(argList[1]).range, Diag::InvalidCall,
              "`" + name + "` shuffles 32- and 64-bit integers and floats, found `" +
                  (args[1].isValue() ? typeName(args[1].type) : textOf(argList[1])) + "`");
        return Val::bad();
      }
      inst_.opTypes[id.index] = args[1].type;
      return valueOf(args[1].type);
    }
    case Intrinsic::AllSync:
    case Intrinsic::AnySync:
    case Intrinsic::EqSync:
    case Intrinsic::BallotSync: {
      if (!needArgs(2, 2, "2 arguments (mask, predicate)")) return Val::bad();
      if (!needNumber(0) || !needNumber(1)) return Val::bad();
      return valueOf(kind == Intrinsic::BallotSync ? types().int32() : types().boolean());
    }
    case Intrinsic::MatchAnySync:
    case Intrinsic::MatchAllSync: {
      if (!needArgs(2, 2, "2 arguments (mask, value)")) return Val::bad();
      if (!args[0].isValue() || !types().isInt(args[0].type)) {
        error(ast_.expr(argList[0]).range, Diag::InvalidCall, "`" + name + "` takes an integer mask");
        return Val::bad();
      }
      TypeId v = args[1].isValue() ? args[1].type : TypeId();
      if (!v.valid() || !types().isNumber(v) || types().isBool(v) || types().get(v).bits < 32) {
        error(ast_.expr(argList[1]).range, Diag::InvalidCall,
              "`" + name + "` compares 32- and 64-bit integers and floats, found `" +
                  (v.valid() ? typeName(v) : textOf(argList[1])) + "`");
        return Val::bad();
      }
      inst_.opTypes[id.index] = v;
      // numba types the result int32 (and the predicate bool).
      if (kind == Intrinsic::MatchAnySync) return valueOf(types().int32());
      return valueOf(types().tuple({types().int32(), types().boolean()}));
    }
    case Intrinsic::Selp: {
      if (!needArgs(3, 3, "3 arguments (predicate, a, b)")) return Val::bad();
      if (!needNumber(0) || !needNumber(1) || !needNumber(2)) return Val::bad();
      // numba: both values of one type, a 16-, 32- or 64-bit integer or a float.
      TypeId a = args[1].type;
      const Type& at = types().get(a);
      bool supported = at.kind == TypeKind::Float || (at.kind == TypeKind::Int && at.bits >= 16);
      if (a != args[2].type || !supported) {
        error(e.range, Diag::InvalidCall,
              "`" + name + "` selects between two values of one type (16-, 32- or 64-bit "
              "integers or floats), found `" + typeName(a) + "` and `" + typeName(args[2].type) + "`");
        return Val::bad();
      }
      inst_.opTypes[id.index] = a;
      return valueOf(a);
    }
    case Intrinsic::Nanosleep: {
      if (!needArgs(1, 1, "1 argument (nanoseconds)")) return Val::bad();
      if (!args[0].isValue() || !types().isIntegral(args[0].type)) {
        error(ast_.expr(argList[0]).range, Diag::InvalidCall, "`" + name + "` takes an integer");
        return Val::bad();
      }
      Val v = valueOf(types().none());
      v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::ConstArrayLike: {
      if (!needArgs(1, 1, "1 argument (a module-level array)")) return Val::bad();
      if (args[0].meaning.kind != Intrinsic::ConstArray) {
        error(ast_.expr(argList[0]).range, Diag::NotConstant,
              "the argument of `" + name + "` (a module-level `np.array([...])` literal)");
        return Val::bad();
      }
      return valueOf(args[0].type);
    }
    case Intrinsic::Activemask:
    case Intrinsic::LanemaskLt:
      if (!needArgs(0, 0, "no arguments")) return Val::bad();
      return valueOf(types().intType(32, false));
    case Intrinsic::Popc:
    case Intrinsic::Clz:
    case Intrinsic::Ffs:
    case Intrinsic::Brev: {
      if (!needArgs(1, 1, "1 argument (an integer)")) return Val::bad();
      if (!args[0].isValue() || !types().isInt(args[0].type)) {
        error(ast_.expr(argList[0]).range, Diag::InvalidCall, "`" + name + "` takes an integer");
        return Val::bad();
      }
      TypeId a = args[0].type;
      inst_.opTypes[id.index] = a;
      if (kind == Intrinsic::Ffs) return valueOf(types().intType(32, false));
      if (kind == Intrinsic::Brev) {
        return valueOf(types().intType(types().get(a).bits == 64 ? 64 : 32, false));
      }
      return valueOf(a);
    }
    case Intrinsic::Fma: {
      if (!needArgs(3, 3, "3 arguments")) return Val::bad();
      TypeId t = types().float32();
      for (size_t k = 0; k < 3; ++k) {
        if (!needNumber(k)) return Val::bad();
        if (!types().isFloat(args[k].type) || types().get(args[k].type).bits == 64) {
          t = types().float64();
        }
      }
      inst_.opTypes[id.index] = t;
      return valueOf(t);
    }
    case Intrinsic::Cbrt: {
      if (!needArgs(1, 1, "1 argument")) return Val::bad();
      if (!needNumber(0)) return Val::bad();
      TypeId t = types().isFloat(args[0].type) ? args[0].type : types().float64();
      inst_.opTypes[id.index] = t;
      return valueOf(t);
    }
    case Intrinsic::ThisGrid: {
      if (!needArgs(0, 0, "no arguments")) return Val::bad();
      Val v;
      v.path = "cuda.cg.this_grid()";
      v.meaning = ExprMeaning{Intrinsic::GridGroup, 0};
      return v;
    }
    case Intrinsic::Breakpoint:
      if (!c.keywords.empty()) {
        error(e.range, Diag::InvalidCall, "`breakpoint` takes no arguments in kernels");
        return Val::bad();
      }
      [[fallthrough]];
    case Intrinsic::GridSync:
    case Intrinsic::Syncthreads:
    case Intrinsic::Threadfence:
    case Intrinsic::ThreadfenceBlock:
    case Intrinsic::ThreadfenceSystem: {
      if (!needArgs(0, 0, "no arguments")) return Val::bad();
      Val v = valueOf(types().none());
      v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::Syncwarp: {
      if (!needArgs(0, 1, "0 or 1 argument (a mask)")) return Val::bad();
      if (args.size() == 1 && (!args[0].isValue() || !types().isInt(args[0].type))) {
        error(ast_.expr(argList[0]).range, Diag::InvalidCall, "the mask of `" + name + "` must be an integer");
        return Val::bad();
      }
      Val v = valueOf(types().none());
      v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::SyncthreadsCount:
    case Intrinsic::SyncthreadsAnd:
    case Intrinsic::SyncthreadsOr: {
      if (!needArgs(1, 1, "1 argument (a predicate)")) return Val::bad();
      if (!needNumber(0)) return Val::bad();
      Val v = valueOf(types().int32());
      v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::Jit:
      error(e.range, Diag::UnsupportedConstruct, "`cuda.jit` inside a kernel");
      return Val::bad();
    case Intrinsic::TileOp:  // `operator.gt` (cuTile's comparison): tile kernels only
      error(ast_.expr(c.func).range, Diag::UnsupportedConstruct, "`" + name + "`");
      return Val::bad();
    default:
      error(ast_.expr(c.func).range, Diag::NotCallable, name);
      return Val::bad();
  }
}

}  // namespace frontend::simt
