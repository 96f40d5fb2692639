// Compile-time loops of tile kernels (cuTile's `ct.static_iter`): `for T in
// ct.static_iter(X):` and `tuple(ELT for T in ct.static_iter(X) ...)`. The iterable is
// evaluated here (range with constant bounds, enumerate, zip, tuples, lists of
// constants); the body (the element) is typed once per item, with the loop variables
// constants or run-time tuple elements, and each iteration's side tables are kept in
// inst_.unrolled for lowering, which emits the iterations one after another.
#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

namespace {

// The dotted name an expression spells (`ct.static_iter`, `cuda.tile.static_iter`), with
// its first name resolved by `root`; empty when it is no chain of names.
template <class Root>
std::string dottedPath(const Ast& ast, ExprId e, Root&& root) {
  if (const auto* n = ast.expr(e).dyn<ast::Name>()) return root(std::string(ast.str(n->id)));
  if (const auto* a = ast.expr(e).dyn<ast::Attribute>()) {
    std::string base = dottedPath(ast, a->value, root);
    return base.empty() ? base : base + "." + std::string(ast.str(a->attr));
  }
  return "";
}

}  // namespace

bool TileChecker::isBuiltinName(const std::string& name) const {
  return !consts_.count(name) && !vars_.count(name) && !entities_.count(name) && !assigned_.count(name) &&
         module_.lookup(name, fn_.scope) == nullptr;
}

ExprId TileChecker::staticIterArg(ExprId iter) const {
  const auto* call = ast_.expr(iter).dyn<ast::Call>();
  if (call == nullptr || ast_.list(call->args).size() != 1 || !call->keywords.empty()) return ExprId();
  std::string path = dottedPath(ast_, call->func, [&](const std::string& name) -> std::string {
    if (consts_.count(name) || vars_.count(name) || entities_.count(name)) return "";
    const Entity* e = module_.lookup(name, fn_.scope);
    return e != nullptr ? e->path : "";
  });
  if (path.empty()) return ExprId();
  auto entity = lookupEntity(path, types_);
  bool isStaticIter = entity && entity->kind == Intrinsic::TileOp &&
                      entity->payload == static_cast<uint32_t>(TileFn::StaticIter);
  return isStaticIter ? ast_.list(call->args)[0] : ExprId();
}

std::optional<std::vector<TileChecker::StaticItem>> TileChecker::staticBuiltinItems(ExprId iterable,
                                                                                   const ast::Call& call,
                                                                                   const std::string& name) {
  auto args = ast_.list(call.args);
  std::vector<StaticItem> out;
  if (name == "range") {
    if (args.empty() || args.size() > 3 || !call.keywords.empty()) {
      diags_.error(loc(iterable), Diag::InvalidCall, "`range` takes one to three integers");
      return std::nullopt;
    }
    std::vector<int64_t> b;
    for (ExprId a : args) {
      auto v = constInt(a, "a bound of `range` in a compile-time loop");
      if (!v) return std::nullopt;
      b.push_back(*v);
    }
    int64_t start = b.size() >= 2 ? b[0] : 0, stop = b.size() >= 2 ? b[1] : b[0], step = b.size() == 3 ? b[2] : 1;
    if (step == 0) {
      diags_.error(loc(args[2]), Diag::InvalidCall, "the step of `range` must not be zero");
      return std::nullopt;
    }
    __int128 span = step > 0 ? __int128(stop) - start : __int128(start) - stop;
    __int128 stride = step > 0 ? __int128(step) : -__int128(step);
    __int128 count = span > 0 ? (span + stride - 1) / stride : 0;
    if (count > __int128(kMaxStaticItems)) {
      diags_.error(loc(iterable), Diag::TileType,
                   "a compile-time loop unrolls at most " + std::to_string(kMaxStaticItems) +
                       " iterations: use `range` for a run-time loop");
      return std::nullopt;
    }
    for (int64_t i = 0; i < static_cast<int64_t>(count); ++i) {
      StaticItem item;
      item.c = ConstValue::ofInt(start + i * step);
      out.push_back(std::move(item));
    }
    return out;
  }
  if (name == "enumerate") {
    ExprId startExpr = args.size() >= 2 ? args[1] : ExprId();
    for (KeywordId k : ast_.list(call.keywords)) {
      if (ast_.str(ast_.keyword(k).arg) == "start" && !startExpr.valid()) {
        startExpr = ast_.keyword(k).value;
      } else {
        diags_.error(loc(ast_.keyword(k).range), Diag::InvalidCall, "`enumerate` takes an iterable and `start`");
        return std::nullopt;
      }
    }
    if (args.empty() || args.size() > 2) {
      diags_.error(loc(iterable), Diag::InvalidCall, "`enumerate` takes an iterable and `start`");
      return std::nullopt;
    }
    int64_t start = 0;
    if (startExpr.valid()) {
      auto v = constInt(startExpr, "the start of `enumerate` in a compile-time loop");
      if (!v) return std::nullopt;
      start = *v;
    }
    auto inner = staticItems(args[0]);
    if (!inner) return std::nullopt;
    for (size_t i = 0; i < inner->size(); ++i) {
      StaticItem pair;
      pair.k = StaticItem::K::Tuple;
      pair.parts.resize(2);
      pair.parts[0].c = ConstValue::ofInt(start + static_cast<int64_t>(i));
      pair.parts[1] = std::move((*inner)[i]);
      out.push_back(std::move(pair));
    }
    return out;
  }
  // zip
  if (!call.keywords.empty()) {
    diags_.error(loc(iterable), Diag::InvalidCall, "`zip` in a compile-time loop takes no keywords");
    return std::nullopt;
  }
  std::vector<std::vector<StaticItem>> lists;
  size_t n = SIZE_MAX;
  for (ExprId a : args) {
    auto items = staticItems(a);
    if (!items) return std::nullopt;
    n = std::min(n, items->size());
    lists.push_back(std::move(*items));
  }
  if (lists.empty()) n = 0;
  for (size_t i = 0; i < n; ++i) {
    StaticItem t;
    t.k = StaticItem::K::Tuple;
    for (auto& l : lists) t.parts.push_back(std::move(l[i]));
    out.push_back(std::move(t));
  }
  return out;
}

