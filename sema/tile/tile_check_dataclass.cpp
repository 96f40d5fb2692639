// cuTile's frozen dataclasses in tile kernels (docs/TILE.md, "Dataclasses"): classes named
// as values, instances constructed (`FooBar(2, bar=7)`, defaults, `dataclasses.replace`),
// fields read (`fb.foo`), class constants, methods, properties and the `__call__`,
// `__getitem__` and `__setitem__` dunders (typed as helper calls with `self` first). An
// instance is a run-time tuple of its fields (sema/dataclasses.h); what is known of its
// fields at compile time is kept as for partly constant tuples.
#include <functional>

#include "sema/const_instance.h"
#include "sema/dataclasses.h"
#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

TV TileChecker::classValue(const std::string& name, uint32_t payload) {
  TV v;
  v.k = TV::K::Entity;
  v.ent = Intrinsic::HostValue;
  v.payload = payload;
  v.path = name;
  v.def = classStmtOf(payload);
  v.defScope = fn_.scope;
  return v;
}

DataclassInfo TileChecker::classInfo(const TV& cls) const {
  return dataclassInfo(ast_, module_, cls.def, cls.defScope);
}

std::optional<DataclassInfo> TileChecker::instanceClass(TypeId t, ExprId at) {
  if (!isDataclassType(types_, t)) return std::nullopt;
  std::string name = dataclassName(types_, t);
  const Entity* e = module_.lookup(name, fn_.scope);
  if (e == nullptr || e->kind != Intrinsic::HostValue || !isClassPayload(e->payload)) {
    // A helper of another scope: the class as the kernel's scope names it.
    for (uint32_t s = 0; s <= module_.scopes.size() && e == nullptr; ++s) {
      const Entity* f = module_.lookup(name, s);
      if (f != nullptr && f->kind == Intrinsic::HostValue && isClassPayload(f->payload)) e = f;
    }
    if (e == nullptr) {
      diags_.error(loc(at), Diag::TileType, "class `" + name + "` is not visible here");
      return std::nullopt;
    }
  }
  return dataclassInfo(ast_, module_, classStmtOf(e->payload), fn_.scope);
}

bool TileChecker::classUsable(const DataclassInfo& info, ExprId at, bool constructing) {
  if (info.nonDataclassDerived) {
    diags_.error(loc(at), Diag::TileType,
                 "Non-dataclass subclasses of a dataclass are not supported (`" + info.name + "`)");
    return false;
  }
  if (!info.isDataclass) {
    diags_.error(loc(at), Diag::TileUnsupported, "class `" + info.name + "`", ": tile kernels use frozen dataclasses");
    return false;
  }
  if (!info.frozen) {
    diags_.error(loc(at), Diag::TileType,
                 "Only frozen dataclasses are supported: declare `" + info.name + "` with `@dataclass(frozen=True)`");
    return false;
  }
  if (!constructing) return true;
  if (info.customNew.valid()) {
    diags_.error(loc(at), Diag::TileType, "Dataclasses with custom __new__ are not supported (`" + info.name + "`)");
    return false;
  }
  if (!info.init || info.customInit.valid()) {
    diags_.error(loc(at), Diag::TileType,
                 "Dataclass instance creation is only supported for dataclasses with a default generated __init__() "
                 "method (`" + info.name + "`)");
    return false;
  }
  for (const DataclassField& f : info.fields) {
    if (f.initVar) {
      diags_.error(loc(at), Diag::TileType,
                   "Dataclasses with InitVar fields are not supported (`" + info.name + "." + f.name + "`)");
      return false;
    }
    if (f.initFalse) {
      diags_.error(loc(at), Diag::TileType,
                   "Dataclasses with init=False fields are not supported (`" + info.name + "." + f.name + "`)");
      return false;
    }
    if (f.defaultFactory) {
      diags_.error(loc(at), Diag::TileType,
                   "Dataclasses with default_factory fields are not supported (`" + info.name + "." + f.name + "`)");
      return false;
    }
  }
  return true;
}

