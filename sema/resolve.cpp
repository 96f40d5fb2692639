#include "sema/resolve.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <set>

#include "diagnostics/diagnostics.h"
#include "sema/tile/tile_ops.h"

namespace frontend {

namespace {

struct MathEntry {
  std::string_view name;
  unsigned arity;
};
constexpr MathEntry kMathFns[] = {
#define PYKC_MATH(Name, PyName, Arity, Libdevice) {PyName, Arity},
#include "sema/math_functions.def"
};

struct NamedIntrinsic {
  std::string_view name;
  Intrinsic kind;
};

constexpr NamedIntrinsic kCudaAttributes[] = {
    {"threadIdx", Intrinsic::ThreadIdx},
    {"blockIdx", Intrinsic::BlockIdx},
    {"blockDim", Intrinsic::BlockDim},
    {"gridDim", Intrinsic::GridDim},
    {"laneid", Intrinsic::Laneid},
    {"warpsize", Intrinsic::Warpsize},
    {"grid", Intrinsic::Grid},
    {"gridsize", Intrinsic::Gridsize},
    {"syncthreads", Intrinsic::Syncthreads},
    {"syncthreads_count", Intrinsic::SyncthreadsCount},
    {"syncthreads_and", Intrinsic::SyncthreadsAnd},
    {"syncthreads_or", Intrinsic::SyncthreadsOr},
    {"syncwarp", Intrinsic::Syncwarp},
    {"threadfence", Intrinsic::Threadfence},
    {"threadfence_block", Intrinsic::ThreadfenceBlock},
    {"threadfence_system", Intrinsic::ThreadfenceSystem},
    {"jit", Intrinsic::Jit},
    {"declare_device", Intrinsic::DeclareDevice},
    {"shared", Intrinsic::Module},
    {"local", Intrinsic::Module},
    {"atomic", Intrinsic::Module},
    {"cg", Intrinsic::Module},
    {"shfl_sync", Intrinsic::ShflSync},
    {"shfl_up_sync", Intrinsic::ShflUpSync},
    {"shfl_down_sync", Intrinsic::ShflDownSync},
    {"shfl_xor_sync", Intrinsic::ShflXorSync},
    {"all_sync", Intrinsic::AllSync},
    {"any_sync", Intrinsic::AnySync},
    {"eq_sync", Intrinsic::EqSync},
    {"ballot_sync", Intrinsic::BallotSync},
    {"activemask", Intrinsic::Activemask},
    {"lanemask_lt", Intrinsic::LanemaskLt},
    {"popc", Intrinsic::Popc},
    {"brev", Intrinsic::Brev},
    {"clz", Intrinsic::Clz},
    {"ffs", Intrinsic::Ffs},
    {"fma", Intrinsic::Fma},
    {"cbrt", Intrinsic::Cbrt},
    {"match_any_sync", Intrinsic::MatchAnySync},
    {"match_all_sync", Intrinsic::MatchAllSync},
    {"selp", Intrinsic::Selp},
    {"nanosleep", Intrinsic::Nanosleep},
    {"const", Intrinsic::Module},
    {"fp16", Intrinsic::Module},
    {"libdevice", Intrinsic::Module},
};

constexpr NamedIntrinsic kAtomics[] = {
    {"add", Intrinsic::AtomicAdd}, {"sub", Intrinsic::AtomicSub},
    {"max", Intrinsic::AtomicMax}, {"min", Intrinsic::AtomicMin},
    {"and_", Intrinsic::AtomicAnd}, {"or_", Intrinsic::AtomicOr},
    {"xor", Intrinsic::AtomicXor}, {"exch", Intrinsic::AtomicExch},
    {"inc", Intrinsic::AtomicInc}, {"dec", Intrinsic::AtomicDec},
    {"cas", Intrinsic::AtomicCas}, {"compare_and_swap", Intrinsic::AtomicCompareAndSwap},
    {"nanmax", Intrinsic::AtomicNanMax}, {"nanmin", Intrinsic::AtomicNanMin},
};

// infj and nanj (payloads 5, 6) are cmath's complex constants.
constexpr std::string_view kMathConsts[] = {"pi", "e", "tau", "inf", "nan", "infj", "nanj"};

constexpr std::string_view kCmathFns[] = {
    "exp", "log", "log10", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "phase", "polar",
    "rect", "isnan", "isinf", "isfinite", "acos", "asin", "atan", "acosh", "asinh", "atanh",
};

Entity make(Intrinsic kind, std::string_view path, uint32_t payload = 0) {
  return Entity{kind, payload, std::string(path)};
}

}  // namespace

std::string_view cmathFnName(CmathFn fn) { return kCmathFns[static_cast<unsigned>(fn)]; }

namespace {
constexpr std::string_view kFp16Fns[] = {
    "hadd", "hsub", "hmul", "hdiv", "hneg", "habs", "hfma", "hsin", "hcos", "hlog",
    "hlog2", "hlog10", "hexp", "hexp2", "hexp10", "hsqrt", "hrsqrt", "hrcp", "hceil", "hfloor",
    "hrint", "htrunc", "heq", "hne", "hgt", "hge", "hlt", "hle", "hmax", "hmin",
};
}  // namespace

std::string_view fp16FnName(Fp16Fn fn) { return kFp16Fns[static_cast<unsigned>(fn)]; }

unsigned fp16FnArity(Fp16Fn fn) {
  switch (fn) {
    case Fp16Fn::Hadd: case Fp16Fn::Hsub: case Fp16Fn::Hmul: case Fp16Fn::Hdiv:
    case Fp16Fn::Heq: case Fp16Fn::Hne: case Fp16Fn::Hgt: case Fp16Fn::Hge:
    case Fp16Fn::Hlt: case Fp16Fn::Hle: case Fp16Fn::Hmax: case Fp16Fn::Hmin:
      return 2;
    case Fp16Fn::Hfma:
      return 3;
    default:
      return 1;
  }
}

namespace {
constexpr LibdeviceFn kLibdeviceFns[] = {
#define PYKC_LIBDEVICE(Name, Result, Params) {#Name, Result, Params},
#include "sema/libdevice_functions.def"
};
}  // namespace

namespace {
constexpr std::string_view kCacheLoads[] = {"ca", "cg", "cs", "lu", "cv"};
constexpr std::string_view kCacheStores[] = {"cg", "cs", "wb", "wt"};
}  // namespace

namespace {
constexpr std::string_view kRandomFns[] = {
    "xoroshiro128p_next", "xoroshiro128p_jump", "xoroshiro128p_uniform_float32",
    "xoroshiro128p_uniform_float64", "xoroshiro128p_normal_float32",
    "xoroshiro128p_normal_float64", "init_xoroshiro128p_state", "uint64_to_unit_float32",
    "uint64_to_unit_float64",
};
}  // namespace

std::string_view randomFnName(RandomFn fn) { return kRandomFns[static_cast<unsigned>(fn)]; }

std::string_view cacheLoadOperator(uint32_t index) { return kCacheLoads[index]; }
std::string_view cacheStoreOperator(uint32_t index) { return kCacheStores[index]; }

std::optional<uint32_t> findLibdeviceFn(std::string_view name) {
  // The table is sorted by name.
  const LibdeviceFn* end = std::end(kLibdeviceFns);
  const LibdeviceFn* it = std::lower_bound(
      std::begin(kLibdeviceFns), end, name,
      [](const LibdeviceFn& f, std::string_view n) { return f.name < n; });
  if (it == end || it->name != name) return std::nullopt;
  return static_cast<uint32_t>(it - std::begin(kLibdeviceFns));
}

const LibdeviceFn& libdeviceFn(uint32_t index) { return kLibdeviceFns[index]; }

LibdeviceSignature libdeviceSignature(uint32_t index, TypeTable& types) {
  auto typeOf = [&](char code) {
    switch (code) {
      case 'i': return types.int32();
      case 'l': return types.int64();
      case 's': return types.intType(16, true);
      case 'f': return types.float32();
      case 'd': return types.float64();
      default: return types.none();
    }
  };
  const LibdeviceFn& fn = kLibdeviceFns[index];
  LibdeviceSignature sig;
  sig.result = typeOf(fn.result[0]);
  std::vector<TypeId> values;
  if (!types.isNone(sig.result)) values.push_back(sig.result);
  for (size_t k = 0; k < fn.params.size(); ++k) {
    bool output = fn.params[k] == '*';
    if (output) ++k;
    TypeId t = typeOf(fn.params[k]);
    sig.params.push_back(t);
    sig.output.push_back(output);
    if (output) {
      values.push_back(t);
    } else {
      sig.args.push_back(t);
    }
  }
  sig.value = values.size() == 1 ? values[0] : types.tuple(values);
  return sig;
}

std::string_view mathFnName(MathFn fn) { return kMathFns[static_cast<unsigned>(fn)].name; }
unsigned mathFnArity(MathFn fn) { return kMathFns[static_cast<unsigned>(fn)].arity; }

bool isComplexMathConst(uint32_t payload) { return payload >= 5; }

double mathConstValue(uint32_t payload) {
  switch (payload) {
    case 5:  // infj: the imaginary part
      return std::numeric_limits<double>::infinity();
    case 0:
      return M_PI;
    case 1:
      return M_E;
    case 2:
      return 2 * M_PI;
    case 3:
      return std::numeric_limits<double>::infinity();
    default:
      return std::numeric_limits<double>::quiet_NaN();
  }
}

namespace {
// numba-cuda's vector types: `<dtype>x<n>` for the 10 integer and float
// dtypes and n = 1..4, and CUDA's aliases (`float4`, `int2`, `uchar3`, ...:
// long is 64-bit, as on Linux).
std::optional<TypeId> vectorTypeByName(TypeTable& types, std::string_view name) {
  if (name.empty() || name.back() < '1' || name.back() > '4') return std::nullopt;
  unsigned count = static_cast<unsigned>(name.back() - '0');
  std::string_view base = name.substr(0, name.size() - 1);
  static constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
      {"char", "int8"},       {"short", "int16"},     {"int", "int32"},
      {"long", "int64"},      {"longlong", "int64"},  {"uchar", "uint8"},
      {"ushort", "uint16"},   {"uint", "uint32"},     {"ulong", "uint64"},
      {"ulonglong", "uint64"}, {"float", "float32"},  {"double", "float64"},
  };
  for (const auto& [alias, dtype] : kAliases) {
    if (base == alias) {
      base = dtype;
      break;
    }
  }
  if (base.ends_with("x")) {
    base.remove_suffix(1);
  } else if (base.find_first_of("0123456789") != std::string_view::npos &&
             base != "int8" && base != "int16" && base != "int32" && base != "int64" &&
             base != "uint8" && base != "uint16" && base != "uint32" && base != "uint64" &&
             base != "float32" && base != "float64") {
    return std::nullopt;
  }
  // Only the aliases may omit the `x` (`float32x4`, never `float324`).
  bool alias = std::any_of(std::begin(kAliases), std::end(kAliases),
                           [&](const auto& a) { return name.substr(0, name.size() - 1) == a.first; });
  if (!alias && !name.substr(0, name.size() - 1).ends_with("x")) return std::nullopt;
  static constexpr std::string_view kBases[] = {"int8",   "int16",  "int32",  "int64",
                                                "uint8",  "uint16", "uint32", "uint64",
                                                "float32", "float64"};
  if (std::find(std::begin(kBases), std::end(kBases), base) == std::end(kBases)) {
    return std::nullopt;
  }
  auto element = scalarTypeByName(types, base);
  if (!element) return std::nullopt;
  return types.vector(*element, count);
}
}  // namespace