std::optional<std::vector<TileChecker::StaticItem>> TileChecker::staticItems(ExprId iterable) {
  const Expr& e = ast_.expr(iterable);
  std::optional<std::vector<StaticItem>> out;
  const auto* call = e.dyn<ast::Call>();
  const auto* fname = call != nullptr ? ast_.expr(call->func).dyn<ast::Name>() : nullptr;
  std::string name = fname != nullptr ? std::string(ast_.str(fname->id)) : "";
  if ((name == "range" || name == "enumerate" || name == "zip") && isBuiltinName(name)) {
    out = staticBuiltinItems(iterable, *call, name);
  } else if (const auto* list = e.dyn<ast::List>()) {
    out.emplace();
    for (ExprId elt : ast_.list(list->elts)) {
      TV v = checkExpr(elt);
      if (!v.ok()) return std::nullopt;
      if (v.k != TV::K::Const) {
        diags_.error(loc(elt), Diag::TileType,
                     "a list in a compile-time loop holds constants, found `" + describe(v) +
                         "`: iterate over a tuple for run-time values");
        return std::nullopt;
      }
      StaticItem item;
      item.c = v.c;
      out->push_back(std::move(item));
    }
  } else {
    TV v = checkExpr(iterable);
    if (!v.ok()) return std::nullopt;
    if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Tuple) {
      out.emplace();
      for (const ConstValue& c : v.c.elements) {
        StaticItem item;
        item.c = c;
        out->push_back(std::move(item));
      }
    } else if (v.k == TV::K::Items) {
      out.emplace();
      for (const TV& e : v.items) {
        StaticItem item;
        if (e.k == TV::K::Const) {
          item.c = e.c;
        } else {
          item.k = StaticItem::K::Items;
          item.v = {e};
        }
        out->push_back(std::move(item));
      }
    } else if (v.k == TV::K::Value && isDataclassType(types_, v.type)) {
      diags_.error(loc(iterable), Diag::TileType, "'" + dataclassName(types_, v.type) + "' object is not iterable");
      return std::nullopt;
    } else if (v.k == TV::K::Value && types_.isTuple(v.type)) {
      out.emplace();
      std::vector<TypeId> elements = types_.get(v.type).elements;
      for (uint32_t i = 0; i < elements.size(); ++i) {
        StaticItem item;
        item.k = StaticItem::K::Element;
        item.source = iterable;
        item.path = {i};
        item.type = elements[i];
        out->push_back(std::move(item));
      }
    } else {
      diags_.error(loc(iterable), Diag::TileType,
                   "a compile-time loop (`ct.static_iter`) iterates over a tuple, a list of constants, "
                   "`range(...)` with constant bounds, or `enumerate`/`zip` of them; found `" +
                       describe(v) + "`");
      return std::nullopt;
    }
  }
  if (out && out->size() > kMaxStaticItems) {
    diags_.error(loc(iterable), Diag::TileType,
                 "a compile-time loop unrolls at most " + std::to_string(kMaxStaticItems) +
                     " iterations: use `range` for a run-time loop");
    return std::nullopt;
  }
  return out;
}

