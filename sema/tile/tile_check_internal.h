// The tile dialect's checker (docs/TILE.md): the TileChecker class, one
// kernel or helper instance at a time, and the values it computes with.
// Private to sema/tile/; the entry point is sema/tile/tile_check.h. Its
// member functions live in the tile_check*.cpp files of this folder, one
// concern each.
#pragma once

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "diagnostics/diagnostics.h"
#include "sema/dataclasses.h"
#include "sema/tile/tile_ops.h"
#include "sema/resolve.h"
#include "sema/typed_module.h"
#include "syntax/ast.h"

namespace frontend {
struct ElementName;
}

namespace frontend::tile {

// What an expression is while checking a tile kernel.
struct TV {
  enum class K : uint8_t { Bad, Value, Const, Entity, Dict, Closure, Items };
  K k = K::Bad;
  // Value: a scalar, array or tile type.
  TypeId type;
  // Const: a Python number or a tuple of them.
  ConstValue c;
  // Entity: a TileOp, TypeObject or Module with its dotted path; HostValue with payload 1
  // is a plain function passed as a value (`forward(leaf, ...)`): `def` and `defScope`
  // (JitFunction::scope) say which.
  Intrinsic ent = Intrinsic::None;
  uint32_t payload = 0;
  std::string path;
  // `t.astype` bound to `t`.
  ExprId self;
  StmtId def;
  uint32_t defScope = 0;
  // Dict (tile_check_dict.cpp): a dictionary of string keys known at compile time (a
  // helper's `**kwargs`, a dict display; cuTile's DictTy): its keys, their values
  // (constants, entities, dicts, run-time values) and, for each run-time value, where
  // lowering finds it (`pieces[i]`; an invalid expr: element path[0] of the tuple that
  // the name holding the dict gives, filled in where the name is read).
  std::vector<std::string> keys;
  std::vector<TV> items;
  std::vector<TileArgPiece> pieces;
  // A `*args` tuple of run-time values (tile_check_args.cpp): its elements that are
  // compile-time constants (cuTile keeps them constant inside the aggregate).
  std::vector<std::optional<ConstValue>> knownParts;
  // Closure (tile_check_closure.cpp; cuTile's ClosureTy): a function defined inside a tile
  // kernel or helper, `def` its FunctionDef (or `lambda` its Lambda), `path` its name,
  // `defScope` the JitFunction::scope its globals resolve in. `keys` are the names it
  // captures from the functions around it and, prefixed with `=`, its parameters with
  // defaults (evaluated at the `def`); `items` their values where known and frozen (an
  // invalid TV where the capture is live: read from the defining function, `live`, when
  // called there); `pieces` where lowering finds each frozen run-time value.
  ExprId lambda;
  uint32_t live = 0;
  // Items: a tuple holding functions (`(f, "dummy")`, `tuple(lambda: j for j in ...)`): its
  // elements in `items` (compile-time values, closures among them).

  bool ok() const { return k != K::Bad; }
  static TV value(TypeId t) {
    TV v;
    v.k = K::Value;
    v.type = t;
    return v;
  }
  static TV constant(ConstValue c) {
    TV v;
    v.k = K::Const;
    v.c = std::move(c);
    return v;
  }
};

// A function decorated `@static_def` (cuTile: run by the host when the kernel compiles).
bool isStaticDef(const Ast& ast, StmtId def);

inline bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// The helper functions' instances made while checking one tile kernel
// instance, shared by the nested checkers of its helper calls.
struct HelperContext {
  explicit HelperContext(std::vector<FunctionInstance>& o) : out(o) {}
  std::vector<FunctionInstance>& out;
  struct Done {
    int32_t index = -1;
    TV result;
    bool effects = false;
    // The names the instance assigns (a returned closure's captures of parameters it
    // never assigns are the caller's arguments).
    std::set<std::string> assigned;
    // A @contextmanager instance (tile_check_with.cpp): `result` is what its `yield` gives,
    // `end` that value with its closures frozen at the generator's end.
    TV end;
  };
  // By function index and argument kinds (see helperKey).
  std::map<std::string, Done> done;
  // The helper instances being checked, outermost first, by key: a helper may call
  // itself with other constants (a recursion that ends at compile time), never with
  // the same key, and never deeper than kMaxDepth.
  std::vector<std::string> stack;
  static constexpr size_t kMaxDepth = 200;
  // Each checker's scope token (TV::live of the closures it defines).
  uint32_t nextScope = 1;
};

class TileChecker {
public:
  TileChecker(const Ast& ast, ResolvedModule& module, FunctionInstance& inst, DiagnosticSink& diags,
              HelperContext& helpers)
      : ast_(ast), module_(module), types_(module.types), inst_(inst), diags_(diags),
        fn_(module.functions[inst.function]), helpers_(helpers) {
    scope_ = helpers.nextScope++;
  }

  void run();

  // This checker types a @contextmanager generator (tile_check_with.cpp): its one `yield`
  // gives the call's value, `return` is refused.
  void setGenerator() { generator_ = true; }
  // After runHelper of a generator: the yielded value with its closures frozen at the end.
  const TV& generatorEnd() const { return yieldEnd_; }

  // Checks the helper function `inst_` for one call's arguments (one TV per
  // parameter: a runtime value, a constant or a dtype/padding mode); returns
  // what the call gives (Bad after an error).
  TV runHelper(const std::vector<TV>& args);
  bool effects() const { return effects_; }
  std::set<std::string> assignedNames() const {
    std::set<std::string> out;
    for (const auto& [name, n] : assigned_) {
      if (n > 0) out.insert(name);
    }
    return out;
  }

private:
  void initTables();

  Location loc(const NodeRange& r) const { return locationOf(ast_, r); }
  Location loc(ExprId id) const { return loc(ast_.expr(id).range); }
  std::string nameOf(TypeId t) const { return t.valid() ? types_.name(t) : "?"; }

  // --- statements ---------------------------------------------------------

  void countAssignments(std::span<const StmtId> body);
  void countLoopBody(std::span<const StmtId> body);

  void countTarget(ExprId t, int n);

  void checkBody(std::span<const StmtId> body);

  void checkStmt(StmtId id);

  void checkFor(StmtId id, const ast::For& f);

  // --- compile-time loops (tile_check_static.cpp) --------------------------

