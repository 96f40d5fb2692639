// Helper functions (typed per call site), tuples, dtypes as values, conditional
// and boolean expressions, tile subscripts.
#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

void TileChecker::checkHelperReturn(StmtId id, const ast::Return& r) {
  if (!r.value.valid()) {
    returns_.emplace_back(TV::value(types_.none()), ast_.stmt(id).range);
    return;
  }
  TV v = checkExpr(r.value);
  if (!v.ok()) {
    returnFailed_ = true;
    return;
  }
  // A closure leaves its function: its captures are what they hold now (cuTile's
  // freeze_closures_on_scope_exit).
  v = frozen(v, ast_.stmt(id).range);
  if (!v.ok()) {
    returnFailed_ = true;
    return;
  }
  // From inside `with`s: the value leaves after their cleanups (tile_check_with.cpp).
  if (!withStack_.empty()) v = afterCleanups(v);
  returns_.emplace_back(v, ast_.stmt(id).range);
}

std::optional<TypeId> TileChecker::runtimeTypeOf(const ConstValue& c) {
  if (c.kind != ConstValue::Kind::Tuple) return weakType(c);
  std::vector<TypeId> elements;
  for (const ConstValue& e : c.elements) {
    auto t = runtimeTypeOf(e);
    if (!t || types_.isTuple(*t)) return std::nullopt;
    elements.push_back(*t);
  }
  return types_.tuple(elements);
}

TV TileChecker::helperResult() {
  if (returnFailed_) return TV{};
  if (returns_.empty()) return TV::value(types_.none());
  for (const auto& [v, where] : returns_) {
    // A dict (or a function) returned: the same compile-time one from every `return`.
    bool compileTime = v.k == TV::K::Dict || isAggregate(v) || isFunctionValue(v);
    if (!compileTime) continue;
    // A closure's run-time captures are variables (the caller's, after the call).
    for (const TileArgPiece& p : v.pieces) {
      compileTime = compileTime && !p.expr.valid() && (isAggregate(v) || (p.path.empty() && p.var.empty()));
    }
    for (const auto& [w, unused] : returns_) {
      auto eq = returns_.size() == 1 ? std::optional<bool>(true) : valuesEqual(v, w);
      if (!(eq && *eq) && identicalClosures(v, w)) eq = true;
      compileTime = compileTime && eq && *eq;
    }
    if (!compileTime) {
      diags_.error(loc(where), Diag::TileUnsupported,
                   "returning `" + describe(v) + "` unless every `return` gives the same compile-time value", "");
      return TV{};
    }
    return v;
  }
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
      diags_.error(loc(where), Diag::TileType,
                   "a helper that returns `" + v.path + "` must return it from every `return`");
      return TV{};
    }
    if (v.k != TV::K::Value) continue;
    if (t && *t != v.type) {
      diags_.error(loc(where), Diag::TileType,
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
      diags_.error(loc(where), Diag::TileType,
                   "cannot return `" + v.c.repr() + "` from a tile helper function");
      return TV{};
    }
    if (!t) {
      t = ct;
    } else if (types_.isTuple(*t) != types_.isTuple(*ct) ||
               (types_.isTuple(*t) && types_.get(*t).elements.size() != types_.get(*ct).elements.size())) {
      diags_.error(loc(where), Diag::TileType,
                   "`" + fn_.name + "` returns `" + v.c.repr() + "` here but `" + nameOf(*t) +
                       "` elsewhere: a helper function returns one type");
      return TV{};
    } else if (!types_.isTuple(*t) && types_.isNumber(*t) && types_.isNumber(*ct)) {
      t = promoteDtypes(*t, *ct);
    }
  }
  return TV::value(*t);
}

