// Statements of tile kernels and helpers: assignments, control flow, loops.
#include <utility>

#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

void TileChecker::countAssignments(std::span<const StmtId> body) {
  for (StmtId id : body) {
    const Stmt& s = ast_.stmt(id);
    switch (s.kind()) {
      case StmtKind::Assign:
        for (ExprId t : ast_.list(s.as<ast::Assign>().targets)) countTarget(t, 1);
        break;
      case StmtKind::AnnAssign:
        if (s.as<ast::AnnAssign>().value.valid()) countTarget(s.as<ast::AnnAssign>().target, 1);
        break;
      case StmtKind::AugAssign:
        countTarget(s.as<ast::AugAssign>().target, 2);
        break;
      case StmtKind::For:
        countTarget(s.as<ast::For>().target, 2);
        if (staticIterArg(s.as<ast::For>().iter).valid()) {
          // Unrolled: its body is straight-line code, once per item.
          countAssignments(ast_.list(s.as<ast::For>().body));
        } else {
          countLoopBody(ast_.list(s.as<ast::For>().body));
        }
        break;
      case StmtKind::While:
        countLoopBody(ast_.list(s.as<ast::While>().body));
        break;
      case StmtKind::FunctionDef:
      case StmtKind::AsyncFunctionDef: {
        // A nested `def` binds its name (a closure, tile_check_closure.cpp).
        std::string name(ast_.str(s.functionDef()->name));
        assigned_[name] += 1;
        if (countNest_ > 0) nestedAssigned_.insert(name);
        break;
      }
      case StmtKind::With:
        for (WithItemId w : ast_.list(s.as<ast::With>().items)) {
          if (ast_.withItem(w).optionalVars.valid()) countTarget(ast_.withItem(w).optionalVars, 1);
        }
        countAssignments(ast_.list(s.as<ast::With>().body));
        break;
      case StmtKind::If:
        ++countNest_;
        countAssignments(ast_.list(s.as<ast::If>().body));
        countAssignments(ast_.list(s.as<ast::If>().orelse));
        --countNest_;
        break;
      default:
        break;
    }
  }
}

// Anything assigned in a loop body is assigned more than once.
void TileChecker::countLoopBody(std::span<const StmtId> body) {
  std::map<std::string, int> saved = assigned_;
  ++countNest_;
  countAssignments(body);
  --countNest_;
  for (auto& [name, n] : assigned_) {
    if (!saved.count(name) || saved[name] != n) n = 2;
  }
}

void TileChecker::countTarget(ExprId t, int n) {
  if (const auto* name = ast_.expr(t).dyn<ast::Name>()) {
    assigned_[std::string(ast_.str(name->id))] += n;
    if (countNest_ > 0) nestedAssigned_.insert(std::string(ast_.str(name->id)));
  } else if (const ExprList* parts = unpackingTargets(ast_, t)) {
    for (ExprId e : ast_.list(*parts)) countTarget(e, n);
  }
}

void TileChecker::checkBody(std::span<const StmtId> body) {
  for (StmtId id : body) checkStmt(id);
}