  // One item of a compile-time iterable: a constant, element `path` of the run-time
  // tuple `source` evaluates to (of type `type`), or a tuple of items (enumerate, zip).
  struct StaticItem {
    enum class K : uint8_t { Const, Element, Tuple, Items } k = K::Const;
    ConstValue c;
    // Items: an element of a tuple holding functions (a compile-time value).
    std::vector<TV> v;
    ExprId source;
    std::vector<uint32_t> path;
    TypeId type;
    std::vector<StaticItem> parts;
  };
  // `ct.static_iter(X)` (by any spelling of cuda.tile's static_iter): X, else invalid.
  ExprId staticIterArg(ExprId iter) const;
  // The items of a compile-time iterable: range(...) with constant bounds, enumerate,
  // zip, a tuple (constant or of run-time values) or a list of constants; nullopt
  // (reported) for anything else or more than kMaxStaticItems.
  std::optional<std::vector<StaticItem>> staticItems(ExprId iterable);
  std::optional<std::vector<StaticItem>> staticBuiltinItems(ExprId iterable, const ast::Call& call,
                                                            const std::string& name);
  // Binds the loop target (a name or an unpacking) to one item: constants into consts_,
  // run-time elements as variables (recorded in `out` for lowering); false when reported.
  bool bindStatic(ExprId target, const StaticItem& item, std::vector<StaticBinding>& out);
  // `for T in ct.static_iter(X):`: the body checked once per item, each iteration's side
  // tables kept (inst_.unrolled).
  void checkStaticFor(StmtId id, const ast::For& f, ExprId iterable);
  // break/continue (outside inner loops) and return in a compile-time loop's body.
  void noStaticExits(std::span<const StmtId> body, bool inLoop);
  // `tuple(ELT for T in ct.static_iter(X) [if C] ...)`: a constant tuple when every
  // element is one, else a tuple of run-time values (inst_.unrolled).
  TV checkTupleComprehension(ExprId id, const ast::GeneratorExp& g);
  bool comprehend(const ast::GeneratorExp& g, size_t level, std::vector<StaticBinding>& bindings,
                  StaticUnroll& out, std::vector<TV>& results);
  // Whether the name means Python's builtin (no variable, constant or global shadows it).
  bool isBuiltinName(const std::string& name) const;
  static constexpr size_t kMaxStaticItems = 1000;
  void checkWhile(const ast::While& w, const Stmt& s);

  // A name may be rebound to a value of another type (Python semantics),
  // except inside a loop or branch when it was bound outside it: then the
  // value flows around the loop or out of the branch and keeps its type.
  void bindRuntime(const std::string& name, TypeId t, ExprId where, bool keepType = false);

  void assign(ExprId target, const TV& v, ExprId valueExpr);

  bool isConstParam(const std::string& name) const;

  // --- expressions --------------------------------------------------------

  TV record(ExprId id, TV v);

  std::string describe(const TV& v) const;

  TV checkExpr(ExprId id);

  TV checkName(ExprId id, const ast::Name& n);

  TV checkAttribute(ExprId id, const ast::Attribute& a);

  // --- typing rules -------------------------------------------------------

  TypeId elementOf(TypeId t) const;

  // The dtype a Python number constant takes on its own (cuTile: int32 for
  // ints that fit, float32 for floats).
  std::optional<TypeId> weakType(const ConstValue& c);
  // A strictly typed constant's dtype (`ct.int16(2)`, `np.float32(0.5)`: a number
  // with ConstValue::scalarType), else nullopt (Python's loosely typed numbers).
  std::optional<TypeId> strictType(const ConstValue& c);
  // The number `c` as a constant of scalar dtype `dtype` (wrapped/rounded as NumPy
  // does); nullopt where not folded (float16 and narrower).
  std::optional<ConstValue> retype(const ConstValue& c, TypeId dtype);

  // Two dtypes meeting in an operation (cuTile's promotion: the wider float,
  // float over int, the wider int, signed over unsigned).
  TypeId promoteDtypes(TypeId a, TypeId b);

  // The dtype two operands compute in; a Python number constant adopts the
  // other operand's dtype (a float constant with an integer tile gives float32).
  std::optional<TypeId> promote(const TV& l, const TV& r);

  std::optional<TypeId> weakWith(const ConstValue& c, TypeId other);

  std::vector<int64_t> shapeOf(const TV& v) const;
  bool isTileVal(const TV& v) const { return v.k == TV::K::Value && types_.isTile(v.type); }
  // A constant tuple or a tuple value.
  bool isTupleTV(const TV& v) const {
    return (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Tuple) || (v.k == TV::K::Value && types_.isTuple(v.type));
  }
  // A kernel parameter's tuple type whose leaves are arrays and numbers (docs/TILE.md,
  // "Tuples of arrays"), and whether some leaf is an array.
  bool tupleParamOk(TypeId t) const;
  bool holdsArray(TypeId t) const;

  // NumPy broadcasting of the operands' shapes (scalars are 0-d).
  std::optional<std::vector<int64_t>> broadcastOf(const std::vector<TV>& vals, ExprId where);

  // A tile of `dtype` and `shape` if any operand is a tile, else a scalar.
  TypeId make(TypeId dtype, const std::vector<int64_t>& shape, const TV& a, const TV& b);

  // The operand shapes of a matrix product: 2-D tiles (M, K) and (K, N).
  // The product's shape; `batched`: leading dimensions are a batch (ct.matmul, `@`).
  std::optional<std::vector<int64_t>> matmulShapes(const TV& x, const TV& y, const NodeRange& range,
                                                   const std::string& what, bool batched);

  static bool matmulInput(const Type& t);

  // `x @ y`, `ct.matmul(x, y)`: the operands promoted to one dtype, which the
  // result has (cuTile's rule).
  std::optional<TypeId> matmulType(const TV& x, const TV& y, const NodeRange& range,
                                   const std::string& what = "`@`");

  // `ct.mma(x, y, acc)`: x and y of one dtype (not promoted), acc of the
  // (M, N) shape and an accumulator dtype cuTile allows for that input.
  std::optional<TypeId> mmaType(const TV& x, const TV& y, const TV& acc, const NodeRange& range);
  // `ct.mma_scaled(x, x_scale, y, y_scale, acc)` (tile_check_mma_scaled.cpp): cuTile's
  // operand, scale and accumulator dtypes, scaling block sizes and shapes.
  TV checkMmaScaled(ExprId id, const ast::Call& c, const std::string& fname);

  TV binary(Operator op, const TV& l, const TV& r, const NodeRange& range, ExprId where);
  // `-x`, `~x`, `not x` at `id`, and `left <op> right`: the operators, and the
  // cuTile functions that are them (ct.negative, ct.greater, ...).
  TV unaryOp(ExprId id, UnaryOpKind op, ExprId operand);
  TV compareOp(ExprId id, CmpOp op, ExprId left, ExprId right);
  // `x in (a, b)`, `x not in t`, `(a, b) == (0, 0)`, `t != u` (tile_check_tuple.cpp): folded
  // where the constants decide (Python's order for `in`), else a run-time bool; the
  // operation's type is the empty tuple (lowering: an elementwise comparison).
  TV compareTuples(ExprId id, CmpOp op, const TV& l, const TV& r, ExprId right);
  // Whether `a == b` is known at compile time (nullopt: it depends on run-time values),
  // after checking both sides are numbers or tuples of them (`ok` false when not).
  std::optional<bool> staticEquals(const TV& a, const TV& b, bool& ok);
  // A tuple's elements as values; a tuple display's (`display`, without `*`) as their
  // own checks gave them, so that its constants stay constants.
  std::vector<TV> tupleItems(const TV& v, ExprId display = ExprId()) const;
  // ct.floordiv/mod/pow/bitwise_*/negative/greater/.../not_equal(x[, y]).
  TV checkOperatorFn(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname);

