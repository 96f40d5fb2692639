// Compile-time dictionaries (cuTile's DictTy, "limited support for **kwargs"): a helper's
// `**kwargs`, dict displays, `d["k"]`, `d.get("k", default)`, `"k" in d`, `d == {...}`.
// The keys are strings known at compile time; the values constants, entities, dicts or
// run-time values (docs/TILE.md, "Helper functions").
#include "sema/const_eval.h"
#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

TV TileChecker::checkDictDisplay(ExprId id, const ast::Dict& d) {
  TV out;
  out.k = TV::K::Dict;
  auto keys = ast_.list(d.keys);
  auto values = ast_.list(d.values);
  auto put = [&](const std::string& key, const TV& v, const TileArgPiece& piece) {
    for (size_t i = 0; i < out.keys.size(); ++i) {
      if (out.keys[i] == key) {  // Python: a later value replaces the earlier one
        out.items[i] = v;
        out.pieces[i] = piece;
        return;
      }
    }
    out.keys.push_back(key);
    out.items.push_back(v);
    out.pieces.push_back(piece);
  };
  for (size_t i = 0; i < values.size(); ++i) {
    if (i >= keys.size() || !keys[i].valid()) {  // `**other`
      TV o = checkExpr(values[i]);
      if (!o.ok()) return TV{};
      if (o.k != TV::K::Dict) {
        diags_.error(loc(values[i]), Diag::TileType, "`**` in a dict takes a dict, found `" + describe(o) + "`");
        return TV{};
      }
      for (size_t j = 0; j < o.keys.size(); ++j) put(o.keys[j], o.items[j], o.pieces[j]);
      continue;
    }
    TV k = checkExpr(keys[i]);
    if (!k.ok()) return TV{};
    if (k.k != TV::K::Const || k.c.kind != ConstValue::Kind::Str) {
      diags_.error(loc(keys[i]), Diag::TileType, "dictionary keys must be strings, found `" + describe(k) + "`");
      return TV{};
    }
    TV v = checkExpr(values[i]);
    if (!v.ok()) return TV{};
    TileArgPiece piece;
    if (v.k == TV::K::Value) piece.expr = values[i];
    put(k.c.strValue, v, piece);
  }
  return record(id, out);
}

TV TileChecker::readDict(ExprId id, const TV& dict) {
  TV d = dict;
  bool runtime = false;
  for (TileArgPiece& p : d.pieces) {
    if (!p.expr.valid() && !p.path.empty()) {
      p.expr = id;
      runtime = true;
    }
  }
  if (runtime) {
    const std::string name(ast_.str(ast_.expr(id).as<ast::Name>().id));
    inst_.exprTypes[id.index] = vars_.at(name);
  }
  return d;
}

bool TileChecker::dictKey(const TV& dict, ExprId key, std::optional<size_t>& index, std::string* text) {
  TV k = checkExpr(key);
  if (!k.ok()) return false;
  if (k.k != TV::K::Const || k.c.kind != ConstValue::Kind::Str) {
    // cuTile: "Dictionary keys must be strings" (a stronger check than Python's).
    diags_.error(loc(key), Diag::TileType, "dictionary keys must be strings, found `" + describe(k) + "`");
    return false;
  }
  index.reset();
  if (text != nullptr) *text = k.c.strValue;
  for (size_t i = 0; i < dict.keys.size(); ++i) {
    if (dict.keys[i] == k.c.strValue) index = i;
  }
  return true;
}

TV TileChecker::dictItem(ExprId id, const TV& dict, size_t i, ExprId keyExpr) {
  const TV& v = dict.items[i];
  if (v.k != TV::K::Value) return record(id, v);
  // A run-time value: element path[0] of the tuple the name holding the dict gives, read
  // as that tuple's subscript (`kwargs["x"]` is `kwargs[j]` to lowering).
  const TileArgPiece& p = dict.pieces[i];
  const auto* sub = ast_.expr(id).dyn<ast::Subscript>();
  if (sub == nullptr || p.path.size() != 1 || p.expr != sub->value) {
    diags_.error(loc(id), Diag::TileUnsupported, "reading a run-time value out of this dict",
                 ": index a helper's `**kwargs` (`kwargs[\"" + dict.keys[i] + "\"]`) or pass it on with `**`");
    return TV{};
  }
  record(keyExpr, TV::constant(ConstValue::ofInt(p.path[0])));
  return record(id, v);
}

