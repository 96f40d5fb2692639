// Module-level names imported from compatibility modules, and the conditions on them
// (resolve_internal.h: importedEntity, foldCondition, selectedBranch).
#include "sema/resolve_internal.h"

namespace frontend::resolve_detail {

namespace {

// Whether `id` names a module (modules are true in conditions).
bool isModule(const Ast& ast, ExprId id, const ResolvedModule& module) {
  auto path = entityPath(ast, id, module);
  if (!path) return false;
  TypeTable scratch;
  auto entity = lookupEntity(*path, scratch);
  return entity && entity->kind == Intrinsic::Module;
}

bool isNone(const Ast& ast, ExprId id) {
  const auto* c = ast.expr(id).dyn<ast::Constant>();
  return c != nullptr && ast.constantOf(id).kind == ConstantKind::None;
}

}  // namespace

std::optional<Entity> importedEntity(const std::string& path, TypeTable& types) {
  if (auto entity = lookupEntity(path, types)) return entity;
  // `from merlin.core.compat import cuda, cupy` (NVTabular): a library's compatibility
  // module re-exports numba.cuda, CuPy or NumPy, or None without them. pykc compiles for
  // CUDA, where they import: the name is the library. Only for modules pykc does not know.
  size_t dot = path.rfind('.');
  if (dot == std::string::npos || lookupEntity(path.substr(0, path.find('.')), types)) {
    return std::nullopt;
  }
  static constexpr std::pair<std::string_view, std::string_view> kLibraries[] = {
      {"cuda", "numba.cuda"}, {"cupy", "cupy"}, {"numpy", "numpy"}, {"numba", "numba"}};
  std::string_view name = std::string_view(path).substr(dot + 1);
  for (auto [exported, library] : kLibraries) {
    if (name == exported) return lookupEntity(library, types);
  }
  return std::nullopt;
}

std::optional<bool> foldCondition(const Ast& ast, ExprId test, const ResolvedModule& module) {
  if (auto v = foldConstant(ast, test, module)) return truthOf(*v);
  const Expr& e = ast.expr(test);
  if (const auto* u = e.dyn<ast::UnaryOp>(); u != nullptr && u->op == UnaryOpKind::Not) {
    if (auto inner = foldCondition(ast, u->operand, module)) return !*inner;
    return std::nullopt;
  }
  // `cupy is not None`, `cuda is None`: a module is not None.
  if (const auto* c = e.dyn<ast::Compare>()) {
    auto ops = ast.list(c->ops);
    auto right = ast.list(c->comparators);
    if (ops.size() == 1 && (ops[0] == CmpOp::Is || ops[0] == CmpOp::IsNot)) {
      bool moduleVsNone = (isModule(ast, c->left, module) && isNone(ast, right[0])) ||
                          (isNone(ast, c->left) && isModule(ast, right[0], module));
      if (moduleVsNone) return ops[0] == CmpOp::IsNot;
    }
    return std::nullopt;
  }
  if (isModule(ast, test, module)) return true;
  return std::nullopt;
}

std::optional<ExprId> selectedBranch(const Ast& ast, ExprId value, const ResolvedModule& module) {
  const auto* ifExp = ast.expr(value).dyn<ast::IfExp>();
  if (ifExp == nullptr) return std::nullopt;
  auto test = foldCondition(ast, ifExp->test, module);
  if (!test) return std::nullopt;
  return *test ? ifExp->body : ifExp->orelse;
}

}  // namespace frontend::resolve_detail
