// Calls to ct.* operations: argument binding, argument kinds, checkCall.
#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

std::optional<std::vector<ExprId>> TileChecker::bindArgs(ExprId id, const ast::Call& c, std::string_view fname,
                                            std::initializer_list<const char*> params,
                                            size_t required, ExprId self) {
  std::vector<ExprId> out(params.size());
  std::vector<const char*> names(params);
  size_t next = 0;
  if (self.valid()) out[next++] = self;
  std::vector<ExprId> positional;
  for (ExprId a : ast_.list(c.args)) {
    if (!ast_.expr(a).is<ast::Starred>()) {
      positional.push_back(a);
      continue;
    }
    // `ct.scatter(*args)`: a tuple display's elements (or a name bound to one).
    auto elts = splicedDisplay(a);
    if (!elts) {
      diags_.error(loc(a), Diag::TileUnsupported, "`*` in a call of `" + std::string(fname) + "` of this value",
                   ": splice a tuple display or a name bound to one");
      return std::nullopt;
    }
    positional.insert(positional.end(), elts->begin(), elts->end());
  }
  for (ExprId a : positional) {
    if (next >= out.size()) {
      diags_.error(loc(a), Diag::InvalidCall,
                   "`" + std::string(fname) + "` takes at most " + std::to_string(out.size()) +
                       " arguments");
      return std::nullopt;
    }
    out[next++] = a;
  }
  for (KeywordId kid : ast_.list(c.keywords)) {
    const Keyword& k = ast_.keyword(kid);
    std::string key = k.arg.valid() ? std::string(ast_.str(k.arg)) : "**";
    auto it = std::find_if(names.begin(), names.end(), [&](const char* n) { return key == n; });
    if (it == names.end()) {
      diags_.error(loc(k.range), Diag::InvalidCall,
                   "`" + std::string(fname) + "` has no parameter `" + key + "`");
      return std::nullopt;
    }
    size_t i = static_cast<size_t>(it - names.begin());
    if (out[i].valid()) {
      diags_.error(loc(k.range), Diag::InvalidCall,
                   "`" + std::string(fname) + "` got `" + key + "` twice");
      return std::nullopt;
    }
    out[i] = k.value;
  }
  for (size_t i = 0; i < required; ++i) {
    if (!out[i].valid()) {
      diags_.error(loc(id), Diag::InvalidCall,
                   "`" + std::string(fname) + "` needs its `" + names[i] + "` argument");
      return std::nullopt;
    }
  }
  inst_.callArguments[id.index] = out;
  return out;
}

std::optional<bool> TileChecker::constBool(ExprId id, const char* what) {
  TV v = checkExpr(id);
  if (!v.ok()) return std::nullopt;
  if (v.k == TV::K::Const && (v.c.kind == ConstValue::Kind::Bool || v.c.kind == ConstValue::Kind::Int)) {
    return truthOf(v.c);
  }
  diags_.error(loc(id), Diag::NotConstant, std::string(what));
  return std::nullopt;
}

bool TileChecker::roundingModeArg(ExprId e, std::optional<TileFn>& mode) {
  TV m = checkExpr(e);
  if (!m.ok()) return false;
  bool none = m.k == TV::K::Value && types_.isNone(m.type);
  if (!none && m.k == TV::K::Const && m.c.kind == ConstValue::Kind::None) none = true;
  if (!none && (m.k != TV::K::Entity || m.ent != Intrinsic::TileOp || !isTileRounding(m.payload))) {
    diags_.error(loc(e), Diag::TileType, "expected a `ct.RoundingMode` member or None, found `" + describe(m) + "`");
    return false;
  }
  if (!none) mode = static_cast<TileFn>(m.payload);
  return true;
}

std::string TileChecker::shapeText(const std::vector<int64_t>& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

bool TileChecker::broadcastsTo(const TV& v, const std::vector<int64_t>& shape) const {
  std::vector<int64_t> s = shapeOf(v);
  if (s.size() > shape.size()) return false;
  size_t off = shape.size() - s.size();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != 1 && s[i] != shape[off + i]) return false;
  }
  return true;
}

bool TileChecker::convertsTo(const TV& v, TypeId to) const {
  TypeId from;
  if (v.k == TV::K::Const) {
    if (v.c.kind == ConstValue::Kind::Bool) return true;
    if (v.c.kind == ConstValue::Kind::Int) return !types_.isBool(to);
    return types_.isFloat(to);
  }
  from = elementOf(v.type);
  if (types_.isBool(from)) return true;
  if (from == to) return true;
  if (types_.isNoArithmetic(from) || types_.isNoArithmetic(to)) return false;
  if (types_.isInt(from)) return types_.isInt(to) || types_.isFloat(to);
  return types_.isFloat(to);
}

bool TileChecker::implicitlyCasts(const TV& v, TypeId to) {
  if (v.k == TV::K::Const) {
    const Type& t = types_.get(to);
    switch (v.c.kind) {
      case ConstValue::Kind::Bool:
        return true;
      case ConstValue::Kind::Int: {
        if (t.kind == TypeKind::Bool) return v.c.intValue == 0 || v.c.intValue == 1;
        if (t.kind != TypeKind::Int || t.bits >= 64) return t.kind == TypeKind::Int || t.kind == TypeKind::Float;
        int64_t lo = t.isSigned ? -(int64_t(1) << (t.bits - 1)) : 0;
        int64_t hi = t.isSigned ? (int64_t(1) << (t.bits - 1)) - 1 : (int64_t(1) << t.bits) - 1;
        return v.c.intValue >= lo && v.c.intValue <= hi;
      }
      case ConstValue::Kind::Float:
        return t.kind == TypeKind::Float;
      default:
        return false;
    }
  }
  TypeId from = elementOf(v.type);
  if (from == to) return true;
  // tfloat32 and the 8-bit floats promote with nothing; cuTile promotes no signed integer
  // with an unsigned one (promoteDtypes gives the signed type of the larger width).
  if (types_.isNoArithmetic(from) || types_.isNoArithmetic(to)) return false;
  if (types_.isInt(from) && types_.isInt(to) && types_.get(from).isSigned != types_.get(to).isSigned) return false;
  return promoteDtypes(from, to) == to;
}

bool TileChecker::valueOperand(ExprId e, const std::string& fname, const char* what, const std::vector<int64_t>& shape,
                  TypeId to) {
  auto v = tileOrScalar(e);
  if (!v) return false;
  if (!implicitlyCasts(*v, to)) {
    diags_.error(loc(e), Diag::TileType,
                 "`" + fname + "` cannot implicitly cast " + what + " `" + describe(*v) + "` to the array's `" +
                     nameOf(to) + "` (cuTile converts only to a dtype that holds every value: use `.astype`)");
    return false;
  }
  if (!broadcastsTo(*v, shape)) {
    diags_.error(loc(e), Diag::TileShape,
                 std::string(what) + " `" + describe(*v) + "` does not broadcast to the indices' shape " +
                     shapeText(shape));
    return false;
  }
  return true;
}