  // --- calls --------------------------------------------------------------

  // The arguments of a call in the order of `params`; nullopt (reported)
  // on unknown or repeated keywords, too many or missing required ones.
  std::optional<std::vector<ExprId>> bindArgs(ExprId id, const ast::Call& c, std::string_view fname,
                                              std::initializer_list<const char*> params,
                                              size_t required, ExprId self = ExprId());

  // A constant bool (or int, as Python's truth) for options such as `flush_to_zero=`.
  std::optional<bool> constBool(ExprId id, const char* what);

  // A `rounding_mode=` argument: a `ct.RoundingMode` member (into `mode`) or
  // None (`mode` left empty); false when reported.
  bool roundingModeArg(ExprId e, std::optional<TileFn>& mode);

  // `ct.truediv(x, y, rounding_mode=None, flush_to_zero=False)`: `x / y` (typed
  // as `/`), with an IEEE rounding (RN, RZ, RM, RP: float32 and float64),
  // FULL (float32's `div.full`, about 2 ulp) or APPROX (float32's `div.approx`);
  // `flush_to_zero` flushes float32 subnormal inputs and results to zero.
  // The shape as cuTile prints it: `(16, 8)`, `()`.
  static std::string shapeText(const std::vector<int64_t>& shape);

  // Whether `v`'s shape broadcasts to `shape` without enlarging it (a scalar
  // always does).
  bool broadcastsTo(const TV& v, const std::vector<int64_t>& shape) const;

  // Whether values of `from` may be written into an array of `to` (NumPy's
  // same-kind rule: bool into anything, integers into integers and floats,
  // floats into floats of any width); a Python number converts when its
  // kind does.
  bool convertsTo(const TV& v, TypeId to) const;

  // cuTile's implicit cast of what is written into an array (a store's tile, a
  // scatter's value or padding, an atomic's update): a tile's dtype must promote
  // (promoteDtypes) to the array's (bool into anything; integers into wider integers of
  // their signedness and into floats; float16 or bfloat16 into float32, float32 into
  // float64; tfloat32 and the 8-bit floats only into themselves); a Python number
  // by kind (no float into an integer array, only 0/1 into a bool array, an integer
  // within the array's range). cuda/tile/_ir/cast_ops.py check_implicit_cast.
  bool implicitlyCasts(const TV& v, TypeId to);

  // A tile operand of `what` in `fname` that must broadcast to `shape` and
  // hold `to` values (`padding_value=`, scatter's value); false when reported.
  bool valueOperand(ExprId e, const std::string& fname, const char* what, const std::vector<int64_t>& shape,
                    TypeId to);

  bool isNoneConst(ExprId e) const;

  // The array and indices of ct.gather/scatter and the atomics: `array` an
  // array, `indices` a tuple with one integer tile or scalar per array axis (a
  // 1-D array takes one alone); their broadcast shape (empty: scalar indices)
  // and the array's dtype, or nullopt (reported).
  struct IndexedTarget {
    TypeId element;
    std::vector<int64_t> shape;
  };
  // `raw`: the array is a RawArrayMemory (its `atomic_*_offset` methods: one offset, no
  // extent); otherwise a RawArrayMemory is an error there.
  std::optional<IndexedTarget> indexedTarget(ExprId array, ExprId indices, const std::string& fname,
                                             bool raw = false);
  // A `mask=` of gather/scatter/load_offset/...: a bool tile or scalar broadcasting to
  // `shape`; false when reported.
  bool maskOperand(ExprId m, const std::string& fname, const std::vector<int64_t>& shape);

  // ct.gather(array, indices, /, *, mask=None, padding_value=0,
  //           check_bounds=True, latency=None) and
  // ct.scatter(array, indices, value, /, *, mask=None, check_bounds=True,
  //            latency=None): `indices` is a tuple with one integer tile or
  // scalar per array axis (a 1-D array takes one alone); their shapes
  // broadcast to the result's (scatter: the stored elements') shape, which is
  // recorded as the call's opType (a tile of the array's dtype, or the dtype
  // for scalar indices).
  TV checkGatherScatter(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname);

  // A `memory_order=` / `memory_scope=` argument of an atomic: a constant
  // `ct.MemoryOrder` (`ct.MemoryScope`) member that atomics take (cuTile's
  // rule: RELAXED, ACQUIRE, RELEASE or ACQ_REL; BLOCK, DEVICE or SYS); false
  // when reported.
  bool memoryArg(ExprId e, bool order, const std::string& fname);

  // ct.load_advanced_indexing(array, indices, /, *, padding_mode=UNDETERMINED,
  // latency=None, allow_tma=None) and ct.store_advanced_indexing(array, indices,
  // tile, /, *, latency=None, allow_tma=None): `indices` a tuple with one entry per
  // array axis, exactly one a 1-D integer tile (the sparse axis: element indices)
  // and the others `ct.Slice(start, length)` (a run-time integer start and a
  // constant power-of-two length). The tile's shape is the sparse tile's length on
  // the sparse axis and each Slice's length elsewhere (the call's opType).
  TV checkAdvancedIndexing(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname);
  // Whether `e` is a `ct.Slice(...)` call (its callee means ct.Slice).
  bool isSliceCall(ExprId e);

