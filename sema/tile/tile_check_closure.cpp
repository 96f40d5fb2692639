// Functions defined inside tile kernels and helpers (nested `def`, `lambda`): closures as
// cuTile 1.7 makes them (docs/TILE.md, "Closures"). A closure is a compile-time value: its
// `def`, the names it captures and its defaults (evaluated at the `def`). Called where it
// was defined, it reads the captured variables as they are at the call (Python's cells);
// once it leaves that function (returned, passed to a helper, captured by another
// closure) its captures are frozen at their values then (cuTile's
// freeze_closures_on_scope_exit). A call types its body as a helper instance whose
// parameters are its own and then its captures; run-time captures are the caller's
// variables (TileArgPiece::var), which lowering reads at the call.
#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

namespace {

bool contains(const NodeRange& outer, const NodeRange& r) {
  return std::make_pair(r.lineno, r.colOffset) >= std::make_pair(outer.lineno, outer.colOffset) &&
         std::make_pair(r.endLineno, r.endColOffset) <= std::make_pair(outer.endLineno, outer.endColOffset);
}

bool sameRange(const NodeRange& a, const NodeRange& b) {
  return a.lineno == b.lineno && a.colOffset == b.colOffset && a.endLineno == b.endLineno &&
         a.endColOffset == b.endColOffset;
}

// A function scope inside the closure being scanned (itself, nested defs, lambdas,
// comprehensions): its extent, the parts of it that belong to the scope around it
// (defaults, annotations, decorators), and the names it binds.
struct Scope {
  NodeRange range;
  std::vector<NodeRange> header;
  std::set<std::string> bound;
};

}  // namespace