bool TileChecker::isNoneConst(ExprId e) const {
  return ast_.expr(e).kind() == ExprKind::Constant && ast_.constantOf(e).kind == ConstantKind::None;
}

TV TileChecker::checkRoundedArith(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname) {
  auto args = bindArgs(id, c, fname, {"x", "y", "rounding_mode", "flush_to_zero"}, 2);
  if (!args) return TV{};
  auto x = tileOrScalar((*args)[0]);
  auto y = tileOrScalar((*args)[1]);
  if (!x || !y) return TV{};
  std::optional<TileFn> mode;
  if ((*args)[2].valid() && !roundingModeArg((*args)[2], mode)) return TV{};
  if ((*args)[3].valid() && !constBool((*args)[3], "`flush_to_zero`")) return TV{};
  Operator op = fn == TileFn::Add ? Operator::Add : fn == TileFn::Sub ? Operator::Sub
              : fn == TileFn::Mul ? Operator::Mult : Operator::Div;
  TV r = binary(op, *x, *y, ast_.expr(id).range, id);
  if (!r.ok()) return TV{};
  if (r.k == TV::K::Const) return record(id, r);
  TypeId dtype = lastOpType_;
  if (mode && *mode != TileFn::RoundRn) {
    bool ieee = *mode == TileFn::RoundRz || *mode == TileFn::RoundRm || *mode == TileFn::RoundRp;
    bool division = fn == TileFn::Truediv;
    bool ok = *mode != TileFn::RoundRzi && (division || ieee) &&
              (dtype == types_.float32() || (ieee && dtype == types_.float64()));
    if (!ok) {
      diags_.error(loc((*args)[2]), Diag::TileUnsupported,
                   "`" + fname + "` with `rounding_mode=RoundingMode." + std::string(tileFnName(*mode)) +
                       "` on `" + nameOf(dtype) + "`",
                   *mode == TileFn::RoundRzi ? (division ? " (RZI rounds to integers; division takes RN, RZ, RM, RP, FULL or APPROX)"
                                                         : " (RZI rounds to integers; this takes RN, RZ, RM or RP)")
                   : !ieee && !division     ? " (FULL and APPROX are division's; this takes RN, RZ, RM or RP)"
                   : ieee                   ? " (float32 and float64 only)"
                                            : " (float32 only)");
      return TV{};
    }
  }
  inst_.opTypes[id.index] = dtype;
  return record(id, r);
}

TV TileChecker::checkOperatorFn(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname) {
  TileOperator o = tileOperatorOf(fn);
  if (o.kind == TileOperator::Kind::Unary) {
    auto args = bindArgs(id, c, fname, {"x"}, 1);
    if (!args) return TV{};
    return unaryOp(id, o.unary, (*args)[0]);
  }
  auto args = bindArgs(id, c, fname, {"x", "y"}, 2);
  if (!args) return TV{};
  if (o.kind == TileOperator::Kind::Compare) return compareOp(id, o.compare, (*args)[0], (*args)[1]);
  return binaryOp(id, o.binary, (*args)[0], (*args)[1]);
}

std::optional<int64_t> TileChecker::constInt(ExprId id, const char* what) {
  TV v = checkExpr(id);
  if (!v.ok()) return std::nullopt;
  if (v.k == TV::K::Const && (v.c.kind == ConstValue::Kind::Int || v.c.kind == ConstValue::Kind::Bool)) {
    return v.c.kind == ConstValue::Kind::Int ? v.c.intValue : int64_t(v.c.boolValue);
  }
  diags_.error(loc(id), Diag::NotConstant, std::string(what));
  return std::nullopt;
}

std::optional<std::vector<int64_t>> TileChecker::constShape(ExprId id) {
  if (const auto* t = ast_.expr(id).dyn<ast::Tuple>()) {
    for (ExprId e : ast_.list(t->elts)) {
      TV item = checkExpr(e);
      if (!item.ok()) return std::nullopt;
      if (item.k != TV::K::Const) {
        diags_.error(loc(e), Diag::NotConstant, "a tile dimension");
        return std::nullopt;
      }
    }
  }
  TV v = checkExpr(id);
  if (!v.ok()) return std::nullopt;
  std::vector<int64_t> shape;
  if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Int) {
    shape.push_back(v.c.intValue);
  } else if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Tuple) {
    for (const ConstValue& e : v.c.elements) {
      if (e.kind != ConstValue::Kind::Int) {
        shape.clear();
        break;
      }
      shape.push_back(e.intValue);
    }
    if (shape.empty() && !v.c.elements.empty()) {
      diags_.error(loc(id), Diag::TileShape, "a tile shape holds integers, found `" + v.c.repr() + "`");
      return std::nullopt;
    }
  } else {
    diags_.error(loc(id), Diag::NotConstant, "a tile shape");
    return std::nullopt;
  }
  int64_t total = 1;
  for (int64_t d : shape) {
    if (!isPow2(d)) {
      diags_.error(loc(id), Diag::TileShape,
                   "tile dimensions must be powers of two, found " + std::to_string(d));
      return std::nullopt;
    }
    total *= d;
    if (total > (int64_t(1) << 20)) {
      diags_.error(loc(id), Diag::TileShape, "a tile holds at most 1048576 elements");
      return std::nullopt;
    }
  }
  return shape;
}

std::optional<TypeId> TileChecker::dtypeArg(ExprId id) {
  TV v = checkExpr(id);
  if (!v.ok()) return std::nullopt;
  if (v.k == TV::K::Entity && v.ent == Intrinsic::TypeObject) {
    TypeId t{v.payload};
    if (types_.isNumber(t)) return t;
  }
  diags_.error(loc(id), Diag::TileType, "expected a dtype such as `ct.float32`, found `" + describe(v) + "`");
  return std::nullopt;
}

bool TileChecker::paddingArg(ExprId id) {
  TV p = checkExpr(id);
  if (!p.ok()) return false;
  if (p.k != TV::K::Entity || p.ent != Intrinsic::TileOp || !isTilePadding(p.payload)) {
    diags_.error(loc(id), Diag::TileType, "expected a `ct.PaddingMode` member, found `" + describe(p) + "`");
    return false;
  }
  return true;
}

