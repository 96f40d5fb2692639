// The names of numba.cuda's and cuTile's API (intrinsic tables, libdevice, math, fp16, vector types) and link file kinds.
#include "sema/resolve.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <set>

#include "diagnostics/diagnostics.h"
#include "sema/const_instance.h"
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

// scipy.constants' values that every SciPy since 1.4 gives alike: the SI's exact
// constants (2019) and those CODATA derives exactly from them (hbar, R, sigma, Wien: the
// doubles SciPy computes, the same for CODATA 2018 and 2022), exact conventions and the
// decimal prefixes, as SciPy 1.17's scipy.constants prints them. MathConst payloads
// kScipyConstBase + index. Measured constants (`m_e`, `physical_constants`) are not here:
// their digits changed with SciPy 1.15's move to CODATA 2022 (isMeasuredScipyConstant).
constexpr uint32_t kScipyConstBase = 100;
struct ScipyConst {
  std::string_view name;
  double value;
};
constexpr ScipyConst kScipyConsts[] = {
    {"pi", M_PI},
    {"golden", 1.618033988749895},
    {"golden_ratio", 1.618033988749895},
    {"c", 299792458.0},
    {"speed_of_light", 299792458.0},
    {"h", 6.62607015e-34},
    {"Planck", 6.62607015e-34},
    {"hbar", 1.0545718176461565e-34},
    {"g", 9.80665},
    {"e", 1.602176634e-19},
    {"elementary_charge", 1.602176634e-19},
    {"eV", 1.602176634e-19},
    {"electron_volt", 1.602176634e-19},
    {"R", 8.31446261815324},
    {"gas_constant", 8.31446261815324},
    {"N_A", 6.02214076e23},
    {"Avogadro", 6.02214076e23},
    {"k", 1.380649e-23},
    {"Boltzmann", 1.380649e-23},
    {"sigma", 5.6703744191844314e-08},
    {"Stefan_Boltzmann", 5.6703744191844314e-08},
    {"Wien", 0.0028977719551851727},
    {"atm", 101325.0},
    {"atmosphere", 101325.0},
    {"zero_Celsius", 273.15},
    {"quetta", 1e30}, {"ronna", 1e27}, {"yotta", 1e24}, {"zetta", 1e21}, {"exa", 1e18},
    {"peta", 1e15}, {"tera", 1e12}, {"giga", 1e9}, {"mega", 1e6}, {"kilo", 1e3},
    {"hecto", 1e2}, {"deka", 1e1}, {"deci", 1e-1}, {"centi", 1e-2}, {"milli", 1e-3},
    {"micro", 1e-6}, {"nano", 1e-9}, {"pico", 1e-12}, {"femto", 1e-15}, {"atto", 1e-18},
    {"zepto", 1e-21}, {"yocto", 1e-24}, {"ronto", 1e-27}, {"quecto", 1e-30},
};

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
// NumpyFn's names, in its order; `divide` and `mod` are NumPy's aliases.
constexpr std::string_view kNumpyFns[] = {
    "add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "power",
    "left_shift", "right_shift", "bitwise_and", "bitwise_or", "bitwise_xor",
    "maximum", "minimum", "fmax", "fmin", "negative", "positive", "square", "sign",
};
}  // namespace

std::string_view numpyFnName(NumpyFn fn) { return kNumpyFns[static_cast<unsigned>(fn)]; }

unsigned numpyFnArity(NumpyFn fn) {
  return fn >= NumpyFn::Negative ? 1 : 2;
}

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

bool isComplexMathConst(uint32_t payload) { return payload == 5 || payload == 6; }

bool isMeasuredScipyConstant(std::string_view path) {
  static constexpr std::string_view kMeasured[] = {
      "m_e", "electron_mass", "m_p", "proton_mass", "m_n", "neutron_mass", "m_u", "u",
      "atomic_mass", "mu_0", "epsilon_0", "G", "gravitational_constant", "alpha",
      "fine_structure", "Rydberg", "physical_constants"};
  constexpr std::string_view kPrefix = "scipy.constants.";
  if (!path.starts_with(kPrefix)) return false;
  std::string_view name = path.substr(kPrefix.size());
  return std::find(std::begin(kMeasured), std::end(kMeasured), name) != std::end(kMeasured);
}