TV TileChecker::buildInstance(ExprId id, const DataclassInfo& info, std::vector<ArgItem>& fields) {
  bool arrays = false;
  bool tiles = false;
  std::vector<std::string> names;
  std::vector<TypeId> types;
  TileHelperArg lowered;
  Known known;
  for (size_t i = 0; i < fields.size(); ++i) {
    const TV& v = fields[i].v;
    const std::string& fname = info.fields[i].name;
    names.push_back(fname);
    TypeId t;
    Known k;
    if (v.k == TV::K::Value) {
      t = v.type;
      const TileArgPiece& p = fields[i].piece;
      bool plainArray = types_.isArray(t) && p.expr.valid() && p.path.empty() && p.var.empty();
      if (plainArray) {
        // An array field (cuTile's `DataclassWithCtxMethod(x)`): the instance is a compile-time
        // aggregate of the arrays and the run-time values (lowering's TupleArg), bound once in
        // straight-line code or passed to helpers and methods.
        arrays = true;
      } else if (types_.isArray(t) || (types_.isTuple(t) && holdsArray(t))) {
        diags_.error(loc(fields[i].piece.expr.valid() ? fields[i].piece.expr : id), Diag::TileUnsupported,
                     "a dataclass field holding an array (`" + info.name + "." + fname + "`) made inside a kernel",
                     ": pass the instance as a kernel parameter");
        return TV{};
      }
      if (types_.isNone(t)) {
        diags_.error(loc(id), Diag::TileType, "field `" + fname + "` is given no value (`None`)");
        return TV{};
      }
      if (fields[i].piece.expr.valid() && fields[i].piece.path.empty()) k = knownOf(fields[i].piece.expr);
    } else if (v.k == TV::K::Const && (v.c.kind == ConstValue::Kind::Str || v.c.kind == ConstValue::Kind::None)) {
      // A string or None: a compile-time field (no run-time part: an empty tuple), known.
      t = types_.tuple({});
      k.c = v.c;
    } else if (v.k == TV::K::Const) {
      auto rt = v.c.isNumber() ? weakType(v.c) : runtimeTypeOf(v.c);
      if (!rt) {
        diags_.error(loc(fields[i].piece.expr.valid() ? fields[i].piece.expr : id), Diag::TileUnsupported,
                     "a dataclass field holding `" + v.c.repr() + "`",
                     ": fields hold numbers, strings, tuples of numbers, tiles and dataclass instances");
        return TV{};
      }
      t = *rt;
      k.c = v.c;
    } else {
      diags_.error(loc(fields[i].piece.expr.valid() ? fields[i].piece.expr : id), Diag::TileUnsupported,
                   "a dataclass field holding `" + describe(v) + "`",
                   ": fields hold numbers, strings, tuples of numbers, tiles and dataclass instances");
      return TV{};
    }
    std::function<bool(TypeId)> hasTile = [&](TypeId x) {
      if (types_.isTile(x)) return true;
      if (!types_.isTuple(x)) return false;
      return std::any_of(types_.get(x).elements.begin(), types_.get(x).elements.end(), hasTile);
    };
    tiles = tiles || hasTile(t);
    types.push_back(t);
    lowered.pieces.push_back(fields[i].piece);
    known.parts.push_back(k);
  }
  if (arrays && tiles) {
    diags_.error(loc(id), Diag::TileUnsupported,
                 "an instance of `" + info.name + "` holding arrays beside tiles",
                 ": its other fields hold numbers, tuples of them or strings");
    return TV{};
  }
  TypeId t = dataclassType(types_, info.name, names, types);
  inst_.meanings[id.index] = ExprMeaning{Intrinsic::HostValue, kClassPayload};
  inst_.helperArgs[id.index] = std::vector<TileHelperArg>{lowered};
  if (known.any()) dataclassKnown_[id.index] = known;
  return record(id, TV::value(t));
}

