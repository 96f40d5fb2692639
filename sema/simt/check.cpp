#include "sema/simt/check.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <functional>
#include <set>
#include <tuple>

#include "diagnostics/diagnostics.h"
#include "sema/tile/tile_check.h"

namespace frontend {
namespace {

// The value of an expression while checking: a runtime value of `type`, a
// compile-time entity (`meaning`), and/or a constant.
struct Val {
  TypeId type;
  ExprMeaning meaning;
  std::optional<ConstValue> constant;
  // The dotted path of an entity (`numba.cuda`), for attributes and messages.
  std::string path;
  // False when the expression is erroneous or (while iterating) not yet known.
  bool ok = true;

  bool isValue() const { return ok && type.valid(); }
  static Val bad() {
    Val v;
    v.ok = false;
    return v;
  }
};

constexpr int kMaxIterations = 64;

std::string mangleName(const std::string& name);

std::optional<ArithOp> arithOf(Operator op) {
  switch (op) {
    case Operator::Add: return ArithOp::Add;
    case Operator::Sub: return ArithOp::Sub;
    case Operator::Mult: return ArithOp::Mul;
    case Operator::Div: return ArithOp::TrueDiv;
    case Operator::FloorDiv: return ArithOp::FloorDiv;
    case Operator::Mod: return ArithOp::Mod;
    case Operator::Pow: return ArithOp::Pow;
    case Operator::LShift: return ArithOp::LShift;
    case Operator::RShift: return ArithOp::RShift;
    case Operator::BitAnd: return ArithOp::BitAnd;
    case Operator::BitOr: return ArithOp::BitOr;
    case Operator::BitXor: return ArithOp::BitXor;
    case Operator::MatMult: return std::nullopt;
  }
  return std::nullopt;
}

std::string plural(size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

class ModuleChecker;

// Checks one function instance: iterates to a fixpoint of the variables'
// types silently, then walks once more reporting errors and filling the
// instance's side tables.
class FunctionChecker {
public:
  FunctionChecker(ModuleChecker& mc, FunctionInstance& inst, DiagnosticSink& diags);
  void run();
  // The return type inferred so far (for recursive calls without a signature).
  std::optional<TypeId> provisionalReturn() const {
    if (!returnType_) return lastReturn_;
    if (lastReturn_) {
      if (auto u = unifyTypes(mc_types(), *returnType_, *lastReturn_)) return *u;
    }
    return returnType_;
  }

private:
  // --- helpers ---
  TypeTable& types();
  template <class... Args>
  void error(const NodeRange& range, Diag kind, const Args&... args) {
    if (reporting_) diags_.error(locationOf(ast_, range), kind, args...);
  }
  Location loc(const NodeRange& r) const { return locationOf(ast_, r); }
  std::string textOf(ExprId id) const {
    Location l = loc(ast_.expr(id).range);
    if (l.line == 0 || l.column == 0 || l.column - 1 + l.length > l.lineText.size()) return "?";
    return std::string(l.lineText.substr(l.column - 1, l.length));
  }
  std::string typeName(TypeId t) { return t.valid() ? types().name(t) : "?"; }
  Val record(ExprId id, Val v);
  Val valueOf(TypeId t) {
    Val v;
    v.type = t;
    return v;
  }
  Val constantVal(ConstValue c);

  // --- variables ---
  void collectLocals(std::span<const StmtId> body);
  void collectTargets(ExprId target);
  void assignVariable(const std::string& name, TypeId t, const NodeRange& where);

  // --- statements ---
  void checkBody(std::span<const StmtId> body);
  void checkStmt(StmtId id);
  void assignTarget(ExprId target, const Val& value, const NodeRange& valueRange);
  void checkCondition(ExprId id);
  void checkFor(StmtId id, const ast::For& f);
  void checkIterFor(StmtId id, const ast::For& f, const Val& callee);
  std::optional<IterSource> checkIterSource(ExprId expr, bool allowRange);

  // --- expressions ---
  Val checkExpr(ExprId id);
  Val checkName(ExprId id, const ast::Name& n);
  Val checkAttribute(ExprId id, const ast::Attribute& a);
  Val checkCall(ExprId id, const ast::Call& c);
  Val checkSubscript(ExprId id, const ast::Subscript& s);
  Val checkArrayView(ExprId id, const ast::Subscript& s, TypeId arrayType);
  Val checkBinOp(ExprId id, const ast::BinOp& b);
  Val checkCompare(ExprId id, const ast::Compare& c);
  Val checkIntrinsicCall(ExprId id, const Val& callee, const ast::Call& c,
                         const std::vector<Val>& args);
  Val checkMathCall(ExprId id, MathFn fn, const ast::Call& c, const std::vector<Val>& args);
  Val checkArrayAlloc(ExprId id, const Val& callee, const ast::Call& c);
  Val checkAtomic(ExprId id, Intrinsic kind, const ast::Call& c, const std::vector<Val>& args);
  Val checkCacheHint(ExprId id, Intrinsic kind, const ast::Call& c, const std::vector<Val>& args);
  // The field `name` of a record type (an error at `where` when it has none).
  Val recordField(const NodeRange& where, TypeId record, const std::string& name);
  // Whether `id` is a record value (checks it).
  bool isRecordValue(ExprId id) {
    Val v = checkExpr(id);
    return v.isValue() && types().isRecord(v.type);
  }
  Val checkDeviceCall(ExprId id, uint32_t function, const ast::Call& c,
                      const std::vector<Val>& args);
  Val checkExternCall(ExprId id, uint32_t index, const ast::Call& c, const std::vector<Val>& args);
  Val checkFromBuffer(ExprId id, const ast::Call& c, const std::vector<Val>& args);
  bool checkArrayIndex(ExprId indexExpr, TypeId arrayType, const Val& index);

  ModuleChecker& mc_;
  const Ast& ast_;
  FunctionInstance& inst_;
  DiagnosticSink& diags_;
  const JitFunction& fn_;
  bool reporting_ = false;
  bool changed_ = false;
  // The statement being checked (assignments to slices register run-time
  // shape checks for it).
  uint32_t currentStmt_ = 0;
  void sliceShapeCheck(const NodeRange& where, const char* message);
  bool checkSliceAugAssign(StmtId id, const ast::AugAssign& a, const Val& view, const Val& rhs);
  int loopDepth_ = 0;
  std::set<std::string> locals_;
  std::map<std::string, TypeId> vars_;
  // Variables bound to a compile-time entity (`g = cuda.cg.this_grid()`).
  std::map<std::string, Val> entityVars_;
  // Return types seen (device functions).
  std::optional<TypeId> returnType_;
  // The previous pass's return type (recursive calls converge to the final one).
  std::optional<TypeId> lastReturn_;
  TypeTable& mc_types() const;
  bool returnsNone_ = false;
  bool returnConflict_ = false;
};

class ModuleChecker {
public:
  ModuleChecker(const Ast& ast, TypedModule& typed, DiagnosticSink& diags,
                const CheckOptions& options)
      : ast_(ast), typed_(typed), diags_(diags), options_(options) {}

  void run();
  // The instances of tile kernel `function`: one per signature x combination
  // of its Constant values (docs/TILE.md).
  void addTileKernels(uint32_t function);
  // Whether a SIMT kernel's argument types hold bfloat16 (tile kernels only).
  bool usesBFloat16(const std::vector<TypeId>& args);

  // The instance of `function` for `args` (created and checked on first use);
  // -1 if it is being checked (recursion) or failed to exist.
  int instantiate(uint32_t function, const std::vector<TypeId>& args,
                  std::optional<TypeId> declaredReturn, bool isKernel, bool fastmath,
                  bool& recursive);

  const Ast& ast() const { return ast_; }
  ResolvedModule& module() { return typed_.module; }
  TypeTable& types() { return typed_.module.types; }
  const FunctionInstance& instance(int i) const { return all_[i]; }
  bool isDone(int i) const { return done_[i]; }
  bool failed(int i) const { return done_[i] && sinks_[i].hasErrors(); }
  // The return type a recursive call of the in-progress instance `i` was given.
  TypeId assumedReturn(int i) const { return assumed_.at(i); }

private:
  void finish();

  const Ast& ast_;
  TypedModule& typed_;
  DiagnosticSink& diags_;
  const CheckOptions& options_;
  std::vector<FunctionInstance> all_;
  std::vector<DiagnosticSink> sinks_;
  std::vector<bool> done_;
  std::map<std::tuple<uint32_t, std::vector<TypeId>, bool, bool>, int> memo_;
  // Instances being checked, and the return types recursive calls assumed.
  std::map<int, FunctionChecker*> active_;
  std::map<int, TypeId> assumed_;
  std::vector<int> kernels_;
};

// ---------------------------------------------------------------------------

FunctionChecker::FunctionChecker(ModuleChecker& mc, FunctionInstance& inst, DiagnosticSink& diags)
    : mc_(mc), ast_(mc.ast()), inst_(inst), diags_(diags),
      fn_(mc.module().functions[inst.function]) {}

TypeTable& FunctionChecker::types() { return mc_.types(); }
TypeTable& FunctionChecker::mc_types() const { return mc_.types(); }

Val FunctionChecker::record(ExprId id, Val v) {
  uint32_t i = id.index;
  inst_.exprTypes[i] = v.ok ? v.type : TypeId();
  inst_.meanings[i] = v.meaning;
  if (v.ok && v.constant && v.type.valid()) {
    inst_.constIndex[i] = static_cast<int32_t>(inst_.constants.size());
    inst_.constants.push_back(*v.constant);
  } else {
    inst_.constIndex[i] = -1;
  }
  return v;
}

Val FunctionChecker::constantVal(ConstValue c) {
  Val v;
  if (auto t = typeOfConstant(c, types())) v.type = *t;
  v.constant = std::move(c);
  return v;
}

void FunctionChecker::collectTargets(ExprId target) {
  const Expr& e = ast_.expr(target);
  if (const auto* n = e.dyn<ast::Name>()) {
    locals_.insert(std::string(ast_.str(n->id)));
  } else if (const auto* t = e.dyn<ast::Tuple>()) {
    for (ExprId x : ast_.list(t->elts)) collectTargets(x);
  } else if (const auto* l = e.dyn<ast::List>()) {
    for (ExprId x : ast_.list(l->elts)) collectTargets(x);
  } else if (const auto* s = e.dyn<ast::Starred>()) {
    collectTargets(s->value);
  }
}

void FunctionChecker::collectLocals(std::span<const StmtId> body) {
  for (StmtId id : body) {
    const Stmt& s = ast_.stmt(id);
    switch (s.kind()) {
      case StmtKind::Assign:
        for (ExprId t : ast_.list(s.as<ast::Assign>().targets)) collectTargets(t);
        break;
      case StmtKind::AugAssign:
        collectTargets(s.as<ast::AugAssign>().target);
        break;
      case StmtKind::AnnAssign:
        collectTargets(s.as<ast::AnnAssign>().target);
        break;
      case StmtKind::For:
      case StmtKind::AsyncFor: {
        const ast::For& f = *s.forLoop();
        collectTargets(f.target);
        collectLocals(ast_.list(f.body));
        collectLocals(ast_.list(f.orelse));
        break;
      }
      case StmtKind::While:
        collectLocals(ast_.list(s.as<ast::While>().body));
        collectLocals(ast_.list(s.as<ast::While>().orelse));
        break;
      case StmtKind::If:
        collectLocals(ast_.list(s.as<ast::If>().body));
        collectLocals(ast_.list(s.as<ast::If>().orelse));
        break;
      case StmtKind::FunctionDef:
      case StmtKind::AsyncFunctionDef:
        locals_.insert(std::string(ast_.str(s.functionDef()->name)));
        break;
      case StmtKind::ClassDef:
        locals_.insert(std::string(ast_.str(s.as<ast::ClassDef>().name)));
        break;
      default:
        break;
    }
  }
}

void FunctionChecker::assignVariable(const std::string& name, TypeId t, const NodeRange& where) {
  if (!t.valid()) return;
  auto it = vars_.find(name);
  if (it == vars_.end()) {
    vars_[name] = t;
    changed_ = true;
    return;
  }
  if (it->second == t) return;
  auto u = unifyTypes(types(), it->second, t);
  if (!u) {
    error(where, Diag::CannotUnify, name, typeName(t), typeName(it->second));
    return;
  }
  if (*u != it->second) {
    it->second = *u;
    changed_ = true;
  }
}

void FunctionChecker::run() {
  const Stmt& s = ast_.stmt(fn_.stmt);
  const ast::FunctionDef& def = *s.functionDef();
  size_t nExprs = ast_.exprCount();
  size_t nStmts = ast_.stmtCount();
  inst_.exprTypes.assign(nExprs, TypeId());
  inst_.opTypes.assign(nExprs, TypeId());
  inst_.powExponentTypes.assign(nExprs, TypeId());
  inst_.meanings.assign(nExprs, ExprMeaning{});
  inst_.arrayAttrs.assign(nExprs, ArrayAttr::None);
  inst_.constIndex.assign(nExprs, -1);
  inst_.callees.assign(nExprs, -1);
  inst_.stmtOpTypes.assign(nStmts, TypeId());
  inst_.stmtResultTypes.assign(nStmts, TypeId());
  inst_.rangeTypes.assign(nStmts, TypeId());

  for (const std::string& p : fn_.params) locals_.insert(p);
  collectLocals(ast_.list(def.body));

  std::map<std::string, TypeId> initial;
  for (size_t i = 0; i < fn_.params.size() && i < inst_.argTypes.size(); ++i) {
    initial[fn_.params[i]] = inst_.argTypes[i];
  }
  vars_ = initial;
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    changed_ = false;
    inst_.constants.clear();
    inst_.errorSites.clear();
    returnType_.reset();
    returnsNone_ = false;
    checkBody(ast_.list(def.body));
    bool returnChanged = returnType_ != lastReturn_;
    lastReturn_ = returnType_;
    if (!changed_ && !returnChanged) break;
  }
  reporting_ = true;
  inst_.constants.clear();
  inst_.errorSites.clear();
  returnType_.reset();
  returnsNone_ = false;
  returnConflict_ = false;
  checkBody(ast_.list(def.body));
  inst_.variables = vars_;

  if (inst_.isKernel) {
    inst_.returnType = types().none();
  } else if (!inst_.returnType.valid()) {
    if (returnType_ && returnsNone_ && !returnConflict_) {
      diags_.error(fn_.location, Diag::ReturnTypeMismatch,
                   "`" + fn_.name + "` returns a value on some paths and nothing on others");
    }
    inst_.returnType = returnType_.value_or(types().none());
  }
}

// --- statements -----------------------------------------------------------------

void FunctionChecker::checkBody(std::span<const StmtId> body) {
  for (StmtId id : body) checkStmt(id);
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
      for (ExprId t : ast_.list(a.targets)) assignTarget(t, v, ast_.expr(a.value).range);
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
          if (reporting_) error(target.range, Diag::UseBeforeAssign, name);
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
      inst_.powExponentTypes[a.value.index] = typing->exponent;
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
      if (!inst_.isKernel) {
        error(s.range, Diag::UnsupportedFeature,
              "`raise` in a device function is not supported (in a kernel it ends the thread)");
        return;
      }
      if (!fn_.options.debug) return;
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
      return IterSource{IterSource::Kind::Range, expr, *t};
    }
  }
  Val v = checkExpr(expr);
  if (!v.ok) return std::nullopt;
  if (v.isValue() && types().isArray(v.type)) {
    const Type& at = types().get(v.type);
    // numba: iterating an n-d array yields (n-1)-d views typed `A`, whatever the layout.
    TypeId element = at.ndim == 1 ? at.element : types().array(at.element, at.ndim - 1, Layout::A);
    return IterSource{IterSource::Kind::Array, expr, element};
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
    return IterSource{IterSource::Kind::Tuple, expr, *common};
  }
  error(e.range, Diag::UnsupportedFeature,
        "cannot iterate over `" + (v.isValue() ? typeName(v.type) : textOf(expr)) +
            "`: kernels iterate over `range(...)`, arrays, tuples, `enumerate` and `zip`");
  return std::nullopt;
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
      auto source = checkIterSource(sourceExprs[k], true);
      if (!source) return fail();
      plan.sources.push_back(*source);
    }
    if (kind == Intrinsic::Enumerate && args.size() == 2) {
      Val start = checkExpr(args[1]);
      if (!start.isValue() || !types().isIntegral(start.type)) {
        if (start.ok) {
          error(ast_.expr(args[1]).range, Diag::InvalidCall, "`enumerate`'s start must be an integer");
        }
        return fail();
      }
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
      record(target, Val::bad());
      return;
    }
    if (types().isNone(value.type)) {
      error(valueRange, Diag::InvalidAssignment,
            "cannot assign `None` (a call without a result?) to `" + name + "`");
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
// np.can_cast(from, to, "same_kind") for the types a result can have.
bool castsSameKind(const TypeTable& types, TypeId from, TypeId to) {
  char f = kindOf(types, from), t = kindOf(types, to);
  if (f == t || f == 'b') return true;
  if (f == 'u' && t == 'i') return types.get(to).bits > types.get(from).bits;
  if (f == 'i' && t == 'u') return false;
  return kindRank(f) < kindRank(t);
}
}  // namespace

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
  inst_.powExponentTypes[a.value.index] = typing->exponent;
  if (isArray) {
    sliceShapeCheck(s.range, "operands could not be broadcast together with remapped shapes");
  }
  return true;
}