  // ct.atomic_add/max/min/and/or/xor/xchg(array, indices, update, /, *,
  // check_bounds=True, memory_order=ACQ_REL, memory_scope=DEVICE) and
  // ct.atomic_cas(array, indices, expected, desired, /, *, ...): `array` and
  // `indices` as for ct.gather; the update (expected, desired) broadcasts to
  // the indices' shape. The result, the old values, has that shape and the
  // array's dtype (recorded as the call's opType). The dtypes are cuTile's:
  // 32- and 64-bit integers for all, float32/float64 for add, xchg and cas,
  // float16 for add; the bitwise operations take an update of the array's
  // own dtype (or a Python int).
  // With `self` (a RawArrayMemory), its `atomic_*_offset(offset, update, /, *, mask=None,
  // memory_order=, memory_scope=)`: `mask` where ct.atomic_* has `check_bounds`.
  TV checkAtomic(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname, ExprId self = {});
  // `array.get_raw_memory()`: the array's RawArrayMemory (a 1-D array type marked raw).
  TV checkRawMemory(ExprId id, const ast::Call& c, ExprId self);
  // --- cuTile's TiledView (tile_check_view.cpp) -------------------------------
  // `array.tiled_view(tile_shape, padding_mode=UNDETERMINED, traversal_steps=None)`: the
  // array typed as a view (ArrayFacts::view) with its tile shape, padding and steps.
  TV checkTiledView(ExprId id, const ast::Call& c, ExprId self);
  // A view's attributes: `dtype` (checkAttribute), `tile_shape`, `traversal_steps`
  // (constants) and its methods bound to it; an error for anything else.
  TV viewAttribute(ExprId id, const std::string& attr, const TV& base, ExprId self);
  // `tv.load(index, *, check_bounds=True, latency=None, allow_tma=None)`,
  // `tv.store(index, tile, *, ...)`, `tv.num_tiles(axis)`; load and store bind their
  // arguments in ct.load's (ct.store's) slots so the lowering shares their paths.
  TV checkViewCall(ExprId id, const ast::Call& c, TileFn fn, ExprId self);
  // `tv.atomic_store_add/max/min/and/or/xor(index, update, /)`.
  TV checkViewAtomic(ExprId id, const ast::Call& c, TileFn fn, ExprId self);
  // `Color(value)` of a module's enum class: its member of that compile-time value.
  TV checkEnumCall(ExprId id, const ast::Call& c, const TV& callee);
  // RawArrayMemory's `load_offset(offset, /, *, mask=None, padding_value=0,
  // latency=None)` and `store_offset(offset, value, /, *, mask=None, latency=None)`:
  // elements at the base + `offset` (an integer tile or scalar, in elements, unchecked);
  // the result (stored value) has the offset's shape (the opType).
  TV checkRawAccess(ExprId id, const ast::Call& c, TileFn fn, ExprId self);
  // `array.slice(axis, start, stop)`: a view of `array` (no copy) restricted to
  // [start, stop) along the constant `axis`.
  TV checkArraySlice(ExprId id, const ast::Call& c, ExprId self);
  // `ct.static_assert(condition, message=None)`: an error unless the condition is
  // a true compile-time constant; `ct.static_eval(expr)`: `expr`, which must be a
  // compile-time value (tile_check_shape.cpp).
  TV checkStatic(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname);
  // `e` evaluated as the host would (sema/const_eval.h) with this kernel's constants;
  // nullopt when it is no such constant (nothing reported).
  std::optional<ConstValue> hostConstant(ExprId e);
  // `ct.static_eval(type_string.append(repr(x)))` as a statement, changing a host list of
  // the enclosing function or the module: a compile-time effect pykc does not replay (a
  // warning); false when `value` is not that.
  bool checkHostEffect(ExprId value);
  // An f-string whose fields are all host constants, formatted (no format specs).
  std::optional<std::string> hostFString(ExprId e);

  // ct.truediv, ct.add, ct.sub, ct.mul: the operator's typing, with `rounding_mode=`
  // (RN, RZ, RM, RP; division also FULL and APPROX) and `flush_to_zero=`.
  TV checkRoundedArith(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname);

  std::optional<int64_t> constInt(ExprId id, const char* what);

  // A tile shape: a constant int or tuple of ints, each a power of two.
  std::optional<std::vector<int64_t>> constShape(ExprId id);

  std::optional<TypeId> dtypeArg(ExprId id);
  // `padding_mode=`: a `ct.PaddingMode` member (reported otherwise).
  bool paddingArg(ExprId id);

  // A runtime or constant integer scalar (tile indices, axis lengths).
  bool intScalar(ExprId id, const char* what);

  // `index=`: one integer or a tuple of `ndim` integers.
  bool tileIndex(ExprId id, unsigned ndim);

  // `order=` of ct.load/ct.store: a permutation of the array's axes (a tuple
  // of constants, "C" for none, "F" reversed), applied to the array before its
  // tile space is formed (cuTile's rule). Recorded on `id` as the tuple of
  // axes, which lowering reads.
  std::optional<std::vector<int64_t>> orderArg(ExprId id, unsigned ndim);

  std::optional<TypeId> arrayArg(ExprId id);

  std::optional<TV> tileOrScalar(ExprId id);

  TV checkCall(ExprId id, const ast::Call& c);

  // --- helper functions, tuples, dtypes as values (docs/TILE.md) ----------

  // `return x` in a helper: collected; helperResult() merges them.
  void checkHelperReturn(StmtId id, const ast::Return& r);

  // The runtime type a constant takes when it meets runtime values (numbers
  // by cuTile's rule, tuples elementwise), or nullopt.
  std::optional<TypeId> runtimeTypeOf(const ConstValue& c);

  // What a helper call gives: nothing (none), one constant or dtype when
  // every return gives the same one and the helper stores nothing, else the
  // one runtime type of its returns (constants converted to it).
  TV helperResult();

  // `a, b = value`: a tuple constant or a tuple of runtime values, unpacked.
  void assignTuple(ExprId target, const TV& v, ExprId valueExpr);
  // `a, b = x.dtype, t`: a tuple display whose elements include compile-time values or
  // arrays, unpacked element by element; false (nothing checked) when it is no such
  // assignment.
  bool unpackDisplay(const ast::Assign& a);

  // `dtype = ct.float16`, `pad = ct.PaddingMode.ZERO`: a compile-time alias,
  // outside runtime loops and branches. Returns false (not handled) for other
  // entities, which assign() reports.
  bool assignEntity(ExprId target, const std::string& name, const TV& v);

  // `(a, b)` with runtime elements: a tuple value (helpers return them, and
  // `a, b = ...` unpacks them).
  TV runtimeTuple(ExprId id, const ast::Tuple& t);
  // `t[i]` of a tuple parameter: a constant index, or a run-time one where every
  // element has one type; `len(t)`.
  TV checkTupleSubscript(ExprId id, const ast::Subscript& sub, const TV& base);
  // `t[a:b:c]` of a constant tuple, as Python slices (bounds and step constant
  // integers or None); nullopt after a diagnostic.
  std::optional<ConstValue> constSlice(const ConstValue& tuple, const ast::Slice& slice);
  // `(ct.float4_e2m1fn, ct.float8_e4m3fn)[dtype_id]`: a tuple literal of names (and
  // attributes) indexed by a constant is the chosen element, checked alone, where that
  // is a compile-time value (a dtype, a constant); std::nullopt otherwise.
  std::optional<TV> pickFromTupleLiteral(ExprId id, const ast::Subscript& sub);
  TV checkLen(ExprId id, const ast::Call& c);
  // ct.astile(value, dtype=None): a tile from a number or nested tuples of numbers (constants,
  // scalars, 0-d tiles), its shape the nesting (each length a power of two).
  TV checkAstile(ExprId id, const ast::Call& c, const std::string& fname);
  // The shape of `e` as astile reads it and its leaves' dtypes; false when reported.
  bool astileShape(ExprId e, std::vector<int64_t>& shape, size_t depth, std::vector<TypeId>& leaves);