bool TileChecker::intScalar(ExprId id, const char* what) {
  TV v = checkExpr(id);
  if (!v.ok()) return false;
  if (v.k == TV::K::Const && (v.c.kind == ConstValue::Kind::Int || v.c.kind == ConstValue::Kind::Bool)) return true;
  if (v.k == TV::K::Value && types_.isIntegral(v.type)) return true;
  diags_.error(loc(id), Diag::TileType, std::string(what) + " must be an integer, found `" + describe(v) + "`");
  return false;
}

bool TileChecker::tileIndex(ExprId id, unsigned ndim) {
  if (ast_.expr(id).kind() == ExprKind::Name) {
    // A tuple of integers held in a name (`idx = (ct.bid(0), j)`).
    TV v = checkExpr(id);
    if (v.k == TV::K::Value && types_.isTuple(v.type)) {
      const std::vector<TypeId>& elements = types_.get(v.type).elements;
      bool ints = std::all_of(elements.begin(), elements.end(), [&](TypeId e) { return types_.isIntegral(e); });
      if (!ints || elements.size() != ndim) {
        diags_.error(loc(id), Diag::TileShape,
                     "the tile index `" + describe(v) + "` must hold " + std::to_string(ndim) +
                         " integer(s), one per dimension of the array");
        return false;
      }
      return true;
    }
    if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Tuple) {
      // A constant tuple held in a name (`idx = ct.static_eval((0,) * n)`).
      bool ints = std::all_of(v.c.elements.begin(), v.c.elements.end(), [](const ConstValue& e) {
        return e.kind == ConstValue::Kind::Int || e.kind == ConstValue::Kind::Bool;
      });
      if (!ints || v.c.elements.size() != ndim) {
        diags_.error(loc(id), Diag::TileShape,
                     "the tile index `" + v.c.repr() + "` must hold " + std::to_string(ndim) +
                         " integer(s), one per dimension of the array");
        return false;
      }
      return true;
    }
  }
  std::vector<ExprId> items;
  if (const auto* t = ast_.expr(id).dyn<ast::Tuple>()) {
    for (ExprId e : ast_.list(t->elts)) items.push_back(e);
  } else {
    items.push_back(id);
  }
  if (items.size() != ndim) {
    diags_.error(loc(id), Diag::TileShape,
                 "the tile index has " + std::to_string(items.size()) + " element(s), but the array has " +
                     std::to_string(ndim) + " dimension(s)");
    return false;
  }
  bool ok = true;
  for (ExprId e : items) ok = intScalar(e, "a tile index") && ok;
  return ok;
}

std::optional<std::vector<int64_t>> TileChecker::orderArg(ExprId id, unsigned ndim) {
  std::vector<int64_t> axes;
  if (ast_.expr(id).kind() == ExprKind::Constant && ast_.constantOf(id).kind == ConstantKind::Str) {
    const std::string& text = ast_.constantOf(id).text;
    if (text != "C" && text != "F") {
      diags_.error(loc(id), Diag::TileType,
                   "`order=` takes a tuple of axes, \"C\" or \"F\", found \"" + text + "\"");
      return std::nullopt;
    }
    for (unsigned d = 0; d < ndim; ++d) axes.push_back(text == "C" ? d : ndim - 1 - d);
  } else {
    TV v = checkExpr(id);
    if (!v.ok()) return std::nullopt;
    bool ok = v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Tuple && v.c.elements.size() == ndim;
    std::vector<bool> seen(ndim, false);
    for (size_t d = 0; ok && d < v.c.elements.size(); ++d) {
      const ConstValue& e = v.c.elements[d];
      ok = e.kind == ConstValue::Kind::Int && e.intValue >= 0 && e.intValue < int64_t(ndim) &&
           !seen[static_cast<size_t>(e.intValue)];
      if (ok) {
        seen[static_cast<size_t>(e.intValue)] = true;
        axes.push_back(e.intValue);
      }
    }
    if (!ok) {
      diags_.error(loc(id), Diag::TileType,
                   "`order=` must be a permutation of the array's " + std::to_string(ndim) +
                       " axes (a tuple of constants), \"C\" or \"F\", found `" + describe(v) + "`");
      return std::nullopt;
    }
  }
  ConstValue tuple;
  tuple.kind = ConstValue::Kind::Tuple;
  for (int64_t a : axes) tuple.elements.push_back(ConstValue::ofInt(a));
  record(id, TV::constant(tuple));
  return axes;
}

std::optional<TypeId> TileChecker::arrayArg(ExprId id) {
  TV v = checkExpr(id);
  if (!v.ok()) return std::nullopt;
  if (v.k == TV::K::Value && types_.isArray(v.type) && !types_.get(v.type).facts.raw &&
      !types_.get(v.type).facts.view) {
    return v.type;
  }
  diags_.error(loc(id), Diag::TileType, "expected an array, found `" + describe(v) + "`");
  return std::nullopt;
}

std::optional<TV> TileChecker::tileOrScalar(ExprId id) {
  TV v = checkExpr(id);
  if (!v.ok()) return std::nullopt;
  if (v.k == TV::K::Const && v.c.isNumber()) return v;
  if (v.k == TV::K::Value && (types_.isTile(v.type) || types_.isNumber(v.type))) return v;
  diags_.error(loc(id), Diag::TileType, "expected a tile or a number, found `" + describe(v) + "`");
  return std::nullopt;
}

namespace {
// An operator-module function (`operator.add`: the NumpyFn api_names gives it) as cuTile's
// operator function of the same meaning.
std::optional<TileFn> operatorModuleFn(NumpyFn fn) {
  switch (fn) {
    case NumpyFn::Add: return TileFn::Add;
    case NumpyFn::Subtract: return TileFn::Sub;
    case NumpyFn::Multiply: return TileFn::Mul;
    case NumpyFn::TrueDivide: return TileFn::Truediv;
    case NumpyFn::FloorDivide: return TileFn::Floordiv;
    case NumpyFn::Remainder: return TileFn::Mod;
    case NumpyFn::Power: return TileFn::Pow;
    case NumpyFn::Negative: return TileFn::Negative;
    case NumpyFn::BitwiseAnd: return TileFn::BitwiseAnd;
    case NumpyFn::BitwiseOr: return TileFn::BitwiseOr;
    case NumpyFn::BitwiseXor: return TileFn::BitwiseXor;
    case NumpyFn::LeftShift: return TileFn::BitwiseLshift;
    case NumpyFn::RightShift: return TileFn::BitwiseRshift;
    default: return std::nullopt;
  }
}
}  // namespace