// --- expressions ------------------------------------------------------------------

Val FunctionChecker::checkExpr(ExprId id) {
  const Expr& e = ast_.expr(id);
  switch (e.kind()) {
    case ExprKind::Constant: {
      const ConstantValue& c = ast_.constantOf(id);
      switch (c.kind) {
        case ConstantKind::True:
        case ConstantKind::False:
          return record(id, constantVal(ConstValue::ofBool(c.kind == ConstantKind::True)));
        case ConstantKind::Int:
          if (!c.fitsInt64) {
            error(e.range, Diag::UnsupportedFeature,
                  "integer literal `" + c.literal + "` does not fit in int64");
            return record(id, Val::bad());
          }
          return record(id, constantVal(ConstValue::ofInt(c.intValue)));
        case ConstantKind::Float:
          return record(id, constantVal(ConstValue::ofFloat(c.floatValue)));
        case ConstantKind::None: {
          Val v;
          v.type = types().none();
          v.constant = ConstValue{};
          return record(id, v);
        }
        case ConstantKind::Str: {
          Val v;
          ConstValue s;
          s.kind = ConstValue::Kind::Str;
          s.strValue = c.text;
          v.constant = s;
          v.path = "'" + c.text + "'";
          return record(id, v);
        }
        case ConstantKind::Complex:
          // `2.5j`: complex128, as in numba.
          return record(id, valueOf(types().complexType(128)));
        default:
          error(e.range, Diag::UnsupportedConstruct,
                c.kind == ConstantKind::Bytes ? "a bytes literal" : "`...`");
          return record(id, Val::bad());
      }
    }
    case ExprKind::Name:
      return record(id, checkName(id, e.as<ast::Name>()));
    case ExprKind::Attribute:
      return record(id, checkAttribute(id, e.as<ast::Attribute>()));
    case ExprKind::Call:
      return record(id, checkCall(id, e.as<ast::Call>()));
    case ExprKind::Subscript: {
      const auto& s = e.as<ast::Subscript>();
      return record(id, checkSubscript(id, s));
    }
    case ExprKind::BinOp:
      return record(id, checkBinOp(id, e.as<ast::BinOp>()));
    case ExprKind::UnaryOp: {
      const auto& u = e.as<ast::UnaryOp>();
      Val v = checkExpr(u.operand);
      if (!v.ok) return record(id, Val::bad());
      if (v.constant && v.isValue()) {
        if (auto folded = foldUnary(u.op, *v.constant)) {
          if (u.op == UnaryOpKind::Invert && v.constant->kind == ConstValue::Kind::Bool) {
            folded = ConstValue::ofBool(!v.constant->boolValue);
          }
          Val r = constantVal(*folded);
          if (r.type.valid()) {
            inst_.opTypes[id.index] = r.type;
            return record(id, r);
          }
        }
      }
      if (!v.isValue()) {
        error(e.range, Diag::BadUnaryOperand, spelling(u.op), textOf(u.operand));
        return record(id, Val::bad());
      }
      if (u.op == UnaryOpKind::Not) {
        if (!types().isNumber(v.type) && !types().isTuple(v.type) && !types().isNone(v.type)) {
          error(e.range, Diag::BadUnaryOperand, "not", typeName(v.type));
          return record(id, Val::bad());
        }
        inst_.opTypes[id.index] = v.type;
        return record(id, valueOf(types().boolean()));
      }
      auto t = unaryResultType(types(), u.op, v.type);
      if (!t) {
        error(e.range, Diag::BadUnaryOperand, spelling(u.op), typeName(v.type));
        return record(id, Val::bad());
      }
      inst_.opTypes[id.index] = *t;
      return record(id, valueOf(*t));
    }
    case ExprKind::Compare:
      return record(id, checkCompare(id, e.as<ast::Compare>()));
    case ExprKind::BoolOp: {
      const auto& b = e.as<ast::BoolOp>();
      std::optional<TypeId> result;
      bool ok = true;
      for (ExprId v : ast_.list(b.values)) {
        Val x = checkExpr(v);
        if (!x.isValue()) {
          if (x.ok) error(ast_.expr(v).range, Diag::InvalidCondition, textOf(v));
          ok = false;
          continue;
        }
        if (!types().isNumber(x.type)) {
          error(ast_.expr(v).range, Diag::MismatchedOperandTypes,
                b.op == BoolOpKind::And ? "and" : "or", typeName(x.type), "...");
          ok = false;
          continue;
        }
        if (!result) {
          result = x.type;
        } else if (auto u = unifyTypes(types(), *result, x.type)) {
          result = *u;
        } else {
          ok = false;
        }
      }
      if (!ok || !result) return record(id, Val::bad());
      inst_.opTypes[id.index] = *result;
      return record(id, valueOf(*result));
    }
    case ExprKind::IfExp: {
      const auto& i = e.as<ast::IfExp>();
      checkCondition(i.test);
      Val a = checkExpr(i.body);
      Val b = checkExpr(i.orelse);
      if (!a.isValue() || !b.isValue()) {
        if ((a.ok && !a.type.valid()) || (b.ok && !b.type.valid())) {
          error(e.range, Diag::InvalidType, "both branches of a conditional expression must be values");
        }
        return record(id, Val::bad());
      }
      auto u = unifyTypes(types(), a.type, b.type);
      if (!u) {
        error(e.range, Diag::MismatchedOperandTypes, "if-else", typeName(a.type), typeName(b.type));
        return record(id, Val::bad());
      }
      inst_.opTypes[id.index] = *u;
      return record(id, valueOf(*u));
    }
    case ExprKind::Tuple: {
      const auto& t = e.as<ast::Tuple>();
      std::vector<TypeId> elements;
      ConstValue constant;
      constant.kind = ConstValue::Kind::Tuple;
      bool allConst = true;
      bool ok = true;
      for (ExprId x : ast_.list(t.elts)) {
        Val v = checkExpr(x);
        if (!v.isValue()) {
          if (v.ok) {
            error(ast_.expr(x).range, Diag::InvalidType,
                  "tuple elements must be numbers, arrays or tuples, found `" + textOf(x) + "`");
          }
          ok = false;
          continue;
        }
        if (types().isNone(v.type)) {
          error(ast_.expr(x).range, Diag::InvalidType, "tuple elements cannot be `None`");
          ok = false;
          continue;
        }
        elements.push_back(v.type);
        if (v.constant) {
          constant.elements.push_back(*v.constant);
        } else {
          allConst = false;
        }
      }
      if (!ok) return record(id, Val::bad());
      Val v = valueOf(types().tuple(elements));
      if (allConst) v.constant = constant;
      return record(id, v);
    }
    case ExprKind::List:
      error(e.range, Diag::UnsupportedConstruct, "a list");
      return record(id, Val::bad());
    case ExprKind::Dict:
      error(e.range, Diag::UnsupportedConstruct, "a dict");
      return record(id, Val::bad());
    case ExprKind::Set:
      error(e.range, Diag::UnsupportedConstruct, "a set");
      return record(id, Val::bad());
    case ExprKind::ListComp:
    case ExprKind::SetComp:
    case ExprKind::DictComp:
      error(e.range, Diag::UnsupportedConstruct, "a comprehension");
      return record(id, Val::bad());
    case ExprKind::GeneratorExp:
      error(e.range, Diag::UnsupportedConstruct, "a generator expression");
      return record(id, Val::bad());
    case ExprKind::Lambda:
      error(e.range, Diag::UnsupportedConstruct, "`lambda`");
      return record(id, Val::bad());
    case ExprKind::Yield:
    case ExprKind::YieldFrom:
      error(e.range, Diag::UnsupportedConstruct, "`yield`");
      return record(id, Val::bad());
    case ExprKind::Await:
      error(e.range, Diag::UnsupportedConstruct, "`await`");
      return record(id, Val::bad());
    case ExprKind::JoinedStr:
    case ExprKind::FormattedValue:
      error(e.range, Diag::UnsupportedConstruct, "an f-string");
      return record(id, Val::bad());
    case ExprKind::NamedExpr:
      error(e.range, Diag::UnsupportedConstruct, "`:=`");
      return record(id, Val::bad());
    case ExprKind::Starred:
      error(e.range, Diag::UnsupportedConstruct, "`*` unpacking");
      return record(id, Val::bad());
    case ExprKind::Slice:
      error(e.range, Diag::UnsupportedFeature, "array slicing is not supported in kernels yet");
      return record(id, Val::bad());
  }
  return record(id, Val::bad());
}

