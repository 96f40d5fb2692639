// `@static_def` methods of dataclasses (cuTile's static_def, cuda.tile._execution): run by
// the host when the kernel compiles. pykc evaluates them with sema/const_eval.h where their
// arguments are compile-time values: an `__init__` made of `object.__setattr__(self, "f", v)`
// statements (docs/TILE.md, "Dataclasses").
#include "sema/const_eval.h"
#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

bool isStaticDef(const Ast& ast, StmtId def) {
  const auto* fd = ast.stmt(def).functionDef();
  if (fd == nullptr) return false;
  for (ExprId d : ast.list(fd->decoratorList)) {
    if (const auto* n = ast.expr(d).dyn<ast::Name>(); n && ast.str(n->id) == "static_def") return true;
    if (const auto* a = ast.expr(d).dyn<ast::Attribute>(); a && ast.str(a->attr) == "static_def") return true;
  }
  return false;
}

TV TileChecker::checkStaticDefInit(ExprId id, const ast::Call& c, const DataclassInfo& info) {
  const auto* fd = ast_.stmt(info.customInit).functionDef();
  const std::string what = "`" + info.name + ".__init__` (a `@static_def`)";
  std::vector<ArgItem> positional;
  std::vector<std::pair<std::string, ArgItem>> keywords;
  if (!gatherArgs(c, info.name, positional, keywords)) return TV{};
  const Arguments& params = ast_.arguments(fd->args);
  std::vector<std::string> names;
  for (ArgId a : ast_.list(params.posonlyargs)) names.emplace_back(ast_.str(ast_.arg(a).arg));
  for (ArgId a : ast_.list(params.args)) names.emplace_back(ast_.str(ast_.arg(a).arg));
  if (names.empty() || params.vararg.valid() || params.kwarg.valid() || !params.kwonlyargs.empty() ||
      !params.defaults.empty()) {
    diags_.error(loc(id), Diag::TileUnsupported, what + " with defaults, `*args`, `**kwargs` or keyword-only parameters", "");
    return TV{};
  }
  const std::string self = names.front();
  names.erase(names.begin());
  std::map<std::string, ConstValue> bound;
  auto bind = [&](const std::string& n, const ArgItem& item) {
    if (item.v.k != TV::K::Const) {
      diags_.error(loc(id), Diag::NotConstant,
                   "the argument `" + n + "` of " + what + " (here `" + describe(item.v) + "`)");
      return false;
    }
    bound[n] = item.v.c;
    return true;
  };
  if (positional.size() > names.size()) {
    diags_.error(loc(id), Diag::InvalidCall, what + " takes " + std::to_string(names.size()) + " argument(s)");
    return TV{};
  }
  for (size_t i = 0; i < positional.size(); ++i) {
    if (!bind(names[i], positional[i])) return TV{};
  }
  for (const auto& [key, item] : keywords) {
    if (std::find(names.begin(), names.end(), key) == names.end() || bound.count(key)) {
      diags_.error(loc(item.at), Diag::InvalidCall, what + " has no parameter `" + key + "` or got it twice");
      return TV{};
    }
    if (!bind(key, item)) return TV{};
  }
  for (const std::string& n : names) {
    if (!bound.count(n)) {
      diags_.error(loc(id), Diag::InvalidCall, what + " needs its argument `" + n + "`");
      return TV{};
    }
  }
  auto local = [&](const std::string& n) {
    ConstEvalLocal l;
    if (auto it = bound.find(n); it != bound.end()) {
      l.kind = ConstEvalLocal::Kind::Constant;
      l.value = it->second;
    }
    return l;
  };
  // The body: `object.__setattr__(self, "field", value)` statements (and a docstring).
  std::map<std::string, std::pair<ExprId, ConstValue>> set;
  for (StmtId sid : ast_.list(fd->body)) {
    const Stmt& st = ast_.stmt(sid);
    const auto* es = st.dyn<ast::ExprStmt>();
    if (es != nullptr && ast_.expr(es->value).is<ast::Constant>()) continue;
    const auto* call = es ? ast_.expr(es->value).dyn<ast::Call>() : nullptr;
    const auto* fn = call ? ast_.expr(call->func).dyn<ast::Attribute>() : nullptr;
    const auto* obj = fn ? ast_.expr(fn->value).dyn<ast::Name>() : nullptr;
    auto args = call ? ast_.list(call->args) : std::span<const ExprId>{};
    bool setattr = obj && ast_.str(obj->id) == "object" && ast_.str(fn->attr) == "__setattr__" &&
                   args.size() == 3 && call->keywords.empty();
    const auto* target = setattr ? ast_.expr(args[0]).dyn<ast::Name>() : nullptr;
    bool named = setattr && ast_.expr(args[1]).kind() == ExprKind::Constant &&
                 ast_.constantOf(args[1]).kind == ConstantKind::Str;
    if (target == nullptr || ast_.str(target->id) != self || !named) {
      diags_.error(loc(st.range), Diag::TileUnsupported, "this statement in " + what,
                   ": write its fields with `object.__setattr__(" + self + ", \"field\", value)`");
      return TV{};
    }
    auto value = evalHostConstant(ast_, module_, fn_.scope, local, args[2]);
    if (!value) {
      diags_.error(loc(args[2]), Diag::NotConstant, "a field value of " + what);
      return TV{};
    }
    set[ast_.constantOf(args[1]).text] = {args[2], *value};
  }
  std::vector<ArgItem> fields;
  for (const DataclassField& f : info.fields) {
    auto it = set.find(f.name);
    if (it == set.end()) {
      diags_.error(loc(id), Diag::TileType, what + " leaves field `" + f.name + "` unset");
      return TV{};
    }
    auto [expr, value] = it->second;
    // The value expression holds the constant for lowering; another call giving it another
    // value in this function would need its own.
    if (auto prior = inst_.constIndex[expr.index]; prior >= 0) {
      auto eq = foldCompare(CmpOp::Eq, inst_.constants[static_cast<size_t>(prior)], value);
      if (!eq || !truthOf(*eq)) {
        diags_.error(loc(id), Diag::TileUnsupported,
                     "a second `" + info.name + "(...)` giving field `" + f.name + "` another value", "");
        return TV{};
      }
    }
    fields.push_back(ArgItem{record(expr, TV::constant(value)), TileArgPiece{expr, {}}, ast_.expr(expr).range});
  }
  return buildInstance(id, info, fields);
}

