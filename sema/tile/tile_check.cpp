#include "sema/tile/tile_check.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "diagnostics/diagnostics.h"
#include "sema/tile/tile_ops.h"

namespace frontend {

namespace {

constexpr const char* kTileNames[] = {
#define PYKC_X(N, S) S,
    PYKC_TILE_FNS(PYKC_X)
#undef PYKC_X
};
constexpr const char* kPaddingNames[] = {"UNDETERMINED", "ZERO", "NEG_ZERO", "NAN", "POS_INF", "NEG_INF"};
constexpr const char* kRoundingNames[] = {"RN", "RZ", "RM", "RP", "FULL", "APPROX", "RZI"};
constexpr const char* kOrderNames[] = {"WEAK", "RELAXED", "ACQUIRE", "RELEASE", "ACQ_REL"};
constexpr const char* kScopeNames[] = {"NONE", "BLOCK", "DEVICE", "SYS"};

template <size_t N>
std::optional<TileFn> memberOf(const char* const (&names)[N], TileFn first, std::string_view name) {
  for (size_t i = 0; i < N; ++i) {
    if (name == names[i]) return static_cast<TileFn>(static_cast<size_t>(first) + i);
  }
  return std::nullopt;
}

}  // namespace

std::optional<TileFn> tileFnByName(std::string_view name) {
  for (size_t i = 0; i < std::size(kTileNames); ++i) {
    if (name == kTileNames[i]) return static_cast<TileFn>(i);
  }
  return std::nullopt;
}

std::optional<TileFn> tileMemberByName(TileFn ns, std::string_view name) {
  switch (ns) {
    case TileFn::PaddingMode:
      return memberOf(kPaddingNames, TileFn::PadUndetermined, name);
    case TileFn::RoundingMode:
      return memberOf(kRoundingNames, TileFn::RoundRn, name);
    case TileFn::MemoryOrder:
      return memberOf(kOrderNames, TileFn::OrderWeak, name);
    case TileFn::MemoryScope:
      return memberOf(kScopeNames, TileFn::ScopeNone, name);
    default:
      return std::nullopt;
  }
}

std::string_view tileFnName(TileFn fn) {
  size_t i = static_cast<size_t>(fn);
  if (i < std::size(kTileNames)) return kTileNames[i];
  if (isTileMemoryOrder(static_cast<uint32_t>(fn))) return kOrderNames[i - static_cast<size_t>(TileFn::OrderWeak)];
  if (isTileMemoryScope(static_cast<uint32_t>(fn))) return kScopeNames[i - static_cast<size_t>(TileFn::ScopeNone)];
  if (isTileRounding(static_cast<uint32_t>(fn))) return kRoundingNames[i - static_cast<size_t>(TileFn::RoundRn)];
  return kPaddingNames[i - static_cast<size_t>(TileFn::PadUndetermined)];
}

namespace {

// What an expression is while checking a tile kernel.
struct TV {
  enum class K : uint8_t { Bad, Value, Const, Entity };
  K k = K::Bad;
  // Value: a scalar, array or tile type.
  TypeId type;
  // Const: a Python number or a tuple of them.
  ConstValue c;
  // Entity: a TileOp, TypeObject or Module with its dotted path.
  Intrinsic ent = Intrinsic::None;
  uint32_t payload = 0;
  std::string path;
  // `t.astype` bound to `t`.
  ExprId self;

  bool ok() const { return k != K::Bad; }
  static TV value(TypeId t) {
    TV v;
    v.k = K::Value;
    v.type = t;
    return v;
  }
  static TV constant(ConstValue c) {
    TV v;
    v.k = K::Const;
    v.c = std::move(c);
    return v;
  }
};

bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// The helper functions' instances made while checking one tile kernel
// instance, shared by the nested checkers of its helper calls.
struct HelperContext {
  explicit HelperContext(std::vector<FunctionInstance>& o) : out(o) {}
  std::vector<FunctionInstance>& out;
  struct Done {
    int32_t index = -1;
    TV result;
    bool effects = false;
  };
  // By function index and argument kinds (see helperKey).
  std::map<std::string, Done> done;
  // The helpers being checked, outermost first (recursion is an error).
  std::vector<uint32_t> stack;
};

class TileChecker {
public:
  TileChecker(const Ast& ast, ResolvedModule& module, FunctionInstance& inst, DiagnosticSink& diags,
              HelperContext& helpers)
      : ast_(ast), module_(module), types_(module.types), inst_(inst), diags_(diags),
        fn_(module.functions[inst.function]), helpers_(helpers) {}

  void run() {
    initTables();
    for (size_t i = 0; i < fn_.params.size() && i < inst_.argTypes.size(); ++i) {
      TypeId t = inst_.argTypes[i];
      if (!types_.isArray(t) && !types_.isNumber(t)) {
        diags_.error(fn_.location, Diag::TileType,
                     "parameter `" + fn_.params[i] + "` of tile kernel `" + fn_.name +
                         "` is `" + types_.name(t) + "`: tile kernels take arrays and numbers");
      }
      vars_[fn_.params[i]] = t;
    }
    // `scale: float` beside a signature from `--sig`: the kinds must agree.
    for (const TileScalarAnnotation& a : fn_.tileScalarAnnotations) {
      if (a.param >= inst_.argTypes.size()) continue;
      TypeId t = inst_.argTypes[a.param];
      bool ok = a.kind == "float"  ? types_.isFloat(t) && !types_.isArray(t)
                : a.kind == "int" ? types_.isInt(t) && !types_.isArray(t)
                                  : types_.isBool(t);
      if (!ok) {
        diags_.error(a.location, Diag::TileType,
                     "parameter `" + fn_.params[a.param] + "` is annotated `" + a.kind +
                         "`, but the signature gives it `" + types_.name(t) + "`");
      }
    }
    for (size_t i = 0; i < fn_.tileConsts.size() && i < inst_.tileConstValues.size(); ++i) {
      consts_[fn_.tileConsts[i].name] = inst_.tileConstValues[i];
    }
    const ast::FunctionDef& def = *ast_.stmt(fn_.stmt).functionDef();
    countAssignments(ast_.list(def.body));
    checkBody(ast_.list(def.body));
    for (const auto& [name, t] : vars_) inst_.variables[name] = t;
    for (const auto& [name, c] : consts_) {
      if (auto t = typeOfConstant(c, types_)) inst_.variables[name] = *t;
    }
  }

  // Checks the helper function `inst_` for one call's arguments (one TV per
  // parameter: a runtime value, a constant or a dtype/padding mode); returns
  // what the call gives (Bad after an error).
  TV runHelper(const std::vector<TV>& args);
  bool effects() const { return effects_; }

private:
  void initTables() {
    size_t nExpr = ast_.exprCount();
    inst_.exprTypes.assign(nExpr, TypeId());
    inst_.opTypes.assign(nExpr, TypeId());
    inst_.meanings.assign(nExpr, ExprMeaning{});
    inst_.constIndex.assign(nExpr, -1);
    inst_.powExponentTypes.assign(nExpr, TypeId());
    inst_.arrayAttrs.assign(nExpr, ArrayAttr::None);
    inst_.callees.assign(nExpr, -1);
    size_t nStmt = ast_.stmtCount();
    inst_.stmtOpTypes.assign(nStmt, TypeId());
    inst_.stmtResultTypes.assign(nStmt, TypeId());
    inst_.rangeTypes.assign(nStmt, TypeId());
    inst_.returnType = types_.none();
  }

  Location loc(const NodeRange& r) const { return locationOf(ast_, r); }
  Location loc(ExprId id) const { return loc(ast_.expr(id).range); }
  std::string nameOf(TypeId t) const { return t.valid() ? types_.name(t) : "?"; }

  // --- statements ---------------------------------------------------------

  void countAssignments(std::span<const StmtId> body) {
    for (StmtId id : body) {
      const Stmt& s = ast_.stmt(id);
      switch (s.kind()) {
        case StmtKind::Assign:
          for (ExprId t : ast_.list(s.as<ast::Assign>().targets)) countTarget(t, 1);
          break;
        case StmtKind::AugAssign:
          countTarget(s.as<ast::AugAssign>().target, 2);
          break;
        case StmtKind::For: {
          const auto& f = s.as<ast::For>();
          countTarget(f.target, 2);
          // Anything assigned in a loop body is assigned more than once.
          std::map<std::string, int> saved = assigned_;
          countAssignments(ast_.list(f.body));
          for (auto& [name, n] : assigned_) {
            if (!saved.count(name) || saved[name] != n) n = 2;
          }
          break;
        }
        case StmtKind::If:
          countAssignments(ast_.list(s.as<ast::If>().body));
          countAssignments(ast_.list(s.as<ast::If>().orelse));
          break;
        default:
          break;
      }
    }
  }

  void countTarget(ExprId t, int n) {
    if (const auto* name = ast_.expr(t).dyn<ast::Name>()) {
      assigned_[std::string(ast_.str(name->id))] += n;
    } else if (const auto* tuple = ast_.expr(t).dyn<ast::Tuple>()) {
      for (ExprId e : ast_.list(tuple->elts)) countTarget(e, n);
    }
  }

  void checkBody(std::span<const StmtId> body) {
    for (StmtId id : body) checkStmt(id);
  }

  void checkStmt(StmtId id) {
    const Stmt& s = ast_.stmt(id);
    switch (s.kind()) {
      case StmtKind::Assign: {
        const auto& a = s.as<ast::Assign>();
        TV v = checkExpr(a.value);
        for (ExprId t : ast_.list(a.targets)) assign(t, v, a.value);
        return;
      }
      case StmtKind::AugAssign: {
        const auto& a = s.as<ast::AugAssign>();
        const auto* name = ast_.expr(a.target).dyn<ast::Name>();
        if (name == nullptr) {
          diags_.error(loc(a.target), Diag::UnsupportedFeature,
                       "tile kernels assign to names only (tiles are immutable values)");
          return;
        }
        TV lhs = checkExpr(a.target);
        TV rhs = checkExpr(a.value);
        TV r = binary(a.op, lhs, rhs, s.range, a.value);
        if (r.ok() && lhs.k == TV::K::Value && r.type != lhs.type) {
          diags_.error(loc(s.range), Diag::TileType,
                       "`" + std::string(ast_.str(name->id)) + " " + std::string(spelling(a.op)) +
                           "=` would change its type from `" + nameOf(lhs.type) + "` to `" +
                           nameOf(r.type) + "`: write `x = x " + std::string(spelling(a.op)) +
                           " ...` or convert with `astype`");
          return;
        }
        if (r.ok()) {
          inst_.stmtOpTypes[id.index] = lastOpType_;
          inst_.stmtResultTypes[id.index] = r.type;
        }
        assign(a.target, r, a.value);
        return;
      }
      case StmtKind::Expr:
        checkExpr(s.as<ast::ExprStmt>().value);
        return;
      case StmtKind::Pass:
        return;
      case StmtKind::Return:
        if (helperMode_) {
          checkHelperReturn(id, s.as<ast::Return>());
        } else if (s.as<ast::Return>().value.valid()) {
          diags_.error(loc(s.range), Diag::KernelReturnsValue, "a value");
        }
        return;
      case StmtKind::For:
        checkFor(id, s.as<ast::For>());
        return;
      case StmtKind::If: {
        const auto& i = s.as<ast::If>();
        TV c = checkExpr(i.test);
        if (c.k == TV::K::Const) {
          // Decided at compile time (cuTile's rule): the other branch is not typed.
          checkBody(ast_.list(truthOf(c.c) ? i.body : i.orelse));
          return;
        }
        if (c.ok() && !(
                        (c.k == TV::K::Value && types_.isNumber(c.type)))) {
          diags_.error(loc(i.test), Diag::InvalidCondition, nameOf(c.type));
        }
        ++depthNow_;
        checkBody(ast_.list(i.body));
        checkBody(ast_.list(i.orelse));
        --depthNow_;
        return;
      }
      default:
        diags_.error(loc(s.range), Diag::UnsupportedFeature,
                     "`" + std::string(name(s.kind())) + "` statements are not supported in tile kernels");
        return;
    }
  }

  void checkFor(StmtId id, const ast::For& f) {
    const auto* call = ast_.expr(f.iter).dyn<ast::Call>();
    const auto* target = ast_.expr(f.target).dyn<ast::Name>();
    bool isRange = false;
    if (call != nullptr) {
      if (const auto* n = ast_.expr(call->func).dyn<ast::Name>()) {
        isRange = ast_.str(n->id) == "range" && !vars_.count("range");
      }
    }
    if (!isRange || target == nullptr || !f.orelse.empty() || !call->keywords.empty() ||
        call->args.empty() || ast_.list(call->args).size() > 3) {
      diags_.error(loc(f.iter), Diag::UnsupportedFeature,
                   "tile kernels loop with `for NAME in range(...)` only");
      checkBody(ast_.list(f.body));
      return;
    }
    TypeId it = types_.int32();
    for (ExprId a : ast_.list(call->args)) {
      TV v = checkExpr(a);
      if (!v.ok()) continue;
      if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Int) continue;
      if (v.k == TV::K::Value && types_.isInt(v.type)) {
        if (types_.get(v.type).bits == 64) it = types_.int64();
        continue;
      }
      diags_.error(loc(a), Diag::TileType, "`range` takes integers, found `" + describe(v) + "`");
    }
    inst_.rangeTypes[id.index] = it;
    std::string name(ast_.str(target->id));
    bindRuntime(name, it, f.target);
    record(f.target, TV::value(it));
    ++depthNow_;
    checkBody(ast_.list(f.body));
    --depthNow_;
  }