Val FunctionChecker::checkName(ExprId id, const ast::Name& n) {
  std::string name(ast_.str(n.id));
  const Expr& e = ast_.expr(id);
  if (locals_.count(name)) {
    if (auto ent = entityVars_.find(name); ent != entityVars_.end() && !vars_.count(name)) {
      return ent->second;
    }
    auto it = vars_.find(name);
    if (it == vars_.end()) {
      if (reporting_) error(e.range, Diag::UseBeforeAssign, name);
      return Val::bad();
    }
    return valueOf(it->second);
  }
  auto& globals = mc_.module().globals;
  auto it = globals.find(name);
  if (it != globals.end()) {
    const Entity& entity = it->second;
    Val v;
    v.path = entity.path;
    v.meaning = ExprMeaning{entity.kind, entity.payload};
    switch (entity.kind) {
      case Intrinsic::Constant:
        return constantVal(mc_.module().constants[entity.payload]);
      case Intrinsic::MathConst:
        if (isComplexMathConst(entity.payload)) {
          v.type = types().complexType(128);
          return v;
        }
        return constantVal(ConstValue::ofFloat(mathConstValue(entity.payload)));
      case Intrinsic::HostValue:
        if (entity.payload == 1) {
          error(e.range, Diag::UndecoratedFunction, name);
        } else {
          error(e.range, Diag::HostGlobal, name);
        }
        return Val::bad();
      case Intrinsic::Laneid:
      case Intrinsic::Warpsize:
        v.type = types().int32();
        return v;
      case Intrinsic::ConstArray: {
        // numba freezes global arrays: constant memory, C order.
        const ConstArrayData& data = mc_.module().constArrays[entity.payload];
        v.type = types().array(data.element, static_cast<unsigned>(data.shape.size()), Layout::C);
        return v;
      }
      default:
        v.path = entity.kind == Intrinsic::Function ? name : entity.path;
        return v;
    }
  }
  struct Builtin {
    std::string_view name;
    Intrinsic kind;
  };
  static constexpr Builtin kBuiltins[] = {
      {"range", Intrinsic::Range}, {"min", Intrinsic::Min},     {"max", Intrinsic::Max},
      {"abs", Intrinsic::Abs},     {"len", Intrinsic::Len},     {"round", Intrinsic::Round},
      {"int", Intrinsic::Int},     {"float", Intrinsic::Float}, {"bool", Intrinsic::Bool},
      {"print", Intrinsic::Print}, {"enumerate", Intrinsic::Enumerate},
      {"zip", Intrinsic::Zip},     {"complex", Intrinsic::ComplexCtor}, {"pow", Intrinsic::Pow},
  };
  for (const Builtin& b : kBuiltins) {
    if (b.name == name) {
      Val v;
      v.meaning.kind = b.kind;
      v.path = name;
      return v;
    }
  }
  error(e.range, Diag::UndefinedName, name);
  return Val::bad();
}

Val FunctionChecker::checkAttribute(ExprId id, const ast::Attribute& a) {
  Val base = checkExpr(a.value);
  if (!base.ok) return Val::bad();
  std::string attr(ast_.str(a.attr));
  const Expr& e = ast_.expr(id);
  if (base.isValue() && types().isRecord(base.type)) return recordField(e.range, base.type, attr);
  if (base.isValue() && types().isVector(base.type)) {
    // A vector type's `.x .y .z .w` (read-only, as numba's attribute wrappers).
    const auto& elements = types().get(base.type).elements;
    size_t index = std::string_view("xyzw").find(attr);
    if (attr.size() == 1 && index < elements.size()) return valueOf(elements[index]);
    error(e.range, Diag::UnknownAttribute, typeName(base.type), attr);
    return Val::bad();
  }
  switch (base.meaning.kind) {
    case Intrinsic::ThreadIdx:
    case Intrinsic::BlockIdx:
    case Intrinsic::BlockDim:
    case Intrinsic::GridDim: {
      if (attr != "x" && attr != "y" && attr != "z") break;
      Val v = valueOf(types().int32());
      v.meaning = ExprMeaning{base.meaning.kind, static_cast<uint32_t>(attr[0] - 'x')};
      return v;
    }
    case Intrinsic::CffiFfi: {
      if (attr != "from_buffer") break;
      Val v;
      v.path = base.path + ".from_buffer";
      v.meaning = ExprMeaning{Intrinsic::FromBuffer, 0};
      return v;
    }
    case Intrinsic::GridGroup: {
      if (attr != "sync") break;
      Val v;
      v.path = base.path + ".sync";
      v.meaning = ExprMeaning{Intrinsic::GridSync, 0};
      return v;
    }
    case Intrinsic::Module: {
      std::string path = base.path + "." + attr;
      auto entity = lookupEntity(path, types());
      if (!entity) break;
      Val v;
      v.path = path;
      v.meaning = ExprMeaning{entity->kind, entity->payload};
      if (entity->kind == Intrinsic::MathConst) {
        if (isComplexMathConst(entity->payload)) {
          v.type = types().complexType(128);  // cmath.infj, cmath.nanj
          return v;
        }
        Val c = constantVal(ConstValue::ofFloat(mathConstValue(entity->payload)));
        return c;
      }
      if (entity->kind == Intrinsic::Laneid || entity->kind == Intrinsic::Warpsize) {
        v.type = types().int32();
      }
      return v;
    }
    case Intrinsic::ConstArray:
    case Intrinsic::None: {
      if (!base.isValue()) break;
      if (types().isScalar(base.type) && (attr == "real" || attr == "imag" || attr == "conjugate")) {
        // numba: numbers have .real/.imag/.conjugate() too (imag of a real is 0).
        TypeId part = types().isComplex(base.type) ? types().complexPart(base.type) : base.type;
        Val v = valueOf(attr == "conjugate" ? TypeId() : part);
        v.meaning.kind = attr == "real"   ? Intrinsic::ComplexReal
                         : attr == "imag" ? Intrinsic::ComplexImag
                                          : Intrinsic::ComplexConjugate;
        v.path = textOf(a.value) + "." + attr;
        if (attr == "conjugate") v.type = TypeId();
        return v;
      }
      if (types().isArray(base.type)) {
        const Type& t = types().get(base.type);
        if (attr == "shape" || attr == "strides") {
          inst_.arrayAttrs[id.index] = attr == "shape" ? ArrayAttr::Shape : ArrayAttr::Strides;
          return valueOf(types().uniTuple(types().int64(), t.ndim));
        }
        if (attr == "size") {
          inst_.arrayAttrs[id.index] = ArrayAttr::Size;
          return valueOf(types().int64());
        }
        if (attr == "ndim") {
          inst_.arrayAttrs[id.index] = ArrayAttr::Ndim;
          return constantVal(ConstValue::ofInt(t.ndim));
        }
        if (attr == "T") {
          // numba: the transpose reverses the dimensions (C <-> F).
          inst_.arrayAttrs[id.index] = ArrayAttr::Transpose;
          Layout l = t.ndim == 1 ? t.layout
                     : t.layout == Layout::C ? Layout::F
                     : t.layout == Layout::F ? Layout::C
                                             : Layout::A;
          return valueOf(types().array(t.element, t.ndim, l));
        }
        if (attr == "dtype" || attr == "flat" || attr == "itemsize" ||
            attr == "nbytes") {
          error(e.range, Diag::UnsupportedFeature,
                "array attribute `" + attr + "` is not supported in kernels yet");
          return Val::bad();
        }
      }
      error(e.range, Diag::UnknownAttribute, typeName(base.type), attr);
      return Val::bad();
    }
    default:
      break;
  }
  error(e.range, Diag::UnknownAttribute, textOf(a.value), attr);
  return Val::bad();
}

bool FunctionChecker::checkArrayIndex(ExprId indexExpr, TypeId arrayType, const Val& index) {
  const Type& array = types().get(arrayType);
  const Expr& ie = ast_.expr(indexExpr);
  if (!index.isValue()) {
    if (index.ok) {
      error(ie.range, Diag::InvalidIndex, "array index must be an integer, found `" + textOf(indexExpr) + "`");
    }
    return false;
  }
  std::vector<TypeId> indices;
  if (types().isTuple(index.type)) {
    indices = types().get(index.type).elements;
  } else {
    indices.push_back(index.type);
  }
  for (TypeId t : indices) {
    if (!types().isInt(t)) {
      error(ie.range, Diag::InvalidIndex,
            "array index must be an integer, found `" + typeName(t) + "`");
      return false;
    }
  }
  if (indices.size() != array.ndim) {
    if (indices.size() < array.ndim) {
      error(ie.range, Diag::UnsupportedFeature,
            "indexing a " + std::to_string(array.ndim) + "-d array with " +
                plural(indices.size(), "index") +
                " (a view of the array) is not supported in kernels yet");
    } else {
      error(ie.range, Diag::InvalidIndex,
            "too many indices for `" + typeName(arrayType) + "`: found " +
                std::to_string(indices.size()));
    }
    return false;
  }
  return true;
}

// `a[i]`, `a[1:n]`, `a[:, j]`, `a[i, ::2]`: a view of the array. Integers
// drop a dimension, slices keep it, missing trailing indices are `:`. The
// layout follows numba (arraydecl.get_array_index_type).
Val FunctionChecker::checkArrayView(ExprId id, const ast::Subscript& s, TypeId arrayType) {
  const Type& at = types().get(arrayType);
  const Expr& slice = ast_.expr(s.slice);
  std::vector<ExprId> items;
  if (const auto* t = slice.dyn<ast::Tuple>()) {
    for (ExprId x : ast_.list(t->elts)) items.push_back(x);
  } else {
    items.push_back(s.slice);
  }
  if (items.size() > at.ndim) {
    error(slice.range, Diag::InvalidIndex,
          "too many indices for `" + typeName(arrayType) + "`: found " + std::to_string(items.size()));
    return Val::bad();
  }
  // Per explicit index: 0 an integer, 1 a slice without step, 2 a slice with a step.
  std::vector<int> kinds;
  bool ok = true;
  for (ExprId item : items) {
    const Expr& ie = ast_.expr(item);
    if (const auto* sl = ie.dyn<ast::Slice>()) {
      for (ExprId part : {sl->lower, sl->upper, sl->step}) {
        if (!part.valid()) continue;
        Val v = checkExpr(part);
        if (!v.ok) {
          ok = false;
        } else if (!v.isValue() || !types().isInt(v.type)) {
          error(ast_.expr(part).range, Diag::InvalidIndex,
                "slice bounds must be integers, found `" +
                    (v.isValue() ? typeName(v.type) : textOf(part)) + "`");
          ok = false;
        } else if (part == sl->step && v.constant && v.constant->kind == ConstValue::Kind::Int &&
                   v.constant->intValue == 0) {
          error(ast_.expr(part).range, Diag::InvalidIndex, "slice step cannot be zero");
          ok = false;
        }
      }
      record(item, Val::bad());
      kinds.push_back(sl->step.valid() ? 2 : 1);
      continue;
    }
    Val v = checkExpr(item);
    if (!v.ok) {
      ok = false;
    } else if (!v.isValue() || !types().isInt(v.type)) {
      error(ie.range, Diag::InvalidIndex,
            "array index must be an integer or a slice, found `" +
                (v.isValue() ? typeName(v.type) : textOf(item)) + "`");
      ok = false;
    }
    kinds.push_back(0);
  }
  if (!ok) return Val::bad();
  unsigned ndim = 0;
  for (int k : kinds) ndim += k != 0 ? 1 : 0;
  ndim += at.ndim - static_cast<unsigned>(items.size());
  if (ndim == 0) {
    // Only possible with integers for every dimension: an element.
    return valueOf(at.element);
  }
  auto keeps = [](int kind, bool innermost) { return kind == 0 || (innermost && kind == 1); };
  auto contiguous = [&](const std::vector<int>& outer) {
    for (size_t k = 0; k + 1 < outer.size(); ++k) {
      if (!keeps(outer[k], false)) return false;
    }
    return outer.empty() || keeps(outer.back(), true);
  };
  Layout layout = at.layout;
  bool full = items.size() == at.ndim;
  if (layout == Layout::C) {
    if (!contiguous(kinds)) layout = Layout::A;
  } else if (layout == Layout::F) {
    std::vector<int> reversed(kinds.rbegin(), kinds.rend());
    if (!full || !contiguous(reversed)) layout = Layout::A;
  }
  (void)id;
  return valueOf(types().array(at.element, ndim, layout));
}

Val FunctionChecker::checkSubscript(ExprId id, const ast::Subscript& s) {
  Val base = checkExpr(s.value);
  const Expr& e = ast_.expr(id);
  if (!base.ok) {
    checkExpr(s.slice);
    return Val::bad();
  }
  if (!base.isValue()) {
    checkExpr(s.slice);
    error(ast_.expr(s.value).range, Diag::NotIndexable, textOf(s.value));
    return Val::bad();
  }
  if (types().isRecord(base.type)) {
    // `r['x']`: a field named by a string literal, as numba requires.
    const Expr& key = ast_.expr(s.slice);
    if (!key.is<ast::Constant>() || ast_.constantOf(s.slice).kind != ConstantKind::Str) {
      checkExpr(s.slice);
      error(key.range, Diag::InvalidIndex,
            "a record is indexed by a field name (a string literal), found `" + textOf(s.slice) + "`");
      return Val::bad();
    }
    return recordField(e.range, base.type, ast_.constantOf(s.slice).text);
  }
  const Expr& slice = ast_.expr(s.slice);
  bool hasSlice = slice.is<ast::Slice>();
  if (const auto* t = slice.dyn<ast::Tuple>()) {
    for (ExprId x : ast_.list(t->elts)) hasSlice = hasSlice || ast_.expr(x).is<ast::Slice>();
  }
  if (types().isArray(base.type)) {
    unsigned ndim = types().get(base.type).ndim;
    if (hasSlice) return checkArrayView(id, s, base.type);
    if (const auto* t = slice.dyn<ast::Tuple>(); t != nullptr && t->elts.size < ndim) {
      return checkArrayView(id, s, base.type);
    }
    if (!slice.is<ast::Tuple>() && ndim > 1) {
      Val single = checkExpr(s.slice);
      if (single.isValue() && types().isInt(single.type)) return checkArrayView(id, s, base.type);
    }
  }
  Val index = checkExpr(s.slice);
  if (types().isArray(base.type)) {
    if (!index.ok) return Val::bad();
    if (!checkArrayIndex(s.slice, base.type, index)) return Val::bad();
    return valueOf(types().get(base.type).element);
  }
  if (types().isTuple(base.type)) {
    const std::vector<TypeId>& elements = types().get(base.type).elements;
    if (!index.ok) return Val::bad();
    if (index.constant && index.constant->kind == ConstValue::Kind::Int) {
      int64_t n = static_cast<int64_t>(elements.size());
      int64_t k = index.constant->intValue;
      if (k < 0) k += n;
      if (k < 0 || k >= n) {
        error(slice.range, Diag::IndexOutOfRange,
              "tuple index " + std::to_string(index.constant->intValue) +
                  " is out of range for `" + typeName(base.type) + "`");
        return Val::bad();
      }
      Val v = valueOf(elements[k]);
      if (base.constant && base.constant->kind == ConstValue::Kind::Tuple) {
        v.constant = base.constant->elements[k];
      }
      return v;
    }
    if (!index.isValue() || !types().isInt(index.type)) {
      error(slice.range, Diag::InvalidIndex, "tuple index must be an integer");
      return Val::bad();
    }
    bool uniform = !elements.empty() &&
                   std::all_of(elements.begin(), elements.end(),
                               [&](TypeId t) { return t == elements[0]; }) &&
                   types().isNumber(elements[0]);
    if (!uniform) {
      error(slice.range, Diag::InvalidIndex,
            "a tuple of mixed types (`" + typeName(base.type) +
                "`) can only be indexed with a constant");
      return Val::bad();
    }
    return valueOf(elements[0]);
  }
  error(ast_.expr(s.value).range, Diag::NotIndexable, typeName(base.type));
  (void)e;
  return Val::bad();
}