void TileChecker::checkStmt(StmtId id) {
  const Stmt& s = ast_.stmt(id);
  switch (s.kind()) {
    case StmtKind::Assign: {
      const auto& a = s.as<ast::Assign>();
      if (bindString(a) || bindTupleAlias(a)) return;
      if (unpackDisplay(a)) return;
      TV v = checkExpr(a.value);
      for (ExprId t : ast_.list(a.targets)) assign(t, v, a.value);
      return;
    }
    case StmtKind::AnnAssign: {
      // `HALF: ConstInt = DIM // 2`: the annotation is the reader's (cuTile infers the
      // type too); `x: int` alone declares nothing to compile.
      const auto& a = s.as<ast::AnnAssign>();
      if (!a.value.valid()) return;
      if (!ast_.expr(a.target).is<ast::Name>()) {
        diags_.error(loc(a.target), Diag::TileUnsupported, "an annotated assignment to this target",
                     ": assign to a name");
        return;
      }
      TV v = checkExpr(a.value);
      assign(a.target, v, a.value);
      return;
    }
    case StmtKind::AugAssign: {
      const auto& a = s.as<ast::AugAssign>();
      const auto* name = ast_.expr(a.target).dyn<ast::Name>();
      if (name == nullptr) {
        if (!frozenFieldAssigned(a.target)) {
          diags_.error(loc(a.target), Diag::UnsupportedFeature,
                       "tile kernels assign to names only (tiles are immutable values)");
        }
        return;
      }
      known_.erase(std::string(ast_.str(name->id)));  // `t += ...` reads the variable
      TV lhs = checkExpr(a.target);
      TV rhs = checkExpr(a.value);
      TV r = binary(a.op, lhs, rhs, s.range, a.value);
      if (r.ok() && lhs.k == TV::K::Value && r.type != lhs.type && !types_.isTuple(r.type)) {
        diags_.error(loc(s.range), Diag::TileType,
                     "`" + std::string(ast_.str(name->id)) + " " + std::string(spelling(a.op)) +
                         "=` would change its type from `" + nameOf(lhs.type) + "` to `" +
                         nameOf(r.type) + "`: write `x = x " + std::string(spelling(a.op)) +
                         " ...` or convert with `astype`");
        return;
      }
      if (r.ok()) {
        inst_.stmtOpTypes[id.index] = lastOpType_;
        inst_.stmtResultTypes[id.index] = r.type;
        // (Erased otherwise: a compile-time loop types the statement once per iteration.)
        if (lhs.k == TV::K::Const && r.k != TV::K::Const) {
          inst_.augConstLeft[id.index] = lhs.c;
        } else {
          inst_.augConstLeft.erase(id.index);
        }
      }
      assign(a.target, r, a.value);
      known_.erase(std::string(ast_.str(name->id)));  // `t += ...`: not what a.value alone is
      return;
    }
    case StmtKind::Expr: {
      ExprId value = s.as<ast::ExprStmt>().value;
      // Docstrings and other constant statements (`...`) mean nothing.
      if (ast_.expr(value).is<ast::Constant>()) return;
      if (const auto* y = ast_.expr(value).dyn<ast::Yield>()) {
        checkYield(id, y->value);
        return;
      }
      if (checkHostEffect(value)) return;
      checkExpr(value);
      return;
    }
    case StmtKind::Pass:
      return;
    case StmtKind::Return:
      if (generator_) return;  // refused before (findGeneratorYield)
      if (helperMode_) {
        checkHelperReturn(id, s.as<ast::Return>());
      } else if (s.as<ast::Return>().value.valid()) {
        diags_.error(loc(s.range), Diag::KernelReturnsValue, "a value");
      }
      return;
    case StmtKind::For:
      checkFor(id, s.as<ast::For>());
      return;
    case StmtKind::While:
      checkWhile(s.as<ast::While>(), s);
      return;
    case StmtKind::Break:
    case StmtKind::Continue:
      for (auto b = blocks_.rbegin(); b != blocks_.rend(); ++b) {
        if (!b->loop) continue;
        if (s.kind() == StmtKind::Break) {
          b->breaks.push_back(known_);
        } else {
          b->continues = true;
        }
        break;
      }
      if (loopNest_ == 0) {
        diags_.error(loc(s.range), Diag::UnsupportedFeature,
                     "`" + std::string(s.kind() == StmtKind::Break ? "break" : "continue") +
                         "` outside a loop");
      }
      return;
    case StmtKind::If: {
      const auto& i = s.as<ast::If>();
      TV c = checkExpr(i.test);
      // A dict is true when it has keys (known at compile time).
      if (c.k == TV::K::Dict) c = TV::constant(ConstValue::ofBool(!c.keys.empty()));
      if (c.k == TV::K::Const) {
        // Decided at compile time (cuTile's rule): the other branch is not typed.
        foldedIfs_[id.index] = truthOf(c.c);
        checkBody(ast_.list(truthOf(c.c) ? i.body : i.orelse));
        return;
      }
      if (c.ok() && !(
                      (c.k == TV::K::Value && types_.isNumber(c.type)))) {
        diags_.error(loc(i.test), Diag::InvalidCondition, describe(c));
      }
      ++depthNow_;
      auto knownBefore = known_;
      std::set<std::string> boundBefore;
      for (const auto& [name, t] : vars_) boundBefore.insert(name);
      auto closuresBefore = closures_;
      auto sitesBefore = closureSites_;
      enterBlock(false);
      checkBody(ast_.list(i.body));
      auto thenRetyped = leaveBlock();
      auto closuresThen = std::exchange(closures_, closuresBefore);
      auto sitesThen = std::exchange(closureSites_, sitesBefore);
      auto knownThen = std::exchange(known_, std::move(knownBefore));
      // The other branch starts from the types before the `if`, without the names the
      // first one bound.
      for (const auto& [name, r] : thenRetyped) {
        vars_[name] = r.before;
        depth_[name] = r.depthBefore;
      }
      std::map<std::string, std::pair<TypeId, int>> thenNew;
      for (const auto& [name, t] : vars_) {
        if (!boundBefore.count(name)) thenNew[name] = {t, depth_[name]};
      }
      for (const auto& [name, t] : thenNew) vars_.erase(name);
      enterBlock(false);
      checkBody(ast_.list(i.orelse));
      auto elseRetyped = leaveBlock();
      known_ = meetKnown(knownThen, known_);
      --depthNow_;
      joinClosures(closuresThen, sitesThen, std::map<std::string, TV>(closures_),
                   std::map<std::string, ExprId>(closureSites_), s.range);
      // After the join a variable has one type only where both paths agree.
      std::map<std::string, Retyped> differ;
      for (const auto& [name, td] : thenNew) {
        // First bound in both branches (cuTile: a type that "depends on the path taken"
        // where they differ), or in the first only.
        auto it = vars_.find(name);
        if (it == vars_.end()) {
          vars_[name] = td.first;
          depth_[name] = td.second;
        } else if (it->second != td.first) {
          differ[name] = Retyped{td.first, it->second, i.test, depthNow_};
        }
      }
      for (const auto& [name, r] : thenRetyped) {
        auto other = elseRetyped.find(name);
        if (other != elseRetyped.end() && other->second.after == r.after) {
          vars_[name] = r.after;
          continue;
        }
        differ[name] = r;
      }
      for (const auto& [name, r] : elseRetyped) {
        if (!thenRetyped.count(name)) differ[name] = r;
      }
      markAmbiguous(differ);
      return;
    }
    case StmtKind::FunctionDef:
    case StmtKind::AsyncFunctionDef: {
      std::string name(ast_.str(s.functionDef()->name));
      TV c = makeClosure(id, ExprId(), s.range);
      if (!c.ok()) {
        failed_.insert(name);  // its calls: no second error
        return;
      }
      bindClosure(name, c, s.range);
      return;
    }
    case StmtKind::With:
      checkWith(id, s.as<ast::With>());
      return;
    case StmtKind::AsyncWith:
      diags_.error(loc(s.range), Diag::TileUnsupported, "`async with`", ": use `with`");
      return;
    default:
      diags_.error(loc(s.range), Diag::UnsupportedFeature,
                   "`" + std::string(name(s.kind())) + "` statements are not supported in tile kernels");
      return;
  }
}