  // A name may be rebound to a value of another type (Python semantics),
  // except inside a loop or branch when it was bound outside it: then the
  // value flows around the loop or out of the branch and keeps its type.
  void bindRuntime(const std::string& name, TypeId t, ExprId where, bool keepType = false) {
    auto it = vars_.find(name);
    if (it == vars_.end()) {
      vars_[name] = t;
      depth_[name] = depthNow_;
      return;
    }
    if (it->second != t && (keepType || depth_[name] < depthNow_)) {
      diags_.error(loc(where), Diag::TileType,
                   "`" + name + "` is assigned `" + nameOf(t) + "` here but holds `" + nameOf(it->second) +
                       "` before the " + (keepType ? "operation" : "loop or branch") +
                       ": such a variable keeps one type in a tile kernel");
      return;
    }
    if (it->second != t) depth_[name] = depthNow_;
    it->second = t;
  }

  void assign(ExprId target, const TV& v, ExprId valueExpr) {
    if (ast_.expr(target).is<ast::Tuple>()) {
      assignTuple(target, v, valueExpr);
      return;
    }
    const auto* n = ast_.expr(target).dyn<ast::Name>();
    if (n == nullptr) {
      diags_.error(loc(target), Diag::UnsupportedFeature,
                   "tile kernels assign to names only (tiles are immutable values)");
      return;
    }
    std::string name(ast_.str(n->id));
    if (!v.ok()) {
      failed_.insert(name);
      return;
    }
    if (consts_.count(name) && !inst_.variables.count(name) && isConstParam(name)) {
      diags_.error(loc(target), Diag::InvalidAssignment,
                   "cannot assign to Constant parameter `" + name + "`");
      return;
    }
    if (v.k == TV::K::Entity && assignEntity(target, name, v)) return;
    if (v.k == TV::K::Value && types_.isNone(v.type)) {
      diags_.error(loc(valueExpr), Diag::TileType, "this gives no value (`None`) to assign");
      return;
    }
    if (v.k == TV::K::Value && types_.isTuple(v.type)) {
      diags_.error(loc(target), Diag::TileUnsupported, "a variable holding a tuple of runtime values",
                   ": unpack it (`a, b = ...`)");
      return;
    }
    entities_.erase(name);
    if (v.k == TV::K::Const && assigned_[name] <= 1) {
      consts_[name] = v.c;
      record(target, v);
      return;
    }
    TypeId t;
    if (v.k == TV::K::Const) {
      auto it = vars_.find(name);
      if (it != vars_.end()) {
        t = it->second;
      } else if (auto ct = weakType(v.c)) {
        t = *ct;
      }
      if (!t.valid()) {
        diags_.error(loc(valueExpr), Diag::TileType, "cannot store `" + v.c.repr() + "` in a variable");
        return;
      }
    } else if (v.k == TV::K::Value) {
      t = v.type;
    } else {
      diags_.error(loc(valueExpr), Diag::TileType,
                   "`" + v.path + "` is not a value that a variable can hold");
      return;
    }
    bindRuntime(name, t, target);
    record(target, TV::value(t));
  }

  bool isConstParam(const std::string& name) const {
    for (const TileConstParam& c : fn_.tileConsts) {
      if (c.name == name) return true;
    }
    return false;
  }

  // --- expressions --------------------------------------------------------

  TV record(ExprId id, TV v) {
    switch (v.k) {
      case TV::K::Value:
        inst_.exprTypes[id.index] = v.type;
        break;
      case TV::K::Const:
        inst_.constIndex[id.index] = static_cast<int32_t>(inst_.constants.size());
        inst_.constants.push_back(v.c);
        if (auto t = typeOfConstant(v.c, types_)) inst_.exprTypes[id.index] = *t;
        break;
      case TV::K::Entity:
        inst_.meanings[id.index] = ExprMeaning{v.ent, v.payload};
        break;
      case TV::K::Bad:
        break;
    }
    return v;
  }

  std::string describe(const TV& v) const {
    switch (v.k) {
      case TV::K::Value: return nameOf(v.type);
      case TV::K::Const: return v.c.repr();
      case TV::K::Entity: return v.path;
      case TV::K::Bad: return "?";
    }
    return "?";
  }

  TV checkExpr(ExprId id) {
    const Expr& e = ast_.expr(id);
    switch (e.kind()) {
      case ExprKind::Constant: {
        bool ok = false;
        const ConstantValue& c = ast_.constantOf(id);
        ConstValue v;
        if (c.kind == ConstantKind::True || c.kind == ConstantKind::False) {
          v = ConstValue::ofBool(c.kind == ConstantKind::True);
          ok = true;
        } else if (c.kind == ConstantKind::Int && c.fitsInt64) {
          v = ConstValue::ofInt(c.intValue);
          ok = true;
        } else if (c.kind == ConstantKind::Float) {
          v = ConstValue::ofFloat(c.floatValue);
          ok = true;
        } else if (c.kind == ConstantKind::None) {
          ok = true;
        }
        if (!ok) {
          diags_.error(loc(id), Diag::UnsupportedFeature, "this constant is not supported in tile kernels");
          return TV{};
        }
        return record(id, TV::constant(v));
      }
      case ExprKind::Name:
        return checkName(id, e.as<ast::Name>());
      case ExprKind::Attribute:
        return checkAttribute(id, e.as<ast::Attribute>());
      case ExprKind::Tuple: {
        ConstValue tuple;
        tuple.kind = ConstValue::Kind::Tuple;
        bool allConst = true;
        for (ExprId elt : ast_.list(e.as<ast::Tuple>().elts)) {
          TV v = checkExpr(elt);
          if (!v.ok()) return TV{};
          if (v.k != TV::K::Const) {
            allConst = false;
          } else {
            tuple.elements.push_back(v.c);
          }
        }
        if (allConst) return record(id, TV::constant(tuple));
        return runtimeTuple(id, e.as<ast::Tuple>());
      }
      case ExprKind::BinOp: {
        const auto& b = e.as<ast::BinOp>();
        TV l = checkExpr(b.left);
        TV r = checkExpr(b.right);
        TV v = binary(b.op, l, r, e.range, b.right);
        if (v.ok() && v.k == TV::K::Value) inst_.opTypes[id.index] = lastOpType_;
        return record(id, v);
      }
      case ExprKind::UnaryOp: {
        const auto& u = e.as<ast::UnaryOp>();
        TV x = checkExpr(u.operand);
        if (!x.ok()) return TV{};
        if (x.k == TV::K::Const) {
          if (auto f = foldUnary(u.op, x.c)) return record(id, TV::constant(*f));
        } else if (x.k == TV::K::Value && (u.op == UnaryOpKind::USub || u.op == UnaryOpKind::UAdd) &&
                   !types_.isArray(x.type) && !types_.isBool(elementOf(x.type))) {
          inst_.opTypes[id.index] = elementOf(x.type);
          return record(id, x);
        } else if (x.k == TV::K::Value && u.op == UnaryOpKind::Not && types_.isBool(x.type)) {
          inst_.opTypes[id.index] = x.type;
          return record(id, x);
        }
        diags_.error(loc(id), Diag::BadUnaryOperand, std::string(spelling(u.op)), describe(x));
        return TV{};
      }
      case ExprKind::Compare: {
        const auto& c = e.as<ast::Compare>();
        auto ops = ast_.list(c.ops);
        auto rights = ast_.list(c.comparators);
        if (ops.size() != 1) {
          diags_.error(loc(id), Diag::UnsupportedFeature,
                       "chained comparisons are not supported in tile kernels");
          return TV{};
        }
        TV l = checkExpr(c.left);
        TV r = checkExpr(rights[0]);
        if (!l.ok() || !r.ok()) return TV{};
        if (l.k == TV::K::Entity || r.k == TV::K::Entity) return compareEntities(id, ops[0], l, r);
        if (l.k == TV::K::Const && r.k == TV::K::Const) {
          if (auto f = foldCompare(ops[0], l.c, r.c)) return record(id, TV::constant(*f));
        }
        auto operand = promote(l, r);
        auto shape = broadcastOf({l, r}, id);
        if (!operand || !shape || ops[0] == CmpOp::Is || ops[0] == CmpOp::IsNot ||
            ops[0] == CmpOp::In || ops[0] == CmpOp::NotIn) {
          if (shape) {
            diags_.error(loc(id), Diag::MismatchedOperandTypes, std::string(spelling(ops[0])),
                         describe(l), describe(r));
          }
          return TV{};
        }
        inst_.opTypes[id.index] = *operand;
        return record(id, TV::value(make(types_.boolean(), *shape, l, r)));
      }
      case ExprKind::Call:
        return checkCall(id, e.as<ast::Call>());
      case ExprKind::Subscript: {
        // `array.shape[d]` (int32, as cuTile's array shapes), or an element
        // of a constant tuple.
        const auto& sub = e.as<ast::Subscript>();
        const auto* attr = ast_.expr(sub.value).dyn<ast::Attribute>();
        if (attr != nullptr && ast_.str(attr->attr) == "shape") {
          TV base = checkExpr(attr->value);
          if (!base.ok()) return TV{};
          if (base.k == TV::K::Value && types_.isArray(base.type)) {
            auto d = constInt(sub.slice, "the dimension of `shape[...]`");
            if (!d) return TV{};
            int64_t ndim = types_.get(base.type).ndim;
            if (*d < -ndim || *d >= ndim) {
              diags_.error(loc(sub.slice), Diag::IndexOutOfRange,
                           "dimension " + std::to_string(*d) + " of a " + std::to_string(ndim) + "-d array");
              return TV{};
            }
            inst_.arrayAttrs[sub.value.index] = ArrayAttr::Shape;
            return record(id, TV::value(types_.int32()));
          }
        }
        TV base = checkExpr(sub.value);
        if (!base.ok()) return TV{};
        if (base.k == TV::K::Const && base.c.kind == ConstValue::Kind::Tuple) {
          auto i = constInt(sub.slice, "a tuple index");
          if (!i) return TV{};
          int64_t n = static_cast<int64_t>(base.c.elements.size());
          if (*i < -n || *i >= n) {
            diags_.error(loc(sub.slice), Diag::IndexOutOfRange, "tuple index out of range");
            return TV{};
          }
          return record(id, TV::constant(base.c.elements[static_cast<size_t>(*i < 0 ? *i + n : *i)]));
        }
        if (isTileVal(base)) return checkTileSubscript(id, sub, base);
        diags_.error(loc(id), Diag::TileUnsupported, "indexing `" + describe(base) + "`",
                     ": load tiles with `ct.load`");
        return TV{};
      }
      case ExprKind::IfExp:
        return checkIfExp(id, e.as<ast::IfExp>());
      case ExprKind::BoolOp:
        return checkBoolOp(id, e.as<ast::BoolOp>());
      default:
        diags_.error(loc(id), Diag::UnsupportedFeature,
                     "this expression is not supported in tile kernels");
        return TV{};
    }
  }

  TV checkName(ExprId id, const ast::Name& n) {
    std::string name(ast_.str(n.id));
    if (auto c = consts_.find(name); c != consts_.end()) return record(id, TV::constant(c->second));
    if (auto v = vars_.find(name); v != vars_.end()) return record(id, TV::value(v->second));
    if (auto v = entities_.find(name); v != entities_.end()) return record(id, v->second);
    if (failed_.count(name)) return TV{};
    if (assigned_.count(name)) {
      diags_.error(loc(id), Diag::UseBeforeAssign, name);
      return TV{};
    }
    auto it = module_.globals.find(name);
    if (it == module_.globals.end()) {
      diags_.error(loc(id), Diag::UndefinedName, name);
      return TV{};
    }
    const Entity& entity = it->second;
    switch (entity.kind) {
      case Intrinsic::Constant:
        return record(id, TV::constant(module_.constants[entity.payload]));
      case Intrinsic::MathConst:
        if (!isComplexMathConst(entity.payload)) {
          return record(id, TV::constant(ConstValue::ofFloat(mathConstValue(entity.payload))));
        }
        break;
      case Intrinsic::Module:
      case Intrinsic::TileOp:
      case Intrinsic::TypeObject: {
        TV v;
        v.k = TV::K::Entity;
        v.ent = entity.kind;
        v.payload = entity.payload;
        v.path = entity.path;
        return record(id, v);
      }
      case Intrinsic::Function:
        diags_.error(loc(id), Diag::TileUnsupported, "calling other kernels or functions", "");
        return TV{};
      case Intrinsic::HostValue:
        diags_.error(loc(id), Diag::HostGlobal, name);
        return TV{};
      default:
        break;
    }
    diags_.error(loc(id), Diag::TileUnsupported, "`" + entity.path + "`", "");
    return TV{};
  }