std::optional<Entity> lookupEntity(std::string_view path, TypeTable& types) {
  // cuTile Python (docs/TILE.md): `import cuda.tile as ct`.
  if (path == "cuda" || path == "cuda.tile") return make(Intrinsic::Module, path);
  if (path.substr(0, 10) == "cuda.tile.") {
    std::string_view rest = path.substr(10);
    // Enum members: `cuda.tile.PaddingMode.ZERO`, `...MemoryOrder.RELAXED`.
    if (size_t dot = rest.find('.'); dot != std::string_view::npos) {
      auto ns = tileFnByName(rest.substr(0, dot));
      if (!ns) return std::nullopt;
      if (auto fn = tileMemberByName(*ns, rest.substr(dot + 1))) {
        return make(Intrinsic::TileOp, path, static_cast<uint32_t>(*fn));
      }
      return std::nullopt;
    }
    if (auto fn = tileFnByName(rest)) return make(Intrinsic::TileOp, path, static_cast<uint32_t>(*fn));
    if (rest == "bool_") return make(Intrinsic::TypeObject, path, types.boolean().index);
    if (rest == "bfloat16") return make(Intrinsic::TypeObject, path, types.bfloat16().index);
    if (rest == "tfloat32") return make(Intrinsic::TypeObject, path, types.tfloat32().index);
    if (rest.find('.') == std::string_view::npos) {
      if (auto t = scalarTypeByName(types, rest)) {
        return make(Intrinsic::TypeObject, path, t->index);
      }
    }
    return std::nullopt;
  }
  if (path == "numba" || path == "numba.cuda" || path == "math" || path == "numpy" ||
      path == "cmath" ||
      path == "numba.types" || path == "numba.core" || path == "numba.core.types" ||
      path == "numba.cuda.shared" || path == "numba.cuda.local" ||
      path == "numba.cuda.atomic" || path == "numba.cuda.cg" || path == "numba.cuda.const" ||
      path == "numba.cuda.fp16" || path == "numba.cuda.libdevice" ||
      path == "numba.cuda.random" ||
      // Record dtypes are built at module level with these (resolve reads them).
      path == "numba.from_dtype" || path == "numba.np.numpy_support.from_dtype" ||
      path == "numpy.dtype" || path == "cffi" || path == "cffi.FFI" || path == "os" ||
      path == "os.path") {
    return make(Intrinsic::Module, path);
  }
  auto lastDot = path.rfind('.');
  if (lastDot == std::string_view::npos) {
    return std::nullopt;
  }
  std::string_view parent = path.substr(0, lastDot);
  std::string_view attr = path.substr(lastDot + 1);
  if (parent == "numba.cuda") {
    for (const NamedIntrinsic& n : kCudaAttributes) {
      if (n.name == attr) return make(n.kind, path);
    }
    if (auto vector = vectorTypeByName(types, attr)) {
      return make(Intrinsic::VectorCtor, path, vector->index);
    }
    if (attr.size() == 4 && attr.starts_with("ld")) {
      for (uint32_t i = 0; i < std::size(kCacheLoads); ++i) {
        if (kCacheLoads[i] == attr.substr(2)) return make(Intrinsic::CacheLoad, path, i);
      }
    }
    if (attr.size() == 4 && attr.starts_with("st")) {
      for (uint32_t i = 0; i < std::size(kCacheStores); ++i) {
        if (kCacheStores[i] == attr.substr(2)) return make(Intrinsic::CacheStore, path, i);
      }
    }
  }
  if (parent == "numba.cuda.shared" && attr == "array") {
    return make(Intrinsic::SharedArray, path);
  }
  if (parent == "numba.cuda.local" && attr == "array") {
    return make(Intrinsic::LocalArray, path);
  }
  if (parent == "numba.cuda.const" && attr == "array_like") {
    return make(Intrinsic::ConstArrayLike, path);
  }
  if (parent == "numba.cuda.cg" && attr == "this_grid") {
    return make(Intrinsic::ThisGrid, path);
  }
  if (parent == "numba.cuda.atomic") {
    for (const NamedIntrinsic& n : kAtomics) {
      if (n.name == attr) return make(n.kind, path);
    }
  }
  if (parent == "numba.cuda.fp16") {
    for (uint32_t i = 0; i < std::size(kFp16Fns); ++i) {
      if (kFp16Fns[i] == attr) return make(Intrinsic::Fp16, path, i);
    }
  }
  if (parent == "numba.cuda.random" &&
      (attr == "xoroshiro128p_type" || attr == "xoroshiro128p_dtype")) {
    // np.dtype([('s0', np.uint64), ('s1', np.uint64)], align=True).
    TypeId u64 = types.uint64();
    return make(Intrinsic::TypeObject, path,
                makeRecord(types, {{"s0", u64}, {"s1", u64}}, true).index);
  }
  if (parent == "numba.cuda.random") {
    for (uint32_t i = 0; i < std::size(kRandomFns); ++i) {
      if (kRandomFns[i] == attr) return make(Intrinsic::Random, path, i);
    }
  }
  if (parent == "numba.cuda.libdevice") {
    if (auto index = findLibdeviceFn(attr)) return make(Intrinsic::Libdevice, path, *index);
  }
  if (parent == "cmath") {
    for (uint32_t i = 0; i < std::size(kCmathFns); ++i) {
      if (kCmathFns[i] == attr) return make(Intrinsic::Cmath, path, i);
    }
  }
  if (parent == "math" || parent == "numpy" || parent == "cmath") {
    for (uint32_t i = 0; i < std::size(kMathConsts); ++i) {
      if (kMathConsts[i] == attr && !(parent == "numpy" && attr == "tau") &&
          !(parent != "cmath" && isComplexMathConst(i))) {
        return make(Intrinsic::MathConst, path, i);
      }
    }
  }
  if (parent == "math") {
    for (uint32_t i = 0; i < std::size(kMathFns); ++i) {
      if (kMathFns[i].name == attr) return make(Intrinsic::Math, path, i);
    }
  }
  if (parent == "numba" || parent == "numba.types" || parent == "numba.core.types" ||
      parent == "numpy") {
    if (parent == "numba" && attr == "types") return make(Intrinsic::Module, "numba.types");
    if (parent == "numba" && attr == "cuda") return make(Intrinsic::Module, "numba.cuda");
    if (parent == "numpy" && (attr == "bool" || attr == "float" || attr == "int")) {
      // NumPy 2 names: np.bool is bool_; np.float/np.int do not exist.
      if (attr != "bool") return std::nullopt;
    }
    if (auto t = scalarTypeByName(types, attr)) {
      return make(Intrinsic::TypeObject, path, t->index);
    }
  }
  return std::nullopt;
}

std::optional<LinkFileKind> linkFileKind(std::string_view path) {
  struct Extension {
    std::string_view suffix;
    LinkFileKind kind;
  };
  static constexpr Extension kExtensions[] = {
      {".cu", LinkFileKind::Cuda},       {".ptx", LinkFileKind::Ptx},
      {".ltoir", LinkFileKind::LtoIr},   {".cubin", LinkFileKind::Cubin},
      {".fatbin", LinkFileKind::Fatbin}, {".o", LinkFileKind::Object},
      {".a", LinkFileKind::Library},
  };
  for (const Extension& e : kExtensions) {
    if (path.size() > e.suffix.size() && path.ends_with(e.suffix)) return e.kind;
  }
  return std::nullopt;
}

std::string_view linkFileExtensions() {
  return "`.cu`, `.ptx`, `.ltoir`, `.cubin`, `.fatbin`, `.o` and `.a`";
}

std::string ConstValue::repr() const {
  switch (kind) {
    case Kind::None:
      return "None";
    case Kind::Bool:
      return boolValue ? "True" : "False";
    case Kind::Int:
      return std::to_string(intValue);
    case Kind::Float: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", floatValue);
      return buf;
    }
    case Kind::Str:
      return "'" + strValue + "'";
    case Kind::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < elements.size(); ++i) {
        s += (i ? ", " : "") + elements[i].repr();
      }
      if (elements.size() == 1) s += ",";
      return s + ")";
    }
  }
  return "?";
}

Location locationOf(const Ast& ast, const NodeRange& range) {
  const SourceFile* source = ast.source();
  if (source == nullptr || range.lineno == 0 || range.lineno > source->lineCount()) {
    return Location{};
  }
  std::string_view line = source->lineText(range.lineno);
  uint32_t column = range.colOffset + 1;
  uint32_t end = range.endLineno == range.lineno ? range.endColOffset
                                                 : static_cast<uint32_t>(line.size());
  uint32_t length = end > range.colOffset ? end - range.colOffset : 1;
  return source->location(range.lineno, column, length);
}

// --- constant folding ---------------------------------------------------------