void TileChecker::checkFor(StmtId id, const ast::For& f) {
  if (ExprId iterable = staticIterArg(f.iter); iterable.valid()) {
    checkStaticFor(id, f, iterable);
    return;
  }
  const auto* call = ast_.expr(f.iter).dyn<ast::Call>();
  const auto* target = ast_.expr(f.target).dyn<ast::Name>();
  bool isRange = false;
  if (call != nullptr) {
    if (const auto* n = ast_.expr(call->func).dyn<ast::Name>()) {
      isRange = ast_.str(n->id) == "range" && !vars_.count("range");
    }
  }
  if (!isRange || target == nullptr || !f.orelse.empty() || !call->keywords.empty() ||
      call->args.empty() || ast_.list(call->args).size() > 3) {
    diags_.error(loc(f.iter), Diag::UnsupportedFeature,
                 "tile kernels loop with `for NAME in range(...)` only");
    checkBody(ast_.list(f.body));
    return;
  }
  TypeId it = types_.int32();
  for (ExprId a : ast_.list(call->args)) {
    TV v = checkExpr(a);
    if (!v.ok()) continue;
    if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Int) continue;
    if (v.k == TV::K::Value && types_.isInt(v.type)) {
      if (types_.get(v.type).bits == 64) it = types_.int64();
      continue;
    }
    diags_.error(loc(a), Diag::TileType, "`range` takes integers, found `" + describe(v) + "`");
  }
  inst_.rangeTypes[id.index] = it;
  forgetLoopKnown();
  std::string name(ast_.str(target->id));
  bindRuntime(name, it, f.target);
  record(f.target, TV::value(it));
  ++depthNow_;
  ++loopNest_;
  enterBlock(true);
  checkBody(ast_.list(f.body));
  markAmbiguous(leaveBlock());
  forgetLoopKnown();  // a loop that runs no trip leaves the values from before it
  --loopNest_;
  --depthNow_;
}

