// Statements (the checker: sema/simt/check_internal.h).
#include "sema/simt/check_internal.h"

namespace frontend::simt {

// --- statements -----------------------------------------------------------------

void FunctionChecker::checkBody(std::span<const StmtId> body) {
  for (StmtId id : body) {
    checkStmt(id);
    // What follows is dead code, which numba does not type (nor pykc lower).
    if (neverFallsThrough(id)) return;
  }
}

bool FunctionChecker::neverFallsThrough(StmtId id) const {
  const Stmt& s = ast_.stmt(id);
  auto bodyExits = [&](std::span<const StmtId> body) {
    return std::any_of(body.begin(), body.end(), [&](StmtId b) { return neverFallsThrough(b); });
  };
  switch (s.kind()) {
    case StmtKind::Return:
    case StmtKind::Break:
    case StmtKind::Continue:
      return true;
    case StmtKind::If: {
      const auto& i = s.as<ast::If>();
      if (int32_t c = inst_.constIndex[i.test.index]; c >= 0) {
        return bodyExits(ast_.list(truthOf(inst_.constants[c]) ? i.body : i.orelse));
      }
      return !i.orelse.empty() && bodyExits(ast_.list(i.body)) && bodyExits(ast_.list(i.orelse));
    }
    default:
      return false;
  }
}

void FunctionChecker::checkCondition(ExprId id) {
  Val v = checkExpr(id);
  if (!v.ok) return;
  if (v.isValue() && (types().isNumber(v.type) || types().isNone(v.type) ||
                      types().isTuple(v.type))) {
    return;
  }
  if (!v.type.valid() && v.meaning.kind == Intrinsic::None && v.constant) return;
  error(ast_.expr(id).range, Diag::InvalidCondition,
        v.type.valid() ? typeName(v.type) : textOf(id));
}

void FunctionChecker::checkStmt(StmtId id) {
  const Stmt& s = ast_.stmt(id);
  currentStmt_ = id.index;
  switch (s.kind()) {
    case StmtKind::Assign: {
      const auto& a = s.as<ast::Assign>();
      Val v = checkExpr(a.value);
      for (ExprId t : ast_.list(a.targets)) {
        noteOptional(t, a.value);
        assignTarget(t, v, ast_.expr(a.value).range);
      }
      return;
    }
    case StmtKind::AnnAssign: {
      const auto& a = s.as<ast::AnnAssign>();
      if (!a.value.valid()) return;
      Val v = checkExpr(a.value);
      assignTarget(a.target, v, ast_.expr(a.value).range);
      return;
    }
    case StmtKind::AugAssign: {
      const auto& a = s.as<ast::AugAssign>();
      Val rhs = checkExpr(a.value);
      const Expr& target = ast_.expr(a.target);
      Val current;
      if (const auto* n = target.dyn<ast::Name>()) {
        std::string name(ast_.str(n->id));
        auto it = vars_.find(name);
        if (it == vars_.end()) {
          if (reporting_ && !failedNames_.count(name)) error(target.range, Diag::UseBeforeAssign, name);
          record(a.target, Val::bad());
          return;
        }
        current = valueOf(it->second);
        record(a.target, current);
      } else if (target.is<ast::Attribute>() && isRecordValue(target.as<ast::Attribute>().value)) {
        current = checkAttribute(a.target, target.as<ast::Attribute>());
        record(a.target, current);
      } else if (target.is<ast::Subscript>()) {
        current = checkSubscript(a.target, target.as<ast::Subscript>());
        record(a.target, current);
        if (current.isValue() && types().isArray(current.type)) {
          checkSliceAugAssign(id, a, current, rhs);
          return;
        }
      } else {
        error(target.range, Diag::InvalidAssignment, "cannot assign to `" + textOf(a.target) + "`");
        return;
      }
      if (!current.isValue() || !rhs.isValue()) return;
      auto op = arithOf(a.op);
      std::optional<OpTyping> typing;
      if (op) typing = binaryResultType(types(), *op, current.type, rhs.type);
      if (!typing) {
        error(s.range, Diag::MismatchedOperandTypes, std::string(spelling(a.op)) + "=",
              typeName(current.type), typeName(rhs.type));
        return;
      }
      inst_.stmtOpTypes[id.index] = typing->operand;
      inst_.stmtResultTypes[id.index] = typing->result;
      inst_.stmtPowExponentTypes[id.index] = typing->exponent;
      if (const auto* n = target.dyn<ast::Name>()) {
        assignVariable(std::string(ast_.str(n->id)), typing->result, s.range);
      }
      return;
    }
    case StmtKind::For:
      checkFor(id, s.as<ast::For>());
      return;
    case StmtKind::While: {
      const auto& w = s.as<ast::While>();
      checkCondition(w.test);
      ++loopDepth_;
      checkBody(ast_.list(w.body));
      --loopDepth_;
      // `else`: runs when the loop ends without `break`.
      checkBody(ast_.list(w.orelse));
      return;
    }
    case StmtKind::If: {
      const auto& i = s.as<ast::If>();
      checkCondition(i.test);
      // numba prunes the branch a constant condition never takes (dead_branch_prune:
      // `if criterion == -1` of an omitted argument, `if out is None`, module
      // constants): only the other one is typed, and lowered.
      if (int32_t c = inst_.constIndex[i.test.index]; c >= 0) {
        checkBody(ast_.list(truthOf(inst_.constants[c]) ? i.body : i.orelse));
        return;
      }
      checkBody(ast_.list(i.body));
      checkBody(ast_.list(i.orelse));
      return;
    }
    case StmtKind::Return: {
      const auto& r = s.as<ast::Return>();
      if (!r.value.valid()) {
        returnsNone_ = true;
        return;
      }
      Val v = checkExpr(r.value);
      if (!v.ok) return;
      if (inst_.isKernel) {
        if (v.constant && v.constant->kind == ConstValue::Kind::None) return;
        error(ast_.expr(r.value).range, Diag::KernelReturnsValue, textOf(r.value));
        return;
      }
      if (v.constant && v.constant->kind == ConstValue::Kind::None) {
        returnsNone_ = true;
        return;
      }
      if (!v.isValue()) {
        error(ast_.expr(r.value).range, Diag::ReturnTypeMismatch,
              "cannot return `" + textOf(r.value) + "` from a device function");
        return;
      }
      // Arrays (views of arguments, shared arrays) return by value: pointer,
      // shape and strides; a local array of the callee would dangle, as in numba.
      if (inst_.returnType.valid()) {
        if (!unifyTypes(types(), inst_.returnType, v.type) && !types().isNumber(v.type)) {
          error(ast_.expr(r.value).range, Diag::ReturnTypeMismatch,
                "`" + fn_.name + "` is declared to return `" + typeName(inst_.returnType) +
                    "`, found `" + typeName(v.type) + "`");
        }
        return;
      }
      if (!returnType_) {
        returnType_ = v.type;
      } else if (auto u = unifyTypes(types(), *returnType_, v.type)) {
        returnType_ = *u;
      } else {
        error(ast_.expr(r.value).range, Diag::ReturnTypeMismatch,
              "`" + fn_.name + "` returns `" + typeName(v.type) + "` here and `" +
                  typeName(*returnType_) + "` elsewhere");
        returnConflict_ = true;
      }
      return;
    }
    case StmtKind::Expr: {
      const auto& e = s.as<ast::ExprStmt>();
      const Expr& value = ast_.expr(e.value);
      if (value.is<ast::Constant>()) return;  // docstrings, `...`
      checkExpr(e.value);
      return;
    }
    case StmtKind::Pass:
      return;
    case StmtKind::Break:
    case StmtKind::Continue:
      if (loopDepth_ == 0) {
        error(s.range, Diag::NotInLoop, s.kind() == StmtKind::Break ? "break" : "continue");
      }
      return;
    case StmtKind::Assert: {
      // numba compiles assertions only with debug=True (in kernels).
      if (!inst_.isKernel || !fn_.options.debug) return;
      const auto& a = s.as<ast::Assert>();
      checkCondition(a.test);
      ErrorSite site{id.index, "AssertionError", "", s.range.lineno};
      if (a.msg.valid()) {
        const Expr& m = ast_.expr(a.msg);
        if (!m.is<ast::Constant>() || ast_.constantOf(a.msg).kind != ConstantKind::Str) {
          error(m.range, Diag::UnsupportedFeature,
                "an assertion message must be a string literal in kernels");
          return;
        }
        site.message = ast_.constantOf(a.msg).text;
      }
      inst_.errorSites.push_back(site);
      return;
    }
    case StmtKind::Raise: {
      // Without debug=True the thread ends, in a device function too (numba returns through
      // every caller); debug=True reports the kernel's own raises to the host.
      if (!inst_.isKernel || !fn_.options.debug) return;
      // debug=True: `raise Name`, `raise Name()` or `raise Name("message")`.
      const auto& r = s.as<ast::Raise>();
      ErrorSite site{id.index, "", "", s.range.lineno};
      bool ok = r.exc.valid() && !r.cause.valid();
      if (ok) {
        const Expr& e = ast_.expr(r.exc);
        ExprId nameExpr = r.exc;
        if (const auto* call = e.dyn<ast::Call>()) {
          nameExpr = call->func;
          auto callArgs = ast_.list(call->args);
          ok = call->keywords.empty() && callArgs.size() <= 1;
          if (ok && callArgs.size() == 1) {
            ok = ast_.expr(callArgs[0]).is<ast::Constant>() &&
                 ast_.constantOf(callArgs[0]).kind == ConstantKind::Str;
            if (ok) site.message = ast_.constantOf(callArgs[0]).text;
          }
        }
        const auto* n = ast_.expr(nameExpr).dyn<ast::Name>();
        ok = ok && n != nullptr;
        if (ok) site.type = std::string(ast_.str(n->id));
      }
      if (!ok) {
        error(s.range, Diag::UnsupportedFeature,
              "with `debug=True` kernels raise `ExceptionName`, `ExceptionName()` or "
              "`ExceptionName(\"a string literal\")`");
        return;
      }
      inst_.errorSites.push_back(site);
      return;
    }
    case StmtKind::FunctionDef:
    case StmtKind::AsyncFunctionDef:
      error(s.range, Diag::UnsupportedConstruct, "a nested function");
      return;
    case StmtKind::ClassDef:
      error(s.range, Diag::UnsupportedConstruct, "`class`");
      return;
    case StmtKind::Try:
    case StmtKind::TryStar:
      error(s.range, Diag::UnsupportedConstruct, "`try`");
      return;
    case StmtKind::With:
    case StmtKind::AsyncWith:
      error(s.range, Diag::UnsupportedConstruct, "`with`");
      return;
    case StmtKind::AsyncFor:
      error(s.range, Diag::UnsupportedConstruct, "`async for`");
      return;
    case StmtKind::Match:
      error(s.range, Diag::UnsupportedConstruct, "`match`");
      return;
    case StmtKind::Delete:
      error(s.range, Diag::UnsupportedConstruct, "`del`");
      return;
    case StmtKind::Import:
    case StmtKind::ImportFrom:
      error(s.range, Diag::UnsupportedConstruct, "`import`");
      return;
    case StmtKind::Global:
    case StmtKind::Nonlocal:
      error(s.range, Diag::UnsupportedConstruct,
            s.kind() == StmtKind::Global ? "`global`" : "`nonlocal`");
      return;
    case StmtKind::TypeAlias:
      error(s.range, Diag::UnsupportedConstruct, "a `type` alias");
      return;
  }
}

void FunctionChecker::checkFor(StmtId id, const ast::For& f) {
  const Expr& iter = ast_.expr(f.iter);
  const auto* call = iter.dyn<ast::Call>();
  Val callee;
  if (call != nullptr) callee = checkExpr(call->func);
  if (call == nullptr || !callee.ok || callee.meaning.kind != Intrinsic::Range) {
    if (call == nullptr || callee.ok) checkIterFor(id, f, callee);
    ++loopDepth_;
    checkBody(ast_.list(f.body));
    --loopDepth_;
    checkBody(ast_.list(f.orelse));
    return;
  }
  record(f.iter, callee);
  auto args = ast_.list(call->args);
  std::vector<TypeId> argTypes;
  bool ok = true;
  if (args.empty() || args.size() > 3 || !call->keywords.empty()) {
    error(iter.range, Diag::WrongArgCount, "range", "1 to 3 arguments",
          std::to_string(args.size()));
    ok = false;
  }
  for (size_t k = 0; k < args.size(); ++k) {
    Val a = checkExpr(args[k]);
    if (!a.isValue()) {
      ok = false;
      if (a.ok) error(ast_.expr(args[k]).range, Diag::InvalidCall, "`range` takes integers, found `" + textOf(args[k]) + "`");
      continue;
    }
    if (!types().isIntegral(a.type)) {
      error(ast_.expr(args[k]).range, Diag::InvalidCall,
            "`range` takes integers, found `" + typeName(a.type) + "`");
      ok = false;
      continue;
    }
    if (k == 2 && a.constant && a.constant->kind == ConstValue::Kind::Int &&
        a.constant->intValue == 0) {
      error(ast_.expr(args[k]).range, Diag::InvalidCall, "`range` step must not be zero");
    }
    argTypes.push_back(a.type);
  }

  if (ok) {
    auto t = rangeType(types(), argTypes);
    if (t) {
      inst_.rangeTypes[id.index] = *t;
      Val v = valueOf(*t);
      assignTarget(f.target, v, iter.range);
    }
  } else {
    const Expr& target = ast_.expr(f.target);
    if (!target.is<ast::Name>()) {
      error(target.range, Diag::UnsupportedFeature, "a `range` loop assigns one variable");
    }
  }
  ++loopDepth_;
  checkBody(ast_.list(f.body));
  --loopDepth_;
  // `else`: runs when the loop ends without `break`.
  checkBody(ast_.list(f.orelse));
}

// One iterable of a loop: an array, a tuple of one type, or (inside
// zip/enumerate) `range(...)`. nullopt after reporting.
std::optional<IterSource> FunctionChecker::checkIterSource(ExprId expr, bool allowRange) {
  const Expr& e = ast_.expr(expr);
  if (const auto* call = e.dyn<ast::Call>(); call != nullptr && allowRange) {
    Val callee = checkExpr(call->func);
    if (!callee.ok) return std::nullopt;
    if (callee.meaning.kind == Intrinsic::Range) {
      record(call->func, callee);
      auto args = ast_.list(call->args);
      if (args.empty() || args.size() > 3 || !call->keywords.empty()) {
        error(e.range, Diag::WrongArgCount, "range", "1 to 3 arguments", std::to_string(args.size()));
        return std::nullopt;
      }
      std::vector<TypeId> argTypes;
      for (ExprId a : args) {
        Val v = checkExpr(a);
        if (!v.isValue() || !types().isIntegral(v.type)) {
          if (v.ok) {
            error(ast_.expr(a).range, Diag::InvalidCall,
                  "`range` takes integers, found `" + (v.isValue() ? typeName(v.type) : textOf(a)) + "`");
          }
          return std::nullopt;
        }
        argTypes.push_back(v.type);
      }
      auto t = rangeType(types(), argTypes);
      if (!t) return std::nullopt;
      record(expr, valueOf(*t));
      return IterSource{IterSource::Kind::Range, expr, *t, false, TypeId{}, ExprId{}};
    }
  }
  Val v = checkExpr(expr);
  if (!v.ok) return std::nullopt;
  if (v.isValue() && types().isArray(v.type)) {
    const Type& at = types().get(v.type);
    // numba: iterating an n-d array yields (n-1)-d views typed `A`, whatever the layout.
    TypeId element = at.ndim == 1 ? at.element : types().array(at.element, at.ndim - 1, Layout::A);
    return IterSource{IterSource::Kind::Array, expr, element, false, TypeId{}, ExprId{}};
  }
  if (v.isValue() && types().isTuple(v.type)) {
    const std::vector<TypeId>& elements = types().get(v.type).elements;
    std::optional<TypeId> common;
    for (TypeId t : elements) {
      if (!common) {
        common = t;
      } else if (*common != t) {
        common.reset();
        break;
      }
    }
    if (elements.empty() || !common) {
      error(e.range, Diag::UnsupportedFeature,
            "iterating over `" + typeName(v.type) +
                "` is not supported: only tuples whose elements all have one type can be iterated");
      return std::nullopt;
    }
    return IterSource{IterSource::Kind::Tuple, expr, *common, false, TypeId{}, ExprId{}};
  }
  error(e.range, Diag::UnsupportedFeature,
        "cannot iterate over `" + (v.isValue() ? typeName(v.type) : textOf(expr)) +
            "`: kernels iterate over `range(...)`, arrays, tuples, `enumerate` and `zip`");
  return std::nullopt;
}

// enumerate's start: an integer (reported otherwise).
bool FunctionChecker::checkEnumerateStart(ExprId start) {
  Val v = checkExpr(start);
  if (v.isValue() && types().isIntegral(v.type)) return true;
  if (v.ok) error(ast_.expr(start).range, Diag::InvalidCall, "`enumerate`'s start must be an integer");
  return false;
}

// One argument of zip: a source as checkIterSource takes it, or `enumerate(source[,
// start])` around one (zip(enumerate(x), y)), which yields (int64 count, item).
std::optional<IterSource> FunctionChecker::checkZipSource(ExprId expr) {
  const auto* call = ast_.expr(expr).dyn<ast::Call>();
  if (call == nullptr) return checkIterSource(expr, true);
  Val callee = checkExpr(call->func);
  if (!callee.ok) return std::nullopt;
  if (callee.meaning.kind != Intrinsic::Enumerate) return checkIterSource(expr, true);
  record(call->func, callee);
  auto args = ast_.list(call->args);
  if (!call->keywords.empty() || args.empty() || args.size() > 2) {
    error(ast_.expr(expr).range, Diag::WrongArgCount, "enumerate", "1 or 2 arguments",
          std::to_string(args.size() + ast_.list(call->keywords).size()));
    return std::nullopt;
  }
  auto source = checkIterSource(args[0], true);
  if (!source) return std::nullopt;
  if (args.size() == 2) {
    if (!checkEnumerateStart(args[1])) return std::nullopt;
    source->start = args[1];
  }
  record(expr, Val::bad());
  source->enumerated = true;
  source->inner = source->element;
  // numba: enumerate counts in intp.
  source->element = types().tuple({types().int64(), source->inner});
  return source;
}

void FunctionChecker::checkIterFor(StmtId id, const ast::For& f, const Val& callee) {
  const Expr& iter = ast_.expr(f.iter);
  ForIteration plan;
  const auto* call = iter.dyn<ast::Call>();
  Intrinsic kind = call != nullptr && callee.ok ? callee.meaning.kind : Intrinsic::None;
  auto fail = [&] { assignTarget(f.target, Val::bad(), iter.range); };
  if (kind == Intrinsic::Enumerate || kind == Intrinsic::Zip) {
    record(call->func, callee);
    auto args = ast_.list(call->args);
    std::string name = kind == Intrinsic::Enumerate ? "enumerate" : "zip";
    if (!call->keywords.empty() || args.empty() ||
        (kind == Intrinsic::Enumerate && args.size() > 2)) {
      error(iter.range, Diag::WrongArgCount, name,
            kind == Intrinsic::Enumerate ? "1 or 2 arguments" : "at least 1 argument",
            std::to_string(args.size() + ast_.list(call->keywords).size()));
      return fail();
    }
    size_t count = kind == Intrinsic::Enumerate ? 1 : args.size();
    std::vector<ExprId> sourceExprs(args.begin(), args.begin() + static_cast<ptrdiff_t>(count));
    if (kind == Intrinsic::Enumerate) {
      // enumerate(zip(a, b, ...)).
      if (const auto* inner = ast_.expr(args[0]).dyn<ast::Call>()) {
        Val innerCallee = checkExpr(inner->func);
        if (!innerCallee.ok) return fail();
        if (innerCallee.meaning.kind == Intrinsic::Zip) {
          record(args[0], Val::bad());
          auto zipArgs = ast_.list(inner->args);
          if (zipArgs.empty() || !inner->keywords.empty()) {
            error(ast_.expr(args[0]).range, Diag::WrongArgCount, "zip", "at least 1 argument",
                  std::to_string(zipArgs.size()));
            return fail();
          }
          sourceExprs.assign(zipArgs.begin(), zipArgs.end());
          plan.zip = true;
        }
      }
    }
    for (size_t k = 0; k < sourceExprs.size(); ++k) {
      auto source = kind == Intrinsic::Zip ? checkZipSource(sourceExprs[k]) : checkIterSource(sourceExprs[k], true);
      if (!source) return fail();
      plan.sources.push_back(*source);
    }
    if (kind == Intrinsic::Enumerate && args.size() == 2) {
      if (!checkEnumerateStart(args[1])) return fail();
      plan.enumerateStart = args[1];
    }
    plan.enumerate = kind == Intrinsic::Enumerate;
    plan.zip = plan.zip || kind == Intrinsic::Zip;
  } else {
    auto source = checkIterSource(f.iter, false);
    if (!source) return fail();
    plan.sources.push_back(*source);
  }
  if (plan.zip) {
    std::vector<TypeId> elements;
    for (const IterSource& src : plan.sources) elements.push_back(src.element);
    plan.item = types().tuple(elements);
  } else {
    plan.item = plan.sources[0].element;
  }
  // numba: enumerate counts in intp.
  if (plan.enumerate) plan.item = types().tuple({types().int64(), plan.item});
  inst_.iterations[id.index] = plan;
  assignTarget(f.target, valueOf(plan.item), iter.range);
}

void FunctionChecker::assignTarget(ExprId target, const Val& value, const NodeRange& valueRange) {
  const Expr& t = ast_.expr(target);
  if (const auto* n = t.dyn<ast::Name>()) {
    std::string name(ast_.str(n->id));
    if (!value.ok) {
      failedNames_.insert(name);
      record(target, Val::bad());
      return;
    }
    if (!value.type.valid() && value.meaning.kind != Intrinsic::None &&
        value.meaning.kind != Intrinsic::Module && !vars_.count(name)) {
      // A name for a compile-time entity: every assignment must bind the same one.
      auto it = entityVars_.find(name);
      if (it == entityVars_.end()) {
        entityVars_[name] = value;
      } else if (it->second.meaning.kind != value.meaning.kind ||
                 it->second.meaning.payload != value.meaning.payload) {
        error(valueRange, Diag::InvalidAssignment,
              "`" + name + "` is bound to two different compile-time objects");
      }
      record(target, value);
      return;
    }
    if (!value.type.valid()) {
      error(valueRange, Diag::InvalidAssignment,
            "cannot assign `" + (value.path.empty() ? std::string("this value") : value.path) +
                "` to a variable: only numbers, arrays and tuples can be stored in variables");
      failedNames_.insert(name);
      record(target, Val::bad());
      return;
    }
    if (types().isNone(value.type)) {
      error(valueRange, Diag::InvalidAssignment,
            "cannot assign `None` (a call without a result?) to `" + name + "`");
      failedNames_.insert(name);
      record(target, Val::bad());
      return;
    }
    assignVariable(name, value.type, t.range);
    auto it = vars_.find(name);
    record(target, valueOf(it != vars_.end() ? it->second : value.type));
    return;
  }
  if (t.is<ast::Tuple>() || t.is<ast::List>()) {
    auto elts = t.is<ast::Tuple>() ? ast_.list(t.as<ast::Tuple>().elts)
                                   : ast_.list(t.as<ast::List>().elts);
    if (!value.isValue()) {
      if (value.ok) {
        error(valueRange, Diag::InvalidAssignment, "cannot unpack `" + value.path + "`");
      }
      for (ExprId e : elts) assignTarget(e, Val::bad(), valueRange);
      return;
    }
    if (!types().isTuple(value.type)) {
      error(valueRange, Diag::InvalidAssignment,
            "cannot unpack `" + typeName(value.type) + "`: only tuples can be unpacked");
      for (ExprId e : elts) assignTarget(e, Val::bad(), valueRange);
      return;
    }
    std::vector<TypeId> elements = types().get(value.type).elements;
    if (elements.size() != elts.size()) {
      error(t.range, Diag::InvalidAssignment,
            "cannot unpack a tuple of " + std::to_string(elements.size()) + " into " +
                std::to_string(elts.size()) + " targets");
      for (ExprId e : elts) assignTarget(e, Val::bad(), valueRange);
      return;
    }
    record(target, valueOf(value.type));
    for (size_t i = 0; i < elts.size(); ++i) {
      Val element = valueOf(elements[i]);
      if (value.constant && value.constant->kind == ConstValue::Kind::Tuple) {
        element.constant = value.constant->elements[i];
      }
      assignTarget(elts[i], element, valueRange);
    }
    return;
  }
  if (const auto* sub = t.dyn<ast::Subscript>()) {
    Val base = checkExpr(sub->value);
    if (!base.isValue()) {
      if (base.ok) error(ast_.expr(sub->value).range, Diag::NotIndexable, textOf(sub->value));
      return;
    }
    if (types().isTuple(base.type)) {
      error(t.range, Diag::InvalidAssignment, "tuples are immutable: cannot assign to an item");
      return;
    }
    Val element = checkSubscript(target, *sub);
    record(target, element);
    if (!element.isValue() || !value.ok) return;
    if (types().isArray(element.type)) {
      // numba's setitem on a view: `a[1:n] = x` broadcasts a number; an array is
      // broadcast onto the view (NumPy's rules: missing leading dimensions and
      // dimensions of extent 1 repeat), its shapes checked at run time.
      const Type& view = types().get(element.type);
      bool isArray = value.isValue() && types().isArray(value.type);
      // A homogeneous tuple is numba's Sequence source: 1-d views only.
      bool isTuple = false;
      if (value.isValue() && types().isTuple(value.type)) {
        const auto& elts = types().get(value.type).elements;
        isTuple = !elts.empty() && std::all_of(elts.begin(), elts.end(),
                                               [&](TypeId e) { return e == elts[0]; });
        if (isTuple && view.ndim != 1) {
          error(valueRange, Diag::InvalidAssignment,
                "cannot assign `" + typeName(value.type) + "` to `" + typeName(element.type) +
                    "`: a tuple can only be assigned to a 1-d slice");
          return;
        }
      }
      TypeId source = !value.isValue() ? TypeId()
                      : isArray        ? types().get(value.type).element
                      : isTuple        ? types().get(value.type).elements[0]
                                       : value.type;
      bool ok = source.valid() && types().isScalar(source) &&
                !(types().isComplex(source) && !types().isComplex(view.element));
      if (!ok) {
        bool complexIntoReal = source.valid() && types().isComplex(source);
        error(valueRange, Diag::InvalidAssignment,
              "cannot assign `" + (value.isValue() ? typeName(value.type) : textOf(target)) +
                  "` to `" + typeName(element.type) + "`: " +
                  (complexIntoReal ? "complex numbers cannot be stored in a real array"
                                   : "a slice takes a number, an array or a tuple of one type"));
        return;
      }
      if (isArray || isTuple) {
        sliceShapeCheck(t.range, "cannot assign slice from input of different size");
      }
      return;
    }
    if (types().isRecord(element.type)) {
      // `a[i] = r`: numba copies the record's bytes; its type must be the element's.
      if (!value.isValue() || value.type != element.type) {
        error(valueRange, Diag::InvalidAssignment,
              "cannot store `" + (value.type.valid() ? typeName(value.type) : textOf(target)) +
                  "` into an element of `" + typeName(base.type) +
                  "`: a record element takes a record of its own type");
      }
      return;
    }
    if (!value.isValue() || !types().isScalar(value.type) ||
        (types().isComplex(value.type) && !types().isComplex(element.type))) {
      error(valueRange, Diag::InvalidAssignment,
            "cannot store `" + (value.type.valid() ? typeName(value.type) : textOf(target)) +
                "` into an element of `" + typeName(base.type) + "`");
    }
    return;
  }
  if (const auto* attr = t.dyn<ast::Attribute>()) {
    Val base = checkExpr(attr->value);
    if (base.isValue() && types().isRecord(base.type)) {
      // `r.x = v` / `a[i].x = v`: a store into the record's field.
      Val field = recordField(t.range, base.type, std::string(ast_.str(attr->attr)));
      record(target, field);
      if (!field.isValue() || !value.ok) return;
      if (!value.isValue() || !types().isScalar(value.type) ||
          (types().isComplex(value.type) && !types().isComplex(field.type))) {
        error(valueRange, Diag::InvalidAssignment,
              "cannot store `" + (value.type.valid() ? typeName(value.type) : textOf(target)) +
                  "` into field `" + std::string(ast_.str(attr->attr)) + "` of type `" +
                  typeName(field.type) + "`");
      }
      return;
    }
    if (!base.ok) return;
    error(t.range, Diag::InvalidAssignment, "cannot assign to attribute `" + textOf(target) + "`");
    return;
  }
  if (t.is<ast::Starred>()) {
    error(t.range, Diag::UnsupportedConstruct, "a starred assignment");
    return;
  }
  error(t.range, Diag::InvalidAssignment, "cannot assign to `" + textOf(target) + "`");
}

// A debug=True kernel reports a failed run-time shape check of an assignment to
// a slice as numba's ValueError (docs/compile.md).
void FunctionChecker::sliceShapeCheck(const NodeRange& where, const char* message) {
  if (!inst_.isKernel || !fn_.options.debug) return;
  for (const ErrorSite& site : inst_.errorSites) {
    if (site.stmt == currentStmt_) return;
  }
  inst_.errorSites.push_back(ErrorSite{currentStmt_, "ValueError", message, where.lineno});
}

namespace {
// NumPy's dtype kinds: bool, signed, unsigned, float, complex.
char kindOf(const TypeTable& types, TypeId t) {
  if (types.isBool(t)) return 'b';
  if (types.isInt(t)) return types.get(t).isSigned ? 'i' : 'u';
  if (types.isFloat(t)) return 'f';
  return 'c';
}
int kindRank(char k) { return k == 'b' ? 0 : k == 'i' || k == 'u' ? 1 : k == 'f' ? 2 : 3; }
}  // namespace

bool castsSameKind(const TypeTable& types, TypeId from, TypeId to) {
  char f = kindOf(types, from), t = kindOf(types, to);
  if (f == t || f == 'b') return true;
  if (f == 'u' && t == 'i') return types.get(to).bits > types.get(from).bits;
  if (f == 'i' && t == 'u') return false;
  return kindRank(f) < kindRank(t);
}

// `view op= x` on a slice: numba's in-place ufunc (`np.add(view, x, out=view)`).
// The loop is numba's `ufunc_find_matching_loop`: with an integer and a float or
// complex operand ("mixed inputs") it runs in the float/complex operand's type;
// otherwise in the types' promotion (numba's scalar rules: float32 with float64
// is float64, even for a Python float). An array operand is broadcast onto the
// view with run-time shape checks. The result must cast to the element type
// `same_kind`: `int_view /= 2`, `uint_view += 1` (an int64 result) and complex
// results into real views are errors, as in numba.
bool FunctionChecker::checkSliceAugAssign(StmtId id, const ast::AugAssign& a, const Val& view,
                                          const Val& rhs) {
  const Stmt& s = ast_.stmt(id);
  if (!rhs.isValue()) return false;
  TypeId element = types().get(view.type).element;
  bool isArray = types().isArray(rhs.type);
  TypeId operand = isArray ? types().get(rhs.type).element : rhs.type;
  auto op = arithOf(a.op);
  std::optional<OpTyping> typing;
  if (op && types().isScalar(operand)) {
    auto integer = [&](TypeId t) { return types().isInt(t); };
    auto inexact = [&](TypeId t) { return types().isFloat(t) || types().isComplex(t); };
    if (integer(element) && inexact(operand)) {
      typing = binaryResultType(types(), *op, operand, operand);
    } else if (inexact(element) && integer(operand)) {
      typing = binaryResultType(types(), *op, element, element);
    } else {
      typing = binaryResultType(types(), *op, element, operand);
    }
  }
  if (!typing) {
    error(s.range, Diag::MismatchedOperandTypes, std::string(spelling(a.op)) + "=",
          typeName(view.type), typeName(rhs.type));
    return false;
  }
  if (!castsSameKind(types(), typing->result, element)) {
    error(s.range, Diag::InvalidAssignment,
          "cannot store the `" + typeName(typing->result) + "` result of `" +
              std::string(spelling(a.op)) + "=` in `" + typeName(view.type) +
              "`: numba's in-place operators on arrays cast only within a kind (NumPy's "
              "`same_kind`)");
    return false;
  }
  inst_.stmtOpTypes[id.index] = typing->operand;
  inst_.stmtResultTypes[id.index] = typing->result;
  inst_.stmtPowExponentTypes[id.index] = typing->exponent;
  if (isArray) {
    sliceShapeCheck(s.range, "operands could not be broadcast together with remapped shapes");
  }
  return true;
}

void FunctionChecker::noteOptional(ExprId target, ExprId value) {
  const auto* n = ast_.expr(target).dyn<ast::Name>();
  if (n == nullptr) return;
  std::string name(ast_.str(n->id));
  if (optionalCalls_.count(value.index) != 0) {
    optionalNames_.insert(name);
  } else {
    optionalNames_.erase(name);
  }
}

bool FunctionChecker::isOptional(ExprId e) const {
  if (optionalCalls_.count(e.index) != 0) return true;
  const auto* n = ast_.expr(e).dyn<ast::Name>();
  return n != nullptr && optionalNames_.count(std::string(ast_.str(n->id))) != 0;
}

}  // namespace frontend::simt