std::vector<std::string> TileChecker::closureCaptures(StmtId def, ExprId lambda) const {
  NodeRange outer = def.valid() ? ast_.stmt(def).range : ast_.expr(lambda).range;
  std::vector<Scope> scopes;
  auto addArguments = [&](const Arguments& a, Scope& s) {
    auto param = [&](ArgId id) {
      const Arg& arg = ast_.arg(id);
      s.bound.insert(std::string(ast_.str(arg.arg)));
      if (arg.annotation.valid()) s.header.push_back(ast_.expr(arg.annotation).range);
    };
    for (ArgId id : ast_.list(a.posonlyargs)) param(id);
    for (ArgId id : ast_.list(a.args)) param(id);
    if (a.vararg.valid()) param(a.vararg);
    for (ArgId id : ast_.list(a.kwonlyargs)) param(id);
    if (a.kwarg.valid()) param(a.kwarg);
    for (ExprId d : ast_.list(a.defaults)) s.header.push_back(ast_.expr(d).range);
    for (ExprId d : ast_.list(a.kwDefaults)) {
      if (d.valid()) s.header.push_back(ast_.expr(d).range);
    }
  };
  auto addDef = [&](StmtId id) {
    const ast::FunctionDef& f = *ast_.stmt(id).functionDef();
    Scope s{ast_.stmt(id).range, {}, {}};
    addArguments(ast_.arguments(f.args), s);
    for (ExprId d : ast_.list(f.decoratorList)) s.header.push_back(ast_.expr(d).range);
    if (f.returns.valid()) s.header.push_back(ast_.expr(f.returns).range);
    scopes.push_back(std::move(s));
  };
  if (def.valid()) {
    addDef(def);
  } else {
    Scope s{outer, {}, {}};
    addArguments(ast_.arguments(ast_.expr(lambda).as<ast::Lambda>().args), s);
    scopes.push_back(std::move(s));
  }
  std::vector<std::pair<std::string, NodeRange>> defNames;
  for (size_t i = 0; i < ast_.stmtCount(); ++i) {
    StmtId id(static_cast<uint32_t>(i));
    const Stmt& s = ast_.stmt(id);
    if (id == def || s.functionDef() == nullptr || !contains(outer, s.range)) continue;
    addDef(id);
    defNames.emplace_back(std::string(ast_.str(s.functionDef()->name)), s.range);
  }
  for (size_t i = 0; i < ast_.exprCount(); ++i) {
    ExprId id(static_cast<uint32_t>(i));
    const Expr& e = ast_.expr(id);
    if (id == lambda || !contains(outer, e.range)) continue;
    if (const auto* l = e.dyn<ast::Lambda>()) {
      Scope s{e.range, {}, {}};
      addArguments(ast_.arguments(l->args), s);
      scopes.push_back(std::move(s));
    } else if (e.is<ast::GeneratorExp>() || e.is<ast::ListComp>() || e.is<ast::SetComp>() || e.is<ast::DictComp>()) {
      scopes.push_back(Scope{e.range, {}, {}});
    }
  }
  // The innermost scope holding `r` (not scope `skip`): the one starting last, then ending first.
  auto innermost = [&](const NodeRange& r, size_t skip) {
    size_t best = 0;
    for (size_t k = 1; k < scopes.size(); ++k) {
      if (k == skip || !contains(scopes[k].range, r)) continue;
      bool inHeader = false;
      for (const NodeRange& h : scopes[k].header) inHeader = inHeader || contains(h, r);
      if (inHeader) continue;
      const NodeRange& b = scopes[best].range;
      const NodeRange& c = scopes[k].range;
      if (best == 0 || std::make_pair(c.lineno, c.colOffset) > std::make_pair(b.lineno, b.colOffset) ||
          (std::make_pair(c.lineno, c.colOffset) == std::make_pair(b.lineno, b.colOffset) &&
           std::make_pair(c.endLineno, c.endColOffset) < std::make_pair(b.endLineno, b.endColOffset))) {
        best = k;
      }
    }
    return best;
  };
  for (const auto& [name, range] : defNames) {
    size_t self = 0;
    for (size_t k = 1; k < scopes.size(); ++k) {
      if (sameRange(scopes[k].range, range)) self = k;
    }
    scopes[innermost(range, self)].bound.insert(name);
  }
  std::vector<size_t> parent(scopes.size(), 0);
  for (size_t k = 1; k < scopes.size(); ++k) parent[k] = innermost(scopes[k].range, k);
  std::vector<std::pair<std::string, size_t>> loads;
  for (size_t i = 0; i < ast_.exprCount(); ++i) {
    const Expr& e = ast_.expr(ExprId(static_cast<uint32_t>(i)));
    const auto* n = e.dyn<ast::Name>();
    if (n == nullptr || !contains(outer, e.range)) continue;
    bool inHeader = false;
    for (const NodeRange& h : scopes[0].header) inHeader = inHeader || contains(h, e.range);
    if (inHeader) continue;  // evaluated at the `def`, in this function
    size_t s = innermost(e.range, SIZE_MAX);
    std::string name(ast_.str(n->id));
    if (n->ctx == ExprContext::Load) {
      loads.emplace_back(name, s);
    } else {
      scopes[s].bound.insert(name);
    }
  }
  std::set<std::string> free;
  for (const auto& [name, s] : loads) {
    bool bound = false;
    for (size_t k = s;; k = parent[k]) {
      bound = bound || scopes[k].bound.count(name) != 0;
      if (k == 0) break;
    }
    if (!bound) free.insert(name);
  }
  // Captured: the free names that are this function's own (its parameters and the
  // names it binds anywhere); the others are globals, resolved where the body is typed.
  std::vector<std::string> out;
  for (const std::string& name : free) {
    bool local = consts_.count(name) || vars_.count(name) || entities_.count(name) || dicts_.count(name) ||
                 closures_.count(name) || failed_.count(name) || assigned_.count(name) || isConstParam(name) ||
                 std::find(fn_.params.begin(), fn_.params.end(), name) != fn_.params.end();
    if (local) out.push_back(name);
  }
  return out;
}

const Arguments& TileChecker::closureArguments(const TV& c) const {
  if (c.def.valid()) return ast_.arguments(ast_.stmt(c.def).functionDef()->args);
  return ast_.arguments(ast_.expr(c.lambda).as<ast::Lambda>().args);
}