TV TileChecker::checkDictSubscript(ExprId id, const ast::Subscript& sub, const TV& base) {
  std::optional<size_t> i;
  std::string key;
  if (!dictKey(base, sub.slice, i, &key)) return TV{};
  if (!i) {
    diags_.error(loc(sub.slice), Diag::TileType, "key '" + key + "' not found in the dictionary");
    return TV{};
  }
  return dictItem(id, base, *i, sub.slice);
}

std::optional<ExprId> TileChecker::moduleDictLiteral(const std::string& name) {
  if (consts_.count(name) || vars_.count(name) || entities_.count(name) || failed_.count(name) ||
      assigned_.count(name) || dicts_.count(name)) {
    return std::nullopt;
  }
  if (fn_.scope > 0 && module_.scopes[fn_.scope - 1].names.count(name)) return std::nullopt;
  const Entity* e = module_.lookup(name, fn_.scope);
  if (e == nullptr || e->kind != Intrinsic::HostValue || e->payload != 0) return std::nullopt;
  // The module's one binding of `name`, a dict display (`_op_to_func = {...}`), which no
  // module-level statement changes (`d[k] = v`, `d.update(...)` are host code pykc does not run).
  std::optional<ExprId> found;
  for (StmtId sid : ast_.module()) {
    const Stmt& st = ast_.stmt(sid);
    const auto* a = st.dyn<ast::Assign>();
    if (a == nullptr) continue;
    for (ExprId t : ast_.list(a->targets)) {
      const Expr& te = ast_.expr(t);
      const ast::Name* n = te.dyn<ast::Name>();
      if (const auto* ts = te.dyn<ast::Subscript>()) n = ast_.expr(ts->value).dyn<ast::Name>();
      if (n == nullptr || ast_.str(n->id) != name) continue;
      if (found || !te.is<ast::Name>() || !ast_.expr(a->value).is<ast::Dict>()) return std::nullopt;
      found = a->value;
    }
  }
  return found;
}

std::optional<TV> TileChecker::moduleDictSubscript(ExprId id, const ast::Subscript& sub) {
  const auto* base = ast_.expr(sub.value).dyn<ast::Name>();
  if (base == nullptr) return std::nullopt;
  const std::string name(ast_.str(base->id));
  auto literal = moduleDictLiteral(name);
  if (!literal) return std::nullopt;
  // cuTile evaluates `ct.static_eval(_op_to_func[AtomicOp(op_id)])` on the host: a module
  // dict of compile-time keys (enum members, numbers, strings) and values (constants,
  // ct functions, module functions), indexed by a compile-time key.
  TV k = checkExpr(sub.slice);
  if (!k.ok()) return TV{};
  if (k.k != TV::K::Const) {
    diags_.error(loc(sub.slice), Diag::NotConstant, "the key of module dict `" + name + "` (here `" + describe(k) + "`)");
    return TV{};
  }
  const auto& d = ast_.expr(*literal).as<ast::Dict>();
  auto keys = ast_.list(d.keys);
  auto values = ast_.list(d.values);
  auto moduleName = [](const std::string&) { return ConstEvalLocal{}; };
  std::optional<size_t> hit;
  for (size_t i = 0; i < keys.size() && i < values.size(); ++i) {
    std::optional<ConstValue> key;
    if (keys[i].valid()) key = foldConstant(ast_, keys[i], module_);  // `AtomicOp.XCHG`
    if (keys[i].valid() && !key) key = evalHostConstant(ast_, module_, 0, moduleName, keys[i]);
    if (!key) {
      diags_.error(loc(id), Diag::TileUnsupported,
                   "indexing module dict `" + name + "`, whose keys are not all compile-time constants,", "");
      return TV{};
    }
    auto eq = foldCompare(CmpOp::Eq, *key, k.c);
    if (eq && truthOf(*eq)) hit = i;  // the last one wins, as in Python
  }
  if (!hit) {
    diags_.error(loc(sub.slice), Diag::TileType, "key " + k.c.repr() + " not found in module dict `" + name + "`");
    return TV{};
  }
  TV v = checkExpr(values[*hit]);
  if (!v.ok()) return TV{};
  if (v.k != TV::K::Const && v.k != TV::K::Entity) {
    diags_.error(loc(values[*hit]), Diag::TileUnsupported,
                 "a value of module dict `" + name + "` that is not a compile-time constant or function", "");
    return TV{};
  }
  return record(id, v);
}