double mathConstValue(uint32_t payload) {
  if (payload >= kScipyConstBase) return kScipyConsts[payload - kScipyConstBase].value;
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

// torch.<name> for PyTorch's number dtypes and their aliases (torch.half, torch.long, ...).
std::optional<TypeId> torchDtype(TypeTable& types, std::string_view name) {
  if (name == "bool") return types.boolean();
  if (name == "bfloat16") return types.bfloat16();
  if (auto t = float8ByName(types, name)) return t;
  static constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
      {"half", "float16"}, {"float", "float32"}, {"double", "float64"}, {"short", "int16"},
      {"int", "int32"},    {"long", "int64"},    {"cfloat", "complex64"}, {"cdouble", "complex128"}};
  for (auto [alias, real] : kAliases) {
    if (name == alias) return scalarTypeByName(types, real);
  }
  static constexpr std::string_view kNames[] = {"float16", "float32", "float64", "int8", "int16",
                                                "int32", "int64", "uint8", "uint16", "uint32",
                                                "uint64", "complex64", "complex128"};
  for (std::string_view n : kNames) {
    if (name == n) return scalarTypeByName(types, n);
  }
  return std::nullopt;
}
}  // namespace

std::optional<Entity> lookupEntity(std::string_view path, TypeTable& types) {
  // pykc's own modules (issue 19): `from pykc import cuda` is numba.cuda's API
  // and `pykc.tile` cuTile's, so a kernel written for pykc's JIT compiles as the
  // numba or cuTile kernel it is.
  if (path == "pykc") return make(Intrinsic::Module, path);
  for (auto [ours, theirs] : {std::pair<std::string_view, std::string_view>{"pykc.cuda", "numba.cuda"},
                              {"pykc.types", "numba.types"},
                              {"pykc.tile", "cuda.tile"}}) {
    if (path == ours || (path.starts_with(ours) && path[ours.size()] == '.')) {
      return lookupEntity(std::string(theirs) + std::string(path.substr(ours.size())), types);
    }
  }
  // numba-cuda 0.30's spelling of numba's types: `from numba.cuda import types`,
  // `numba.cuda.types.float32[::1]`.
  if (path == "numba.cuda.types" || path.starts_with("numba.cuda.types.")) {
    return lookupEntity("numba.types" + std::string(path.substr(16)), types);
  }
  // cuTile's private modules that real code imports from (TileGym: `from
  // cuda.tile._numeric_semantics import RoundingMode as RMd`, `from cuda.tile._stub
  // import pack_to_bytes`): the same names.
  for (std::string_view inner :
       {"cuda.tile._numeric_semantics", "cuda.tile._datatype", "cuda.tile._memory_model", "cuda.tile._stub"}) {
    if (path == inner) return make(Intrinsic::Module, path);
    if (path.starts_with(inner) && path[inner.size()] == '.') {
      return lookupEntity("cuda.tile" + std::string(path.substr(inner.size())), types);
    }
  }
  // Python's enum module: the bases of a module's enum classes.
  if (path == "enum") return make(Intrinsic::Module, path);
  if (path == "enum.Enum" || path == "enum.IntEnum") return make(Intrinsic::EnumBase, path, path == "enum.IntEnum");
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
    if (auto t = float8ByName(types, rest)) return make(Intrinsic::TypeObject, path, t->index);
    if (rest == "float4_e2m1fn") {
      return make(Intrinsic::TypeObject, path, types.float8(FloatFormat::F4E2M1).index);
    }
    if (rest.find('.') == std::string_view::npos) {
      if (auto t = scalarTypeByName(types, rest)) {
        return make(Intrinsic::TypeObject, path, t->index);
      }
    }
    return std::nullopt;
  }
  // `packaging.version.Version(...)`: folded at module level (version gates, fold.cpp).
  if (path == "packaging" || path == "packaging.version" || path == "packaging.version.Version" ||
      path == "packaging.version.parse") {
    return make(Intrinsic::Module, path);
  }
  // scipy.constants' release-independent values (kScipyConsts) fold as constants.
  if (path == "scipy" || path == "scipy.constants") return make(Intrinsic::Module, path);
  if (path.starts_with("scipy.constants.")) {
    std::string_view attr = path.substr(16);
    for (uint32_t i = 0; i < std::size(kScipyConsts); ++i) {
      if (kScipyConsts[i].name == attr) return make(Intrinsic::MathConst, path, kScipyConstBase + i);
    }
    return std::nullopt;
  }
  // CuPy's constants and dtypes are NumPy's (`cp.nan`, `cp.float32`), which numba freezes
  // or types as NumPy's; CuPy's functions are not numba-typable.
  if (path == "cupy") return make(Intrinsic::Module, path);
  if (path.starts_with("cupy.") && path.find('.', 5) == std::string_view::npos) {
    auto e = lookupEntity("numpy." + std::string(path.substr(5)), types);
    if (e && (e->kind == Intrinsic::MathConst || e->kind == Intrinsic::TypeObject)) return e;
    return std::nullopt;
  }
  // PyTorch's dtypes as values (`ct.arange(n, dtype=torch.int32)` in cuTile's samples).
  if (path == "torch") return make(Intrinsic::Module, path);
  if (path.starts_with("torch.")) {
    if (auto t = torchDtype(types, path.substr(6))) return make(Intrinsic::TypeObject, path, t->index);
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
      path == "os.path" || path == "operator") {
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
  if (parent == "operator") {
    // Python's operator module: the operators as functions (typed as the operators).
    static constexpr std::pair<std::string_view, NumpyFn> kOperators[] = {
        {"add", NumpyFn::Add},           {"sub", NumpyFn::Subtract},  {"mul", NumpyFn::Multiply},
        {"truediv", NumpyFn::TrueDivide}, {"floordiv", NumpyFn::FloorDivide},
        {"mod", NumpyFn::Remainder},     {"pow", NumpyFn::Power},     {"neg", NumpyFn::Negative},
        {"pos", NumpyFn::Positive},      {"lshift", NumpyFn::LeftShift},
        {"rshift", NumpyFn::RightShift}, {"and_", NumpyFn::BitwiseAnd},
        {"or_", NumpyFn::BitwiseOr},     {"xor", NumpyFn::BitwiseXor}};
    if (attr == "abs") return make(Intrinsic::Abs, path);
    // The comparisons: cuTile's comparison functions of the same meaning (tile kernels;
    // `ct.static_eval(func(lhs, rhs))` with `func = operator.gt`).
    static constexpr std::pair<std::string_view, TileFn> kComparisons[] = {
        {"gt", TileFn::Greater}, {"ge", TileFn::GreaterEqual}, {"lt", TileFn::Less},
        {"le", TileFn::LessEqual}, {"eq", TileFn::Equal},      {"ne", TileFn::NotEqual}};
    for (auto [name, fn] : kComparisons) {
      if (name == attr) return make(Intrinsic::TileOp, path, static_cast<uint32_t>(fn));
    }
    for (auto [name, fn] : kOperators) {
      if (name == attr) return make(Intrinsic::NumpyFn, path, static_cast<uint32_t>(fn));
    }
    return std::nullopt;
  }
  if (parent == "numpy") {
    // NumPy's ufuncs on scalars, where numba-cuda types them as the math function
    // of the same meaning (float32 in, float32 out; integers compute in float64).
    static constexpr std::pair<std::string_view, std::string_view> kNumpyMath[] = {
        {"sin", "sin"},         {"cos", "cos"},         {"tan", "tan"},
        {"arcsin", "asin"},     {"arccos", "acos"},     {"arctan", "atan"},
        {"arctan2", "atan2"},   {"hypot", "hypot"},     {"sinh", "sinh"},
        {"cosh", "cosh"},       {"tanh", "tanh"},       {"arcsinh", "asinh"},
        {"arccosh", "acosh"},   {"arctanh", "atanh"},   {"deg2rad", "radians"},
        {"radians", "radians"}, {"rad2deg", "degrees"}, {"degrees", "degrees"},
        {"exp", "exp"},         {"exp2", "exp2"},       {"expm1", "expm1"},
        {"log", "log"},         {"log2", "log2"},       {"log10", "log10"},
        {"log1p", "log1p"},     {"sqrt", "sqrt"},       {"cbrt", "cbrt"},
        {"fabs", "fabs"},       {"floor", "floor"},     {"ceil", "ceil"},
        {"trunc", "trunc"},     {"isnan", "isnan"},     {"isinf", "isinf"},
        {"isfinite", "isfinite"}, {"copysign", "copysign"}, {"fmod", "fmod"},
        {"nextafter", "nextafter"}};
    if (attr == "abs" || attr == "absolute") return make(Intrinsic::Abs, path);
    std::string_view name = attr == "divide" ? "true_divide" : attr == "mod" ? "remainder" : attr;
    for (uint32_t i = 0; i < std::size(kNumpyFns); ++i) {
      if (kNumpyFns[i] == name) return make(Intrinsic::NumpyFn, path, i);
    }
    for (auto [numpyName, mathName] : kNumpyMath) {
      if (numpyName != attr) continue;
      for (uint32_t i = 0; i < std::size(kMathFns); ++i) {
        if (kMathFns[i].name == mathName) return make(Intrinsic::Math, path, i);
      }
    }
  }
  if (parent == "numba" || parent == "numba.types" || parent == "numba.core.types" ||
      parent == "numpy" || parent == "numba.cuda") {
    if (parent == "numba" && attr == "types") return make(Intrinsic::Module, "numba.types");
    if (parent == "numba" && attr == "cuda") return make(Intrinsic::Module, "numba.cuda");
    if (parent == "numba" && (attr == "jit" || attr == "njit")) return make(Intrinsic::CpuJit, path);
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

namespace {

// The shortest `%g` digits that read back as `x` (`3`, `0.1`, `1e+100`), `inf`/`nan`
// as Python spells them.
std::string shortestDigits(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  return buf;
}

}  // namespace

std::string ConstValue::repr() const {
  switch (kind) {
    case Kind::None:
      return "None";
    case Kind::Bool:
      return boolValue ? "True" : "False";
    case Kind::Int:
      return std::to_string(intValue);
    case Kind::Float: {
      // Python's repr: the shortest digits that read back as the same double, with `.0`
      // on whole numbers (3.0, not 3), `inf`/`nan` as Python spells them.
      std::string text = shortestDigits(floatValue);
      if (text.find_first_of(".en") == std::string::npos) text += ".0";
      return text;
    }
    case Kind::Complex: {
      // `1j`, `-2.5j`, `(1+2j)`: the parts without `.0`, as Python writes them.
      std::string im = shortestDigits(imagValue) + "j";
      if (floatValue == 0 && !std::signbit(floatValue)) return im;
      return "(" + shortestDigits(floatValue) + (im[0] == '-' ? "" : "+") + im + ")";
    }
    case Kind::Str:
      return "'" + strValue + "'";
    case Kind::Enum:
      return strValue;
    case Kind::Dtype:
      return "ct." + strValue;
    case Kind::Tuple: {
      if (isConstInstance(*this) || isConstCall(*this)) return constObjectRepr(*this);
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


}  // namespace frontend

namespace frontend {

ConstValue EnumClass::member(size_t i, uint32_t index) const {
  const ConstValue& value = members[i].second;
  if (isInt) return value;
  ConstValue v;
  v.kind = ConstValue::Kind::Enum;
  v.strValue = name + "." + members[canonical[i]].first;
  v.intValue = index;
  v.elements.push_back(value);
  return v;
}

}  // namespace frontend