TV TileChecker::makeClosure(StmtId def, ExprId lambda, NodeRange at) {
  TV c;
  c.k = TV::K::Closure;
  c.def = def;
  c.lambda = lambda;
  c.defScope = fn_.scope;
  c.live = scope_;
  if (def.valid()) {
    const ast::FunctionDef& f = *ast_.stmt(def).functionDef();
    c.path = std::string(ast_.str(f.name));
    if (ast_.stmt(def).isAsync()) {
      diags_.error(loc(at), Diag::TileUnsupported, "`async def` inside a tile kernel or helper", "");
      return TV{};
    }
    if (!ast_.list(f.decoratorList).empty()) {
      diags_.error(loc(ast_.expr(ast_.list(f.decoratorList)[0]).range), Diag::TileUnsupported,
                   "a decorated function defined inside a tile kernel or helper",
                   ": define it without decorators (cuTile calls nested functions as written)");
      return TV{};
    }
  } else {
    c.path = "lambda";
  }
  for (const std::string& name : closureCaptures(def, lambda)) {
    c.keys.push_back(name);
    c.items.emplace_back();
    c.pieces.emplace_back();
  }
  // Defaults are evaluated now, in this function (Python's and cuTile's rule).
  const Arguments& args = closureArguments(c);
  std::vector<std::pair<ArgId, ExprId>> withDefaults;
  std::vector<ArgId> positional;
  for (ArgId a : ast_.list(args.posonlyargs)) positional.push_back(a);
  for (ArgId a : ast_.list(args.args)) positional.push_back(a);
  auto defaults = ast_.list(args.defaults);
  for (size_t i = 0; i < defaults.size(); ++i) {
    withDefaults.emplace_back(positional[positional.size() - defaults.size() + i], defaults[i]);
  }
  auto kwonly = ast_.list(args.kwonlyargs);
  auto kwDefaults = ast_.list(args.kwDefaults);
  for (size_t i = 0; i < kwonly.size() && i < kwDefaults.size(); ++i) {
    if (kwDefaults[i].valid()) withDefaults.emplace_back(kwonly[i], kwDefaults[i]);
  }
  for (const auto& [param, d] : withDefaults) {
    TV v = checkExpr(d);
    if (!v.ok()) return TV{};
    v = frozen(v, ast_.expr(d).range);
    if (!v.ok()) return TV{};
    if (v.k == TV::K::Value) {
      diags_.error(loc(d), Diag::TileUnsupported,
                   "a run-time default value (`" + describe(v) + "`) of a function defined inside a tile kernel",
                   ": pass the value as an argument, or give a compile-time default");
      return TV{};
    }
    c.keys.push_back("=" + std::string(ast_.str(ast_.arg(param).arg)));
    c.items.push_back(v);
    c.pieces.emplace_back();
  }
  return c;
}

TV TileChecker::currentValue(const std::string& name, NodeRange at, bool& bound) {
  bound = true;
  if (auto d = dicts_.find(name); d != dicts_.end()) {
    for (const TileArgPiece& p : d->second.pieces) {
      if (p.expr.valid() || !p.path.empty() || !p.var.empty()) {
        diags_.error(loc(at), Diag::TileUnsupported,
                     "a function defined inside a tile kernel that captures `" + name + "`, a dict of run-time values,",
                     ": pass it as an argument");
        return TV{};
      }
    }
    return d->second;
  }
  if (auto f = closures_.find(name); f != closures_.end()) return f->second;
  if (auto c = consts_.find(name); c != consts_.end()) return TV::constant(c->second);
  if (auto v = vars_.find(name); v != vars_.end()) {
    if (auto a = ambiguous_.find(name); a != ambiguous_.end()) {
      diags_.error(loc(at), Diag::TileType,
                   "`" + name + "`, which a function defined here captures, is `" + nameOf(a->second.before) +
                       "` or `" + nameOf(a->second.after) + "` depending on the path taken");
      return TV{};
    }
    noteRead(name);
    if (auto k = known_.find(name); k != known_.end() && k->second.c) return TV::constant(*k->second.c);
    TV out = TV::value(v->second);
    if (types_.isTuple(v->second) && holdsArray(v->second)) {
      diags_.error(loc(at), Diag::TileUnsupported,
                   "a function defined inside a tile kernel that captures `" + name + "`, a tuple holding arrays,",
                   ": pass it as an argument");
      return TV{};
    }
    return out;
  }
  if (auto e = entities_.find(name); e != entities_.end()) return e->second;
  if (failed_.count(name)) return TV{};
  bound = false;
  return TV{};
}

