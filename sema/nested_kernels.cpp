#include "sema/nested_kernels.h"

#include <algorithm>
#include <cctype>
#include <iterator>

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

}  // namespace

std::vector<std::span<const StmtId>> innerBodies(const Ast& ast, const Stmt& s) {
  std::vector<std::span<const StmtId>> out;
  if (const auto* f = s.dyn<ast::If>()) {
    out = {ast.list(f->body), ast.list(f->orelse)};
  } else if (const auto* f = s.dyn<ast::For>()) {
    out = {ast.list(f->body), ast.list(f->orelse)};
  } else if (const auto* f = s.dyn<ast::AsyncFor>()) {
    out = {ast.list(f->body), ast.list(f->orelse)};
  } else if (const auto* f = s.dyn<ast::While>()) {
    out = {ast.list(f->body), ast.list(f->orelse)};
  } else if (const auto* w = s.dyn<ast::With>()) {
    out = {ast.list(w->body)};
  } else if (const auto* w = s.dyn<ast::AsyncWith>()) {
    out = {ast.list(w->body)};
  } else if (s.is<ast::Try>() || s.is<ast::TryStar>()) {
    const ast::Try& t = s.is<ast::Try>() ? s.as<ast::Try>() : s.as<ast::TryStar>();
    out.push_back(ast.list(t.body));
    for (ExceptHandlerId h : ast.list(t.handlers)) out.push_back(ast.list(ast.exceptHandler(h).body));
    out.push_back(ast.list(t.orelse));
    out.push_back(ast.list(t.finalbody));
  }
  return out;
}

namespace {

void walk(const Ast& ast, std::span<const StmtId> body, const std::string& enclosing,
          const std::string& prefix, std::vector<NestedKernel>& out) {
  for (StmtId id : body) {
    const Stmt& s = ast.stmt(id);
    if (const ast::FunctionDef* def = s.functionDef()) {
      std::string name(ast.str(def->name));
      if (!enclosing.empty()) {
        for (ExprId d : ast.list(def->decoratorList)) {
          if (kernelDecorator(ast, d)) {
            out.push_back(NestedKernel{name, enclosing, prefix + name, s.range});
            break;
          }
        }
      }
      walk(ast, ast.list(def->body), name, prefix + name + ".", out);
    } else if (const auto* cls = s.dyn<ast::ClassDef>()) {
      std::string name(ast.str(cls->name));
      walk(ast, ast.list(cls->body), name, prefix + name + ".", out);
    } else {
      for (auto inner : innerBodies(ast, s)) walk(ast, inner, enclosing, prefix, out);
    }
  }
}

void collectTargets(const Ast& ast, ExprId e, std::set<std::string>& out) {
  if (!e.valid()) return;
  const Expr& x = ast.expr(e);
  if (const auto* n = x.dyn<ast::Name>()) out.insert(std::string(ast.str(n->id)));
  if (const auto* t = x.dyn<ast::Tuple>()) {
    for (ExprId el : ast.list(t->elts)) collectTargets(ast, el, out);
  }
  if (const auto* l = x.dyn<ast::List>()) {
    for (ExprId el : ast.list(l->elts)) collectTargets(ast, el, out);
  }
  if (const auto* st = x.dyn<ast::Starred>()) collectTargets(ast, st->value, out);
}

// Finds `parts[k..]` in `body` (one function or class level, through its
// compound statements). On success fills `level.prelude` with the statements
// before it and returns the def or class statement of parts[k].
std::optional<StmtId> findIn(const Ast& ast, std::span<const StmtId> body, const std::string& name,
                             std::vector<StmtId>& prelude) {
  for (StmtId id : body) {
    const Stmt& s = ast.stmt(id);
    if (const ast::FunctionDef* def = s.functionDef(); def != nullptr && ast.str(def->name) == name) {
      return id;
    }
    if (const auto* cls = s.dyn<ast::ClassDef>(); cls != nullptr && ast.str(cls->name) == name) return id;
    size_t mark = prelude.size();
    for (auto inner : innerBodies(ast, s)) {
      if (auto found = findIn(ast, inner, name, prelude)) return found;
      prelude.resize(mark);
    }
    prelude.push_back(id);
  }
  return std::nullopt;
}

}  // namespace

std::vector<NestedKernel> findNestedKernels(const Ast& ast) {
  std::vector<NestedKernel> out;
  walk(ast, ast.module(), "", "", out);
  return out;
}

std::string normalizeQualname(std::string name) {
  for (size_t at; (at = name.find(".<locals>")) != std::string::npos;) name.erase(at, 9);
  return name;
}