// `while COND:` with a scalar condition, evaluated by the whole CTA before each
// iteration (a spin lock on ct.atomic_cas, a data-dependent trip count); `while True:`
// with a `break`. A condition false at compile time leaves the body untyped.
void TileChecker::checkWhile(const ast::While& w, const Stmt& s) {
  if (!w.orelse.empty()) {
    diags_.error(loc(s.range), Diag::UnsupportedFeature, "`while ... else` is not supported in tile kernels");
  }
  forgetLoopKnown();  // the test runs before every trip: `while i < n: i += 1` reads the variable
  TV c = checkExpr(w.test);
  if (c.k == TV::K::Const && !truthOf(c.c)) return;
  if (c.ok() && c.k != TV::K::Const && !(c.k == TV::K::Value && types_.isNumber(c.type))) {
    diags_.error(loc(w.test), Diag::InvalidCondition, nameOf(c.type));
  }
  ++depthNow_;
  ++loopNest_;
  enterBlock(true);
  checkBody(ast_.list(w.body));
  // `while True:` whose body always ends in `break` (cuTile's test_constfold) runs
  // once: after it, what every `break` knew.
  bool once = c.k == TV::K::Const && !blocks_.back().continues && alwaysBreaks(ast_.list(w.body));
  std::vector<std::map<std::string, Known>> breaks = std::move(blocks_.back().breaks);
  markAmbiguous(leaveBlock());
  forgetLoopKnown();
  if (once && !breaks.empty()) {
    std::map<std::string, Known> after = breaks.front();
    for (size_t i = 1; i < breaks.size(); ++i) after = meetKnown(after, breaks[i]);
    for (auto& [name, k] : after) known_[name] = std::move(k);
  }
  --loopNest_;
  --depthNow_;
}

bool TileChecker::alwaysBreaks(std::span<const StmtId> body) const {
  if (body.empty()) return false;
  StmtId last = body.back();
  const Stmt& s = ast_.stmt(last);
  if (s.kind() == StmtKind::Break) return true;
  if (s.kind() != StmtKind::If) return false;
  const auto& i = s.as<ast::If>();
  if (auto folded = foldedIfs_.find(last.index); folded != foldedIfs_.end()) {
    return alwaysBreaks(ast_.list(folded->second ? i.body : i.orelse));
  }
  return alwaysBreaks(ast_.list(i.body)) && alwaysBreaks(ast_.list(i.orelse));
}

void TileChecker::enterBlock(bool loop) {
  blocks_.emplace_back();
  blocks_.back().loop = loop;
}

std::map<std::string, TileChecker::Retyped> TileChecker::leaveBlock() {
  std::map<std::string, Retyped> out;
  for (auto& [name, r] : blocks_.back().retyped) {
    // Its type when the block ends; assigned back to the type it came in with, it is
    // no change at all.
    auto v = vars_.find(name);
    if (v == vars_.end()) continue;
    r.after = v->second;
    if (r.after != r.before) out.emplace(name, r);
  }
  std::set<std::string> assigned = std::move(blocks_.back().assigned);
  blocks_.pop_back();
  if (!blocks_.empty()) blocks_.back().assigned.insert(assigned.begin(), assigned.end());
  return out;
}

void TileChecker::markAmbiguous(const std::map<std::string, Retyped>& retyped) {
  for (const auto& [name, r] : retyped) {
    ambiguous_[name] = r;
    // The enclosing block retyped it too, as far as its own join is concerned.
    if (!blocks_.empty()) blocks_.back().retyped.emplace(name, r);
  }
}