Val FunctionChecker::checkBinOp(ExprId id, const ast::BinOp& b) {
  Val l = checkExpr(b.left);
  Val r = checkExpr(b.right);
  const Expr& e = ast_.expr(id);
  if (!l.ok || !r.ok) return Val::bad();
  if (l.constant && r.constant && l.isValue() && r.isValue()) {
    if (auto folded = foldBinary(b.op, *l.constant, *r.constant)) {
      Val v = constantVal(*folded);
      if (v.type.valid()) {
        inst_.opTypes[id.index] = v.type;
        return v;
      }
    }
  }
  if (!l.isValue() || !r.isValue()) {
    error(e.range, Diag::MismatchedOperandTypes, spelling(b.op),
          l.isValue() ? typeName(l.type) : textOf(b.left),
          r.isValue() ? typeName(r.type) : textOf(b.right));
    return Val::bad();
  }
  if (types().isArray(l.type) || types().isArray(r.type)) {
    error(e.range, Diag::MismatchedOperandTypes, spelling(b.op), typeName(l.type),
          typeName(r.type));
    if (reporting_) {
      // No position: the error above already points at the expression.
      diags_.note(Location{}, "array expressions are not supported in kernels: "
                              "compute element by element");
    }
    return Val::bad();
  }
  auto op = arithOf(b.op);
  std::optional<OpTyping> typing;
  if (op) typing = binaryResultType(types(), *op, l.type, r.type);
  if (!typing) {
    error(e.range, Diag::MismatchedOperandTypes, spelling(b.op), typeName(l.type),
          typeName(r.type));
    return Val::bad();
  }
  inst_.opTypes[id.index] = typing->operand;
  inst_.powExponentTypes[id.index] = typing->exponent;
  return valueOf(typing->result);
}

Val FunctionChecker::checkCompare(ExprId id, const ast::Compare& c) {
  Val left = checkExpr(c.left);
  auto ops = ast_.list(c.ops);
  auto comparators = ast_.list(c.comparators);
  bool ok = left.ok;
  std::optional<ConstValue> constant = ConstValue::ofBool(true);
  bool allConst = true;
  ExprId leftId = c.left;
  for (size_t k = 0; k < ops.size(); ++k) {
    Val right = checkExpr(comparators[k]);
    CmpOp op = ops[k];
    if (!left.ok || !right.ok) {
      ok = false;
    } else if (op == CmpOp::Is || op == CmpOp::IsNot) {
      bool lNone = left.isValue() && types().isNone(left.type);
      bool rNone = right.isValue() && types().isNone(right.type);
      if (!lNone && !rNone) {
        error(ast_.expr(id).range, Diag::UnsupportedFeature,
              "`is` compares with `None` only in kernels");
        ok = false;
      } else {
        // Values in kernels are never None unless they are the constant.
        bool same = lNone && rNone;
        ConstValue v = ConstValue::ofBool(op == CmpOp::Is ? same : !same);
        if (constant && constant->boolValue) constant = v;
      }
      inst_.opTypes[comparators[k].index] = types().boolean();
    } else if (op == CmpOp::In || op == CmpOp::NotIn) {
      error(ast_.expr(id).range, Diag::UnsupportedFeature, "`in` is not supported in kernels yet");
      ok = false;
    } else if (left.isValue() && right.isValue() && types().isScalar(left.type) &&
               types().isScalar(right.type) &&
               (types().isComplex(left.type) || types().isComplex(right.type))) {
      if (op != CmpOp::Eq && op != CmpOp::NotEq) {
        error(ast_.expr(id).range, Diag::MismatchedOperandTypes, spelling(op),
              typeName(left.type), typeName(right.type));
        ok = false;
      } else {
        inst_.opTypes[comparators[k].index] = *comparisonType(types(), left.type, right.type);
        allConst = false;
      }
    } else if (!left.isValue() || !right.isValue() || !types().isNumber(left.type) ||
               !types().isNumber(right.type)) {
      error(ast_.expr(id).range, Diag::MismatchedOperandTypes, spelling(op),
            left.isValue() ? typeName(left.type) : textOf(leftId),
            right.isValue() ? typeName(right.type) : textOf(comparators[k]));
      ok = false;
    } else {
      auto t = comparisonType(types(), left.type, right.type);
      inst_.opTypes[comparators[k].index] = *t;
      if (allConst && left.constant && right.constant) {
        auto folded = foldCompare(op, *left.constant, *right.constant);
        if (folded && constant && constant->boolValue) constant = folded;
        if (!folded) allConst = false;
      } else {
        allConst = false;
      }
    }
    left = right;
    leftId = comparators[k];
  }
  if (!ok) return Val::bad();
  Val v = valueOf(types().boolean());
  if (allConst && constant) v.constant = constant;
  return v;
}

Val FunctionChecker::checkCall(ExprId id, const ast::Call& c) {
  Val callee = checkExpr(c.func);
  std::vector<Val> args;
  for (ExprId a : ast_.list(c.args)) {
    if (ast_.expr(a).is<ast::Starred>()) {
      error(ast_.expr(a).range, Diag::UnsupportedConstruct, "`*args` in calls");
      return Val::bad();
    }
  }
  if (!callee.ok) {
    for (ExprId a : ast_.list(c.args)) checkExpr(a);
    return Val::bad();
  }
  if (callee.meaning.kind == Intrinsic::SharedArray || callee.meaning.kind == Intrinsic::LocalArray) {
    return checkArrayAlloc(id, callee, c);
  }
  for (ExprId a : ast_.list(c.args)) args.push_back(checkExpr(a));
  for (const Val& a : args) {
    if (!a.ok) return Val::bad();
  }
  if (callee.meaning.kind == Intrinsic::Function) {
    return checkDeviceCall(id, callee.meaning.payload, c, args);
  }
  if (callee.meaning.kind == Intrinsic::ExternFunction) {
    return checkExternCall(id, callee.meaning.payload, c, args);
  }
  if (callee.meaning.kind == Intrinsic::FromBuffer) {
    return checkFromBuffer(id, c, args);
  }
  if (callee.meaning.kind == Intrinsic::None || callee.meaning.kind == Intrinsic::Module) {
    error(ast_.expr(c.func).range, Diag::NotCallable,
          callee.isValue() ? typeName(callee.type) : textOf(c.func));
    return Val::bad();
  }
  return checkIntrinsicCall(id, callee, c, args);
}

Val FunctionChecker::checkExternCall(ExprId id, uint32_t index, const ast::Call& c,
                                     const std::vector<Val>& args) {
  const ExternFunction& target = mc_.module().externs[index];
  const Expr& e = ast_.expr(id);
  if (!c.keywords.empty()) {
    error(e.range, Diag::InvalidCall,
          "`" + target.name + "` is a `cuda.declare_device` function: pass its arguments by "
          "position");
    return Val::bad();
  }
  auto argList = ast_.list(c.args);
  if (args.size() != target.args.size()) {
    error(e.range, Diag::WrongArgCount, target.name, plural(target.args.size(), "argument"),
          std::to_string(args.size()));
    return Val::bad();
  }
  for (size_t k = 0; k < args.size(); ++k) {
    TypeId want = target.args[k];
    TypeId have = args[k].isValue() ? args[k].type : TypeId();
    bool fits = have.valid() && (want == have ||
                                 (types().isNumber(want) && types().isNumber(have)) ||
                                 (types().isPointer(want) && types().isNone(types().get(want).element) &&
                                  types().isPointer(have)));
    if (fits) continue;
    std::string hint;
    if (have.valid() && types().isArray(have) && types().isPointer(want)) {
      hint = " (pass `ffi.from_buffer(" + textOf(argList[k]) + ")`)";
    }
    error(ast_.expr(argList[k]).range, Diag::InvalidCall,
          "argument " + std::to_string(k + 1) + " of `" + target.name + "` must be `" +
              typeName(want) + "`, found `" +
              (have.valid() ? typeName(have) : textOf(argList[k])) + "`" + hint);
    return Val::bad();
  }
  return valueOf(target.returnType);
}

Val FunctionChecker::checkFromBuffer(ExprId id, const ast::Call& c, const std::vector<Val>& args) {
  const Expr& e = ast_.expr(id);
  if (args.size() != 1 || !c.keywords.empty() || !args[0].isValue() ||
      !types().isArray(args[0].type)) {
    error(e.range, Diag::InvalidCall, "`ffi.from_buffer` takes one array");
    return Val::bad();
  }
  return valueOf(types().pointer(types().get(args[0].type).element));
}

Val FunctionChecker::checkDeviceCall(ExprId id, uint32_t function, const ast::Call& c,
                                     const std::vector<Val>& args) {
  const JitFunction& target = mc_.module().functions[function];
  const Expr& e = ast_.expr(id);
  if (!target.device) {
    error(ast_.expr(c.func).range, Diag::InvalidCall,
          "`" + target.name + "` is a kernel: kernels cannot be called from kernels (mark it "
          "`device=True`)");
    return Val::bad();
  }
  std::vector<ExprId> argList(ast_.list(c.args).begin(), ast_.list(c.args).end());
  std::vector<Val> ordered = args;
  if (!c.keywords.empty()) {
    // Keyword arguments: placed by parameter name, as Python does.
    argList.resize(target.params.size());
    ordered.resize(target.params.size());
    std::vector<bool> given(target.params.size(), false);
    for (size_t k = 0; k < args.size() && k < given.size(); ++k) given[k] = true;
    for (KeywordId kid : ast_.list(c.keywords)) {
      const Keyword& kw = ast_.keyword(kid);
      if (!kw.arg.valid()) {
        error(kw.range, Diag::UnsupportedConstruct, "`**kwargs` in calls");
        return Val::bad();
      }
      std::string key(ast_.str(kw.arg));
      auto it = std::find(target.params.begin(), target.params.end(), key);
      if (it == target.params.end()) {
        error(kw.range, Diag::InvalidCall, "`" + target.name + "` has no parameter `" + key + "`");
        return Val::bad();
      }
      size_t index = static_cast<size_t>(it - target.params.begin());
      if (given[index]) {
        error(kw.range, Diag::InvalidCall, "`" + target.name + "` got two values for `" + key + "`");
        return Val::bad();
      }
      given[index] = true;
      argList[index] = kw.value;
      ordered[index] = checkExpr(kw.value);
      if (!ordered[index].ok) return Val::bad();
    }
    for (size_t k = 0; k < given.size(); ++k) {
      if (!given[k]) {
        error(e.range, Diag::InvalidCall,
              "`" + target.name + "` is missing the argument `" + target.params[k] + "`");
        return Val::bad();
      }
    }
    inst_.callArguments[id.index] = argList;
  }
  if (ordered.size() != target.params.size() || args.size() > target.params.size()) {
    error(e.range, Diag::WrongArgCount, target.name, plural(target.params.size(), "argument"),
          std::to_string(args.size() + ast_.list(c.keywords).size()));
    return Val::bad();
  }
  std::vector<TypeId> argTypes;
  for (size_t k = 0; k < ordered.size(); ++k) {
    if (!ordered[k].isValue() || types().isNone(ordered[k].type)) {
      error(ast_.expr(argList[k]).range, Diag::InvalidCall,
            "cannot pass `" + textOf(argList[k]) + "` to a device function");
      return Val::bad();
    }
    argTypes.push_back(ordered[k].type);
  }
  std::optional<TypeId> declaredReturn;
  if (!target.signatures.empty()) {
    // numba: the first declared signature the arguments convert to.
    const Signature* chosen = nullptr;
    for (int pass = 0; pass < 2 && chosen == nullptr; ++pass) {
      for (const DeclaredSignature& d : target.signatures) {
        bool fits = true;
        for (size_t k = 0; k < argTypes.size() && fits; ++k) {
          TypeId want = d.signature.args[k];
          TypeId have = argTypes[k];
          if (pass == 0) {
            fits = want == have;
          } else if (types().isNumber(want) && types().isNumber(have)) {
            fits = true;
          } else if (types().isArray(want) && types().isArray(have)) {
            const Type& w = types().get(want);
            const Type& h = types().get(have);
            fits = w.element == h.element && w.ndim == h.ndim &&
                   (w.layout == Layout::A || w.layout == h.layout);
          } else {
            fits = want == have;
          }
        }
        if (fits) {
          chosen = &d.signature;
          break;
        }
      }
    }
    if (chosen == nullptr) {
      std::string have = "(";
      for (size_t k = 0; k < argTypes.size(); ++k) have += (k ? ", " : "") + typeName(argTypes[k]);
      error(e.range, Diag::InvalidCall,
            "no signature of `" + target.name + "` accepts " + have + ")");
      return Val::bad();
    }
    argTypes = chosen->args;
    declaredReturn = chosen->returnType;
  }
  bool recursive = false;
  int callee = mc_.instantiate(function, argTypes, declaredReturn, false, inst_.fastmath, recursive);
  if (callee < 0) {
    if (recursive) error(e.range, Diag::Recursion, target.name);
    return Val::bad();
  }
  inst_.callees[id.index] = callee;
  if (declaredReturn) return valueOf(*declaredReturn);
  if (!mc_.isDone(callee)) return valueOf(mc_.assumedReturn(callee));
  // Errors in the callee are reported there; its result type means nothing.
  if (mc_.failed(callee)) return Val::bad();
  const FunctionInstance& calleeInst = mc_.instance(callee);
  if (!calleeInst.returnType.valid()) return Val::bad();
  return valueOf(calleeInst.returnType);
}