bool TileChecker::bindStatic(ExprId target, const StaticItem& item, std::vector<StaticBinding>& out) {
  if (const auto* n = ast_.expr(target).dyn<ast::Name>()) {
    std::string name(ast_.str(n->id));
    failed_.erase(name);
    entities_.erase(name);
    if (item.k == StaticItem::K::Const) {
      consts_[name] = item.c;
      record(target, TV::constant(item.c));
      return true;
    }
    if (item.k == StaticItem::K::Items) {
      consts_.erase(name);
      bindClosure(name, item.v[0], ast_.expr(target).range);
      return true;
    }
    if (item.k == StaticItem::K::Element) {
      consts_.erase(name);
      bindRuntime(name, item.type, target);
      record(target, TV::value(item.type));
      out.push_back(StaticBinding{target, item.source, item.path});
      return true;
    }
    ConstValue all;
    all.kind = ConstValue::Kind::Tuple;
    for (const StaticItem& p : item.parts) {
      if (p.k != StaticItem::K::Const) {
        diags_.error(loc(target), Diag::TileUnsupported, "binding one name to an item of `enumerate` or `zip`",
                     ": unpack it (`for i, x in ...`)");
        return false;
      }
      all.elements.push_back(p.c);
    }
    consts_[name] = all;
    record(target, TV::constant(all));
    return true;
  }
  const ExprList* targets = unpackingTargets(ast_, target);
  if (targets == nullptr) {
    diags_.error(loc(target), Diag::UnsupportedFeature, "a compile-time loop assigns to names only");
    return false;
  }
  std::vector<StaticItem> parts;
  if (item.k == StaticItem::K::Tuple) {
    parts = item.parts;
  } else if (item.k == StaticItem::K::Const && item.c.kind == ConstValue::Kind::Tuple) {
    for (const ConstValue& c : item.c.elements) {
      StaticItem p;
      p.c = c;
      parts.push_back(std::move(p));
    }
  } else if (item.k == StaticItem::K::Element && types_.isTuple(item.type)) {
    std::vector<TypeId> elements = types_.get(item.type).elements;
    for (uint32_t i = 0; i < elements.size(); ++i) {
      StaticItem p = item;
      p.path.push_back(i);
      p.type = elements[i];
      parts.push_back(std::move(p));
    }
  }
  auto names = ast_.list(*targets);
  if (parts.size() != names.size()) {
    diags_.error(loc(target), Diag::TileType,
                 "cannot unpack this item of the compile-time loop into " + std::to_string(names.size()) +
                     " names");
    return false;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (!bindStatic(names[i], parts[i], out)) return false;
  }
  return true;
}

void TileChecker::noStaticExits(std::span<const StmtId> body, bool inLoop) {
  for (StmtId id : body) {
    const Stmt& s = ast_.stmt(id);
    switch (s.kind()) {
      case StmtKind::Break:
      case StmtKind::Continue:
        if (!inLoop) {
          diags_.error(loc(s.range), Diag::UnsupportedFeature,
                       "`" + std::string(s.kind() == StmtKind::Break ? "break" : "continue") +
                           "` in a compile-time loop (`ct.static_iter`): its iterations are unrolled");
        }
        break;
      case StmtKind::Return:
        diags_.error(loc(s.range), Diag::UnsupportedFeature,
                     "`return` in a compile-time loop (`ct.static_iter`): its iterations are unrolled");
        break;
      case StmtKind::If:
        noStaticExits(ast_.list(s.as<ast::If>().body), inLoop);
        noStaticExits(ast_.list(s.as<ast::If>().orelse), inLoop);
        break;
      case StmtKind::With:
        noStaticExits(ast_.list(s.as<ast::With>().body), inLoop);
        break;
      case StmtKind::For:
        noStaticExits(ast_.list(s.as<ast::For>().body), true);
        break;
      case StmtKind::While:
        noStaticExits(ast_.list(s.as<ast::While>().body), true);
        break;
      default:
        break;
    }
  }
}

void TileChecker::checkStaticFor(StmtId id, const ast::For& f, ExprId iterable) {
  if (!f.orelse.empty()) {
    diags_.error(loc(ast_.stmt(id).range), Diag::UnsupportedFeature,
                 "`for ... else` is not supported in tile kernels");
  }
  size_t errors = diags_.errorCount();
  noStaticExits(ast_.list(f.body), false);
  auto items = staticItems(iterable);
  if (!items || diags_.errorCount() != errors) return;
  StaticUnroll unroll;
  unroll.node = id.index;
  std::vector<StaticUnroll> outer = std::move(inst_.unrolled);
  inst_.unrolled.clear();
  for (const StaticItem& item : *items) {
    std::vector<StaticBinding> bindings;
    if (!bindStatic(f.target, item, bindings)) break;
    checkBody(ast_.list(f.body));
    // This iteration's tables, with the compile-time loops inside its body.
    unroll.iterations.push_back(inst_);
    unroll.bindings.push_back(std::move(bindings));
    inst_.unrolled.clear();
    if (diags_.errorCount() != errors) break;  // once, not once per iteration
  }
  inst_.unrolled = std::move(outer);
  inst_.unrolled.push_back(std::move(unroll));
}