void TileChecker::noteRead(const std::string& name) {
  for (Block& b : blocks_) {
    if (b.loop && !b.assigned.count(name)) b.liveIn.insert(name);
  }
}

bool TileChecker::readAmbiguous(ExprId id, const std::string& name) {
  auto it = ambiguous_.find(name);
  if (it == ambiguous_.end()) return false;
  const Retyped& r = it->second;
  const Type& a = types_.get(r.after);
  const Type& b = types_.get(r.before);
  bool viewOnly = a.kind == TypeKind::Array && b.kind == TypeKind::Array && a.element == b.element &&
                  a.ndim == b.ndim && a.layout == b.layout && !a.facts.view && !b.facts.view;
  diags_.error(loc(id), Diag::TileType,
               "`" + name + "` holds `" + nameOf(r.before) + "` or `" + nameOf(r.after) +
                   "` here, depending on the path taken (`" + nameOf(r.after) + "` from line " +
                   std::to_string(ast_.expr(r.where).range.lineno) +
                   "): such a variable keeps one type in a tile kernel" +
                   (viewOnly ? " (a view of an array keeps neither its alignment nor the sliced extent's "
                               "divisor: give the view a name of its own)"
                    : (a.kind == TypeKind::Array && a.facts.view) || (b.kind == TypeKind::Array && b.facts.view)
                        ? " (a tiled view's tile shape, padding and steps)"
                        : ""));
  ambiguous_.erase(it);  // once
  failed_.insert(name);
  return true;
}

void TileChecker::bindRuntime(const std::string& name, TypeId t, ExprId where, bool keepType) {
  for (Block& b : blocks_) b.assigned.insert(name);
  if (ambiguous_.erase(name) != 0) {
    // A new value: the name starts afresh here (inside a block it is retyped again, for
    // that block's join).
    auto old = vars_.find(name);
    if (old != vars_.end() && old->second != t && !blocks_.empty()) {
      blocks_.back().retyped.emplace(name, Retyped{old->second, t, where, depth_[name]});
    }
    vars_[name] = t;
    depth_[name] = depthNow_;
    return;
  }
  auto it = vars_.find(name);
  if (it == vars_.end()) {
    vars_[name] = t;
    depth_[name] = depthNow_;
    return;
  }
  if (it->second != t && !keepType && depth_[name] < depthNow_) {
    // Retyped in a block entered after its last binding: fine unless a loop between
    // them reads it before this assignment (then the next iteration would see either).
    bool loopCarried = false;
    for (size_t level = static_cast<size_t>(std::max(depth_[name], 0)); level < blocks_.size(); ++level) {
      loopCarried = loopCarried || (blocks_[level].loop && blocks_[level].liveIn.count(name));
    }
    if (!loopCarried && !blocks_.empty()) {
      blocks_.back().retyped.emplace(name, Retyped{it->second, t, where, depth_[name]});
      it->second = t;
      depth_[name] = depthNow_;
      return;
    }
  }
  if (it->second != t && (keepType || depth_[name] < depthNow_)) {
    const Type& now = types_.get(t);
    const Type& before = types_.get(it->second);
    bool viewOnly = now.kind == TypeKind::Array && before.kind == TypeKind::Array &&
                    now.element == before.element && now.ndim == before.ndim && now.layout == before.layout &&
                    !now.facts.view && !before.facts.view;
    // cuTile: a tiled view's type (tile shape, padding, steps) "depends on path taken".
    bool tiledView = (now.kind == TypeKind::Array && now.facts.view) || (before.kind == TypeKind::Array && before.facts.view);
    diags_.error(loc(where), Diag::TileType,
                 "`" + name + "` is assigned `" + nameOf(t) + "` here but holds `" + nameOf(it->second) +
                     "` before the " + (keepType ? "operation" : "loop or branch") +
                     ": such a variable keeps one type in a tile kernel" +
                     (viewOnly ? " (a view of an array keeps neither its alignment nor the sliced extent's "
                                 "divisor: give the view a name of its own)"
                      : tiledView ? " (a tiled view's tile shape, padding and steps may not depend on the path taken)"
                                  : ""));
    return;
  }
  if (it->second != t) depth_[name] = depthNow_;
  it->second = t;
}

