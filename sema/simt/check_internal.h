#pragma once
// numba's typing: the checker's private interface (sema/simt/check.cpp and
// its check_*.cpp neighbours, one concern each: statements, expressions,
// calls, intrinsics; the module level and instantiation in check.cpp).
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

namespace frontend::simt {


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
// A constant in a symbol (docs/ABI.md): `1024`, `n3p1` for -4, `T`/`F`, `x<hex bits>`, a
// dataclass instance `D<class>_<field>_...`.
// `inInstance`: an element of a dataclass instance (a tuple spelled out, not `u`).
std::string mangleConst(const ConstValue& c, bool inInstance = false);

// np.can_cast(from, to, "same_kind") for the types a result can have.
bool castsSameKind(const TypeTable& types, TypeId from, TypeId to);

inline std::optional<ArithOp> arithOf(Operator op) {
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

inline std::string plural(size_t n, std::string_view word) {
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
  // The locals whose value is a compile-time constant (check_locals.cpp): omitted
  // arguments the body never rebinds, and names bound once, by `name = <constant
  // expression>` (numba's constant inference: `threadsPerBlock = 8 * 8` sizes a shared
  // array). Fills constLocals_.
  void collectConstLocals(std::span<const StmtId> body);
  // `name`'s constant value if it is such a local.
  const ConstValue* constLocal(const std::string& name) const {
    auto it = constLocals_.find(name);
    return it == constLocals_.end() ? nullptr : &it->second;
  }
  // Whether a constant folded from operands `l` (and `r`) may stand for the operation's
  // value: its natural type (int64, float64, ...) is the one numba gives the operation
  // (`np.float32(2) * np.float32(3)` is float32 in numba: not folded).
  bool foldKeepsType(const Val& folded, const Val& l, const Val* r, std::optional<ArithOp> op);
  void collectTargets(ExprId target);
  void assignVariable(const std::string& name, TypeId t, const NodeRange& where);

  // --- statements ---
  void checkBody(std::span<const StmtId> body);
  // Whether control never continues after statement `id` (checked): `return`, `break`,
  // `continue`, an `if` whose branches (the one a constant condition takes) all end so.
  bool neverFallsThrough(StmtId id) const;
  void checkStmt(StmtId id);
  void assignTarget(ExprId target, const Val& value, const NodeRange& valueRange);
  void checkCondition(ExprId id);
  void checkFor(StmtId id, const ast::For& f);
  void checkIterFor(StmtId id, const ast::For& f, const Val& callee);
  std::optional<IterSource> checkIterSource(ExprId expr, bool allowRange);
  std::optional<IterSource> checkZipSource(ExprId expr);
  bool checkEnumerateStart(ExprId start);

  // --- expressions ---
  Val checkExpr(ExprId id);
  Val checkName(ExprId id, const ast::Name& n);
  // The None of an omitted argument whose default is None (it has no variable);
  // nullopt when `name` is not one, an error where the function assigns it.
  std::optional<Val> omittedNone(const std::string& name, const NodeRange& range);
  Val globalVal(const Entity& entity, const std::string& name, const NodeRange& range);
  Val checkAttribute(ExprId id, const ast::Attribute& a);
  Val checkCall(ExprId id, const ast::Call& c);
  Val checkSubscript(ExprId id, const ast::Subscript& s);
  Val checkArrayView(ExprId id, const ast::Subscript& s, TypeId arrayType);
  Val checkBinOp(ExprId id, const ast::BinOp& b);
  Val checkCompare(ExprId id, const ast::Compare& c);
  Val checkIntrinsicCall(ExprId id, const Val& callee, const ast::Call& c,
                         const std::vector<Val>& args);
  Val checkMathCall(ExprId id, MathFn fn, const ast::Call& c, const std::vector<Val>& args,
                    std::string_view path);
  Val checkNumpyFnCall(ExprId id, NumpyFn fn, const ast::Call& c, const std::vector<Val>& args,
                       bool pythonOperator);
  Val checkUfuncCall(ExprId id, MathFn fn, const ast::Call& c, const std::vector<Val>& args,
                     const std::string& name);
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
  // A device call's arguments in parameter order (`argList`, `ordered`): positional ones,
  // keywords by name, and for parameters left out their defaults (`omitted`, numba's
  // omitted arguments; argList invalid there). False after an error.
  bool placeDeviceArguments(ExprId id, const JitFunction& target, const ast::Call& c,
                            const std::vector<Val>& args, std::vector<ExprId>& argList,
                            std::vector<Val>& ordered, std::map<uint32_t, ConstValue>& omitted);
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
  // Locals with a compile-time value (collectConstLocals).
  std::map<std::string, ConstValue> constLocals_;
  // Variables bound to a compile-time entity (`g = cuda.cg.this_grid()`).
  std::map<std::string, Val> entityVars_;
  // Names assigned an erroneous value: their uses are not reported again as
  // never assigned (the error at the assignment is the one to fix).
  std::set<std::string> failedNames_;
  // numba's Optional values: calls of device functions that return None on some paths
  // (by ExprId index) and the names assigned one (pykc uses them only as numbers).
  std::set<uint32_t> optionalCalls_;
  std::set<std::string> optionalNames_;
  // Records whether assignment target `target` (a name) now holds an Optional value.
  void noteOptional(ExprId target, ExprId value);
  bool isOptional(ExprId e) const;
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
  // Reports a SIMT signature with bfloat16 (tile kernels only); true if so.
  bool rejectBFloat16(const DeclaredSignature& sig);

  // The instance of `function` for `args` (created and checked on first use);
  // -1 if it is being checked (recursion) or failed to exist.
  // `omitted`: the parameters left out, with their defaults (FunctionInstance::omitted).
  int instantiate(uint32_t function, const std::vector<TypeId>& args,
                  std::optional<TypeId> declaredReturn, bool isKernel, bool fastmath,
                  bool& recursive, const std::map<uint32_t, ConstValue>& omitted = {});

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
  std::map<std::tuple<uint32_t, std::vector<TypeId>, bool, bool, std::vector<uint32_t>>, int> memo_;
  // Instances being checked, and the return types recursive calls assumed.
  std::map<int, FunctionChecker*> active_;
  std::map<int, TypeId> assumed_;
  std::vector<int> kernels_;
};

}  // namespace frontend::simt