bool TileChecker::comprehend(const ast::GeneratorExp& g, size_t level, std::vector<StaticBinding>& bindings,
                             StaticUnroll& out, std::vector<TV>& results) {
  auto gens = ast_.list(g.generators);
  if (level == gens.size()) {
    TV v = checkExpr(g.elt);
    if (!v.ok()) return false;
    results.push_back(v);
    out.iterations.push_back(inst_);
    out.bindings.push_back(bindings);
    inst_.unrolled.clear();
    return true;
  }
  const Comprehension& c = ast_.comprehension(gens[level]);
  if (c.isAsync != 0) {
    diags_.error(loc(c.iter), Diag::UnsupportedFeature, "`async for` is not supported in tile kernels");
    return false;
  }
  ExprId iterable = staticIterArg(c.iter);
  auto items = staticItems(iterable.valid() ? iterable : c.iter);
  if (!items) return false;
  for (const StaticItem& item : *items) {
    size_t bound = bindings.size();
    if (!bindStatic(c.target, item, bindings)) return false;
    bool keep = true;
    for (ExprId cond : ast_.list(c.ifs)) {
      TV t = checkExpr(cond);
      if (!t.ok()) return false;
      if (t.k != TV::K::Const) {
        diags_.error(loc(cond), Diag::NotConstant, "the condition of a tuple comprehension");
        return false;
      }
      keep = truthOf(t.c);
      if (!keep) break;
    }
    if (keep && !comprehend(g, level + 1, bindings, out, results)) return false;
    bindings.resize(bound);
  }
  return true;
}

TV TileChecker::checkTupleComprehension(ExprId id, const ast::GeneratorExp& g) {
  // The comprehension's names are its own (Python 3): what they shadow comes back after.
  auto consts = consts_;
  auto vars = vars_;
  auto entities = entities_;
  auto depth = depth_;
  auto failed = failed_;
  StaticUnroll unroll;
  unroll.node = id.index;
  unroll.comprehension = true;
  std::vector<StaticUnroll> outer = std::move(inst_.unrolled);
  inst_.unrolled.clear();
  std::vector<StaticBinding> bindings;
  std::vector<TV> results;
  bool ok = comprehend(g, 0, bindings, unroll, results);
  // Functions made in it see its names as they end (Python's late binding: `tuple(lambda: j
  // for j in ...)` all give the last j).
  bool functions = false;
  for (TV& r : results) {
    if (!ok || !isAggregate(r)) continue;
    functions = true;
    r = frozen(r, ast_.expr(id).range);
    ok = ok && r.ok();
  }
  consts_ = std::move(consts);
  vars_ = std::move(vars);
  entities_ = std::move(entities);
  depth_ = std::move(depth);
  failed_ = std::move(failed);
  inst_.unrolled = std::move(outer);
  if (!ok) return TV{};
  if (functions) return itemsOf(results, ast_.expr(id).range);
  ConstValue all;
  all.kind = ConstValue::Kind::Tuple;
  std::vector<TypeId> types;
  bool constant = true;
  for (size_t i = 0; i < results.size(); ++i) {
    const TV& v = results[i];
    std::optional<TypeId> t;
    if (v.k == TV::K::Const) {
      all.elements.push_back(v.c);
      t = runtimeTypeOf(v.c);
    } else if (v.k == TV::K::Value && !types_.isArray(v.type) && !(types_.isTuple(v.type) && holdsArray(v.type))) {
      constant = false;
      t = v.type;
    }
    if (!t && v.k != TV::K::Const) {
      diags_.error(loc(g.elt), Diag::TileType,
                   "a tuple comprehension gives numbers, tiles and tuples of them, found `" + describe(v) + "`");
      return TV{};
    }
    types.push_back(t.value_or(TypeId()));
  }
  if (constant) return record(id, TV::constant(all));
  for (size_t i = 0; i < types.size(); ++i) {
    if (!types[i].valid()) {
      diags_.error(loc(g.elt), Diag::TileType,
                   "cannot hold `" + results[i].c.repr() + "` in a tuple of run-time values");
      return TV{};
    }
  }
  inst_.unrolled.push_back(std::move(unroll));
  return record(id, TV::value(types_.tuple(types)));
}

}  // namespace frontend::tile