Val FunctionChecker::checkArrayAlloc(ExprId id, const Val& callee, const ast::Call& c) {
  const Expr& e = ast_.expr(id);
  bool shared = callee.meaning.kind == Intrinsic::SharedArray;
  std::string what = shared ? "cuda.shared.array" : "cuda.local.array";
  ExprId shapeExpr, dtypeExpr;
  auto args = ast_.list(c.args);
  if (args.size() > 0) shapeExpr = args[0];
  if (args.size() > 1) dtypeExpr = args[1];
  for (KeywordId k : ast_.list(c.keywords)) {
    const Keyword& kw = ast_.keyword(k);
    std::string key(ast_.str(kw.arg));
    if (key == "shape" && !shapeExpr.valid()) {
      shapeExpr = kw.value;
    } else if (key == "dtype" && !dtypeExpr.valid()) {
      dtypeExpr = kw.value;
    } else if (key == "alignment") {
      checkExpr(kw.value);
    } else {
      error(kw.range, Diag::InvalidCall, "unexpected argument `" + key + "` to `" + what + "`");
      return Val::bad();
    }
  }
  if (args.size() > 2 || !shapeExpr.valid() || !dtypeExpr.valid()) {
    error(e.range, Diag::WrongArgCount, what, "a shape and a dtype",
          std::to_string(args.size() + ast_.list(c.keywords).size()) + " arguments");
    return Val::bad();
  }
  Val shape = checkExpr(shapeExpr);
  Val dtype = checkExpr(dtypeExpr);
  if (!shape.ok || !dtype.ok) return Val::bad();
  std::vector<int64_t> dims;
  bool shapeOk = shape.constant.has_value();
  if (shapeOk) {
    if (shape.constant->kind == ConstValue::Kind::Int) {
      dims.push_back(shape.constant->intValue);
    } else if (shape.constant->kind == ConstValue::Kind::Tuple && !shape.constant->elements.empty()) {
      for (const ConstValue& d : shape.constant->elements) {
        if (d.kind != ConstValue::Kind::Int) shapeOk = false;
        dims.push_back(d.intValue);
      }
    } else {
      shapeOk = false;
    }
  }
  if (!shapeOk) {
    error(ast_.expr(shapeExpr).range, Diag::NotConstant,
          "the shape of `" + what + "` (an int or a tuple of ints)");
    return Val::bad();
  }
  bool dynamic = shared && dims.size() == 1 && dims[0] == 0;
  int64_t total = 1;
  for (int64_t d : dims) {
    if (d <= 0 && !dynamic) {
      error(ast_.expr(shapeExpr).range, Diag::InvalidShape,
            "array dimensions must be positive, found " + std::to_string(d));
      return Val::bad();
    }
    if (!dynamic && __builtin_mul_overflow(total, d, &total)) total = INT64_MAX;
  }
  TypeId element;
  if (dtype.meaning.kind == Intrinsic::TypeObject) {
    element = TypeId(dtype.meaning.payload);
  } else if (dtype.constant && dtype.constant->kind == ConstValue::Kind::Str) {
    if (auto t = scalarTypeByName(types(), dtype.constant->strValue)) element = *t;
  }
  if (!element.valid() || !types().isScalar(element)) {
    error(ast_.expr(dtypeExpr).range, Diag::InvalidType,
          "`" + textOf(dtypeExpr) + "` is not a scalar dtype (write e.g. `np.float32`, "
          "`numba.int32` or `\"float32\"`)");
    return Val::bad();
  }
  if (!dynamic && total * types().byteSize(element) > (shared ? 227 * 1024 : 512 * 1024)) {
    error(ast_.expr(shapeExpr).range, Diag::InvalidShape,
          what + " of " + std::to_string(total * types().byteSize(element)) +
              " bytes is larger than a GPU allows");
    return Val::bad();
  }
  Val v = valueOf(types().array(element, static_cast<unsigned>(dims.size()), Layout::C));
  v.meaning = callee.meaning;
  return v;
}

Val FunctionChecker::recordField(const NodeRange& where, TypeId record, const std::string& name) {
  auto index = types().fieldIndex(record, name);
  if (!index) {
    error(where, Diag::UnknownAttribute, typeName(record), name);
    return Val::bad();
  }
  return valueOf(types().get(record).elements[*index]);
}

// cuda.ld<op>(array, i) and cuda.st<op>(array, i, value) (numba-cuda's
// cache_hints.py): a 1-d array with an integer index, an n-d one with a tuple
// of n integers, or a CPointer with an integer; elements of 8-64 bit
// integers or floats.
Val FunctionChecker::checkCacheHint(ExprId id, Intrinsic kind, const ast::Call& c,
                                    const std::vector<Val>& args) {
  const Expr& e = ast_.expr(id);
  bool store = kind == Intrinsic::CacheStore;
  std::string name = textOf(c.func);
  if (args.size() != (store ? 3u : 2u) || !c.keywords.empty()) {
    error(e.range, Diag::WrongArgCount, name,
          store ? "3 arguments (array, index, value)" : "2 arguments (array, index)",
          std::to_string(args.size() + ast_.list(c.keywords).size()));
    return Val::bad();
  }
  auto argList = ast_.list(c.args);
  TypeId target = args[0].isValue() ? args[0].type : TypeId();
  bool isArray = target.valid() && types().isArray(target);
  bool isPointer = target.valid() && types().isPointer(target) &&
                   !types().isNone(types().get(target).element);
  if (!isArray && !isPointer) {
    error(ast_.expr(argList[0]).range, Diag::InvalidCall,
          "`" + name + "` operates on arrays or pointers, found `" +
              (target.valid() ? typeName(target) : textOf(argList[0])) + "`");
    return Val::bad();
  }
  if (isPointer || types().get(target).ndim == 1) {
    if (!args[1].isValue() || !types().isInt(args[1].type)) {
      error(ast_.expr(argList[1]).range, Diag::InvalidIndex,
            "`" + name + "` takes an integer index, found `" +
                (args[1].isValue() ? typeName(args[1].type) : textOf(argList[1])) + "`");
      return Val::bad();
    }
  } else {
    unsigned ndim = types().get(target).ndim;
    if (args[1].isValue() && !types().isTuple(args[1].type)) {
      error(ast_.expr(argList[1]).range, Diag::InvalidIndex,
            "`" + name + "` on a " + std::to_string(ndim) + "-d array takes a tuple of " +
                std::to_string(ndim) + " indices");
      return Val::bad();
    }
    if (!checkArrayIndex(argList[1], target, args[1])) return Val::bad();
  }
  TypeId element = types().get(target).element;
  const Type& et = types().get(element);
  if (!(et.kind == TypeKind::Int || et.kind == TypeKind::Float)) {
    error(ast_.expr(argList[0]).range, Diag::InvalidCall,
          "`" + name + "` needs integer or float elements, found `" + typeName(element) + "`");
    return Val::bad();
  }
  if (!store) return valueOf(element);
  if (!args[2].isValue() || !types().isNumber(args[2].type)) {
    error(ast_.expr(argList[2]).range, Diag::InvalidCall,
          "`" + name + "` stores a number, found `" +
              (args[2].isValue() ? typeName(args[2].type) : textOf(argList[2])) + "`");
    return Val::bad();
  }
  return valueOf(types().none());
}

Val FunctionChecker::checkAtomic(ExprId id, Intrinsic kind, const ast::Call& c,
                                 const std::vector<Val>& args) {
  const Expr& e = ast_.expr(id);
  // compare_and_swap(array, old, value) works on element 0 of a 1-d array.
  bool noIndex = kind == Intrinsic::AtomicCompareAndSwap;
  size_t want = kind == Intrinsic::AtomicCas ? 4 : 3;
  std::string name = textOf(c.func);
  if (args.size() != want || !c.keywords.empty()) {
    error(e.range, Diag::WrongArgCount, name,
          want == 4  ? "4 arguments (array, index, expected, value)"
          : noIndex ? "3 arguments (array, expected, value)"
                    : "3 arguments (array, index, value)",
          std::to_string(args.size() + ast_.list(c.keywords).size()));
    return Val::bad();
  }
  auto argList = ast_.list(c.args);
  if (!args[0].isValue() || !types().isArray(args[0].type)) {
    error(ast_.expr(argList[0]).range, Diag::InvalidCall,
          "the first argument of `" + name + "` must be an array, found `" +
              (args[0].isValue() ? typeName(args[0].type) : textOf(argList[0])) + "`");
    return Val::bad();
  }
  unsigned ndim = types().get(args[0].type).ndim;
  if (!noIndex && ndim > 1 && args[1].isValue() && !types().isTuple(args[1].type)) {
    error(ast_.expr(argList[1]).range, Diag::InvalidIndex,
          "`" + name + "` on a " + std::to_string(ndim) + "-d array takes a tuple of " +
              std::to_string(ndim) + " indices");
    return Val::bad();
  }
  if (noIndex) {
    if (ndim != 1) {
      error(ast_.expr(argList[0]).range, Diag::InvalidCall,
            "`" + name + "` works on a 1-d array, found `" + typeName(args[0].type) + "`");
      return Val::bad();
    }
  } else if (!checkArrayIndex(argList[1], args[0].type, args[1])) {
    return Val::bad();
  }
  TypeId element = types().get(args[0].type).element;
  const Type& et = types().get(element);
  bool isFloat = et.kind == TypeKind::Float;
  bool intOnly = kind == Intrinsic::AtomicAnd || kind == Intrinsic::AtomicOr ||
                 kind == Intrinsic::AtomicXor || kind == Intrinsic::AtomicCas ||
                 kind == Intrinsic::AtomicCompareAndSwap ||
                 kind == Intrinsic::AtomicInc || kind == Intrinsic::AtomicDec;
  bool ok = et.bits >= 32 && (et.kind == TypeKind::Int || isFloat);
  if (intOnly && isFloat) ok = false;
  if ((kind == Intrinsic::AtomicInc || kind == Intrinsic::AtomicDec) && et.isSigned) ok = false;
  // numba: exch takes 32- and 64-bit integers only.
  if (kind == Intrinsic::AtomicExch && isFloat) ok = false;
  if (!ok) {
    error(ast_.expr(argList[0]).range, Diag::InvalidCall,
          "`" + name + "` does not support arrays of `" + typeName(element) + "`");
    return Val::bad();
  }
  for (size_t k = noIndex ? 1 : 2; k < args.size(); ++k) {
    if (!args[k].isValue() || !types().isNumber(args[k].type)) {
      error(ast_.expr(argList[k]).range, Diag::InvalidCall,
            "`" + name + "` needs a number, found `" + textOf(argList[k]) + "`");
      return Val::bad();
    }
  }
  inst_.opTypes[id.index] = element;
  return valueOf(element);
}

