#include "sema/nested_kernels.h"

namespace frontend {

namespace {

bool kernelDecorator(const Ast& ast, ExprId e) {
  if (const auto* call = ast.expr(e).dyn<ast::Call>()) e = call->func;
  if (const auto* name = ast.expr(e).dyn<ast::Name>()) {
    std::string_view id = ast.str(name->id);
    return id == "jit" || id == "kernel";
  }
  if (const auto* attr = ast.expr(e).dyn<ast::Attribute>()) {
    std::string_view id = ast.str(attr->attr);
    return id == "jit" || id == "kernel";
  }
  return false;
}

void walk(const Ast& ast, std::span<const StmtId> body, const std::string& enclosing,
          std::vector<NestedKernel>& out) {
  for (StmtId id : body) {
    const Stmt& s = ast.stmt(id);
    if (const ast::FunctionDef* def = s.functionDef()) {
      std::string name(ast.str(def->name));
      if (!enclosing.empty()) {
        for (ExprId d : ast.list(def->decoratorList)) {
          if (kernelDecorator(ast, d)) {
            out.push_back(NestedKernel{name, enclosing, s.range});
            break;
          }
        }
      }
      walk(ast, ast.list(def->body), name, out);
    } else if (const auto* cls = s.dyn<ast::ClassDef>()) {
      walk(ast, ast.list(cls->body), std::string(ast.str(cls->name)), out);
    } else if (const auto* f = s.dyn<ast::If>()) {
      walk(ast, ast.list(f->body), enclosing, out);
      walk(ast, ast.list(f->orelse), enclosing, out);
    } else if (const auto* f = s.dyn<ast::For>()) {
      walk(ast, ast.list(f->body), enclosing, out);
      walk(ast, ast.list(f->orelse), enclosing, out);
    } else if (const auto* f = s.dyn<ast::While>()) {
      walk(ast, ast.list(f->body), enclosing, out);
      walk(ast, ast.list(f->orelse), enclosing, out);
    } else if (const auto* w = s.dyn<ast::With>()) {
      walk(ast, ast.list(w->body), enclosing, out);
    } else if (const auto* t = s.dyn<ast::Try>()) {
      walk(ast, ast.list(t->body), enclosing, out);
      for (ExceptHandlerId h : ast.list(t->handlers)) walk(ast, ast.list(ast.exceptHandler(h).body), enclosing, out);
      walk(ast, ast.list(t->orelse), enclosing, out);
      walk(ast, ast.list(t->finalbody), enclosing, out);
    }
  }
}

}  // namespace

std::vector<NestedKernel> findNestedKernels(const Ast& ast) {
  std::vector<NestedKernel> out;
  walk(ast, ast.module(), "", out);
  return out;
}

}  // namespace frontend