  TV checkAttribute(ExprId id, const ast::Attribute& a) {
    TV base = checkExpr(a.value);
    if (!base.ok()) return TV{};
    std::string attr(ast_.str(a.attr));
    if (base.k == TV::K::Entity && base.ent == Intrinsic::Module) {
      std::string path = base.path + "." + attr;
      if (auto entity = lookupEntity(path, types_)) {
        TV v;
        v.k = TV::K::Entity;
        v.ent = entity->kind;
        v.payload = entity->payload;
        v.path = path;
        if (v.ent == Intrinsic::MathConst && !isComplexMathConst(v.payload)) {
          return record(id, TV::constant(ConstValue::ofFloat(mathConstValue(v.payload))));
        }
        if (v.ent == Intrinsic::Module || v.ent == Intrinsic::TileOp ||
            v.ent == Intrinsic::TypeObject) {
          return record(id, v);
        }
      }
      diags_.error(loc(id), Diag::UnknownAttribute, base.path, attr);
      return TV{};
    }
    if (base.k == TV::K::Entity && base.ent == Intrinsic::TileOp &&
        (base.payload == static_cast<uint32_t>(TileFn::PaddingMode) ||
         base.payload == static_cast<uint32_t>(TileFn::RoundingMode) ||
         base.payload == static_cast<uint32_t>(TileFn::MemoryOrder) ||
         base.payload == static_cast<uint32_t>(TileFn::MemoryScope))) {
      if (auto p = tileMemberByName(static_cast<TileFn>(base.payload), attr)) {
        TV v;
        v.k = TV::K::Entity;
        v.ent = Intrinsic::TileOp;
        v.payload = static_cast<uint32_t>(*p);
        v.path = base.path + "." + attr;
        return record(id, v);
      }
      diags_.error(loc(id), Diag::UnknownAttribute, base.path, attr);
      return TV{};
    }
    if (base.k == TV::K::Value) {
      const Type& t = types_.get(base.type);
      if ((t.kind == TypeKind::Array || t.kind == TypeKind::Tile) && attr == "dtype") {
        TV v;
        v.k = TV::K::Entity;
        v.ent = Intrinsic::TypeObject;
        v.payload = t.element.index;
        v.path = types_.dtypeName(t.element);
        return record(id, v);
      }
      if (t.kind == TypeKind::Tile && attr == "shape") {
        ConstValue shape;
        shape.kind = ConstValue::Kind::Tuple;
        for (int64_t d : t.shape) shape.elements.push_back(ConstValue::ofInt(d));
        return record(id, TV::constant(shape));
      }
      if (t.kind == TypeKind::Tile && attr == "ndim") {
        return record(id, TV::constant(ConstValue::ofInt(static_cast<int64_t>(t.shape.size()))));
      }
      if (t.kind == TypeKind::Array && attr == "ndim") {
        return record(id, TV::constant(ConstValue::ofInt(t.ndim)));
      }
      if (t.kind == TypeKind::Tile && (attr == "reshape" || attr == "permute" || attr == "transpose")) {
        TV v;
        v.k = TV::K::Entity;
        v.ent = Intrinsic::TileOp;
        v.payload = static_cast<uint32_t>(*tileFnByName(attr));
        v.path = attr;
        v.self = a.value;
        return record(id, v);
      }
      if ((t.kind == TypeKind::Tile || types_.isNumber(base.type)) && attr == "astype") {
        TV v;
        v.k = TV::K::Entity;
        v.ent = Intrinsic::TileOp;
        v.payload = static_cast<uint32_t>(TileFn::Astype);
        v.path = "astype";
        v.self = a.value;
        return record(id, v);
      }
    }
    diags_.error(loc(id), Diag::UnknownAttribute, describe(base), attr);
    return TV{};
  }

  // --- typing rules -------------------------------------------------------

  TypeId elementOf(TypeId t) const {
    const Type& ty = types_.get(t);
    return ty.kind == TypeKind::Tile || ty.kind == TypeKind::Array ? ty.element : t;
  }

  // The dtype a Python number constant takes on its own (cuTile: int32 for
  // ints that fit, float32 for floats).
  std::optional<TypeId> weakType(const ConstValue& c) {
    switch (c.kind) {
      case ConstValue::Kind::Bool: return types_.boolean();
      case ConstValue::Kind::Int:
        return c.intValue >= INT32_MIN && c.intValue <= INT32_MAX ? types_.int32() : types_.int64();
      case ConstValue::Kind::Float: return types_.float32();
      default: return std::nullopt;
    }
  }

  // Two dtypes meeting in an operation (cuTile's promotion: the wider float,
  // float over int, the wider int, signed over unsigned).
  TypeId promoteDtypes(TypeId a, TypeId b) {
    if (a == b) return a;
    const Type& x = types_.get(a);
    const Type& y = types_.get(b);
    if (x.kind == TypeKind::Bool) return b;
    if (y.kind == TypeKind::Bool) return a;
    if (x.kind == TypeKind::Float && y.kind == TypeKind::Float) {
      // float16 with bfloat16 (neither holds the other), and the tensor-core
      // formats with anything else, meet in float32 or wider.
      if (x.format != FloatFormat::Ieee || y.format != FloatFormat::Ieee) {
        return x.bits == 64 || y.bits == 64 ? types_.float64() : types_.float32();
      }
      return x.bits >= y.bits ? a : b;
    }
    if (x.kind == TypeKind::Float) return a;
    if (y.kind == TypeKind::Float) return b;
    unsigned bits = std::max(x.bits, y.bits);
    return types_.intType(bits, x.isSigned || y.isSigned);
  }

  // The dtype two operands compute in; a Python number constant adopts the
  // other operand's dtype (a float constant with an integer tile gives float32).
  std::optional<TypeId> promote(const TV& l, const TV& r) {
    auto dtypeOf = [&](const TV& v) -> std::optional<TypeId> {
      if (v.k == TV::K::Value && !types_.isArray(v.type)) return elementOf(v.type);
      return std::nullopt;
    };
    auto dl = dtypeOf(l);
    auto dr = dtypeOf(r);
    if (l.k == TV::K::Const && dr) return weakWith(l.c, *dr);
    if (r.k == TV::K::Const && dl) return weakWith(r.c, *dl);
    if (dl && dr) return promoteDtypes(*dl, *dr);
    if (l.k == TV::K::Const && r.k == TV::K::Const) {
      auto a = weakType(l.c);
      auto b = weakType(r.c);
      if (a && b) return promoteDtypes(*a, *b);
    }
    return std::nullopt;
  }

  std::optional<TypeId> weakWith(const ConstValue& c, TypeId other) {
    if (!c.isNumber()) return std::nullopt;
    if (c.kind == ConstValue::Kind::Float && !types_.isFloat(other)) return types_.float32();
    if (c.kind == ConstValue::Kind::Int && types_.isBool(other)) return types_.int32();
    return other;
  }

  std::vector<int64_t> shapeOf(const TV& v) const {
    if (v.k == TV::K::Value && types_.isTile(v.type)) return types_.get(v.type).shape;
    return {};
  }
  bool isTileVal(const TV& v) const { return v.k == TV::K::Value && types_.isTile(v.type); }

  // NumPy broadcasting of the operands' shapes (scalars are 0-d).
  std::optional<std::vector<int64_t>> broadcastOf(const std::vector<TV>& vals, ExprId where) {
    std::vector<int64_t> out;
    for (const TV& v : vals) {
      if (v.k == TV::K::Value && types_.isArray(v.type)) {
        diags_.error(loc(where), Diag::TileType,
                     "arrays cannot take part in tile arithmetic: `ct.load` a tile first");
        return std::nullopt;
      }
      std::vector<int64_t> s = shapeOf(v);
      if (s.size() > out.size()) out.insert(out.begin(), s.size() - out.size(), 1);
      size_t off = out.size() - s.size();
      for (size_t i = 0; i < s.size(); ++i) {
        int64_t& o = out[off + i];
        if (o == s[i] || s[i] == 1) continue;
        if (o == 1) {
          o = s[i];
          continue;
        }
        std::string text;
        for (const TV& w : vals) text += (text.empty() ? "" : " and ") + std::string("`") + describe(w) + "`";
        diags_.error(loc(where), Diag::TileShape, "shapes of " + text + " do not broadcast");
        return std::nullopt;
      }
    }
    return out;
  }

  // A tile of `dtype` and `shape` if any operand is a tile, else a scalar.
  TypeId make(TypeId dtype, const std::vector<int64_t>& shape, const TV& a, const TV& b) {
    if (isTileVal(a) || isTileVal(b)) return types_.tile(dtype, shape);
    return dtype;
  }

  // The operand shapes of a matrix product: 2-D tiles (M, K) and (K, N).
  bool matmulShapes(const TV& x, const TV& y, const NodeRange& range, const std::string& what) {
    for (const TV* v : {&x, &y}) {
      if (v->k != TV::K::Value || !types_.isTile(v->type)) {
        diags_.error(loc(range), Diag::TileType, what + " takes tiles, found `" + describe(*v) + "`");
        return false;
      }
      if (types_.get(v->type).shape.size() != 2) {
        diags_.error(loc(range), Diag::TileUnsupported,
                     what + " of " + std::to_string(types_.get(v->type).shape.size()) + "-D tiles",
                     " (2-D tiles only)");
        return false;
      }
    }
    const auto& xs = types_.get(x.type).shape;
    const auto& ys = types_.get(y.type).shape;
    if (xs[1] != ys[0]) {
      diags_.error(loc(range), Diag::TileShape,
                   what + ": the shapes `" + describe(x) + "` and `" + describe(y) +
                       "` do not agree (the left's columns must equal the right's rows)");
      return false;
    }
    return true;
  }

  static bool matmulInput(const Type& t) {
    if (t.kind == TypeKind::Float) return true;  // f16, bf16, f32, tf32, f64
    return t.kind == TypeKind::Int && t.bits == 8;
  }

  // `x @ y`, `ct.matmul(x, y)`: the operands promoted to one dtype, which the
  // result has (cuTile's rule).
  std::optional<TypeId> matmulType(const TV& x, const TV& y, const NodeRange& range,
                                   const std::string& what = "`@`") {
    if (!matmulShapes(x, y, range, what)) return std::nullopt;
    TypeId dtype = promoteDtypes(elementOf(x.type), elementOf(y.type));
    if (!matmulInput(types_.get(dtype))) {
      diags_.error(loc(range), Diag::TileType,
                   what + " of `" + types_.dtypeName(dtype) +
                       "` tiles: matrix products take float16, bfloat16, float32, tfloat32, "
                       "float64, int8 or uint8");
      return std::nullopt;
    }
    return types_.tile(dtype, {types_.get(x.type).shape[0], types_.get(y.type).shape[1]});
  }

  // `ct.mma(x, y, acc)`: x and y of one dtype (not promoted), acc of the
  // (M, N) shape and an accumulator dtype cuTile allows for that input.
  std::optional<TypeId> mmaType(const TV& x, const TV& y, const TV& acc, const NodeRange& range) {
    if (!matmulShapes(x, y, range, "`ct.mma`")) return std::nullopt;
    if (acc.k != TV::K::Value || !types_.isTile(acc.type)) {
      diags_.error(loc(range), Diag::TileType, "`ct.mma`'s accumulator must be a tile, found `" + describe(acc) + "`");
      return std::nullopt;
    }
    TypeId in = elementOf(x.type);
    if (in != elementOf(y.type)) {
      diags_.error(loc(range), Diag::TileType,
                   "`ct.mma` takes operands of one dtype (it does not promote), found `" +
                       types_.dtypeName(in) + "` and `" + types_.dtypeName(elementOf(y.type)) + "`");
      return std::nullopt;
    }
    std::vector<int64_t> shape{types_.get(x.type).shape[0], types_.get(y.type).shape[1]};
    if (types_.get(acc.type).shape != shape) {
      diags_.error(loc(range), Diag::TileShape,
                   "`ct.mma`'s accumulator `" + describe(acc) + "` must have the product's shape `" +
                       nameOf(types_.tile(elementOf(acc.type), shape)) + "`");
      return std::nullopt;
    }
    TypeId out = elementOf(acc.type);
    const Type& it = types_.get(in);
    const Type& ot = types_.get(out);
    bool ok = false;
    std::string allowed;
    if (types_.isHalf(in)) {
      ok = types_.isHalf(out) || out == types_.float32();
      allowed = "float16 or float32";
    } else if (it.kind == TypeKind::Float && it.bits == 64) {
      ok = out == in;
      allowed = "float64";
    } else if (it.kind == TypeKind::Float) {  // bfloat16, float32, tfloat32
      ok = out == types_.float32();
      allowed = "float32";
    } else if (it.kind == TypeKind::Int && it.bits == 8) {
      ok = ot.kind == TypeKind::Int && ot.bits == 32 && ot.isSigned;
      allowed = "int32";
    } else {
      diags_.error(loc(range), Diag::TileType,
                   "`ct.mma` of `" + types_.dtypeName(in) +
                       "` tiles: it takes float16, bfloat16, float32, tfloat32, float64, int8 or uint8");
      return std::nullopt;
    }
    if (!ok) {
      diags_.error(loc(range), Diag::TileType,
                   "`ct.mma` of `" + types_.dtypeName(in) + "` tiles accumulates in " + allowed +
                       ", not `" + types_.dtypeName(out) + "`");
      return std::nullopt;
    }
    return acc.type;
  }