TV TileChecker::checkDataclassCall(ExprId id, const ast::Call& c, const TV& cls, bool postInit) {
  DataclassInfo info = classInfo(cls);
  if (info.customInit.valid() && !info.customNew.valid() && isStaticDef(ast_, info.customInit)) {
    return classUsable(info, id, false) ? checkStaticDefInit(id, c, info) : TV{};
  }
  if (!classUsable(info, id, true)) return TV{};
  std::vector<ArgItem> positional;
  std::vector<std::pair<std::string, ArgItem>> keywords;
  if (!gatherArgs(c, info.name, positional, keywords)) return TV{};
  std::vector<std::optional<ArgItem>> given(info.fields.size());
  if (positional.size() > info.fields.size()) {
    diags_.error(loc(id), Diag::InvalidCall,
                 "`" + info.name + "` takes " + std::to_string(info.fields.size()) + " field(s) but " +
                     std::to_string(positional.size()) + " were given");
    return TV{};
  }
  for (size_t i = 0; i < positional.size(); ++i) given[i] = positional[i];
  for (auto& [key, item] : keywords) {
    size_t i = 0;
    while (i < info.fields.size() && info.fields[i].name != key) ++i;
    if (i == info.fields.size()) {
      diags_.error(loc(item.at), Diag::InvalidCall, "`" + info.name + "` has no field `" + key + "`");
      return TV{};
    }
    if (given[i]) {
      diags_.error(loc(item.at), Diag::InvalidCall, "`" + info.name + "` got `" + key + "` twice");
      return TV{};
    }
    given[i] = item;
  }
  std::vector<ArgItem> fields;
  for (size_t i = 0; i < info.fields.size(); ++i) {
    if (given[i]) {
      fields.push_back(*given[i]);
      continue;
    }
    ExprId d = info.fields[i].defaultValue;
    if (!d.valid()) {
      diags_.error(loc(id), Diag::InvalidCall, "`" + info.name + "` needs its `" + info.fields[i].name + "` field");
      return TV{};
    }
    TV v;
    if (auto folded = foldConstant(ast_, d, module_)) {
      v = record(d, TV::constant(*folded));
    } else {
      v = checkExpr(d);
    }
    if (!v.ok()) return TV{};
    fields.push_back(ArgItem{v, TileArgPiece{d, {}}, ast_.expr(d).range});
  }
  TV out = buildInstance(id, info, fields);
  if (!out.ok() || !postInit) return out;
  if (auto m = classMethod(ast_, info, "__post_init__")) {
    if (!checkPostInit(id, c, *m, info, out)) return TV{};
  }
  return out;
}

bool TileChecker::checkPostInit(ExprId id, const ast::Call& c, StmtId def, const DataclassInfo& info,
                                const TV& self) {
  // As cuTile's dataclass_new: the generated __init__ fills the fields, then
  // `__post_init__(self)` runs inline on the instance. It is recorded at the call's `func`
  // (the class, which nothing else lowers), the instance staying the call's own value.
  std::string name = info.name + ".__post_init__";
  if (isStaticDef(ast_, def)) {
    diags_.error(loc(id), Diag::TileUnsupported, "a `@static_def` `" + name + "`", ": write it as a plain method");
    return false;
  }
  ExprId at = c.func;
  TV out = callMethod(at, def, name, id, self, {});
  return out.ok();
}

bool TileChecker::frozenFieldAssigned(ExprId target) {
  const auto* a = ast_.expr(target).dyn<ast::Attribute>();
  if (a == nullptr) return false;
  TV base = checkExpr(a->value);
  if (!base.ok() || base.k != TV::K::Value || !isDataclassType(types_, base.type)) return false;
  std::string field(ast_.str(a->attr));
  std::string cls = dataclassName(types_, base.type);
  diags_.error(loc(target), Diag::TileType,
               "cannot assign to field `" + field + "` of `" + cls +
                   "`: tile kernels' dataclasses are frozen (Python raises dataclasses.FrozenInstanceError)");
  return true;
}

bool TileChecker::isDataclassesReplace(ExprId func) const {
  const auto* a = ast_.expr(func).dyn<ast::Attribute>();
  if (a == nullptr || ast_.str(a->attr) != "replace") return false;
  const auto* n = ast_.expr(a->value).dyn<ast::Name>();
  if (n == nullptr) return false;
  const Entity* e = module_.lookup(std::string(ast_.str(n->id)), fn_.scope);
  return e != nullptr && e->path == "dataclasses";
}