TV TileChecker::checkStaticDefMethod(ExprId id, StmtId def, const std::string& name, ExprId selfExpr, const TV& self,
                                     const std::vector<ArgItem>& rest) {
  const std::string what = "`" + name + "` (a `@static_def`)";
  const Type& t = types_.get(self.type);
  Known known = selfExpr.valid() ? knownOf(selfExpr) : Known{};
  std::map<std::string, ConstValue> fields;
  for (size_t i = 0; i < t.elements.size() && i + 1 < t.fieldNames.size(); ++i) {
    if (i >= known.parts.size() || !known.parts[i].c) {
      diags_.error(loc(id), Diag::NotConstant, "field `" + t.fieldNames[i + 1] + "` of the object " + what + " runs on");
      return TV{};
    }
    fields[t.fieldNames[i + 1]] = *known.parts[i].c;
  }
  std::vector<ConstValue> args;
  for (const ArgItem& a : rest) {
    if (a.v.k != TV::K::Const) {
      diags_.error(loc(id), Diag::NotConstant, "an argument of " + what + " (here `" + describe(a.v) + "`)");
      return TV{};
    }
    args.push_back(a.v.c);
  }
  auto r = evalHostMethod(ast_, module_, fn_.scope, def, fields, args);
  if (!r) {
    diags_.error(loc(id), Diag::TileUnsupported, "evaluating " + what + " at compile time",
                 ": pykc runs numbers, tuples and lists, `self.field`, assignments, if/for/while and returns");
    return TV{};
  }
  return record(id, TV::constant(*r));
}

}  // namespace frontend::tile
