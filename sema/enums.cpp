// Module-level enum classes and `--const` paths (resolve_internal.h: enumClassOf,
// constPathValue).
#include "sema/resolve_internal.h"

namespace frontend::resolve_detail {

std::optional<EnumClass> enumClassOf(const Ast& ast, const ast::ClassDef& cls, const ResolvedModule& module) {
  std::optional<bool> isInt;
  for (ExprId base : ast.list(cls.bases)) {
    auto path = entityPath(ast, base, module);
    if (path && (*path == "enum.Enum" || *path == "enum.IntEnum")) isInt = *path == "enum.IntEnum";
  }
  if (!isInt) return std::nullopt;
  EnumClass e;
  e.name = std::string(ast.str(cls.name));
  e.isInt = *isInt;
  for (StmtId id : ast.list(cls.body)) {
    const Stmt& s = ast.stmt(id);
    const auto* assign = s.dyn<ast::Assign>();
    if (assign == nullptr || ast.list(assign->targets).size() != 1) continue;  // docstrings, methods
    const auto* target = ast.expr(ast.list(assign->targets)[0]).dyn<ast::Name>();
    if (target == nullptr) continue;
    std::string name(ast.str(target->id));
    if (name.starts_with("_")) continue;  // `_ignore_`, private names: no members
    auto value = foldConstant(ast, assign->value, module);
    // A member whose value pykc cannot fold (`auto()`, a call): not a compile-time class.
    if (!value || (e.isInt && value->kind != ConstValue::Kind::Int && value->kind != ConstValue::Kind::Bool)) {
      return std::nullopt;
    }
    if (e.isInt && value->kind == ConstValue::Kind::Bool) *value = ConstValue::ofInt(value->boolValue);
    // An alias (a second name for an equal value) is the first such member, as in Python.
    size_t canonical = e.members.size();
    for (size_t j = 0; j < e.members.size(); ++j) {
      if (auto eq = foldCompare(CmpOp::Eq, e.members[j].second, *value); eq && truthOf(*eq)) {
        canonical = e.canonical[j];
        break;
      }
    }
    e.members.emplace_back(name, *value);
    e.canonical.push_back(canonical);
  }
  return e;
}

std::optional<ConstValue> constPathValue(const std::string& path, ResolvedModule& module) {
  auto entity = definePathEntity(path, module);
  if (entity && entity->kind == Intrinsic::Constant) return module.constants[entity->payload];
  if (!entity || entity->kind != Intrinsic::TypeObject) return std::nullopt;
  ConstValue d;
  d.kind = ConstValue::Kind::Dtype;
  d.intValue = entity->payload;
  d.strValue = module.types.dtypeName(TypeId{entity->payload});
  return d;
}

}  // namespace frontend::resolve_detail
