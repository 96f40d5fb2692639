#include "frontend/tile_check.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "frontend/diagnostics.h"
#include "frontend/tile_ops.h"

namespace frontend {

namespace {

constexpr const char* kTileNames[] = {
#define PYKC_X(N, S) S,
    PYKC_TILE_FNS(PYKC_X)
#undef PYKC_X
};
constexpr const char* kPaddingNames[] = {"UNDETERMINED", "ZERO", "NEG_ZERO", "NAN", "POS_INF", "NEG_INF"};

}  // namespace

std::optional<TileFn> tileFnByName(std::string_view name) {
  for (size_t i = 0; i < std::size(kTileNames); ++i) {
    if (name == kTileNames[i]) return static_cast<TileFn>(i);
  }
  return std::nullopt;
}

std::optional<TileFn> tilePaddingByName(std::string_view name) {
  for (size_t i = 0; i < std::size(kPaddingNames); ++i) {
    if (name == kPaddingNames[i]) {
      return static_cast<TileFn>(static_cast<size_t>(TileFn::PadUndetermined) + i);
    }
  }
  return std::nullopt;
}

std::string_view tileFnName(TileFn fn) {
  size_t i = static_cast<size_t>(fn);
  if (i < std::size(kTileNames)) return kTileNames[i];
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

class TileChecker {
public:
  TileChecker(const Ast& ast, ResolvedModule& module, FunctionInstance& inst, DiagnosticSink& diags)
      : ast_(ast), module_(module), types_(module.types), inst_(inst), diags_(diags),
        fn_(module.functions[inst.function]) {}

  void run() {
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
    for (size_t i = 0; i < fn_.params.size() && i < inst_.argTypes.size(); ++i) {
      TypeId t = inst_.argTypes[i];
      if (!types_.isArray(t) && !types_.isNumber(t)) {
        diags_.error(fn_.location, Diag::TileType,
                     "parameter `" + fn_.params[i] + "` of tile kernel `" + fn_.name +
                         "` is `" + types_.name(t) + "`: tile kernels take arrays and numbers");
      }
      vars_[fn_.params[i]] = t;
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

private:
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
          size_t before = assigned_.size();
          std::map<std::string, int> saved = assigned_;
          countAssignments(ast_.list(f.body));
          for (auto& [name, n] : assigned_) {
            if (!saved.count(name) || saved[name] != n) n = 2;
          }
          (void)before;
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
        if (s.as<ast::Return>().value.valid()) {
          diags_.error(loc(s.range), Diag::KernelReturnsValue, "a value");
        }
        return;
      case StmtKind::For:
        checkFor(id, s.as<ast::For>());
        return;
      case StmtKind::If: {
        const auto& i = s.as<ast::If>();
        TV c = checkExpr(i.test);
        if (c.ok() && !(c.k == TV::K::Const ||
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
        diags_.error(loc(id), Diag::UnsupportedFeature,
                     "tuples of runtime values are only supported as `index=` arguments");
        return TV{};
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
        diags_.error(loc(id), Diag::TileUnsupported, "indexing `" + describe(base) + "`",
                     ": load tiles with `ct.load`");
        return TV{};
      }
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
        base.payload == static_cast<uint32_t>(TileFn::PaddingMode)) {
      if (auto p = tilePaddingByName(attr)) {
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
        if ((*args)[3].valid()) {
          diags_.error(loc((*args)[3]), Diag::TileUnsupported, "`order=`", " (tiles follow the array's axis order)");
          return TV{};
        }
        if ((*args)[4].valid()) {
          TV p = checkExpr((*args)[4]);
          if (!p.ok()) return TV{};
          if (p.k != TV::K::Entity || p.ent != Intrinsic::TileOp ||
              p.payload < static_cast<uint32_t>(TileFn::PadUndetermined)) {
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
        if ((*args)[3].valid()) {
          diags_.error(loc((*args)[3]), Diag::TileUnsupported, "`order=`", " (tiles follow the array's axis order)");
          return TV{};
        }
        for (int i : {4, 5}) {
          if ((*args)[i].valid() && !constInt((*args)[i], "a store hint")) return TV{};
        }
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
        auto args = bindArgs(id, c, fname, {"x", "axis", "keepdims"}, 1);
        if (!args) return TV{};
        TV x = checkExpr((*args)[0]);
        if (!x.ok()) return TV{};
        if (!isTileVal(x)) {
          diags_.error(loc((*args)[0]), Diag::TileType, "`" + fname + "` reduces a tile, found `" + describe(x) + "`");
          return TV{};
        }
        const Type& xt = types_.get(x.type);
        std::vector<int64_t> shape = xt.shape;
        std::vector<bool> reduced(shape.size(), false);
        if ((*args)[1].valid()) {
          TV axis = checkExpr((*args)[1]);
          if (!axis.ok()) return TV{};
          std::vector<int64_t> axes;
          if (axis.k == TV::K::Const && axis.c.kind == ConstValue::Kind::Int) {
            axes.push_back(axis.c.intValue);
          } else if (axis.k == TV::K::Const && axis.c.kind == ConstValue::Kind::None) {
            reduced.assign(shape.size(), true);
          } else {
            diags_.error(loc((*args)[1]), Diag::NotConstant, "the axis (an integer or None)");
            return TV{};
          }
          for (int64_t a : axes) {
            int64_t n = static_cast<int64_t>(shape.size());
            if (a < -n || a >= n) {
              diags_.error(loc((*args)[1]), Diag::TileShape,
                           "axis " + std::to_string(a) + " is out of range for `" + describe(x) + "`");
              return TV{};
            }
            reduced[static_cast<size_t>(a < 0 ? a + n : a)] = true;
          }
        } else {
          reduced.assign(shape.size(), true);
        }
        bool keepdims = false;
        if ((*args)[2].valid()) {
          auto k = constInt((*args)[2], "`keepdims`");
          if (!k) return TV{};
          keepdims = *k != 0;
        }
        std::vector<int64_t> out;
        for (size_t i = 0; i < shape.size(); ++i) {
          if (!reduced[i]) {
            out.push_back(shape[i]);
          } else if (keepdims) {
            out.push_back(1);
          }
        }
        TypeId dtype = xt.element;
        if (fn == TileFn::Sum && types_.isBool(dtype)) dtype = types_.int32();
        return record(id, TV::value(types_.tile(dtype, out)));
      }
      case TileFn::Exp: case TileFn::Exp2: case TileFn::Log: case TileFn::Log2:
      case TileFn::Sqrt: case TileFn::Rsqrt: case TileFn::Tanh: case TileFn::Sin:
      case TileFn::Cos: case TileFn::Abs: {
        auto args = bindArgs(id, c, fname, {"x"}, 1);
        if (!args) return TV{};
        auto x = tileOrScalar((*args)[0]);
        if (!x) return TV{};
        TypeId dtype = x->k == TV::K::Const ? *weakType(x->c) : elementOf(x->type);
        if (fn != TileFn::Abs && !types_.isFloat(dtype)) dtype = types_.float32();
        if (types_.isBool(dtype)) dtype = types_.int32();
        inst_.opTypes[id.index] = dtype;
        if (x->k == TV::K::Value && isTileVal(*x)) {
          return record(id, TV::value(types_.tile(dtype, types_.get(x->type).shape)));
        }
        return record(id, TV::value(dtype));
      }
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
        diags_.error(loc(id), Diag::TileUnsupported, "`" + fname + "`", "");
        return TV{};
      default:
        diags_.error(loc(id), Diag::TileUnsupported, "`" + fname + "`", " inside a kernel");
        return TV{};
    }
  }

  const Ast& ast_;
  ResolvedModule& module_;
  TypeTable& types_;
  FunctionInstance& inst_;
  DiagnosticSink& diags_;
  const JitFunction& fn_;
  std::map<std::string, TypeId> vars_;
  // The loop/branch depth at which each variable got its current type.
  std::map<std::string, int> depth_;
  int depthNow_ = 0;
  std::map<std::string, ConstValue> consts_;
  std::map<std::string, int> assigned_;
  std::set<std::string> failed_;
  TypeId lastOpType_;
};

}  // namespace

void checkTileKernel(const Ast& ast, ResolvedModule& module, FunctionInstance& inst,
                     DiagnosticSink& diags) {
  TileChecker checker(ast, module, inst, diags);
  checker.run();
}

}  // namespace frontend