  TV binary(Operator op, const TV& l, const TV& r, const NodeRange& range, ExprId where) {
    if (!l.ok() || !r.ok()) return TV{};
    if (op == Operator::MatMult) {
      auto t = matmulType(l, r, range);
      if (!t) return TV{};
      lastOpType_ = types_.get(*t).element;
      return TV::value(*t);
    }
    if (l.k == TV::K::Const && r.k == TV::K::Const) {
      if (auto f = foldBinary(op, l.c, r.c)) return TV::constant(*f);
      diags_.error(loc(range), Diag::MismatchedOperandTypes, std::string(spelling(op)), l.c.repr(),
                   r.c.repr());
      return TV{};
    }
    auto shape = broadcastOf({l, r}, where);
    if (!shape) return TV{};
    auto operand = promote(l, r);
    if (operand && types_.isTFloat32(*operand)) {
      tf32Only(where);
      return TV{};
    }
    bool supported = op == Operator::Add || op == Operator::Sub || op == Operator::Mult ||
                     op == Operator::Div || op == Operator::FloorDiv || op == Operator::Mod ||
                     op == Operator::BitAnd || op == Operator::BitOr || op == Operator::BitXor ||
                     op == Operator::Pow;
    if (op == Operator::Pow && operand) {
      // `x ** k` with a constant k in 0..16: repeated multiplication in x's dtype;
      // any other exponent: a float power (integers computed in float32).
      bool smallInt = r.k == TV::K::Const && r.c.kind == ConstValue::Kind::Int &&
                      r.c.intValue >= 0 && r.c.intValue <= 16;
      TypeId dtype = *operand;
      if (types_.isBool(dtype)) dtype = types_.int32();
      if (!smallInt && !types_.isFloat(dtype)) dtype = types_.float32();
      lastOpType_ = dtype;
      return TV::value(make(dtype, *shape, l, r));
    }
    if (!operand || !supported) {
      diags_.error(loc(range), Diag::MismatchedOperandTypes, std::string(spelling(op)), describe(l),
                   describe(r));
      return TV{};
    }
    TypeId dtype = *operand;
    bool bitwise = op == Operator::BitAnd || op == Operator::BitOr || op == Operator::BitXor;
    if (bitwise && types_.isFloat(dtype)) {
      diags_.error(loc(range), Diag::MismatchedOperandTypes, std::string(spelling(op)), describe(l),
                   describe(r));
      return TV{};
    }
    if (types_.isBool(dtype) && !bitwise) dtype = types_.int32();
    if (op == Operator::Div && !types_.isFloat(dtype)) dtype = types_.float32();
    lastOpType_ = dtype;
    return TV::value(make(dtype, *shape, l, r));
  }

  // --- calls --------------------------------------------------------------

  // The arguments of a call in the order of `params`; nullopt (reported)
  // on unknown or repeated keywords, too many or missing required ones.
  std::optional<std::vector<ExprId>> bindArgs(ExprId id, const ast::Call& c, std::string_view fname,
                                              std::initializer_list<const char*> params,
                                              size_t required, ExprId self = ExprId()) {
    std::vector<ExprId> out(params.size());
    std::vector<const char*> names(params);
    size_t next = 0;
    if (self.valid()) out[next++] = self;
    for (ExprId a : ast_.list(c.args)) {
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

  // A constant bool (or int, as Python's truth) for options such as `flush_to_zero=`.
  std::optional<bool> constBool(ExprId id, const char* what) {
    TV v = checkExpr(id);
    if (!v.ok()) return std::nullopt;
    if (v.k == TV::K::Const && (v.c.kind == ConstValue::Kind::Bool || v.c.kind == ConstValue::Kind::Int)) {
      return truthOf(v.c);
    }
    diags_.error(loc(id), Diag::NotConstant, std::string(what));
    return std::nullopt;
  }

  // A `rounding_mode=` argument: a `ct.RoundingMode` member (into `mode`) or
  // None (`mode` left empty); false when reported.
  bool roundingModeArg(ExprId e, std::optional<TileFn>& mode) {
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

  // `ct.truediv(x, y, rounding_mode=None, flush_to_zero=False)`: `x / y` (typed
  // as `/`), with an IEEE rounding (RN, RZ, RM, RP: float32 and float64),
  // FULL (float32's `div.full`, about 2 ulp) or APPROX (float32's `div.approx`);
  // `flush_to_zero` flushes float32 subnormal inputs and results to zero.
  // The shape as cuTile prints it: `(16, 8)`, `()`.
  static std::string shapeText(const std::vector<int64_t>& shape) {
    std::string out = "(";
    for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + (shape.size() == 1 ? ",)" : ")");
  }

  // Whether `v`'s shape broadcasts to `shape` without enlarging it (a scalar
  // always does).
  bool broadcastsTo(const TV& v, const std::vector<int64_t>& shape) const {
    std::vector<int64_t> s = shapeOf(v);
    if (s.size() > shape.size()) return false;
    size_t off = shape.size() - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] != 1 && s[i] != shape[off + i]) return false;
    }
    return true;
  }

  // Whether values of `from` may be written into an array of `to` (NumPy's
  // same-kind rule: bool into anything, integers into integers and floats,
  // floats into floats of any width); a Python number converts when its
  // kind does.
  bool convertsTo(const TV& v, TypeId to) const {
    TypeId from;
    if (v.k == TV::K::Const) {
      if (v.c.kind == ConstValue::Kind::Bool) return true;
      if (v.c.kind == ConstValue::Kind::Int) return !types_.isBool(to);
      return types_.isFloat(to);
    }
    from = elementOf(v.type);
    if (types_.isBool(from)) return true;
    if (types_.isTFloat32(from) || types_.isTFloat32(to)) return false;
    if (types_.isInt(from)) return types_.isInt(to) || types_.isFloat(to);
    return types_.isFloat(to);
  }