Val FunctionChecker::checkMathCall(ExprId id, MathFn fn, const ast::Call& c,
                                   const std::vector<Val>& args) {
  const Expr& e = ast_.expr(id);
  std::string name = "math." + std::string(mathFnName(fn));
  unsigned arity = mathFnArity(fn);
  bool logWithBase = fn == MathFn::Log && args.size() == 2;
  if (!c.keywords.empty() || (args.size() != arity && !logWithBase)) {
    error(e.range, Diag::WrongArgCount, name, plural(arity, "argument"),
          std::to_string(args.size() + ast_.list(c.keywords).size()));
    return Val::bad();
  }
  auto argList = ast_.list(c.args);
  for (size_t k = 0; k < args.size(); ++k) {
    if (!args[k].isValue() || !types().isNumber(args[k].type)) {
      error(ast_.expr(argList[k]).range, Diag::InvalidCall,
            "`" + name + "` takes numbers, found `" +
                (args[k].isValue() ? typeName(args[k].type) : textOf(argList[k])) + "`");
      return Val::bad();
    }
  }
  // float16 computes in float32 (libdevice has no half functions).
  auto floatOf = [&](TypeId t) {
    if (types().isFloat(t)) return types().get(t).bits == 16 ? types().float32() : t;
    return types().float64();
  };
  TypeId operand;
  TypeId result;
  switch (fn) {
    case MathFn::Isnan:
    case MathFn::Isinf:
    case MathFn::Isfinite:
      operand = args[0].type;
      result = types().boolean();
      break;
    case MathFn::Ldexp:
      if (!types().isFloat(args[0].type) || !types().isIntegral(args[1].type)) {
        error(e.range, Diag::InvalidCall, "`math.ldexp` takes a float and an integer");
        return Val::bad();
      }
      operand = floatOf(args[0].type);
      result = operand;
      break;
    case MathFn::Frexp:
      operand = floatOf(args[0].type);
      result = types().tuple({operand, types().int32()});
      break;
    case MathFn::Modf:
      operand = floatOf(args[0].type);
      result = types().tuple({operand, operand});
      break;
    default:
      if (args.size() == 2) {
        TypeId a = floatOf(args[0].type);
        TypeId b = floatOf(args[1].type);
        operand = types().get(a).bits == 32 && types().get(b).bits == 32 ? a : types().float64();
      } else {
        operand = floatOf(args[0].type);
      }
      result = operand;
      // numba-cuda's float16 overloads of these return float16.
      if (args.size() == 1 && types().isFloat(args[0].type) && types().get(args[0].type).bits == 16 &&
          (fn == MathFn::Trunc || fn == MathFn::Ceil || fn == MathFn::Floor || fn == MathFn::Fabs ||
           fn == MathFn::Sqrt || fn == MathFn::Log || fn == MathFn::Log2 || fn == MathFn::Log10 ||
           fn == MathFn::Exp || fn == MathFn::Tanh || fn == MathFn::Cos || fn == MathFn::Sin)) {
        result = args[0].type;
      }
      break;
  }
  inst_.opTypes[id.index] = operand;
  return valueOf(result);
}

