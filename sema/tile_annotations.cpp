// What a tile kernel parameter's annotation says about its type (sema/resolve.cpp asks):
// a hint that names no type, cuTile's ScalarInt64, or a Python scalar type.
#include "sema/resolve_internal.h"

namespace frontend::resolve_detail {

bool isTileHintAnnotation(const Ast& ast, ExprId annotation, ResolvedModule& module) {
  ExprId root = annotation;
  for (;;) {
    const Expr& e = ast.expr(root);
    if (const auto* s = e.dyn<ast::Subscript>()) {
      root = s->value;
    } else if (const auto* at = e.dyn<ast::Attribute>()) {
      root = at->value;
    } else {
      break;
    }
  }
  const auto* n = ast.expr(root).dyn<ast::Name>();
  if (n == nullptr || isScalarInt64Annotation(ast, annotation, module)) return false;
  std::string name(ast.str(n->id));
  auto it = module.globals.find(name);
  if (it == module.globals.end()) {
    static constexpr std::string_view kTyping[] = {"tuple", "list", "dict", "Annotated", "Tuple",
                                                   "List", "Sequence", "Optional", "Union", "Any"};
    return std::find(std::begin(kTyping), std::end(kTyping), name) != std::end(kTyping);
  }
  const Entity& ent = it->second;
  if (ent.kind == Intrinsic::HostValue) return true;
  bool numba = ent.path == "numba" || ent.path.rfind("numba.", 0) == 0;
  if (ent.kind != Intrinsic::Module || numba) return false;
  DiagnosticSink scratch;
  auto t = evalTypeExpr(ast, annotation, module, scratch);
  return !t || scratch.hasErrors();
}

bool isScalarInt64Annotation(const Ast& ast, ExprId annotation, const ResolvedModule& module) {
  auto path = entityPath(ast, annotation, module);
  return path && *path == "cuda.tile.ScalarInt64";
}

std::optional<std::string> pythonScalarAnnotation(const Ast& ast, ExprId annotation, const ResolvedModule& module) {
  const auto* n = ast.expr(annotation).dyn<ast::Name>();
  if (n == nullptr) return std::nullopt;
  std::string name(ast.str(n->id));
  if (name != "float" && name != "int" && name != "bool") return std::nullopt;
  if (module.globals.count(name)) return std::nullopt;
  return name;
}

}  // namespace frontend::resolve_detail