  // `A.dtype == ct.float32`, `mode is ct.PaddingMode.ZERO`: decided at compile time.
  TV compareEntities(ExprId id, CmpOp op, const TV& l, const TV& r);

  // `x if c else y`: with a compile-time `c` only the chosen side is typed;
  // with a runtime scalar `c`, both sides meet as in `ct.where`.
  TV checkIfExp(ExprId id, const ast::IfExp& e);

  // `a and b`, `a or b`: constants fold (Python's value); runtime scalars
  // give a bool (both sides are evaluated: tile expressions have no effects).
  TV checkBoolOp(ExprId id, const ast::BoolOp& b);

  // `t[:, None]`, `t[None, ...]`: insert axes of length 1 (ct.expand_dims).
  TV checkTileSubscript(ExprId id, const ast::Subscript& sub, const TV& base);

  // A call of a plain module-level function (a helper) or of the builtins
  // min/max/abs/int/float; nullopt for anything else.
  std::optional<TV> checkPlainCall(ExprId id, const ast::Call& c);

  // The module.functions entry of helper `def` (added on first call).
  uint32_t helperFunction(StmtId def, const std::string& name, std::optional<uint32_t> scope = std::nullopt);

  // A name for an instance's arguments (symbols and de-duplication).
  std::string argCode(const TV& v) const;

  // `f(args)` where `f` is a plain `def` of the module: typed for these
  // arguments (one instance per distinct argument types and constants) and
  // inlined where it is called (lowering). `scope`: the JitFunction::scope the def
  // belongs to (a function value carries its own).
  TV checkHelperCall(ExprId id, const ast::Call& c, StmtId defStmt, const std::string& name,
                     std::optional<uint32_t> scope = std::nullopt);

  // --- helper call arguments (tile_check_args.cpp) -------------------------
  // One argument of a helper call: its value and where lowering finds it (a whole
  // expression, an element of a `*t` splice, a value of a `**d` dict).
  struct ArgItem {
    TV v;
    TileArgPiece piece;
    NodeRange at;
  };
  // The call's positional arguments with `*t` spliced in and its keywords with `**d`
  // spread (cuTile's _dispatch_call); false when reported.
  bool gatherArgs(const ast::Call& c, const std::string& name, std::vector<ArgItem>& positional,
                  std::vector<std::pair<std::string, ArgItem>>& keywords);
  // Binds the gathered arguments to the parameters of `def` as Python's
  // inspect.Signature.bind does (cuTile's _bind_args): positional-only, ordinary,
  // `*args` (a tuple), keyword-only, `**kwargs` (a dict), defaults. One TV per parameter
  // in JitFunction::params order and what lowering evaluates for it; false when reported.
  // `closure`: a closure's defaults (its `=NAME` items) replace the `def`'s expressions.
  bool bindHelperArgs(ExprId id, const ast::Call& c, const Arguments& args, const std::string& name,
                      std::vector<TV>& values, std::vector<TileHelperArg>& lowered, const TV* closure = nullptr,
                      size_t skip = 0);
  // The helper instance of `function` for these parameter values (one per distinct kinds
  // and constants), recorded as the call's callee; what the call gives.
  TV instantiateHelper(ExprId id, uint32_t function, const std::string& name, std::vector<TV>& values,
                       std::vector<TileHelperArg>& lowered, bool recordResult = true);
  // A `*args` tuple or `**kwargs` dict of these items; Bad when reported.
  TV packTuple(const std::vector<ArgItem>& items, ExprId at, TileHelperArg& lowered);
  TV packDict(const std::vector<std::pair<std::string, ArgItem>>& items, ExprId at, TileHelperArg& lowered);
  // `args = (x, (), 1234)` holding an array, in straight-line code, its elements constants
  // and names never assigned: a name for the display, which `*args` splices into calls
  // (cuTile's test_pass_tuple_starred_to_builtin); false for any other assignment.
  bool bindTupleAlias(const ast::Assign& a);
  std::map<std::string, ExprId> tupleAliases_;
  // The elements of `*t` (a Starred) when t is a tuple display or such a name, else nullopt.
  std::optional<std::vector<ExprId>> splicedDisplay(ExprId starred);
  // A plain `def` named as a value (`forward(leaf, ...)`): an entity calls can take.
  TV functionValue(const std::string& name, StmtId def);
  static bool isFunctionValue(const TV& v) { return v.k == TV::K::Entity && v.ent == Intrinsic::HostValue && v.payload == 1; }