TV TileChecker::checkDataclassReplace(ExprId id, const ast::Call& c) {
  std::vector<ArgItem> positional;
  std::vector<std::pair<std::string, ArgItem>> keywords;
  if (!gatherArgs(c, "dataclasses.replace", positional, keywords)) return TV{};
  if (positional.size() != 1 || positional[0].v.k != TV::K::Value || !isDataclassType(types_, positional[0].v.type)) {
    diags_.error(loc(id), Diag::InvalidCall, "`dataclasses.replace` takes one dataclass instance and field keywords");
    return TV{};
  }
  const ArgItem& obj = positional[0];
  auto info = instanceClass(obj.v.type, id);
  if (!info) return TV{};
  const Type& t = types_.get(obj.v.type);
  std::vector<ArgItem> fields;
  Known base = obj.piece.expr.valid() && obj.piece.path.empty() ? knownOf(obj.piece.expr) : Known{};
  for (size_t i = 0; i < t.elements.size(); ++i) {
    TileArgPiece p = obj.piece;
    p.path.push_back(static_cast<uint32_t>(i));
    TV v = TV::value(t.elements[i]);
    if (i < base.parts.size() && base.parts[i].c) v = TV::constant(*base.parts[i].c);
    fields.push_back(ArgItem{v, p, obj.at});
  }
  for (auto& [key, item] : keywords) {
    auto i = dataclassField(types_, obj.v.type, key);
    if (!i) {
      diags_.error(loc(item.at), Diag::TileType, "Dataclass '" + info->name + "' has no such field '" + key + "'");
      return TV{};
    }
    fields[*i] = item;
  }
  TV out = buildInstance(id, *info, fields);
  if (out.ok()) {
    // What stays known of the old instance's fields.
    Known k = dataclassKnown_.count(id.index) ? dataclassKnown_[id.index] : Known{};
    k.parts.resize(t.elements.size());
    for (size_t i = 0; i < t.elements.size(); ++i) {
      if (!k.parts[i].any() && i < base.parts.size() && fields[i].piece.expr == obj.piece.expr) k.parts[i] = base.parts[i];
    }
    if (k.any()) dataclassKnown_[id.index] = k;
  }
  return out;
}

TV TileChecker::checkInstanceAttribute(ExprId id, const std::string& attr, const TV& base, ExprId value) {
  if (auto i = dataclassField(types_, base.type, attr)) {
    if (auto c = knownElement(value, *i)) return record(id, TV::constant(*c));
    TypeId t = types_.get(base.type).elements[*i];
    if (types_.isTuple(t) && types_.get(t).elements.empty()) {
      // A string (None) field is a compile-time value: lost where paths join differently.
      diags_.error(loc(id), Diag::TileType,
                   "field `" + attr + "` holds a string or None that is not known here (it depends on the path taken)");
      return TV{};
    }
    return record(id, TV::value(t));
  }
  auto info = instanceClass(base.type, id);
  if (!info) return TV{};
  if (auto m = classMethod(ast_, *info, attr)) {
    const ast::FunctionDef& def = *ast_.stmt(*m).functionDef();
    bool property = false;
    bool staticMethod = false;
    for (ExprId d : ast_.list(def.decoratorList)) {
      const auto* n = ast_.expr(d).dyn<ast::Name>();
      if (n != nullptr && ast_.str(n->id) == "property") property = true;
      if (n != nullptr && ast_.str(n->id) == "staticmethod") staticMethod = true;
    }
    if (property) return callMethod(id, *m, info->name + "." + attr, value, base, {});
    TV v;
    v.k = TV::K::Entity;
    v.ent = Intrinsic::HostValue;
    v.payload = staticMethod ? 4 : 3;
    v.path = info->name + "." + attr;
    v.def = *m;
    v.self = value;
    v.type = base.type;
    return v;
  }
  if (auto c = classConstant(ast_, *info, attr)) {
    if (auto folded = foldConstant(ast_, *c, module_)) return record(id, TV::constant(*folded));
  }
  diags_.error(loc(id), Diag::UnknownAttribute, info->name, attr);
  return TV{};
}

TV TileChecker::constInstanceAttribute(ExprId id, const std::string& attr, const ConstValue& d) {
  if (auto i = constInstanceField(d, attr)) return record(id, TV::constant(d.elements[*i]));
  std::string cls = constInstanceClass(d);
  const Entity* e = module_.lookup(cls, fn_.scope);
  if (e != nullptr && e->kind == Intrinsic::HostValue && isClassPayload(e->payload)) {
    DataclassInfo info = dataclassInfo(ast_, module_, classStmtOf(e->payload), fn_.scope);
    if (auto c = classConstant(ast_, info, attr)) {
      if (auto folded = foldConstant(ast_, *c, module_)) return record(id, TV::constant(*folded));
    }
    if (classMethod(ast_, info, attr)) {
      diags_.error(loc(id), Diag::TileUnsupported, "`" + cls + "." + attr + "` of a Constant instance",
                   ": read its fields, or pass the instance as a run-time parameter");
      return TV{};
    }
  }
  diags_.error(loc(id), Diag::UnknownAttribute, cls, attr);
  return TV{};
}