void TileChecker::assign(ExprId target, const TV& v, ExprId valueExpr) {
  if (unpackingTargets(ast_, target) != nullptr) {
    assignTuple(target, v, valueExpr);
    return;
  }
  const auto* n = ast_.expr(target).dyn<ast::Name>();
  if (const auto* sub = ast_.expr(target).dyn<ast::Subscript>(); sub != nullptr && v.ok()) {
    // `obj[i] = v` of a dataclass instance: its class's __setitem__.
    TV base = checkExpr(sub->value);
    if (!base.ok()) return;
    if (base.k == TV::K::Value && isDataclassType(types_, base.type)) {
      TV index = checkExpr(sub->slice);
      if (!index.ok()) return;
      callDunder(target, base, sub->value, "__setitem__",
                 {ArgItem{index, TileArgPiece{sub->slice, {}}, ast_.expr(sub->slice).range},
                  ArgItem{v, TileArgPiece{valueExpr, {}}, ast_.expr(valueExpr).range}},
                 "assign to an item of");
      return;
    }
  }
  if (n == nullptr) {
    if (!frozenFieldAssigned(target)) {
      diags_.error(loc(target), Diag::UnsupportedFeature,
                   "tile kernels assign to names only (tiles are immutable values)");
    }
    return;
  }
  std::string name(ast_.str(n->id));
  if (!v.ok()) {
    failed_.insert(name);
    known_.erase(name);
    return;
  }
  if (v.k != TV::K::Value) known_.erase(name);
  if (consts_.count(name) && !inst_.variables.count(name) && isConstParam(name)) {
    // Python rebinds the name (liger's rope: `cos_bs = COS.shape[0]` over a Constant
    // `cos_bs`): from here on it is the new value. Not where only some runs would rebind it.
    if (depthNow_ > 0) {
      diags_.error(loc(target), Diag::InvalidAssignment,
                   "cannot assign to Constant parameter `" + name +
                       "` inside a run-time loop or branch: give the value a name of its own");
      return;
    }
    consts_.erase(name);
  }
  if (v.k == TV::K::Entity && assignEntity(target, name, v)) return;
  if (isAggregate(v)) {
    bindClosure(name, v, ast_.expr(target).range, target);
    return;
  }
  closures_.erase(name);
  if (v.k == TV::K::Dict) {
    // A dict of compile-time values, bound in straight-line code (`opts = {"k": 2}`).
    bool runtime = false;
    for (const TileArgPiece& p : v.pieces) runtime = runtime || p.expr.valid() || !p.path.empty();
    if (runtime || depthNow_ > 0 || vars_.count(name)) {
      diags_.error(loc(target), Diag::TileUnsupported,
                   "a variable holding a dict of run-time values, or bound in a run-time loop or branch",
                   ": pass the dict on with `**`");
      return;
    }
    consts_.erase(name);
    entities_.erase(name);
    dicts_[name] = v;
    return;
  }
  dicts_.erase(name);
  if (v.k == TV::K::Value && types_.isNone(v.type)) {
    diags_.error(loc(valueExpr), Diag::TileType, "this gives no value (`None`) to assign");
    return;
  }
  // A dataclass instance holding arrays built here (`obj = Cls(x)`), bound once in
  // straight-line code: the name stands for it (lowering: a TupleArg).
  bool built = v.k == TV::K::Value && isDataclassType(types_, v.type) && holdsArray(v.type) &&
               inst_.meanings[valueExpr.index].kind == Intrinsic::HostValue &&
               isClassPayload(inst_.meanings[valueExpr.index].payload);
  bool instance = built && depthNow_ == 0 && assigned_[name] <= 1 && !vars_.count(name);
  if (built && !instance) {
    diags_.error(loc(target), Diag::TileUnsupported,
                 "an instance holding arrays (`" + dataclassName(types_, v.type) +
                     "`) bound in a run-time loop or branch, or to a name bound more than once",
                 ": bind it once, in straight-line code");
    return;
  }
  if (v.k == TV::K::Value && types_.isTuple(v.type) && holdsArray(v.type) && !instance) {
    diags_.error(loc(target), Diag::TileUnsupported, "a variable holding a tuple of arrays",
                 ": index the tuple parameter where an array is used (`ct.load(xs[i], ...)`)");
    return;
  }
  entities_.erase(name);
  bool straightLine = depthNow_ == 0 && !nestedAssigned_.count(name);
  // A view with constant bounds (`x.slice(axis=0, start=0, stop=16)`) bound once: its
  // extent along that axis is a constant (`sub.shape[0]`).
  viewExtents_.erase(name);
  if (auto e = sliceExtents_.find(valueExpr.index); e != sliceExtents_.end() && straightLine) {
    viewExtents_[name] = e->second;
  }
  // `x = None` (TileGym: `q_pe = None` then `if BLOCK_R > 0: q_pe = ...`): None is never a
  // run-time value, so the name holds the constant until it is rebound.
  bool none = v.k == TV::K::Const && v.c.kind == ConstValue::Kind::None;
  if (v.k == TV::K::Const && (assigned_[name] <= 1 || straightLine || none)) {
    consts_[name] = v.c;
    record(target, v);
    return;
  }
  consts_.erase(name);  // a run-time value from here on
  TypeId t;
  if (v.k == TV::K::Const) {
    auto it = vars_.find(name);
    if (it != vars_.end()) {
      t = it->second;
    } else if (auto ct = runtimeTypeOf(v.c)) {
      t = *ct;
    }
    if (!t.valid()) {
      diags_.error(loc(valueExpr), Diag::TileType, "cannot store `" + v.c.repr() + "` in a variable");
      return;
    }
  } else if (v.k == TV::K::Value) {
    t = v.type;
  } else {
    diags_.error(loc(valueExpr), Diag::TileType,
                 "`" + v.path + "` is not a value that a variable can hold");
    return;
  }
  bindRuntime(name, t, target);
  record(target, TV::value(t));
  if (v.k == TV::K::Const) {
    known_[name] = Known{v.c, {}};  // a constant that a join made a variable
  } else {
    noteKnown(name, t, valueExpr);
  }
}