namespace {

bool asNumber(const ConstValue& v, bool& isFloat, int64_t& i, double& f) {
  switch (v.kind) {
    case ConstValue::Kind::Bool:
      isFloat = false;
      i = v.boolValue ? 1 : 0;
      f = static_cast<double>(i);
      return true;
    case ConstValue::Kind::Int:
      isFloat = false;
      i = v.intValue;
      f = static_cast<double>(i);
      return true;
    case ConstValue::Kind::Float:
      isFloat = true;
      f = v.floatValue;
      return true;
    default:
      return false;
  }
}

int64_t floorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t floorModInt(int64_t a, int64_t b) {
  int64_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

}  // namespace

std::optional<ConstValue> foldBinary(Operator op, const ConstValue& a, const ConstValue& b) {
  if (a.kind == ConstValue::Kind::Tuple && b.kind == ConstValue::Kind::Tuple &&
      op == Operator::Add) {
    ConstValue t = a;
    t.elements.insert(t.elements.end(), b.elements.begin(), b.elements.end());
    return t;
  }
  bool af, bf;
  int64_t ai = 0, bi = 0;
  double ad = 0, bd = 0;
  if (!asNumber(a, af, ai, ad) || !asNumber(b, bf, bi, bd)) {
    return std::nullopt;
  }
  bool bothBool = a.kind == ConstValue::Kind::Bool && b.kind == ConstValue::Kind::Bool;
  if (!af && !bf) {
    int64_t r = 0;
    switch (op) {
      case Operator::Add:
        if (__builtin_add_overflow(ai, bi, &r)) return std::nullopt;
        return ConstValue::ofInt(r);
      case Operator::Sub:
        if (__builtin_sub_overflow(ai, bi, &r)) return std::nullopt;
        return ConstValue::ofInt(r);
      case Operator::Mult:
        if (__builtin_mul_overflow(ai, bi, &r)) return std::nullopt;
        return ConstValue::ofInt(r);
      case Operator::Div:
        if (bi == 0) return std::nullopt;
        return ConstValue::ofFloat(static_cast<double>(ai) / static_cast<double>(bi));
      case Operator::FloorDiv:
        if (bi == 0 || (ai == INT64_MIN && bi == -1)) return std::nullopt;
        return ConstValue::ofInt(floorDivInt(ai, bi));
      case Operator::Mod:
        if (bi == 0 || (ai == INT64_MIN && bi == -1)) return std::nullopt;
        return ConstValue::ofInt(floorModInt(ai, bi));
      case Operator::Pow: {
        if (bi < 0) return ConstValue::ofFloat(std::pow(static_cast<double>(ai), static_cast<double>(bi)));
        int64_t result = 1;
        for (int64_t k = 0; k < bi; ++k) {
          if (__builtin_mul_overflow(result, ai, &result)) return std::nullopt;
          if (result == 0 || result == 1) break;
        }
        return ConstValue::ofInt(result);
      }
      case Operator::LShift:
        if (bi < 0 || bi >= 63) return std::nullopt;
        if (ai != 0 && (ai > (INT64_MAX >> bi) || ai < (INT64_MIN >> bi))) return std::nullopt;
        return ConstValue::ofInt(static_cast<int64_t>(static_cast<uint64_t>(ai) << bi));
      case Operator::RShift:
        if (bi < 0) return std::nullopt;
        return ConstValue::ofInt(bi >= 64 ? (ai < 0 ? -1 : 0) : (ai >> bi));
      case Operator::BitAnd:
        return bothBool ? ConstValue::ofBool(ai & bi) : ConstValue::ofInt(ai & bi);
      case Operator::BitOr:
        return bothBool ? ConstValue::ofBool(ai | bi) : ConstValue::ofInt(ai | bi);
      case Operator::BitXor:
        return bothBool ? ConstValue::ofBool(ai ^ bi) : ConstValue::ofInt(ai ^ bi);
      case Operator::MatMult:
        return std::nullopt;
    }
    return std::nullopt;
  }
  switch (op) {
    case Operator::Add:
      return ConstValue::ofFloat(ad + bd);
    case Operator::Sub:
      return ConstValue::ofFloat(ad - bd);
    case Operator::Mult:
      return ConstValue::ofFloat(ad * bd);
    case Operator::Div:
      if (bd == 0) return std::nullopt;
      return ConstValue::ofFloat(ad / bd);
    case Operator::FloorDiv:
      if (bd == 0) return std::nullopt;
      return ConstValue::ofFloat(std::floor(ad / bd));
    case Operator::Mod: {
      if (bd == 0) return std::nullopt;
      double m = std::fmod(ad, bd);
      if (m != 0 && ((m < 0) != (bd < 0))) m += bd;
      return ConstValue::ofFloat(m);
    }
    case Operator::Pow:
      return ConstValue::ofFloat(std::pow(ad, bd));
    default:
      return std::nullopt;
  }
}

std::optional<ConstValue> foldUnary(UnaryOpKind op, const ConstValue& a) {
  if (op == UnaryOpKind::Not) {
    return ConstValue::ofBool(!truthOf(a));
  }
  bool isFloat;
  int64_t i = 0;
  double f = 0;
  if (!asNumber(a, isFloat, i, f)) return std::nullopt;
  switch (op) {
    case UnaryOpKind::UAdd:
      return isFloat ? ConstValue::ofFloat(f) : ConstValue::ofInt(i);
    case UnaryOpKind::USub:
      if (isFloat) return ConstValue::ofFloat(-f);
      if (i == INT64_MIN) return std::nullopt;
      return ConstValue::ofInt(-i);
    case UnaryOpKind::Invert:
      if (isFloat) return std::nullopt;
      if (a.kind == ConstValue::Kind::Bool) return ConstValue::ofInt(~i);
      return ConstValue::ofInt(~i);
    default:
      return std::nullopt;
  }
}

std::optional<ConstValue> foldCompare(CmpOp op, const ConstValue& a, const ConstValue& b) {
  bool af, bf;
  int64_t ai = 0, bi = 0;
  double ad = 0, bd = 0;
  if (!asNumber(a, af, ai, ad) || !asNumber(b, bf, bi, bd)) {
    return std::nullopt;
  }
  int c;
  if (!af && !bf) {
    c = ai < bi ? -1 : ai > bi ? 1 : 0;
  } else {
    if (std::isnan(ad) || std::isnan(bd)) {
      return ConstValue::ofBool(op == CmpOp::NotEq);
    }
    c = ad < bd ? -1 : ad > bd ? 1 : 0;
  }
  switch (op) {
    case CmpOp::Eq:
      return ConstValue::ofBool(c == 0);
    case CmpOp::NotEq:
      return ConstValue::ofBool(c != 0);
    case CmpOp::Lt:
      return ConstValue::ofBool(c < 0);
    case CmpOp::LtE:
      return ConstValue::ofBool(c <= 0);
    case CmpOp::Gt:
      return ConstValue::ofBool(c > 0);
    case CmpOp::GtE:
      return ConstValue::ofBool(c >= 0);
    default:
      return std::nullopt;
  }
}

bool truthOf(const ConstValue& v) {
  switch (v.kind) {
    case ConstValue::Kind::None:
      return false;
    case ConstValue::Kind::Bool:
      return v.boolValue;
    case ConstValue::Kind::Int:
      return v.intValue != 0;
    case ConstValue::Kind::Float:
      return v.floatValue != 0;
    case ConstValue::Kind::Str:
      return !v.strValue.empty();
    case ConstValue::Kind::Tuple:
      return !v.elements.empty();
  }
  return false;
}

std::optional<TypeId> typeOfConstant(const ConstValue& v, TypeTable& types) {
  switch (v.kind) {
    case ConstValue::Kind::Bool:
      return types.boolean();
    case ConstValue::Kind::Int:
      return types.int64();
    case ConstValue::Kind::Float:
      return types.float64();
    case ConstValue::Kind::Tuple: {
      std::vector<TypeId> elements;
      for (const ConstValue& e : v.elements) {
        auto t = typeOfConstant(e, types);
        if (!t) return std::nullopt;
        elements.push_back(*t);
      }
      return types.tuple(std::move(elements));
    }
    default:
      return std::nullopt;
  }
}

namespace {

// The dotted path of a Name/Attribute chain in module scope, through the
// module's aliases (`nc.shared.array` -> `numba.cuda.shared.array`).
std::optional<std::string> entityPath(const Ast& ast, ExprId id, const ResolvedModule& module) {
  const Expr& e = ast.expr(id);
  if (const auto* name = e.dyn<ast::Name>()) {
    auto it = module.globals.find(std::string(ast.str(name->id)));
    if (it == module.globals.end() || it->second.kind == Intrinsic::Constant ||
        it->second.kind == Intrinsic::HostValue || it->second.kind == Intrinsic::Function) {
      return std::nullopt;
    }
    return it->second.path;
  }
  if (const auto* attr = e.dyn<ast::Attribute>()) {
    auto base = entityPath(ast, attr->value, module);
    if (!base) return std::nullopt;
    return *base + "." + std::string(ast.str(attr->attr));
  }
  return std::nullopt;
}

ConstValue fromLiteral(const ConstantValue& c, bool& ok) {
  ok = true;
  switch (c.kind) {
    case ConstantKind::True:
      return ConstValue::ofBool(true);
    case ConstantKind::False:
      return ConstValue::ofBool(false);
    case ConstantKind::Int:
      ok = c.fitsInt64;
      return ConstValue::ofInt(c.intValue);
    case ConstantKind::Float:
      return ConstValue::ofFloat(c.floatValue);
    case ConstantKind::Str: {
      ConstValue v;
      v.kind = ConstValue::Kind::Str;
      v.strValue = c.text;
      return v;
    }
    case ConstantKind::None:
      return ConstValue{};
    default:
      ok = false;
      return ConstValue{};
  }
}

}  // namespace

namespace {

// `math.log(2)`, `math.sqrt(x)`, ... of number constants (module constants
// such as cuTile's `INV_LOG_2 = 1.0 / math.log(2)`): the float Python's math
// module computes on the host at import, or nullopt where it would raise (a
// domain error) or the call is not one of these.
std::optional<ConstValue> foldMathCall(const Ast& ast, ExprId id, const ResolvedModule& module) {
  const auto& c = ast.expr(id).as<ast::Call>();
  if (!c.keywords.empty()) return std::nullopt;
  auto path = entityPath(ast, c.func, module);
  if (!path || !path->starts_with("math.")) return std::nullopt;
  std::string fn = path->substr(5);
  std::vector<double> x;
  for (ExprId a : ast.list(c.args)) {
    auto v = foldConstant(ast, a, module);
    if (!v || !v->isNumber()) return std::nullopt;
    x.push_back(v->kind == ConstValue::Kind::Float ? v->floatValue
                : v->kind == ConstValue::Kind::Int ? static_cast<double>(v->intValue)
                                                   : (v->boolValue ? 1.0 : 0.0));
  }
  auto one = [&](double lo, bool open, double (*f)(double)) -> std::optional<ConstValue> {
    if (x.size() != 1 || std::isnan(x[0]) || (open ? x[0] <= lo : x[0] < lo)) return std::nullopt;
    double r = f(x[0]);
    // Python raises OverflowError where the result overflows.
    if (std::isinf(r) && !std::isinf(x[0])) return std::nullopt;
    return ConstValue::ofFloat(r);
  };
  constexpr double kAny = -std::numeric_limits<double>::infinity();
  if (fn == "log" && x.size() == 2) {
    if (!(x[0] > 0) || !(x[1] > 0) || x[1] == 1) return std::nullopt;
    return ConstValue::ofFloat(std::log(x[0]) / std::log(x[1]));
  }
  if (fn == "log") return one(0, true, [](double v) { return std::log(v); });
  if (fn == "log2") return one(0, true, [](double v) { return std::log2(v); });
  if (fn == "log10") return one(0, true, [](double v) { return std::log10(v); });
  if (fn == "sqrt") return one(0, false, [](double v) { return std::sqrt(v); });
  if (fn == "exp") return one(kAny, false, [](double v) { return std::exp(v); });
  if (fn == "exp2") return one(kAny, false, [](double v) { return std::exp2(v); });
  return std::nullopt;
}

}  // namespace

std::optional<ConstValue> foldConstant(const Ast& ast, ExprId id, const ResolvedModule& module) {
  const Expr& e = ast.expr(id);
  switch (e.kind()) {
    case ExprKind::Constant: {
      bool ok;
      ConstValue v = fromLiteral(ast.constantOf(id), ok);
      if (!ok) return std::nullopt;
      return v;
    }
    case ExprKind::Name: {
      auto it = module.globals.find(std::string(ast.str(e.as<ast::Name>().id)));
      if (it == module.globals.end()) return std::nullopt;
      if (it->second.kind == Intrinsic::Constant) return module.constants[it->second.payload];
      if (it->second.kind == Intrinsic::MathConst && !isComplexMathConst(it->second.payload)) {
        return ConstValue::ofFloat(mathConstValue(it->second.payload));
      }
      return std::nullopt;
    }
    case ExprKind::Attribute: {
      auto path = entityPath(ast, id, module);
      if (!path) return std::nullopt;
      TypeTable scratch;
      auto entity = lookupEntity(*path, scratch);
      if (entity && entity->kind == Intrinsic::MathConst && !isComplexMathConst(entity->payload)) {
        return ConstValue::ofFloat(mathConstValue(entity->payload));
      }
      return std::nullopt;
    }
    case ExprKind::Tuple: {
      ConstValue t;
      t.kind = ConstValue::Kind::Tuple;
      for (ExprId elt : ast.list(e.as<ast::Tuple>().elts)) {
        auto v = foldConstant(ast, elt, module);
        if (!v) return std::nullopt;
        t.elements.push_back(std::move(*v));
      }
      return t;
    }
    case ExprKind::UnaryOp: {
      const auto& u = e.as<ast::UnaryOp>();
      auto v = foldConstant(ast, u.operand, module);
      if (!v) return std::nullopt;
      return foldUnary(u.op, *v);
    }
    case ExprKind::BinOp: {
      const auto& b = e.as<ast::BinOp>();
      auto l = foldConstant(ast, b.left, module);
      if (!l) return std::nullopt;
      auto r = foldConstant(ast, b.right, module);
      if (!r) return std::nullopt;
      return foldBinary(b.op, *l, *r);
    }
    case ExprKind::BoolOp: {
      const auto& b = e.as<ast::BoolOp>();
      std::optional<ConstValue> last;
      for (ExprId v : ast.list(b.values)) {
        last = foldConstant(ast, v, module);
        if (!last) return std::nullopt;
        bool t = truthOf(*last);
        if ((b.op == BoolOpKind::And && !t) || (b.op == BoolOpKind::Or && t)) break;
      }
      return last;
    }
    case ExprKind::Compare: {
      const auto& c = e.as<ast::Compare>();
      auto left = foldConstant(ast, c.left, module);
      if (!left) return std::nullopt;
      auto ops = ast.list(c.ops);
      auto comparators = ast.list(c.comparators);
      for (size_t i = 0; i < ops.size(); ++i) {
        auto right = foldConstant(ast, comparators[i], module);
        if (!right) return std::nullopt;
        auto r = foldCompare(ops[i], *left, *right);
        if (!r) return std::nullopt;
        if (!r->boolValue) return r;
        left = right;
      }
      return ConstValue::ofBool(true);
    }
    case ExprKind::IfExp: {
      const auto& i = e.as<ast::IfExp>();
      auto test = foldConstant(ast, i.test, module);
      if (!test) return std::nullopt;
      return foldConstant(ast, truthOf(*test) ? i.body : i.orelse, module);
    }
    case ExprKind::Subscript: {
      const auto& s = e.as<ast::Subscript>();
      auto base = foldConstant(ast, s.value, module);
      auto index = foldConstant(ast, s.slice, module);
      if (!base || !index || base->kind != ConstValue::Kind::Tuple ||
          index->kind != ConstValue::Kind::Int) {
        return std::nullopt;
      }
      int64_t n = static_cast<int64_t>(base->elements.size());
      int64_t k = index->intValue < 0 ? index->intValue + n : index->intValue;
      if (k < 0 || k >= n) return std::nullopt;
      return base->elements[k];
    }
    case ExprKind::Call:
      return foldMathCall(ast, id, module);
    default:
      return std::nullopt;
  }
}

// --- type expressions -------------------------------------------------------------

namespace {

// `numba.types.NAME`, `numba.core.types.NAME` or `numba.NAME`.
bool isNumbaTypeName(std::string_view path, std::string_view name) {
  for (std::string_view parent : {"numba.types.", "numba.core.types.", "numba."}) {
    if (path.size() == parent.size() + name.size() && path.starts_with(parent) &&
        path.ends_with(name)) {
      return true;
    }
  }
  return false;
}

class TypeExprEvaluator {
public:
  TypeExprEvaluator(const Ast& ast, ResolvedModule& module, DiagnosticSink& diags)
      : ast_(ast), module_(module), diags_(diags) {}