TV TileChecker::checkClassAttribute(ExprId id, const std::string& attr, const TV& cls) {
  DataclassInfo info = classInfo(cls);
  if (auto c = classConstant(ast_, info, attr)) {
    if (auto folded = foldConstant(ast_, *c, module_)) return record(id, TV::constant(*folded));
  }
  if (auto m = classMethod(ast_, info, attr)) {
    TV v;
    v.k = TV::K::Entity;
    v.ent = Intrinsic::HostValue;
    v.payload = 4;  // called without `self` (a staticmethod, or `Cls.method(obj, ...)`)
    v.path = info.name + "." + attr;
    v.def = *m;
    return v;
  }
  diags_.error(loc(id), Diag::UnknownAttribute, info.name, attr);
  return TV{};
}

std::optional<TypeId> TileChecker::namedDataclassTypes(TypeId t) {
  if (!t.valid() || !types_.isTuple(t)) return t;
  const Type ty = types_.get(t);
  std::vector<TypeId> elements;
  for (TypeId e : ty.elements) {
    auto n = namedDataclassTypes(e);
    if (!n) return std::nullopt;
    elements.push_back(*n);
  }
  if (!isDataclassType(types_, t)) return elements == ty.elements ? t : types_.tuple(elements);
  const std::string& name = ty.fieldNames[0];
  const Entity* e = module_.lookup(name, fn_.scope);
  if (e == nullptr || e->kind != Intrinsic::HostValue || !isClassPayload(e->payload)) {
    diags_.error(fn_.location, Diag::TileType,
                 "`" + name + "` in the signature of `" + fn_.name + "` names no dataclass of this module");
    return std::nullopt;
  }
  DataclassInfo info = dataclassInfo(ast_, module_, classStmtOf(e->payload), fn_.scope);
  if (info.nonDataclassDerived || !info.isDataclass || !info.frozen) {
    diags_.error(fn_.location, Diag::TileType,
                 "Only frozen dataclasses are supported as kernel parameters (`" + name + "` in the signature of `" +
                     fn_.name + "`)");
    return std::nullopt;
  }
  if (info.fields.size() != elements.size()) {
    diags_.error(fn_.location, Diag::TileType,
                 "`" + name + "` has " + std::to_string(info.fields.size()) + " field(s), the signature of `" +
                     fn_.name + "` gives " + std::to_string(elements.size()));
    return std::nullopt;
  }
  std::vector<std::string> names;
  for (const DataclassField& f : info.fields) names.push_back(f.name);
  return dataclassType(types_, name, names, elements);
}

TV TileChecker::globalInstance(ExprId id, ExprId call) {
  const auto& c = ast_.expr(call).as<ast::Call>();
  TV cls = checkExpr(c.func);
  if (!cls.ok()) return TV{};
  TV v = checkDataclassCall(call, c, cls, false);  // its __post_init__ ran on the host
  if (!v.ok()) return TV{};
  inst_.meanings[id.index] = inst_.meanings[call.index];
  inst_.helperArgs[id.index] = inst_.helperArgs[call.index];
  if (auto k = dataclassKnown_.find(call.index); k != dataclassKnown_.end()) dataclassKnown_[id.index] = k->second;
  return record(id, v);
}

uint32_t TileChecker::methodFunction(StmtId def, const std::string& name) {
  return helperFunction(def, name, fn_.scope);
}