  // --- closures: functions defined inside kernels and helpers (tile_check_closure.cpp) ---
  // `def f(...)` in a body, `lambda ...:`: a closure value (its defaults evaluated now, its
  // captures live in this function).
  TV makeClosure(StmtId def, ExprId lambda, NodeRange at);
  // The names a function defined here reads from this function's scope (Python's free
  // variables of `def`/`lambda` that are locals of the function being checked).
  std::vector<std::string> closureCaptures(StmtId def, ExprId lambda) const;
  // What `name` holds now in this function (for a capture); Bad when unbound (`bound`
  // false) or reported.
  TV currentValue(const std::string& name, NodeRange at, bool& bound);
  // The closure with its live captures read now (it leaves this function: passed to a
  // helper, returned, captured by another closure); Bad when reported.
  TV freezeClosure(const TV& c, NodeRange at);
  TV freezeCaptures(const TV& c, NodeRange at);
  // A TV with every closure it holds frozen (dict items too).
  TV frozen(const TV& v, NodeRange at);
  // `f(args)` of a closure value: its body typed as a helper instance whose parameters are
  // its own and then its captures (docs/TILE.md, "Closures").
  TV checkClosureCall(ExprId id, const ast::Call& c, const TV& callee);
  // The module.functions entry of a closure (added on first call).
  uint32_t closureFunction(const TV& c);
  // A closure argument's run-time captures as hidden variables of the helper (`prefix.name`).
  void hideRuntimeParts(TV& v, const std::string& prefix, std::vector<TileHiddenArg>& hidden);
  // A closure parameter's hidden variables, declared.
  void bindHiddenVars(const TV& v);
  // A closure a helper returns: its run-time captures (helper variables) as the caller's:
  // hidden arguments, or captures of the functions around it that the helper never
  // assigns (live there, as cuTile's captured scopes); false (`lost`) otherwise.
  // Others (its parameters and locals) are copied out at its end (`exports`).
  bool callerPieces(TV& v, ExprId call, uint32_t function, const std::vector<TileHelperArg>& lowered,
                    const std::vector<TileHiddenArg>& hidden, const std::set<std::string>& assigned,
                    std::vector<TileHiddenArg>& exports, std::string& lost);
  // A method a helper returns bound to one of its parameters (`return tv.atomic_store_add`):
  // bound to the caller's argument for it (`bound`), which must be a plain expression the
  // helper never reassigns; false with a diagnostic otherwise.
  bool rebindReturnedMethod(TV& v, ExprId call, uint32_t function, const std::vector<ExprId>& bound,
                            const std::set<std::string>& assigned, const std::string& name);
  // `ct.reduce(x, axis, func, identity, *, keepdims=False)` (cuTile's custom reduction): x a
  // tile or a tuple of tiles (broadcast to one shape), `func` a closure, a helper, or an
  // operator (operator.add, ct.maximum, ...) combining 0-d values, typed on scalars of
  // the inputs' dtypes (recorded on the `func` argument: its callee or its TileOp).
  TV checkCustomReduce(ExprId id, const ast::Call& c, const std::string& fname);
  // A tuple display or comprehension result holding functions: an Items value of its
  // elements (each a compile-time value); Bad when reported.
  TV itemsOf(const std::vector<TV>& elements, NodeRange at);
  static bool isAggregate(const TV& v) { return v.k == TV::K::Closure || v.k == TV::K::Items; }
  // A closure's `def`/`lambda` arguments.
  const Arguments& closureArguments(const TV& c) const;
  // Names bound to closures.
  std::map<std::string, TV> closures_;
  // `name` bound to the closure `v` (a `def`, `f = lambda ...`, `f = make()`; `site` the
  // assignment's target, invalid for a `def`).
  void bindClosure(const std::string& name, const TV& v, NodeRange at, ExprId site = ExprId());
  // Where each name got its closure (closureStores go there when branches join).
  std::map<std::string, ExprId> closureSites_;
  // After a run-time `if`: the closures each path bound, joined (differing captured numbers
  // become variables `name.capture`, stored at each path's binding); false when reported.
  bool joinClosures(const std::map<std::string, TV>& thenC, const std::map<std::string, ExprId>& thenSites,
                    const std::map<std::string, TV>& elseC, const std::map<std::string, ExprId>& elseSites,
                    NodeRange at);
  // Whether two closures are the same function with the same captures (constants equal,
  // run-time ones the same variables).
  bool identicalClosures(const TV& x, const TV& y);
  // The closures being frozen (a capture of a closure freezes it too): functions that
  // capture each other are refused, not frozen forever.
  std::vector<std::pair<StmtId, ExprId>> freezing_;
  // This checker's scope token (HelperContext::nextScope).
  uint32_t scope_ = 0;

  // --- frozen dataclasses (tile_check_dataclass.cpp) -------------------------
  // A class named in a kernel (HostValue with a class payload, sema/dataclasses.h).
  TV classValue(const std::string& name, uint32_t payload);
  DataclassInfo classInfo(const TV& cls) const;
  // The class of an instance's type, as this function's scope names it (nullopt: reported).
  std::optional<DataclassInfo> instanceClass(TypeId t, ExprId at);
  // cuTile's rules for using a class (frozen dataclasses; for construction, no custom
  // __init__/__new__, init=False or default_factory fields); false when reported.
  bool classUsable(const DataclassInfo& info, ExprId at, bool constructing);
  // `Cls(args)`: the fields bound as Python's generated __init__ binds them, then the
  // class's `__post_init__(self)` called on the instance (not for `postInit` false: an
  // instance the host built, whose __post_init__ ran there).
  TV checkDataclassCall(ExprId id, const ast::Call& c, const TV& cls, bool postInit = true);
  // `Cls(...)`'s `__post_init__` (method `def`), typed as a method call on the instance
  // `self` built at `id`; recorded at the call's `func` (lowering's postInit).
  bool checkPostInit(ExprId id, const ast::Call& c, StmtId def, const DataclassInfo& info, const TV& self);
  // `obj.field = v` (`+=`) of a dataclass instance: reported as Python's FrozenInstanceError
  // (tile kernels' dataclasses are frozen); false when `target` is no such field.
  bool frozenFieldAssigned(ExprId target);
  // `dataclasses.replace(obj, field=value, ...)`.
  TV checkDataclassReplace(ExprId id, const ast::Call& c);
  bool isDataclassesReplace(ExprId func) const;
  // The instance of `info` whose fields are `fields` (in field order), recorded at `id` for
  // lowering (meanings: HostValue kClassPayload; helperArgs: one piece per field).
  TV buildInstance(ExprId id, const DataclassInfo& info, std::vector<ArgItem>& fields);
  // `Cls(args)` of a class whose `__init__` is a `@static_def` (tile_check_static_def.cpp):
  // its `object.__setattr__(self, "f", v)` statements evaluated on compile-time arguments.
  TV checkStaticDefInit(ExprId id, const ast::Call& c, const DataclassInfo& info);
  // A `@static_def` method called on an instance whose fields are known, with constant
  // arguments: its result, evaluated as the host would (sema/const_eval.h, evalHostMethod).
  TV checkStaticDefMethod(ExprId id, StmtId def, const std::string& name, ExprId selfExpr, const TV& self,
                          const std::vector<ArgItem>& rest);
  // `obj.attr`: a field, a property's value, a bound method, a class constant.
  TV checkInstanceAttribute(ExprId id, const std::string& attr, const TV& base, ExprId value);
  // `d.attr` of a Constant dataclass instance (`--const d=Spot(...)`): a field's value or a
  // class constant.
  TV constInstanceAttribute(ExprId id, const std::string& attr, const ConstValue& d);
  // `Cls.attr`: a class constant or a method called without `self`.
  TV checkClassAttribute(ExprId id, const std::string& attr, const TV& cls);
  uint32_t methodFunction(StmtId def, const std::string& name);
  // A module-level (or enclosing function's) `fb = FooBar(2, 7)` read at `id`: the instance
  // that `call` builds, recorded at `id` as a construction.
  TV globalInstance(ExprId id, ExprId call);
  // print / f-strings of an instance (element `path` of what `root` gives, of type `t`):
  // its class's __str__ (unless `repr`) or __repr__ when written as an f-string of self's
  // fields, else the generated repr (`Foo(x=[0, 1], y=2)`, repr=False fields left out) or
  // `<Foo object>`; false when reported.
  bool printInstance(ExprId root, const std::vector<uint32_t>& path, TypeId t, bool repr,
                     std::vector<TilePrintPiece>& out);
  bool printField(ExprId root, const std::vector<uint32_t>& path, TypeId t, bool repr,
                  std::vector<TilePrintPiece>& out);
  // An f-string being formatted (a custom __format__ is refused there, as cuTile does).
  bool formatting_ = false;
  // A kernel parameter's type with the dataclasses a signature wrote by their fields'
  // types (`Arg(int32, float32)`) named from their classes; nullopt when reported.
  std::optional<TypeId> namedDataclassTypes(TypeId t);
  // The method `def` called at `id` (a Call, or the Attribute/Subscript of a property or a
  // dunder) with `self` (`selfExpr`) and then `rest`.
  TV callMethod(ExprId id, StmtId def, const std::string& name, ExprId selfExpr, const TV& self,
                std::vector<ArgItem> rest);
  // `obj.method(args)` of a bound method value (HostValue payload 3; 4: without self).
  TV checkBoundMethodCall(ExprId id, const ast::Call& c, const TV& method);
  // `obj(args)`, `obj[i]`, `obj[i] = v`: the class's `dunder`, else cuTile's "Cannot `what`".
  TV callDunder(ExprId id, const TV& self, ExprId selfExpr, const char* dunder, std::vector<ArgItem> rest,
                const char* what);
  static bool isBoundMethod(const TV& v) {
    return v.k == TV::K::Entity && v.ent == Intrinsic::HostValue && (v.payload == 3 || v.payload == 4);
  }
  static bool isClassTV(const TV& v) {
    return v.k == TV::K::Entity && v.ent == Intrinsic::HostValue && isClassPayload(v.payload);
  }