  // A type, or a signature when `allowSignature` (`void(float32)`).
  struct Result {
    Result() = default;
    explicit Result(TypeId t) : type(t) {}
    TypeId type;
    bool isSignature = false;
    bool isArgsTuple = false;
    Signature signature;
  };

  std::optional<Result> eval(ExprId id, bool allowSignature) {
    const Expr& e = ast_.expr(id);
    Location loc = locationOf(ast_, e.range);
    if (const auto* c = e.dyn<ast::Constant>()) {
      const ConstantValue& v = ast_.constant(c->value);
      if (v.kind == ConstantKind::Str) {
        return evalString(id, v.text, allowSignature);
      }
      if (v.kind == ConstantKind::None) {
        return Result(module_.types.none());
      }
    }
    if (e.is<ast::Name>() || e.is<ast::Attribute>()) {
      if (const auto* name = e.dyn<ast::Name>()) {
        // A record type defined in this module (`rec = numba.from_dtype(...)`).
        auto it = module_.globals.find(std::string(ast_.str(name->id)));
        if (it != module_.globals.end() && it->second.kind == Intrinsic::TypeObject) {
          return Result(TypeId(it->second.payload));
        }
      }
      auto path = entityPath(ast_, id, module_);
      if (path) {
        auto entity = lookupEntity(*path, module_.types);
        if (entity && entity->kind == Intrinsic::TypeObject) {
          return Result(TypeId(entity->payload));
        }
        if (isNumbaTypeName(*path, "voidptr")) return Result(module_.types.pointer(module_.types.none()));
      }
      std::string text(loc.length ? std::string(loc.lineText.substr(loc.column - 1, loc.length))
                                  : std::string("?"));
      diags_.error(loc, Diag::InvalidType, "`" + text + "` is not a type");
      return std::nullopt;
    }
    if (const auto* s = e.dyn<ast::Subscript>()) {
      auto element = eval(s->value, false);
      if (!element) return std::nullopt;
      if (!module_.types.isScalar(element->type) && !module_.types.isRecord(element->type)) {
        diags_.error(loc, Diag::InvalidType, "only scalar and record types can be array elements");
        return std::nullopt;
      }
      std::vector<ExprId> dims;
      if (const auto* t = ast_.expr(s->slice).dyn<ast::Tuple>()) {
        for (ExprId d : ast_.list(t->elts)) dims.push_back(d);
      } else {
        dims.push_back(s->slice);
      }
      std::vector<bool> unit;
      for (ExprId d : dims) {
        const auto* slice = ast_.expr(d).dyn<ast::Slice>();
        bool ok = slice != nullptr && !slice->lower.valid() && !slice->upper.valid();
        bool isUnit = false;
        if (ok && slice->step.valid()) {
          auto step = foldConstant(ast_, slice->step, module_);
          ok = step && step->kind == ConstValue::Kind::Int && step->intValue == 1;
          isUnit = true;
        }
        if (!ok) {
          diags_.error(locationOf(ast_, ast_.expr(d).range), Diag::InvalidType,
                       "array dimensions are written `:` or `::1`");
          return std::nullopt;
        }
        unit.push_back(isUnit);
      }
      auto layout = layoutFromSlices(unit);
      if (!layout) {
        diags_.error(locationOf(ast_, ast_.expr(s->slice).range), Diag::InvalidType,
                     "can only specify step 1 (`::1`) in the first or last dimension");
        return std::nullopt;
      }
      return Result(module_.types.array(element->type, static_cast<unsigned>(unit.size()), *layout));
    }
    if (const auto* t = e.dyn<ast::Tuple>()) {
      std::vector<TypeId> elements;
      for (ExprId elt : ast_.list(t->elts)) {
        auto r = eval(elt, false);
        if (!r) return std::nullopt;
        elements.push_back(r->type);
      }
      Result r{module_.types.tuple(elements)};
      if (allowSignature) {
        r.isArgsTuple = true;
        r.signature.args = std::move(elements);
      }
      return r;
    }
    if (const auto* call = e.dyn<ast::Call>()) {
      // numba.types.CPointer(T) (declare_device signatures as objects).
      if (auto path = entityPath(ast_, call->func, module_);
          path && isNumbaTypeName(*path, "CPointer")) {
        auto args = ast_.list(call->args);
        if (args.size() != 1 || !call->keywords.empty()) {
          diags_.error(loc, Diag::InvalidType, "`CPointer` takes one scalar type");
          return std::nullopt;
        }
        auto pointee = eval(args[0], false);
        if (!pointee) return std::nullopt;
        if (!module_.types.isScalar(pointee->type)) {
          diags_.error(locationOf(ast_, ast_.expr(args[0]).range), Diag::InvalidType,
                       "`CPointer` takes a scalar type such as `float32`");
          return std::nullopt;
        }
        return Result(module_.types.pointer(pointee->type));
      }
      auto ret = eval(call->func, false);
      if (!ret) return std::nullopt;
      if (!allowSignature) {
        diags_.error(loc, Diag::InvalidType, "expected a type, found a signature");
        return std::nullopt;
      }
      Result r{ret->type};
      r.isSignature = true;
      r.signature.returnType = ret->type;
      for (ExprId a : ast_.list(call->args)) {
        auto arg = eval(a, false);
        if (!arg) return std::nullopt;
        r.signature.args.push_back(arg->type);
      }
      return r;
    }
    diags_.error(loc, Diag::InvalidType, "expected a type");
    return std::nullopt;
  }

  // The location of byte `offset` of the string literal `id`'s value, when
  // the literal is written plainly on one line; else the whole literal.
  Location stringLocation(ExprId id, uint32_t offset, uint32_t length) {
    const Expr& e = ast_.expr(id);
    Location whole = locationOf(ast_, e.range);
    if (e.range.lineno != e.range.endLineno || whole.lineText.empty()) return whole;
    std::string_view literal = whole.lineText.substr(whole.column - 1, whole.length);
    size_t q = literal.find_first_of("\"'");
    if (q == std::string_view::npos || literal.find('\\') != std::string_view::npos) {
      return whole;
    }
    char quote = literal[q];
    size_t quoteLen = literal.substr(q, 3) == std::string(3, quote) ? 3 : 1;
    size_t body = q + quoteLen;
    // Implicit concatenation: more than one literal.
    if (literal.find(quote, body) + quoteLen != literal.size()) return whole;
    Location loc = whole;
    loc.column = whole.column + static_cast<uint32_t>(body) + offset;
    loc.length = length;
    return loc;
  }

private:
  std::optional<Result> evalString(ExprId id, const std::string& text, bool allowSignature) {
    if (allowSignature) {
      auto parsed = parseSignature(text, module_.types);
      if (auto* err = std::get_if<SignatureError>(&parsed)) {
        diags_.error(stringLocation(id, err->offset, err->length), Diag::InvalidSignature,
                     err->message);
        return std::nullopt;
      }
      Result r;
      r.signature = std::get<Signature>(parsed);
      r.isSignature = r.signature.returnType.has_value();
      r.isArgsTuple = !r.isSignature;
      return r;
    }
    auto parsed = parseTypeText(text, module_.types);
    if (auto* err = std::get_if<SignatureError>(&parsed)) {
      diags_.error(stringLocation(id, err->offset, err->length), Diag::InvalidType, err->message);
      return std::nullopt;
    }
    return Result(std::get<TypeId>(parsed));
  }

  const Ast& ast_;
  ResolvedModule& module_;
  DiagnosticSink& diags_;
};

}  // namespace

std::optional<TypeId> evalTypeExpr(const Ast& ast, ExprId expr, ResolvedModule& module,
                                   DiagnosticSink& diags) {
  TypeExprEvaluator evaluator(ast, module, diags);
  auto r = evaluator.eval(expr, false);
  if (!r) return std::nullopt;
  return r->type;
}

// --- the module level ---------------------------------------------------------

namespace {

class Resolver {
public:
  Resolver(const Ast& ast, const ResolveOptions& options, DiagnosticSink& diags)
      : ast_(ast), options_(options), diags_(diags) {}

  ResolvedModule run() {
    for (StmtId id : ast_.module()) {
      visitTopLevel(id);
    }
    // Defines that no module-level assignment consumed are new constants.
    for (const auto& [name, value] : options_.defines) {
      auto it = module_.globals.find(name);
      if (it == module_.globals.end() || it->second.kind != Intrinsic::Constant ||
          !definedByCommandLine_.count(name)) {
        bindDefine(name, value);
      }
    }
    applyCommandLineSignatures();
    const std::vector<std::string>& only = options_.kernels;
    for (JitFunction& f : module_.functions) {
      // With a kernel filter, only the chosen kernels need types.
      if (!only.empty() && std::find(only.begin(), only.end(), f.name) == only.end()) continue;
      if (f.tile && f.signatures.empty() && !f.signatureGiven) {
        diags_.error(f.location, Diag::TileNoSignature, f.name);
      } else if (!f.device && f.signatures.empty() && !f.signatureGiven) {
        diags_.error(f.location, Diag::NoSignature, f.name);
      }
    }
    return std::move(module_);
  }

private:
  void bind(const std::string& name, Entity entity) { module_.globals[name] = std::move(entity); }