  // A tile operand of `what` in `fname` that must broadcast to `shape` and
  // hold `to` values (`padding_value=`, scatter's value); false when reported.
  bool valueOperand(ExprId e, const std::string& fname, const char* what, const std::vector<int64_t>& shape,
                    TypeId to) {
    auto v = tileOrScalar(e);
    if (!v) return false;
    if (!convertsTo(*v, to)) {
      diags_.error(loc(e), Diag::TileType,
                   "`" + fname + "` cannot convert " + what + " `" + describe(*v) + "` to the array's `" +
                       nameOf(to) + "` (use `.astype`)");
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

  bool isNoneConst(ExprId e) const {
    return ast_.expr(e).kind() == ExprKind::Constant && ast_.constantOf(e).kind == ConstantKind::None;
  }

  // The array and indices of ct.gather/scatter and the atomics: `array` an
  // array, `indices` a tuple with one integer tile or scalar per array axis (a
  // 1-D array takes one alone); their broadcast shape (empty: scalar indices)
  // and the array's dtype, or nullopt (reported).
  struct IndexedTarget {
    TypeId element;
    std::vector<int64_t> shape;
  };
  std::optional<IndexedTarget> indexedTarget(ExprId array, ExprId indices, const std::string& fname) {
    TV a = checkExpr(array);
    if (!a.ok()) return std::nullopt;
    if (a.k != TV::K::Value || !types_.isArray(a.type)) {
      diags_.error(loc(array), Diag::TileType,
                   "`" + fname + "` takes an array as its first argument, found `" + describe(a) + "`");
      return std::nullopt;
    }
    const Type& at = types_.get(a.type);
    TypeId element = at.element;
    std::vector<ExprId> items;
    bool tuple = false;
    if (const auto* t = ast_.expr(indices).dyn<ast::Tuple>()) {
      tuple = true;
      for (ExprId e : ast_.list(t->elts)) items.push_back(e);
    } else {
      items.push_back(indices);
    }
    if (items.size() != at.ndim) {
      diags_.error(loc(indices), Diag::TileShape,
                   "`" + fname + "` on a " + std::to_string(at.ndim) + "-D array needs " +
                       (at.ndim == 1 ? std::string("1 index") : std::to_string(at.ndim) + " indices") +
                       ", one per axis, found " + (tuple ? std::to_string(items.size()) : "one") +
                       (at.ndim > 1 && !tuple ? " (pass a tuple)" : ""));
      return std::nullopt;
    }
    std::vector<TV> indexVals;
    for (size_t d = 0; d < items.size(); ++d) {
      TV v = checkExpr(items[d]);
      if (!v.ok()) return std::nullopt;
      bool integer = (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Int) ||
                     (v.k == TV::K::Value && (types_.isTile(v.type) || types_.isNumber(v.type)) &&
                      types_.isInt(elementOf(v.type)));
      if (!integer) {
        diags_.error(loc(items[d]), Diag::TileType,
                     "the index for axis " + std::to_string(d) + " of `" + fname +
                         "` must be an integer tile or scalar, found `" + describe(v) + "`");
        return std::nullopt;
      }
      indexVals.push_back(v);
    }
    auto shape = broadcastOf(indexVals, indices);
    if (!shape) return std::nullopt;
    return IndexedTarget{element, *shape};
  }

  // ct.gather(array, indices, /, *, mask=None, padding_value=0,
  //           check_bounds=True, latency=None) and
  // ct.scatter(array, indices, value, /, *, mask=None, check_bounds=True,
  //            latency=None): `indices` is a tuple with one integer tile or
  // scalar per array axis (a 1-D array takes one alone); their shapes
  // broadcast to the result's (scatter: the stored elements') shape, which is
  // recorded as the call's opType (a tile of the array's dtype, or the dtype
  // for scalar indices).
  TV checkGatherScatter(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname) {
    bool gather = fn == TileFn::Gather;
    size_t positional = gather ? 2 : 3;
    auto given = ast_.list(c.args);
    if (given.size() > positional) {
      diags_.error(loc(given[positional]), Diag::InvalidCall,
                   "`" + fname + "` takes " + std::to_string(positional) + " positional arguments (" +
                       (gather ? "`mask`, `padding_value`, `check_bounds` and `latency`"
                               : "`mask`, `check_bounds` and `latency`") +
                       " are keyword-only)");
      return TV{};
    }
    auto args = gather
                    ? bindArgs(id, c, fname, {"array", "indices", "mask", "padding_value", "check_bounds", "latency"}, 2)
                    : bindArgs(id, c, fname, {"array", "indices", "value", "mask", "check_bounds", "latency"}, 3);
    if (!args) return TV{};
    const size_t maskAt = gather ? 2 : 3;
    const size_t checkAt = 4;
    // `mask=None`, `padding_value=None`: as if absent.
    for (size_t i : {maskAt, size_t(3)}) {
      if ((*args)[i].valid() && isNoneConst((*args)[i]) && (i == maskAt || gather)) {
        inst_.callArguments[id.index][i] = ExprId();
        (*args)[i] = ExprId();
      }
    }
    auto target = indexedTarget((*args)[0], (*args)[1], fname);
    if (!target) return TV{};
    TypeId element = target->element;
    const std::vector<int64_t>* shape = &target->shape;
    TypeId result = shape->empty() ? element : types_.tile(element, *shape);
    if (!gather && !valueOperand((*args)[2], fname, "the value", *shape, element)) return TV{};
    if ((*args)[maskAt].valid()) {
      auto m = tileOrScalar((*args)[maskAt]);
      if (!m) return TV{};
      bool isBool = m->k == TV::K::Const ? m->c.kind == ConstValue::Kind::Bool : types_.isBool(elementOf(m->type));
      if (!isBool) {
        diags_.error(loc((*args)[maskAt]), Diag::TileType,
                     "`mask=` of `" + fname + "` must be a bool tile or scalar, found `" + describe(*m) + "`");
        return TV{};
      }
      if (!broadcastsTo(*m, *shape)) {
        diags_.error(loc((*args)[maskAt]), Diag::TileShape,
                     "the mask `" + describe(*m) + "` does not broadcast to the indices' shape " + shapeText(*shape));
        return TV{};
      }
    }
    if (gather && (*args)[3].valid() && !valueOperand((*args)[3], fname, "the padding value", *shape, element)) {
      return TV{};
    }
    if ((*args)[checkAt].valid() && !constBool((*args)[checkAt], "`check_bounds=`")) {
      return TV{};
    }
    // latency= is a scheduling hint: checked, then ignored.
    if ((*args)[5].valid() && !isNoneConst((*args)[5]) && !constInt((*args)[5], "`latency=`")) return TV{};
    inst_.opTypes[id.index] = result;
    if (gather) return record(id, TV::value(result));
    effects_ = true;
    return TV::value(types_.none());
  }

  // A `memory_order=` / `memory_scope=` argument of an atomic: a constant
  // `ct.MemoryOrder` (`ct.MemoryScope`) member that atomics take (cuTile's
  // rule: RELAXED, ACQUIRE, RELEASE or ACQ_REL; BLOCK, DEVICE or SYS); false
  // when reported.
  bool memoryArg(ExprId e, bool order, const std::string& fname) {
    TV m = checkExpr(e);
    if (!m.ok()) return false;
    const char* what = order ? "ct.MemoryOrder" : "ct.MemoryScope";
    bool member = m.k == TV::K::Entity && m.ent == Intrinsic::TileOp &&
                  (order ? isTileMemoryOrder(m.payload) : isTileMemoryScope(m.payload));
    if (!member) {
      diags_.error(loc(e), Diag::TileType,
                   std::string("`") + (order ? "memory_order" : "memory_scope") + "=` of `" + fname +
                       "` must be a constant `" + what + "` member, found `" + describe(m) + "`");
      return false;
    }
    auto which = static_cast<TileFn>(m.payload);
    if (which == TileFn::OrderWeak) {
      diags_.error(loc(e), Diag::TileType,
                   "`" + fname + "` cannot take `MemoryOrder.WEAK` (an atomic needs RELAXED, ACQUIRE, RELEASE or ACQ_REL)");
      return false;
    }
    if (which == TileFn::ScopeNone) {
      diags_.error(loc(e), Diag::TileType,
                   "`" + fname + "` cannot take `MemoryScope.NONE` (an atomic needs BLOCK, DEVICE or SYS)");
      return false;
    }
    return true;
  }

  // ct.atomic_add/max/min/and/or/xor/xchg(array, indices, update, /, *,
  // check_bounds=True, memory_order=ACQ_REL, memory_scope=DEVICE) and
  // ct.atomic_cas(array, indices, expected, desired, /, *, ...): `array` and
  // `indices` as for ct.gather; the update (expected, desired) broadcasts to
  // the indices' shape. The result, the old values, has that shape and the
  // array's dtype (recorded as the call's opType). The dtypes are cuTile's:
  // 32- and 64-bit integers for all, float32/float64 for add, xchg and cas,
  // float16 for add; the bitwise operations take an update of the array's
  // own dtype (or a Python int).
  TV checkAtomic(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname) {
    bool cas = fn == TileFn::AtomicCas;
    size_t positional = cas ? 4 : 3;
    auto given = ast_.list(c.args);
    if (given.size() > positional) {
      diags_.error(loc(given[positional]), Diag::InvalidCall,
                   "`" + fname + "` takes " + std::to_string(positional) +
                       " positional arguments (`check_bounds`, `memory_order` and `memory_scope` are keyword-only)");
      return TV{};
    }
    for (KeywordId kid : ast_.list(c.keywords)) {
      const Keyword& k = ast_.keyword(kid);
      if (!k.arg.valid()) continue;
      std::string key(ast_.str(k.arg));
      if (key == "array" || key == "indices" || key == "update" || (cas && (key == "expected" || key == "desired"))) {
        diags_.error(loc(k.value), Diag::InvalidCall, "`" + fname + "`'s `" + key + "` is positional-only");
        return TV{};
      }
    }
    auto args = cas ? bindArgs(id, c, fname,
                               {"array", "indices", "expected", "desired", "check_bounds", "memory_order", "memory_scope"}, 4)
                    : bindArgs(id, c, fname, {"array", "indices", "update", "check_bounds", "memory_order", "memory_scope"},
                               3);
    if (!args) return TV{};
    auto target = indexedTarget((*args)[0], (*args)[1], fname);
    if (!target) return TV{};
    TypeId e = target->element;
    const Type& et = types_.get(e);
    bool int3264 = et.kind == TypeKind::Int && (et.bits == 32 || et.bits == 64);
    bool float3264 = e == types_.float32() || e == types_.float64();
    bool allowed = int3264;
    const char* takes = "int32, int64, uint32 and uint64";
    if (fn == TileFn::AtomicAdd) {
      allowed = int3264 || float3264 || e == types_.floatType(16);
      takes = "int32, int64, uint32, uint64, float16, float32 and float64";
    } else if (fn == TileFn::AtomicXchg || cas) {
      allowed = int3264 || float3264;
      takes = "int32, int64, uint32, uint64, float32 and float64";
    }
    if (!allowed) {
      diags_.error(loc((*args)[0]), Diag::TileType,
                   "`" + fname + "` does not take an array of `" + nameOf(e) + "` (it takes " + takes + ")" +
                       (fn == TileFn::AtomicAdd && e == types_.bfloat16() ? "; bfloat16 is not supported by pykc yet"
                                                                          : ""));
      return TV{};
    }
    const size_t valueEnd = cas ? 4 : 3;
    const char* names[] = {"the update", "the expected value", "the desired value"};
    for (size_t i = 2; i < valueEnd; ++i) {
      const char* what = cas ? names[i - 1] : names[0];
      if (!valueOperand((*args)[i], fname, what, target->shape, e)) return TV{};
      bool bitwise = fn == TileFn::AtomicAnd || fn == TileFn::AtomicOr || fn == TileFn::AtomicXor;
      TV v = checkExpr((*args)[i]);
      if (bitwise && v.k == TV::K::Value && elementOf(v.type) != e) {
        diags_.error(loc((*args)[i]), Diag::TileType,
                     "`" + fname + "` needs an update of the array's dtype `" + nameOf(e) + "`, found `" + describe(v) +
                         "` (use `.astype`)");
        return TV{};
      }
    }
    const size_t checkAt = valueEnd;
    if ((*args)[checkAt].valid() && !constBool((*args)[checkAt], "`check_bounds=`")) return TV{};
    if ((*args)[checkAt + 1].valid() && !memoryArg((*args)[checkAt + 1], true, fname)) return TV{};
    if ((*args)[checkAt + 2].valid() && !memoryArg((*args)[checkAt + 2], false, fname)) return TV{};
    TypeId result = target->shape.empty() ? e : types_.tile(e, target->shape);
    inst_.opTypes[id.index] = result;
    effects_ = true;
    return record(id, TV::value(result));
  }

  TV checkTruediv(ExprId id, const ast::Call& c, const std::string& fname) {
    auto args = bindArgs(id, c, fname, {"x", "y", "rounding_mode", "flush_to_zero"}, 2);
    if (!args) return TV{};
    auto x = tileOrScalar((*args)[0]);
    auto y = tileOrScalar((*args)[1]);
    if (!x || !y) return TV{};
    std::optional<TileFn> mode;
    if ((*args)[2].valid() && !roundingModeArg((*args)[2], mode)) return TV{};
    if ((*args)[3].valid() && !constBool((*args)[3], "`flush_to_zero`")) return TV{};
    TV r = binary(Operator::Div, *x, *y, ast_.expr(id).range, id);
    if (!r.ok()) return TV{};
    if (r.k == TV::K::Const) return record(id, r);
    TypeId dtype = lastOpType_;
    if (mode && *mode != TileFn::RoundRn) {
      bool ieee = *mode == TileFn::RoundRz || *mode == TileFn::RoundRm || *mode == TileFn::RoundRp;
      bool ok = *mode != TileFn::RoundRzi && (dtype == types_.float32() || (ieee && dtype == types_.float64()));
      if (!ok) {
        diags_.error(loc((*args)[2]), Diag::TileUnsupported,
                     "`ct.truediv` with `rounding_mode=RoundingMode." + std::string(tileFnName(*mode)) +
                         "` on `" + nameOf(dtype) + "`",
                     *mode == TileFn::RoundRzi ? " (RZI rounds to integers; division takes RN, RZ, RM, RP, FULL or APPROX)"
                     : ieee                   ? " (float32 and float64 only)"
                                              : " (float32 only)");
        return TV{};
      }
    }
    inst_.opTypes[id.index] = dtype;
    return record(id, r);
  }

  std::optional<int64_t> constInt(ExprId id, const char* what) {
    TV v = checkExpr(id);
    if (!v.ok()) return std::nullopt;
    if (v.k == TV::K::Const && (v.c.kind == ConstValue::Kind::Int || v.c.kind == ConstValue::Kind::Bool)) {
      return v.c.kind == ConstValue::Kind::Int ? v.c.intValue : int64_t(v.c.boolValue);
    }
    diags_.error(loc(id), Diag::NotConstant, std::string(what));
    return std::nullopt;
  }

  // A tile shape: a constant int or tuple of ints, each a power of two.
  std::optional<std::vector<int64_t>> constShape(ExprId id) {
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

  std::optional<TypeId> dtypeArg(ExprId id) {
    TV v = checkExpr(id);
    if (!v.ok()) return std::nullopt;
    if (v.k == TV::K::Entity && v.ent == Intrinsic::TypeObject) {
      TypeId t{v.payload};
      if (types_.isNumber(t)) return t;
    }
    diags_.error(loc(id), Diag::TileType, "expected a dtype such as `ct.float32`, found `" + describe(v) + "`");
    return std::nullopt;
  }

  // A runtime or constant integer scalar (tile indices, axis lengths).
  bool intScalar(ExprId id, const char* what) {
    TV v = checkExpr(id);
    if (!v.ok()) return false;
    if (v.k == TV::K::Const && (v.c.kind == ConstValue::Kind::Int || v.c.kind == ConstValue::Kind::Bool)) return true;
    if (v.k == TV::K::Value && types_.isIntegral(v.type)) return true;
    diags_.error(loc(id), Diag::TileType, std::string(what) + " must be an integer, found `" + describe(v) + "`");
    return false;
  }

  // `index=`: one integer or a tuple of `ndim` integers.
  bool tileIndex(ExprId id, unsigned ndim) {
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

  // `order=` of ct.load/ct.store: a permutation of the array's axes (a tuple
  // of constants, "C" for none, "F" reversed), applied to the array before its
  // tile space is formed (cuTile's rule). Recorded on `id` as the tuple of
  // axes, which lowering reads.
  std::optional<std::vector<int64_t>> orderArg(ExprId id, unsigned ndim) {
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

  std::optional<TypeId> arrayArg(ExprId id) {
    TV v = checkExpr(id);
    if (!v.ok()) return std::nullopt;
    if (v.k == TV::K::Value && types_.isArray(v.type)) return v.type;
    diags_.error(loc(id), Diag::TileType, "expected an array, found `" + describe(v) + "`");
    return std::nullopt;
  }

  std::optional<TV> tileOrScalar(ExprId id) {
    TV v = checkExpr(id);
    if (!v.ok()) return std::nullopt;
    if (v.k == TV::K::Const && v.c.isNumber()) return v;
    if (v.k == TV::K::Value && (types_.isTile(v.type) || types_.isNumber(v.type))) return v;
    diags_.error(loc(id), Diag::TileType, "expected a tile or a number, found `" + describe(v) + "`");
    return std::nullopt;
  }

  TV checkCall(ExprId id, const ast::Call& c) {
    if (auto r = checkPlainCall(id, c)) return *r;
    TV callee = checkExpr(c.func);
    if (!callee.ok()) return TV{};
    if (callee.k != TV::K::Entity || callee.ent != Intrinsic::TileOp) {
      if (callee.k == TV::K::Entity && callee.ent == Intrinsic::TypeObject) {
        diags_.error(loc(id), Diag::TileUnsupported, "calling a dtype",
                     ": use `x.astype(" + callee.path + ")`");
      } else {
        diags_.error(loc(c.func), Diag::NotCallable, describe(callee));
      }
      return TV{};
    }
    auto fn = static_cast<TileFn>(callee.payload);
    inst_.meanings[id.index] = ExprMeaning{Intrinsic::TileOp, callee.payload};
    std::string fname = "ct." + std::string(tileFnName(fn));
    if (isTileAtomic(fn)) return checkAtomic(id, c, fn, fname);
    switch (fn) {
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
        if (shape->size() != ndim || *axis < -int64_t(ndim) || *axis >= int64_t(ndim)) {
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
        auto args = bindArgs(id, c, fname, {"array", "index", "shape", "order", "padding_mode", "latency", "allow_tma"}, 3);
        if (!args) return TV{};
        auto array = arrayArg((*args)[0]);
        if (!array) return TV{};
        const Type& at = types_.get(*array);
        bool ok = tileIndex((*args)[1], at.ndim);
        auto shape = constShape((*args)[2]);
        if (!ok || !shape) return TV{};
        if (shape->size() != at.ndim) {
          diags_.error(loc((*args)[2]), Diag::TileShape,
                       "the tile shape has " + std::to_string(shape->size()) +
                           " dimension(s), but the array has " + std::to_string(at.ndim));
          return TV{};
        }
        if ((*args)[3].valid() && !orderArg((*args)[3], at.ndim)) return TV{};
        if ((*args)[4].valid()) {
          TV p = checkExpr((*args)[4]);
          if (!p.ok()) return TV{};
          if (p.k != TV::K::Entity || p.ent != Intrinsic::TileOp || !isTilePadding(p.payload)) {
            diags_.error(loc((*args)[4]), Diag::TileType,
                         "expected a `ct.PaddingMode` member, found `" + describe(p) + "`");
            return TV{};
          }
        }
        // latency= and allow_tma= are scheduling hints: checked, then ignored.
        for (int i : {5, 6}) {
          if ((*args)[i].valid() && !constInt((*args)[i], "a load hint")) return TV{};
        }
        return record(id, TV::value(types_.tile(at.element, *shape)));
      }
      case TileFn::Store: {
        auto args = bindArgs(id, c, fname, {"array", "index", "tile", "order", "latency", "allow_tma"}, 3);
        if (!args) return TV{};
        auto array = arrayArg((*args)[0]);
        if (!array) return TV{};
        const Type& at = types_.get(*array);
        bool ok = tileIndex((*args)[1], at.ndim);
        TV t = checkExpr((*args)[2]);
        if (!ok || !t.ok()) return TV{};
        if (!isTileVal(t) || types_.get(t.type).shape.size() != at.ndim) {
          diags_.error(loc((*args)[2]), Diag::TileShape,
                       "`ct.store` needs a tile with the array's " + std::to_string(at.ndim) +
                           " dimension(s), found `" + describe(t) + "`");
          return TV{};
        }
        if ((*args)[3].valid() && !orderArg((*args)[3], at.ndim)) return TV{};
        for (int i : {4, 5}) {
          if ((*args)[i].valid() && !constInt((*args)[i], "a store hint")) return TV{};
        }
        effects_ = true;
        return TV::value(types_.none());
      }
      case TileFn::Gather:
      case TileFn::Scatter:
        return checkGatherScatter(id, c, fn, fname);
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
        auto args = bindArgs(id, c, fname, {"size", "dtype"}, 1);
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
        return record(id, TV::value(types_.tile(*dtype, *shape)));
      }
      case TileFn::Astype: {
        auto args = bindArgs(id, c, callee.self.valid() ? "astype" : fname, {"x", "dtype"}, 2, callee.self);
        if (!args) return TV{};
        auto x = tileOrScalar((*args)[0]);
        auto dtype = dtypeArg((*args)[1]);
        if (!x || !dtype) return TV{};
        if (x->k == TV::K::Const) return record(id, TV::value(*dtype));
        if (isTileVal(*x)) return record(id, TV::value(types_.tile(*dtype, types_.get(x->type).shape)));
        return record(id, TV::value(*dtype));
      }
      case TileFn::Sum:
      case TileFn::Max:
      case TileFn::Min: {
        auto r = reduction(id, c, fname);
        if (!r) return TV{};
        TypeId dtype = elementOf(r->first.type);
        if (fn == TileFn::Sum && types_.isBool(dtype)) dtype = types_.int32();
        return record(id, TV::value(types_.tile(dtype, r->second)));
      }
      case TileFn::Exp: case TileFn::Exp2: case TileFn::Log: case TileFn::Log2:
      case TileFn::Sqrt: case TileFn::Rsqrt: case TileFn::Tanh: case TileFn::Sin:
      case TileFn::Cos: case TileFn::Abs: {
        // cuTile's exp2 and rsqrt take `flush_to_zero=` (a constant bool), exp
        // `rounding_mode=` (FULL, the default, or APPROX: float32 only).
        bool ftz = fn == TileFn::Exp2 || fn == TileFn::Rsqrt;
        std::optional<std::vector<ExprId>> args;
        if (ftz) {
          args = bindArgs(id, c, fname, {"x", "flush_to_zero"}, 1);
        } else if (fn == TileFn::Exp) {
          args = bindArgs(id, c, fname, {"x", "rounding_mode"}, 1);
        } else {
          args = bindArgs(id, c, fname, {"x"}, 1);
        }
        if (!args) return TV{};
        if (ftz && (*args)[1].valid() && !constBool((*args)[1], "`flush_to_zero`")) return TV{};
        std::optional<TileFn> mode;
        if (fn == TileFn::Exp && (*args)[1].valid() && !roundingModeArg((*args)[1], mode)) return TV{};
        auto x = tileOrScalar((*args)[0]);
        if (!x) return TV{};
        TypeId dtype = x->k == TV::K::Const ? *weakType(x->c) : elementOf(x->type);
        if (types_.isTFloat32(dtype)) return tf32Only(id);
        if (fn != TileFn::Abs && !types_.isFloat(dtype)) dtype = types_.float32();
        if (types_.isBool(dtype)) dtype = types_.int32();
        if (mode && *mode != TileFn::RoundFull && !(*mode == TileFn::RoundApprox && dtype == types_.float32())) {
          diags_.error(loc((*args)[1]), Diag::TileUnsupported,
                       "`ct.exp` with `rounding_mode=RoundingMode." + std::string(tileFnName(*mode)) + "` on `" +
                           nameOf(dtype) + "`",
                       " (FULL, or APPROX on float32)");
          return TV{};
        }
        inst_.opTypes[id.index] = dtype;
        if (x->k == TV::K::Value && isTileVal(*x)) {
          return record(id, TV::value(types_.tile(dtype, types_.get(x->type).shape)));
        }
        return record(id, TV::value(dtype));
      }
      case TileFn::Truediv:
        return checkTruediv(id, c, fname);
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
        auto args = bindArgs(id, c, fname, {"x", "y"}, 2);
        if (!args) return TV{};
        auto x = tileOrScalar((*args)[0]);
        auto y = tileOrScalar((*args)[1]);
        if (!x || !y) return TV{};
        auto shape = broadcastOf({*x, *y}, id);
        auto dtype = promote(*x, *y);
        if (!shape || !dtype) return TV{};
        inst_.opTypes[id.index] = *dtype;
        return record(id, TV::value(make(*dtype, *shape, *x, *y)));
      }
      case TileFn::Mma: {
        auto args = bindArgs(id, c, fname, {"x", "y", "acc"}, 3);
        if (!args) return TV{};
        TV x = checkExpr((*args)[0]);
        TV y = checkExpr((*args)[1]);
        TV acc = checkExpr((*args)[2]);
        if (!x.ok() || !y.ok() || !acc.ok()) return TV{};
        auto t = mmaType(x, y, acc, ast_.expr(id).range);
        if (!t) return TV{};
        inst_.opTypes[id.index] = elementOf(x.type);
        return record(id, TV::value(*t));
      }
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
        return checkArgReduce(id, c, fname);
      case TileFn::Reshape:
      case TileFn::Permute:
      case TileFn::Transpose:
      case TileFn::BroadcastTo:
      case TileFn::ExpandDims:
        return checkShapeOp(id, c, fn, fname, callee.self);
      default:
        diags_.error(loc(id), Diag::TileUnsupported, "`" + fname + "`", " inside a kernel");
        return TV{};
    }
  }

  // --- helper functions, tuples, dtypes as values (docs/TILE.md) ----------

  // `return x` in a helper: collected; helperResult() merges them.
  void checkHelperReturn(StmtId id, const ast::Return& r) {
    if (!r.value.valid()) {
      returns_.emplace_back(TV::value(types_.none()), id);
      return;
    }
    TV v = checkExpr(r.value);
    if (!v.ok()) {
      returnFailed_ = true;
      return;
    }
    returns_.emplace_back(v, id);
  }

  // The runtime type a constant takes when it meets runtime values (numbers
  // by cuTile's rule, tuples elementwise), or nullopt.
  std::optional<TypeId> runtimeTypeOf(const ConstValue& c) {
    if (c.kind != ConstValue::Kind::Tuple) return weakType(c);
    std::vector<TypeId> elements;
    for (const ConstValue& e : c.elements) {
      auto t = runtimeTypeOf(e);
      if (!t || types_.isTuple(*t)) return std::nullopt;
      elements.push_back(*t);
    }
    return types_.tuple(elements);
  }

  // What a helper call gives: nothing (none), one constant or dtype when
  // every return gives the same one and the helper stores nothing, else the
  // one runtime type of its returns (constants converted to it).
  TV helperResult() {
    if (returnFailed_) return TV{};
    if (returns_.empty()) return TV::value(types_.none());
    const TV& first = returns_[0].first;
    bool same = true;
    for (const auto& [v, where] : returns_) {
      same = same && v.k == first.k;
      if (!same) break;
      if (v.k == TV::K::Const) same = v.c.kind == first.c.kind && v.c.repr() == first.c.repr();
      if (v.k == TV::K::Entity) same = v.ent == first.ent && v.payload == first.payload && v.path == first.path;
      if (v.k == TV::K::Value) same = v.type == first.type;
    }
    if (same && (first.k == TV::K::Entity || (first.k == TV::K::Const && !effects_) ||
                 first.k == TV::K::Value)) {
      return first;
    }
    std::optional<TypeId> t;
    for (const auto& [v, where] : returns_) {
      if (v.k == TV::K::Entity) {
        diags_.error(loc(ast_.stmt(where).range), Diag::TileType,
                     "a helper that returns `" + v.path + "` must return it from every `return`");
        return TV{};
      }
      if (v.k != TV::K::Value) continue;
      if (t && *t != v.type) {
        diags_.error(loc(ast_.stmt(where).range), Diag::TileType,
                     "`" + fn_.name + "` returns `" + nameOf(v.type) + "` here but `" + nameOf(*t) +
                         "` before: a helper function returns one type");
        return TV{};
      }
      t = v.type;
    }
    for (const auto& [v, where] : returns_) {
      if (v.k != TV::K::Const) continue;
      auto ct = runtimeTypeOf(v.c);
      if (!ct) {
        diags_.error(loc(ast_.stmt(where).range), Diag::TileType,
                     "cannot return `" + v.c.repr() + "` from a tile helper function");
        return TV{};
      }
      if (!t) {
        t = ct;
      } else if (types_.isTuple(*t) != types_.isTuple(*ct) ||
                 (types_.isTuple(*t) && types_.get(*t).elements.size() != types_.get(*ct).elements.size())) {
        diags_.error(loc(ast_.stmt(where).range), Diag::TileType,
                     "`" + fn_.name + "` returns `" + v.c.repr() + "` here but `" + nameOf(*t) +
                         "` elsewhere: a helper function returns one type");
        return TV{};
      } else if (!types_.isTuple(*t) && types_.isNumber(*t) && types_.isNumber(*ct)) {
        t = promoteDtypes(*t, *ct);
      }
    }
    return TV::value(*t);
  }

  // `a, b = value`: a tuple constant or a tuple of runtime values, unpacked.
  void assignTuple(ExprId target, const TV& v, ExprId valueExpr) {
    auto names = ast_.list(ast_.expr(target).as<ast::Tuple>().elts);
    size_t n = names.size();
    if (!v.ok()) {
      for (ExprId e : names) assign(e, v, valueExpr);
      return;
    }
    if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Tuple && v.c.elements.size() == n) {
      for (size_t i = 0; i < n; ++i) assign(names[i], TV::constant(v.c.elements[i]), valueExpr);
      return;
    }
    if (v.k == TV::K::Value && types_.isTuple(v.type) && types_.get(v.type).elements.size() == n) {
      std::vector<TypeId> elements = types_.get(v.type).elements;
      record(target, v);
      for (size_t i = 0; i < n; ++i) assign(names[i], TV::value(elements[i]), valueExpr);
      return;
    }
    diags_.error(loc(valueExpr), Diag::TileType,
                 "cannot unpack `" + describe(v) + "` into " + std::to_string(n) + " names");
  }

  // `dtype = ct.float16`, `pad = ct.PaddingMode.ZERO`: a compile-time alias,
  // outside runtime loops and branches. Returns false (not handled) for other
  // entities, which assign() reports.
  bool assignEntity(ExprId target, const std::string& name, const TV& v) {
    if (v.ent != Intrinsic::TypeObject && v.ent != Intrinsic::TileOp) return false;
    if (depthNow_ > 0 || vars_.count(name)) {
      diags_.error(loc(target), Diag::TileType,
                   "`" + name + "` holds `" + v.path +
                       "`, a compile-time value: assign it outside runtime loops and branches, "
                       "and not to a name that holds a runtime value");
      return true;
    }
    consts_.erase(name);
    entities_[name] = v;
    record(target, v);
    return true;
  }

  // `(a, b)` with runtime elements: a tuple value (helpers return them, and
  // `a, b = ...` unpacks them).
  TV runtimeTuple(ExprId id, const ast::Tuple& t) {
    std::vector<TypeId> elements;
    for (ExprId elt : ast_.list(t.elts)) {
      TV v = checkExpr(elt);
      std::optional<TypeId> et;
      if (v.k == TV::K::Const) {
        et = weakType(v.c);
      } else if (v.k == TV::K::Value && (types_.isNumber(v.type) || types_.isTile(v.type))) {
        et = v.type;
      }
      if (!et) {
        diags_.error(loc(elt), Diag::TileType,
                     "a tuple of runtime values holds numbers and tiles, found `" + describe(v) + "`");
        return TV{};
      }
      elements.push_back(*et);
    }
    return record(id, TV::value(types_.tuple(elements)));
  }

  // `A.dtype == ct.float32`, `mode is ct.PaddingMode.ZERO`: decided at compile time.
  TV compareEntities(ExprId id, CmpOp op, const TV& l, const TV& r) {
    bool eqOp = op == CmpOp::Eq || op == CmpOp::Is;
    bool neOp = op == CmpOp::NotEq || op == CmpOp::IsNot;
    if (!eqOp && !neOp) {
      diags_.error(loc(id), Diag::MismatchedOperandTypes, std::string(spelling(op)), describe(l),
                   describe(r));
      return TV{};
    }
    bool same = l.k == r.k && l.ent == r.ent && l.payload == r.payload &&
                (l.ent != Intrinsic::Module || l.path == r.path);
    return record(id, TV::constant(ConstValue::ofBool(eqOp ? same : !same)));
  }

  // `x if c else y`: with a compile-time `c` only the chosen side is typed;
  // with a runtime scalar `c`, both sides meet as in `ct.where`.
  TV checkIfExp(ExprId id, const ast::IfExp& e) {
    TV c = checkExpr(e.test);
    if (!c.ok()) return TV{};
    if (c.k == TV::K::Const) return record(id, checkExpr(truthOf(c.c) ? e.body : e.orelse));
    if (c.k != TV::K::Value || !types_.isNumber(c.type)) {
      diags_.error(loc(e.test), Diag::TileType,
                   "the condition of `x if c else y` must be a scalar, found `" + describe(c) +
                       "` (use `ct.where` for tiles)");
      return TV{};
    }
    std::optional<TV> x = checkExpr(e.body);
    std::optional<TV> y = checkExpr(e.orelse);
    if (!x->ok() || !y->ok()) return TV{};
    for (const TV* side : {&*x, &*y}) {
      if (side->k == TV::K::Entity) {
        diags_.error(loc(e.test), Diag::NotConstant,
                     "the condition choosing between `" + describe(*x) + "` and `" + describe(*y) + "`");
        return TV{};
      }
    }
    for (auto [side, where] : {std::pair{&*x, e.body}, std::pair{&*y, e.orelse}}) {
      bool number = (side->k == TV::K::Const && side->c.isNumber()) ||
                    (side->k == TV::K::Value && (types_.isTile(side->type) || types_.isNumber(side->type)));
      if (!number) {
        diags_.error(loc(where), Diag::TileType, "expected a tile or a number, found `" + describe(*side) + "`");
        return TV{};
      }
    }
    auto shape = broadcastOf({*x, *y}, id);
    auto dtype = promote(*x, *y);
    if (!shape || !dtype) return TV{};
    inst_.opTypes[id.index] = *dtype;
    return record(id, TV::value(make(*dtype, *shape, *x, *y)));
  }

  // `a and b`, `a or b`: constants fold (Python's value); runtime scalars
  // give a bool (both sides are evaluated: tile expressions have no effects).
  TV checkBoolOp(ExprId id, const ast::BoolOp& b) {
    auto values = ast_.list(b.values);
    std::vector<TV> vs;
    bool allConst = true;
    for (ExprId v : values) {
      TV x = checkExpr(v);
      if (!x.ok()) return TV{};
      if (x.k == TV::K::Const) {
        // Python's short circuit on a constant decides the value.
        bool t = truthOf(x.c);
        if (allConst && ((b.op == BoolOpKind::And && !t) || (b.op == BoolOpKind::Or && t))) {
          return record(id, x);
        }
      } else if (x.k == TV::K::Value && types_.isNumber(x.type)) {
        allConst = false;
      } else {
        diags_.error(loc(v), Diag::TileType,
                     "`and`/`or` take scalars in tile kernels, found `" + describe(x) + "`");
        return TV{};
      }
      vs.push_back(x);
    }
    if (allConst) return record(id, vs.back());
    inst_.opTypes[id.index] = types_.boolean();
    return record(id, TV::value(types_.boolean()));
  }

  // `t[:, None]`, `t[None, ...]`: insert axes of length 1 (ct.expand_dims).
  TV checkTileSubscript(ExprId id, const ast::Subscript& sub, const TV& base) {
    std::vector<ExprId> items;
    if (const auto* t = ast_.expr(sub.slice).dyn<ast::Tuple>()) {
      for (ExprId e : ast_.list(t->elts)) items.push_back(e);
    } else {
      items.push_back(sub.slice);
    }
    const std::vector<int64_t>& in = types_.get(base.type).shape;
    std::vector<int64_t> out;
    size_t next = 0;
    size_t fixed = 0;
    bool ellipsis = false;
    for (ExprId e : items) {
      if (const auto* sl = ast_.expr(e).dyn<ast::Slice>()) {
        if (sl->lower.valid() || sl->upper.valid() || sl->step.valid()) fixed = SIZE_MAX;
        ++fixed;
      } else if (ast_.expr(e).is<ast::Constant>() && ast_.constantOf(e).kind == ConstantKind::Ellipsis) {
        if (ellipsis) fixed = SIZE_MAX;
        ellipsis = true;
      } else if (!(ast_.expr(e).is<ast::Constant>() && ast_.constantOf(e).kind == ConstantKind::None)) {
        fixed = SIZE_MAX;
      }
      if (fixed == SIZE_MAX) break;
    }
    if (fixed == SIZE_MAX || fixed > in.size() || (!ellipsis && fixed != in.size())) {
      diags_.error(loc(id), Diag::TileUnsupported, "this indexing of `" + describe(base) + "`",
                   ": tiles take `None`, `:` and `...` only (`t[:, None]` adds an axis)");
      return TV{};
    }
    for (ExprId e : items) {
      if (ast_.expr(e).is<ast::Slice>()) {
        out.push_back(in[next++]);
      } else if (ast_.constantOf(e).kind == ConstantKind::Ellipsis) {
        size_t take = in.size() - fixed;
        for (size_t k = 0; k < take; ++k) out.push_back(in[next++]);
      } else {
        out.push_back(1);
      }
    }
    inst_.meanings[id.index] = ExprMeaning{Intrinsic::TileOp, static_cast<uint32_t>(TileFn::ExpandDims)};
    return record(id, TV::value(types_.tile(types_.get(base.type).element, out)));
  }

  // A call of a plain module-level function (a helper) or of the builtins
  // min/max/abs/int/float; nullopt for anything else.
  std::optional<TV> checkPlainCall(ExprId id, const ast::Call& c) {
    const auto* n = ast_.expr(c.func).dyn<ast::Name>();
    if (n == nullptr) return std::nullopt;
    std::string name(ast_.str(n->id));
    if (consts_.count(name) || vars_.count(name) || entities_.count(name) || assigned_.count(name)) {
      return std::nullopt;
    }
    auto it = module_.globals.find(name);
    if (it != module_.globals.end()) {
      if (it->second.kind != Intrinsic::HostValue || it->second.payload != 1) return std::nullopt;
      for (StmtId sid : ast_.module()) {
        const ast::FunctionDef* def = ast_.stmt(sid).functionDef();
        if (def != nullptr && ast_.str(def->name) == name) return checkHelperCall(id, c, sid, name);
      }
      return std::nullopt;
    }
    if (name == "min" || name == "max" || name == "abs" || name == "int" || name == "float") {
      return checkBuiltin(id, c, name);
    }
    return std::nullopt;
  }

  // The module.functions entry of helper `def` (added on first call).
  uint32_t helperFunction(StmtId def, const std::string& name) {
    for (uint32_t i = 0; i < module_.functions.size(); ++i) {
      if (module_.functions[i].tileHelper && module_.functions[i].stmt == def) return i;
    }
    JitFunction f;
    f.name = name;
    f.stmt = def;
    f.device = true;
    f.tile = true;
    f.tileHelper = true;
    f.location = loc(ast_.stmt(def).range);
    const Arguments& args = ast_.arguments(ast_.stmt(def).functionDef()->args);
    for (ArgId a : ast_.list(args.args)) f.params.push_back(std::string(ast_.str(ast_.arg(a).arg)));
    module_.functions.push_back(std::move(f));
    return static_cast<uint32_t>(module_.functions.size() - 1);
  }

  // A name for an instance's arguments (symbols and de-duplication).
  std::string argCode(const TV& v) const {
    std::string s;
    switch (v.k) {
      case TV::K::Value: {
        const Type& t = types_.get(v.type);
        if (t.kind != TypeKind::Tile) return types_.abiCode(v.type);
        s = "T" + types_.abiCode(t.element);
        for (int64_t d : t.shape) s += "x" + std::to_string(d);
        return s;
      }
      case TV::K::Const: s = "K" + v.c.repr(); break;
      case TV::K::Entity: s = "E" + v.path; break;
      case TV::K::Bad: return "?";
    }
    for (char& ch : s) {
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    }
    return s;
  }

  // `f(args)` where `f` is a plain `def` of the module: typed for these
  // arguments (one instance per distinct argument types and constants) and
  // inlined where it is called (lowering).
  TV checkHelperCall(ExprId id, const ast::Call& c, StmtId defStmt, const std::string& name) {
    const Arguments& args = ast_.arguments(ast_.stmt(defStmt).functionDef()->args);
    if (!args.posonlyargs.empty() || args.vararg.valid() || !args.kwonlyargs.empty() ||
        args.kwarg.valid()) {
      diags_.error(loc(c.func), Diag::TileUnsupported,
                   "calling `" + name + "`, which takes `*args`, keyword-only or `**kwargs` parameters", "");
      return TV{};
    }
    if (ast_.stmt(defStmt).isAsync()) {
      diags_.error(loc(c.func), Diag::TileUnsupported, "calling `async def " + name + "`", "");
      return TV{};
    }
    uint32_t function = helperFunction(defStmt, name);
    std::vector<std::string> params = module_.functions[function].params;
    if (std::find(helpers_.stack.begin(), helpers_.stack.end(), function) != helpers_.stack.end()) {
      diags_.error(loc(id), Diag::TileRecursion, name);
      return TV{};
    }
    std::vector<ExprId> bound(params.size());
    size_t next = 0;
    for (ExprId a : ast_.list(c.args)) {
      if (next >= bound.size()) {
        diags_.error(loc(a), Diag::InvalidCall,
                     "`" + name + "` takes " + std::to_string(bound.size()) + " argument(s)");
        return TV{};
      }
      bound[next++] = a;
    }
    for (KeywordId kid : ast_.list(c.keywords)) {
      const Keyword& k = ast_.keyword(kid);
      std::string key = k.arg.valid() ? std::string(ast_.str(k.arg)) : "**";
      auto it = std::find(params.begin(), params.end(), key);
      if (it == params.end()) {
        diags_.error(loc(k.range), Diag::InvalidCall, "`" + name + "` has no parameter `" + key + "`");
        return TV{};
      }
      size_t i = static_cast<size_t>(it - params.begin());
      if (bound[i].valid()) {
        diags_.error(loc(k.range), Diag::InvalidCall, "`" + name + "` got `" + key + "` twice");
        return TV{};
      }
      bound[i] = k.value;
    }
    auto defaults = ast_.list(args.defaults);
    size_t firstDefault = params.size() - defaults.size();
    std::vector<TV> values;
    for (size_t i = 0; i < params.size(); ++i) {
      TV v;
      if (!bound[i].valid() && i >= firstDefault) {
        // A default: a module-level constant expression (or a dtype).
        bound[i] = defaults[i - firstDefault];
        if (auto folded = foldConstant(ast_, bound[i], module_)) {
          v = record(bound[i], TV::constant(*folded));
        } else {
          v = checkExpr(bound[i]);
        }
      } else if (!bound[i].valid()) {
        diags_.error(loc(id), Diag::InvalidCall, "`" + name + "` needs its `" + params[i] + "` argument");
        return TV{};
      } else {
        v = checkExpr(bound[i]);
      }
      if (!v.ok()) return TV{};
      bool passable = v.k == TV::K::Const ||
                      (v.k == TV::K::Value && !types_.isTuple(v.type)) ||
                      (v.k == TV::K::Entity && (v.ent == Intrinsic::TypeObject || v.ent == Intrinsic::TileOp));
      if (!passable) {
        diags_.error(loc(bound[i]), Diag::TileType,
                     "cannot pass `" + describe(v) + "` to a helper function");
        return TV{};
      }
      values.push_back(v);
    }
    std::string key = std::to_string(function);
    for (const TV& v : values) key += "," + argCode(v) + (v.k == TV::K::Const ? "=" + v.c.repr() : "");
    inst_.callArguments[id.index] = bound;
    auto done = helpers_.done.find(key);
    if (done == helpers_.done.end()) {
      FunctionInstance h;
      h.function = function;
      h.tile = true;
      helpers_.stack.push_back(function);
      TileChecker child(ast_, module_, h, diags_, helpers_);
      HelperContext::Done d;
      d.result = child.runHelper(values);
      d.effects = child.effects();
      helpers_.stack.pop_back();
      h.symbol = name;
      for (const TV& v : values) h.symbol += "__" + argCode(v);
      d.index = static_cast<int32_t>(helpers_.out.size());
      helpers_.out.push_back(std::move(h));
      done = helpers_.done.emplace(key, d).first;
    }
    if (!done->second.result.ok()) return TV{};
    effects_ = effects_ || done->second.effects;
    inst_.callees[id.index] = done->second.index;
    return record(id, done->second.result);
  }

  // min(a, b, ...), max(...) on scalars (Python's order: the first of equal
  // values; a NaN first stays), abs(x) (as ct.abs), int(x), float(x).
  TV checkBuiltin(ExprId id, const ast::Call& c, const std::string& name) {
    auto args = ast_.list(c.args);
    if (!c.keywords.empty() || args.empty() || ((name == "abs" || name == "int" || name == "float") && args.size() != 1) ||
        ((name == "min" || name == "max") && args.size() < 2)) {
      diags_.error(loc(id), Diag::InvalidCall,
                   "`" + name + "` takes " +
                       (name == "min" || name == "max" ? "two or more scalars or tiles"
                        : name == "abs"                ? "one scalar or tile"
                                                       : "one scalar") +
                       " in tile kernels");
      return TV{};
    }
    std::vector<TV> vals;
    bool allConst = true;
    for (ExprId a : args) {
      TV v = checkExpr(a);
      if (!v.ok()) return TV{};
      bool tileOk = (name == "abs" || name == "min" || name == "max") && isTileVal(v);
      if (!(v.k == TV::K::Const && v.c.isNumber()) &&
          !(v.k == TV::K::Value && (types_.isNumber(v.type) || tileOk))) {
        diags_.error(loc(a), Diag::TileType,
                     "`" + name + "` takes scalars in tile kernels, found `" + describe(v) + "`" +
                         (isTileVal(v) ? " (use `ct.astype`)" : ""));
        return TV{};
      }
      allConst = allConst && v.k == TV::K::Const;
      vals.push_back(v);
    }
    inst_.callArguments[id.index] = std::vector<ExprId>(args.begin(), args.end());
    if (name == "min" || name == "max") {
      bool isMax = name == "max";
      if (allConst) {
        ConstValue best = vals[0].c;
        for (size_t i = 1; i < vals.size(); ++i) {
          auto better = foldCompare(isMax ? CmpOp::Gt : CmpOp::Lt, vals[i].c, best);
          if (better && better->boolValue) best = vals[i].c;
        }
        return record(id, TV::constant(best));
      }
      // On tiles (cuTile's samples: `max(m_i, row_max)`): elementwise, with
      // broadcasting, by the same rule per element.
      TV acc = vals[0];
      std::optional<TypeId> dtype;
      for (size_t i = 1; i < vals.size(); ++i) {
        dtype = promote(acc, vals[i]);
        if (!dtype) return TV{};
        acc = TV::value(*dtype);
      }
      auto shape = broadcastOf(vals, id);
      if (!shape) return TV{};
      if (types_.isBool(*dtype)) dtype = types_.int32();
      inst_.opTypes[id.index] = *dtype;
      inst_.meanings[id.index] = ExprMeaning{isMax ? Intrinsic::Max : Intrinsic::Min, 0};
      bool tile = std::any_of(vals.begin(), vals.end(), [&](const TV& v) { return isTileVal(v); });
      return record(id, TV::value(tile ? types_.tile(*dtype, *shape) : *dtype));
    }
    const TV& x = vals[0];
    if (name == "abs") {
      if (x.k == TV::K::Const) {
        if (x.c.kind == ConstValue::Kind::Float) return record(id, TV::constant(ConstValue::ofFloat(std::fabs(x.c.floatValue))));
        int64_t i = x.c.kind == ConstValue::Kind::Int ? x.c.intValue : int64_t(x.c.boolValue);
        return record(id, TV::constant(ConstValue::ofInt(i < 0 ? -i : i)));
      }
      TypeId dtype = elementOf(x.type);
      if (types_.isBool(dtype)) dtype = types_.int32();
      inst_.opTypes[id.index] = dtype;
      inst_.meanings[id.index] = ExprMeaning{Intrinsic::TileOp, static_cast<uint32_t>(TileFn::Abs)};
      return record(id, TV::value(isTileVal(x) ? types_.tile(dtype, types_.get(x.type).shape) : dtype));
    }
    bool toInt = name == "int";
    if (x.k == TV::K::Const) {
      if (toInt) {
        int64_t i = x.c.kind == ConstValue::Kind::Float  ? static_cast<int64_t>(x.c.floatValue)
                    : x.c.kind == ConstValue::Kind::Int ? x.c.intValue
                                                        : int64_t(x.c.boolValue);
        return record(id, TV::constant(ConstValue::ofInt(i)));
      }
      double d = x.c.kind == ConstValue::Kind::Float ? x.c.floatValue
                 : x.c.kind == ConstValue::Kind::Int ? static_cast<double>(x.c.intValue)
                                                     : (x.c.boolValue ? 1.0 : 0.0);
      return record(id, TV::constant(ConstValue::ofFloat(d)));
    }
    // int(): integers keep their type, others give int32; float(): float32
    // (cuTile's default float), float64 stays.
    TypeId dtype;
    if (toInt) {
      dtype = types_.isInt(x.type) ? x.type : types_.int32();
    } else {
      dtype = types_.isFloat(x.type) && !types_.isTFloat32(x.type) ? x.type : types_.float32();
    }
    inst_.meanings[id.index] = ExprMeaning{Intrinsic::TileOp, static_cast<uint32_t>(TileFn::Astype)};
    return record(id, TV::value(dtype));
  }

  // An `axis=` of a reduction: all axes (None or absent) or one.
  std::optional<std::vector<bool>> reducedAxes(ExprId axisExpr, const TV& x) {
    size_t nd = types_.get(x.type).shape.size();
    std::vector<bool> reduced(nd, true);
    if (!axisExpr.valid()) return reduced;
    TV axis = checkExpr(axisExpr);
    if (!axis.ok()) return std::nullopt;
    if (axis.k == TV::K::Const && axis.c.kind == ConstValue::Kind::None) return reduced;
    if (axis.k != TV::K::Const || axis.c.kind != ConstValue::Kind::Int) {
      diags_.error(loc(axisExpr), Diag::NotConstant, "the axis (an integer or None)");
      return std::nullopt;
    }
    int64_t a = axis.c.intValue;
    int64_t n = static_cast<int64_t>(nd);
    if (a < -n || a >= n) {
      diags_.error(loc(axisExpr), Diag::TileShape,
                   "axis " + std::to_string(a) + " is out of range for `" + describe(x) + "`");
      return std::nullopt;
    }
    reduced.assign(nd, false);
    reduced[static_cast<size_t>(a < 0 ? a + n : a)] = true;
    return reduced;
  }

  // A reduction's operand and result shape: `x` a tile (not tfloat32),
  // `axis` None/absent or one constant axis, `keepdims` a constant.
  std::optional<std::pair<TV, std::vector<int64_t>>> reduction(ExprId id, const ast::Call& c,
                                                                const std::string& fname) {
    auto args = bindArgs(id, c, fname, {"x", "axis", "keepdims"}, 1);
    if (!args) return std::nullopt;
    TV x = checkExpr((*args)[0]);
    if (!x.ok()) return std::nullopt;
    if (!isTileVal(x)) {
      diags_.error(loc((*args)[0]), Diag::TileType, "`" + fname + "` reduces a tile, found `" + describe(x) + "`");
      return std::nullopt;
    }
    if (types_.isTFloat32(elementOf(x.type))) {
      tf32Only(id);
      return std::nullopt;
    }
    auto reduced = reducedAxes((*args)[1], x);
    if (!reduced) return std::nullopt;
    bool keepdims = false;
    if ((*args)[2].valid()) {
      auto k = constInt((*args)[2], "`keepdims`");
      if (!k) return std::nullopt;
      keepdims = *k != 0;
    }
    const std::vector<int64_t>& shape = types_.get(x.type).shape;
    std::vector<int64_t> out;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (!(*reduced)[i]) {
        out.push_back(shape[i]);
      } else if (keepdims) {
        out.push_back(1);
      }
    }
    return std::make_pair(x, out);
  }

  // ct.argmax / ct.argmin(x, axis=None, keepdims=False): int32 indices
  // (row-major flat indices when axis is None), as NumPy.
  TV checkArgReduce(ExprId id, const ast::Call& c, const std::string& fname) {
    auto r = reduction(id, c, fname);
    if (!r) return TV{};
    return record(id, TV::value(types_.tile(types_.int32(), r->second)));
  }

  TV tf32Only(ExprId id) {
    diags_.error(loc(id), Diag::TileType,
                 "tfloat32 tiles are `ct.mma` operands only: convert with `.astype(ct.float32)` first");
    return TV{};
  }

  // A tuple of constant integers (`axes`, `shape`), or nullopt (reported).
  std::optional<std::vector<int64_t>> constInts(ExprId id, const char* what) {
    TV v = checkExpr(id);
    if (!v.ok()) return std::nullopt;
    std::vector<int64_t> out;
    if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Int) return std::vector<int64_t>{v.c.intValue};
    if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Tuple) {
      for (const ConstValue& e : v.c.elements) {
        if (e.kind != ConstValue::Kind::Int) break;
        out.push_back(e.intValue);
      }
      if (out.size() == v.c.elements.size()) return out;
    }
    diags_.error(loc(id), Diag::NotConstant, std::string(what) + " (a tuple of integers)");
    return std::nullopt;
  }