TV TileChecker::callMethod(ExprId id, StmtId def, const std::string& name, ExprId selfExpr, const TV& self,
                           std::vector<ArgItem> rest) {
  if (isStaticDef(ast_, def)) return checkStaticDefMethod(id, def, name, selfExpr, self, rest);
  uint32_t function = methodFunction(def, name);
  const JitFunction& f = module_.functions[function];
  std::vector<TV> values;
  std::vector<TileHelperArg> lowered;
  values.push_back(self);
  TileHelperArg s;
  s.pieces.push_back(TileArgPiece{selfExpr, {}});
  lowered.push_back(s);
  for (ArgItem& a : rest) {
    values.push_back(a.v);
    TileHelperArg l;
    l.pieces.push_back(a.piece);
    lowered.push_back(l);
  }
  if (values.size() != f.params.size()) {
    diags_.error(loc(id), Diag::InvalidCall,
                 "`" + name + "` takes " + std::to_string(f.params.size()) + " argument(s) with `self`, " +
                     std::to_string(values.size()) + " given");
    return TV{};
  }
  inst_.helperArgs[id.index] = lowered;
  TV out = instantiateHelper(id, function, name, values, lowered);
  inst_.helperArgs[id.index] = lowered;
  return out;
}

TV TileChecker::checkBoundMethodCall(ExprId id, const ast::Call& c, const TV& method) {
  uint32_t function = methodFunction(method.def, method.path);
  std::vector<TV> values;
  std::vector<TileHelperArg> lowered;
  const Arguments& args = ast_.arguments(ast_.stmt(method.def).functionDef()->args);
  if (method.payload == 4) return checkHelperCall(id, c, method.def, method.path, fn_.scope);
  // `self` first, then the call's arguments bound to the rest of the parameters.
  if (!bindHelperArgs(id, c, args, method.path, values, lowered, nullptr, 1)) return TV{};
  values.insert(values.begin(), TV::value(method.type));
  TileHelperArg s;
  s.pieces.push_back(TileArgPiece{method.self, {}});
  lowered.insert(lowered.begin(), s);
  TV out = instantiateHelper(id, function, method.path, values, lowered);
  inst_.helperArgs[id.index] = lowered;
  return out;
}

TV TileChecker::callDunder(ExprId id, const TV& self, ExprId selfExpr, const char* dunder, std::vector<ArgItem> rest,
                           const char* what) {
  auto info = instanceClass(self.type, id);
  if (!info) return TV{};
  auto m = classMethod(ast_, *info, dunder);
  if (!m) {
    diags_.error(loc(id), Diag::TileType, std::string("Cannot ") + what + " an object of type " + info->name);
    return TV{};
  }
  return callMethod(id, *m, info->name + "." + dunder, selfExpr, self, std::move(rest));
}

namespace {

// A print piece's text for element `path` of its value (lowering/tile/tile_print.cpp).
std::string pathText(const std::vector<uint32_t>& path, const std::string& conversion) {
  if (path.empty()) return conversion;
  std::string s = "\x1fP";
  for (size_t i = 0; i < path.size(); ++i) s += (i ? "." : "") + std::to_string(path[i]);
  return s + "\x1f" + conversion;
}

}  // namespace

bool TileChecker::printField(ExprId root, const std::vector<uint32_t>& path, TypeId t, bool repr,
                             std::vector<TilePrintPiece>& out) {
  using Kind = TilePrintPiece::Kind;
  if (isDataclassType(types_, t)) return printInstance(root, path, t, repr, out);
  if (types_.isTuple(t) && types_.get(t).elements.empty()) {
    // A compile-time field (a string, None, an empty tuple): its known value.
    Known k = knownOf(root);
    for (uint32_t i : path) k = i < k.parts.size() ? k.parts[i] : Known{};
    if (!k.c) {
      diags_.error(loc(root), Diag::TileType, "a string field that is not known here (it depends on the path taken)");
      return false;
    }
    auto s = printConstant(root, *k.c, "", repr);
    if (!s) return false;
    out.push_back(TilePrintPiece{Kind::Text, *s, ExprId()});
    return true;
  }
  if (types_.isTile(t)) {
    TypeId el = elementOf(t);
    auto conv = printConversion(root, "", types_.isBool(el) ? types_.int64() : el);
    if (!conv) return false;
    out.push_back(TilePrintPiece{Kind::Tile, pathText(path, *conv), root});
    return true;
  }
  if (types_.isBool(t)) {
    out.push_back(TilePrintPiece{Kind::Number, pathText(path, "%s"), root});
    return true;
  }
  if (types_.isNumber(t) && !types_.isFloat8(t)) {
    auto conv = printConversion(root, "", t);
    if (!conv) return false;
    out.push_back(TilePrintPiece{Kind::Number, pathText(path, *conv), root});
    return true;
  }
  if (types_.isTuple(t)) {
    auto format = printTupleFormat(root, t);
    if (!format) return false;
    out.push_back(TilePrintPiece{Kind::Tuple, pathText(path, *format), root});
    return true;
  }
  diags_.error(loc(root), Diag::TileUnsupported, "printing a dataclass field of `" + nameOf(t) + "`", "");
  return false;
}

