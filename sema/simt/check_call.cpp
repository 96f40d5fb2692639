// Calls: externs, device functions, allocations, cache hints, atomics, math (the checker: sema/simt/check_internal.h).
#include "sema/simt/check_internal.h"

namespace frontend::simt {

Val FunctionChecker::checkCall(ExprId id, const ast::Call& c) {
  Val callee = checkExpr(c.func);
  std::vector<Val> args;
  for (ExprId a : ast_.list(c.args)) {
    if (ast_.expr(a).is<ast::Starred>()) {
      error(ast_.expr(a).range, Diag::UnsupportedConstruct, "`*args` in calls");
      return Val::bad();
    }
  }
  if (!callee.ok) {
    for (ExprId a : ast_.list(c.args)) checkExpr(a);
    return Val::bad();
  }
  if (callee.meaning.kind == Intrinsic::SharedArray || callee.meaning.kind == Intrinsic::LocalArray) {
    return checkArrayAlloc(id, callee, c);
  }
  for (ExprId a : ast_.list(c.args)) args.push_back(checkExpr(a));
  for (const Val& a : args) {
    if (!a.ok) return Val::bad();
  }
  if (callee.meaning.kind == Intrinsic::Function) {
    return checkDeviceCall(id, callee.meaning.payload, c, args);
  }
  if (callee.meaning.kind == Intrinsic::ExternFunction) {
    return checkExternCall(id, callee.meaning.payload, c, args);
  }
  if (callee.meaning.kind == Intrinsic::FromBuffer) {
    return checkFromBuffer(id, c, args);
  }
  if (callee.meaning.kind == Intrinsic::None || callee.meaning.kind == Intrinsic::Module) {
    error(ast_.expr(c.func).range, Diag::NotCallable,
          callee.isValue() ? typeName(callee.type) : textOf(c.func));
    return Val::bad();
  }
  return checkIntrinsicCall(id, callee, c, args);
}

Val FunctionChecker::checkExternCall(ExprId id, uint32_t index, const ast::Call& c,
                                     const std::vector<Val>& args) {
  const ExternFunction& target = mc_.module().externs[index];
  const Expr& e = ast_.expr(id);
  if (!c.keywords.empty()) {
    error(e.range, Diag::InvalidCall,
          "`" + target.name + "` is a `cuda.declare_device` function: pass its arguments by "
          "position");
    return Val::bad();
  }
  auto argList = ast_.list(c.args);
  if (args.size() != target.args.size()) {
    error(e.range, Diag::WrongArgCount, target.name, plural(target.args.size(), "argument"),
          std::to_string(args.size()));
    return Val::bad();
  }
  for (size_t k = 0; k < args.size(); ++k) {
    TypeId want = target.args[k];
    TypeId have = args[k].isValue() ? args[k].type : TypeId();
    bool fits = have.valid() && (want == have ||
                                 (types().isNumber(want) && types().isNumber(have)) ||
                                 (types().isPointer(want) && types().isNone(types().get(want).element) &&
                                  types().isPointer(have)));
    if (fits) continue;
    std::string hint;
    if (have.valid() && types().isArray(have) && types().isPointer(want)) {
      hint = " (pass `ffi.from_buffer(" + textOf(argList[k]) + ")`)";
    }
    error(ast_.expr(argList[k]).range, Diag::InvalidCall,
          "argument " + std::to_string(k + 1) + " of `" + target.name + "` must be `" +
              typeName(want) + "`, found `" +
              (have.valid() ? typeName(have) : textOf(argList[k])) + "`" + hint);
    return Val::bad();
  }
  return valueOf(target.returnType);
}

Val FunctionChecker::checkFromBuffer(ExprId id, const ast::Call& c, const std::vector<Val>& args) {
  const Expr& e = ast_.expr(id);
  if (args.size() != 1 || !c.keywords.empty() || !args[0].isValue() ||
      !types().isArray(args[0].type)) {
    error(e.range, Diag::InvalidCall, "`ffi.from_buffer` takes one array");
    return Val::bad();
  }
  return valueOf(types().pointer(types().get(args[0].type).element));
}

bool FunctionChecker::placeDeviceArguments(ExprId id, const JitFunction& target, const ast::Call& c,
                                           const std::vector<Val>& args, std::vector<ExprId>& argList,
                                           std::vector<Val>& ordered,
                                           std::map<uint32_t, ConstValue>& omitted) {
  const Expr& e = ast_.expr(id);
  size_t n = target.params.size();
  size_t required = n - target.defaults.size();
  std::string takes = plural(n, "argument");
  if (required < n) takes = std::to_string(required) + " to " + takes;
  if (args.size() > n) {
    error(e.range, Diag::WrongArgCount, target.name, takes,
          std::to_string(args.size() + ast_.list(c.keywords).size()));
    return false;
  }
  argList.assign(n, ExprId());
  ordered.assign(n, Val::bad());
  std::vector<bool> given(n, false);
  auto positional = ast_.list(c.args);
  for (size_t k = 0; k < args.size(); ++k) {
    argList[k] = positional[k];
    ordered[k] = args[k];
    given[k] = true;
  }
  // Keyword arguments: placed by parameter name, as Python does.
  for (KeywordId kid : ast_.list(c.keywords)) {
    const Keyword& kw = ast_.keyword(kid);
    if (!kw.arg.valid()) {
      error(kw.range, Diag::UnsupportedConstruct, "`**kwargs` in calls");
      return false;
    }
    std::string key(ast_.str(kw.arg));
    auto it = std::find(target.params.begin(), target.params.end(), key);
    if (it == target.params.end()) {
      error(kw.range, Diag::InvalidCall, "`" + target.name + "` has no parameter `" + key + "`");
      return false;
    }
    size_t index = static_cast<size_t>(it - target.params.begin());
    if (given[index]) {
      error(kw.range, Diag::InvalidCall, "`" + target.name + "` got two values for `" + key + "`");
      return false;
    }
    given[index] = true;
    argList[index] = kw.value;
    ordered[index] = checkExpr(kw.value);
    if (!ordered[index].ok) return false;
  }
  // Parameters left out take their defaults (numba's `omitted(default=...)`).
  for (size_t k = 0; k < n; ++k) {
    if (given[k]) continue;
    const ParamDefault* d = target.defaultOf(k);
    if (d == nullptr && c.keywords.empty()) {
      error(e.range, Diag::WrongArgCount, target.name, takes, std::to_string(args.size()));
      return false;
    }
    if (d == nullptr) {
      error(e.range, Diag::InvalidCall,
            "`" + target.name + "` is missing the argument `" + target.params[k] + "`");
      return false;
    }
    if (!d->value) {
      error(e.range, Diag::InvalidCall,
            "the call leaves out `" + target.params[k] + "`, whose default `" + textOf(d->expr) +
                "` is not a number, bool, None or tuple of them: pass `" + target.params[k] + "`");
      return false;
    }
    omitted[static_cast<uint32_t>(k)] = *d->value;
    ordered[k] = constantVal(*d->value);
    if (d->value->kind == ConstValue::Kind::None) ordered[k].type = types().none();
  }
  return true;
}

Val FunctionChecker::checkDeviceCall(ExprId id, uint32_t function, const ast::Call& c,
                                     const std::vector<Val>& args) {
  const JitFunction& target = mc_.module().functions[function];
  const Expr& e = ast_.expr(id);
  if (target.tile) {
    error(ast_.expr(c.func).range, Diag::InvalidCall,
          "`" + target.name + "` is a tile kernel: SIMT kernels cannot call it");
    return Val::bad();
  }
  std::vector<ExprId> argList;
  std::vector<Val> ordered;
  std::map<uint32_t, ConstValue> omitted;
  if (!placeDeviceArguments(id, target, c, args, argList, ordered, omitted)) return Val::bad();
  if (!c.keywords.empty() || !omitted.empty()) inst_.callArguments[id.index] = argList;
  std::vector<TypeId> argTypes;
  for (size_t k = 0; k < ordered.size(); ++k) {
    if (!ordered[k].isValue() || (types().isNone(ordered[k].type) && !omitted.count(k))) {
      error(ast_.expr(argList[k]).range, Diag::InvalidCall,
            "cannot pass `" + textOf(argList[k]) + "` to a device function");
      return Val::bad();
    }
    argTypes.push_back(ordered[k].type);
  }
  std::optional<TypeId> declaredReturn;
  // numba-cuda compiles a `@cuda.jit` function that device code calls as a device
  // function there, typed by the call: its launch signatures do not apply.
  if (target.device && !target.signatures.empty()) {
    // numba: the first declared signature the arguments convert to.
    const Signature* chosen = nullptr;
    for (int pass = 0; pass < 2 && chosen == nullptr; ++pass) {
      for (const DeclaredSignature& d : target.signatures) {
        bool fits = true;
        for (size_t k = 0; k < argTypes.size() && fits; ++k) {
          TypeId want = d.signature.args[k];
          TypeId have = argTypes[k];
          if (pass == 0) {
            fits = want == have;
          } else if (types().isNumber(want) && types().isNumber(have)) {
            fits = true;
          } else if (types().isArray(want) && types().isArray(have)) {
            const Type& w = types().get(want);
            const Type& h = types().get(have);
            fits = w.element == h.element && w.ndim == h.ndim &&
                   (w.layout == Layout::A || w.layout == h.layout);
          } else {
            fits = want == have;
          }
        }
        if (fits) {
          chosen = &d.signature;
          break;
        }
      }
    }
    if (chosen == nullptr) {
      std::string have = "(";
      for (size_t k = 0; k < argTypes.size(); ++k) have += (k ? ", " : "") + typeName(argTypes[k]);
      error(e.range, Diag::InvalidCall,
            "no signature of `" + target.name + "` accepts " + have + ")");
      return Val::bad();
    }
    argTypes = chosen->args;
    declaredReturn = chosen->returnType;
  }
  bool recursive = false;
  int callee = mc_.instantiate(function, argTypes, declaredReturn, false, inst_.fastmath, recursive,
                               omitted);
  if (callee < 0) {
    if (recursive) error(e.range, Diag::Recursion, target.name);
    return Val::bad();
  }
  inst_.callees[id.index] = callee;
  if (declaredReturn) return valueOf(*declaredReturn);
  if (!mc_.isDone(callee)) return valueOf(mc_.assumedReturn(callee));
  // Errors in the callee are reported there; its result type means nothing.
  if (mc_.failed(callee)) return Val::bad();
  const FunctionInstance& calleeInst = mc_.instance(callee);
  if (!calleeInst.returnType.valid()) return Val::bad();
  if (calleeInst.optionalReturn) optionalCalls_.insert(id.index);
  return valueOf(calleeInst.returnType);
}

Val FunctionChecker::checkArrayAlloc(ExprId id, const Val& callee, const ast::Call& c) {
  const Expr& e = ast_.expr(id);
  bool shared = callee.meaning.kind == Intrinsic::SharedArray;
  std::string what = shared ? "cuda.shared.array" : "cuda.local.array";
  ExprId shapeExpr, dtypeExpr;
  auto args = ast_.list(c.args);
  if (args.size() > 0) shapeExpr = args[0];
  if (args.size() > 1) dtypeExpr = args[1];
  for (KeywordId k : ast_.list(c.keywords)) {
    const Keyword& kw = ast_.keyword(k);
    std::string key(ast_.str(kw.arg));
    if (key == "shape" && !shapeExpr.valid()) {
      shapeExpr = kw.value;
    } else if (key == "dtype" && !dtypeExpr.valid()) {
      dtypeExpr = kw.value;
    } else if (key == "alignment") {
      checkExpr(kw.value);
    } else {
      error(kw.range, Diag::InvalidCall, "unexpected argument `" + key + "` to `" + what + "`");
      return Val::bad();
    }
  }
  if (args.size() > 2 || !shapeExpr.valid() || !dtypeExpr.valid()) {
    error(e.range, Diag::WrongArgCount, what, "a shape and a dtype",
          std::to_string(args.size() + ast_.list(c.keywords).size()) + " arguments");
    return Val::bad();
  }
  Val shape = checkExpr(shapeExpr);
  Val dtype = checkExpr(dtypeExpr);
  if (!shape.ok || !dtype.ok) return Val::bad();
  std::vector<int64_t> dims;
  bool shapeOk = shape.constant.has_value();
  if (shapeOk) {
    if (shape.constant->kind == ConstValue::Kind::Int) {
      dims.push_back(shape.constant->intValue);
    } else if (shape.constant->kind == ConstValue::Kind::Tuple && !shape.constant->elements.empty()) {
      for (const ConstValue& d : shape.constant->elements) {
        if (d.kind != ConstValue::Kind::Int) shapeOk = false;
        dims.push_back(d.intValue);
      }
    } else {
      shapeOk = false;
    }
  }
  if (!shapeOk) {
    error(ast_.expr(shapeExpr).range, Diag::NotConstant,
          "the shape of `" + what + "` (an int or a tuple of ints)");
    return Val::bad();
  }
  bool dynamic = shared && dims.size() == 1 && dims[0] == 0;
  int64_t total = 1;
  for (int64_t d : dims) {
    if (d <= 0 && !dynamic) {
      error(ast_.expr(shapeExpr).range, Diag::InvalidShape,
            "array dimensions must be positive, found " + std::to_string(d));
      return Val::bad();
    }
    if (!dynamic && __builtin_mul_overflow(total, d, &total)) total = INT64_MAX;
  }
  TypeId element;
  if (dtype.meaning.kind == Intrinsic::TypeObject) {
    element = TypeId(dtype.meaning.payload);
  } else if (dtype.constant && dtype.constant->kind == ConstValue::Kind::Str) {
    if (auto t = scalarTypeByName(types(), dtype.constant->strValue)) element = *t;
  }
  if (!element.valid() || !types().isScalar(element)) {
    error(ast_.expr(dtypeExpr).range, Diag::InvalidType,
          "`" + textOf(dtypeExpr) + "` is not a scalar dtype (write e.g. `np.float32`, "
          "`numba.int32` or `\"float32\"`)");
    return Val::bad();
  }
  if (!dynamic && total * types().byteSize(element) > (shared ? 227 * 1024 : 512 * 1024)) {
    error(ast_.expr(shapeExpr).range, Diag::InvalidShape,
          what + " of " + std::to_string(total * types().byteSize(element)) +
              " bytes is larger than a GPU allows");
    return Val::bad();
  }
  Val v = valueOf(types().array(element, static_cast<unsigned>(dims.size()), Layout::C));
  v.meaning = callee.meaning;
  return v;
}

Val FunctionChecker::recordField(const NodeRange& where, TypeId record, const std::string& name) {
  auto index = types().fieldIndex(record, name);
  if (!index) {
    error(where, Diag::UnknownAttribute, typeName(record), name);
    return Val::bad();
  }
  return valueOf(types().get(record).elements[*index]);
}

// cuda.ld<op>(array, i) and cuda.st<op>(array, i, value) (numba-cuda's
// cache_hints.py): a 1-d array with an integer index, an n-d one with a tuple
// of n integers, or a CPointer with an integer; elements of 8-64 bit
// integers or floats.
Val FunctionChecker::checkCacheHint(ExprId id, Intrinsic kind, const ast::Call& c,
                                    const std::vector<Val>& args) {
  const Expr& e = ast_.expr(id);
  bool store = kind == Intrinsic::CacheStore;
  std::string name = textOf(c.func);
  if (args.size() != (store ? 3u : 2u) || !c.keywords.empty()) {
    error(e.range, Diag::WrongArgCount, name,
          store ? "3 arguments (array, index, value)" : "2 arguments (array, index)",
          std::to_string(args.size() + ast_.list(c.keywords).size()));
    return Val::bad();
  }
  auto argList = ast_.list(c.args);
  TypeId target = args[0].isValue() ? args[0].type : TypeId();
  bool isArray = target.valid() && types().isArray(target);
  bool isPointer = target.valid() && types().isPointer(target) &&
                   !types().isNone(types().get(target).element);
  if (!isArray && !isPointer) {
    error(ast_.expr(argList[0]).range, Diag::InvalidCall,
          "`" + name + "` operates on arrays or pointers, found `" +
              (target.valid() ? typeName(target) : textOf(argList[0])) + "`");
    return Val::bad();
  }
  if (isPointer || types().get(target).ndim == 1) {
    if (!args[1].isValue() || !types().isInt(args[1].type)) {
      error(ast_.expr(argList[1]).range, Diag::InvalidIndex,
            "`" + name + "` takes an integer index, found `" +
                (args[1].isValue() ? typeName(args[1].type) : textOf(argList[1])) + "`");
      return Val::bad();
    }
  } else {
    unsigned ndim = types().get(target).ndim;
    if (args[1].isValue() && !types().isTuple(args[1].type)) {
      error(ast_.expr(argList[1]).range, Diag::InvalidIndex,
            "`" + name + "` on a " + std::to_string(ndim) + "-d array takes a tuple of " +
                std::to_string(ndim) + " indices");
      return Val::bad();
    }
    if (!checkArrayIndex(argList[1], target, args[1])) return Val::bad();
  }
  TypeId element = types().get(target).element;
  const Type& et = types().get(element);
  if (!(et.kind == TypeKind::Int || et.kind == TypeKind::Float)) {
    error(ast_.expr(argList[0]).range, Diag::InvalidCall,
          "`" + name + "` needs integer or float elements, found `" + typeName(element) + "`");
    return Val::bad();
  }
  if (!store) return valueOf(element);
  if (!args[2].isValue() || !types().isNumber(args[2].type)) {
    error(ast_.expr(argList[2]).range, Diag::InvalidCall,
          "`" + name + "` stores a number, found `" +
              (args[2].isValue() ? typeName(args[2].type) : textOf(argList[2])) + "`");
    return Val::bad();
  }
  return valueOf(types().none());
}

Val FunctionChecker::checkAtomic(ExprId id, Intrinsic kind, const ast::Call& c,
                                 const std::vector<Val>& args) {
  const Expr& e = ast_.expr(id);
  // compare_and_swap(array, old, value) works on element 0 of a 1-d array.
  bool noIndex = kind == Intrinsic::AtomicCompareAndSwap;
  size_t want = kind == Intrinsic::AtomicCas ? 4 : 3;
  std::string name = textOf(c.func);
  if (args.size() != want || !c.keywords.empty()) {
    error(e.range, Diag::WrongArgCount, name,
          want == 4  ? "4 arguments (array, index, expected, value)"
          : noIndex ? "3 arguments (array, expected, value)"
                    : "3 arguments (array, index, value)",
          std::to_string(args.size() + ast_.list(c.keywords).size()));
    return Val::bad();
  }
  auto argList = ast_.list(c.args);
  if (!args[0].isValue() || !types().isArray(args[0].type)) {
    error(ast_.expr(argList[0]).range, Diag::InvalidCall,
          "the first argument of `" + name + "` must be an array, found `" +
              (args[0].isValue() ? typeName(args[0].type) : textOf(argList[0])) + "`");
    return Val::bad();
  }
  unsigned ndim = types().get(args[0].type).ndim;
  if (!noIndex && ndim > 1 && args[1].isValue() && !types().isTuple(args[1].type)) {
    error(ast_.expr(argList[1]).range, Diag::InvalidIndex,
          "`" + name + "` on a " + std::to_string(ndim) + "-d array takes a tuple of " +
              std::to_string(ndim) + " indices");
    return Val::bad();
  }
  if (noIndex) {
    if (ndim != 1) {
      error(ast_.expr(argList[0]).range, Diag::InvalidCall,
            "`" + name + "` works on a 1-d array, found `" + typeName(args[0].type) + "`");
      return Val::bad();
    }
  } else if (!checkArrayIndex(argList[1], args[0].type, args[1])) {
    return Val::bad();
  }
  TypeId element = types().get(args[0].type).element;
  const Type& et = types().get(element);
  bool isFloat = et.kind == TypeKind::Float;
  bool intOnly = kind == Intrinsic::AtomicAnd || kind == Intrinsic::AtomicOr ||
                 kind == Intrinsic::AtomicXor || kind == Intrinsic::AtomicCas ||
                 kind == Intrinsic::AtomicCompareAndSwap ||
                 kind == Intrinsic::AtomicInc || kind == Intrinsic::AtomicDec;
  bool ok = et.bits >= 32 && (et.kind == TypeKind::Int || isFloat);
  if (intOnly && isFloat) ok = false;
  if ((kind == Intrinsic::AtomicInc || kind == Intrinsic::AtomicDec) && et.isSigned) ok = false;
  // numba: exch takes 32- and 64-bit integers only.
  if (kind == Intrinsic::AtomicExch && isFloat) ok = false;
  if (!ok) {
    error(ast_.expr(argList[0]).range, Diag::InvalidCall,
          "`" + name + "` does not support arrays of `" + typeName(element) + "`");
    return Val::bad();
  }
  for (size_t k = noIndex ? 1 : 2; k < args.size(); ++k) {
    if (!args[k].isValue() || !types().isNumber(args[k].type)) {
      error(ast_.expr(argList[k]).range, Diag::InvalidCall,
            "`" + name + "` needs a number, found `" + textOf(argList[k]) + "`");
      return Val::bad();
    }
  }
  inst_.opTypes[id.index] = element;
  return valueOf(element);
}

Val FunctionChecker::checkMathCall(ExprId id, MathFn fn, const ast::Call& c,
                                   const std::vector<Val>& args, std::string_view path) {
  const Expr& e = ast_.expr(id);
  // As written: `math.sin`, `np.sin`, `sin` (from math import sin).
  std::string name = textOf(c.func);
  unsigned arity = mathFnArity(fn);
  bool numpy = path.substr(0, 6) == "numpy.";
  bool anyArray = !c.keywords.empty() && numpy;
  for (const Val& a : args) anyArray = anyArray || (a.isValue() && types().isArray(a.type));
  if (anyArray) {
    if (numpy) return checkUfuncCall(id, fn, c, args, name);
    error(e.range, Diag::InvalidCall,
          "`" + name + "` takes numbers; on arrays, NumPy's ufunc with an output array "
          "computes every element (`np." + std::string(path.substr(path.rfind('.') + 1)) +
              "(x, out)`), or call it per element (`out[i] = " + name + "(x[i])`)");
    return Val::bad();
  }
  bool logWithBase = fn == MathFn::Log && args.size() == 2;
  if (!c.keywords.empty() || (args.size() != arity && !logWithBase)) {
    error(e.range, Diag::WrongArgCount, name, plural(arity, "argument"),
          std::to_string(args.size() + ast_.list(c.keywords).size()));
    return Val::bad();
  }
  auto argList = ast_.list(c.args);
  for (size_t k = 0; k < args.size(); ++k) {
    if (!args[k].isValue() || !types().isNumber(args[k].type)) {
      error(ast_.expr(argList[k]).range, Diag::InvalidCall,
            "`" + name + "` takes numbers, found `" +
                (args[k].isValue() ? typeName(args[k].type) : textOf(argList[k])) + "`");
      return Val::bad();
    }
  }
  // float16 computes in float32 (libdevice has no half functions).
  auto floatOf = [&](TypeId t) {
    if (types().isFloat(t)) return types().get(t).bits == 16 ? types().float32() : t;
    return types().float64();
  };
  TypeId operand;
  TypeId result;
  switch (fn) {
    case MathFn::Isnan:
    case MathFn::Isinf:
    case MathFn::Isfinite:
      operand = args[0].type;
      result = types().boolean();
      break;
    case MathFn::Ldexp:
      if (!types().isFloat(args[0].type) || !types().isIntegral(args[1].type)) {
        error(e.range, Diag::InvalidCall, "`math.ldexp` takes a float and an integer");
        return Val::bad();
      }
      operand = floatOf(args[0].type);
      result = operand;
      break;
    case MathFn::Frexp:
      operand = floatOf(args[0].type);
      result = types().tuple({operand, types().int32()});
      break;
    case MathFn::Modf:
      operand = floatOf(args[0].type);
      result = types().tuple({operand, operand});
      break;
    default:
      if (args.size() == 2) {
        TypeId a = floatOf(args[0].type);
        TypeId b = floatOf(args[1].type);
        operand = types().get(a).bits == 32 && types().get(b).bits == 32 ? a : types().float64();
      } else {
        operand = floatOf(args[0].type);
      }
      result = operand;
      // numba-cuda's float16 overloads of these return float16.
      if (args.size() == 1 && types().isFloat(args[0].type) && types().get(args[0].type).bits == 16 &&
          (fn == MathFn::Trunc || fn == MathFn::Ceil || fn == MathFn::Floor || fn == MathFn::Fabs ||
           fn == MathFn::Sqrt || fn == MathFn::Log || fn == MathFn::Log2 || fn == MathFn::Log10 ||
           fn == MathFn::Exp || fn == MathFn::Tanh || fn == MathFn::Cos || fn == MathFn::Sin)) {
        result = args[0].type;
      }
      break;
  }
  inst_.opTypes[id.index] = operand;
  return valueOf(result);
}

// NumPy's ufunc on arrays with an output array, as numba compiles it in CUDA
// kernels: `np.sin(x, out)` / `np.sin(x, out=out)` computes every element of
// `out` from the inputs broadcast onto it (numbers repeat). The loop type is
// numba's ufunc loop: NumPy's `f->f` for float16/float32 and integers of at
// most 16 bits, `d->d` otherwise (two inputs: float32 only when both are);
// the result casts to `out` within its kind (NumPy's `same_kind`). Without an
// output array the ufunc would allocate its result, which numba-cuda's kernels
// cannot.
Val FunctionChecker::checkUfuncCall(ExprId id, MathFn fn, const ast::Call& c,
                                    const std::vector<Val>& args, const std::string& name) {
  const Expr& e = ast_.expr(id);
  unsigned arity = mathFnArity(fn);
  auto argList = ast_.list(c.args);
  std::vector<ExprId> operands(argList.begin(), argList.end());
  std::vector<Val> vals = args;
  for (KeywordId k : ast_.list(c.keywords)) {
    const Keyword& kw = ast_.keyword(k);
    if (ast_.str(kw.arg) != "out" || operands.size() != arity) {
      error(kw.range, Diag::InvalidCall,
            "`" + name + "` in kernels takes its inputs and an output array (`out=`), found `" +
                std::string(ast_.str(kw.arg)) + "=`");
      return Val::bad();
    }
    operands.push_back(kw.value);
    vals.push_back(checkExpr(kw.value));
  }
  for (const Val& v : vals) {
    if (!v.ok) return Val::bad();
  }
  if (operands.size() == arity) {
    error(e.range, Diag::InvalidCall,
          "`" + name + "` on arrays needs an output array in kernels (a kernel cannot allocate "
          "the result): `" + name + "(" + (arity == 2 ? "x, y" : "x") + ", out)`");
    return Val::bad();
  }
  if (operands.size() != arity + 1) {
    error(e.range, Diag::WrongArgCount, name,
          plural(arity, "input") + " and an output array",
          plural(static_cast<unsigned>(operands.size()), "argument"));
    return Val::bad();
  }
  const Val& out = vals[arity];
  if (!out.isValue() || !types().isArray(out.type)) {
    error(ast_.expr(operands[arity]).range, Diag::InvalidCall,
          "the output of `" + name + "` must be an array, found `" + textOf(operands[arity]) + "`");
    return Val::bad();
  }
  const Type& outType = types().get(out.type);
  // numba's loop type for one input's element type.
  auto loopFloat = [&](TypeId t) {
    if (types().isFloat(t)) return types().get(t).bits == 64 ? types().float64() : types().float32();
    return types().get(t).bits <= 16 ? types().float32() : types().float64();
  };
  std::vector<TypeId> elements;
  for (unsigned k = 0; k < arity; ++k) {
    TypeId t = vals[k].isValue() ? vals[k].type : TypeId();
    if (t.valid() && types().isArray(t)) {
      if (types().get(t).ndim > outType.ndim) {
        error(ast_.expr(operands[k]).range, Diag::InvalidCall,
              "`" + name + "`'s input has " + std::to_string(types().get(t).ndim) +
                  " dimensions, more than its output array's " + std::to_string(outType.ndim));
        return Val::bad();
      }
      t = types().get(t).element;
    }
    if (!t.valid() || !(types().isInt(t) || types().isFloat(t) || types().isBool(t))) {
      error(ast_.expr(operands[k]).range, Diag::InvalidCall,
            "`" + name + "` on arrays takes real numbers and arrays of them, found `" +
                (vals[k].isValue() ? typeName(vals[k].type) : textOf(operands[k])) + "`");
      return Val::bad();
    }
    elements.push_back(t);
  }
  TypeId operand, result;
  if (fn == MathFn::Isnan || fn == MathFn::Isinf || fn == MathFn::Isfinite) {
    operand = elements[0];
    result = types().boolean();
  } else {
    operand = loopFloat(elements[0]);
    for (size_t k = 1; k < elements.size(); ++k) {
      if (loopFloat(elements[k]) != operand) operand = types().float64();
    }
    result = operand;
  }
  if (!castsSameKind(types(), result, outType.element)) {
    error(ast_.expr(operands[arity]).range, Diag::InvalidCall,
          "cannot store `" + name + "`'s `" + typeName(result) + "` results in `" +
              typeName(out.type) + "`: numba's ufuncs cast their output only within a kind "
              "(NumPy's `same_kind`)");
    return Val::bad();
  }
  inst_.opTypes[id.index] = operand;
  inst_.callArguments[id.index] = operands;
  sliceShapeCheck(e.range, "operands could not be broadcast together with remapped shapes");
  Val v = valueOf(out.type);
  return v;
}

// NumPy's arithmetic ufuncs on numbers, typed as numba types them (NumPy's
// loop for the operand types): the binary ones in the operands' promoted type
// (`np.add`, `np.maximum`, ...; `np.true_divide` of integers in float64), the
// operation itself as the operator of the same meaning (`np.add` is `+`,
// `np.power` is `**`); the unary ones in the operand's type (booleans in
// int64). On arrays numba's kernels need an output
// array, which these do not take yet.
Val FunctionChecker::checkNumpyFnCall(ExprId id, NumpyFn fn, const ast::Call& c,
                                      const std::vector<Val>& args, bool pythonOperator) {
  const Expr& e = ast_.expr(id);
  std::string name = textOf(c.func);
  unsigned arity = numpyFnArity(fn);
  for (const Val& a : args) {
    if (a.isValue() && types().isArray(a.type)) {
      error(e.range, Diag::UnsupportedFeature,
            "`" + name + "` on arrays is not supported in kernels yet: call it per element "
            "(`out[i] = " + name + "(x[i]" + (arity == 2 ? ", y[i]" : "") + ")`)");
      return Val::bad();
    }
  }
  if (!c.keywords.empty() || args.size() != arity) {
    error(e.range, Diag::WrongArgCount, name, plural(arity, "argument"),
          std::to_string(args.size() + ast_.list(c.keywords).size()));
    return Val::bad();
  }
  auto argList = ast_.list(c.args);
  for (size_t k = 0; k < args.size(); ++k) {
    if (!args[k].isValue() || !types().isScalar(args[k].type) ||
        (types().isComplex(args[k].type) && fn >= NumpyFn::Maximum && fn != NumpyFn::Negative &&
         fn != NumpyFn::Positive && fn != NumpyFn::Square)) {
      error(ast_.expr(argList[k]).range, Diag::InvalidCall,
            "`" + name + "` takes " +
                (fn >= NumpyFn::Maximum && fn <= NumpyFn::Fmin ? "real numbers" : "numbers") +
                ", found `" + (args[k].isValue() ? typeName(args[k].type) : textOf(argList[k])) + "`");
      return Val::bad();
    }
  }
  static constexpr ArithOp kOps[] = {ArithOp::Add,    ArithOp::Sub,    ArithOp::Mul,
                                     ArithOp::TrueDiv, ArithOp::FloorDiv, ArithOp::Mod,
                                     ArithOp::Pow,    ArithOp::LShift, ArithOp::RShift,
                                     ArithOp::BitAnd, ArithOp::BitOr,  ArithOp::BitXor};
  TypeId a = args[0].type;
  if (pythonOperator && fn <= NumpyFn::BitwiseXor) {
    // `operator.add(a, b)` is `a + b`, typed as the operator.
    auto typing = binaryResultType(types(), kOps[static_cast<unsigned>(fn)], a, args[1].type);
    if (!typing) {
      error(e.range, Diag::MismatchedOperandTypes, name, typeName(a), typeName(args[1].type));
      return Val::bad();
    }
    inst_.opTypes[id.index] = typing->operand;
    inst_.powExponentTypes[id.index] = typing->exponent;
    return valueOf(typing->result);
  }
  if (fn <= NumpyFn::BitwiseXor) {
    // NumPy's loop: the operands' promoted type (np.add(int32, int32) is int32,
    // np.power(float32, int64) float64), integers divided in float64; the
    // operation runs as the operator does on two values of that type.
    auto u = unifyTypes(types(), a, args[1].type);
    if (u && fn == NumpyFn::TrueDivide && !types().isFloat(*u) && !types().isComplex(*u)) {
      u = types().float64();
    }
    std::optional<OpTyping> typing;
    if (u) typing = binaryResultType(types(), kOps[static_cast<unsigned>(fn)], *u, *u);
    if (!typing) {
      error(e.range, Diag::MismatchedOperandTypes, name, typeName(a), typeName(args[1].type));
      return Val::bad();
    }
    inst_.opTypes[id.index] = typing->operand;
    inst_.powExponentTypes[id.index] = typing->exponent;
    return valueOf(*u);
  }
  TypeId t = types().isBool(a) ? types().int64() : a;
  if (arity == 2) {
    auto u = unifyTypes(types(), a, args[1].type);
    if (!u) {
      error(e.range, Diag::MismatchedOperandTypes, name, typeName(a), typeName(args[1].type));
      return Val::bad();
    }
    t = *u;
  }
  inst_.opTypes[id.index] = t;
  return valueOf(t);
}

}  // namespace frontend::simt