  // reshape, permute, transpose, broadcast_to, expand_dims (functions, and
  // the first three as tile methods).
  TV checkShapeOp(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname, ExprId self) {
    std::string name = self.valid() ? std::string(tileFnName(fn)) : fname;
    std::optional<std::vector<ExprId>> args;
    switch (fn) {
      case TileFn::Reshape:
      case TileFn::BroadcastTo: args = bindArgs(id, c, name, {"x", "shape"}, 2, self); break;
      case TileFn::Permute: args = bindArgs(id, c, name, {"x", "axes"}, 2, self); break;
      case TileFn::Transpose: args = bindArgs(id, c, name, {"x", "axis0", "axis1"}, 1, self); break;
      default: args = bindArgs(id, c, name, {"x", "axis"}, 2, self); break;
    }
    if (!args) return TV{};
    TV x = checkExpr((*args)[0]);
    if (!x.ok()) return TV{};
    if (!isTileVal(x)) {
      diags_.error(loc((*args)[0]), Diag::TileType, "`" + name + "` takes a tile, found `" + describe(x) + "`");
      return TV{};
    }
    TypeId dtype = types_.get(x.type).element;
    std::vector<int64_t> in = types_.get(x.type).shape;
    int64_t n = static_cast<int64_t>(in.size());
    int64_t count = 1;
    for (int64_t d : in) count *= d;
    std::vector<int64_t> out;
    auto fail = [&](ExprId where, const std::string& message) {
      diags_.error(loc(where), Diag::TileShape, message);
      return TV{};
    };
    switch (fn) {
      case TileFn::Reshape: {
        auto shape = constInts((*args)[1], "the shape");
        if (!shape) return TV{};
        int64_t known = 1;
        int64_t infer = -1;
        for (size_t i = 0; i < shape->size(); ++i) {
          int64_t d = (*shape)[i];
          if (d == -1 && infer < 0) {
            infer = static_cast<int64_t>(i);
          } else if (!isPow2(d)) {
            return fail((*args)[1], "tile dimensions must be powers of two (one may be -1), found " + std::to_string(d));
          } else {
            known *= d;
          }
        }
        out = *shape;
        if (infer >= 0 && known <= count) out[static_cast<size_t>(infer)] = count / known;
        int64_t total = 1;
        for (int64_t d : out) total *= d;
        if (total != count) {
          return fail((*args)[1], "cannot reshape `" + describe(x) + "` (" + std::to_string(count) +
                                      " elements) to " + ConstValue(constOfShape(*shape)).repr());
        }
        break;
      }
      case TileFn::Permute: {
        auto axes = constInts((*args)[1], "the axes");
        if (!axes) return TV{};
        std::vector<bool> seen(in.size(), false);
        bool ok = static_cast<int64_t>(axes->size()) == n;
        for (int64_t a : *axes) {
          if (!ok) break;
          if (a < 0) a += n;
          ok = a >= 0 && a < n && !seen[static_cast<size_t>(a)];
          if (ok) {
            seen[static_cast<size_t>(a)] = true;
            out.push_back(in[static_cast<size_t>(a)]);
          }
        }
        if (!ok) return fail((*args)[1], "the axes must be a permutation of the " + std::to_string(n) + " axes of `" + describe(x) + "`");
        break;
      }
      case TileFn::Transpose: {
        int64_t a0 = 0;
        int64_t a1 = 1;
        if ((*args)[1].valid() != (*args)[2].valid() || (!(*args)[1].valid() && n != 2)) {
          return fail(id, "`" + name + "` of a " + std::to_string(n) +
                              "-d tile needs both `axis0` and `axis1` (only 2-d tiles default to swapping their axes)");
        }
        if ((*args)[1].valid()) {
          auto x0 = constInt((*args)[1], "`axis0`");
          auto x1 = constInt((*args)[2], "`axis1`");
          if (!x0 || !x1) return TV{};
          a0 = *x0 < 0 ? *x0 + n : *x0;
          a1 = *x1 < 0 ? *x1 + n : *x1;
          if (a0 < 0 || a0 >= n || a1 < 0 || a1 >= n) return fail(id, "the axes are out of range for `" + describe(x) + "`");
        }
        out = in;
        std::swap(out[static_cast<size_t>(a0)], out[static_cast<size_t>(a1)]);
        break;
      }
      case TileFn::BroadcastTo: {
        auto shape = constShape((*args)[1]);
        if (!shape) return TV{};
        out = *shape;
        bool ok = out.size() >= in.size();
        for (size_t i = 0; ok && i < in.size(); ++i) {
          int64_t have = in[in.size() - 1 - i];
          ok = have == 1 || have == out[out.size() - 1 - i];
        }
        if (!ok) return fail((*args)[1], "cannot broadcast `" + describe(x) + "` to " + ConstValue(constOfShape(out)).repr());
        break;
      }
      default: {
        auto axis = constInt((*args)[1], "the axis");
        if (!axis) return TV{};
        int64_t a = *axis < 0 ? *axis + n + 1 : *axis;
        if (a < 0 || a > n) return fail((*args)[1], "axis " + std::to_string(*axis) + " is out of range for `" + describe(x) + "`");
        out = in;
        out.insert(out.begin() + a, 1);
        break;
      }
    }
    return record(id, TV::value(types_.tile(dtype, out)));
  }