bool TileChecker::printInstance(ExprId root, const std::vector<uint32_t>& path, TypeId t, bool repr,
                                std::vector<TilePrintPiece>& out) {
  using Kind = TilePrintPiece::Kind;
  auto text = [&](const std::string& s) { out.push_back(TilePrintPiece{Kind::Text, s, ExprId()}); };
  auto info = instanceClass(t, root);
  if (!info) return false;
  if (formatting_ && classMethod(ast_, *info, "__format__")) {
    diags_.error(loc(root), Diag::TileType, "Formatting dataclass values with custom __format__() is not supported");
    return false;
  }
  std::optional<StmtId> method;
  if (!repr) method = classMethod(ast_, *info, "__str__");
  if (!method) method = classMethod(ast_, *info, "__repr__");
  if (method) {
    // `return f"...{self.x}..."`: the f-string with self's fields.
    const ast::FunctionDef& def = *ast_.stmt(*method).functionDef();
    auto body = ast_.list(def.body);
    const ast::Return* ret = nullptr;
    for (StmtId s : body) {
      if (const auto* r = ast_.stmt(s).dyn<ast::Return>()) ret = r;
    }
    auto params = ast_.list(ast_.arguments(def.args).args);
    const auto* js = ret != nullptr && ret->value.valid() ? ast_.expr(ret->value).dyn<ast::JoinedStr>() : nullptr;
    if (js == nullptr || params.empty()) {
      diags_.error(loc(root), Diag::TileUnsupported,
                   "printing `" + info->name + "` through its `" + std::string(ast_.str(def.name)) + "`",
                   ": tile kernels print a custom __str__/__repr__ written as `return f\"...{self.field}...\"`");
      return false;
    }
    std::string self(ast_.str(ast_.arg(params[0]).arg));
    for (ExprId v : ast_.list(js->values)) {
      if (ast_.expr(v).is<ast::Constant>()) {
        text(ast_.constantOf(v).text);
        continue;
      }
      const auto& fv = ast_.expr(v).as<ast::FormattedValue>();
      // `self.a.b`: the field path.
      std::vector<std::string> names;
      ExprId e = fv.value;
      while (const auto* a = ast_.expr(e).dyn<ast::Attribute>()) {
        names.insert(names.begin(), std::string(ast_.str(a->attr)));
        e = a->value;
      }
      const auto* n = ast_.expr(e).dyn<ast::Name>();
      std::vector<uint32_t> p = path;
      TypeId ft = t;
      bool ok = n != nullptr && ast_.str(n->id) == self && !names.empty() && !fv.formatSpec.valid();
      for (size_t k = 0; ok && k < names.size(); ++k) {
        auto i = dataclassField(types_, ft, names[k]);
        ok = i.has_value();
        if (ok) {
          p.push_back(static_cast<uint32_t>(*i));
          ft = types_.get(ft).elements[*i];
        }
      }
      if (!ok) {
        diags_.error(loc(fv.value), Diag::TileUnsupported,
                     "this value in `" + info->name + "." + std::string(ast_.str(def.name)) + "`",
                     ": a printed __str__/__repr__ formats fields of `" + self + "` only");
        return false;
      }
      if (!printField(root, p, ft, fv.conversion == 'r', out)) return false;
    }
    return true;
  }
  if (!info->repr) {
    text("<" + info->name + " object>");
    return true;
  }
  text(info->name + "(");
  bool first = true;
  const Type& ty = types_.get(t);
  for (size_t k = 0; k < info->fields.size() && k < ty.elements.size(); ++k) {
    if (info->fields[k].reprFalse) continue;
    text((first ? "" : ", ") + info->fields[k].name + "=");
    first = false;
    std::vector<uint32_t> p = path;
    p.push_back(static_cast<uint32_t>(k));
    if (!printField(root, p, ty.elements[k], true, out)) return false;
  }
  text(")");
  return true;
}

}  // namespace frontend::tile