  // --- `with` over @contextmanager generators (tile_check_with.cpp) ----------
  // `with cm(args) [as name]: body` (cuTile 1.7's generator-based context managers).
  void checkWith(StmtId id, const ast::With& w);
  // Whether `def` is decorated `@contextmanager` (contextlib's, by any import spelling).
  bool isContextManagerDef(StmtId def) const;
  // A generator's checks before its body is typed: no `return`, exactly one reachable
  // `yield` statement, outside loops and conditionals (into yieldStmt_); false when reported.
  bool findGeneratorYield();
  // `yield [value]` as a statement of the generator being typed.
  void checkYield(StmtId id, ExprId value);
  bool generator_ = false;
  StmtId yieldStmt_;
  TV yielded_;
  TV yieldRaw_;
  TV yieldEnd_;
  bool yieldFailed_ = false;
  // The call a `with` enters (instantiateHelper types it as a generator).
  ExprId withCall_;
  // The calls typed as generators; their yielded values frozen at the generator's end.
  std::map<uint32_t, TV> withEnds_;
  // The `with`s around the statement being checked, innermost last: what each yielded
  // and that value at the generator's end (a `return` leaves after the cleanups).
  std::vector<std::pair<TV, TV>> withStack_;
  // `v` returned from inside `with`s: a yielded closure as its generator leaves it.
  TV afterCleanups(const TV& v);

  // --- compile-time dictionaries (tile_check_dict.cpp) ---------------------
  // `{"a": x, **d}`: keys string constants.
  TV checkDictDisplay(ExprId id, const ast::Dict& d);
  // `d["a"]`, `d.get("a", default=None)`, `"a" in d`, `d == {...}`.
  TV checkDictSubscript(ExprId id, const ast::Subscript& sub, const TV& base);
  // `_op_to_func[AtomicOp(op_id)]`: an entry of a module-level dict display with compile-time
  // keys, by a compile-time key (nullopt when `sub` indexes no such dict).
  std::optional<TV> moduleDictSubscript(ExprId id, const ast::Subscript& sub);
  std::optional<ExprId> moduleDictLiteral(const std::string& name);
  std::optional<TV> checkDictMethod(ExprId id, const ast::Call& c);
  TV compareDicts(ExprId id, CmpOp op, const TV& l, const TV& r);
  // The index of the key `key` gives in `dict` (nullopt: absent); false when reported.
  bool dictKey(const TV& dict, ExprId key, std::optional<size_t>& index, std::string* text = nullptr);
  // Item `i` of `dict` as the value of expression `id`.
  TV dictItem(ExprId id, const TV& dict, size_t i, ExprId keyExpr);
  // Whether two compile-time values are equal (nullopt: not known at compile time).
  std::optional<bool> valuesEqual(const TV& a, const TV& b);
  // The helper's `**kwargs` and dicts bound to names, by name.
  std::map<std::string, TV> dicts_;
  // The dict `name` holds, read at `id`: its run-time values are elements of the tuple
  // the name holds (recorded as `id`'s type).
  TV readDict(ExprId id, const TV& dict);

  // min(a, b, ...), max(...) on scalars (Python's order: the first of equal
  // values; a NaN first stays), abs(x) (as ct.abs), int(x), float(x).
  TV checkBuiltin(ExprId id, const ast::Call& c, const std::string& name);

  // An `axis=` of a reduction: all axes (None or absent), one, or with `tupleAxes` a
  // tuple of distinct axes.
  std::optional<std::vector<bool>> reducedAxes(ExprId axisExpr, const TV& x, bool tupleAxes);

  // A reduction's operand and result shape: `x` a tile (not tfloat32),
  // `axis` None/absent or constant axes (reducedAxes; a tuple for sum, prod, max and
  // min), `keepdims` a constant.
  std::optional<std::pair<TV, std::vector<int64_t>>> reduction(ExprId id, const ast::Call& c,
                                                                const std::string& fname, TileFn fn);
  // A reduction's keyword options (reduction's argument order): constant, on dtypes
  // that have them.
  bool reductionOptions(const std::vector<ExprId>& args, const std::string& fname, TileFn fn, TypeId dtype);

  // ct.argmax / ct.argmin(x, axis=None, keepdims=False): int32 indices
  // (row-major flat indices when axis is None), as NumPy.
  TV checkArgReduce(ExprId id, const ast::Call& c, const std::string& fname, TileFn fn);

  // The error for arithmetic on a tfloat32 or 8-bit float (`dtype`) tile.
  TV tf32Only(ExprId id, TypeId dtype = TypeId());
  // A constant axis of tile `x` (negative counts from the end), in range: as 0..ndim-1.
  std::optional<int64_t> tileAxis(ExprId axisExpr, const TV& x);
  // `left <op> right` at `id` (and ct.floordiv, ct.bitwise_and, ...).
  TV binaryOp(ExprId id, Operator op, ExprId left, ExprId right);

  // A tuple of constant integers (`axes`, `shape`), or nullopt (reported).
  std::optional<std::vector<int64_t>> constInts(ExprId id, const char* what);

