#pragma once
// The output of `check`: every kernel x signature and every device function
// specialisation it reaches, each with side tables keyed by the AST's ids
// (STYLE.md §1: the AST is not mutated). Lowering walks the AST of each
// instance's function and reads these tables.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "syntax/ast.h"
#include "sema/resolve.h"
#include "sema/types.h"

namespace frontend {

// What an expression means beyond its type: an intrinsic (`cuda.grid`,
// `math.sin`, `float32` as a cast, ...) or a plain value (Intrinsic::None).
struct ExprMeaning {
  Intrinsic kind = Intrinsic::None;
  uint32_t payload = 0;
};

// Which of the array attributes an Attribute expression reads.
enum class ArrayAttr : uint8_t { None, Shape, Size, Ndim, Strides, Transpose };

// One iterable of a `for` loop that is not a plain `range`: an array (its
// rows or elements), a tuple of one element type, or a `range(...)` inside
// `zip`/`enumerate`.
struct IterSource {
  enum class Kind : uint8_t { Array, Tuple, Range };
  Kind kind = Kind::Array;
  // The array or tuple expression, or the `range(...)` call.
  ExprId expr;
  // What each iteration yields from this source.
  TypeId element;
  // `enumerate(source[, start])` as an argument of zip: `element` is
  // (int64, inner) and the count starts at `start` (invalid: 0).
  bool enumerated = false;
  TypeId inner;
  ExprId start;
};

// `for target in <iterable>` when the iterable is an array, a tuple,
// `enumerate(x[, start])` or `zip(a, b, ...)`: the loop runs min(len(source))
// times; the target receives `item` (a tuple for zip/enumerate).
struct ForIteration {
  std::vector<IterSource> sources;
  bool zip = false;
  bool enumerate = false;
  // enumerate's start expression (invalid: 0).
  ExprId enumerateStart;
  TypeId item;
};

// One piece of a tile kernel's print (`print`, `ct.print`, `ct.printf`): text printed as
// is, or a value printed with a C conversion whose length modifier suits the promoted value
// (integers and bools as 64-bit, floats as double): a number once, a tile's elements as
// `[a, b, ...]` (nested per axis), a tuple's numbers through `format` with one conversion
// per number in order (`(%lld, %lld)`).
struct TilePrintPiece {
  enum class Kind : uint8_t { Text, Number, Tile, Tuple } kind = Kind::Text;
  std::string text;  // Text: printed as is; Number/Tile: the conversion; Tuple: the format
  ExprId value;
};

// A failing `assert` or a `raise` in a kernel compiled with debug=True: the
// exception the host should raise.
struct ErrorSite {
  // The statement (Assert or Raise).
  uint32_t stmt = 0;
  // `AssertionError`, `ValueError`, ...
  std::string type;
  // The message given (a string literal), else empty.
  std::string message;
  uint32_t line = 0;
};

// A name that one iteration of a compile-time loop binds to a run-time element: element
// `path` (one index per level of nested tuples) of the tuple `source` evaluates to.
struct StaticBinding {
  ExprId target;
  ExprId source;
  std::vector<uint32_t> path;
};

// A tile helper call's argument for one parameter that is not one whole expression of the
// caller (docs/TILE.md, "Helper functions"): an element of a `*t` splice, or a `*args`
// tuple (`**kwargs`' run-time values) gathered from several arguments. Each piece is
// element `path` of what `expr` gives in the caller (empty path: all of it), or (with
// `var`) the caller's variable `var` as it holds a `varType` there: a closure's captured
// value (docs/TILE.md, "Closures").
struct TileArgPiece {
  TileArgPiece() = default;
  TileArgPiece(ExprId e, std::vector<uint32_t> p, std::string v = {}, TypeId t = {})
      : expr(e), path(std::move(p)), var(std::move(v)), varType(t) {}
  ExprId expr;
  std::vector<uint32_t> path;
  std::string var;
  TypeId varType;
};
struct TileHelperArg {
  // A tuple of the pieces' values; else exactly one piece.
  bool packed = false;
  std::vector<TileArgPiece> pieces;
};

// A closure passed to a tile helper whose captures hold run-time values: each such value
// is bound in the helper to the variable `name` (`f.t` for parameter `f`'s capture `t`),
// from `piece` in the caller, of `type`.
struct TileHiddenArg {
  std::string name;
  TileArgPiece piece;
  TypeId type;
  // Instead of `piece`: a constant (a closure's captured constant made a variable where
  // run-time branches bind different closures).
  std::optional<ConstValue> value;
};

struct StaticUnroll;

// One typed function: a kernel with one signature, or a device function
// specialised for one tuple of argument types.
struct FunctionInstance {
  // Index into ResolvedModule::functions.
  uint32_t function = 0;
  bool isKernel = false;
  // numba's fastmath=True (the kernel's option, inherited by the device
  // functions it calls).
  bool fastmath = false;
  std::vector<TypeId> argTypes;
  // numba's omitted arguments (`omitted(default=-1)`): the parameters a call or a launch
  // left out, by index into argTypes, with the default each takes. Their argTypes are
  // the defaults' types; the lowered function has no parameter for them (the value is
  // folded in).
  std::map<uint32_t, ConstValue> omitted;
  bool isOmitted(size_t param) const { return omitted.count(static_cast<uint32_t>(param)) != 0; }
  TypeId returnType;
  // numba's Optional(returnType): a device function that returns a value on some paths
  // and None on others. Lowered as returning {value, is None}; a caller that uses the
  // result ends the thread when it is None (numba's cast raises, and the exception ends
  // the thread without debug=True).
  bool optionalReturn = false;
  // The entry symbol (kernels, docs/ABI.md) or internal name (device functions).
  std::string symbol;
  // numba's spelling of the signature: `void(float32, float32[::1])`.
  std::string signature;