  void visitTopLevel(StmtId id) {
    const Stmt& s = ast_.stmt(id);
    switch (s.kind()) {
      case StmtKind::Import:
        for (AliasId a : ast_.list(s.as<ast::Import>().names)) {
          const Alias& alias = ast_.alias(a);
          std::string full(ast_.str(alias.name));
          if (alias.asname.valid()) {
            bindPath(std::string(ast_.str(alias.asname)), full);
          } else {
            std::string first = full.substr(0, full.find('.'));
            bindPath(first, first);
          }
        }
        break;
      case StmtKind::ImportFrom: {
        const auto& from = s.as<ast::ImportFrom>();
        std::string module(ast_.str(from.module));
        for (AliasId a : ast_.list(from.names)) {
          const Alias& alias = ast_.alias(a);
          std::string name(ast_.str(alias.name));
          if (name == "*") continue;
          std::string bound = alias.asname.valid() ? std::string(ast_.str(alias.asname)) : name;
          if (from.level != 0) {
            bind(bound, Entity{Intrinsic::HostValue, 0, bound});
          } else {
            bindPath(bound, module + "." + name);
          }
        }
        break;
      }
      case StmtKind::Assign: {
        const auto& assign = s.as<ast::Assign>();
        for (ExprId target : ast_.list(assign.targets)) {
          bindAssigned(target, assign.value);
        }
        break;
      }
      case StmtKind::AnnAssign: {
        const auto& assign = s.as<ast::AnnAssign>();
        if (assign.value.valid()) bindAssigned(assign.target, assign.value);
        break;
      }
      case StmtKind::AugAssign: {
        const auto& aug = s.as<ast::AugAssign>();
        if (const auto* name = ast_.expr(aug.target).dyn<ast::Name>()) {
          std::string n(ast_.str(name->id));
          auto it = module_.globals.find(n);
          std::optional<ConstValue> value;
          if (it != module_.globals.end() && it->second.kind == Intrinsic::Constant) {
            auto rhs = foldConstant(ast_, aug.value, module_);
            if (rhs) value = foldBinary(aug.op, module_.constants[it->second.payload], *rhs);
          }
          if (value) {
            module_.constants.push_back(*value);
            bind(n, Entity{Intrinsic::Constant,
                           static_cast<uint32_t>(module_.constants.size() - 1), n});
          } else {
            bind(n, Entity{Intrinsic::HostValue, 0, n});
          }
        }
        break;
      }
      case StmtKind::FunctionDef:
      case StmtKind::AsyncFunctionDef:
        visitFunction(id);
        break;
      case StmtKind::ClassDef: {
        std::string n(ast_.str(s.as<ast::ClassDef>().name));
        bind(n, Entity{Intrinsic::HostValue, 0, n});
        break;
      }
      default:
        break;
    }
  }

  void bindPath(const std::string& name, const std::string& path) {
    auto entity = lookupEntity(path, module_.types);
    if (entity) {
      bind(name, *entity);
    } else {
      bind(name, Entity{Intrinsic::HostValue, 0, name});
    }
  }

  void bindDefine(const std::string& name, const ConstValue& value) {
    module_.constants.push_back(value);
    module_.globals[name] =
        Entity{Intrinsic::Constant, static_cast<uint32_t>(module_.constants.size() - 1), name};
    definedByCommandLine_.insert(name);
  }

  void bindAssigned(ExprId target, ExprId value) {
    const Expr& t = ast_.expr(target);
    if (const auto* name = t.dyn<ast::Name>()) {
      std::string n(ast_.str(name->id));
      // `SIGS = ["void(float32[::1])", ...]` or `SIG = "..."`, used as
      // `@cuda.jit(SIGS)`: remembered for the decorators below.
      signatureVars_.erase(n);
      const Expr& v = ast_.expr(value);
      if (v.is<ast::List>() || v.is<ast::Tuple>() ||
          (v.is<ast::Constant>() && ast_.constantOf(value).kind == ConstantKind::Str)) {
        signatureVars_[n] = value;
      }
      // `-D NAME=VALUE` replaces the assignment itself, so that constants
      // computed from NAME below see the new value.
      for (const auto& [defined, v] : options_.defines) {
        if (defined == n) {
          bindDefine(n, v);
          return;
        }
      }
      stringValues_.erase(n);
      if (const auto* call = ast_.expr(value).dyn<ast::Call>()) {
        auto callee = entityPath(ast_, call->func, module_);
        if (callee && *callee == "numba.cuda.declare_device") {
          declareDevice(n, value, *call);
          return;
        }
        if (callee && *callee == "cffi.FFI") {
          bind(n, Entity{Intrinsic::CffiFfi, 0, n});
          return;
        }
        if (auto record = recordOf(value)) {
          bind(n, Entity{Intrinsic::TypeObject, record->index, n});
          return;
        }
      }
      if (auto text = foldPath(value)) stringValues_[n] = *text;
      if (auto v = foldConstant(ast_, value, module_);
          v && v->kind != ConstValue::Kind::Str && v->kind != ConstValue::Kind::None) {
        module_.constants.push_back(std::move(*v));
        bind(n, Entity{Intrinsic::Constant, static_cast<uint32_t>(module_.constants.size() - 1), n});
        return;
      }
      if (auto path = entityPath(ast_, value, module_)) {
        if (auto entity = lookupEntity(*path, module_.types)) {
          bind(n, *entity);
          return;
        }
      }
      // `ConstInt = ct.Constant[int]`: an alias used in tile kernels' annotations.
      if (isTileConstantAnnotation(value)) {
        if (auto kind = tileConstantKind(value)) tileConstAliasKinds_[n] = *kind;
        bind(n, Entity{Intrinsic::TileOp, static_cast<uint32_t>(TileFn::Constant), "cuda.tile.Constant"});
        return;
      }
      if (auto array = foldArrayLiteral(value)) {
        array->name = n;
        module_.constArrays.push_back(std::move(*array));
        bind(n, Entity{Intrinsic::ConstArray, static_cast<uint32_t>(module_.constArrays.size() - 1), n});
        return;
      }
      if (const auto* vn = ast_.expr(value).dyn<ast::Name>()) {
        auto it = module_.globals.find(std::string(ast_.str(vn->id)));
        if (it != module_.globals.end() && it->second.kind == Intrinsic::Function) {
          bind(n, it->second);
          return;
        }
      }
      bind(n, Entity{Intrinsic::HostValue, 0, n});
      return;
    }
    if (const auto* tuple = t.dyn<ast::Tuple>()) {
      auto values = ast_.expr(value).dyn<ast::Tuple>();
      auto targets = ast_.list(tuple->elts);
      if (values != nullptr && ast_.list(values->elts).size() == targets.size()) {
        auto vs = ast_.list(values->elts);
        for (size_t i = 0; i < targets.size(); ++i) bindAssigned(targets[i], vs[i]);
        return;
      }
      for (ExprId elt : targets) {
        if (const auto* name = ast_.expr(elt).dyn<ast::Name>()) {
          std::string n(ast_.str(name->id));
          bind(n, Entity{Intrinsic::HostValue, 0, n});
        }
      }
    }
  }

  // A string computed at compile time for `link=`: a literal, a module
  // string variable, `__file__` (the path as given to pykc), `+`, and
  // os.path.join/dirname/abspath/realpath/normpath with Python's rules (the
  // last three leave the path as is: relative paths stay relative to the
  // working directory). nullopt for anything else.

  // A record type: `np.dtype([('x', np.float32), ('y', 'int32')], align=True)`,
  // `numba.from_dtype(<such a dtype or a name bound to one>)`, or a name bound
  // to one. nullopt (after an error for a malformed dtype) otherwise.
  std::optional<TypeId> recordOf(ExprId id) {
    const Expr& e = ast_.expr(id);
    if (const auto* name = e.dyn<ast::Name>()) {
      auto it = module_.globals.find(std::string(ast_.str(name->id)));
      if (it != module_.globals.end() && it->second.kind == Intrinsic::TypeObject &&
          module_.types.isRecord(TypeId(it->second.payload))) {
        return TypeId(it->second.payload);
      }
      return std::nullopt;
    }
    const auto* call = e.dyn<ast::Call>();
    if (call == nullptr) return std::nullopt;
    auto callee = entityPath(ast_, call->func, module_);
    if (!callee) return std::nullopt;
    auto args = ast_.list(call->args);
    if ((*callee == "numba.from_dtype" || *callee == "numba.np.numpy_support.from_dtype") &&
        args.size() == 1) {
      return recordOf(args[0]);
    }
    if (*callee != "numpy.dtype" || args.size() != 1) return std::nullopt;
    Location loc = locationOf(ast_, e.range);
    bool aligned = false;
    for (KeywordId kid : ast_.list(call->keywords)) {
      const Keyword& k = ast_.keyword(kid);
      auto v = foldConstant(ast_, k.value, module_);
      if (!k.arg.valid() || ast_.str(k.arg) != "align" || !v || !v->isNumber()) {
        diags_.error(loc, Diag::InvalidType, "pykc reads `np.dtype([...], align=True/False)` only");
        return std::nullopt;
      }
      aligned = truthOf(*v);
    }
    const auto* list = ast_.expr(args[0]).dyn<ast::List>();
    if (list == nullptr) return std::nullopt;
    std::vector<std::pair<std::string, TypeId>> fields;
    for (ExprId item : ast_.list(list->elts)) {
      const auto* pair = ast_.expr(item).dyn<ast::Tuple>();
      auto parts = pair ? ast_.list(pair->elts) : std::span<const ExprId>();
      std::optional<TypeId> type;
      std::optional<std::string> fieldName;
      if (parts.size() == 2) {
        fieldName = foldPath(parts[0]);
        if (auto text = foldPath(parts[1])) {
          type = scalarTypeByName(module_.types, *text);
        } else if (auto path = entityPath(ast_, parts[1], module_)) {
          auto entity = lookupEntity(*path, module_.types);
          if (entity && entity->kind == Intrinsic::TypeObject) type = TypeId(entity->payload);
        }
      }
      if (!fieldName || !type || !module_.types.isScalar(*type)) {
        diags_.error(locationOf(ast_, ast_.expr(item).range), Diag::InvalidType,
                     "a record field is `('name', scalar type)`");
        return std::nullopt;
      }
      fields.emplace_back(*fieldName, *type);
    }
    if (fields.empty()) return std::nullopt;
    return makeRecord(module_.types, fields, aligned);
  }