  static ConstValue constOfShape(const std::vector<int64_t>& shape) {
    ConstValue v;
    v.kind = ConstValue::Kind::Tuple;
    for (int64_t d : shape) v.elements.push_back(ConstValue::ofInt(d));
    return v;
  }

  const Ast& ast_;
  ResolvedModule& module_;
  TypeTable& types_;
  FunctionInstance& inst_;
  DiagnosticSink& diags_;
  // A copy: checking a helper call may append to module_.functions.
  const JitFunction fn_;
  HelperContext& helpers_;
  // Names bound to dtypes or padding modes (`dtype = ct.float16`).
  std::map<std::string, TV> entities_;
  // A helper function: its return statements' values.
  bool helperMode_ = false;
  std::vector<std::pair<TV, StmtId>> returns_;
  bool returnFailed_ = false;
  // Whether the function stores to memory (then a call is never folded away).
  bool effects_ = false;
  std::map<std::string, TypeId> vars_;
  // The loop/branch depth at which each variable got its current type.
  std::map<std::string, int> depth_;
  int depthNow_ = 0;
  std::map<std::string, ConstValue> consts_;
  std::map<std::string, int> assigned_;
  std::set<std::string> failed_;
  TypeId lastOpType_;
};

TV TileChecker::runHelper(const std::vector<TV>& args) {
  helperMode_ = true;
  initTables();
  const ast::FunctionDef& def = *ast_.stmt(fn_.stmt).functionDef();
  countAssignments(ast_.list(def.body));
  std::string params;
  inst_.argTypes.assign(args.size(), TypeId());
  for (size_t i = 0; i < args.size() && i < fn_.params.size(); ++i) {
    const std::string& p = fn_.params[i];
    TV a = args[i];
    // A constant rebound in a loop of the helper becomes a runtime variable.
    if (a.k == TV::K::Const && assigned_[p] > 1) {
      if (auto t = weakType(a.c)) a = TV::value(*t);
    }
    std::string text;
    switch (a.k) {
      case TV::K::Const:
        consts_[p] = a.c;
        text = p + "=" + a.c.repr();
        break;
      case TV::K::Entity:
        entities_[p] = a;
        text = p + "=" + a.path;
        break;
      default:
        vars_[p] = a.type;
        depth_[p] = 0;
        inst_.argTypes[i] = a.type;
        text = types_.isArray(a.type) ? types_.signatureName(a.type) : types_.name(a.type);
        break;
    }
    params += (i ? ", " : "") + text;
  }
  checkBody(ast_.list(def.body));
  TV result = helperResult();
  std::string ret = "?";
  if (result.k == TV::K::Value) {
    inst_.returnType = result.type;
    ret = types_.isNone(result.type) ? "void" : types_.name(result.type);
  } else if (result.ok()) {
    ret = describe(result);
  }
  inst_.signature = ret + "(" + params + ")";
  for (const auto& [name, t] : vars_) inst_.variables[name] = t;
  for (const auto& [name, c] : consts_) {
    if (auto t = typeOfConstant(c, types_)) inst_.variables[name] = *t;
  }
  return result;
}

}  // namespace

void checkTileKernel(const Ast& ast, ResolvedModule& module, FunctionInstance& inst,
                     std::vector<FunctionInstance>& helpers, DiagnosticSink& diags) {
  HelperContext context(helpers);
  TileChecker checker(ast, module, inst, diags, context);
  checker.run();
}

}  // namespace frontend