TV TileChecker::checkCall(ExprId id, const ast::Call& c) {
  if (auto r = checkPlainCall(id, c)) return *r;
  if (auto r = checkDictMethod(id, c)) return *r;
  if (isDataclassesReplace(c.func)) return checkDataclassReplace(id, c);
  TV callee = checkExpr(c.func);
  if (!callee.ok()) return TV{};
  if (isClassTV(callee)) return checkDataclassCall(id, c, callee);
  if (isBoundMethod(callee)) return checkBoundMethodCall(id, c, callee);
  if (callee.k == TV::K::Value && isDataclassType(types_, callee.type)) {
    // `obj(args)`: its class's __call__.
    std::vector<ArgItem> positional;
    std::vector<std::pair<std::string, ArgItem>> keywords;
    if (!gatherArgs(c, "__call__", positional, keywords)) return TV{};
    if (!keywords.empty()) {
      diags_.error(loc(id), Diag::TileUnsupported, "keyword arguments to `__call__`", "");
      return TV{};
    }
    return callDunder(id, callee, c.func, "__call__", positional, "call");
  }
  // A function value out of a dict or a tuple (`kwargs["fn"](t)`).
  if (isFunctionValue(callee)) return checkHelperCall(id, c, callee.def, callee.path, callee.defScope);
  if (callee.k == TV::K::Closure) return checkClosureCall(id, c, callee);
  // Python's operator functions called in a kernel (`operator.add(a, b)`, cuTile's
  // test_static_eval): cuTile's operator functions of the same meaning.
  std::string fname;
  if (callee.k == TV::K::Entity && callee.ent == Intrinsic::NumpyFn && callee.path.rfind("operator.", 0) == 0) {
    auto op = operatorModuleFn(static_cast<NumpyFn>(callee.payload));
    if (!op) {
      diags_.error(loc(c.func), Diag::TileUnsupported, "`" + callee.path + "`",
                   ": tile kernels call add, sub, mul, truediv, floordiv, mod, pow, neg, and_, or_, xor, "
                   "lshift, rshift, gt, ge, lt, le, eq and ne of Python's operator module");
      return TV{};
    }
    callee.ent = Intrinsic::TileOp;
    callee.payload = static_cast<uint32_t>(*op);
    fname = callee.path;
  }
  if (callee.k != TV::K::Entity || callee.ent != Intrinsic::TileOp) {
    if (callee.k == TV::K::Entity && callee.ent == Intrinsic::EnumClass) return checkEnumCall(id, c, callee);
    if (callee.k == TV::K::Entity && callee.ent == Intrinsic::TypeObject) {
      // `ct.float8_e4m3fn(0.0)`, `ct.int16(2)`: a number of that dtype (as astype).
      auto args = ast_.list(c.args);
      if (args.size() == 1 && c.keywords.empty()) {
        auto x = tileOrScalar(args[0]);
        if (!x) return TV{};
        TypeId dtype{callee.payload};
        if (x->k == TV::K::Const && x->c.isNumber() && types_.name(dtype) == "float8_e8m0fnu") {
          double f = x->c.kind == ConstValue::Kind::Float ? x->c.floatValue
                     : x->c.kind == ConstValue::Kind::Int ? static_cast<double>(x->c.intValue)
                                                          : double(x->c.boolValue);
          if (f < 0) {
            diags_.error(loc(args[0]), Diag::TileType,
                         "`" + x->c.repr() + "` as float8_e8m0fnu: Negative values cannot be represented in an "
                         "unsigned float format");
            return TV{};
          }
        }
        if (x->k == TV::K::Const && types_.isNumber(dtype)) {
          // Of a constant: a strictly typed constant of that dtype.
          if (auto typed = retype(x->c, dtype)) return record(id, TV::constant(*typed));
        }
        if (!isTileVal(*x) && types_.isNumber(dtype)) {
          inst_.meanings[id.index] = ExprMeaning{Intrinsic::TileOp, static_cast<uint32_t>(TileFn::Astype)};
          inst_.callArguments[id.index] = std::vector<ExprId>{args[0]};
          return record(id, TV::value(dtype));
        }
      }
      diags_.error(loc(id), Diag::TileUnsupported, "calling a dtype",
                   ": use `x.astype(" + callee.path + ")`");
    } else {
      diags_.error(loc(c.func), Diag::NotCallable, describe(callee));
    }
    return TV{};
  }
  auto fn = static_cast<TileFn>(callee.payload);
  inst_.meanings[id.index] = ExprMeaning{Intrinsic::TileOp, callee.payload};
  if (fname.empty()) fname = "ct." + std::string(tileFnName(fn));
  if (isTileAtomic(fn) && callee.self.valid() && types_.isTiledView(inst_.exprTypes[callee.self.index])) {
    return checkViewAtomic(id, c, fn, callee.self);
  }
  if (isTileAtomic(fn) && callee.self.valid()) {
    return checkAtomic(id, c, fn, std::string(tileFnName(fn)) + "_offset", callee.self);
  }
  if (isTileAtomic(fn)) return checkAtomic(id, c, fn, fname);
  if (isTileOperatorFn(fn)) return checkOperatorFn(id, c, fn, fname);
  switch (fn) {
    case TileFn::Reduce:
      return checkCustomReduce(id, c, fname);
    case TileFn::Bid:
    case TileFn::NumBlocks: {
      auto args = bindArgs(id, c, fname, {"axis"}, 1);
      if (!args) return TV{};
      auto axis = constInt((*args)[0], "the axis");
      if (!axis) return TV{};
      if (*axis < 0 || *axis > 2) {
        diags_.error(loc((*args)[0]), Diag::InvalidCall, "the axis must be 0, 1 or 2");
        return TV{};
      }
      return record(id, TV::value(types_.int32()));
    }
    case TileFn::NumTiles: {
      auto args = bindArgs(id, c, fname, {"array", "axis", "shape"}, 3);
      if (!args) return TV{};
      auto array = arrayArg((*args)[0]);
      auto axis = constInt((*args)[1], "the axis");
      auto shape = constShape((*args)[2]);
      if (!array || !axis || !shape) return TV{};
      unsigned ndim = types_.get(*array).ndim;
      // `shape=()`: a 0-d tile, one element on every axis (cuTile's test_num_tiles).
      if ((shape->size() != ndim && !shape->empty()) || *axis < -int64_t(ndim) || *axis >= int64_t(ndim)) {
        diags_.error(loc(id), Diag::TileShape, "the shape and axis must fit the array's " +
                                                   std::to_string(ndim) + " dimension(s)");
        return TV{};
      }
      return record(id, TV::value(types_.int32()));
    }
    case TileFn::Cdiv: {
      auto args = bindArgs(id, c, fname, {"x", "y"}, 2);
      if (!args) return TV{};
      TV a = checkExpr((*args)[0]);
      TV b = checkExpr((*args)[1]);
      if (!a.ok() || !b.ok()) return TV{};
      if (a.k == TV::K::Const && b.k == TV::K::Const && a.c.kind == ConstValue::Kind::Int &&
          b.c.kind == ConstValue::Kind::Int && b.c.intValue > 0) {
        return record(id, TV::constant(ConstValue::ofInt((a.c.intValue + b.c.intValue - 1) / b.c.intValue)));
      }
      auto t = promote(a, b);
      if (!t || !types_.isInt(*t) || isTileVal(a) || isTileVal(b)) {
        diags_.error(loc(id), Diag::TileType, "`ct.cdiv` takes two integers, found `" + describe(a) +
                                                  "` and `" + describe(b) + "`");
        return TV{};
      }
      inst_.opTypes[id.index] = *t;
      return record(id, TV::value(*t));
    }
    case TileFn::Load: {
      auto args = bindArgs(id, c, fname, {"array", "index", "shape", "order", "padding_mode", "latency", "allow_tma", "check_bounds"}, 3);
      if (!args) return TV{};
      // check_bounds=False promises the tile is inside the array: pykc checks anyway.
      if ((*args)[7].valid() && !constBool((*args)[7], "`check_bounds`")) return TV{};
      auto array = arrayArg((*args)[0]);
      if (!array) return TV{};
      const Type& at = types_.get(*array);
      bool ok = tileIndex((*args)[1], at.ndim);
      auto shape = constShape((*args)[2]);
      if (!ok || !shape) return TV{};
      if (shape->empty() && at.ndim > 0 && !(*args)[3].valid()) {
        // `shape=()`: the one element at `index` (cuTile's 0-d tile), a scalar here;
        // outside the array it is the padding value.
        if ((*args)[4].valid() && !paddingArg((*args)[4])) return TV{};
        inst_.opTypes[id.index] = at.element;
        return record(id, TV::value(at.element));
      }
      if (shape->size() != at.ndim) {
        diags_.error(loc((*args)[2]), Diag::TileShape,
                     "the tile shape has " + std::to_string(shape->size()) +
                         " dimension(s), but the array has " + std::to_string(at.ndim));
        return TV{};
      }
      if ((*args)[3].valid() && !orderArg((*args)[3], at.ndim)) return TV{};
      if ((*args)[4].valid() && !paddingArg((*args)[4])) return TV{};
      // latency= and allow_tma= are scheduling hints: checked, then ignored.
      for (int i : {5, 6}) {
        if ((*args)[i].valid() && !constInt((*args)[i], "a load hint")) return TV{};
      }
      return record(id, TV::value(types_.tile(at.element, *shape)));
    }
    case TileFn::Store: {
      auto args = bindArgs(id, c, fname, {"array", "index", "tile", "order", "latency", "allow_tma", "check_bounds"}, 3);
      if (!args) return TV{};
      auto array = arrayArg((*args)[0]);
      if (!array) return TV{};
      const Type& at = types_.get(*array);
      bool ok = tileIndex((*args)[1], at.ndim);
      TV t = checkExpr((*args)[2]);
      if (!ok || !t.ok()) return TV{};
      // A scalar (a 0-d tile) is stored as a tile of ones of the array's rank.
      bool scalar = (t.k == TV::K::Value && types_.isNumber(t.type)) ||
                    (t.k == TV::K::Const && weakType(t.c).has_value());
      if (!scalar && (!isTileVal(t) || types_.get(t.type).shape.size() != at.ndim)) {
        diags_.error(loc((*args)[2]), Diag::TileShape,
                     "`ct.store` needs a tile with the array's " + std::to_string(at.ndim) +
                         " dimension(s), found `" + describe(t) + "`");
        return TV{};
      }
      if (!implicitlyCasts(t, at.element)) {
        diags_.error(loc((*args)[2]), Diag::TileType,
                     "the stored tile `" + describe(t) + "` is incompatible with the array's dtype `" +
                         nameOf(at.element) +
                         "`: cuTile casts implicitly only to a dtype that holds every value (use `.astype`)");
        return TV{};
      }
      if ((*args)[3].valid() && !orderArg((*args)[3], at.ndim)) return TV{};
      for (int i : {4, 5}) {
        if ((*args)[i].valid() && !constInt((*args)[i], "a store hint")) return TV{};
      }
      // check_bounds=False promises the tile is inside the array: pykc checks anyway.
      if ((*args)[6].valid() && !constBool((*args)[6], "`check_bounds`")) return TV{};
      effects_ = true;
      return TV::value(types_.none());
    }
    case TileFn::Gather:
    case TileFn::Scatter:
      return checkGatherScatter(id, c, fn, fname);
    case TileFn::LoadAdvancedIndexing:
    case TileFn::StoreAdvancedIndexing:
      return checkAdvancedIndexing(id, c, fn, fname);
    case TileFn::Slice:
      diags_.error(loc(id), Diag::TileType,
                   "`ct.Slice(start, length)` is an index of `ct.load_advanced_indexing` and "
                   "`ct.store_advanced_indexing`, written inside their indices tuple");
      return TV{};
    case TileFn::Astile:
      return checkAstile(id, c, fname);
    case TileFn::StaticIter:
      diags_.error(loc(id), Diag::UnsupportedFeature,
                   "`ct.static_iter(...)` is allowed only as the iterable of a `for` loop or of a tuple "
                   "comprehension, called by its name");
      return TV{};
    case TileFn::GridDepLaunch:
    case TileFn::GridDepWait: {
      // Programmatic dependent launch: let the next kernel in the stream start
      // (`launch_dependents`), wait for the previous one to finish (`wait`).
      if (!bindArgs(id, c, fname, {}, 0)) return TV{};
      effects_ = true;
      return TV::value(types_.none());
    }
    case TileFn::Assert: {
      // `ct.assert_(cond, message=None)`: every element of a bool tile (or a bool) holds,
      // else the kernel prints the message once per failing block and traps.
      auto args = bindArgs(id, c, fname, {"cond", "message"}, 1);
      if (!args) return TV{};
      TV cond = checkExpr((*args)[0]);
      if (!cond.ok()) return TV{};
      if (cond.k == TV::K::Const && cond.c.kind == ConstValue::Kind::Bool) {
        diags_.error(loc((*args)[0]), Diag::TileType,
                     "the condition of `ct.assert_` is known at compile time: use `ct.static_assert`");
        return TV{};
      }
      TypeId ct = cond.k == TV::K::Value ? cond.type : TypeId();
      if (!ct.valid() || !types_.isBool(isTileVal(cond) ? elementOf(ct) : ct)) {
        diags_.error(loc((*args)[0]), Diag::TileType,
                     "`ct.assert_` takes a bool tile or a bool, found `" + describe(cond) + "`");
        return TV{};
      }
      std::string message = "assertion failed";
      if ((*args)[1].valid()) {
        auto text = stringConstant((*args)[1], "the message of `ct.assert_`");
        if (!text) return TV{};
        message = *text;
      }
      inst_.tilePrints[id.index] = {TilePrintPiece{TilePrintPiece::Kind::Text, message, ExprId()}};
      inst_.opTypes[id.index] = ct;
      effects_ = true;
      return TV::value(types_.none());
    }
    case TileFn::Full:
    case TileFn::Zeros:
    case TileFn::Ones: {
      auto args = fn == TileFn::Full ? bindArgs(id, c, fname, {"shape", "fill_value", "dtype"}, 2)
                                     : bindArgs(id, c, fname, {"shape", "dtype"}, 1);
      if (!args) return TV{};
      auto shape = constShape((*args)[0]);
      if (!shape) return TV{};
      ExprId dtypeExpr = fn == TileFn::Full ? (*args)[2] : (*args)[1];
      std::optional<TypeId> dtype;
      if (fn == TileFn::Full) {
        auto fill = tileOrScalar((*args)[1]);
        if (!fill) return TV{};
        if (isTileVal(*fill)) {
          diags_.error(loc((*args)[1]), Diag::TileType, "`ct.full` fills with a number, found a tile");
          return TV{};
        }
        if (!dtypeExpr.valid()) {
          dtype = fill->k == TV::K::Const ? weakType(fill->c) : std::optional<TypeId>(fill->type);
        }
      } else if (!dtypeExpr.valid()) {
        dtype = types_.float32();
      }
      if (dtypeExpr.valid()) dtype = dtypeArg(dtypeExpr);
      if (!dtype) return TV{};
      return record(id, TV::value(types_.tile(*dtype, *shape)));
    }
    case TileFn::Arange: {
      auto args = bindArgs(id, c, fname, {"size", "dtype", "start", "step"}, 1);
      if (!args) return TV{};
      auto shape = constShape((*args)[0]);
      if (!shape) return TV{};
      if (shape->size() != 1) {
        diags_.error(loc((*args)[0]), Diag::TileShape, "`ct.arange` takes one length");
        return TV{};
      }
      std::optional<TypeId> dtype = types_.int32();
      if ((*args)[1].valid()) dtype = dtypeArg((*args)[1]);
      if (!dtype) return TV{};
      // start= and step=: numbers (run-time values too), start + i * step in the dtype.
      for (size_t k : {size_t(2), size_t(3)}) {
        if (!(*args)[k].valid()) continue;
        auto v = tileOrScalar((*args)[k]);
        if (!v) return TV{};
        if (isTileVal(*v)) {
          diags_.error(loc((*args)[k]), Diag::TileType,
                       std::string("`ct.arange`'s `") + (k == 2 ? "start" : "step") + "` is a number, found `" +
                           describe(*v) + "`");
          return TV{};
        }
      }
      return record(id, TV::value(types_.tile(*dtype, *shape)));
    }
    case TileFn::Astype: {
      auto args = bindArgs(id, c, callee.self.valid() ? "astype" : fname, {"x", "dtype"}, 2, callee.self);
      if (!args) return TV{};
      auto x = tileOrScalar((*args)[0]);
      auto dtype = dtypeArg((*args)[1]);
      if (!x || !dtype) return TV{};
      if (x->k == TV::K::Const && callee.self.valid() && x->c.isNumber() && types_.isNumber(*dtype)) {
        if (auto typed = retype(x->c, *dtype)) return record(id, TV::constant(*typed));  // `8 .astype(int32)`
      }
      if (x->k == TV::K::Const) return record(id, TV::value(*dtype));
      if (isTileVal(*x)) return record(id, TV::value(types_.tile(*dtype, types_.get(x->type).shape)));
      return record(id, TV::value(*dtype));
    }
    case TileFn::Bitcast: {
      // The same bits as another dtype of the same width (cuTile's bitcast; bools refused).
      auto args = bindArgs(id, c, fname, {"x", "dtype"}, 2);
      if (!args) return TV{};
      auto x = tileOrScalar((*args)[0]);
      auto dtype = dtypeArg((*args)[1]);
      if (!x || !dtype) return TV{};
      if (x->k == TV::K::Const) {
        diags_.error(loc((*args)[0]), Diag::TileType, "`ct.bitcast` takes a tile or a run-time scalar, found `" +
                                                          describe(*x) + "`");
        return TV{};
      }
      TypeId from = isTileVal(*x) ? elementOf(x->type) : x->type;
      if (types_.isBool(from) || types_.isBool(*dtype)) {
        diags_.error(loc(id), Diag::TileType, "`ct.bitcast` takes no bools (their bits are not a number's), found `" +
                                                  nameOf(types_.isBool(from) ? from : *dtype) + "`");
        return TV{};
      }
      if (types_.isTFloat32(from) || types_.isTFloat32(*dtype) || types_.dataBits(from) != types_.dataBits(*dtype)) {
        diags_.error(loc(id), Diag::TileType,
                     "`ct.bitcast` keeps the bits, so it needs two non-bool dtypes of one width, found `" +
                         nameOf(from) + "` (" + std::to_string(types_.dataBits(from)) + " bits) and `" +
                         nameOf(*dtype) + "` (" + std::to_string(types_.dataBits(*dtype)) + " bits)");
        return TV{};
      }
      inst_.opTypes[id.index] = from;
      if (isTileVal(*x)) return record(id, TV::value(types_.tile(*dtype, types_.get(x->type).shape)));
      return record(id, TV::value(*dtype));
    }
    case TileFn::Cumsum:
    case TileFn::Cumprod: {
      // Inclusive prefix sums/products along `axis` (reverse=True: suffix ones).
      auto args = bindArgs(id, c, fname, {"x", "axis", "reverse", "rounding_mode", "flush_to_zero"}, 1);
      if (!args) return TV{};
      TV x = checkExpr((*args)[0]);
      if (!x.ok()) return TV{};
      if (!isTileVal(x)) {
        diags_.error(loc((*args)[0]), Diag::TileType, "`" + fname + "` scans a tile, found `" + describe(x) + "`");
        return TV{};
      }
      TypeId dtype = elementOf(x.type);
      if (types_.isNoArithmetic(dtype)) return tf32Only(id, dtype);
      if (types_.isBool(dtype)) dtype = types_.int32();
      if ((*args)[1].valid() && !tileAxis((*args)[1], x)) return TV{};
      if ((*args)[2].valid() && !constBool((*args)[2], "`reverse`")) return TV{};
      std::optional<TileFn> mode;
      if ((*args)[3].valid() && !roundingModeArg((*args)[3], mode)) return TV{};
      if (mode && *mode != TileFn::RoundRn) {
        diags_.error(loc((*args)[3]), Diag::TileUnsupported,
                     "`" + fname + "` with `rounding_mode=RoundingMode." + std::string(tileFnName(*mode)) + "`",
                     " (RN only)");
        return TV{};
      }
      if ((*args)[4].valid() && !constBool((*args)[4], "`flush_to_zero`")) return TV{};
      inst_.opTypes[id.index] = dtype;
      return record(id, TV::value(types_.tile(dtype, types_.get(x.type).shape)));
    }
    case TileFn::ArraySlice:
      return checkArraySlice(id, c, callee.self);
    case TileFn::GetRawMemory:
      return checkRawMemory(id, c, callee.self);
    case TileFn::TiledView:
      return checkTiledView(id, c, callee.self);
    case TileFn::ViewLoad:
    case TileFn::ViewStore:
    case TileFn::ViewNumTiles:
      return checkViewCall(id, c, fn, callee.self);
    case TileFn::LoadOffset:
    case TileFn::StoreOffset:
      return checkRawAccess(id, c, fn, callee.self);
    case TileFn::StaticAssert:
    case TileFn::StaticEval:
      return checkStatic(id, c, fn, fname);
    case TileFn::EnsureConstant: {
      // `ct.ensure_constant(x)`: x itself, which must be known at compile time.
      auto args = bindArgs(id, c, fname, {"value"}, 1);
      if (!args) return TV{};
      TV v = checkExpr((*args)[0]);
      if (!v.ok()) return TV{};
      if (v.k == TV::K::Value) {
        diags_.error(loc((*args)[0]), Diag::NotConstant,
                     "the argument of `ct.ensure_constant` (here `" + describe(v) + "`)");
        return TV{};
      }
      return record(id, v);
    }
    case TileFn::Item: {
      // `t.item()`: t.reshape(()), the one element of a one-element tile.
      auto args = bindArgs(id, c, "item", {"self"}, 1, callee.self);
      if (!args) return TV{};
      auto x = tileOrScalar((*args)[0]);
      if (!x) return TV{};
      if (x->k == TV::K::Const) return record(id, *x);
      int64_t n = 1;
      if (isTileVal(*x)) {
        for (int64_t d : types_.get(x->type).shape) n *= d;
      }
      if (n != 1) {
        diags_.error(loc(id), Diag::TileShape,
                     "`item()` needs a tile of one element, found `" + describe(*x) + "`");
        return TV{};
      }
      return record(id, TV::value(elementOf(x->type)));
    }
    case TileFn::Sum:
    case TileFn::Prod:
    case TileFn::Max:
    case TileFn::Min: {
      auto r = reduction(id, c, fname, fn);
      if (!r) return TV{};
      TypeId dtype = elementOf(r->first.type);
      if ((fn == TileFn::Sum || fn == TileFn::Prod) && types_.isBool(dtype)) dtype = types_.int32();
      return record(id, TV::value(types_.tile(dtype, r->second)));
    }
    case TileFn::Exp: case TileFn::Exp2: case TileFn::Log: case TileFn::Log2:
    case TileFn::Sqrt: case TileFn::Rsqrt: case TileFn::Tanh: case TileFn::Sin:
    case TileFn::Cos: case TileFn::Abs: case TileFn::Floor: case TileFn::Ceil:
    case TileFn::Tan: case TileFn::Sinh: case TileFn::Cosh: case TileFn::Isnan: {
      // cuTile's exp2 and rsqrt take `flush_to_zero=` (a constant bool), exp and
      // tanh `rounding_mode=` (FULL, the default, or APPROX: float32 only), sqrt
      // both (RN, RZ, RM, RP or APPROX on float32).
      bool ftz = fn == TileFn::Exp2 || fn == TileFn::Rsqrt;
      bool rounded = fn == TileFn::Exp || fn == TileFn::Tanh;
      std::optional<std::vector<ExprId>> args;
      size_t modeAt = 0, ftzAt = 0;
      if (ftz) {
        args = bindArgs(id, c, fname, {"x", "flush_to_zero"}, 1);
        ftzAt = 1;
      } else if (rounded) {
        args = bindArgs(id, c, fname, {"x", "rounding_mode"}, 1);
        modeAt = 1;
      } else if (fn == TileFn::Sqrt) {
        args = bindArgs(id, c, fname, {"x", "rounding_mode", "flush_to_zero"}, 1);
        modeAt = 1;
        ftzAt = 2;
      } else {
        args = bindArgs(id, c, fname, {"x"}, 1);
      }
      if (!args) return TV{};
      if (ftzAt && (*args)[ftzAt].valid() && !constBool((*args)[ftzAt], "`flush_to_zero`")) return TV{};
      std::optional<TileFn> mode;
      if (modeAt && (*args)[modeAt].valid() && !roundingModeArg((*args)[modeAt], mode)) return TV{};
      auto x = tileOrScalar((*args)[0]);
      if (!x) return TV{};
      TypeId dtype = x->k == TV::K::Const ? *weakType(x->c) : elementOf(x->type);
      if (types_.isNoArithmetic(dtype)) return tf32Only(id, dtype);
      if (fn != TileFn::Abs && !types_.isFloat(dtype)) dtype = types_.float32();
      if (types_.isBool(dtype)) dtype = types_.int32();
      bool f32 = dtype == types_.float32();
      bool modeOk = !mode || (fn == TileFn::Sqrt
                                  ? (f32 && *mode != TileFn::RoundFull && *mode != TileFn::RoundRzi) ||
                                        *mode == TileFn::RoundRn
                                  : *mode == TileFn::RoundFull || (*mode == TileFn::RoundApprox && f32));
      if (!modeOk) {
        diags_.error(loc((*args)[modeAt]), Diag::TileUnsupported,
                     "`" + fname + "` with `rounding_mode=RoundingMode." + std::string(tileFnName(*mode)) +
                         "` on `" + nameOf(dtype) + "`",
                     fn == TileFn::Sqrt ? " (RN; RZ, RM, RP or APPROX on float32)" : " (FULL, or APPROX on float32)");
        return TV{};
      }
      inst_.opTypes[id.index] = dtype;
      TypeId result = fn == TileFn::Isnan ? types_.boolean() : dtype;
      if (x->k == TV::K::Value && isTileVal(*x)) {
        return record(id, TV::value(types_.tile(result, types_.get(x->type).shape)));
      }
      return record(id, TV::value(result));
    }
    case TileFn::Atan2: {
      auto args = bindArgs(id, c, fname, {"x1", "x2"}, 2);
      if (!args) return TV{};
      auto x = tileOrScalar((*args)[0]);
      auto y = tileOrScalar((*args)[1]);
      if (!x || !y) return TV{};
      auto shape = broadcastOf({*x, *y}, id);
      auto dtype = promote(*x, *y);
      if (!shape || !dtype) return TV{};
      if (types_.isNoArithmetic(*dtype)) return tf32Only(id, *dtype);
      TypeId d = types_.isFloat(*dtype) ? *dtype : types_.float32();
      inst_.opTypes[id.index] = d;
      return record(id, TV::value(make(d, *shape, *x, *y)));
    }
    case TileFn::Truediv:
    case TileFn::Add:
    case TileFn::Sub:
    case TileFn::Mul:
      return checkRoundedArith(id, c, fn, fname);
    case TileFn::Where: {
      auto args = bindArgs(id, c, fname, {"cond", "x", "y"}, 3);
      if (!args) return TV{};
      auto cond = tileOrScalar((*args)[0]);
      auto x = tileOrScalar((*args)[1]);
      auto y = tileOrScalar((*args)[2]);
      if (!cond || !x || !y) return TV{};
      auto shape = broadcastOf({*cond, *x, *y}, id);
      auto dtype = promote(*x, *y);
      if (!shape || !dtype) return TV{};
      inst_.opTypes[id.index] = *dtype;
      bool tile = isTileVal(*cond) || isTileVal(*x) || isTileVal(*y);
      return record(id, TV::value(tile ? types_.tile(*dtype, *shape) : *dtype));
    }
    case TileFn::Maximum:
    case TileFn::Minimum: {
      // NaN: ignored (the other operand) unless `propagate_nan=True`, as cuTile.
      auto args = bindArgs(id, c, fname, {"x", "y", "flush_to_zero", "propagate_nan"}, 2);
      if (!args) return TV{};
      if ((*args)[3].valid() && !constBool((*args)[3], "`propagate_nan`")) return TV{};
      bool ftz = false;
      if ((*args)[2].valid()) {
        auto f = constBool((*args)[2], "`flush_to_zero`");
        if (!f) return TV{};
        ftz = *f;
      }
      auto x = tileOrScalar((*args)[0]);
      auto y = tileOrScalar((*args)[1]);
      if (!x || !y) return TV{};
      auto shape = broadcastOf({*x, *y}, id);
      auto dtype = promote(*x, *y);
      if (!shape || !dtype) return TV{};
      if (types_.isNoArithmetic(*dtype)) return tf32Only(id, *dtype);
      if (ftz && *dtype != types_.float32()) {
        diags_.error(loc((*args)[2]), Diag::TileType,
                     "`" + fname + "` flushes to zero on float32 only, found `" + nameOf(*dtype) + "`");
        return TV{};
      }
      inst_.opTypes[id.index] = *dtype;
      return record(id, TV::value(make(*dtype, *shape, *x, *y)));
    }
    case TileFn::Mma: {
      auto args = bindArgs(id, c, fname, {"x", "y", "acc", "use_fast_acc"}, 3);
      if (!args) return TV{};
      // use_fast_acc= (fp8 accumulation shortcuts on Hopper): a hint, checked and ignored.
      if ((*args)[3].valid() && !constBool((*args)[3], "`use_fast_acc`")) return TV{};
      TV x = checkExpr((*args)[0]);
      TV y = checkExpr((*args)[1]);
      TV acc = checkExpr((*args)[2]);
      if (!x.ok() || !y.ok() || !acc.ok()) return TV{};
      auto t = mmaType(x, y, acc, ast_.expr(id).range);
      if (!t) return TV{};
      inst_.opTypes[id.index] = elementOf(x.type);
      return record(id, TV::value(*t));
    }
    case TileFn::MmaScaled:
      return checkMmaScaled(id, c, fname);
    case TileFn::Matmul: {
      auto args = bindArgs(id, c, fname, {"x", "y"}, 2);
      if (!args) return TV{};
      TV x = checkExpr((*args)[0]);
      TV y = checkExpr((*args)[1]);
      if (!x.ok() || !y.ok()) return TV{};
      auto t = matmulType(x, y, ast_.expr(id).range, "`ct.matmul`");
      if (!t) return TV{};
      inst_.opTypes[id.index] = types_.get(*t).element;
      return record(id, TV::value(*t));
    }
    case TileFn::Argmax:
    case TileFn::Argmin:
      return checkArgReduce(id, c, fname, fn);
    case TileFn::Reshape:
    case TileFn::Permute:
    case TileFn::Transpose:
    case TileFn::BroadcastTo:
    case TileFn::ExpandDims:
      return checkShapeOp(id, c, fn, fname, callee.self);
    case TileFn::Extract:
      return checkExtract(id, c, fname, callee.self);
    case TileFn::Insert:
      return checkInsert(id, c, fname, callee.self);
    case TileFn::Print:
    case TileFn::Printf:
      return checkPrint(id, c, fn == TileFn::Printf, fname);
    case TileFn::PackToBytes:
    case TileFn::UnpackFromBytes:
      return checkBytes(id, c, fname, fn == TileFn::PackToBytes);
    case TileFn::Cat:
      return checkCat(id, c, fname);
    default:
      diags_.error(loc(id), Diag::TileUnsupported, "`" + fname + "`", " inside a kernel");
      return TV{};
  }
}

}  // namespace frontend::tile