  std::optional<std::string> foldPath(ExprId id) {
    const Expr& e = ast_.expr(id);
    if (e.is<ast::Constant>()) {
      const auto& c = ast_.constantOf(id);
      if (c.kind == ConstantKind::Str) return c.text;
      return std::nullopt;
    }
    if (const auto* name = e.dyn<ast::Name>()) {
      std::string n(ast_.str(name->id));
      if (auto it = stringValues_.find(n); it != stringValues_.end()) return it->second;
      if (n == "__file__" && ast_.source() != nullptr) return std::string(ast_.source()->path());
      return std::nullopt;
    }
    if (const auto* bin = e.dyn<ast::BinOp>()) {
      if (bin->op != Operator::Add) return std::nullopt;
      auto l = foldPath(bin->left);
      auto r = foldPath(bin->right);
      if (!l || !r) return std::nullopt;
      return *l + *r;
    }
    const auto* call = e.dyn<ast::Call>();
    if (call == nullptr || !call->keywords.empty()) return std::nullopt;
    auto callee = entityPath(ast_, call->func, module_);
    if (!callee) return std::nullopt;
    std::vector<std::string> parts;
    for (ExprId a : ast_.list(call->args)) {
      auto p = foldPath(a);
      if (!p) return std::nullopt;
      parts.push_back(std::move(*p));
    }
    if (*callee == "os.path.join" && !parts.empty()) {
      std::string out;
      for (const std::string& p : parts) {
        if (!p.empty() && p[0] == '/') {
          out = p;
        } else if (out.empty() || out.back() == '/') {
          out += p;
        } else {
          out += "/" + p;
        }
      }
      return out;
    }
    if (parts.size() != 1) return std::nullopt;
    if (*callee == "os.path.dirname") {
      size_t slash = parts[0].rfind('/');
      if (slash == std::string::npos) return std::string();
      std::string head = parts[0].substr(0, slash + 1);
      // Python strips the trailing slashes unless the head is all slashes.
      if (head.find_first_not_of('/') != std::string::npos) {
        while (!head.empty() && head.back() == '/') head.pop_back();
      }
      return head;
    }
    if (*callee == "os.path.abspath" || *callee == "os.path.realpath" ||
        *callee == "os.path.normpath") {
      return parts[0];
    }
    return std::nullopt;
  }

  // `link=` of cuda.jit or cuda.declare_device: one path or a list/tuple of
  // them. Reports paths pykc cannot compute and unknown extensions.
  std::vector<LinkRef> parseLinks(ExprId value) {
    std::vector<LinkRef> links;
    std::vector<ExprId> items;
    const Expr& e = ast_.expr(value);
    if (const auto* list = e.dyn<ast::List>()) {
      items.assign(ast_.list(list->elts).begin(), ast_.list(list->elts).end());
    } else if (const auto* tuple = e.dyn<ast::Tuple>()) {
      items.assign(ast_.list(tuple->elts).begin(), ast_.list(tuple->elts).end());
    } else {
      items.push_back(value);
    }
    for (ExprId item : items) {
      Location loc = locationOf(ast_, ast_.expr(item).range);
      auto path = foldPath(item);
      if (!path) {
        diags_.error(loc, Diag::InvalidLink,
                     "pykc cannot compute this `link=` path at compile time: write a string, or "
                     "`os.path.join(os.path.dirname(__file__), \"file.cu\")`");
        continue;
      }
      if (!linkFileKind(*path)) {
        diags_.error(loc, Diag::InvalidLink,
                     "cannot link `" + *path + "`: pykc links " +
                         std::string(linkFileExtensions()) + " files");
        continue;
      }
      links.push_back(LinkRef{std::move(*path), loc});
    }
    return links;
  }

  // `name = cuda.declare_device("symbol", "ret(args)", link=...)`.
  void declareDevice(const std::string& name, ExprId value, const ast::Call& call) {
    Location loc = locationOf(ast_, ast_.expr(value).range);
    ExternFunction fn;
    fn.name = name;
    fn.location = loc;
    auto args = ast_.list(call.args);
    ExprId symbolExpr = args.size() > 0 ? args[0] : ExprId();
    ExprId sigExpr = args.size() > 1 ? args[1] : ExprId();
    ExprId linkExpr = args.size() > 2 ? args[2] : ExprId();
    bool ok = args.size() <= 3;
    if (!ok) {
      diags_.error(loc, Diag::InvalidDeclareDevice,
                   "`cuda.declare_device` takes a name, a signature and `link=`");
    }
    for (KeywordId kid : ast_.list(call.keywords)) {
      const Keyword& k = ast_.keyword(kid);
      std::string key = k.arg.valid() ? std::string(ast_.str(k.arg)) : "**";
      if (key == "name" && !symbolExpr.valid()) {
        symbolExpr = k.value;
      } else if (key == "sig" && !sigExpr.valid()) {
        sigExpr = k.value;
      } else if (key == "link" && !linkExpr.valid()) {
        linkExpr = k.value;
      } else if (key == "abi") {
        auto c = foldConstant(ast_, k.value, module_);
        if (c && c->kind == ConstValue::Kind::Str && (c->strValue == "c" || c->strValue == "numba")) {
          fn.cAbi = c->strValue == "c";
        } else {
          diags_.error(locationOf(ast_, k.range), Diag::InvalidDeclareDevice,
                       "`abi` must be \"numba\" (the default) or \"c\"");
          ok = false;
        }
      } else if (key == "use_cooperative") {
        auto b = boolOption(k);
        if (b && *b) {
          diags_.error(locationOf(ast_, k.range), Diag::UnsupportedOption,
                       "`use_cooperative=True` is not supported by pykc yet");
          ok = false;
        }
      } else {
        diags_.error(locationOf(ast_, k.range), Diag::InvalidDeclareDevice,
                     "unknown `cuda.declare_device` argument `" + key + "`");
        ok = false;
      }
    }
    if (!symbolExpr.valid() || !sigExpr.valid()) {
      diags_.error(loc, Diag::InvalidDeclareDevice,
                   "`cuda.declare_device` needs the function's name and its signature, e.g. "
                   "`cuda.declare_device(\"mul\", \"float32(float32, float32)\")`");
      ok = false;
    } else {
      auto symbol = foldPath(symbolExpr);
      if (!symbol || symbol->empty()) {
        diags_.error(locationOf(ast_, ast_.expr(symbolExpr).range), Diag::InvalidDeclareDevice,
                     "the name of a `cuda.declare_device` function must be a string");
        ok = false;
      } else {
        fn.symbol = *symbol;
      }
      ExprId sigId = sigExpr;
      if (const auto* n = ast_.expr(sigId).dyn<ast::Name>()) {
        auto it = signatureVars_.find(std::string(ast_.str(n->id)));
        if (it != signatureVars_.end()) sigId = it->second;
      }
      TypeExprEvaluator evaluator(ast_, module_, diags_);
      Location sigLoc = locationOf(ast_, ast_.expr(sigExpr).range);
      auto r = evaluator.eval(sigId, true);
      if (!r) {
        ok = false;
      } else if (!r->isSignature || !r->signature.returnType) {
        // numba: "Return type must be provided for device declarations".
        diags_.error(sigLoc, Diag::InvalidDeclareDevice,
                     "a `cuda.declare_device` signature needs a return type, e.g. "
                     "`\"float32(float32, float32)\"` (or `void(...)`)");
        ok = false;
      } else {
        fn.returnType = *r->signature.returnType;
        fn.args = r->signature.args;
        auto passable = [&](TypeId t, bool isReturn) {
          const TypeTable& types = module_.types;
          if (types.isNumber(t) || types.isPointer(t)) return true;
          return isReturn && types.isNone(t);
        };
        std::vector<TypeId> all = fn.args;
        all.push_back(fn.returnType);
        for (size_t i = 0; i < all.size() && ok; ++i) {
          if (passable(all[i], i + 1 == all.size())) continue;
          std::string what = module_.types.isArray(all[i])
                                 ? "; pass an array's data as `CPointer(" +
                                       module_.types.name(module_.types.get(all[i]).element) +
                                       ")` with `ffi.from_buffer(array)`"
                                 : "";
          diags_.error(sigLoc, Diag::InvalidDeclareDevice,
                       "`" + module_.types.name(all[i]) +
                           "` cannot cross into a `cuda.declare_device` function: it takes "
                           "numbers and `CPointer(T)`s and returns a number or `void`" + what);
          ok = false;
        }
      }
    }
    if (linkExpr.valid()) fn.links = parseLinks(linkExpr);
    if (!ok) {
      bind(name, Entity{Intrinsic::HostValue, 0, name});
      return;
    }
    module_.externs.push_back(std::move(fn));
    bind(name, Entity{Intrinsic::ExternFunction,
                      static_cast<uint32_t>(module_.externs.size() - 1), name});
  }

  // Flattens a nested list/tuple literal of numbers; false when ragged or not constant.
  bool flattenLiteral(ExprId id, size_t depth, std::vector<int64_t>& shape,
                      std::vector<ConstValue>& values) {
    const Expr& e = ast_.expr(id);
    std::span<const ExprId> elts;
    if (const auto* l = e.dyn<ast::List>()) {
      elts = ast_.list(l->elts);
    } else if (const auto* t = e.dyn<ast::Tuple>()) {
      elts = ast_.list(t->elts);
    } else {
      if (depth != shape.size()) return false;
      auto v = foldConstant(ast_, id, module_);
      if (!v || !v->isNumber()) return false;
      values.push_back(*v);
      return true;
    }
    if (depth == shape.size()) {
      if (elts.empty()) return false;
      shape.push_back(static_cast<int64_t>(elts.size()));
    } else if (depth > shape.size() || shape[depth] != static_cast<int64_t>(elts.size())) {
      return false;
    }
    for (ExprId x : elts) {
      if (!flattenLiteral(x, depth + 1, shape, values)) return false;
    }
    return true;
  }

  // `np.array(<nested list of numbers>[, dtype])` (also `np.asarray`, a
  // `dtype=` keyword, dtypes as types or strings); nullopt for anything else.
  std::optional<ConstArrayData> foldArrayLiteral(ExprId value) {
    const auto* call = ast_.expr(value).dyn<ast::Call>();
    if (call == nullptr) return std::nullopt;
    auto path = entityPath(ast_, call->func, module_);
    if (!path || (*path != "numpy.array" && *path != "numpy.asarray")) return std::nullopt;
    auto args = ast_.list(call->args);
    if (args.empty() || args.size() > 2) return std::nullopt;
    ExprId dtypeExpr = args.size() == 2 ? args[1] : ExprId();
    for (KeywordId k : ast_.list(call->keywords)) {
      const Keyword& kw = ast_.keyword(k);
      if (ast_.str(kw.arg) != "dtype" || dtypeExpr.valid()) return std::nullopt;
      dtypeExpr = kw.value;
    }
    ConstArrayData data;
    if (!flattenLiteral(args[0], 0, data.shape, data.values) || data.shape.empty()) {
      return std::nullopt;
    }
    if (dtypeExpr.valid()) {
      if (auto p = entityPath(ast_, dtypeExpr, module_)) {
        if (auto entity = lookupEntity(*p, module_.types);
            entity && entity->kind == Intrinsic::TypeObject) {
          data.element = TypeId(entity->payload);
        }
      } else if (auto c = foldConstant(ast_, dtypeExpr, module_);
                 c && c->kind == ConstValue::Kind::Str) {
        if (auto t = scalarTypeByName(module_.types, c->strValue)) data.element = *t;
      }
      if (!data.element.valid() || !module_.types.isNumber(data.element)) return std::nullopt;
    } else {
      // NumPy's default: bool, int64 or float64 from the literals.
      bool anyFloat = false;
      bool allBool = true;
      for (const ConstValue& v : data.values) {
        anyFloat = anyFloat || v.kind == ConstValue::Kind::Float;
        allBool = allBool && v.kind == ConstValue::Kind::Bool;
      }
      data.element = anyFloat  ? module_.types.float64()
                     : allBool ? module_.types.boolean()
                               : module_.types.int64();
    }
    return data;
  }

