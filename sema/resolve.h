#pragma once
// Name resolution over a parsed module: imports and their aliases, module
// constants (folded), and the functions decorated with `cuda.jit` (kernels and
// device functions) with their signatures and options. Host code is parsed
// and otherwise ignored.
#include <cstdint>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "syntax/ast.h"
#include "sema/signature.h"
#include "syntax/source.h"
#include "sema/types.h"

namespace frontend {

class DiagnosticSink;

// A compile-time value: module constants, literals, folded expressions.
struct ConstValue {
  // Enum: a member of a module's `enum.Enum` class (IntEnum members are Ints):
  // `strValue` is `Class.MEMBER`, `intValue` the class's index in
  // ResolvedModule::enums, `elements[0]` the member's value.
  // Dtype: a dtype given as a Constant parameter's value (`--const c=ct.float32`):
  // `intValue` its TypeId's index, `strValue` its name.
  enum class Kind : uint8_t { None, Bool, Int, Float, Str, Tuple, Complex, Enum, Dtype };
  Kind kind = Kind::None;
  bool boolValue = false;
  int64_t intValue = 0;
  // Float: the value; Complex: the real part (`imagValue` the imaginary one).
  double floatValue = 0;
  double imagValue = 0;
  std::string strValue;
  std::vector<ConstValue> elements;
  // A NumPy or numba scalar (`np.float32(0.5)`, `int32(7)`): its type's name,
  // which the constant keeps where kernels use it (numba freezes globals with
  // their types); empty for Python's own numbers (int64, float64).
  std::string scalarType;