void collectBoundNames(const Ast& ast, std::span<const StmtId> body, std::set<std::string>& out) {
  for (StmtId id : body) {
    const Stmt& s = ast.stmt(id);
    if (const ast::FunctionDef* def = s.functionDef()) {
      out.insert(std::string(ast.str(def->name)));
    } else if (const auto* c = s.dyn<ast::ClassDef>()) {
      out.insert(std::string(ast.str(c->name)));
    } else if (const auto* a = s.dyn<ast::Assign>()) {
      for (ExprId t : ast.list(a->targets)) collectTargets(ast, t, out);
    } else if (const auto* a = s.dyn<ast::AnnAssign>()) {
      collectTargets(ast, a->target, out);  // `x: int` alone makes `x` local too
    } else if (const auto* a = s.dyn<ast::AugAssign>()) {
      collectTargets(ast, a->target, out);
    } else if (const auto* imp = s.dyn<ast::Import>()) {
      for (AliasId al : ast.list(imp->names)) {
        const Alias& alias = ast.alias(al);
        std::string full(ast.str(alias.name));
        out.insert(alias.asname.valid() ? std::string(ast.str(alias.asname)) : full.substr(0, full.find('.')));
      }
    } else if (const auto* from = s.dyn<ast::ImportFrom>()) {
      for (AliasId al : ast.list(from->names)) {
        const Alias& alias = ast.alias(al);
        out.insert(std::string(ast.str(alias.asname.valid() ? alias.asname : alias.name)));
      }
    } else {
      if (const auto* f = s.dyn<ast::For>()) collectTargets(ast, f->target, out);
      if (const auto* f = s.dyn<ast::AsyncFor>()) collectTargets(ast, f->target, out);
      if (const auto* w = s.dyn<ast::With>()) {
        for (WithItemId i : ast.list(w->items)) collectTargets(ast, ast.withItem(i).optionalVars, out);
      }
      if (s.is<ast::Try>() || s.is<ast::TryStar>()) {
        const ast::Try& t = s.is<ast::Try>() ? s.as<ast::Try>() : s.as<ast::TryStar>();
        for (ExceptHandlerId h : ast.list(t.handlers)) {
          if (ast.exceptHandler(h).name.valid()) out.insert(std::string(ast.str(ast.exceptHandler(h).name)));
        }
      }
      for (auto inner : innerBodies(ast, s)) collectBoundNames(ast, inner, out);
    }
  }
}

std::optional<NestedPath> findNestedPath(const Ast& ast, const std::string& qualname, std::string& why) {
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    size_t dot = qualname.find('.', start);
    parts.push_back(qualname.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  NestedPath path;
  std::span<const StmtId> body = ast.module();
  std::string where = "module level";
  for (size_t k = 0; k < parts.size(); ++k) {
    std::vector<StmtId> prelude;
    auto found = findIn(ast, body, parts[k], prelude);
    if (!found) {
      why = "no function or class `" + parts[k] + "` at " + where;
      return std::nullopt;
    }
    if (k > 0) path.levels.back().prelude = std::move(prelude);
    const Stmt& s = ast.stmt(*found);
    if (k + 1 == parts.size()) {
      if (s.functionDef() == nullptr) {
        why = "`" + parts[k] + "` is a class, not a function";
        return std::nullopt;
      }
      path.def = *found;
      return path;
    }
    NestedPath::Level level;
    level.name = parts[k];
    level.stmt = *found;
    if (const ast::FunctionDef* def = s.functionDef()) {
      const Arguments& args = ast.arguments(def->args);
      for (auto list : {args.posonlyargs, args.args, args.kwonlyargs}) {
        for (ArgId a : ast.list(list)) level.locals.insert(std::string(ast.str(ast.arg(a).arg)));
      }
      if (args.vararg.valid()) level.locals.insert(std::string(ast.str(ast.arg(args.vararg).arg)));
      if (args.kwarg.valid()) level.locals.insert(std::string(ast.str(ast.arg(args.kwarg).arg)));
      body = ast.list(def->body);
      collectBoundNames(ast, body, level.locals);
      where = "`" + parts[k] + "`";
    } else {
      level.isClass = true;
      body = ast.list(s.as<ast::ClassDef>().body);
      where = "class `" + parts[k] + "`";
    }
    path.levels.push_back(std::move(level));
  }
  why = "an empty name";
  return std::nullopt;
}

std::vector<std::string> nestedKernelNames(const std::vector<std::string>& kernels,
                                           const std::vector<std::string>& sigs) {
  std::vector<std::string> wanted;
  auto want = [&](std::string name) {
    name = normalizeQualname(std::move(name));
    if (name.find('.') != std::string::npos && std::find(wanted.begin(), wanted.end(), name) == wanted.end()) {
      wanted.push_back(std::move(name));
    }
  };
  for (const std::string& k : kernels) want(k);
  for (const std::string& sig : sigs) {
    std::string name = sig.substr(0, sig.find_first_of("(:"));
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front()))) name.erase(0, 1);
    want(std::move(name));
  }
  return wanted;
}

void scopeChanges(const std::map<std::string, Entity>& before, const std::map<std::string, Entity>& after,
                  std::map<std::string, Entity>& out) {
  for (const auto& [n, e] : after) {
    auto old = before.find(n);
    if (old == before.end() || old->second.kind != e.kind || old->second.payload != e.payload ||
        old->second.path != e.path) {
      out[n] = e;
    }
  }
}

void scopeChanges(const std::map<std::string, StmtId>& before, const std::map<std::string, StmtId>& after,
                  std::map<std::string, StmtId>& out) {
  for (const auto& [n, id] : after) {
    auto old = before.find(n);
    if (old == before.end() || old->second != id) out[n] = id;
  }
}

void shareNestedFunctions(ResolvedModule& module, size_t first, uint32_t scope, const std::string& qualifier) {
  std::vector<uint32_t> remap(module.functions.size());
  std::vector<JitFunction> added(std::make_move_iterator(module.functions.begin() + static_cast<ptrdiff_t>(first)),
                                 std::make_move_iterator(module.functions.end()));
  module.functions.resize(first);
  for (size_t i = 0; i < added.size(); ++i) {
    JitFunction& f = added[i];
    f.name = qualifier + f.name;
    f.scope = scope;
    size_t same = 0;
    while (same < first && !(f.device && module.functions[same].stmt == f.stmt && module.functions[same].name == f.name)) {
      ++same;
    }
    if (same < first) {
      remap[first + i] = static_cast<uint32_t>(same);
    } else {
      remap[first + i] = static_cast<uint32_t>(module.functions.size());
      module.functions.push_back(std::move(f));
    }
  }
  for (auto& [n, e] : module.scopes[scope - 1].names) {
    if (e.kind == Intrinsic::Function && e.payload >= first) e.payload = remap[e.payload];
  }
}

}  // namespace frontend