  // `ct.Constant`, `ct.Constant[int]` or a name bound to one of them.
  bool isTileConstantAnnotation(ExprId id) {
    if (const auto* sub = ast_.expr(id).dyn<ast::Subscript>()) id = sub->value;
    auto path = entityPath(ast_, id, module_);
    if (!path) return false;
    auto entity = lookupEntity(*path, module_.types);
    return entity && entity->kind == Intrinsic::TileOp &&
           entity->payload == static_cast<uint32_t>(TileFn::Constant);
  }

  // The Python type named inside `ct.Constant[T]` (`bool`, `int`, `float`),
  // directly or through an alias; nullopt when none is named.
  std::optional<std::string> tileConstantKind(ExprId id) const {
    if (const auto* sub = ast_.expr(id).dyn<ast::Subscript>()) {
      if (const auto* n = ast_.expr(sub->slice).dyn<ast::Name>()) return std::string(ast_.str(n->id));
      return std::nullopt;
    }
    if (const auto* n = ast_.expr(id).dyn<ast::Name>()) {
      auto it = tileConstAliasKinds_.find(std::string(ast_.str(n->id)));
      if (it != tileConstAliasKinds_.end()) return it->second;
    }
    return std::nullopt;
  }

  // A `ct.Constant[bool]` value: True/False, or 0/1 as a command line gives
  // them (`--const CAUSAL=0`), as a bool; nullopt for anything else.
  static std::optional<ConstValue> asTileBool(const ConstValue& v) {
    if (v.kind == ConstValue::Kind::Bool) return v;
    if (v.kind == ConstValue::Kind::Int && (v.intValue == 0 || v.intValue == 1)) {
      return ConstValue::ofBool(v.intValue == 1);
    }
    return std::nullopt;
  }

  bool isTileKernel(ExprId id) {
    auto path = entityPath(ast_, id, module_);
    if (!path) return false;
    auto entity = lookupEntity(*path, module_.types);
    return entity && entity->kind == Intrinsic::TileOp &&
           entity->payload == static_cast<uint32_t>(TileFn::Kernel);
  }

  // `ct.ByTarget(sm_100=2, default=1)` as a `ct.kernel` option: the value
  // per architecture. pykc records the `default=` value (0 when there is
  // none: unset) and does not act on these options yet (docs/TILE.md);
  // nullopt (reported later as not an integer) when `id` is not a
  // well-formed ByTarget.
  std::optional<ConstValue> tileByTarget(ExprId id) {
    const auto* call = ast_.expr(id).dyn<ast::Call>();
    if (call == nullptr || !call->args.empty()) return std::nullopt;
    auto path = entityPath(ast_, call->func, module_);
    if (!path) return std::nullopt;
    auto entity = lookupEntity(*path, module_.types);
    if (!entity || entity->kind != Intrinsic::TileOp ||
        entity->payload != static_cast<uint32_t>(TileFn::ByTarget)) {
      return std::nullopt;
    }
    ConstValue chosen = ConstValue::ofInt(0);
    for (KeywordId kid : ast_.list(call->keywords)) {
      const Keyword& k = ast_.keyword(kid);
      if (!k.arg.valid()) return std::nullopt;
      std::string key(ast_.str(k.arg));
      auto v = foldConstant(ast_, k.value, module_);
      bool arch = key.size() > 3 && key.compare(0, 3, "sm_") == 0 &&
                  key.find_first_not_of("0123456789", 3) == std::string::npos;
      if (!v || v->kind != ConstValue::Kind::Int || (!arch && key != "default")) {
        return std::nullopt;
      }
      if (key == "default") chosen = *v;
    }
    return chosen;
  }

  // `@ct.kernel` / `@ct.kernel(num_ctas=..., occupancy=..., opt_level=...)`
  // (docs/TILE.md): the Constant parameters take their values from
  // `--const`, else their defaults; the others are typed by annotations or
  // `--sig` like SIMT kernels.
  void visitTileKernel(StmtId id, ExprId decorator) {
    const Stmt& s = ast_.stmt(id);
    const ast::FunctionDef& def = *s.functionDef();
    JitFunction f;
    f.name = std::string(ast_.str(def.name));
    f.stmt = id;
    f.tile = true;
    f.location = nameLocation(s, f.name);
    const Arguments& args = ast_.arguments(def.args);
    if (!args.posonlyargs.empty() || args.vararg.valid() || !args.kwonlyargs.empty() ||
        args.kwarg.valid()) {
      diags_.error(f.location, Diag::UnsupportedFeature,
                   "tile kernels take plain positional parameters only (no `*args`, "
                   "keyword-only or `**kwargs`)");
    }
    if (s.isAsync()) diags_.error(f.location, Diag::UnsupportedConstruct, "`async def`");
    if (const auto* call = ast_.expr(decorator).dyn<ast::Call>()) {
      if (!call->args.empty()) {
        diags_.error(locationOf(ast_, ast_.expr(ast_.list(call->args)[0]).range),
                     Diag::InvalidDecorator, "`ct.kernel` takes keyword options only");
      }
      for (KeywordId kid : ast_.list(call->keywords)) {
        const Keyword& k = ast_.keyword(kid);
        std::string key = k.arg.valid() ? std::string(ast_.str(k.arg)) : "";
        auto v = foldConstant(ast_, k.value, module_);
        if (!v) v = tileByTarget(k.value);
        int64_t* slot = key == "num_ctas"    ? &f.tileOptions.numCtas
                        : key == "occupancy" ? &f.tileOptions.occupancy
                        : key == "opt_level" ? &f.tileOptions.optLevel
                                             : nullptr;
        if (slot == nullptr) {
          diags_.error(locationOf(ast_, k.range), Diag::InvalidDecorator,
                       "unknown `ct.kernel` option `" + key +
                           "`; known: num_ctas, occupancy, opt_level");
        } else if (!v || v->kind != ConstValue::Kind::Int) {
          diags_.error(locationOf(ast_, k.range), Diag::InvalidDecorator,
                       "`" + key + "` must be an integer constant or `ct.ByTarget(sm_XX=N, ..., default=N)`");
        } else {
          *slot = v->intValue;
        }
      }
    }
    auto params = ast_.list(args.args);
    auto defaults = ast_.list(args.defaults);
    size_t firstDefault = params.size() - defaults.size();
    Signature annotated;
    size_t typedCount = 0;
    size_t looseCount = 0;
    size_t runtimeCount = 0;
    bool annotationsOk = true;
    for (size_t i = 0; i < params.size(); ++i) {
      const Arg& a = ast_.arg(params[i]);
      std::string name(ast_.str(a.arg));
      if (a.annotation.valid() && isTileConstantAnnotation(a.annotation)) {
        TileConstParam c;
        c.name = name;
        c.position = static_cast<uint32_t>(i);
        c.location = locationOf(ast_, a.range);
        // `KERNEL.NAME=VALUE` applies to that kernel alone and, where given,
        // replaces the file-wide `NAME=VALUE` values for it.
        for (const auto& [n, v] : options_.consts) {
          if (n == f.name + "." + name) c.values.push_back(v);
        }
        if (c.values.empty()) {
          for (const auto& [n, v] : options_.consts) {
            if (n == name) c.values.push_back(v);
          }
        }
        if (c.values.empty() && i >= firstDefault) {
          ExprId d = defaults[i - firstDefault];
          if (auto v = foldConstant(ast_, d, module_); v && v->isNumber()) {
            c.values.push_back(*v);
          } else {
            diags_.error(locationOf(ast_, ast_.expr(d).range), Diag::InvalidSignature,
                         "the default of Constant parameter `" + name +
                             "` must be a number constant");
            c.invalid = true;
          }
        }
        if (tileConstantKind(a.annotation) == "bool") {
          for (ConstValue& v : c.values) {
            if (auto b = asTileBool(v)) {
              v = *b;
            } else if (!c.invalid) {
              diags_.error(c.location, Diag::InvalidSignature,
                           "Constant parameter `" + name + "` is a `bool`: give it True, False, 1 or 0, not `" +
                               v.repr() + "`");
              c.invalid = true;
            }
          }
        }
        f.tileConsts.push_back(std::move(c));
        continue;
      }
      ++runtimeCount;
      f.params.push_back(name);
      if (a.annotation.valid()) {
        ++typedCount;
        if (auto kind = pythonScalarAnnotation(a.annotation)) {
          // `scale: float` (cuTile's samples): the kind of number; alone it means
          // cuTile's default dtype for such a Python value (float32, int32, bool).
          ++looseCount;
          f.tileScalarAnnotations.push_back(TileScalarAnnotation{
              static_cast<uint32_t>(f.params.size() - 1), *kind,
              locationOf(ast_, ast_.expr(a.annotation).range)});
          annotated.args.push_back(*kind == "float" ? module_.types.float32()
                                   : *kind == "int" ? module_.types.int32()
                                                    : module_.types.boolean());
          continue;
        }
        auto t = evalTypeExpr(ast_, a.annotation, module_, diags_);
        if (t) {
          annotated.args.push_back(*t);
        } else {
          annotationsOk = false;
        }
      }
    }
    // Only Python scalar annotations beside unannotated parameters (cuTile's
    // samples: `def attn(Q, K, V, Out, qk_scale: float, ...)`): the types come
    // from `--sig`, each checked against its annotation's kind.
    if (typedCount == looseCount && typedCount != runtimeCount) typedCount = 0;
    if (typedCount != 0) {
      f.signatureGiven = true;
      if (typedCount != runtimeCount) {
        diags_.error(f.location, Diag::InvalidSignature,
                     "annotate every non-Constant parameter of `" + f.name + "` or none");
      } else if (annotationsOk) {
        f.signatures.push_back(DeclaredSignature{annotated, f.location});
      }
    }
    uint32_t index = static_cast<uint32_t>(module_.functions.size());
    std::string name = f.name;
    module_.functions.push_back(std::move(f));
    bind(name, Entity{Intrinsic::Function, index, name});
  }

  // `float`, `int` or `bool` when `annotation` names that Python type (not
  // shadowed by a module-level name), else nullopt.
  std::optional<std::string> pythonScalarAnnotation(ExprId annotation) const {
    const auto* n = ast_.expr(annotation).dyn<ast::Name>();
    if (n == nullptr) return std::nullopt;
    std::string name(ast_.str(n->id));
    if (name != "float" && name != "int" && name != "bool") return std::nullopt;
    if (module_.globals.count(name)) return std::nullopt;
    return name;
  }

  // The decorator's meaning: nullopt if it is not cuda.jit.
  bool isJit(ExprId id) {
    auto path = entityPath(ast_, id, module_);
    if (!path) return false;
    auto entity = lookupEntity(*path, module_.types);
    return entity && entity->kind == Intrinsic::Jit;
  }

  Location nameLocation(const Stmt& s, std::string_view name) {
    Location loc = locationOf(ast_, s.range);
    if (loc.line == 0) return loc;
    size_t pos = loc.lineText.find("def", loc.column - 1);
    if (pos != std::string_view::npos) {
      size_t n = loc.lineText.find(name, pos + 3);
      if (n != std::string_view::npos) {
        loc.column = static_cast<uint32_t>(n + 1);
        loc.length = static_cast<uint32_t>(name.size());
        return loc;
      }
    }
    loc.length = 3;
    return loc;
  }