std::optional<TV> TileChecker::checkDictMethod(ExprId id, const ast::Call& c) {
  const auto* attr = ast_.expr(c.func).dyn<ast::Attribute>();
  if (attr == nullptr) return std::nullopt;
  const auto* name = ast_.expr(attr->value).dyn<ast::Name>();
  bool dictName = name != nullptr && dicts_.count(std::string(ast_.str(name->id)));
  if (!dictName && !ast_.expr(attr->value).is<ast::Dict>()) return std::nullopt;
  TV d = checkExpr(attr->value);
  if (!d.ok()) return TV{};
  std::string method(ast_.str(attr->attr));
  if (method != "get") {
    diags_.error(loc(c.func), Diag::TileUnsupported, "`dict." + method + "`", ": index the dict or use `get`");
    return TV{};
  }
  auto args = bindArgs(id, c, "dict.get", {"key", "default"}, 1);
  if (!args) return TV{};
  std::optional<size_t> i;
  if (!dictKey(d, (*args)[0], i)) return TV{};
  if (i) {
    if (d.items[*i].k == TV::K::Value) {
      diags_.error(loc(id), Diag::TileUnsupported, "`get` of a run-time value",
                   ": index the dict (`kwargs[\"" + d.keys[*i] + "\"]`)");
      return TV{};
    }
    return record(id, d.items[*i]);
  }
  if (!(*args)[1].valid()) return record(id, TV::constant(ConstValue{}));
  TV v = checkExpr((*args)[1]);
  if (!v.ok()) return TV{};
  if (v.k == TV::K::Value) {
    diags_.error(loc((*args)[1]), Diag::TileUnsupported, "a run-time default of `get`", "");
    return TV{};
  }
  return record(id, v);
}

std::optional<bool> TileChecker::valuesEqual(const TV& a, const TV& b) {
  if (a.k != b.k) {
    if (a.k == TV::K::Value || b.k == TV::K::Value) return std::nullopt;
    return false;
  }
  switch (a.k) {
    case TV::K::Const: {
      auto f = foldCompare(CmpOp::Eq, a.c, b.c);
      if (!f) return a.c.repr() == b.c.repr();
      return truthOf(*f);
    }
    case TV::K::Entity:
      return a.ent == b.ent && a.payload == b.payload && a.path == b.path && a.def == b.def;
    case TV::K::Dict: {
      if (a.keys.size() != b.keys.size()) return false;
      for (size_t i = 0; i < a.keys.size(); ++i) {
        auto j = std::find(b.keys.begin(), b.keys.end(), a.keys[i]);
        if (j == b.keys.end()) return false;
        auto e = valuesEqual(a.items[i], b.items[static_cast<size_t>(j - b.keys.begin())]);
        if (!e || !*e) return e;
      }
      return true;
    }
    case TV::K::Items: {
      if (a.items.size() != b.items.size()) return false;
      for (size_t i = 0; i < a.items.size(); ++i) {
        auto e = valuesEqual(a.items[i], b.items[i]);
        if (!e || !*e) return e;
      }
      return true;
    }
    case TV::K::Closure: {
      if (a.def != b.def || a.lambda != b.lambda || a.keys != b.keys) return false;
      for (size_t i = 0; i < a.keys.size(); ++i) {
        if (!a.items[i].ok() || !b.items[i].ok()) return std::nullopt;
        auto e = valuesEqual(a.items[i], b.items[i]);
        if (!e || !*e) return e;
      }
      return true;
    }
    default:
      return std::nullopt;
  }
}

TV TileChecker::compareDicts(ExprId id, CmpOp op, const TV& l, const TV& r) {
  if ((op == CmpOp::In || op == CmpOp::NotIn) && r.k == TV::K::Dict) {
    // `"k" in d`: whether the dict has the key (cuTile's is_contained_in_dict_impl).
    if (l.k != TV::K::Const || l.c.kind != ConstValue::Kind::Str) {
      diags_.error(loc(id), Diag::TileType, "dictionary keys must be strings, found `" + describe(l) + "`");
      return TV{};
    }
    bool has = std::find(r.keys.begin(), r.keys.end(), l.c.strValue) != r.keys.end();
    return record(id, TV::constant(ConstValue::ofBool(op == CmpOp::In ? has : !has)));
  }
  if (op == CmpOp::Eq || op == CmpOp::NotEq) {
    auto eq = valuesEqual(l, r);
    if (!eq) {
      diags_.error(loc(id), Diag::TileUnsupported, "comparing dicts that hold run-time values", "");
      return TV{};
    }
    return record(id, TV::constant(ConstValue::ofBool(op == CmpOp::Eq ? *eq : !*eq)));
  }
  diags_.error(loc(id), Diag::MismatchedOperandTypes, std::string(spelling(op)), describe(l), describe(r));
  return TV{};
}

}  // namespace frontend::tile