Val FunctionChecker::checkIntrinsicCall(ExprId id, const Val& callee, const ast::Call& c,
                                        const std::vector<Val>& args) {
  const Expr& e = ast_.expr(id);
  Intrinsic kind = callee.meaning.kind;
  auto argList = ast_.list(c.args);
  std::string name = textOf(c.func);
  auto needArgs = [&](size_t lo, size_t hi, std::string_view what) {
    if (args.size() < lo || args.size() > hi || !c.keywords.empty()) {
      error(e.range, Diag::WrongArgCount, name, what,
            std::to_string(args.size() + ast_.list(c.keywords).size()));
      return false;
    }
    return true;
  };
  auto needNumber = [&](size_t k) {
    if (!args[k].isValue() || !types().isNumber(args[k].type)) {
      error(ast_.expr(argList[k]).range, Diag::InvalidCall,
            "`" + name + "` takes numbers, found `" +
                (args[k].isValue() ? typeName(args[k].type) : textOf(argList[k])) + "`");
      return false;
    }
    return true;
  };
  switch (kind) {
    case Intrinsic::TypeObject: {
      if (!needArgs(1, 1, "1 argument")) return Val::bad();
      TypeId target(callee.meaning.payload);
      if (types().isComplex(target) && args[0].isValue() && types().isComplex(args[0].type)) {
        inst_.opTypes[id.index] = target;
        return valueOf(target);
      }
      if (!needNumber(0)) return Val::bad();
      if (types().isNone(target)) {
        error(e.range, Diag::NotCallable, name);
        return Val::bad();
      }
      inst_.opTypes[id.index] = target;
      return valueOf(target);
    }
    case Intrinsic::Int:
    case Intrinsic::Float:
    case Intrinsic::Bool: {
      if (!needArgs(1, 1, "1 argument")) return Val::bad();
      if (!needNumber(0)) return Val::bad();
      TypeId a = args[0].type;
      TypeId target;
      if (kind == Intrinsic::Int) {
        target = types().isInt(a) ? a : types().int64();
      } else if (kind == Intrinsic::Float) {
        target = types().isFloat(a) ? a : types().float64();
      } else {
        target = types().boolean();
      }
      inst_.opTypes[id.index] = target;
      if (args[0].constant) {
        const ConstValue& cv = *args[0].constant;
        if (kind == Intrinsic::Float && cv.isNumber()) {
          double f = cv.kind == ConstValue::Kind::Float ? cv.floatValue
                     : cv.kind == ConstValue::Kind::Int ? static_cast<double>(cv.intValue)
                                                        : (cv.boolValue ? 1.0 : 0.0);
          if (target == types().float64()) return constantVal(ConstValue::ofFloat(f));
        }
        if (kind == Intrinsic::Int && cv.kind != ConstValue::Kind::Float && target == types().int64()) {
          return constantVal(ConstValue::ofInt(cv.kind == ConstValue::Kind::Bool ? cv.boolValue : cv.intValue));
        }
      }
      return valueOf(target);
    }
    case Intrinsic::Abs: {
      if (!needArgs(1, 1, "1 argument")) return Val::bad();
      if (args[0].isValue() && types().isComplex(args[0].type)) {
        inst_.opTypes[id.index] = args[0].type;
        return valueOf(types().complexPart(args[0].type));
      }
      if (!needNumber(0)) return Val::bad();
      TypeId t = types().isBool(args[0].type) ? types().int64() : args[0].type;
      inst_.opTypes[id.index] = t;
      return valueOf(t);
    }
    case Intrinsic::Min:
    case Intrinsic::Max: {
      if (args.size() < 2 || !c.keywords.empty()) {
        error(e.range, Diag::UnsupportedFeature,
              "`" + name + "` of one iterable is not supported in kernels: pass the values as "
              "arguments");
        return Val::bad();
      }
      std::optional<TypeId> t;
      for (size_t k = 0; k < args.size(); ++k) {
        if (!needNumber(k)) return Val::bad();
        if (!t) {
          t = args[k].type;
        } else {
          t = unifyTypes(types(), *t, args[k].type);
          if (!t) {
            error(e.range, Diag::InvalidCall, "no common type for the arguments of `" + name + "`");
            return Val::bad();
          }
        }
      }
      inst_.opTypes[id.index] = *t;
      return valueOf(*t);
    }
    case Intrinsic::Len: {
      if (!needArgs(1, 1, "1 argument")) return Val::bad();
      if (args[0].isValue() && types().isArray(args[0].type)) {
        return valueOf(types().int64());
      }
      if (args[0].isValue() && types().isTuple(args[0].type)) {
        return constantVal(
            ConstValue::ofInt(static_cast<int64_t>(types().get(args[0].type).elements.size())));
      }
      error(e.range, Diag::InvalidCall,
            "`len` takes an array or a tuple, found `" +
                (args[0].isValue() ? typeName(args[0].type) : textOf(argList[0])) + "`");
      return Val::bad();
    }
    case Intrinsic::Round: {
      if (!needArgs(1, 2, "1 or 2 arguments")) return Val::bad();
      if (!needNumber(0)) return Val::bad();
      TypeId a = args[0].type;
      if (args.size() == 2) {
        if (!args[1].isValue() || !types().isIntegral(args[1].type)) {
          error(ast_.expr(argList[1]).range, Diag::InvalidCall, "`round`'s digits must be an integer");
          return Val::bad();
        }
        TypeId t = types().isFloat(a) ? a : types().float64();
        inst_.opTypes[id.index] = t;
        return valueOf(types().isFloat(a) ? a : a);
      }
      inst_.opTypes[id.index] = a;
      return valueOf(types().isFloat(a) ? types().int64() : (types().isBool(a) ? types().int64() : a));
    }
    case Intrinsic::Range:
    case Intrinsic::Enumerate:
    case Intrinsic::Zip:
      error(e.range, Diag::UnsupportedFeature,
            "`" + name + "` can only be iterated by a `for` loop in kernels");
      return Val::bad();
    case Intrinsic::Print: {
      // numba: numbers, bools, string literals and tuples of those, through
      // vprintf, at most 32 arguments, no keywords.
      if (!c.keywords.empty()) {
        error(e.range, Diag::UnsupportedFeature, "`print` takes no keyword arguments in kernels");
        return Val::bad();
      }
      if (args.size() > 32) {
        error(e.range, Diag::WrongArgCount, name, "at most 32 arguments", std::to_string(args.size()));
        return Val::bad();
      }
      std::function<bool(TypeId)> printable = [&](TypeId t) {
        if (types().isNumber(t)) return true;
        if (!types().isTuple(t)) return false;
        for (TypeId x : types().get(t).elements) {
          if (!printable(x)) return false;
        }
        return true;
      };
      for (size_t k = 0; k < args.size(); ++k) {
        const Expr& ae = ast_.expr(argList[k]);
        if (ae.is<ast::Constant>() && args[k].constant &&
            args[k].constant->kind == ConstValue::Kind::Str) {
          continue;
        }
        if (!args[k].isValue() || !printable(args[k].type)) {
          error(ae.range, Diag::InvalidCall,
                "`print` in kernels prints numbers, bools, string literals and tuples of "
                "those, found `" + (args[k].isValue() ? typeName(args[k].type) : textOf(argList[k])) +
                    "`");
          return Val::bad();
        }
      }
      Val v = valueOf(types().none());
      v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::Math:
      return checkMathCall(id, static_cast<MathFn>(callee.meaning.payload), c, args);
    case Intrinsic::Pow: {
      // pow(a, b) is a ** b.
      if (!needArgs(2, 2, "2 arguments")) return Val::bad();
      for (size_t k = 0; k < 2; ++k) {
        // Numbers, complex ones included.
        if (!args[k].isValue() || !types().isScalar(args[k].type)) {
          if (!needNumber(k)) return Val::bad();
        }
      }
      auto typing = binaryResultType(types(), ArithOp::Pow, args[0].type, args[1].type);
      if (!typing) {
        error(e.range, Diag::MismatchedOperandTypes, "**", typeName(args[0].type), typeName(args[1].type));
        return Val::bad();
      }
      inst_.opTypes[id.index] = typing->operand;
      inst_.powExponentTypes[id.index] = typing->exponent;
      return valueOf(typing->result);
    }
    case Intrinsic::ComplexCtor: {
      // numba: complex(re[, im]) of the parts' float type (complex(float32) is complex64).
      if (!needArgs(0, 2, "0 to 2 arguments")) return Val::bad();
      TypeId part = types().float32();
      if (args.empty()) part = types().float64();
      for (size_t k = 0; k < args.size(); ++k) {
        if (!needNumber(k)) return Val::bad();
        TypeId t = args[k].type;
        TypeId f = types().isFloat(t) ? t
                   : (types().isBool(t) || types().get(t).bits <= 16) ? types().float32()
                                                                      : types().float64();
        if (types().get(f).bits > types().get(part).bits) part = f;
      }
      TypeId result = types().complexOf(part);
      inst_.opTypes[id.index] = part;
      return valueOf(result);
    }
    case Intrinsic::ComplexConjugate: {
      if (!needArgs(0, 0, "no arguments")) return Val::bad();
      const auto& attr = ast_.expr(c.func).as<ast::Attribute>();
      TypeId t = inst_.exprTypes[attr.value.index];
      return valueOf(t);
    }
    case Intrinsic::Fp16: {
      auto fn = static_cast<Fp16Fn>(callee.meaning.payload);
      unsigned arity = fp16FnArity(fn);
      if (!needArgs(arity, arity, plural(arity, "argument"))) return Val::bad();
      for (size_t k = 0; k < args.size(); ++k) {
        if (!needNumber(k)) return Val::bad();
      }
      TypeId half = types().floatType(16);
      inst_.opTypes[id.index] = half;
      bool compare = fn == Fp16Fn::Heq || fn == Fp16Fn::Hne || fn == Fp16Fn::Hgt ||
                     fn == Fp16Fn::Hge || fn == Fp16Fn::Hlt || fn == Fp16Fn::Hle;
      return valueOf(compare ? types().boolean() : half);
    }
    case Intrinsic::VectorCtor: {
      // numba-cuda's constructor overloads: the arguments' elements (a number
      // is one, converted to the base type; a vector of the same base type is
      // its count) fill the vector exactly.
      TypeId vector(callee.meaning.payload);
      const Type& vt = types().get(vector);
      if (!c.keywords.empty()) {
        error(e.range, Diag::InvalidCall, "pass the arguments of `" + name + "` by position");
        return Val::bad();
      }
      size_t filled = 0;
      for (size_t k = 0; k < args.size(); ++k) {
        TypeId t = args[k].isValue() ? args[k].type : TypeId();
        if (t.valid() && types().isNumber(t)) {
          ++filled;
          continue;
        }
        if (t.valid() && types().isVector(t) && types().get(t).elements[0] == vt.elements[0]) {
          filled += types().get(t).elements.size();
          continue;
        }
        error(ast_.expr(argList[k]).range, Diag::InvalidCall,
              "`" + name + "` takes numbers and `" + typeName(vt.elements[0]) +
                  "` vectors, found `" + (t.valid() ? typeName(t) : textOf(argList[k])) + "`");
        return Val::bad();
      }
      if (filled != vt.elements.size()) {
        error(e.range, Diag::InvalidCall,
              "`" + name + "` needs " + std::to_string(vt.elements.size()) +
                  " elements, found " + std::to_string(filled));
        return Val::bad();
      }
      Val v = valueOf(vector);
      v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::Random: {
      // numba.cuda.random: (states, index) with states a 1-d array of records
      // holding uint64 fields s0 and s1 (xoroshiro128p_dtype); init also takes
      // a seed; uint64_to_unit_float32/64 take an integer.
      auto fn = static_cast<RandomFn>(callee.meaning.payload);
      bool unit = fn == RandomFn::ToUnitFloat32 || fn == RandomFn::ToUnitFloat64;
      size_t arity = unit ? 1 : fn == RandomFn::InitState ? 3 : 2;
      std::string what = unit ? "1 argument" : arity == 3 ? "3 arguments (states, index, seed)"
                                                          : "2 arguments (states, index)";
      if (!needArgs(arity, arity, what)) return Val::bad();
      for (size_t k = unit ? 0 : 1; k < args.size(); ++k) {
        if (!args[k].isValue() || !types().isIntegral(args[k].type)) {
          error(ast_.expr(argList[k]).range, Diag::InvalidCall,
                "`" + name + "` takes an integer " + (k == 2 ? "seed" : unit ? "value" : "index") +
                    ", found `" + (args[k].isValue() ? typeName(args[k].type) : textOf(argList[k])) +
                    "`");
          return Val::bad();
        }
      }
      if (!unit) {
        TypeId states = args[0].isValue() ? args[0].type : TypeId();
        bool ok = states.valid() && types().isArray(states) && types().get(states).ndim == 1;
        if (ok) {
          TypeId rec = types().get(states).element;
          ok = types().isRecord(rec);
          for (const char* field : {"s0", "s1"}) {
            auto index = ok ? types().fieldIndex(rec, field) : std::nullopt;
            ok = ok && index && types().get(rec).elements[*index] == types().uint64();
          }
        }
        if (!ok) {
          error(ast_.expr(argList[0]).range, Diag::InvalidCall,
                "`" + name + "` takes a 1-d array of `xoroshiro128p_dtype` states, found `" +
                    (states.valid() ? typeName(states) : textOf(argList[0])) + "`");
          return Val::bad();
        }
      }
      Val v;
      switch (fn) {
        case RandomFn::Next: v = valueOf(types().uint64()); break;
        case RandomFn::Jump:
        case RandomFn::InitState: v = valueOf(types().none()); break;
        case RandomFn::UniformFloat32:
        case RandomFn::NormalFloat32:
        case RandomFn::ToUnitFloat32: v = valueOf(types().float32()); break;
        default: v = valueOf(types().float64()); break;
      }
      v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::CacheLoad:
    case Intrinsic::CacheStore: {
      Val v = checkCacheHint(id, kind, c, args);
      if (v.ok) v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::Libdevice: {
      // numba's stub signature: any number converts to each parameter's type.
      LibdeviceSignature sig = libdeviceSignature(callee.meaning.payload, types());
      if (!c.keywords.empty()) {
        error(e.range, Diag::InvalidCall, "pass the arguments of `" + name + "` by position");
        return Val::bad();
      }
      if (!needArgs(sig.args.size(), sig.args.size(), plural(sig.args.size(), "argument"))) {
        return Val::bad();
      }
      for (size_t k = 0; k < args.size(); ++k) {
        if (!needNumber(k)) return Val::bad();
      }
      return valueOf(sig.value);
    }
    case Intrinsic::Cmath: {
      auto fn = static_cast<CmathFn>(callee.meaning.payload);
      std::string fname = "cmath." + std::string(cmathFnName(fn));
      // cmath.log(z, base) is numba's log(z) / log(base).
      size_t arity = fn == CmathFn::Rect ? 2 : 1;
      size_t maxArity = fn == CmathFn::Log ? 2 : arity;
      if (args.size() < arity || args.size() > maxArity || !c.keywords.empty()) {
        error(e.range, Diag::WrongArgCount, fname,
              maxArity > arity ? "1 or 2 arguments" : plural(arity, "argument"),
              std::to_string(args.size() + ast_.list(c.keywords).size()));
        return Val::bad();
      }
      auto floatOf = [&](TypeId t) {
        if (types().isComplex(t)) return types().complexPart(t);
        if (types().isFloat(t)) return t;
        return types().float64();
      };
      TypeId part;
      for (size_t k = 0; k < args.size(); ++k) {
        bool ok = args[k].isValue() && (fn == CmathFn::Rect ? types().isNumber(args[k].type)
                                                            : types().isScalar(args[k].type));
        if (!ok) {
          error(ast_.expr(argList[k]).range, Diag::InvalidCall,
                "`" + fname + "` takes " + (fn == CmathFn::Rect ? "real numbers" : "a number") +
                    ", found `" + (args[k].isValue() ? typeName(args[k].type) : textOf(argList[k])) + "`");
          return Val::bad();
        }
        TypeId f = floatOf(args[k].type);
        if (!part.valid() || types().get(f).bits > types().get(part).bits) part = f;
      }
      TypeId complex = types().complexOf(part);
      inst_.opTypes[id.index] = complex;
      switch (fn) {
        case CmathFn::Isnan:
        case CmathFn::Isinf:
        case CmathFn::Isfinite:
          return valueOf(types().boolean());
        case CmathFn::Phase:
          return valueOf(part);
        case CmathFn::Polar:
          return valueOf(types().uniTuple(part, 2));
        default:
          return valueOf(complex);
      }
    }
    case Intrinsic::Grid:
    case Intrinsic::Gridsize: {
      if (!needArgs(1, 1, "1 argument (1, 2 or 3)")) return Val::bad();
      const auto& cv = args[0].constant;
      if (!cv || cv->kind != ConstValue::Kind::Int || cv->intValue < 1 || cv->intValue > 3) {
        error(ast_.expr(argList[0]).range, Diag::NotConstant, "the argument of `" + name + "` (1, 2 or 3)");
        return Val::bad();
      }
      Val v = cv->intValue == 1 ? valueOf(types().int64())
                                : valueOf(types().uniTuple(types().int64(),
                                                           static_cast<unsigned>(cv->intValue)));
      v.meaning = ExprMeaning{kind, static_cast<uint32_t>(cv->intValue)};
      return v;
    }
    case Intrinsic::ShflSync:
    case Intrinsic::ShflUpSync:
    case Intrinsic::ShflDownSync:
    case Intrinsic::ShflXorSync: {
      if (!needArgs(3, 3, "3 arguments (mask, value, lane or delta)")) return Val::bad();
      for (size_t k : {size_t(0), size_t(2)}) {
        if (!args[k].isValue() || !types().isInt(args[k].type)) {
          error(ast_.expr(argList[k]).range, Diag::InvalidCall,
                "`" + name + "` takes an integer " + (k == 0 ? "mask" : "lane"));
          return Val::bad();
        }
      }
      if (!args[1].isValue() || !types().isNumber(args[1].type) ||
          types().isBool(args[1].type) || types().get(args[1].type).bits < 32) {
        error(ast_.expr(argList[1]).range, Diag::InvalidCall,
              "`" + name + "` shuffles 32- and 64-bit integers and floats, found `" +
                  (args[1].isValue() ? typeName(args[1].type) : textOf(argList[1])) + "`");
        return Val::bad();
      }
      inst_.opTypes[id.index] = args[1].type;
      return valueOf(args[1].type);
    }
    case Intrinsic::AllSync:
    case Intrinsic::AnySync:
    case Intrinsic::EqSync:
    case Intrinsic::BallotSync: {
      if (!needArgs(2, 2, "2 arguments (mask, predicate)")) return Val::bad();
      if (!needNumber(0) || !needNumber(1)) return Val::bad();
      return valueOf(kind == Intrinsic::BallotSync ? types().int32() : types().boolean());
    }
    case Intrinsic::MatchAnySync:
    case Intrinsic::MatchAllSync: {
      if (!needArgs(2, 2, "2 arguments (mask, value)")) return Val::bad();
      if (!args[0].isValue() || !types().isInt(args[0].type)) {
        error(ast_.expr(argList[0]).range, Diag::InvalidCall, "`" + name + "` takes an integer mask");
        return Val::bad();
      }
      TypeId v = args[1].isValue() ? args[1].type : TypeId();
      if (!v.valid() || !types().isNumber(v) || types().isBool(v) || types().get(v).bits < 32) {
        error(ast_.expr(argList[1]).range, Diag::InvalidCall,
              "`" + name + "` compares 32- and 64-bit integers and floats, found `" +
                  (v.valid() ? typeName(v) : textOf(argList[1])) + "`");
        return Val::bad();
      }
      inst_.opTypes[id.index] = v;
      // numba types the result int32 (and the predicate bool).
      if (kind == Intrinsic::MatchAnySync) return valueOf(types().int32());
      return valueOf(types().tuple({types().int32(), types().boolean()}));
    }
    case Intrinsic::Selp: {
      if (!needArgs(3, 3, "3 arguments (predicate, a, b)")) return Val::bad();
      if (!needNumber(0) || !needNumber(1) || !needNumber(2)) return Val::bad();
      // numba: both values of one type, a 16-, 32- or 64-bit integer or a float.
      TypeId a = args[1].type;
      const Type& at = types().get(a);
      bool supported = at.kind == TypeKind::Float || (at.kind == TypeKind::Int && at.bits >= 16);
      if (a != args[2].type || !supported) {
        error(e.range, Diag::InvalidCall,
              "`" + name + "` selects between two values of one type (16-, 32- or 64-bit "
              "integers or floats), found `" + typeName(a) + "` and `" + typeName(args[2].type) + "`");
        return Val::bad();
      }
      inst_.opTypes[id.index] = a;
      return valueOf(a);
    }
    case Intrinsic::Nanosleep: {
      if (!needArgs(1, 1, "1 argument (nanoseconds)")) return Val::bad();
      if (!args[0].isValue() || !types().isIntegral(args[0].type)) {
        error(ast_.expr(argList[0]).range, Diag::InvalidCall, "`" + name + "` takes an integer");
        return Val::bad();
      }
      Val v = valueOf(types().none());
      v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::ConstArrayLike: {
      if (!needArgs(1, 1, "1 argument (a module-level array)")) return Val::bad();
      if (args[0].meaning.kind != Intrinsic::ConstArray) {
        error(ast_.expr(argList[0]).range, Diag::NotConstant,
              "the argument of `" + name + "` (a module-level `np.array([...])` literal)");
        return Val::bad();
      }
      return valueOf(args[0].type);
    }
    case Intrinsic::Activemask:
    case Intrinsic::LanemaskLt:
      if (!needArgs(0, 0, "no arguments")) return Val::bad();
      return valueOf(types().intType(32, false));
    case Intrinsic::Popc:
    case Intrinsic::Clz:
    case Intrinsic::Ffs:
    case Intrinsic::Brev: {
      if (!needArgs(1, 1, "1 argument (an integer)")) return Val::bad();
      if (!args[0].isValue() || !types().isInt(args[0].type)) {
        error(ast_.expr(argList[0]).range, Diag::InvalidCall, "`" + name + "` takes an integer");
        return Val::bad();
      }
      TypeId a = args[0].type;
      inst_.opTypes[id.index] = a;
      if (kind == Intrinsic::Ffs) return valueOf(types().intType(32, false));
      if (kind == Intrinsic::Brev) {
        return valueOf(types().intType(types().get(a).bits == 64 ? 64 : 32, false));
      }
      return valueOf(a);
    }
    case Intrinsic::Fma: {
      if (!needArgs(3, 3, "3 arguments")) return Val::bad();
      TypeId t = types().float32();
      for (size_t k = 0; k < 3; ++k) {
        if (!needNumber(k)) return Val::bad();
        if (!types().isFloat(args[k].type) || types().get(args[k].type).bits == 64) {
          t = types().float64();
        }
      }
      inst_.opTypes[id.index] = t;
      return valueOf(t);
    }
    case Intrinsic::Cbrt: {
      if (!needArgs(1, 1, "1 argument")) return Val::bad();
      if (!needNumber(0)) return Val::bad();
      TypeId t = types().isFloat(args[0].type) ? args[0].type : types().float64();
      inst_.opTypes[id.index] = t;
      return valueOf(t);
    }
    case Intrinsic::ThisGrid: {
      if (!needArgs(0, 0, "no arguments")) return Val::bad();
      Val v;
      v.path = "cuda.cg.this_grid()";
      v.meaning = ExprMeaning{Intrinsic::GridGroup, 0};
      return v;
    }
    case Intrinsic::GridSync:
    case Intrinsic::Syncthreads:
    case Intrinsic::Threadfence:
    case Intrinsic::ThreadfenceBlock:
    case Intrinsic::ThreadfenceSystem: {
      if (!needArgs(0, 0, "no arguments")) return Val::bad();
      Val v = valueOf(types().none());
      v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::Syncwarp: {
      if (!needArgs(0, 1, "0 or 1 argument (a mask)")) return Val::bad();
      if (args.size() == 1 && (!args[0].isValue() || !types().isInt(args[0].type))) {
        error(ast_.expr(argList[0]).range, Diag::InvalidCall, "the mask of `" + name + "` must be an integer");
        return Val::bad();
      }
      Val v = valueOf(types().none());
      v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::SyncthreadsCount:
    case Intrinsic::SyncthreadsAnd:
    case Intrinsic::SyncthreadsOr: {
      if (!needArgs(1, 1, "1 argument (a predicate)")) return Val::bad();
      if (!needNumber(0)) return Val::bad();
      Val v = valueOf(types().int32());
      v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::AtomicAdd:
    case Intrinsic::AtomicSub:
    case Intrinsic::AtomicMax:
    case Intrinsic::AtomicMin:
    case Intrinsic::AtomicAnd:
    case Intrinsic::AtomicOr:
    case Intrinsic::AtomicXor:
    case Intrinsic::AtomicExch:
    case Intrinsic::AtomicInc:
    case Intrinsic::AtomicDec:
    case Intrinsic::AtomicCas:
    case Intrinsic::AtomicNanMax:
    case Intrinsic::AtomicNanMin:
    case Intrinsic::AtomicCompareAndSwap: {
      Val v = checkAtomic(id, kind, c, args);
      if (v.ok) v.meaning = callee.meaning;
      return v;
    }
    case Intrinsic::Jit:
      error(e.range, Diag::UnsupportedConstruct, "`cuda.jit` inside a kernel");
      return Val::bad();
    default:
      error(ast_.expr(c.func).range, Diag::NotCallable, name);
      return Val::bad();
  }
}

// ---------------------------------------------------------------------------

int ModuleChecker::instantiate(uint32_t function, const std::vector<TypeId>& args,
                               std::optional<TypeId> declaredReturn, bool isKernel,
                               bool fastmath, bool& recursive) {
  auto key = std::make_tuple(function, args, isKernel, fastmath);
  auto it = memo_.find(key);
  if (it != memo_.end()) {
    if (!done_[it->second]) {
      // Self-recursion works when the return type is declared (an explicit
      // signature): the caller types the call from it.
      if (declaredReturn) return it->second;
      // numba: a recursive call takes the type of the returns seen before it
      // (the base case); checked against the final return type below.
      auto active = active_.find(it->second);
      if (active != active_.end()) {
        if (auto t = active->second->provisionalReturn()) {
          assumed_[it->second] = *t;
          return it->second;
        }
      }
      recursive = true;
      return -1;
    }
    return it->second;
  }
  int index = static_cast<int>(all_.size());
  memo_[key] = index;
  FunctionInstance inst;
  inst.function = function;
  inst.isKernel = isKernel;
  inst.fastmath = fastmath;
  inst.argTypes = args;
  if (declaredReturn) inst.returnType = *declaredReturn;
  all_.push_back(FunctionInstance{});
  sinks_.emplace_back();
  done_.push_back(false);
  DiagnosticSink sink;
  FunctionChecker checker(*this, inst, sink);
  active_[index] = &checker;
  checker.run();
  active_.erase(index);
  if (auto a = assumed_.find(index); a != assumed_.end() && a->second != inst.returnType) {
    sink.error(typed_.module.functions[function].location, Diag::Recursion,
               typed_.module.functions[function].name);
  }
  const JitFunction& f = typed_.module.functions[function];
  std::string codes;
  for (size_t k = 0; k < args.size(); ++k) {
    codes += (k ? "_" : "") + types().abiCode(args[k]);
  }
  if (codes.empty()) codes = "v";
  std::string mangled = mangleName(f.name);
  inst.symbol = isKernel ? mangled + "__" + codes
                         : "pykc_device__" + mangled + "__" + codes + (fastmath ? "__fastmath" : "");
  inst.signature = formatSignature(types(), inst.returnType.valid() ? inst.returnType : types().none(),
                                   args);
  all_[index] = std::move(inst);
  sinks_[index] = std::move(sink);
  done_[index] = true;
  return index;
}

// Code points outside [A-Za-z0-9_] as $XXXX (docs/ABI.md).
std::string mangleName(const std::string& name) {
  std::string mangled;
  for (size_t i = 0; i < name.size();) {
    unsigned char ch = static_cast<unsigned char>(name[i]);
    if (std::isalnum(ch) || ch == '_') {
      mangled += static_cast<char>(ch);
      ++i;
      continue;
    }
    uint32_t cp = ch;
    size_t len = 1;
    if (ch >= 0xF0) {
      cp = ch & 0x07;
      len = 4;
    } else if (ch >= 0xE0) {
      cp = ch & 0x0F;
      len = 3;
    } else if (ch >= 0xC0) {
      cp = ch & 0x1F;
      len = 2;
    }
    for (size_t k = 1; k < len && i + k < name.size(); ++k) {
      cp = (cp << 6) | (static_cast<unsigned char>(name[i + k]) & 0x3F);
    }
    char buf[16];
    std::snprintf(buf, sizeof buf, "$%04X", cp);
    mangled += buf;
    i += len;
  }
  return mangled;
}

// A Constant value in a symbol (docs/ABI.md): `1024`, `n3` for -3, `T`/`F`,
// `x` and the float64 bit pattern in hex for floats.
std::string mangleConst(const ConstValue& c) {
  char buf[32];
  switch (c.kind) {
    case ConstValue::Kind::Bool:
      return c.boolValue ? "T" : "F";
    case ConstValue::Kind::Int:
      return c.intValue < 0 ? "n" + std::to_string(-(c.intValue + 1)) + "p1"
                            : std::to_string(c.intValue);
    case ConstValue::Kind::Float: {
      uint64_t bits;
      std::memcpy(&bits, &c.floatValue, sizeof bits);
      std::snprintf(buf, sizeof buf, "x%016llx", static_cast<unsigned long long>(bits));
      return buf;
    }
    default:
      return "u";
  }
}

void ModuleChecker::addTileKernels(uint32_t function) {
  // A copy: checking may add helper functions to module.functions.
  const JitFunction fn = typed_.module.functions[function];
  bool complete = true;
  for (const TileConstParam& c : fn.tileConsts) {
    if (c.invalid) {
      complete = false;
    } else if (c.values.empty()) {
      diags_.error(c.location, Diag::TileConstMissing, c.name, fn.name);
      complete = false;
    }
  }
  if (!complete) return;
  // Every combination of the Constant values, the first parameter's slowest.
  std::vector<std::vector<ConstValue>> combos{{}};
  for (const TileConstParam& c : fn.tileConsts) {
    std::vector<std::vector<ConstValue>> next;
    for (const auto& combo : combos) {
      for (const ConstValue& v : c.values) {
        next.push_back(combo);
        next.back().push_back(v);
      }
    }
    combos = std::move(next);
  }
  for (const DeclaredSignature& sig : fn.signatures) {
    for (const auto& combo : combos) {
      FunctionInstance inst;
      inst.function = function;
      inst.isKernel = true;
      inst.tile = true;
      inst.argTypes = sig.signature.args;
      inst.tileConstValues = combo;
      DiagnosticSink sink;
      std::vector<FunctionInstance> helpers;
      checkTileKernel(ast_, typed_.module, inst, helpers, sink);
      std::string codes;
      for (size_t k = 0; k < inst.argTypes.size(); ++k) {
        codes += (k ? "_" : "") + types().abiCode(inst.argTypes[k]);
      }
      if (codes.empty()) codes = "v";
      inst.symbol = mangleName(fn.name) + "__" + codes;
      std::string constants;
      for (size_t k = 0; k < combo.size(); ++k) {
        inst.symbol += "__K" + mangleName(fn.tileConsts[k].name) + "_" + mangleConst(combo[k]);
        constants += ", " + fn.tileConsts[k].name + "=" + combo[k].repr();
      }
      inst.signature = formatSignature(types(), types().none(), inst.argTypes);
      if (!constants.empty()) inst.signature.insert(inst.signature.size() - 1, constants);
      int index = static_cast<int>(all_.size());
      // The helpers follow their kernel; their callees (and the kernel's)
      // index into `helpers`.
      auto remap = [&](FunctionInstance& i) {
        for (int32_t& callee : i.callees) {
          if (callee >= 0) callee += index + 1;
        }
      };
      remap(inst);
      all_.push_back(std::move(inst));
      sinks_.push_back(std::move(sink));
      done_.push_back(true);
      kernels_.push_back(index);
      for (FunctionInstance& h : helpers) {
        remap(h);
        all_.push_back(std::move(h));
        sinks_.emplace_back();
        done_.push_back(true);
      }
    }
  }
}

bool ModuleChecker::usesBFloat16(const std::vector<TypeId>& args) {
  for (TypeId t : args) {
    const Type& ty = types().get(t);
    if (types().isBFloat16(t)) return true;
    if ((ty.kind == TypeKind::Array || ty.kind == TypeKind::Pointer) && ty.element.valid() &&
        types().isBFloat16(ty.element)) {
      return true;
    }
    if (ty.kind == TypeKind::Tuple && usesBFloat16(ty.elements)) return true;
  }
  return false;
}

void ModuleChecker::run() {
  const ResolvedModule& module = typed_.module;
  const std::vector<std::string>& only = options_.kernels;
  for (uint32_t f = 0; f < module.functions.size(); ++f) {
    const JitFunction& fn = module.functions[f];
    if (fn.device) continue;
    // A kernel filter: the others are neither typed nor reported.
    if (!only.empty() && std::find(only.begin(), only.end(), fn.name) == only.end()) continue;
    if (fn.tile) {
      addTileKernels(f);
      continue;
    }
    for (const DeclaredSignature& sig : fn.signatures) {
      if (usesBFloat16(sig.signature.args)) {
        diags_.error(sig.location, Diag::UnsupportedFeature,
                     "bfloat16 is supported in tile kernels (`@ct.kernel`) only");
        continue;
      }
      bool recursive = false;
      int index = instantiate(f, sig.signature.args, types().none(), true, fn.options.fastmath,
                              recursive);
      if (index >= 0) kernels_.push_back(index);
    }
  }
  // Device functions with explicit signatures are compiled (and checked) even
  // when no kernel calls them, as numba does; with a kernel filter only what
  // the chosen kernels reach is.
  for (uint32_t f = 0; f < module.functions.size() && only.empty(); ++f) {
    const JitFunction& fn = module.functions[f];
    if (!fn.device) continue;
    for (const DeclaredSignature& sig : fn.signatures) {
      if (usesBFloat16(sig.signature.args)) {
        diags_.error(sig.location, Diag::UnsupportedFeature,
                     "bfloat16 is supported in tile kernels (`@ct.kernel`) only");
        continue;
      }
      bool recursive = false;
      instantiate(f, sig.signature.args, sig.signature.returnType, false, fn.options.fastmath,
                  recursive);
    }
  }
  finish();
}

void ModuleChecker::finish() {
  // Reachable instances: kernels, then device functions in breadth-first
  // order of first call; also explicitly typed device functions.
  std::vector<int> order;
  std::vector<int> newIndex(all_.size(), -1);
  for (int k : kernels_) {
    if (newIndex[k] < 0) {
      newIndex[k] = static_cast<int>(order.size());
      order.push_back(k);
    }
  }
  uint32_t kernelCount = static_cast<uint32_t>(order.size());
  std::vector<int> explicitDevice;
  for (size_t i = 0; i < all_.size(); ++i) {
    if (!all_[i].isKernel && !typed_.module.functions[all_[i].function].signatures.empty()) {
      // Reported even if unused (numba compiles them eagerly).
      explicitDevice.push_back(static_cast<int>(i));
    }
  }
  for (size_t q = 0; q < order.size(); ++q) {
    const FunctionInstance& inst = all_[order[q]];
    for (int32_t callee : inst.callees) {
      if (callee >= 0 && newIndex[callee] < 0) {
        newIndex[callee] = static_cast<int>(order.size());
        order.push_back(callee);
      }
    }
  }
  // Diagnostics of reachable instances (and of explicitly typed device
  // functions), each once, in source order.
  std::vector<Diagnostic> collected;
  std::vector<bool> flushed(all_.size(), false);
  auto flush = [&](int i) {
    if (flushed[i]) return;
    flushed[i] = true;
    for (const Diagnostic& d : sinks_[i].diagnostics()) collected.push_back(d);
  };
  for (int i : order) flush(i);
  for (int i : explicitDevice) flush(i);
  std::stable_sort(collected.begin(), collected.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
  std::set<std::tuple<uint32_t, uint32_t, std::string>> seen;
  for (const Diagnostic& d : collected) {
    if (!seen.insert({d.line, d.column, d.message}).second) continue;
    Location l;
    l.path = d.path;
    l.lineText = d.lineText;
    l.line = d.line;
    l.column = d.column;
    l.length = d.length;
    diags_.report(d.severity, l, d.kind, d.message);
    for (const Diagnostic& n : d.notes) {
      Location nl;
      nl.path = n.path;
      nl.lineText = n.lineText;
      nl.line = n.line;
      nl.column = n.column;
      nl.length = n.length;
      diags_.note(nl, n.message);
    }
  }
  for (int i : order) {
    FunctionInstance inst = std::move(all_[i]);
    for (int32_t& callee : inst.callees) {
      if (callee >= 0) callee = newIndex[callee];
    }
    typed_.instances.push_back(std::move(inst));
  }
  typed_.kernelCount = kernelCount;
}

}  // namespace

TypedModule check(const Ast& ast, ResolvedModule module, DiagnosticSink& diags,
                  const CheckOptions& options) {
  TypedModule typed;
  typed.module = std::move(module);
  ModuleChecker checker(ast, typed, diags, options);
  checker.run();
  return typed;
}

std::string dumpTyped(const TypedModule& typed) {
  const TypeTable& types = typed.module.types;
  std::string out;
  for (size_t i = 0; i < typed.instances.size(); ++i) {
    const FunctionInstance& inst = typed.instances[i];
    const JitFunction& fn = typed.module.functions[inst.function];
    out += (inst.isKernel ? "kernel " : "device ") + fn.name + " " + inst.symbol + " " +
           inst.signature + "\n";
    for (const auto& [name, type] : inst.variables) {
      out += "  " + name + ": " + types.name(type) + "\n";
    }
  }
  return out;
}

}  // namespace frontend