  void visitFunction(StmtId id) {
    const Stmt& s = ast_.stmt(id);
    const ast::FunctionDef& def = *s.functionDef();
    std::string name(ast_.str(def.name));
    ExprId jitDecorator;
    for (ExprId d : ast_.list(def.decoratorList)) {
      ExprId callee = d;
      if (const auto* call = ast_.expr(d).dyn<ast::Call>()) callee = call->func;
      if (isTileKernel(callee)) {
        visitTileKernel(id, d);
        return;
      }
      if (isJit(callee)) {
        jitDecorator = d;
      } else {
        std::string text = "this decorator";
        diags_.warning(locationOf(ast_, ast_.expr(d).range), Diag::InvalidDecorator,
                       "decorator ignored: pykc only knows `cuda.jit`");
      }
    }
    if (!jitDecorator.valid()) {
      // A plain Python function: host code (an error if a kernel calls it).
      bind(name, Entity{Intrinsic::HostValue, 1, name});
      return;
    }
    JitFunction f;
    f.name = name;
    f.stmt = id;
    f.location = nameLocation(s, name);
    const Arguments& args = ast_.arguments(def.args);
    bool paramsOk = true;
    if (!args.posonlyargs.empty() || args.vararg.valid() || !args.kwonlyargs.empty() ||
        args.kwarg.valid() || !args.defaults.empty()) {
      diags_.error(f.location, Diag::UnsupportedFeature,
                   "kernels and device functions take plain positional parameters only "
                   "(no defaults, `*args`, keyword-only or `**kwargs`)");
      paramsOk = false;
    }
    for (ArgId a : ast_.list(args.args)) f.params.push_back(std::string(ast_.str(ast_.arg(a).arg)));
    if (s.isAsync()) {
      diags_.error(f.location, Diag::UnsupportedConstruct, "`async def`");
    }
    if (const auto* call = ast_.expr(jitDecorator).dyn<ast::Call>()) {
      parseJitCall(f, *call);
    }
    if (paramsOk) {
      addAnnotationSignature(f, def);
    }
    uint32_t index = static_cast<uint32_t>(module_.functions.size());
    module_.functions.push_back(std::move(f));
    bind(name, Entity{Intrinsic::Function, index, name});
  }

  void addAnnotationSignature(JitFunction& f, const ast::FunctionDef& def) {
    const Arguments& args = ast_.arguments(def.args);
    auto params = ast_.list(args.args);
    size_t annotated = 0;
    for (ArgId a : params) annotated += ast_.arg(a).annotation.valid() ? 1 : 0;
    if (annotated == 0) return;
    f.signatureGiven = true;
    if (annotated != params.size()) {
      diags_.error(f.location, Diag::InvalidSignature,
                   "annotate every parameter of `" + f.name + "` or none");
      return;
    }
    Signature sig;
    for (ArgId a : params) {
      auto t = evalTypeExpr(ast_, ast_.arg(a).annotation, module_, diags_);
      if (!t) return;
      sig.args.push_back(*t);
    }
    if (def.returns.valid()) {
      auto t = evalTypeExpr(ast_, def.returns, module_, diags_);
      if (!t) return;
      sig.returnType = *t;
    }
    f.signatures.push_back(DeclaredSignature{sig, f.location});
  }

  void addSignature(JitFunction& f, Signature sig, Location loc) {
    if (!f.device && sig.returnType && !module_.types.isNone(*sig.returnType)) {
      diags_.error(loc, Diag::InvalidSignature,
                   "a kernel's signature must return `void`, found `" +
                       module_.types.name(*sig.returnType) + "`");
      return;
    }
    if (!f.device) {
      for (TypeId a : sig.args) {
        if (module_.types.isPointer(a)) {
          diags_.error(loc, Diag::InvalidSignature,
                       "a kernel cannot take `" + module_.types.name(a) +
                           "`: pass an array and `ffi.from_buffer(array)` in the kernel");
          return;
        }
        if (module_.types.isRecord(a)) {
          diags_.error(loc, Diag::InvalidSignature,
                       "a kernel cannot take a record (`" + module_.types.name(a) +
                           "`) by value yet: pass an array of records");
          return;
        }
      }
    }
    if (sig.args.size() != f.params.size()) {
      std::string text = formatSignature(
          module_.types, sig.returnType.value_or(module_.types.none()), sig.args);
      diags_.error(loc, Diag::SignatureArity, text, sig.args.size(), f.name, f.params.size());
      return;
    }
    for (const DeclaredSignature& existing : f.signatures) {
      if (existing.signature.args == sig.args) {
        return;
      }
    }
    f.signatures.push_back(DeclaredSignature{std::move(sig), loc});
  }

  void parseSignatureExpr(JitFunction& f, ExprId id) {
    TypeExprEvaluator evaluator(ast_, module_, diags_);
    Location loc = locationOf(ast_, ast_.expr(id).range);
    auto r = evaluator.eval(id, true);
    if (!r) return;
    if (!r->isSignature && !r->isArgsTuple) {
      diags_.error(loc, Diag::InvalidSignature,
                   "expected a signature such as `\"void(float32[::1])\"`, found a type");
      return;
    }
    addSignature(f, r->signature, loc);
  }

  std::optional<bool> boolOption(const Keyword& k) {
    auto v = foldConstant(ast_, k.value, module_);
    if (!v || (v->kind != ConstValue::Kind::Bool && v->kind != ConstValue::Kind::Int)) {
      diags_.error(locationOf(ast_, ast_.expr(k.value).range), Diag::InvalidDecorator,
                   "`" + std::string(ast_.str(k.arg)) + "` must be True or False");
      return std::nullopt;
    }
    return truthOf(*v);
  }

  void parseJitCall(JitFunction& f, const ast::Call& call) {
    parseJitOptions(f, call);
    auto args = ast_.list(call.args);
    if (args.size() > 1) {
      diags_.error(locationOf(ast_, ast_.expr(args[1]).range), Diag::InvalidDecorator,
                   "`cuda.jit` takes one positional argument (a signature or a list of them)");
    }
    if (!args.empty()) {
      // A kernel whose signature is wrong is not reported again as untyped.
      f.signatureGiven = true;
      ExprId sigId = args[0];
      if (const auto* n = ast_.expr(sigId).dyn<ast::Name>()) {
        auto it = signatureVars_.find(std::string(ast_.str(n->id)));
        if (it != signatureVars_.end()) sigId = it->second;
      }
      const Expr& sig = ast_.expr(sigId);
      bool stringTuple = false;
      if (const auto* tuple = sig.dyn<ast::Tuple>()) {
        stringTuple = !tuple->elts.empty();
        for (ExprId item : ast_.list(tuple->elts)) {
          stringTuple = stringTuple && ast_.expr(item).is<ast::Constant>() &&
                        ast_.constantOf(item).kind == ConstantKind::Str;
        }
      }
      if (const auto* list = sig.dyn<ast::List>()) {
        for (ExprId item : ast_.list(list->elts)) parseSignatureExpr(f, item);
      } else if (stringTuple) {
        for (ExprId item : ast_.list(sig.as<ast::Tuple>().elts)) parseSignatureExpr(f, item);
      } else {
        parseSignatureExpr(f, sigId);
      }
    }
  }

  void parseJitOptions(JitFunction& f, const ast::Call& call) {
    for (KeywordId kid : ast_.list(call.keywords)) {
      const Keyword& k = ast_.keyword(kid);
      Location loc = locationOf(ast_, k.range);
      std::string key(ast_.str(k.arg));
      if (!k.arg.valid()) {
        diags_.error(loc, Diag::InvalidDecorator, "`**kwargs` in `cuda.jit(...)` is not supported");
      } else if (key == "device") {
        if (auto b = boolOption(k)) f.device = *b;
      } else if (key == "fastmath") {
        if (auto b = boolOption(k)) f.options.fastmath = *b;
      } else if (key == "lineinfo") {
        if (auto b = boolOption(k)) f.options.lineinfo = *b;
      } else if (key == "debug") {
        if (auto b = boolOption(k)) {
          f.options.debug = *b;
          // debug=True: `assert`/`raise` in the kernel are reported to the host
          // (docs/compile.md), with line tables; no bounds checks.
          if (*b) f.options.lineinfo = true;
        }
      } else if (key == "opt") {
        if (auto b = boolOption(k)) {
          f.options.opt = *b;
          if (!*b) {
            diags_.warning(loc, Diag::UnsupportedOption,
                           "`opt=False` applies to the whole file in pykc: pass `-O0` to "
                           "compile without optimisation");
          }
        }
      } else if (key == "forceinline") {
        if (auto b = boolOption(k)) f.options.forceinline = *b;
      } else if (key == "max_registers") {
        auto v = foldConstant(ast_, k.value, module_);
        if (!v || v->kind != ConstValue::Kind::Int || v->intValue < 0 || v->intValue > 255) {
          diags_.error(loc, Diag::InvalidDecorator,
                       "`max_registers` must be an integer from 0 to 255");
        } else {
          f.options.maxRegisters = static_cast<unsigned>(v->intValue);
        }
      } else if (key == "inline") {
        // numba inlines `inline="always"` at its IR level; here the LLVM function
        // is alwaysinline (the same code); "never" and others: LLVM decides.
        if (auto c = foldConstant(ast_, k.value, module_);
            c && c->kind == ConstValue::Kind::Str && c->strValue == "always") {
          f.options.forceinline = true;
        }
      } else if (key == "cache" || key == "boundscheck") {
        // cache: pykc has its own cache; boundscheck: numba-cuda ignores it on the GPU.
      } else if (key == "link") {
        std::vector<LinkRef> links = parseLinks(k.value);
        f.options.links.insert(f.options.links.end(), links.begin(), links.end());
      } else if (key == "extensions" || key == "lto") {
        diags_.error(loc, Diag::UnsupportedOption,
                     "`" + key + "=` is not supported by pykc yet");
      } else {
        diags_.error(loc, Diag::InvalidDecorator, "unknown `cuda.jit` option `" + key + "`");
      }
    }
    if (f.device && f.options.maxRegisters != 0) {
      diags_.warning(locationOf(ast_, ast_.expr(call.func).range), Diag::UnsupportedOption,
                     "`max_registers` applies to kernels only; ignored on a device function");
    }
  }

  void applyCommandLineSignatures() {
    for (const std::string& text : options_.sigs) {
      auto parsed = parseNamedSignature(text, module_.types);
      if (auto* err = std::get_if<SignatureError>(&parsed)) {
        diags_.error(Diag::InvalidSignature,
                     "invalid `--sig '" + text + "'`: " + err->message);
        continue;
      }
      auto& named = std::get<NamedSignature>(parsed);
      JitFunction* target = nullptr;
      for (JitFunction& f : module_.functions) {
        if (f.name == named.name) target = &f;
      }
      if (target == nullptr) {
        diags_.error(Diag::UnknownKernel, "`--sig '" + text + "'` names `" + named.name +
                                              "`, which is not a `cuda.jit` function of " +
                                              (ast_.source() ? ast_.source()->path() : "the file"));
        continue;
      }
      addSignature(*target, named.signature, target->location);
    }
  }

  const Ast& ast_;
  const ResolveOptions& options_;
  DiagnosticSink& diags_;
  ResolvedModule module_;
  std::set<std::string> definedByCommandLine_;
  // Module variables holding signature strings (or lists of them), by name.
  std::map<std::string, ExprId> signatureVars_;
  // Module variables holding strings foldPath computed (link paths).
  std::map<std::string, std::string> stringValues_;
  // `ConstBool = ct.Constant[bool]`: the Python type each alias names.
  std::map<std::string, std::string> tileConstAliasKinds_;
};

}  // namespace

ResolvedModule resolveModule(const Ast& ast, const ResolveOptions& options,
                             DiagnosticSink& diags) {
  Resolver resolver(ast, options, diags);
  return resolver.run();
}

}  // namespace frontend
