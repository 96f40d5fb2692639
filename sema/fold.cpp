// Constant folding of module-level expressions (resolve.h, foldConstant).
#include "sema/resolve.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <set>

#include "diagnostics/diagnostics.h"
#include "sema/resolve_internal.h"
#include "sema/scalar_convert.h"
#include "sema/tile/tile_ops.h"

namespace frontend {

// --- constant folding ---------------------------------------------------------

namespace {

bool asNumber(const ConstValue& v, bool& isFloat, int64_t& i, double& f) {
  switch (v.kind) {
    case ConstValue::Kind::Bool:
      isFloat = false;
      i = v.boolValue ? 1 : 0;
      f = static_cast<double>(i);
      return true;
    case ConstValue::Kind::Int:
      isFloat = false;
      i = v.intValue;
      f = static_cast<double>(i);
      return true;
    case ConstValue::Kind::Float:
      isFloat = true;
      f = v.floatValue;
      return true;
    default:
      return false;
  }
}

int64_t floorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t floorModInt(int64_t a, int64_t b) {
  int64_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

// A number or complex constant as its real and imaginary parts.
bool asComplex(const ConstValue& v, double& re, double& im) {
  bool isFloat;
  int64_t i = 0;
  im = 0;
  if (v.kind == ConstValue::Kind::Complex) {
    re = v.floatValue;
    im = v.imagValue;
    return true;
  }
  return asNumber(v, isFloat, i, re);
}

// Python's complex `+ - * /` (a number operand is a complex with no imaginary part);
// nullopt for other operators and division by zero (Python raises).
std::optional<ConstValue> foldComplexBinary(Operator op, const ConstValue& a, const ConstValue& b) {
  double ar, ai, br, bi;
  if (!asComplex(a, ar, ai) || !asComplex(b, br, bi)) return std::nullopt;
  switch (op) {
    case Operator::Add:
      return ConstValue::ofComplex(ar + br, ai + bi);
    case Operator::Sub:
      return ConstValue::ofComplex(ar - br, ai - bi);
    case Operator::Mult:
      return ConstValue::ofComplex(ar * br - ai * bi, ar * bi + ai * br);
    case Operator::Div: {
      double d = br * br + bi * bi;
      if (d == 0) return std::nullopt;
      return ConstValue::ofComplex((ar * br + ai * bi) / d, (ai * br - ar * bi) / d);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<ConstValue> foldBinary(Operator op, const ConstValue& a, const ConstValue& b) {
  if (a.kind == ConstValue::Kind::Tuple && b.kind == ConstValue::Kind::Tuple &&
      op == Operator::Add) {
    ConstValue t = a;
    t.elements.insert(t.elements.end(), b.elements.begin(), b.elements.end());
    return t;
  }
  if (a.kind == ConstValue::Kind::Str && b.kind == ConstValue::Kind::Str && op == Operator::Add) {
    ConstValue t = a;
    t.strValue += b.strValue;
    return t;
  }
  if (op == Operator::Mult && (a.kind == ConstValue::Kind::Str) != (b.kind == ConstValue::Kind::Str)) {
    // Repetition: `"ab" * 2` (none for n <= 0).
    const ConstValue& t = a.kind == ConstValue::Kind::Str ? a : b;
    const ConstValue& n = a.kind == ConstValue::Kind::Str ? b : a;
    if (n.kind != ConstValue::Kind::Int && n.kind != ConstValue::Kind::Bool) return std::nullopt;
    int64_t times = n.kind == ConstValue::Kind::Bool ? int64_t(n.boolValue) : n.intValue;
    if (times > 0 && t.strValue.size() * static_cast<uint64_t>(times) > (1u << 20)) return std::nullopt;
    ConstValue r = t;
    r.strValue.clear();
    for (int64_t i = 0; i < times; ++i) r.strValue += t.strValue;
    return r;
  }
  if (op == Operator::Mult && (a.kind == ConstValue::Kind::Tuple) != (b.kind == ConstValue::Kind::Tuple)) {
    // Repetition: `(0,) * n`, `n * (0,)` (n an int or bool; none for n <= 0).
    const ConstValue& t = a.kind == ConstValue::Kind::Tuple ? a : b;
    const ConstValue& n = a.kind == ConstValue::Kind::Tuple ? b : a;
    if (n.kind != ConstValue::Kind::Int && n.kind != ConstValue::Kind::Bool) return std::nullopt;
    int64_t times = n.kind == ConstValue::Kind::Bool ? int64_t(n.boolValue) : n.intValue;
    if (times > 0 && t.elements.size() * static_cast<uint64_t>(times) > (1u << 20)) return std::nullopt;
    ConstValue r;
    r.kind = ConstValue::Kind::Tuple;
    for (int64_t i = 0; i < times; ++i) r.elements.insert(r.elements.end(), t.elements.begin(), t.elements.end());
    return r;
  }
  if (a.kind == ConstValue::Kind::Complex || b.kind == ConstValue::Kind::Complex) {
    return foldComplexBinary(op, a, b);
  }
  bool af, bf;
  int64_t ai = 0, bi = 0;
  double ad = 0, bd = 0;
  if (!asNumber(a, af, ai, ad) || !asNumber(b, bf, bi, bd)) {
    return std::nullopt;
  }
  bool bothBool = a.kind == ConstValue::Kind::Bool && b.kind == ConstValue::Kind::Bool;
  if (!af && !bf) {
    int64_t r = 0;
    switch (op) {
      case Operator::Add:
        if (__builtin_add_overflow(ai, bi, &r)) return std::nullopt;
        return ConstValue::ofInt(r);
      case Operator::Sub:
        if (__builtin_sub_overflow(ai, bi, &r)) return std::nullopt;
        return ConstValue::ofInt(r);
      case Operator::Mult:
        if (__builtin_mul_overflow(ai, bi, &r)) return std::nullopt;
        return ConstValue::ofInt(r);
      case Operator::Div:
        if (bi == 0) return std::nullopt;
        return ConstValue::ofFloat(static_cast<double>(ai) / static_cast<double>(bi));
      case Operator::FloorDiv:
        if (bi == 0 || (ai == INT64_MIN && bi == -1)) return std::nullopt;
        return ConstValue::ofInt(floorDivInt(ai, bi));
      case Operator::Mod:
        if (bi == 0 || (ai == INT64_MIN && bi == -1)) return std::nullopt;
        return ConstValue::ofInt(floorModInt(ai, bi));
      case Operator::Pow: {
        if (bi < 0) return ConstValue::ofFloat(std::pow(static_cast<double>(ai), static_cast<double>(bi)));
        int64_t result = 1;
        for (int64_t k = 0; k < bi; ++k) {
          if (__builtin_mul_overflow(result, ai, &result)) return std::nullopt;
          if (result == 0 || result == 1) break;
        }
        return ConstValue::ofInt(result);
      }
      case Operator::LShift:
        if (bi < 0 || bi >= 63) return std::nullopt;
        if (ai != 0 && (ai > (INT64_MAX >> bi) || ai < (INT64_MIN >> bi))) return std::nullopt;
        return ConstValue::ofInt(static_cast<int64_t>(static_cast<uint64_t>(ai) << bi));
      case Operator::RShift:
        if (bi < 0) return std::nullopt;
        return ConstValue::ofInt(bi >= 64 ? (ai < 0 ? -1 : 0) : (ai >> bi));
      case Operator::BitAnd:
        return bothBool ? ConstValue::ofBool(ai & bi) : ConstValue::ofInt(ai & bi);
      case Operator::BitOr:
        return bothBool ? ConstValue::ofBool(ai | bi) : ConstValue::ofInt(ai | bi);
      case Operator::BitXor:
        return bothBool ? ConstValue::ofBool(ai ^ bi) : ConstValue::ofInt(ai ^ bi);
      case Operator::MatMult:
        return std::nullopt;
    }
    return std::nullopt;
  }
  switch (op) {
    case Operator::Add:
      return ConstValue::ofFloat(ad + bd);
    case Operator::Sub:
      return ConstValue::ofFloat(ad - bd);
    case Operator::Mult:
      return ConstValue::ofFloat(ad * bd);
    case Operator::Div:
      if (bd == 0) return std::nullopt;
      return ConstValue::ofFloat(ad / bd);
    case Operator::FloorDiv:
      if (bd == 0) return std::nullopt;
      return ConstValue::ofFloat(std::floor(ad / bd));
    case Operator::Mod: {
      if (bd == 0) return std::nullopt;
      double m = std::fmod(ad, bd);
      if (m != 0 && ((m < 0) != (bd < 0))) m += bd;
      return ConstValue::ofFloat(m);
    }
    case Operator::Pow:
      return ConstValue::ofFloat(std::pow(ad, bd));
    default:
      return std::nullopt;
  }
}

std::optional<ConstValue> foldUnary(UnaryOpKind op, const ConstValue& a) {
  if (op == UnaryOpKind::Not) {
    return ConstValue::ofBool(!truthOf(a));
  }
  if (a.kind == ConstValue::Kind::Complex) {
    if (op == UnaryOpKind::UAdd) return a;
    if (op == UnaryOpKind::USub) return ConstValue::ofComplex(-a.floatValue, -a.imagValue);
    return std::nullopt;
  }
  bool isFloat;
  int64_t i = 0;
  double f = 0;
  if (!asNumber(a, isFloat, i, f)) return std::nullopt;
  switch (op) {
    case UnaryOpKind::UAdd:
      return isFloat ? ConstValue::ofFloat(f) : ConstValue::ofInt(i);
    case UnaryOpKind::USub:
      if (isFloat) return ConstValue::ofFloat(-f);
      if (i == INT64_MIN) return std::nullopt;
      return ConstValue::ofInt(-i);
    case UnaryOpKind::Invert:
      if (isFloat) return std::nullopt;
      if (a.kind == ConstValue::Kind::Bool) return ConstValue::ofInt(~i);
      return ConstValue::ofInt(~i);
    default:
      return std::nullopt;
  }
}

namespace {

// Python's ordering of two constants: <0, 0, >0; nullopt where Python has none
// (or where NaN makes it partial: the caller handles numbers itself).
std::optional<int> orderOf(const ConstValue& a, const ConstValue& b) {
  if (a.kind == ConstValue::Kind::Str && b.kind == ConstValue::Kind::Str) {
    int c = a.strValue.compare(b.strValue);
    return c < 0 ? -1 : c > 0 ? 1 : 0;
  }
  if (a.kind == ConstValue::Kind::Tuple && b.kind == ConstValue::Kind::Tuple) {
    for (size_t i = 0; i < std::min(a.elements.size(), b.elements.size()); ++i) {
      auto eq = foldCompare(CmpOp::Eq, a.elements[i], b.elements[i]);
      if (!eq) return std::nullopt;
      if (eq->boolValue) continue;
      auto lt = foldCompare(CmpOp::Lt, a.elements[i], b.elements[i]);
      if (!lt) return std::nullopt;
      return lt->boolValue ? -1 : 1;
    }
    return a.elements.size() < b.elements.size() ? -1 : a.elements.size() > b.elements.size() ? 1 : 0;
  }
  return std::nullopt;
}

}  // namespace

std::optional<ConstValue> foldCompare(CmpOp op, const ConstValue& a, const ConstValue& b) {
  if ((op == CmpOp::In || op == CmpOp::NotIn) && b.kind == ConstValue::Kind::Tuple) {
    // Membership: the first element equal to `a` (Python's order).
    bool found = false;
    for (const ConstValue& e : b.elements) {
      auto eq = foldCompare(CmpOp::Eq, a, e);
      if (!eq) return std::nullopt;
      if (truthOf(*eq)) {
        found = true;
        break;
      }
    }
    return ConstValue::ofBool(found == (op == CmpOp::In));
  }
  if (a.kind == ConstValue::Kind::None || b.kind == ConstValue::Kind::None) {
    // None is only itself.
    bool same = a.kind == b.kind;
    if (op == CmpOp::Eq || op == CmpOp::Is) return ConstValue::ofBool(same);
    if (op == CmpOp::NotEq || op == CmpOp::IsNot) return ConstValue::ofBool(!same);
    return std::nullopt;
  }
  if (a.kind == ConstValue::Kind::Dtype || b.kind == ConstValue::Kind::Dtype) {
    bool same = a.kind == b.kind && a.intValue == b.intValue;
    if (op == CmpOp::Eq || op == CmpOp::Is) return ConstValue::ofBool(same);
    if (op == CmpOp::NotEq || op == CmpOp::IsNot) return ConstValue::ofBool(!same);
    return std::nullopt;
  }
  if ((op == CmpOp::Is || op == CmpOp::IsNot) &&
      (a.kind == ConstValue::Kind::Bool || b.kind == ConstValue::Kind::Bool)) {
    // True and False are singletons: `x is True` holds for the bool True only.
    bool same = a.kind == b.kind && a.boolValue == b.boolValue;
    return ConstValue::ofBool(same == (op == CmpOp::Is));
  }
  if (a.kind == ConstValue::Kind::Enum || b.kind == ConstValue::Kind::Enum) {
    // Enum members are themselves only (no order); `is` as `==`.
    bool same = a.kind == b.kind && a.strValue == b.strValue && a.intValue == b.intValue;
    if (op == CmpOp::Eq || op == CmpOp::Is) return ConstValue::ofBool(same);
    if (op == CmpOp::NotEq || op == CmpOp::IsNot) return ConstValue::ofBool(!same);
    return std::nullopt;
  }
  bool af, bf;
  int64_t ai = 0, bi = 0;
  double ad = 0, bd = 0;
  int c;
  if (a.kind == ConstValue::Kind::Complex || b.kind == ConstValue::Kind::Complex) {
    // Complex numbers are equal or not; they have no order.
    double ar, aim, br, bim;
    if ((op != CmpOp::Eq && op != CmpOp::NotEq) || !asComplex(a, ar, aim) || !asComplex(b, br, bim)) {
      return std::nullopt;
    }
    return ConstValue::ofBool((ar == br && aim == bim) == (op == CmpOp::Eq));
  }
  if (!asNumber(a, af, ai, ad) || !asNumber(b, bf, bi, bd)) {
    auto order = orderOf(a, b);
    if (!order) {
      if (op == CmpOp::Eq || op == CmpOp::NotEq) {
        // Different kinds (a string and a number) are unequal in Python.
        bool differentKinds = (a.kind == ConstValue::Kind::Str) != (b.kind == ConstValue::Kind::Str) ||
                              (a.kind == ConstValue::Kind::Tuple) != (b.kind == ConstValue::Kind::Tuple);
        if (differentKinds) return ConstValue::ofBool(op == CmpOp::NotEq);
      }
      return std::nullopt;
    }
    c = *order;
  } else if (!af && !bf) {
    c = ai < bi ? -1 : ai > bi ? 1 : 0;
  } else {
    if (std::isnan(ad) || std::isnan(bd)) {
      return ConstValue::ofBool(op == CmpOp::NotEq);
    }
    c = ad < bd ? -1 : ad > bd ? 1 : 0;
  }
  switch (op) {
    case CmpOp::Eq:
      return ConstValue::ofBool(c == 0);
    case CmpOp::NotEq:
      return ConstValue::ofBool(c != 0);
    case CmpOp::Lt:
      return ConstValue::ofBool(c < 0);
    case CmpOp::LtE:
      return ConstValue::ofBool(c <= 0);
    case CmpOp::Gt:
      return ConstValue::ofBool(c > 0);
    case CmpOp::GtE:
      return ConstValue::ofBool(c >= 0);
    default:
      return std::nullopt;
  }
}

bool truthOf(const ConstValue& v) {
  switch (v.kind) {
    case ConstValue::Kind::None:
      return false;
    case ConstValue::Kind::Bool:
      return v.boolValue;
    case ConstValue::Kind::Int:
      return v.intValue != 0;
    case ConstValue::Kind::Float:
      return v.floatValue != 0;
    case ConstValue::Kind::Str:
      return !v.strValue.empty();
    case ConstValue::Kind::Tuple:
      return !v.elements.empty();
    case ConstValue::Kind::Complex:
      return v.floatValue != 0 || v.imagValue != 0;
    case ConstValue::Kind::Enum:
    case ConstValue::Kind::Dtype:
      return true;
  }
  return false;
}

std::optional<TypeId> typeOfConstant(const ConstValue& v, TypeTable& types) {
  if (!v.scalarType.empty()) return scalarTypeByName(types, v.scalarType);
  switch (v.kind) {
    case ConstValue::Kind::Bool:
      return types.boolean();
    case ConstValue::Kind::Int:
      return types.int64();
    case ConstValue::Kind::Float:
      return types.float64();
    case ConstValue::Kind::Complex:
      return types.complexType(128);
    case ConstValue::Kind::Tuple: {
      std::vector<TypeId> elements;
      for (const ConstValue& e : v.elements) {
        auto t = typeOfConstant(e, types);
        if (!t) return std::nullopt;
        elements.push_back(*t);
      }
      return types.tuple(std::move(elements));
    }
    default:
      return std::nullopt;
  }
}

namespace resolve_detail {

std::optional<Entity> definePathEntity(const std::string& path, ResolvedModule& module) {
  std::string head = path.substr(0, path.find('.'));
  std::string rest = path.substr(head.size());
  auto it = module.globals.find(head);
  if (it != module.globals.end()) {
    const Entity& e = it->second;
    if (rest.empty() && e.kind != Intrinsic::HostValue && e.kind != Intrinsic::EnclosingLocal) return e;
    if (e.kind == Intrinsic::EnumClass) {
      // `Color.BLUE`: a member of the module's enum class, a constant.
      const EnumClass& cls = module.enums[e.payload];
      for (size_t i = 0; i < cls.members.size(); ++i) {
        if ("." + cls.members[i].first != rest) continue;
        module.constants.push_back(cls.member(i, e.payload));
        return Entity{Intrinsic::Constant, static_cast<uint32_t>(module.constants.size() - 1), path};
      }
      return std::nullopt;
    }
    if (e.kind != Intrinsic::HostValue && e.kind != Intrinsic::Constant && !e.path.empty()) {
      if (auto found = lookupEntity(e.path + rest, module.types)) return found;
    }
  }
  return lookupEntity(path, module.types);
}

// The dotted path of a Name/Attribute chain in module scope, through the
// module's aliases (`nc.shared.array` -> `numba.cuda.shared.array`).
std::optional<std::string> entityPath(const Ast& ast, ExprId id, const ResolvedModule& module) {
  const Expr& e = ast.expr(id);
  if (const auto* name = e.dyn<ast::Name>()) {
    auto it = module.globals.find(std::string(ast.str(name->id)));
    if (it == module.globals.end() || it->second.kind == Intrinsic::Constant ||
        it->second.kind == Intrinsic::HostValue || it->second.kind == Intrinsic::Function) {
      return std::nullopt;
    }
    return it->second.path;
  }
  if (const auto* attr = e.dyn<ast::Attribute>()) {
    auto base = entityPath(ast, attr->value, module);
    if (!base) return std::nullopt;
    return *base + "." + std::string(ast.str(attr->attr));
  }
  return std::nullopt;
}

}  // namespace resolve_detail

std::optional<ConstValue> integerLiteral(const ConstantValue& c) {
  if (c.fitsInt64) return ConstValue::ofInt(c.intValue);
  // numba types an int from 2**63 to 2**64 - 1 as uint64 (typeof's rule): the
  // constant keeps its bits and that type.
  if (c.text.size() < 20 || (c.text.size() == 20 && c.text <= "18446744073709551615")) {
    ConstValue v = ConstValue::ofInt(static_cast<int64_t>(std::strtoull(c.text.c_str(), nullptr, 10)));
    v.scalarType = "uint64";
    return v;
  }
  return std::nullopt;
}

namespace resolve_detail {

ConstValue fromLiteral(const ConstantValue& c, bool& ok) {
  ok = true;
  switch (c.kind) {
    case ConstantKind::True:
      return ConstValue::ofBool(true);
    case ConstantKind::False:
      return ConstValue::ofBool(false);
    case ConstantKind::Int: {
      auto v = integerLiteral(c);
      ok = v.has_value();
      return v ? *v : ConstValue{};
    }
    case ConstantKind::Float:
      return ConstValue::ofFloat(c.floatValue);
    case ConstantKind::Complex:
      return ConstValue::ofComplex(0, c.floatValue);
    case ConstantKind::Str: {
      ConstValue v;
      v.kind = ConstValue::Kind::Str;
      v.strValue = c.text;
      return v;
    }
    case ConstantKind::None:
      return ConstValue{};
    default:
      ok = false;
      return ConstValue{};
  }
}

}  // namespace resolve_detail

using resolve_detail::entityPath;
using resolve_detail::fromLiteral;

std::optional<ConstValue> convertNumberTo(const ConstValue& v, const Type& t, const std::string& name) {
  if (!v.isNumber()) return std::nullopt;
  double f = v.kind == ConstValue::Kind::Float ? v.floatValue
             : v.kind == ConstValue::Kind::Int ? static_cast<double>(v.intValue)
                                               : (v.boolValue ? 1.0 : 0.0);
  ConstValue out;
  if (t.kind == TypeKind::Bool) {
    out = ConstValue::ofBool(f != 0);
  } else if (t.kind == TypeKind::Int) {
    if (v.kind == ConstValue::Kind::Float && !std::isfinite(f)) return std::nullopt;
    int64_t i = v.kind == ConstValue::Kind::Int ? v.intValue
                : v.kind == ConstValue::Kind::Bool ? int64_t(v.boolValue)
                                                   : static_cast<int64_t>(f);
    unsigned bits = t.bits;
    if (bits < 64) {
      uint64_t mask = (uint64_t{1} << bits) - 1;
      uint64_t u = static_cast<uint64_t>(i) & mask;
      // NumPy wraps out-of-range values (two's complement).
      i = t.isSigned && (u >> (bits - 1)) ? static_cast<int64_t>(u | ~mask) : static_cast<int64_t>(u);
    }
    out = ConstValue::ofInt(i);
  } else if (t.kind == TypeKind::Float && t.bits == 32) {
    out = ConstValue::ofFloat(static_cast<double>(static_cast<float>(f)));
  } else if (t.kind == TypeKind::Float && t.bits == 64) {
    out = ConstValue::ofFloat(f);
  } else {
    return std::nullopt;  // float16 and narrower: not folded
  }
  out.scalarType = name;
  return out;
}

namespace {

// foldConstant in module scope (`scope` null) or in a function's.
std::optional<ConstValue> foldIn(const Ast& ast, ExprId id, const ResolvedModule& module,
                                 const FoldScope* scope);

// `math.log(2)`, `math.sqrt(x)`, ... of number constants (module constants
// such as cuTile's `INV_LOG_2 = 1.0 / math.log(2)`): the float Python's math
// module computes on the host at import, or nullopt where it would raise (a
// domain error) or the call is not one of these.
std::optional<ConstValue> foldMathCall(const Ast& ast, ExprId id, const ResolvedModule& module,
                                       const FoldScope* scope) {
  const auto& c = ast.expr(id).as<ast::Call>();
  if (!c.keywords.empty()) return std::nullopt;
  auto path = entityPath(ast, c.func, module);
  if (!path || !path->starts_with("math.")) return std::nullopt;
  std::string fn = path->substr(5);
  std::vector<double> x;
  for (ExprId a : ast.list(c.args)) {
    auto v = foldIn(ast, a, module, scope);
    if (!v || !v->isNumber()) return std::nullopt;
    x.push_back(v->kind == ConstValue::Kind::Float ? v->floatValue
                : v->kind == ConstValue::Kind::Int ? static_cast<double>(v->intValue)
                                                   : (v->boolValue ? 1.0 : 0.0));
  }
  auto one = [&](double lo, bool open, double (*f)(double)) -> std::optional<ConstValue> {
    if (x.size() != 1 || std::isnan(x[0]) || (open ? x[0] <= lo : x[0] < lo)) return std::nullopt;
    double r = f(x[0]);
    // Python raises OverflowError where the result overflows.
    if (std::isinf(r) && !std::isinf(x[0])) return std::nullopt;
    return ConstValue::ofFloat(r);
  };
  constexpr double kAny = -std::numeric_limits<double>::infinity();
  if (fn == "log" && x.size() == 2) {
    if (!(x[0] > 0) || !(x[1] > 0) || x[1] == 1) return std::nullopt;
    return ConstValue::ofFloat(std::log(x[0]) / std::log(x[1]));
  }
  if (fn == "log") return one(0, true, [](double v) { return std::log(v); });
  if (fn == "log2") return one(0, true, [](double v) { return std::log2(v); });
  if (fn == "log10") return one(0, true, [](double v) { return std::log10(v); });
  if (fn == "sqrt") return one(0, false, [](double v) { return std::sqrt(v); });
  if (fn == "exp") return one(kAny, false, [](double v) { return std::exp(v); });
  if (fn == "exp2") return one(kAny, false, [](double v) { return std::exp2(v); });
  return std::nullopt;
}

// The version of numba whose behaviour pykc implements (numba-cuda 0.30's companion):
// what `numba.__version__` folds to in module-level version gates.
constexpr std::string_view kNumbaVersion = "0.61.0";  // as pykc.install()'s numba says (python/pykc/_hook.py)

// `packaging.version.Version("0.51.0")` / `packaging.version.parse(...)` of a string
// constant: its release numbers with trailing zeros dropped (so `0.51 == 0.51.0`, as
// packaging compares them), a tuple that orders as packaging orders releases.
// nullopt for pre-releases and local versions (not folded).
std::optional<ConstValue> foldVersionCall(const Ast& ast, ExprId id, const ResolvedModule& module,
                                          const FoldScope* scope) {
  const auto& c = ast.expr(id).as<ast::Call>();
  auto args = ast.list(c.args);
  auto path = entityPath(ast, c.func, module);
  if (!path || (*path != "packaging.version.Version" && *path != "packaging.version.parse") ||
      args.size() != 1 || !c.keywords.empty()) {
    return std::nullopt;
  }
  auto text = foldIn(ast, args[0], module, scope);
  if (!text || text->kind != ConstValue::Kind::Str) return std::nullopt;
  std::string_view v = text->strValue;
  if (v.starts_with('v')) v.remove_prefix(1);
  ConstValue out;
  out.kind = ConstValue::Kind::Tuple;
  size_t start = 0;
  while (start <= v.size()) {
    size_t dot = v.find('.', start);
    std::string_view part = v.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (part.empty() || part.size() > 9 ||
        !std::all_of(part.begin(), part.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
      return std::nullopt;
    }
    out.elements.push_back(ConstValue::ofInt(std::stoll(std::string(part))));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  while (out.elements.size() > 1 && out.elements.back().intValue == 0) out.elements.pop_back();
  return out;
}

// `np.complex64(1j)`, `cp.complex128(2)`: a number or complex constant as a complex of
// `bits` (complex64: float32 parts, rounded as NumPy rounds them), typed `name`.
std::optional<ConstValue> complexScalar(const ConstValue& v, unsigned bits, const std::string& name) {
  double re = 0, im = 0;
  if (v.kind == ConstValue::Kind::Complex) {
    re = v.floatValue;
    im = v.imagValue;
  } else if (v.isNumber()) {
    re = v.kind == ConstValue::Kind::Float ? v.floatValue
         : v.kind == ConstValue::Kind::Int ? static_cast<double>(v.intValue)
                                           : (v.boolValue ? 1.0 : 0.0);
  } else {
    return std::nullopt;
  }
  if (bits == 64) {
    re = static_cast<double>(static_cast<float>(re));
    im = static_cast<double>(static_cast<float>(im));
  }
  ConstValue out = ConstValue::ofComplex(re, im);
  out.scalarType = name;
  return out;
}


// `np.float32(0.5)`, `numba.int32(7)`, `float32(x)` of a number constant:
// the value converted as NumPy converts it, typed (ConstValue::scalarType).
// A bare unbound name is taken as the type name (`-D SCALE=float32(0.5)`).
std::optional<ConstValue> foldScalarCall(const Ast& ast, ExprId id, const ResolvedModule& module,
                                         const FoldScope* scope) {
  const auto& c = ast.expr(id).as<ast::Call>();
  auto args = ast.list(c.args);
  if (!c.keywords.empty() || args.size() != 1) return std::nullopt;
  std::string typeName;
  if (auto path = entityPath(ast, c.func, module)) {
    // CuPy's scalar types are NumPy's (`cp.float32(2.0 * pi)`).
    for (std::string_view prefix : {"numpy.", "cupy.", "numba.types.", "numba.cuda.types.",
                                    "numba.cuda.", "numba."}) {
      if (path->starts_with(prefix) && path->find('.', prefix.size()) == std::string::npos) {
        typeName = path->substr(prefix.size());
        break;
      }
    }
  } else if (const auto* n = ast.expr(c.func).dyn<ast::Name>();
             n != nullptr && !module.globals.count(std::string(ast.str(n->id)))) {
    typeName = std::string(ast.str(n->id));
  }
  if (typeName.empty()) return std::nullopt;
  TypeTable scratch;
  auto type = scalarTypeByName(scratch, typeName);
  if (!type) return std::nullopt;
  auto v = foldIn(ast, args[0], module, scope);
  if (!v) return std::nullopt;
  const Type& t = scratch.get(*type);
  if (t.kind == TypeKind::Complex) return complexScalar(*v, t.bits, scratch.name(*type));
  return convertNumberTo(*v, t, scratch.name(*type));
}

// Whether the name at the root of an attribute chain (`np` of `np.float32`) is one of
// the function's locals (which hide the module's names).
bool mentionsLocal(const Ast& ast, ExprId id, const FoldScope& scope) {
  const Expr& e = ast.expr(id);
  if (const auto* a = e.dyn<ast::Attribute>()) return mentionsLocal(ast, a->value, scope);
  if (const auto* n = e.dyn<ast::Name>()) return scope.locals.count(std::string(ast.str(n->id))) != 0;
  return false;
}

// A name's value in a function: its local constant, else the module's (or its
// enclosing function's) constant.
std::optional<ConstValue> foldName(const std::string& name, const ResolvedModule& module,
                                   const FoldScope& scope) {
  if (scope.locals.count(name)) {
    auto it = scope.values.find(name);
    if (it == scope.values.end()) return std::nullopt;
    return it->second;
  }
  const Entity* entity = module.lookup(name, scope.scope);
  if (entity == nullptr) return std::nullopt;
  if (entity->kind == Intrinsic::Constant) return module.constants[entity->payload];
  if (entity->kind == Intrinsic::MathConst && !isComplexMathConst(entity->payload)) {
    return ConstValue::ofFloat(mathConstValue(entity->payload));
  }
  return std::nullopt;
}

std::optional<ConstValue> foldIn(const Ast& ast, ExprId id, const ResolvedModule& module,
                                 const FoldScope* scope) {
  const Expr& e = ast.expr(id);
  switch (e.kind()) {
    case ExprKind::Constant: {
      bool ok;
      ConstValue v = fromLiteral(ast.constantOf(id), ok);
      if (!ok) return std::nullopt;
      return v;
    }
    case ExprKind::Name: {
      std::string name(ast.str(e.as<ast::Name>().id));
      if (scope != nullptr) return foldName(name, module, *scope);
      auto it = module.globals.find(name);
      if (it == module.globals.end()) return std::nullopt;
      if (it->second.kind == Intrinsic::Constant) return module.constants[it->second.payload];
      if (it->second.kind == Intrinsic::MathConst && !isComplexMathConst(it->second.payload)) {
        return ConstValue::ofFloat(mathConstValue(it->second.payload));
      }
      return std::nullopt;
    }
    case ExprKind::Attribute: {
      if (scope != nullptr && mentionsLocal(ast, id, *scope)) return std::nullopt;
      // A member of a module's enum class: `Color.RED`.
      const auto& a = e.as<ast::Attribute>();
      if (const auto* base = ast.expr(a.value).dyn<ast::Name>()) {
        auto it = module.globals.find(std::string(ast.str(base->id)));
        if (it != module.globals.end() && it->second.kind == Intrinsic::EnumClass) {
          const EnumClass& cls = module.enums[it->second.payload];
          for (size_t i = 0; i < cls.members.size(); ++i) {
            if (cls.members[i].first == ast.str(a.attr)) return cls.member(i, it->second.payload);
          }
          return std::nullopt;
        }
      }
      auto path = entityPath(ast, id, module);
      if (!path) return std::nullopt;
      TypeTable scratch;
      auto entity = lookupEntity(*path, scratch);
      if (entity && entity->kind == Intrinsic::MathConst && !isComplexMathConst(entity->payload)) {
        return ConstValue::ofFloat(mathConstValue(entity->payload));
      }
      if (*path == "numba.__version__") {
        ConstValue v;
        v.kind = ConstValue::Kind::Str;
        v.strValue = std::string(kNumbaVersion);
        return v;
      }
      return std::nullopt;
    }
    case ExprKind::Tuple: {
      ConstValue t;
      t.kind = ConstValue::Kind::Tuple;
      for (ExprId elt : ast.list(e.as<ast::Tuple>().elts)) {
        auto v = foldIn(ast, elt, module, scope);
        if (!v) return std::nullopt;
        t.elements.push_back(std::move(*v));
      }
      return t;
    }
    case ExprKind::UnaryOp: {
      const auto& u = e.as<ast::UnaryOp>();
      auto v = foldIn(ast, u.operand, module, scope);
      if (!v) return std::nullopt;
      return foldUnary(u.op, *v);
    }
    case ExprKind::BinOp: {
      const auto& b = e.as<ast::BinOp>();
      auto l = foldIn(ast, b.left, module, scope);
      if (!l) return std::nullopt;
      auto r = foldIn(ast, b.right, module, scope);
      if (!r) return std::nullopt;
      return foldBinary(b.op, *l, *r);
    }
    case ExprKind::BoolOp: {
      const auto& b = e.as<ast::BoolOp>();
      std::optional<ConstValue> last;
      for (ExprId v : ast.list(b.values)) {
        last = foldIn(ast, v, module, scope);
        if (!last) return std::nullopt;
        bool t = truthOf(*last);
        if ((b.op == BoolOpKind::And && !t) || (b.op == BoolOpKind::Or && t)) break;
      }
      return last;
    }
    case ExprKind::Compare: {
      const auto& c = e.as<ast::Compare>();
      auto left = foldIn(ast, c.left, module, scope);
      if (!left) return std::nullopt;
      auto ops = ast.list(c.ops);
      auto comparators = ast.list(c.comparators);
      for (size_t i = 0; i < ops.size(); ++i) {
        auto right = foldIn(ast, comparators[i], module, scope);
        if (!right) return std::nullopt;
        auto r = foldCompare(ops[i], *left, *right);
        if (!r) return std::nullopt;
        if (!r->boolValue) return r;
        left = right;
      }
      return ConstValue::ofBool(true);
    }
    case ExprKind::IfExp: {
      const auto& i = e.as<ast::IfExp>();
      auto test = foldIn(ast, i.test, module, scope);
      if (!test) return std::nullopt;
      return foldIn(ast, truthOf(*test) ? i.body : i.orelse, module, scope);
    }
    case ExprKind::Subscript: {
      const auto& s = e.as<ast::Subscript>();
      auto base = foldIn(ast, s.value, module, scope);
      auto index = foldIn(ast, s.slice, module, scope);
      if (!base || !index || base->kind != ConstValue::Kind::Tuple ||
          index->kind != ConstValue::Kind::Int) {
        return std::nullopt;
      }
      int64_t n = static_cast<int64_t>(base->elements.size());
      int64_t k = index->intValue < 0 ? index->intValue + n : index->intValue;
      if (k < 0 || k >= n) return std::nullopt;
      return base->elements[k];
    }
    case ExprKind::Call:
      if (scope != nullptr && mentionsLocal(ast, e.as<ast::Call>().func, *scope)) return std::nullopt;
      if (auto v = foldScalarCall(ast, id, module, scope)) return v;
      if (auto v = foldVersionCall(ast, id, module, scope)) return v;
      return foldMathCall(ast, id, module, scope);
    default:
      return std::nullopt;
  }
}


}  // namespace

std::optional<ConstValue> foldConstant(const Ast& ast, ExprId id, const ResolvedModule& module) {
  return foldIn(ast, id, module, nullptr);
}

std::optional<ConstValue> foldConstant(const Ast& ast, ExprId id, const ResolvedModule& module,
                                       const FoldScope& scope) {
  return foldIn(ast, id, module, &scope);
}

}  // namespace frontend