TV TileChecker::freezeClosure(const TV& c, NodeRange at) {
  if (c.live != scope_) return c;
  for (const auto& [def, lambda] : freezing_) {
    if (def == c.def && lambda == c.lambda) {
      diags_.error(loc(at), Diag::TileUnsupported,
                   "functions defined inside a tile kernel that use each other (`" + c.path + "`)",
                   ": cuTile inlines every call; define them at module level");
      return TV{};
    }
  }
  freezing_.emplace_back(c.def, c.lambda);
  TV out = freezeCaptures(c, at);
  freezing_.pop_back();
  return out;
}

TV TileChecker::freezeCaptures(const TV& c, NodeRange at) {
  TV out = c;
  out.live = 0;
  for (size_t i = 0; i < out.keys.size(); ++i) {
    if (out.keys[i][0] == '=') continue;
    const std::string& name = out.keys[i];
    bool bound = true;
    TV v;
    auto self = closures_.find(name);
    if (self != closures_.end() && self->second.k == TV::K::Closure && self->second.def == c.def &&
        self->second.lambda == c.lambda) {
      diags_.error(loc(at), Diag::TileUnsupported,
                   "a function defined inside a tile kernel that calls itself (`" + name + "`)",
                   ": cuTile inlines every call; write the recursion as a module-level helper");
      return TV{};
    }
    v = currentValue(name, at, bound);
    if (!bound) {
      diags_.error(loc(at), Diag::TileType,
                   "`" + c.path + "` uses `" + name + "`, which is not assigned a value before this point");
      return TV{};
    }
    if (!v.ok()) return TV{};
    v = frozen(v, at);
    if (!v.ok()) return TV{};
    if (v.k == TV::K::Value) out.pieces[i] = TileArgPiece{ExprId(), {}, name, v.type};
    out.items[i] = v;
  }
  return out;
}

TV TileChecker::frozen(const TV& v, NodeRange at) {
  if (v.k == TV::K::Closure) return freezeClosure(v, at);
  if (v.k == TV::K::Dict || v.k == TV::K::Items) {
    TV out = v;
    for (TV& item : out.items) {
      item = frozen(item, at);
      if (!item.ok()) return TV{};
    }
    return out;
  }
  return v;
}

uint32_t TileChecker::closureFunction(const TV& c) {
  std::vector<std::string> params;
  const Arguments& args = closureArguments(c);
  auto add = [&](ArgId a) { params.push_back(std::string(ast_.str(ast_.arg(a).arg))); };
  for (ArgId a : ast_.list(args.posonlyargs)) add(a);
  for (ArgId a : ast_.list(args.args)) add(a);
  if (args.vararg.valid()) add(args.vararg);
  for (ArgId a : ast_.list(args.kwonlyargs)) add(a);
  if (args.kwarg.valid()) add(args.kwarg);
  uint32_t captures = 0;
  for (const std::string& k : c.keys) {
    if (k[0] == '=') continue;
    params.push_back(k);
    ++captures;
  }
  for (uint32_t i = 0; i < module_.functions.size(); ++i) {
    const JitFunction& f = module_.functions[i];
    if (f.closure && f.stmt == c.def && f.lambda == c.lambda && f.params == params) return i;
  }
  JitFunction f;
  f.name = c.path;
  f.stmt = c.def;
  f.lambda = c.lambda;
  f.device = true;
  f.tile = true;
  f.tileHelper = true;
  f.closure = true;
  f.captures = captures;
  f.scope = c.defScope;
  f.location = loc(c.def.valid() ? ast_.stmt(c.def).range : ast_.expr(c.lambda).range);
  f.params = std::move(params);
  module_.functions.push_back(std::move(f));
  return static_cast<uint32_t>(module_.functions.size() - 1);
}

