// `with cm(args) [as name]: body` over @contextmanager generator functions (cuTile 1.7's
// generator-based context managers, docs/TILE.md "Context managers"). The call is a helper
// call typed as a generator (instantiateHelper with withCall_): the statements before its
// one `yield` run, `as` binds what it yields, the body runs, then the statements after the
// `yield` (lowering/tile/tile_with.cpp; `break`, `continue` and `return` in the body run
// them on the way out).
#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

bool TileChecker::isContextManagerDef(StmtId def) const {
  const ast::FunctionDef* f = ast_.stmt(def).functionDef();
  if (f == nullptr) return false;
  for (ExprId d : ast_.list(f->decoratorList)) {
    if (const auto* n = ast_.expr(d).dyn<ast::Name>()) {
      if (ast_.str(n->id) == "contextmanager") return true;
    } else if (const auto* a = ast_.expr(d).dyn<ast::Attribute>()) {
      const auto* base = ast_.expr(a->value).dyn<ast::Name>();
      if (ast_.str(a->attr) == "contextmanager" && base != nullptr && ast_.str(base->id) == "contextlib") return true;
    }
  }
  return false;
}

bool TileChecker::findGeneratorYield() {
  std::span<const StmtId> body = ast_.list(ast_.stmt(fn_.stmt).functionDef()->body);
  std::vector<std::pair<StmtId, bool>> yields;  // reachable `yield` statements, whether at the top
  StmtId ret;
  // cuTile's _find_all_yield_statements over its HIR, where statements after `break`,
  // `continue` and `return` are gone: a `yield` there is dead. A `with` body is the
  // function's own block.
  auto walk = [&](auto& self, std::span<const StmtId> stmts, bool top) -> void {
    for (StmtId id : stmts) {
      const Stmt& s = ast_.stmt(id);
      switch (s.kind()) {
        case StmtKind::Expr:
          if (ast_.expr(s.as<ast::ExprStmt>().value).is<ast::Yield>()) yields.emplace_back(id, top);
          break;
        case StmtKind::Return:
          if (!ret.valid()) ret = id;
          return;
        case StmtKind::Break:
        case StmtKind::Continue:
          return;
        case StmtKind::If:
          self(self, ast_.list(s.as<ast::If>().body), false);
          self(self, ast_.list(s.as<ast::If>().orelse), false);
          break;
        case StmtKind::For:
          self(self, ast_.list(s.as<ast::For>().body), false);
          self(self, ast_.list(s.as<ast::For>().orelse), false);
          break;
        case StmtKind::While:
          self(self, ast_.list(s.as<ast::While>().body), false);
          self(self, ast_.list(s.as<ast::While>().orelse), false);
          break;
        case StmtKind::With:
          self(self, ast_.list(s.as<ast::With>().body), top);
          break;
        default:
          break;
      }
    }
  };
  walk(walk, body, true);
  if (ret.valid()) {
    diags_.error(loc(ast_.stmt(ret).range), Diag::TileType,
                 "Returning from a generator-based context manager is not supported");
    return false;
  }
  if (yields.empty()) {
    diags_.error(loc(ast_.stmt(fn_.stmt).range), Diag::TileType,
                 "Expected a generator function, but no reachable `yield` statement has been found in `" +
                     fn_.name + "`");
    return false;
  }
  if (yields.size() > 1) {
    diags_.error(loc(ast_.stmt(yields[1].first).range), Diag::TileType,
                 "Generator-based context manager must have one `yield` statement (another `yield` found on line " +
                     std::to_string(ast_.stmt(yields[0].first).range.lineno) + ")");
    return false;
  }
  if (!yields[0].second) {
    diags_.error(loc(ast_.stmt(yields[0].first).range), Diag::TileType,
                 "`yield` statement of a generator-based context manager must be placed outside of loops and "
                 "conditional statements");
    return false;
  }
  yieldStmt_ = yields[0].first;
  return true;
}

void TileChecker::checkYield(StmtId id, ExprId value) {
  if (!generator_) {
    diags_.error(loc(ast_.stmt(id).range), Diag::TileUnsupported,
                 "`yield` outside a `@contextmanager` generator entered by `with`", "");
    return;
  }
  if (id != yieldStmt_) return;  // dead (after a `break` or `continue`): never runs
  TV v = value.valid() ? checkExpr(value) : TV::value(types_.none());
  if (!v.ok()) {
    yieldFailed_ = true;
    return;
  }
  yieldRaw_ = v;
  // The body runs while the generator waits: a yielded closure sees its captures as they
  // are now (and as they are at the end after the `with`, runHelper).
  TV f = frozen(v, ast_.stmt(id).range);
  if (!f.ok()) {
    yieldFailed_ = true;
    return;
  }
  yielded_ = f;
}

TV TileChecker::afterCleanups(const TV& v) {
  TV out = v;
  for (auto it = withStack_.rbegin(); it != withStack_.rend(); ++it) {
    if (it->second.k == TV::K::Closure && identicalClosures(out, it->first)) out = it->second;
  }
  return out;
}

void TileChecker::checkWith(StmtId id, const ast::With& w) {
  const Stmt& s = ast_.stmt(id);
  auto items = ast_.list(w.items);
  if (items.size() != 1) {
    diags_.error(loc(s.range), Diag::TileUnsupported, "a `with` statement entering several context managers",
                 ": nest one `with` per context manager");
    return;
  }
  const WithItem& item = ast_.withItem(items[0]);
  if (item.optionalVars.valid() && !ast_.expr(item.optionalVars).is<ast::Name>()) {
    diags_.error(loc(item.optionalVars), Diag::TileUnsupported, "`with ... as` this target",
                 ": bind the context manager's value to one name");
    return;
  }
  if (!ast_.expr(item.contextExpr).is<ast::Call>()) {
    TV v = checkExpr(item.contextExpr);
    if (!v.ok()) return;
    diags_.error(loc(item.contextExpr), Diag::TileType,
                 "`with` takes a call of a `@contextmanager` generator function, found `" + describe(v) + "`");
    return;
  }
  ExprId saved = withCall_;
  withCall_ = item.contextExpr;
  TV v = checkExpr(item.contextExpr);
  withCall_ = saved;
  if (!v.ok()) return;
  auto end = withEnds_.find(item.contextExpr.index);
  if (end == withEnds_.end()) {
    diags_.error(loc(item.contextExpr), Diag::TileType,
                 "`with` takes a call of a `@contextmanager` generator function, found `" + describe(v) + "`");
    return;
  }
  TV after = end->second;
  if (item.optionalVars.valid()) assign(item.optionalVars, v, item.contextExpr);
  withStack_.emplace_back(v, after);
  checkBody(ast_.list(w.body));
  withStack_.pop_back();
  if (!item.optionalVars.valid() || v.k != TV::K::Closure || after.k != TV::K::Closure) return;
  // The generator has finished: a yielded closure still held by the `as` name sees its
  // captures as the generator left them (cuTile freezes them on exit).
  std::string name(ast_.str(ast_.expr(item.optionalVars).as<ast::Name>().id));
  auto held = closures_.find(name);
  if (held != closures_.end() && held->second.k == TV::K::Closure && held->second.def == v.def &&
      held->second.lambda == v.lambda) {
    held->second = after;
  }
}

}  // namespace frontend::tile
