// Locals with compile-time values: numba's constant inference on single
// definitions, and omitted arguments (the checker: sema/simt/check_internal.h).
#include "sema/simt/check_internal.h"

#include "sema/nested_kernels.h"

namespace frontend::simt {

namespace {

// How often each name of a function body is bound, and the value of the bindings that
// are a plain `name = value` (numba's `get_definition`: a name defined once).
struct Bindings {
  std::map<std::string, int> count;
  std::map<std::string, ExprId> value;
};

void countTarget(const Ast& ast, ExprId target, Bindings& b) {
  const Expr& e = ast.expr(target);
  if (const auto* n = e.dyn<ast::Name>()) {
    ++b.count[std::string(ast.str(n->id))];
  } else if (const auto* t = e.dyn<ast::Tuple>()) {
    for (ExprId x : ast.list(t->elts)) countTarget(ast, x, b);
  } else if (const auto* l = e.dyn<ast::List>()) {
    for (ExprId x : ast.list(l->elts)) countTarget(ast, x, b);
  } else if (const auto* s = e.dyn<ast::Starred>()) {
    countTarget(ast, s->value, b);
  }
}

void countBindings(const Ast& ast, std::span<const StmtId> body, Bindings& b);

void countBodies(const Ast& ast, const Stmt& s, Bindings& b) {
  if (const ast::For* f = s.forLoop()) {
    countTarget(ast, f->target, b);
    countBindings(ast, ast.list(f->body), b);
    countBindings(ast, ast.list(f->orelse), b);
  } else if (const auto* w = s.dyn<ast::While>()) {
    countBindings(ast, ast.list(w->body), b);
    countBindings(ast, ast.list(w->orelse), b);
  } else if (const auto* i = s.dyn<ast::If>()) {
    countBindings(ast, ast.list(i->body), b);
    countBindings(ast, ast.list(i->orelse), b);
  } else if (const ast::With* w = s.withStmt()) {
    for (WithItemId item : ast.list(w->items)) {
      if (ast.withItem(item).optionalVars.valid()) countTarget(ast, ast.withItem(item).optionalVars, b);
    }
    countBindings(ast, ast.list(w->body), b);
  } else if (const ast::Try* t = s.tryStmt()) {
    countBindings(ast, ast.list(t->body), b);
    for (ExceptHandlerId h : ast.list(t->handlers)) {
      const ExceptHandler& handler = ast.exceptHandler(h);
      if (handler.name.valid()) ++b.count[std::string(ast.str(handler.name))];
      countBindings(ast, ast.list(handler.body), b);
    }
    countBindings(ast, ast.list(t->orelse), b);
    countBindings(ast, ast.list(t->finalbody), b);
  }
}

// Every binding of `body` (not inside nested functions), counted; names a statement
// pykc does not follow binds (`global`, `del`, imports, `match`) count twice, so that
// they are never taken as constants.
void countBindings(const Ast& ast, std::span<const StmtId> body, Bindings& b) {
  auto never = [&](std::string name) { b.count[name] += 2; };
  for (StmtId id : body) {
    const Stmt& s = ast.stmt(id);
    if (const auto* a = s.dyn<ast::Assign>()) {
      for (ExprId t : ast.list(a->targets)) {
        countTarget(ast, t, b);
        const auto* n = ast.expr(t).dyn<ast::Name>();
        if (n != nullptr) b.value[std::string(ast.str(n->id))] = a->value;
      }
    } else if (const auto* a = s.dyn<ast::AugAssign>()) {
      countTarget(ast, a->target, b);
    } else if (const auto* a = s.dyn<ast::AnnAssign>()) {
      countTarget(ast, a->target, b);
      if (const auto* n = ast.expr(a->target).dyn<ast::Name>(); n != nullptr && a->value.valid()) {
        b.value[std::string(ast.str(n->id))] = a->value;
      }
    } else if (const ast::FunctionDef* def = s.functionDef()) {
      never(std::string(ast.str(def->name)));
    } else if (const auto* c = s.dyn<ast::ClassDef>()) {
      never(std::string(ast.str(c->name)));
    } else if (const auto* g = s.dyn<ast::Global>()) {
      for (Identifier n : ast.list(g->names)) never(std::string(ast.str(n)));
    } else if (const auto* g = s.dyn<ast::Nonlocal>()) {
      for (Identifier n : ast.list(g->names)) never(std::string(ast.str(n)));
    } else if (s.is<ast::Delete>() || s.is<ast::Import>() || s.is<ast::ImportFrom>() ||
               s.is<ast::Match>()) {
      std::set<std::string> names;
      collectBoundNames(ast, std::span<const StmtId>(&id, 1), names);
      if (const auto* d = s.dyn<ast::Delete>()) {
        Bindings deleted;
        for (ExprId t : ast.list(d->targets)) countTarget(ast, t, deleted);
        for (const auto& entry : deleted.count) names.insert(entry.first);
      }
      for (const std::string& n : names) never(n);
    } else {
      countBodies(ast, s, b);
    }
  }
}

// A constant a local may hold: numbers, bools, complex numbers and tuples of them.
bool isLocalConstant(const ConstValue& v) {
  if (v.kind == ConstValue::Kind::Tuple) {
    return std::all_of(v.elements.begin(), v.elements.end(), isLocalConstant);
  }
  return v.isNumber() || v.kind == ConstValue::Kind::Complex;
}

}  // namespace

void FunctionChecker::collectConstLocals(std::span<const StmtId> body) {
  constLocals_.clear();
  Bindings b;
  for (const std::string& p : fn_.params) ++b.count[p];
  countBindings(ast_, body, b);
  // Omitted arguments the body never rebinds hold their defaults.
  for (const auto& [param, value] : inst_.omitted) {
    const std::string& name = fn_.params[param];
    if (b.count[name] == 1) constLocals_[name] = value;
  }
  // Names defined once by a constant expression, which may read other such names (in
  // any order: repeated until nothing new folds).
  std::set<std::string> params(fn_.params.begin(), fn_.params.end());
  FoldScope scope{locals_, constLocals_, fn_.scope};
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [name, value] : b.value) {
      if (b.count[name] != 1 || params.count(name) || constLocals_.count(name)) continue;
      auto v = foldConstant(ast_, value, mc_.module(), scope);
      if (!v || !isLocalConstant(*v)) continue;
      constLocals_[name] = std::move(*v);
      changed = true;
    }
  }
}

}  // namespace frontend::simt