  static ConstValue ofBool(bool b) {
    ConstValue v;
    v.kind = Kind::Bool;
    v.boolValue = b;
    return v;
  }
  static ConstValue ofInt(int64_t i) {
    ConstValue v;
    v.kind = Kind::Int;
    v.intValue = i;
    return v;
  }
  static ConstValue ofFloat(double f) {
    ConstValue v;
    v.kind = Kind::Float;
    v.floatValue = f;
    return v;
  }
  static ConstValue ofComplex(double re, double im) {
    ConstValue v;
    v.kind = Kind::Complex;
    v.floatValue = re;
    v.imagValue = im;
    return v;
  }
  // A real number (bool, int or float); complex values are not.
  bool isNumber() const { return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float; }
  // Python's repr (`3`, `2.5`, `True`, `(1, 2)`).
  std::string repr() const;
};

// What a module-level name, an attribute of one, or a builtin refers to when
// it is not a runtime value.
enum class Intrinsic : uint16_t {
  None,
  // Namespaces: only their attributes mean something (`payload` is unused;
  // `path` says which).
  Module,
  // cuda.threadIdx / blockIdx / blockDim / gridDim: `.x/.y/.z` are values.
  ThreadIdx, BlockIdx, BlockDim, GridDim,
  Laneid, Warpsize,
  Grid, Gridsize,
  Syncthreads, SyncthreadsCount, SyncthreadsAnd, SyncthreadsOr, Syncwarp,
  Threadfence, ThreadfenceBlock, ThreadfenceSystem,
  SharedArray, LocalArray,
  // Warp-level and bit intrinsics of numba.cuda.
  ShflSync, ShflUpSync, ShflDownSync, ShflXorSync,
  AllSync, AnySync, EqSync, BallotSync, Activemask, LanemaskLt,
  Popc, Brev, Clz, Ffs, Fma, Cbrt,
  MatchAnySync, MatchAllSync, Selp, Nanosleep,
  // Python's `breakpoint()`: numba-cuda's `brkpt` (stops under cuda-gdb).
  Breakpoint,
  // cuda.const.array_like(<module-level NumPy array literal>).
  ConstArrayLike,
  // cuda.cg.this_grid(), the grid group it returns, and its `.sync`.
  ThisGrid, GridGroup, GridSync,
  AtomicAdd, AtomicSub, AtomicMax, AtomicMin, AtomicAnd, AtomicOr, AtomicXor,
  AtomicExch, AtomicInc, AtomicDec, AtomicCas,
  AtomicNanMax, AtomicNanMin, AtomicCompareAndSwap,  // keep together: isAtomic
  Jit,
  // numba's CPU decorators (`numba.jit`, `numba.njit`): numba-cuda compiles such a
  // function for the device when a kernel calls it, so pykc makes it a device function.
  CpuJit,
  // math.pi/e/tau/inf/nan (also numpy's): payload 0..4.
  MathConst,
  // Python builtins.
  Range, Min, Max, Abs, Len, Round, Int, Float, Bool, Print, Enumerate, Zip, ComplexCtor, Pow,
  // `z.real`, `z.imag` (values) and `z.conjugate` (a bound method) of a number.
  ComplexReal, ComplexImag, ComplexConjugate,
  // `x.view(np.int64)` of an integer or float number: its bits as another number
  // type of the same size (a bound method).
  ScalarView,
  // cmath.<fn>: payload is a CmathFn.
  Cmath,
  // cuda.fp16.<fn>: payload is a Fp16Fn.
  Fp16,
  // cuda.libdevice.<fn>: payload indexes libdevice_functions.def.
  Libdevice,
  // cuda.ldca/ldcg/ldcs/ldlu/ldcv (payload: the operator's index in
  // cacheLoadOperator) and cuda.stcg/stcs/stwb/stwt (cacheStoreOperator).
  CacheLoad, CacheStore,
  // numba.cuda.random's device functions: payload is a RandomFn.
  Random,
  // A CUDA vector type's constructor (`cuda.float32x4`, `cuda.float4`):
  // payload is the vector's TypeId index.
  VectorCtor,
  // math.<fn>: payload is a MathFn.
  Math,
  // NumPy's arithmetic ufuncs on numbers (`np.maximum(a, b)`, `np.add`,
  // `np.sign`): payload is a NumpyFn.
  NumpyFn,
  // A numba/NumPy scalar type used as a value (`float32`, `np.float32`):
  // callable as a cast, and a dtype argument. payload is the TypeId index.
  TypeObject,
  // A decorated function of this module; payload is its index in
  // ResolvedModule::functions.
  Function,
  // A module-level constant; payload indexes ResolvedModule::constants.
  Constant,
  // A module-level NumPy array literal (`np.array([...], dtype=...)`), frozen
  // at compile time as numba does; payload indexes ResolvedModule::constArrays.
  ConstArray,
  // cuda.declare_device (only meaningful at module level).
  DeclareDevice,
  // A function declared with `cuda.declare_device`; payload indexes
  // ResolvedModule::externs.
  ExternFunction,
  // `ffi = cffi.FFI()` at module level, and its `ffi.from_buffer` (an array's
  // data pointer, for declare_device functions).
  CffiFfi, FromBuffer,
  // cuda.tile's kernel decorator, functions, namespaces and PaddingMode
  // members (cuTile Python, docs/TILE.md): payload is a TileFn.
  TileOp,
  // A name bound at module level to something that is not a compile-time
  // constant (host data, classes, undecorated functions): an error in kernels.
  // Payload 1: an undecorated function; 2: a measured scipy.constants value or one
  // computed from it (ResolvedModule::measuredConstants says which).
  HostValue,
  // `enum.Enum` (payload 0) and `enum.IntEnum` (1), as bases of a module's classes.
  EnumBase,
  // A module-level enum class (`class Color(Enum): RED = 0`): payload indexes
  // ResolvedModule::enums; `Color.RED` is a constant, `Color(0)` too.
  EnumClass,
  // A name bound only under a module-level `if` whose condition does not fold
  // (`if Version(x.__version__) >= ...` of another library): payload is the
  // `if`'s line. An error in kernels that use it.
  Conditional,
  // A sibling module imported as an object (`from . import core`) whose attributes
  // were pasted in: payload indexes ResolvedModule::moduleObjects; `core.f` is `f`.
  ModuleObject,
  // A parameter or local variable of a function that makes a kernel (`def test(n):
  // @cuda.jit def k(x): ... n ...`) that pykc cannot fold: payload is the scope
  // (ResolvedModule::scopes). An error in kernels that use it (`-D`, the JIT).
  EnclosingLocal,
};

// numba.cuda's atomic operations (`cuda.atomic.*`), AtomicAdd through
// AtomicCompareAndSwap.
constexpr bool isAtomic(Intrinsic k) {
  return k >= Intrinsic::AtomicAdd && k <= Intrinsic::AtomicCompareAndSwap;
}

// NumPy's ufuncs on numbers that are not math functions (Intrinsic::NumpyFn).
enum class NumpyFn : uint8_t {
  Add, Subtract, Multiply, TrueDivide, FloorDivide, Remainder, Power,
  LeftShift, RightShift, BitwiseAnd, BitwiseOr, BitwiseXor,
  Maximum, Minimum, Fmax, Fmin, Negative, Positive, Square, Sign,
};
// NumpyFn's NumPy name (`add`, ...) and its number of inputs.
std::string_view numpyFnName(NumpyFn fn);
unsigned numpyFnArity(NumpyFn fn);

enum class MathFn : uint8_t {
#define PYKC_MATH(Name, PyName, Arity, Libdevice) Name,
#include "sema/math_functions.def"
};
// The cmath functions pykc compiles.
enum class CmathFn : uint8_t {
  Exp, Log, Log10, Sqrt, Sin, Cos, Tan, Sinh, Cosh, Tanh, Phase, Polar, Rect, Isnan, Isinf,
  Isfinite, Acos, Asin, Atan, Acosh, Asinh, Atanh,
};
std::string_view cmathFnName(CmathFn fn);

// The cuda.fp16 functions (numba-cuda's fp16.py).
enum class Fp16Fn : uint8_t {
  Hadd, Hsub, Hmul, Hdiv, Hneg, Habs, Hfma, Hsin, Hcos, Hlog, Hlog2, Hlog10, Hexp, Hexp2,
  Hexp10, Hsqrt, Hrsqrt, Hrcp, Hceil, Hfloor, Hrint, Htrunc, Heq, Hne, Hgt, Hge, Hlt, Hle,
  Hmax, Hmin,
};
std::string_view fp16FnName(Fp16Fn fn);
unsigned fp16FnArity(Fp16Fn fn);

// numba.cuda.libdevice's functions (libdevice_functions.def), by index.
struct LibdeviceFn {
  std::string_view name;
  // Type codes (libdevice_functions.def): the result and the parameters.
  std::string_view result;
  std::string_view params;
};
std::optional<uint32_t> findLibdeviceFn(std::string_view name);
const LibdeviceFn& libdeviceFn(uint32_t index);
// A libdevice function's types: `params` are the `__nv_` function's
// parameters (`output[k]`: an output pointer to a `params[k]`), `result` its
// result (none for void); `args` and `value` are what Python sees: the
// non-output parameters, and the result followed by the outputs (a tuple
// when there are several).
struct LibdeviceSignature {
  TypeId result;
  std::vector<TypeId> params;
  std::vector<bool> output;
  std::vector<TypeId> args;
  TypeId value;
};
LibdeviceSignature libdeviceSignature(uint32_t index, TypeTable& types);

// numba.cuda.random's device functions (numba-cuda's random.py).
enum class RandomFn : uint8_t {
  Next, Jump, UniformFloat32, UniformFloat64, NormalFloat32, NormalFloat64, InitState,
  ToUnitFloat32, ToUnitFloat64,
};
std::string_view randomFnName(RandomFn fn);

// The PTX cache operators of cuda.ld<op> (0..4: ca cg cs lu cv) and
// cuda.st<op> (0..3: cg cs wb wt).
std::string_view cacheLoadOperator(uint32_t index);
std::string_view cacheStoreOperator(uint32_t index);

std::string_view mathFnName(MathFn fn);
unsigned mathFnArity(MathFn fn);

// A compile-time meaning with the dotted path it was reached by
// (`numba.cuda.threadIdx`), for messages and further attributes.
// A module-level subclass of enum.Enum or enum.IntEnum whose members are constants.
struct EnumClass {
  std::string name;
  bool isInt = false;
  std::vector<std::pair<std::string, ConstValue>> members;
  // Per member, the member it is (itself, or the first of its value: an alias).
  std::vector<size_t> canonical;
  // Member `i` as a constant (an IntEnum's: its int), `index` the class's.
  ConstValue member(size_t i, uint32_t index) const;
};

struct Entity {
  Intrinsic kind = Intrinsic::None;
  uint32_t payload = 0;
  std::string path;
};

// The canonical dotted path of a module/attribute chain, e.g. `numba.cuda.grid`,
// `numpy.float32`, `math.sin`, and its meaning; nullopt when pykc does not
// know `path`. `types` interns type objects.
std::optional<Entity> lookupEntity(std::string_view path, TypeTable& types);

// What a linked file holds, by its extension: `.cu` (CUDA C++, compiled by
// NVRTC), `.ptx`, `.ltoir` (NVRTC -dlto / nvcc -dlto output), `.cubin`,
// `.fatbin`, `.o`, `.a`; nullopt for any other extension.
enum class LinkFileKind : uint8_t { Cuda, Ptx, LtoIr, Cubin, Fatbin, Object, Library };
std::optional<LinkFileKind> linkFileKind(std::string_view path);
// The extensions linkFileKind accepts, for messages: "`.cu`, `.ptx`, ...".
std::string_view linkFileExtensions();

// A file to link (`link=` of cuda.jit or cuda.declare_device): the path
// as written (a relative path is relative to the working directory, as in
// numba-cuda) and where it was written.
struct LinkRef {
  std::string path;
  Location location;
};

// `name = cuda.declare_device("symbol", "ret(args)", link=...)`: a device
// function written in CUDA C++ (or PTX), called with numba's ABI
// (docs/INTEROP.md): `extern "C" __device__ int symbol(ret* out, args...)`.
struct ExternFunction {
  // The Python name it is bound to, and the symbol it calls.
  std::string name;
  std::string symbol;
  TypeId returnType;
  std::vector<TypeId> args;
  std::vector<LinkRef> links;
  // `abi="c"` (numba-cuda-mlir's spelling): `extern "C" __device__ ret
  // symbol(args...)`, the result returned in registers instead of through a
  // local-memory slot (docs/INTEROP.md, "Cost of the call").
  bool cAbi = false;
  // The declare_device call, for messages.
  Location location;
};

// The options of a `@cuda.jit(...)` decorator.
struct JitOptions {
  bool fastmath = false;
  bool lineinfo = false;
  bool debug = false;
  bool opt = true;
  unsigned maxRegisters = 0;
  bool forceinline = false;
  // `link=[...]`: files linked into the module when this kernel is compiled.
  std::vector<LinkRef> links;
};

// One signature given for a function, with where it was written.
struct DeclaredSignature {
  Signature signature;
  Location location;
};

// A `ct.Constant[...]` parameter of a tile kernel: not passed at launch
// (docs/ABI.md); each of its values gives one specialisation.
// A tile kernel's runtime parameter annotated with a Python scalar type
// (`scale: float`, `n: int`, `flag: bool`), as cuTile's samples write them: the
// kind of number it takes; its dtype comes from the signature (docs/TILE.md).
struct TileScalarAnnotation {
  // Index into JitFunction::params.
  uint32_t param = 0;
  // "float", "int" or "bool".
  std::string kind;
  Location location;
};

struct TileConstParam {
  std::string name;
  // The parameter's position among all parameters of the `def`.
  uint32_t position = 0;
  // From `--const NAME=VALUE` (all given), else the default; empty: none given.
  std::vector<ConstValue> values;
  Location location;
  // Its default was reported as invalid (no second report of a missing value).
  bool invalid = false;
};

// The options of `@ct.kernel(...)`, recorded (docs/TILE.md says which act).
struct TileKernelOptions {
  int64_t numCtas = 0;
  int64_t occupancy = 0;
  int64_t optLevel = 3;
  // cuTile's warps per CUDA-core warp group (4 or 8; 0: unset). A hint pykc
  // checks but does not follow: its tile lowering sizes blocks from the tiles.
  int64_t numWorkerWarps = 0;
};

// A parameter's default value (`def f(a, criterion=-1)`): numba passes it where a call
// (or a launch: `--sig` with fewer types) omits the argument, typed as the value is
// (numba's `omitted(default=-1)`: int64 here) and folded into that specialisation.
struct ParamDefault {
  // Index into JitFunction::params.
  uint32_t param = 0;
  // The default as written, for messages.
  ExprId expr;
  // Its value folded at the `def` (module scope); empty where it does not fold to a
  // number, bool, None or tuple of those (an error where a call omits the argument).
  std::optional<ConstValue> value;
};

// A function decorated with `cuda.jit` or `cuda.tile.kernel`.
struct JitFunction {
  std::string name;
  StmtId stmt;
  bool device = false;
  JitOptions options;
  // Explicit signatures (decorator, annotations, --sig), in order given.
  std::vector<DeclaredSignature> signatures;
  // Some signature was written (even if it was rejected).
  bool signatureGiven = false;
  // The parameters passed at launch, in order (a tile kernel's Constant
  // parameters are in `tileConsts` instead).
  std::vector<std::string> params;
  // The defaults of the trailing parameters, in parameter order (SIMT functions).
  std::vector<ParamDefault> defaults;
  // The default of parameter `param`, or null when it has none.
  const ParamDefault* defaultOf(size_t param) const {
    for (const ParamDefault& d : defaults) {
      if (d.param == param) return &d;
    }
    return nullptr;
  }
  // The `def` line's location (the name), for messages.
  Location location;
  // `@ct.kernel`: a cuTile Python tile kernel (docs/TILE.md).
  bool tile = false;
  // A plain module-level `def` that a tile kernel calls (docs/TILE.md,
  // "Helper functions"): added by check (with `tile` and `device` set), typed
  // per call site and inlined there; never compiled on its own.
  bool tileHelper = false;
  // A tile helper that is a function defined inside a kernel or helper (a closure,
  // docs/TILE.md "Closures"): its parameters are its own, then the names it captures
  // (`captures` of them). `lambda`: a lambda's expression (then `stmt` is invalid).
  bool closure = false;
  uint32_t captures = 0;
  ExprId lambda;
  TileKernelOptions tileOptions;
  std::vector<TileConstParam> tileConsts;
  std::vector<TileScalarAnnotation> tileScalarAnnotations;
  // The names its body sees beyond its own: 0 the module's; k > 0 those of
  // ResolvedModule::scopes[k - 1] first (a kernel made inside a function).
  uint32_t scope = 0;
};

struct ResolveOptions {
  // `-D NAME=VALUE`: constants that replace (or add) module constants,
  // already parsed.
  std::vector<std::pair<std::string, ConstValue>> defines;
  // `-D NAME=PATH` naming what the file imports (`-D reduce_op=ct.max`, `-D
  // dtype=torch.float16`): NAME means that (a parameter of a kernel factory).
  std::vector<std::pair<std::string, std::string>> definePaths;
  // `--const NAME=C.MEMBER` / `--const KERNEL.NAME=ct.float32`: a module's enum member or
  // a dtype the file names, resolved against the module.
  std::vector<std::pair<std::string, std::string>> constPaths;
  // `--sig 'name(types)'`: signatures added to the named functions.
  std::vector<std::string> sigs;
  // `--const NAME=VALUE`: values of tile kernels' Constant parameters named
  // NAME (repeatable: one specialisation per value); `KERNEL.NAME=VALUE` for
  // kernel KERNEL alone (it then replaces the file-wide values there).
  std::vector<std::pair<std::string, ConstValue>> consts;
  // Only these kernels will be checked (CheckOptions::kernels): a kernel
  // outside them without types is not an error. Empty: all.
  std::vector<std::string> kernels;
  // Sibling modules imported as objects (`from . import core`) whose attributes the
  // file reads were pasted in (driver/sibling_modules.h): the name bound to each and
  // the attribute names pasted. `core.f` then means the pasted `f`.
  std::map<std::string, std::set<std::string>> moduleObjects;
  // Decorators imported from the project's own modules (`from fbpic.utils.cuda import
  // compile_cupy`), by the name bound here: empty when the definition only applies
  // `cuda.jit` to the function (driver/sibling_modules.h, jitWrapperImports), so the name
  // means `cuda.jit`; else where it is defined (`path:line`), for the warning that the
  // functions it decorates are not compiled.
  std::map<std::string, std::string> projectDecorators;
};

// A module-level array literal: `NAME = np.array([[1, 2], [3, 4]], dtype=np.float32)`.
struct ConstArrayData {
  std::string name;
  TypeId element;
  std::vector<int64_t> shape;
  // The elements in C order.
  std::vector<ConstValue> values;
};

// The module as kernels see it.
struct ResolvedModule {
  TypeTable types;
  std::vector<ConstArrayData> constArrays;
  // Module-level names, by name (sorted: deterministic).
  std::map<std::string, Entity> globals;
  std::vector<ConstValue> constants;
  std::vector<EnumClass> enums;
  // Decorated functions in source order.
  std::vector<JitFunction> functions;
  // Sibling modules imported as objects (Intrinsic::ModuleObject's payload): the names
  // of each that were pasted into this file (ResolveOptions::moduleObjects).
  std::vector<std::set<std::string>> moduleObjects;
  // Names bound to a measured scipy.constants value or computed from one (HostValue
  // payload 2): the scipy.constants name, and the name whose `-D` gives the value
  // (`m_e` for `INV_MC = 1. / (m_e * c)`; `r_e` for `r_e = physical_constants[...][0]`).
  struct MeasuredConstant {
    std::string scipyName;
    std::string defineName;
  };
  std::map<std::string, MeasuredConstant> measuredConstants;
  // cuda.declare_device functions in source order.
  std::vector<ExternFunction> externs;
  // Undecorated module-level functions (tile helpers), by name.
  std::map<std::string, StmtId> plainDefs;
  // The names a kernel made inside functions sees there (`pykc compile --kernel
  // test.kernel`): the enclosing functions' names that differ from the module's.
  struct Scope {
    std::string function;  // the innermost enclosing function (`test`)
    StmtId outermost;      // the module-level statement that holds the kernel (its source enters cache keys)
    std::map<std::string, Entity> names;
    std::map<std::string, StmtId> plainDefs;
  };
  std::vector<Scope> scopes;