TV TileChecker::checkClosureCall(ExprId id, const ast::Call& c, const TV& callee) {
  NodeRange at = ast_.expr(id).range;
  // Called where it was defined: the captures as they are now.
  TV f = callee.live == scope_ ? freezeClosure(callee, at) : callee;
  if (!f.ok()) return TV{};
  uint32_t function = closureFunction(f);
  std::vector<TV> values;
  std::vector<TileHelperArg> lowered;
  if (!bindHelperArgs(id, c, closureArguments(f), f.path, values, lowered, &f)) return TV{};
  for (size_t i = 0; i < f.keys.size(); ++i) {
    if (f.keys[i][0] == '=') continue;
    values.push_back(f.items[i]);
    TileHelperArg l;
    l.pieces.push_back(f.pieces[i]);
    lowered.push_back(std::move(l));
  }
  return instantiateHelper(id, function, f.path, values, lowered);
}

TV TileChecker::itemsOf(const std::vector<TV>& elements, NodeRange at) {
  TV out;
  out.k = TV::K::Items;
  for (const TV& v : elements) {
    bool compileTime = v.k == TV::K::Const || v.k == TV::K::Entity || isAggregate(v) ||
                       (v.k == TV::K::Dict && std::all_of(v.pieces.begin(), v.pieces.end(), [](const TileArgPiece& p) {
                          return !p.expr.valid() && p.path.empty() && p.var.empty();
                        }));
    if (!compileTime) {
      diags_.error(loc(at), Diag::TileUnsupported,
                   "a tuple holding a function and a run-time value (`" + describe(v) + "`)",
                   ": keep functions and run-time values in tuples of their own");
      return TV{};
    }
    out.items.push_back(v);
  }
  return out;
}

bool TileChecker::identicalClosures(const TV& x, const TV& y) {
  if (x.k != TV::K::Closure || y.k != TV::K::Closure || x.def != y.def || x.lambda != y.lambda || x.keys != y.keys ||
      x.live != y.live || x.pieces.size() != y.pieces.size() || x.items.size() != y.items.size()) {
    return false;
  }
  for (size_t k = 0; k < x.keys.size(); ++k) {
    const TileArgPiece& p = x.pieces[k];
    const TileArgPiece& q = y.pieces[k];
    auto e = valuesEqual(x.items[k], y.items[k]);
    bool runtime = x.items[k].k == TV::K::Value && y.items[k].k == TV::K::Value && x.items[k].type == y.items[k].type;
    if (!(e && *e) && !(runtime && p.expr == q.expr && p.path == q.path && p.var == q.var && p.varType == q.varType)) {
      return false;
    }
  }
  return true;
}