bool TileChecker::isConstParam(const std::string& name) const {
  for (const TileConstParam& c : fn_.tileConsts) {
    if (c.name == name) return true;
  }
  return false;
}

bool TileChecker::unpackDisplay(const ast::Assign& a) {
  // `tv_dtype, tv_shape = view.dtype, view.tile_shape`: a tuple display unpacked into as
  // many names, element by element (all evaluated first, as Python does), where an element
  // is a compile-time value (a dtype, an operation) or an array no run-time tuple holds.
  auto targets = ast_.list(a.targets);
  const auto* display = ast_.expr(a.value).dyn<ast::Tuple>();
  const ExprList* names = targets.size() == 1 ? unpackingTargets(ast_, targets[0]) : nullptr;
  if (display == nullptr || names == nullptr) return false;
  auto elts = ast_.list(display->elts);
  auto tn = ast_.list(*names);
  if (elts.size() != tn.size()) return false;
  for (ExprId e : elts) {
    if (ast_.expr(e).is<ast::Starred>()) return false;
  }
  for (ExprId t : tn) {
    if (!ast_.expr(t).is<ast::Name>()) return false;
  }
  std::vector<TV> values;
  bool needed = false;
  for (ExprId e : elts) {
    values.push_back(checkExpr(e));
    const TV& v = values.back();
    if (!v.ok()) return true;  // reported
    needed = needed || v.k == TV::K::Entity || (v.k == TV::K::Value && types_.isArray(v.type));
  }
  if (!needed) return false;  // a run-time tuple: checked as one (the elements again)
  for (size_t i = 0; i < tn.size(); ++i) assign(tn[i], values[i], elts[i]);
  return true;
}

void TileChecker::bindClosure(const std::string& name, const TV& v, NodeRange at, ExprId site) {
  // In a run-time branch the paths' closures meet after the `if` (joinClosures).
  if (vars_.count(name) && depthNow_ > 0) {
    diags_.error(loc(at), Diag::TileType,
                 "`" + name + "` holds a run-time value before this loop or branch and a function here");
    failed_.insert(name);
    return;
  }
  consts_.erase(name);
  vars_.erase(name);
  entities_.erase(name);
  dicts_.erase(name);
  failed_.erase(name);
  known_.erase(name);
  closures_[name] = v;
  closureSites_[name] = site;
}

}  // namespace frontend::tile