void TileChecker::assignTuple(ExprId target, const TV& v, ExprId valueExpr) {
  auto names = ast_.list(*unpackingTargets(ast_, target));
  size_t n = names.size();
  if (!v.ok()) {
    for (ExprId e : names) assign(e, v, valueExpr);
    return;
  }
  if (v.k == TV::K::Items && v.items.size() == n) {
    for (size_t i = 0; i < n; ++i) assign(names[i], v.items[i], valueExpr);
    return;
  }
  if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Tuple && v.c.elements.size() == n) {
    for (size_t i = 0; i < n; ++i) assign(names[i], TV::constant(v.c.elements[i]), valueExpr);
    return;
  }
  if (v.k == TV::K::Value && isDataclassType(types_, v.type)) {
    diags_.error(loc(valueExpr), Diag::TileType,
                 "cannot unpack non-iterable " + dataclassName(types_, v.type) + " object");
    for (ExprId e : names) assign(e, TV{}, valueExpr);
    return;
  }
  if (v.k == TV::K::Value && types_.isTuple(v.type) && holdsArray(v.type)) {
    // `item, out = t` of a tuple (or dataclass) parameter, in straight-line code: each name
    // holds that element (an array, a number, or a tuple the parameter holds).
    ExprId root = valueExpr;
    for (;;) {
      if (const auto* s = ast_.expr(root).dyn<ast::Subscript>()) {
        root = s->value;
      } else if (const auto* a = ast_.expr(root).dyn<ast::Attribute>()) {
        root = a->value;
      } else {
        break;
      }
    }
    const auto* rootName = ast_.expr(root).dyn<ast::Name>();
    bool param = rootName != nullptr;
    if (param) {
      std::string r(ast_.str(rootName->id));
      param = std::find(fn_.params.begin(), fn_.params.end(), r) != fn_.params.end() && !assigned_.count(r) &&
              !helperMode_;
    }
    std::vector<TypeId> elements = types_.get(v.type).elements;
    if (!param || depthNow_ > 0 || elements.size() != n) {
      diags_.error(loc(valueExpr), Diag::TileUnsupported, "unpacking a tuple that holds arrays",
                   ": index it (`a = t[0]`), or unpack a tuple parameter in straight-line code");
      return;
    }
    record(target, v);
    for (size_t i = 0; i < n; ++i) {
      const auto* nm = ast_.expr(names[i]).dyn<ast::Name>();
      if (nm == nullptr) {
        diags_.error(loc(names[i]), Diag::TileUnsupported, "a nested unpacking of a tuple that holds arrays", "");
        return;
      }
      std::string name(ast_.str(nm->id));
      consts_.erase(name);
      vars_[name] = elements[i];
      depth_[name] = depthNow_;
      record(names[i], TV::value(elements[i]));
    }
    return;
  }
  if (v.k == TV::K::Value && types_.isTuple(v.type) && types_.get(v.type).elements.size() == n) {
    std::vector<TypeId> elements = types_.get(v.type).elements;
    record(target, v);
    // Elements known at compile time stay constants (`m, n = x.shape` of a constant extent).
    Known known = knownOf(valueExpr);
    for (size_t i = 0; i < n; ++i) {
      bool c = i < known.parts.size() && known.parts[i].c && known.parts[i].c->isNumber();
      assign(names[i], c ? TV::constant(*known.parts[i].c) : TV::value(elements[i]), valueExpr);
    }
    return;
  }
  diags_.error(loc(valueExpr), Diag::TileType,
               "cannot unpack `" + describe(v) + "` into " + std::to_string(n) + " names");
}