bool TileChecker::joinClosures(const std::map<std::string, TV>& thenC, const std::map<std::string, ExprId>& thenSites,
                               const std::map<std::string, TV>& elseC, const std::map<std::string, ExprId>& elseSites,
                               NodeRange at) {
  std::set<std::string> names;
  for (const auto& [name, v] : thenC) names.insert(name);
  for (const auto& [name, v] : elseC) names.insert(name);
  bool ok = true;
  auto siteOf = [](const std::map<std::string, ExprId>& sites, const std::string& name) {
    auto it = sites.find(name);
    return it == sites.end() ? ExprId() : it->second;
  };
  for (const std::string& name : names) {
    auto a = thenC.find(name);
    auto b = elseC.find(name);
    if (a == thenC.end() || b == elseC.end()) {
      // Bound on one path only: the value that path gives (the other cannot read it).
      const auto& [v, sites] = a != thenC.end() ? std::pair(a->second, thenSites) : std::pair(b->second, elseSites);
      closures_[name] = v;
      closureSites_[name] = siteOf(sites, name);
      continue;
    }
    const TV& x = a->second;
    const TV& y = b->second;
    auto eq = valuesEqual(x, y);
    // The very same closure on both paths (its run-time captures the same variables: a
    // `with`'s yielded closure, untouched by the `if`).
    if (!(eq && *eq) && identicalClosures(x, y)) eq = true;
    bool sameLive = x.k == TV::K::Closure && y.k == TV::K::Closure && x.live != 0 && x.live == y.live &&
                    x.def == y.def && x.lambda == y.lambda;
    if ((eq && *eq) || sameLive) {
      closures_[name] = x;
      closureSites_[name] = ExprId();
      continue;
    }
    // The same function with different captured numbers: those become variables
    // (`c.t`), stored where each path binds the name (cuTile joins the closures' values).
    std::string why;
    TV joined = x;
    std::vector<std::pair<ExprId, TileHiddenArg>> stores;
    bool joinable = x.k == TV::K::Closure && y.k == TV::K::Closure && x.def == y.def && x.lambda == y.lambda &&
                    x.keys == y.keys && x.live == 0 && y.live == 0;
    if (!joinable) why = ": they are different functions";
    for (size_t k = 0; joinable && k < x.keys.size(); ++k) {
      const TV& p = x.items[k];
      const TV& q = y.items[k];
      auto same = valuesEqual(p, q);
      if (same && *same) continue;
      std::string key = x.keys[k][0] == '=' ? "default of `" + x.keys[k].substr(1) + "`" : "`" + x.keys[k] + "`";
      auto typeOf = [&](const TV& v) -> std::optional<TypeId> {
        if (v.k == TV::K::Const && v.c.isNumber()) return weakType(v.c);
        if (v.k == TV::K::Value && (types_.isNumber(v.type) || types_.isTile(v.type))) return v.type;
        return std::nullopt;
      };
      auto tp = typeOf(p);
      auto tq = typeOf(q);
      if (!tp || !tq || (p.k == TV::K::Value && q.k == TV::K::Value && *tp != *tq) ||
          types_.isTile(*tp) != types_.isTile(*tq)) {
        joinable = false;
        why = ": its captured " + key + " is `" + describe(p) + "` on one path and `" + describe(q) + "` on the other";
        break;
      }
      TypeId t = p.k == TV::K::Value ? *tp : q.k == TV::K::Value ? *tq : promoteDtypes(*tp, *tq);
      std::string var = name + "." + x.keys[k];
      for (auto [item, site] : {std::pair{&p, siteOf(thenSites, name)}, std::pair{&q, siteOf(elseSites, name)}}) {
        size_t index = item == &p ? 0 : 1;
        const TileArgPiece& from = (index == 0 ? x : y).pieces[k];
        if (item->k == TV::K::Value && from.var == var) continue;  // already that variable
        if (!site.valid()) {
          joinable = false;
          why = ": one of them is a `def` (bind the name with `=` on both paths)";
          break;
        }
        TileHiddenArg h{var, from, t, std::nullopt};
        if (item->k == TV::K::Const) h.value = item->c;
        stores.emplace_back(site, h);
      }
      joined.items[k] = TV::value(t);
      joined.pieces[k] = TileArgPiece{ExprId(), {}, var, t};
    }
    if (!joinable) {
      diags_.error(loc(at), Diag::TileUnsupported,
                   "binding `" + name + "` to different functions on the paths of a run-time `if`",
                   why + " (the same function with other captured numbers is)");
      failed_.insert(name);
      closures_.erase(name);
      ok = false;
      continue;
    }
    for (auto& [site, h] : stores) {
      vars_[h.name] = h.type;
      depth_[h.name] = depthNow_;
      inst_.closureStores[site.index].push_back(h);
    }
    closures_[name] = joined;
    closureSites_[name] = ExprId();
  }
  return ok;
}

}  // namespace frontend::tile