  // reshape, permute, transpose, broadcast_to, expand_dims (functions, and
  // the first three as tile methods).
  TV checkShapeOp(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname, ExprId self);
  // ct.extract(x, index, shape): one sub-tile of `shape` of x, `index` counting
  // sub-tiles; ct.cat((x, y), axis): two tiles of one shape joined along `axis`.
  TV checkExtract(ExprId id, const ast::Call& c, const std::string& fname, ExprId self = ExprId());
  TV checkInsert(ExprId id, const ast::Call& c, const std::string& fname, ExprId self = ExprId());
  bool subTileGridOk(ExprId index, ExprId shapeAt, const char* shapeNoun, const TV& x, const std::vector<int64_t>& sub);
  // ct.pack_to_bytes(x) / ct.unpack_from_bytes(x, dtype): a tile's bytes as a 1-D uint8
  // tile and back.
  TV checkBytes(ExprId id, const ast::Call& c, const std::string& fname, bool pack);
  // A string literal or a module's string constant (`what` names it in the error).
  std::optional<std::string> stringConstant(ExprId id, const std::string& what);
  // `msg = f"..."`, `single = "'"`: a text for prints, not a value (strings_).
  // The text of a string expression known at compile time (literals, names bound to
  // constant text, their sums); nullopt otherwise (f-strings).
  std::optional<std::string> constText(ExprId e) const;
  bool isStringExpr(ExprId e) const;
  bool bindString(const ast::Assign& a);
  std::map<std::string, ExprId> strings_;
  // print / ct.print / ct.printf (tile_check_print.cpp): inst_.tilePrints[id].
  TV checkPrint(ExprId id, const ast::Call& c, bool printf, const std::string& fname);
  bool printValue(ExprId e, const std::string& spec, bool repr, std::vector<TilePrintPiece>& out);
  std::optional<std::string> printConversion(ExprId where, const std::string& spec, TypeId t);
  std::optional<std::string> printConstant(ExprId where, const ConstValue& c, const std::string& spec, bool repr);
  std::optional<std::string> printTupleFormat(ExprId where, TypeId t);
  TV checkCat(ExprId id, const ast::Call& c, const std::string& fname);

  static ConstValue constOfShape(const std::vector<int64_t>& shape);

  const Ast& ast_;
  ResolvedModule& module_;
  TypeTable& types_;
  FunctionInstance& inst_;
  DiagnosticSink& diags_;
  // A copy: checking a helper call may append to module_.functions.
  const JitFunction fn_;
  HelperContext& helpers_;
  // Names bound to dtypes or padding modes (`dtype = ct.float16`).
  std::map<std::string, TV> entities_;
  // A helper function: its return statements' values.
  bool helperMode_ = false;
  std::vector<std::pair<TV, NodeRange>> returns_;
  bool returnFailed_ = false;
  // Whether the function stores to memory (then a call is never folded away).
  bool effects_ = false;
  std::map<std::string, TypeId> vars_;
  // The loop/branch depth at which each variable got its current type.
  std::map<std::string, int> depth_;
  int depthNow_ = 0;
  // A runtime block (a branch or a loop body) being checked, one per depth level:
  // variables given another type in it than they held before it (allowed while no
  // join needs both: cuTile's SSA), and for loops what the body reads before it
  // assigns (live at the loop's head, so a new type there would reach the next
  // iteration).
  struct Retyped {
    TypeId before;
    TypeId after;
    ExprId where;
    int depthBefore = 0;
  };
  // What is known at compile time of a run-time value (below, `known_`).
  struct Known {
    std::optional<ConstValue> c;  // a constant element
    std::vector<Known> parts;     // else, for a tuple, its elements
    bool any() const;
  };
  struct Block {
    bool loop = false;
    std::map<std::string, Retyped> retyped;
    std::set<std::string> assigned;
    std::set<std::string> liveIn;
    // A loop's `break`s: what was known at each; whether a `continue` goes round.
    std::vector<std::map<std::string, Known>> breaks;
    bool continues = false;
  };
  // The branch a compile-time `if` took (for alwaysBreaks).
  std::map<uint32_t, bool> foldedIfs_;
  // Whether checked statements always end in `break` (a compile-time `if` by the
  // branch it took): a `while True:` body that runs once.
  bool alwaysBreaks(std::span<const StmtId> body) const;
  std::vector<Block> blocks_;
  // Variables whose type depends on the path taken (retyped in a block that has
  // ended): an error where they are read before being assigned again.
  std::map<std::string, Retyped> ambiguous_;
  void enterBlock(bool loop);
  // Ends the innermost block; returns what it retyped (the caller decides what
  // becomes ambiguous: a branch's twin may agree).
  std::map<std::string, Retyped> leaveBlock();
  void markAmbiguous(const std::map<std::string, Retyped>& retyped);
  void noteRead(const std::string& name);
  bool readAmbiguous(ExprId id, const std::string& name);
  int loopNest_ = 0;  // loops (for, while) around the statement being checked
  std::map<std::string, ConstValue> consts_;
  std::map<std::string, int> assigned_;
  // Names assigned inside a loop or branch body: a constant bound to one of them becomes a
  // run-time variable (the join needs one); a name assigned only in straight-line code
  // keeps each constant it is given (cuTile's SSA: `t = (n + 2) * 3; t = -t`).
  std::set<std::string> nestedAssigned_;
  int countNest_ = 0;
  std::set<std::string> failed_;
  // Views with constant bounds: by `slice` call ExprId index, and by the name holding one
  // in straight-line code, the axis and its extent.
  std::map<uint32_t, std::pair<size_t, int64_t>> sliceExtents_;
  std::map<std::string, std::pair<size_t, int64_t>> viewExtents_;
  TypeId lastOpType_;

  // --- partly constant tuples (tile_check_known.cpp) -------------------------
  // What is known at compile time of a run-time tuple's elements (`tup = (ct.bid(0), 4)`:
  // element 1 is 4), by the name holding it; kept through a run-time if/else where both
  // paths agree (cuTile's constant propagation through its SSA joins).
  std::map<std::string, Known> known_;
  // What is known of the fields of dataclass instances built here, by the building
  // call's ExprId index (tile_check_dataclass.cpp).
  std::map<uint32_t, Known> dataclassKnown_;
  // A Constant element of a tuple parameter (`cfg[0]`, sema/tile_const_elements.h): known.
  void seedKnownElement(const ElementName& element, const ConstValue& v);
  // The compile-time knowledge of expression `e` (already checked).
  Known knownOf(ExprId e) const;
  // After `name = value` (`t` the type now held): what is known of the tuple it holds.
  void noteKnown(const std::string& name, TypeId t, ExprId value);
  // The join of two paths' knowledge: what both know alike.
  static std::map<std::string, Known> meetKnown(const std::map<std::string, Known>& a,
                                                const std::map<std::string, Known>& b);
  // A run-time loop's body may rebind any name assigned in a block: what was known of
  // those no longer holds in it (or after it).
  void forgetLoopKnown();
  static Known meetOne(const Known& a, const Known& b);
  // Element `i` of a tuple expression `base`, when known.
  std::optional<ConstValue> knownElement(ExprId base, size_t i) const;
  // What a shape or strides tuple of an array type knows: its constant extents
  // (strides: the constants and the layout's unit stride).
  Known arrayAttrKnown(TypeId array, bool strides) const;
};

}  // namespace frontend::tile