namespace frontend::tile {

TV TileChecker::checkEnumCall(ExprId id, const ast::Call& c, const TV& callee) {
  // `Color(value)`: the member of that value (Python's lookup by value), at compile time.
  const EnumClass& cls = module_.enums[callee.payload];
  auto args = ast_.list(c.args);
  if (args.size() != 1 || !c.keywords.empty()) {
    diags_.error(loc(id), Diag::InvalidCall, "`" + cls.name + "(...)` takes one value");
    return TV{};
  }
  TV v = checkExpr(args[0]);
  if (!v.ok()) return TV{};
  if (v.k != TV::K::Const) {
    diags_.error(loc(args[0]), Diag::NotConstant, "the value of an enum member (`" + cls.name + "(...)`)");
    return TV{};
  }
  for (size_t i = 0; i < cls.members.size(); ++i) {
    if (auto eq = foldCompare(CmpOp::Eq, cls.members[i].second, v.c); eq && truthOf(*eq)) {
      return record(id, TV::constant(cls.member(i, callee.payload)));
    }
    // A member given itself: `Color(Color.RED)`.
    if (v.c.kind == ConstValue::Kind::Enum && v.c.strValue == cls.member(i, callee.payload).strValue) {
      return record(id, v);
    }
  }
  diags_.error(loc(args[0]), Diag::TileType, v.c.repr() + " is not a valid `" + cls.name + "`");
  return TV{};
}

}  // namespace frontend::tile