bool TileChecker::assignEntity(ExprId target, const std::string& name, const TV& v) {
  if (v.ent != Intrinsic::TypeObject && v.ent != Intrinsic::TileOp && !isFunctionValue(v)) return false;
  // A name may take the compile-time value it already holds again anywhere, and a
  // first one in a runtime loop outside runtime branches (`zero_pad =
  // ct.PaddingMode.ZERO` in a loop body, TileGym's bmm): the same every iteration.
  // In a runtime branch a new value would depend on the run.
  auto held = entities_.find(name);
  bool same = held != entities_.end() && held->second.ent == v.ent && held->second.payload == v.payload;
  bool inBranch = depthNow_ > loopNest_;
  bool fresh = held == entities_.end() && !consts_.count(name) && !inBranch;
  if (vars_.count(name) || (depthNow_ > 0 && !same && !fresh)) {
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

TV TileChecker::runtimeTuple(ExprId id, const ast::Tuple& t) {
  std::vector<TypeId> elements;
  for (ExprId elt : ast_.list(t.elts)) {
    if (const auto* star = ast_.expr(elt).dyn<ast::Starred>()) {
      // `*a`: a's elements (checked by the caller to be a tuple).
      TV v = checkExpr(star->value);
      std::optional<TypeId> st = v.k == TV::K::Const ? runtimeTypeOf(v.c) : std::optional<TypeId>(v.type);
      if (!v.ok() || !st || !types_.isTuple(*st) || holdsArray(*st)) {
        diags_.error(loc(elt), Diag::TileType,
                     "a tuple of runtime values holds numbers, tiles and tuples of them, found `" + describe(v) + "`");
        return TV{};
      }
      for (TypeId e : types_.get(*st).elements) elements.push_back(e);
      continue;
    }
    TV v = checkExpr(elt);
    std::optional<TypeId> et;
    if (v.k == TV::K::Const) {
      et = runtimeTypeOf(v.c);
    } else if (v.k == TV::K::Value && (types_.isNumber(v.type) || types_.isTile(v.type) ||
                                       (types_.isTuple(v.type) && !holdsArray(v.type)))) {
      et = v.type;
    }
    if (!et) {
      diags_.error(loc(elt), Diag::TileType,
                   "a tuple of runtime values holds numbers, tiles and tuples of them, found `" + describe(v) + "`");
      return TV{};
    }
    elements.push_back(*et);
  }
  return record(id, TV::value(types_.tuple(elements)));
}

TV TileChecker::compareEntities(ExprId id, CmpOp op, const TV& l, const TV& r) {
  bool eqOp = op == CmpOp::Eq || op == CmpOp::Is;
  bool neOp = op == CmpOp::NotEq || op == CmpOp::IsNot;
  if (!eqOp && !neOp) {
    diags_.error(loc(id), Diag::MismatchedOperandTypes, std::string(spelling(op)), describe(l),
                 describe(r));
    return TV{};
  }
  bool same = l.k == r.k && l.ent == r.ent && l.payload == r.payload &&
              (l.ent != Intrinsic::Module || l.path == r.path) && (!isFunctionValue(l) || l.def == r.def);
  return record(id, TV::constant(ConstValue::ofBool(eqOp ? same : !same)));
}

TV TileChecker::checkIfExp(ExprId id, const ast::IfExp& e) {
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

TV TileChecker::checkBoolOp(ExprId id, const ast::BoolOp& b) {
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

TV TileChecker::checkTileSubscript(ExprId id, const ast::Subscript& sub, const TV& base) {
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

std::optional<TV> TileChecker::checkPlainCall(ExprId id, const ast::Call& c) {
  const auto* n = ast_.expr(c.func).dyn<ast::Name>();
  if (n == nullptr) return std::nullopt;
  std::string name(ast_.str(n->id));
  // A function passed as a value (`def forward(f, **kw): return f(3, **kw)`).
  if (auto e = entities_.find(name); e != entities_.end() && isFunctionValue(e->second)) {
    TV f = e->second;
    record(c.func, f);
    return checkHelperCall(id, c, f.def, f.path, f.defScope);
  }
  if (consts_.count(name) || vars_.count(name) || entities_.count(name) || assigned_.count(name) ||
      dicts_.count(name) || closures_.count(name)) {
    return std::nullopt;
  }
  if (const Entity* global = module_.lookup(name, fn_.scope)) {
    if (global->kind != Intrinsic::HostValue || global->payload != 1) return std::nullopt;
    if (auto def = module_.plainDef(name, fn_.scope)) return checkHelperCall(id, c, *def, name);
    return std::nullopt;
  }
  if (name == "min" || name == "max" || name == "abs" || name == "int" || name == "float") {
    return checkBuiltin(id, c, name);
  }
  if (name == "len") return checkLen(id, c);
  if (name == "str" && ast_.list(c.args).size() == 1 && c.keywords.empty()) {
    // str() of a compile-time constant: its text, as Python prints it.
    ExprId arg = ast_.list(c.args)[0];
    TV v = checkExpr(arg);
    if (!v.ok()) return TV{};
    if (v.k != TV::K::Const) {
      diags_.error(loc(arg), Diag::TileType,
                   "`str` takes a compile-time constant in tile kernels, found `" + describe(v) + "`");
      return TV{};
    }
    ConstValue text;
    text.kind = ConstValue::Kind::Str;
    text.strValue = v.c.kind == ConstValue::Kind::Str ? v.c.strValue : v.c.repr();
    return record(id, TV::constant(text));
  }
  if (name == "tuple" && ast_.list(c.args).size() == 1 && c.keywords.empty()) {
    if (const auto* g = ast_.expr(ast_.list(c.args)[0]).dyn<ast::GeneratorExp>()) {
      return checkTupleComprehension(id, *g);
    }
  }
  if (name == "print") {
    inst_.meanings[id.index] = ExprMeaning{Intrinsic::Print, 0};
    return checkPrint(id, c, false, "print");
  }
  return std::nullopt;
}

uint32_t TileChecker::helperFunction(StmtId def, const std::string& name, std::optional<uint32_t> scope) {
  for (uint32_t i = 0; i < module_.functions.size(); ++i) {
    if (module_.functions[i].tileHelper && !module_.functions[i].closure && module_.functions[i].stmt == def) return i;
  }
  JitFunction f;
  f.name = name;
  f.stmt = def;
  f.device = true;
  f.tile = true;
  f.tileHelper = true;
  // A helper the enclosing function of a nested kernel defines sees that function's names.
  if (scope) {
    f.scope = *scope;
  } else if (fn_.scope > 0) {
    const auto& defs = module_.scopes[fn_.scope - 1].plainDefs;
    if (auto it = defs.find(name); it != defs.end() && it->second == def) f.scope = fn_.scope;
  }
  f.location = loc(ast_.stmt(def).range);
  // Every parameter, in the order bindHelperArgs gives their values.
  const Arguments& args = ast_.arguments(ast_.stmt(def).functionDef()->args);
  auto add = [&](ArgId a) { f.params.push_back(std::string(ast_.str(ast_.arg(a).arg))); };
  for (ArgId a : ast_.list(args.posonlyargs)) add(a);
  for (ArgId a : ast_.list(args.args)) add(a);
  if (args.vararg.valid()) add(args.vararg);
  for (ArgId a : ast_.list(args.kwonlyargs)) add(a);
  if (args.kwarg.valid()) add(args.kwarg);
  module_.functions.push_back(std::move(f));
  return static_cast<uint32_t>(module_.functions.size() - 1);
}

std::string TileChecker::argCode(const TV& v) const {
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
    case TV::K::Entity:
      s = "E" + v.path;
      if (isFunctionValue(v)) s += std::to_string(v.def.index);
      break;
    case TV::K::Dict:
      s = "D";
      for (size_t i = 0; i < v.keys.size(); ++i) {
        s += v.keys[i] + "_" + argCode(v.items[i]) + (v.items[i].k == TV::K::Const ? "_" + v.items[i].c.repr() : "");
      }
      break;
    case TV::K::Closure:
      s = "C" + std::to_string(v.def.valid() ? v.def.index : v.lambda.index) + (v.def.valid() ? "d" : "l");
      for (size_t i = 0; i < v.keys.size(); ++i) {
        s += "_" + v.keys[i] + "_" + argCode(v.items[i]) + (v.items[i].k == TV::K::Const ? "_" + v.items[i].c.repr() : "");
      }
      break;
    case TV::K::Items:
      s = "I";
      for (const TV& item : v.items) s += "_" + argCode(item) + (item.k == TV::K::Const ? "_" + item.c.repr() : "");
      break;
    case TV::K::Bad: return "?";
  }
  for (char& ch : s) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return s;
}

}  // namespace frontend::tile