  // --- side tables, indexed by ExprId/StmtId index; invalid where unused ---
  // The type of each expression's value (invalid for compile-time-only
  // expressions such as modules).
  std::vector<TypeId> exprTypes;
  // The type the operation runs in: BinOp, UnaryOp, the comparison that ends
  // at each Compare comparator, BoolOp/IfExp (= result), atomics (element).
  std::vector<TypeId> opTypes;
  // Pow: the integer exponent type when the power is computed by repeated
  // multiplication (invalid when a float pow is used).
  std::vector<TypeId> powExponentTypes;
  std::vector<ExprMeaning> meanings;
  std::vector<ArrayAttr> arrayAttrs;
  // Index into `constants` for expressions folded at compile time, else -1.
  std::vector<int32_t> constIndex;
  std::vector<ConstValue> constants;
  // Call expressions of device functions: the callee's instance index, else -1.
  std::vector<int32_t> callees;
  // AugAssign: the operation type and the result type (before the store
  // converts it to the target's type).
  std::vector<TypeId> stmtOpTypes;
  std::vector<TypeId> stmtResultTypes;
  // AugAssign `x **= k`: powExponentTypes' meaning for the statement, by StmtId index (the
  // right side's own ExprId keeps its own: `s += d ** k` has a power of its own).
  std::vector<TypeId> stmtPowExponentTypes;
  // Tile AugAssign whose target held a constant before and a run-time value after
  // (`off = 0` then `off += bid * N` in straight-line code): the old constant, by StmtId
  // index (the target's ExprId records the new value).
  std::map<uint32_t, ConstValue> augConstLeft;
  // For over range(): the iteration type.
  std::vector<TypeId> rangeTypes;
  // For over anything else (arrays, tuples, enumerate, zip), by StmtId index.
  std::map<uint32_t, ForIteration> iterations;
  // Device function calls with keyword arguments: the argument expressions in
  // parameter order, by Call ExprId index.
  std::map<uint32_t, std::vector<ExprId>> callArguments;
  // Tile helper calls with `*args`, `**kwargs` or splices: each parameter's argument, by
  // Call ExprId index (callArguments holds the plain ones too, invalid for these).
  std::map<uint32_t, std::vector<TileHelperArg>> helperArgs;
  // Tile helper calls passing closures that hold run-time values, by Call ExprId index.
  std::map<uint32_t, std::vector<TileHiddenArg>> hiddenArgs;
  // Tile helper calls returning closures that capture the helper's own run-time values:
  // each helper variable (`piece.var`) copied at the helper's end into this function's
  // variable `name` (`$<call>.<var>`), which the closure then reads, by Call ExprId index.
  std::map<uint32_t, std::vector<TileHiddenArg>> exports;
  // Names bound to closures in the branches of a run-time `if` whose captures differ: at
  // each binding (by target ExprId index), the values stored into the variables the joined
  // closure reads (`c.t`).
  std::map<uint32_t, std::vector<TileHiddenArg>> closureStores;
  // Tile kernels' prints, by Call ExprId index.
  std::map<uint32_t, std::vector<TilePrintPiece>> tilePrints;
  // debug=True kernels: their assert/raise statements, in source order.
  std::vector<ErrorSite> errorSites;

  // Every local variable (parameters included) with its unified type, by
  // name (sorted: deterministic).
  std::map<std::string, TypeId> variables;

  // A cuTile tile kernel (docs/TILE.md): `meanings` holds Intrinsic::TileOp
  // on its `ct.*` calls and `.astype` methods, `callArguments` their
  // arguments in parameter order (invalid where left out).
  bool tile = false;
  // The values of its Constant parameters, in JitFunction::tileConsts order.
  std::vector<ConstValue> tileConstValues;
  // Its compile-time loops (`for ... in ct.static_iter(...)`, `tuple(... for ...)`),
  // unrolled: each iteration typed on its own.
  std::vector<StaticUnroll> unrolled;
};

// A compile-time loop of a tile kernel, unrolled: `for t in ct.static_iter(...)` (by the
// For's StmtId index) or a tuple comprehension (by the `tuple(...)` Call's ExprId index).
// `iterations[k]` holds the instance's side tables as iteration k typed the loop's body (or
// the comprehension's element), with the loops unrolled inside it; `bindings[k]` the
// names it binds to run-time tuple elements (constants are in its tables).
struct StaticUnroll {
  uint32_t node = 0;
  bool comprehension = false;
  std::vector<FunctionInstance> iterations;
  std::vector<std::vector<StaticBinding>> bindings;
};

// Calls `f` on every callee slot of `inst` (and of its unrolled iterations, whose callees
// index the same instance list).
template <class Inst, class F>
void forEachCallee(Inst& inst, F&& f) {
  for (auto& callee : inst.callees) f(callee);
  for (auto& u : inst.unrolled) {
    for (auto& it : u.iterations) forEachCallee(it, f);
  }
}

struct TypedModule {
  // The resolved module (owns the TypeTable).
  ResolvedModule module;
  // All instances reachable from the kernels, kernels first in source x
  // signature order, then device functions in order of first call.
  std::vector<FunctionInstance> instances;
  // The number of leading instances that are kernels.
  uint32_t kernelCount = 0;
};

// Every instance reachable from instance `root` through calls (device
// functions, tile helpers), `root` first, then in order of first call (depth
// first). The one walk over the call graph: module selection, cache keys,
// inspection and lowering's per-kernel facts use it.
std::vector<uint32_t> reachableInstances(const TypedModule& typed, uint32_t root);

}  // namespace frontend