  // `name` as code in `scope` (JitFunction::scope) sees it; null when unbound.
  const Entity* lookup(const std::string& name, uint32_t scope) const {
    if (scope > 0) {
      const Scope& s = scopes[scope - 1];
      if (auto it = s.names.find(name); it != s.names.end()) return &it->second;
    }
    auto it = globals.find(name);
    return it == globals.end() ? nullptr : &it->second;
  }
  // The undecorated function `name` as `scope` sees it (a tile helper).
  std::optional<StmtId> plainDef(const std::string& name, uint32_t scope) const {
    if (scope > 0) {
      const Scope& s = scopes[scope - 1];
      if (auto it = s.plainDefs.find(name); it != s.plainDefs.end()) return it->second;
      if (s.names.count(name)) return std::nullopt;
    }
    auto it = plainDefs.find(name);
    return it == plainDefs.end() ? std::nullopt : std::optional<StmtId>(it->second);
  }
};

// Resolves `ast`'s module level. Reports bad decorators, signatures and
// options to `diags`; always returns a module (check with diags.hasErrors()).
// `ast` (and its SourceFile) must outlive the result's locations.
ResolvedModule resolveModule(const Ast& ast, const ResolveOptions& options,
                             DiagnosticSink& diags);

// Folds `expr` into a constant using `module`'s globals; nullopt when it is not
// a compile-time constant (nothing is reported).
std::optional<ConstValue> foldConstant(const Ast& ast, ExprId expr, const ResolvedModule& module);

// A function's names as constant folding sees them: its locals hide the module's
// names; those in `values` have a compile-time value. `scope` is JitFunction::scope.
struct FoldScope {
  const std::set<std::string>& locals;
  const std::map<std::string, ConstValue>& values;
  uint32_t scope = 0;
};
// foldConstant inside a function (`scope` must outlive the call).
std::optional<ConstValue> foldConstant(const Ast& ast, ExprId expr, const ResolvedModule& module,
                                       const FoldScope& scope);

// Constant folding with Python's semantics on int64/float64/bool values;
// nullopt when the operation is not defined or overflows int64.
std::optional<ConstValue> foldBinary(Operator op, const ConstValue& a, const ConstValue& b);
// An integer literal's value as numba types it: int64, else uint64 (2**63 to
// 2**64 - 1, its bits kept, scalarType "uint64"), else nullopt (too large).
std::optional<ConstValue> integerLiteral(const ConstantValue& c);
std::optional<ConstValue> foldUnary(UnaryOpKind op, const ConstValue& a);
std::optional<ConstValue> foldCompare(CmpOp op, const ConstValue& a, const ConstValue& b);
// Python's truth value of a constant.
bool truthOf(const ConstValue& v);
// The type of a constant (int64, float64, bool, tuples of those), or nullopt
// for strings and None.
std::optional<TypeId> typeOfConstant(const ConstValue& v, TypeTable& types);
// The value of math.pi/e/tau/inf/nan by MathConst payload; for cmath.infj and
// cmath.nanj (complex128 values) the imaginary part.
double mathConstValue(uint32_t payload);
bool isComplexMathConst(uint32_t payload);
// Whether `path` is one of scipy.constants' measured values (`scipy.constants.m_e`,
// `...physical_constants`), whose digits depend on the SciPy release (CODATA 2018 until
// SciPy 1.14, CODATA 2022 since 1.15): pykc asks for them with `-D`.
bool isMeasuredScipyConstant(std::string_view path);

// The location of a node of `ast` (1-based column, length clipped to the line).
Location locationOf(const Ast& ast, const NodeRange& range);

// Evaluates a type expression written in Python (`float32[::1]`,
// `numba.int64`, `np.float32`, `"float32[:, :]"`) in module scope; nullopt
// (after reporting to `diags`) when it is not a type.
std::optional<TypeId> evalTypeExpr(const Ast& ast, ExprId expr, ResolvedModule& module,
                                   DiagnosticSink& diags);

}  // namespace frontend
