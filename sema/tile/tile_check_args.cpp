// Helper calls: their arguments gathered (`*t` spliced, `**d` spread), bound to the
// parameters as Python binds them (positional-only, ordinary, `*args`, keyword-only,
// `**kwargs`, defaults; cuTile's _bind_args over inspect.Signature.bind), and the
// helper's instance typed for them (docs/TILE.md, "Helper functions").
#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

namespace {

std::string plural(size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

}  // namespace

TV TileChecker::functionValue(const std::string& name, StmtId def) {
  TV v;
  v.k = TV::K::Entity;
  v.ent = Intrinsic::HostValue;
  v.payload = 1;
  v.path = name;
  v.def = def;
  // A def of the enclosing function of a nested kernel sees that function's names.
  if (fn_.scope > 0) {
    const auto& defs = module_.scopes[fn_.scope - 1].plainDefs;
    if (auto it = defs.find(name); it != defs.end() && it->second == def) v.defScope = fn_.scope;
  }
  return v;
}

bool TileChecker::bindTupleAlias(const ast::Assign& a) {
  auto targets = ast_.list(a.targets);
  if (targets.size() != 1 || !ast_.expr(targets[0]).is<ast::Name>()) return false;
  const auto* display = ast_.expr(a.value).dyn<ast::Tuple>();
  if (display == nullptr) return false;
  std::string name(ast_.str(ast_.expr(targets[0]).as<ast::Name>().id));
  if (depthNow_ > 0 || assigned_[name] > 1 || nestedAssigned_.count(name) || vars_.count(name)) return false;
  // Elements that read the same wherever the tuple is spliced: constants and names the
  // function never assigns (its parameters, module constants).
  bool array = false;
  for (ExprId e : ast_.list(display->elts)) {
    const Expr& x = ast_.expr(e);
    if (const auto* n = x.dyn<ast::Name>()) {
      std::string elt(ast_.str(n->id));
      auto it = assigned_.find(elt);
      if (it != assigned_.end() && it->second > 0) return false;
      if (auto v = vars_.find(elt); v != vars_.end() && types_.isArray(v->second)) array = true;
    } else if (!x.is<ast::Constant>() && !(x.is<ast::Tuple>() && ast_.list(x.as<ast::Tuple>().elts).empty())) {
      return false;
    }
  }
  if (!array) return false;
  for (ExprId e : ast_.list(display->elts)) {
    if (!checkExpr(e).ok()) failed_.insert(name);
  }
  tupleAliases_[name] = a.value;
  return true;
}

std::optional<std::vector<ExprId>> TileChecker::splicedDisplay(ExprId starred) {
  ExprId v = ast_.expr(starred).as<ast::Starred>().value;
  if (const auto* n = ast_.expr(v).dyn<ast::Name>()) {
    auto it = tupleAliases_.find(std::string(ast_.str(n->id)));
    if (it == tupleAliases_.end()) return std::nullopt;
    v = it->second;
  }
  const auto* display = ast_.expr(v).dyn<ast::Tuple>();
  if (display == nullptr) return std::nullopt;
  std::vector<ExprId> out;
  for (ExprId e : ast_.list(display->elts)) {
    if (ast_.expr(e).is<ast::Starred>()) return std::nullopt;
    out.push_back(e);
  }
  return out;
}

bool TileChecker::gatherArgs(const ast::Call& c, const std::string& name, std::vector<ArgItem>& positional,
                             std::vector<std::pair<std::string, ArgItem>>& keywords) {
  for (ExprId a : ast_.list(c.args)) {
    const auto* star = ast_.expr(a).dyn<ast::Starred>();
    if (star == nullptr) {
      TV v = checkExpr(a);
      if (!v.ok()) return false;
      positional.push_back(ArgItem{v, TileArgPiece{a, {}}, ast_.expr(a).range});
      continue;
    }
    // `*t`: the tuple's elements, each an argument (cuTile: "Expected a tuple after *");
    // a display's (or a name bound to one) are their own expressions.
    if (auto elts = splicedDisplay(a)) {
      for (ExprId e : *elts) {
        TV v = checkExpr(e);
        if (!v.ok()) return false;
        positional.push_back(ArgItem{v, TileArgPiece{e, {}}, ast_.expr(a).range});
      }
      continue;
    }
    TV t = checkExpr(star->value);
    if (!t.ok()) return false;
    if (t.k == TV::K::Const && t.c.kind == ConstValue::Kind::Tuple) {
      for (uint32_t i = 0; i < t.c.elements.size(); ++i) {
        positional.push_back(ArgItem{TV::constant(t.c.elements[i]), TileArgPiece{star->value, {i}}, ast_.expr(a).range});
      }
      continue;
    }
    if (t.k == TV::K::Value && isDataclassType(types_, t.type)) {
      diags_.error(loc(star->value), Diag::TileType,
                   "argument after * must be an iterable, not " + dataclassName(types_, t.type));
      return false;
    }
    if (t.k == TV::K::Value && types_.isTuple(t.type)) {
      const std::vector<TypeId>& elements = types_.get(t.type).elements;
      for (uint32_t i = 0; i < elements.size(); ++i) {
        TV v = TV::value(elements[i]);
        if (auto k = knownElement(star->value, i)) v = TV::constant(*k);
        if (v.k == TV::K::Value && (types_.isArray(v.type) || (types_.isTuple(v.type) && holdsArray(v.type)))) {
          diags_.error(loc(a), Diag::TileUnsupported, "passing an array out of a tuple with `*`",
                       ": pass the element itself (`t[0]`)");
          return false;
        }
        positional.push_back(ArgItem{v, TileArgPiece{star->value, {i}}, ast_.expr(a).range});
      }
      continue;
    }
    diags_.error(loc(a), Diag::TileType, "`*` in a call takes a tuple, found `" + describe(t) + "`");
    return false;
  }
  for (KeywordId kid : ast_.list(c.keywords)) {
    const Keyword& k = ast_.keyword(kid);
    std::vector<std::pair<std::string, ArgItem>> given;
    if (k.arg.valid()) {
      TV v = checkExpr(k.value);
      if (!v.ok()) return false;
      given.emplace_back(std::string(ast_.str(k.arg)), ArgItem{v, TileArgPiece{k.value, {}}, k.range});
    } else {
      // `**d`: the dict's items, each a keyword (cuTile: "Expected a dictionary after **").
      TV d = checkExpr(k.value);
      if (!d.ok()) return false;
      if (d.k != TV::K::Dict) {
        diags_.error(loc(k.range), Diag::TileType, "`**` in a call takes a dict, found `" + describe(d) + "`");
        return false;
      }
      for (size_t i = 0; i < d.keys.size(); ++i) given.emplace_back(d.keys[i], ArgItem{d.items[i], d.pieces[i], k.range});
    }
    for (auto& [key, item] : given) {
      for (const auto& [seen, unused] : keywords) {
        if (seen == key) {
          diags_.error(loc(k.range), Diag::InvalidCall, "`" + name + "` got `" + key + "` twice");
          return false;
        }
      }
      keywords.emplace_back(key, item);
    }
  }
  return true;
}

TV TileChecker::packTuple(const std::vector<ArgItem>& items, ExprId at, TileHelperArg& lowered) {
  ConstValue all;
  all.kind = ConstValue::Kind::Tuple;
  bool allConst = true;
  for (const ArgItem& item : items) {
    if (item.v.k == TV::K::Const) {
      all.elements.push_back(item.v.c);
    } else {
      allConst = false;
    }
  }
  if (allConst) return TV::constant(all);
  lowered.packed = true;
  std::vector<TypeId> elements;
  for (const ArgItem& item : items) {
    std::optional<TypeId> t;
    if (item.v.k == TV::K::Const) {
      t = runtimeTypeOf(item.v.c);
    } else if (item.v.k == TV::K::Value && !types_.isArray(item.v.type) &&
               !(types_.isTuple(item.v.type) && holdsArray(item.v.type))) {
      t = item.v.type;
      if (types_.isTile(*t) && types_.get(*t).shape.empty()) t = types_.get(*t).element;
    }
    if (!t) {
      diags_.error(loc(item.at), Diag::TileUnsupported, "passing `" + describe(item.v) + "` in `*args`",
                   ": `*args` holds numbers, tiles and tuples of them (give it a parameter of its own)");
      return TV{};
    }
    elements.push_back(*t);
    lowered.pieces.push_back(item.piece);
  }
  (void)at;
  TV v = TV::value(types_.tuple(elements));
  for (const ArgItem& item : items) {
    v.knownParts.push_back(item.v.k == TV::K::Const ? std::optional<ConstValue>(item.v.c) : std::nullopt);
  }
  return v;
}

TV TileChecker::packDict(const std::vector<std::pair<std::string, ArgItem>>& items, ExprId at,
                         TileHelperArg& lowered) {
  TV d;
  d.k = TV::K::Dict;
  uint32_t runtime = 0;
  for (const auto& [key, item] : items) {
    d.keys.push_back(key);
    d.items.push_back(item.v);
    // A 0-d tile is a scalar (as record() makes it).
    if (TV& v = d.items.back(); v.k == TV::K::Value && types_.isTile(v.type) && types_.get(v.type).shape.empty()) {
      v.type = types_.get(v.type).element;
    }
    TileArgPiece piece;
    if (item.v.k == TV::K::Value) {
      if (types_.isArray(item.v.type) || (types_.isTuple(item.v.type) && holdsArray(item.v.type))) {
        diags_.error(loc(item.at), Diag::TileUnsupported, "passing an array in `**kwargs`",
                     ": name the parameter");
        return TV{};
      }
      lowered.packed = true;
      lowered.pieces.push_back(item.piece);
      piece.path = {runtime++};
    } else if (item.v.k == TV::K::Dict && !item.v.pieces.empty()) {
      bool nested = false;
      for (const TileArgPiece& p : item.v.pieces) nested = nested || !p.path.empty() || p.expr.valid();
      if (nested) {
        diags_.error(loc(item.at), Diag::TileUnsupported, "a dict of run-time values inside `**kwargs`", "");
        return TV{};
      }
    }
    d.pieces.push_back(piece);
  }
  (void)at;
  return d;
}

bool TileChecker::bindHelperArgs(ExprId id, const ast::Call& c, const Arguments& args, const std::string& name,
                                 std::vector<TV>& values, std::vector<TileHelperArg>& lowered, const TV* closure,
                                 size_t skip) {
  std::vector<ArgItem> positional;
  std::vector<std::pair<std::string, ArgItem>> keywords;
  if (!gatherArgs(c, name, positional, keywords)) return false;
  auto posonly = ast_.list(args.posonlyargs);
  auto ordinary = ast_.list(args.args);
  auto kwonly = ast_.list(args.kwonlyargs);
  auto defaults = ast_.list(args.defaults);
  auto kwDefaults = ast_.list(args.kwDefaults);
  std::vector<std::string> positionalNames;
  for (ArgId a : posonly) positionalNames.push_back(std::string(ast_.str(ast_.arg(a).arg)));
  for (ArgId a : ordinary) positionalNames.push_back(std::string(ast_.str(ast_.arg(a).arg)));
  // A method's `self` (bound by the caller).
  skip = std::min(skip, positionalNames.size());
  positionalNames.erase(positionalNames.begin(), positionalNames.begin() + static_cast<std::ptrdiff_t>(skip));
  size_t posonlyCount = posonly.size() > skip ? posonly.size() - skip : 0;
  std::vector<std::string> kwonlyNames;
  for (ArgId a : kwonly) kwonlyNames.push_back(std::string(ast_.str(ast_.arg(a).arg)));
  size_t nPos = positionalNames.size();

  // Positional arguments fill the positional parameters, the rest `*args`.
  std::vector<std::optional<ArgItem>> pos(nPos);
  std::vector<ArgItem> extra;
  for (size_t i = 0; i < positional.size(); ++i) {
    if (i < nPos) {
      pos[i] = positional[i];
    } else if (args.vararg.valid()) {
      extra.push_back(positional[i]);
    } else {
      diags_.error(loc(positional[i].at), Diag::InvalidCall,
                   "`" + name + "` takes " + plural(nPos, "positional argument") + " but " +
                       std::to_string(positional.size()) + " were given");
      return false;
    }
  }
  // Keywords fill the ordinary and keyword-only parameters by name, the rest `**kwargs`.
  std::vector<std::optional<ArgItem>> kw(kwonlyNames.size());
  std::vector<std::pair<std::string, ArgItem>> rest;
  for (const auto& [key, item] : keywords) {
    auto p = std::find(positionalNames.begin(), positionalNames.end(), key);
    size_t pi = static_cast<size_t>(p - positionalNames.begin());
    auto q = std::find(kwonlyNames.begin(), kwonlyNames.end(), key);
    if (p != positionalNames.end() && pi >= posonlyCount) {
      if (pos[pi]) {
        diags_.error(loc(item.at), Diag::InvalidCall, "`" + name + "` got `" + key + "` twice");
        return false;
      }
      pos[pi] = item;
    } else if (q != kwonlyNames.end()) {
      kw[static_cast<size_t>(q - kwonlyNames.begin())] = item;
    } else if (args.kwarg.valid()) {
      rest.emplace_back(key, item);
    } else if (p != positionalNames.end()) {
      diags_.error(loc(item.at), Diag::InvalidCall,
                   "`" + name + "` takes `" + key + "` by position only, not as a keyword");
      return false;
    } else {
      diags_.error(loc(item.at), Diag::InvalidCall, "`" + name + "` has no parameter `" + key + "`");
      return false;
    }
  }

  // Each parameter's value, defaults filling the gaps (module-level constant expressions
  // or dtypes, as cuTile's sym2var(param.default, constant_only=True)).
  auto fromDefault = [&](ExprId d) -> TV {
    if (auto folded = foldConstant(ast_, d, module_)) return record(d, TV::constant(*folded));
    return checkExpr(d);
  };
  // A closure's default: its value at the `def` (cuTile's ClosureValue.default_values).
  auto closureDefault = [&](const std::string& param, ArgItem& out) {
    if (closure == nullptr) return false;
    for (size_t k = 0; k < closure->keys.size(); ++k) {
      if (closure->keys[k] != "=" + param) continue;
      out = ArgItem{closure->items[k], closure->pieces[k], ast_.expr(id).range};
      return true;
    }
    return false;
  };
  auto take = [&](const ArgItem& item) {
    values.push_back(item.v);
    TileHelperArg l;
    l.pieces.push_back(item.piece);
    lowered.push_back(std::move(l));
  };
  // A parameter the call left out: the closure's value at the `def`, else its default
  // `d` (none: an error naming the parameter, `kind` "keyword-only " or "").
  auto takeDefault = [&](const std::string& param, ExprId d, const char* kind) {
    if (!d.valid()) {
      diags_.error(loc(id), Diag::InvalidCall, "`" + name + "` needs its " + kind + "`" + param + "` argument");
      return false;
    }
    ArgItem fromClosure;
    if (closureDefault(param, fromClosure)) {
      take(fromClosure);
      return true;
    }
    TV v = fromDefault(d);
    if (!v.ok()) return false;
    take(ArgItem{v, TileArgPiece{d, {}}, ast_.expr(d).range});
    return true;
  };
  size_t firstDefault = nPos - defaults.size();
  for (size_t i = 0; i < nPos; ++i) {
    if (pos[i]) {
      take(*pos[i]);
      continue;
    }
    if (!takeDefault(positionalNames[i], i < firstDefault ? ExprId() : defaults[i - firstDefault], "")) {
      return false;
    }
  }
  if (args.vararg.valid()) {
    TileHelperArg l;
    TV v = packTuple(extra, id, l);
    if (!v.ok()) return false;
    values.push_back(v);
    lowered.push_back(std::move(l));
  }
  for (size_t i = 0; i < kwonlyNames.size(); ++i) {
    if (kw[i]) {
      take(*kw[i]);
      continue;
    }
    if (!takeDefault(kwonlyNames[i], i < kwDefaults.size() ? kwDefaults[i] : ExprId(), "keyword-only ")) {
      return false;
    }
  }
  if (args.kwarg.valid()) {
    TileHelperArg l;
    TV v = packDict(rest, id, l);
    if (!v.ok()) return false;
    values.push_back(v);
    lowered.push_back(std::move(l));
  }
  return true;
}

TV TileChecker::checkHelperCall(ExprId id, const ast::Call& c, StmtId defStmt, const std::string& name,
                                std::optional<uint32_t> scope) {
  if (ast_.stmt(defStmt).isAsync()) {
    diags_.error(loc(c.func), Diag::TileUnsupported, "calling `async def " + name + "`", "");
    return TV{};
  }
  uint32_t function = helperFunction(defStmt, name, scope);
  std::vector<TV> values;
  std::vector<TileHelperArg> lowered;
  if (!bindHelperArgs(id, c, ast_.arguments(ast_.stmt(defStmt).functionDef()->args), name, values, lowered)) {
    return TV{};
  }
  return instantiateHelper(id, function, name, values, lowered);
}

TV TileChecker::instantiateHelper(ExprId id, uint32_t function, const std::string& name, std::vector<TV>& values,
                                  std::vector<TileHelperArg>& lowered, bool recordResult) {
  assert(values.size() == module_.functions[function].params.size() && "one value per parameter");
  // A @contextmanager function makes a context manager, entered only by `with`
  // (tile_check_with.cpp): typed then as a generator whose `yield` gives the value.
  bool gen = id == withCall_;
  {
    const JitFunction& jf = module_.functions[function];
    bool cm = jf.stmt.valid() && !jf.closure && isContextManagerDef(jf.stmt);
    if (cm && !gen) {
      diags_.error(loc(id), Diag::TileType,
                   "`" + name + "(...)` is a generator-based context manager (`@contextmanager`): tile kernels "
                   "use it only in `with " + name + "(...):`, not as a value");
      return TV{};
    }
    if (gen && !cm) {
      diags_.error(loc(id), Diag::TileType,
                   "`with` takes a call of a `@contextmanager` generator function; `" + name + "` is not one");
      return TV{};
    }
  }
  std::vector<ExprId> bound(values.size());
  bool plain = true;
  for (size_t i = 0; i < values.size(); ++i) {
    // A closure given to a helper leaves this function: its captures as they are now.
    values[i] = frozen(values[i], ast_.expr(id).range);
    if (!values[i].ok()) return TV{};
    const TV& v = values[i];
    const TileHelperArg l = lowered[i];
    // A dataclass instance holding arrays (a parameter, a name bound to one, a construction,
    // a field of one): the helper's parameter stands for it (lowering's TupleArg).
    bool instance = v.k == TV::K::Value && isDataclassType(types_, v.type) && holdsArray(v.type) && !l.packed &&
                    l.pieces.size() == 1 && l.pieces[0].expr.valid() && l.pieces[0].path.empty() &&
                    l.pieces[0].var.empty();
    bool passable = v.k == TV::K::Const || v.k == TV::K::Dict || isAggregate(v) || instance ||
                    (v.k == TV::K::Value && !(types_.isTuple(v.type) && holdsArray(v.type))) ||
                    (v.k == TV::K::Entity && (v.ent == Intrinsic::TypeObject || v.ent == Intrinsic::TileOp ||
                                              isFunctionValue(v)));
    if (!passable) {
      ExprId at = !l.packed && l.pieces.size() == 1 && l.pieces[0].expr.valid() ? l.pieces[0].expr : id;
      diags_.error(loc(at), Diag::TileType, "cannot pass `" + describe(v) + "` to a helper function");
      return TV{};
    }
    if (v.k == TV::K::Dict && !l.packed) {
      // A dict given to an ordinary parameter (`g(t, {"a": x})`, `g(t, kwargs)`): its run-time
      // values, as for `**kwargs`.
      std::vector<std::pair<std::string, ArgItem>> items;
      NodeRange at = ast_.expr(l.pieces.empty() ? id : l.pieces[0].expr).range;
      for (size_t k = 0; k < v.keys.size(); ++k) items.emplace_back(v.keys[k], ArgItem{v.items[k], v.pieces[k], at});
      TileHelperArg packed;
      TV d = packDict(items, id, packed);
      if (!d.ok()) return TV{};
      values[i] = d;
      lowered[i] = packed;
    }
    if (!lowered[i].packed && lowered[i].pieces.size() == 1 && lowered[i].pieces[0].path.empty() &&
        lowered[i].pieces[0].var.empty()) {
      bound[i] = lowered[i].pieces[0].expr;
    } else if (values[i].k == TV::K::Value || lowered[i].packed) {
      plain = false;
    }
  }
  // Closures holding run-time values: each such value becomes a variable of the helper
  // (`f.t` for parameter `f`'s capture `t`), bound at the call.
  std::vector<TileHiddenArg> hidden;
  const std::vector<std::string> params = module_.functions[function].params;
  for (size_t i = 0; i < values.size(); ++i) hideRuntimeParts(values[i], params[i], hidden);
  std::string key = std::to_string(function);
  for (const TV& v : values) {
    key += "," + argCode(v) + (v.k == TV::K::Const ? "=" + v.c.repr() : "");
    for (const auto& k : v.knownParts) key += k ? "=" + k->repr() : std::string("=?");
  }
  if (std::find(helpers_.stack.begin(), helpers_.stack.end(), key) != helpers_.stack.end()) {
    diags_.error(loc(id), Diag::TileRecursion, name);
    return TV{};
  }
  if (helpers_.stack.size() >= HelperContext::kMaxDepth) {
    diags_.error(loc(id), Diag::TileRecursionDepth, name, std::to_string(HelperContext::kMaxDepth));
    return TV{};
  }
  inst_.callArguments[id.index] = bound;
  if (!plain) inst_.helperArgs[id.index] = lowered;
  if (!hidden.empty()) inst_.hiddenArgs[id.index] = hidden;
  auto done = helpers_.done.find(key);
  if (done == helpers_.done.end()) {
    FunctionInstance h;
    h.function = function;
    h.tile = true;
    helpers_.stack.push_back(key);
    TileChecker child(ast_, module_, h, diags_, helpers_);
    if (gen) child.setGenerator();
    HelperContext::Done d;
    d.result = child.runHelper(values);
    if (gen) d.end = child.generatorEnd();
    d.effects = child.effects();
    d.assigned = child.assignedNames();
    helpers_.stack.pop_back();
    h.symbol = name;
    for (const TV& v : values) {
      h.symbol += "__" + argCode(v);
      // `*args`' constant elements make instances of their own.
      for (const auto& k : v.knownParts) h.symbol += k ? "_K" + k->repr() : std::string("_");
    }
    for (char& ch : h.symbol) {
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') ch = '_';
    }
    d.index = static_cast<int32_t>(helpers_.out.size());
    helpers_.out.push_back(std::move(h));
    done = helpers_.done.emplace(key, d).first;
  }
  if (!done->second.result.ok()) return TV{};
  effects_ = effects_ || done->second.effects;
  inst_.callees[id.index] = done->second.index;
  TV result = done->second.result;
  // A bound method returned (`def add_method(tv): return tv.atomic_store_add`): bound to
  // the caller's argument for that parameter.
  if (result.k == TV::K::Entity && result.self.valid() && !rebindReturnedMethod(result, id, function, bound,
                                                                                 done->second.assigned, name)) {
    return TV{};
  }
  // A closure returned: its run-time captures in this function's terms.
  std::string lost;
  std::vector<TileHiddenArg> exports;
  if (!callerPieces(result, id, function, lowered, hidden, done->second.assigned, exports, lost)) {
    diags_.error(loc(id), Diag::TileUnsupported,
                 "`" + name + "` returning a function that captures `" + lost +
                     "`, a run-time value made inside it,",
                 ": return the value too and pass it to the function, or capture only compile-time values and "
                 "the caller's variables");
    return TV{};
  }
  if (gen) {
    // What `as` holds after the `with`: the closures frozen at the generator's end, their
    // run-time captures the same variables (copied again there).
    TV end = done->second.end.ok() ? done->second.end : result;
    if (!callerPieces(end, id, function, lowered, hidden, done->second.assigned, exports, lost)) end = result;
    withEnds_[id.index] = end;
  }
  if (!exports.empty()) inst_.exports[id.index] = exports;
  return recordResult ? record(id, result) : result;
}

void TileChecker::hideRuntimeParts(TV& v, const std::string& prefix, std::vector<TileHiddenArg>& hidden) {
  if (v.k == TV::K::Items) {
    for (size_t i = 0; i < v.items.size(); ++i) hideRuntimeParts(v.items[i], prefix + "." + std::to_string(i), hidden);
    return;
  }
  if (v.k != TV::K::Closure) return;
  for (size_t k = 0; k < v.keys.size(); ++k) {
    std::string name = prefix + "." + (v.keys[k][0] == '=' ? v.keys[k].substr(1) + "=" : v.keys[k]);
    TV& item = v.items[k];
    if (isAggregate(item)) {
      hideRuntimeParts(item, name, hidden);
      continue;
    }
    TileArgPiece& p = v.pieces[k];
    if (item.k != TV::K::Value || (!p.expr.valid() && p.var.empty())) continue;
    hidden.push_back(TileHiddenArg{name, p, item.type, std::nullopt});
    p = TileArgPiece{ExprId(), {}, name, item.type};
  }
}

void TileChecker::bindHiddenVars(const TV& v) {
  if (v.k == TV::K::Items) {
    for (const TV& item : v.items) bindHiddenVars(item);
    return;
  }
  if (v.k != TV::K::Closure) return;
  for (size_t k = 0; k < v.keys.size(); ++k) {
    if (isAggregate(v.items[k])) bindHiddenVars(v.items[k]);
    const TileArgPiece& p = v.pieces[k];
    if (p.var.empty()) continue;
    vars_[p.var] = p.varType;
    depth_[p.var] = 0;
  }
}

bool TileChecker::callerPieces(TV& v, ExprId call, uint32_t function, const std::vector<TileHelperArg>& lowered,
                               const std::vector<TileHiddenArg>& hidden, const std::set<std::string>& assigned,
                               std::vector<TileHiddenArg>& exports, std::string& lost) {
  if (v.k == TV::K::Items) {
    for (TV& item : v.items) {
      if (!callerPieces(item, call, function, lowered, hidden, assigned, exports, lost)) return false;
    }
    return true;
  }
  if (v.k != TV::K::Closure) return true;
  const JitFunction& fn = module_.functions[function];
  size_t firstCapture = fn.closure ? fn.params.size() - fn.captures : fn.params.size();
  for (size_t k = 0; k < v.keys.size(); ++k) {
    if (!callerPieces(v.items[k], call, function, lowered, hidden, assigned, exports, lost)) return false;
    TileArgPiece& p = v.pieces[k];
    if (p.var.empty()) continue;
    lost = v.keys[k];
    std::optional<TileArgPiece> outer;
    for (const TileHiddenArg& h : hidden) {
      if (h.name == p.var) outer = h.piece;
    }
    // A capture of a function around the helper, never assigned in it: still that
    // function's variable (a live scope).
    for (size_t i = firstCapture; i < fn.params.size() && !outer; ++i) {
      if (fn.params[i] != p.var || assigned.count(p.var) || lowered[i].packed || lowered[i].pieces.size() != 1) continue;
      if (!lowered[i].pieces[0].var.empty()) outer = lowered[i].pieces[0];
    }
    if (!outer) {
      // The helper's own value (a parameter, a local): copied out at its end.
      std::string name = "$" + std::to_string(call.index) + "." + p.var;
      bool seen = false;
      for (const TileHiddenArg& e : exports) seen = seen || e.name == name;
      if (!seen) exports.push_back(TileHiddenArg{name, TileArgPiece{ExprId(), {}, p.var, p.varType}, p.varType, std::nullopt});
      vars_[name] = p.varType;
      depth_[name] = depthNow_;
      outer = TileArgPiece{ExprId(), {}, name, p.varType};
    }
    p = *outer;
  }
  return true;
}

bool TileChecker::rebindReturnedMethod(TV& v, ExprId call, uint32_t function, const std::vector<ExprId>& bound,
                                       const std::set<std::string>& assigned, const std::string& name) {
  const std::vector<std::string>& params = module_.functions[function].params;
  if (const auto* n = ast_.expr(v.self).dyn<ast::Name>()) {
    std::string self(ast_.str(n->id));
    for (size_t i = 0; i < params.size() && i < bound.size(); ++i) {
      if (params[i] != self || assigned.count(self) || !bound[i].valid()) continue;
      v.self = bound[i];
      return true;
    }
  }
  diags_.error(loc(call), Diag::TileUnsupported,
               "`" + name + "` returning the method `" + v.path + "` of a value it computes",
               ": return a method of one of its parameters (`return tv.atomic_store_add`), or call the method in "
               "the helper");
  return false;
}

}  // namespace frontend::tile
