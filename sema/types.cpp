#include "sema/types.h"

#include <algorithm>
#include <cassert>

namespace frontend {

TypeTable::TypeTable() {
  none_ = intern(Type{});
  Type b;
  b.kind = TypeKind::Bool;
  b.bits = 1;
  bool_ = intern(b);
}

TypeId TypeTable::intern(const Type& type) {
  auto key = type.key();
  auto it = index_.find(key);
  if (it != index_.end()) {
    return TypeId(it->second);
  }
  types_.push_back(type);
  uint32_t id = static_cast<uint32_t>(types_.size() - 1);
  index_.emplace(std::move(key), id);
  return TypeId(id);
}

TypeId TypeTable::intType(unsigned bits, bool isSigned) {
  Type t;
  t.kind = TypeKind::Int;
  t.bits = static_cast<uint8_t>(bits);
  t.isSigned = isSigned;
  return intern(t);
}

TypeId TypeTable::floatType(unsigned bits) {
  Type t;
  t.kind = TypeKind::Float;
  t.bits = static_cast<uint8_t>(bits);
  return intern(t);
}

TypeId TypeTable::bfloat16() {
  Type t;
  t.kind = TypeKind::Float;
  t.bits = 16;
  t.format = FloatFormat::BFloat;
  return intern(t);
}

TypeId TypeTable::tfloat32() {
  Type t;
  t.kind = TypeKind::Float;
  t.bits = 32;
  t.format = FloatFormat::TFloat;
  return intern(t);
}

TypeId TypeTable::float8(FloatFormat format) {
  Type t;
  t.kind = TypeKind::Float;
  t.bits = 8;
  t.format = format;
  return intern(t);
}

TypeId TypeTable::complexType(unsigned bits) {
  Type t;
  t.kind = TypeKind::Complex;
  t.bits = static_cast<uint8_t>(bits);
  return intern(t);
}

std::vector<int64_t> ArrayFacts::packed() const {
  if (empty()) return {};
  // A raw memory's marker: an alignment (a power of two) is never odd above 1.
  std::vector<int64_t> out{raw ? alignment | 0x80000000u : alignment};
  // Each list after its length: lists of other lengths never run together.
  auto list = [&](const auto& v) {
    out.push_back(static_cast<int64_t>(v.size()));
    out.insert(out.end(), v.begin(), v.end());
  };
  list(strideDivisibleBy);
  list(shapeDivisibleBy);
  list(shapeConstant);
  list(strideConstant);
  out.push_back(view ? 1 + int64_t(viewPadding) : 0);
  list(viewTile);
  list(viewSteps);
  return out;
}

namespace {

// Facts with nothing that says nothing: alignments up to the element's own
// size (every array has those), divisors of 1, a unit stride's divisor (the
// layout says it); all-1 lists are empty.
ArrayFacts normalFacts(ArrayFacts f, unsigned ndim, Layout layout, uint32_t elementBytes) {
  if (f.alignment <= elementBytes) f.alignment = 0;
  auto trim = [&](std::vector<uint32_t>& v, int unitDim) {
    v.resize(ndim, 1);
    if (unitDim >= 0) v[static_cast<size_t>(unitDim)] = 1;
    if (std::all_of(v.begin(), v.end(), [](uint32_t x) { return x <= 1; })) v.clear();
  };
  int unit = layout == Layout::C ? static_cast<int>(ndim) - 1 : layout == Layout::F ? 0 : -1;
  trim(f.strideDivisibleBy, unit);
  trim(f.shapeDivisibleBy, -1);
  // Constants: a unit stride the layout says is no fact; all unknown is none.
  auto trimConstants = [&](std::vector<int64_t>& v, int unitDim) {
    if (v.empty()) return;
    v.resize(ndim, ArrayFacts::kUnknown);
    if (unitDim >= 0 && v[static_cast<size_t>(unitDim)] == 1) v[static_cast<size_t>(unitDim)] = ArrayFacts::kUnknown;
    if (std::all_of(v.begin(), v.end(), [](int64_t x) { return x == ArrayFacts::kUnknown; })) v.clear();
  };
  trimConstants(f.strideConstant, unit);
  trimConstants(f.shapeConstant, -1);
  return f;
}

}  // namespace

TypeId TypeTable::array(TypeId element, unsigned ndim, Layout layout, const ArrayFacts& facts) {
  assert((isScalar(element) || isRecord(element)) && "array elements are scalars or records");
  Type t;
  t.kind = TypeKind::Array;
  t.element = element;
  t.ndim = static_cast<uint8_t>(ndim);
  // numba: a 1-d array that is F-contiguous is C-contiguous.
  t.layout = ndim == 1 && layout == Layout::F ? Layout::C : layout;
  if (!facts.empty()) t.facts = normalFacts(facts, ndim, t.layout, byteSize(element));
  return intern(t);
}

TypeId TypeTable::withoutFacts(TypeId id) {
  const Type& t = get(id);
  if (t.kind != TypeKind::Array || t.facts.empty()) return id;
  ArrayFacts kept;
  kept.raw = t.facts.raw;  // not a hint: what the value is
  // Nor is a tiled view's tile shape, padding and steps.
  kept.view = t.facts.view;
  kept.viewTile = t.facts.viewTile;
  kept.viewSteps = t.facts.viewSteps;
  kept.viewPadding = t.facts.viewPadding;
  return array(t.element, t.ndim, t.layout, kept);
}

TypeId TypeTable::tile(TypeId element, std::vector<int64_t> shape) {
  assert(isNumber(element) && "tile elements are numbers");
  Type t;
  t.kind = TypeKind::Tile;
  t.element = element;
  t.shape = std::move(shape);
  return intern(t);
}

TypeId TypeTable::nestedArray(TypeId element, std::vector<int64_t> shape) {
  assert(isScalar(element) && !shape.empty() && "nested arrays hold scalars");
  Type t;
  t.kind = TypeKind::Array;
  t.element = element;
  t.ndim = static_cast<uint8_t>(shape.size());
  t.layout = Layout::C;
  t.shape = std::move(shape);
  return intern(t);
}

TypeId TypeTable::tuple(std::vector<TypeId> elements) {
  Type t;
  t.kind = TypeKind::Tuple;
  t.elements = std::move(elements);
  return intern(t);
}

TypeId TypeTable::record(std::vector<std::string> names, std::vector<TypeId> fields,
                         std::vector<uint32_t> offsets, uint32_t size, bool aligned) {
  Type t;
  t.kind = TypeKind::Record;
  t.fieldNames = std::move(names);
  t.elements = std::move(fields);
  t.fieldOffsets = std::move(offsets);
  t.size = size;
  t.aligned = aligned;
  return intern(t);
}

std::optional<size_t> TypeTable::fieldIndex(TypeId record, std::string_view name) const {
  const Type& t = get(record);
  for (size_t i = 0; i < t.fieldNames.size(); ++i) {
    if (t.fieldNames[i] == name) return i;
  }
  return std::nullopt;
}

TypeId makeRecord(TypeTable& types, const std::vector<std::pair<std::string, TypeId>>& fields,
                  bool aligned) {
  std::vector<std::string> names;
  std::vector<TypeId> elements;
  std::vector<uint32_t> offsets;
  uint32_t offset = 0;
  uint32_t maxAlign = 1;
  for (const auto& [name, type] : fields) {
    uint32_t size = types.byteSize(type);
    uint32_t align = types.naturalAlign(type);
    if (aligned) {
      offset = (offset + align - 1) / align * align;
      maxAlign = std::max(maxAlign, align);
    }
    names.push_back(name);
    elements.push_back(type);
    offsets.push_back(offset);
    offset += size;
  }
  if (aligned) offset = (offset + maxAlign - 1) / maxAlign * maxAlign;
  return types.record(std::move(names), std::move(elements), std::move(offsets), offset, aligned);
}

TypeId TypeTable::vector(TypeId element, unsigned count) {
  Type t;
  t.kind = TypeKind::Tuple;
  t.elements.assign(count, element);
  t.vectorName = dtypeName(element) + "x" + std::to_string(count);
  return intern(t);
}

TypeId TypeTable::pointer(TypeId pointee) {
  Type t;
  t.kind = TypeKind::Pointer;
  t.element = pointee;
  return intern(t);
}

bool TypeTable::isNumber(TypeId t) const {
  TypeKind k = get(t).kind;
  return k == TypeKind::Bool || k == TypeKind::Int || k == TypeKind::Float;
}

std::string TypeTable::dtypeName(TypeId id) const {
  const Type& t = get(id);
  switch (t.kind) {
    case TypeKind::None:
      return "none";
    case TypeKind::Bool:
      return "bool";
    case TypeKind::Int:
    {
      std::string s = t.isSigned ? "int" : "uint";
      s += std::to_string(t.bits);
      return s;
    }
    case TypeKind::Float:
      if (t.format == FloatFormat::BFloat) return "bfloat16";
      if (t.format == FloatFormat::TFloat) return "tfloat32";
      if (t.format == FloatFormat::F8E4M3) return "float8_e4m3fn";
      if (t.format == FloatFormat::F8E5M2) return "float8_e5m2";
      if (t.format == FloatFormat::F8E8M0) return "float8_e8m0fnu";
      if (t.format == FloatFormat::F4E2M1) return "float4_e2m1fn";
      return "float" + std::to_string(t.bits);
    case TypeKind::Complex:
      return "complex" + std::to_string(t.bits);
    default:
      return name(id);
  }
}

static char layoutChar(Layout l) { return l == Layout::C ? 'C' : l == Layout::F ? 'F' : 'A'; }

// `.assume(alignment=16, stride_divisible_by=(8, 1), shape_divisible_by=(16, 16))`, the
// facts an array type carries (empty without any); the signature parser reads it back.
// A tuple as Python writes it: `(64,)`, `(16, 16)`, `()`; kUnknown as None.
static std::string tupleText(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t d = 0; d < v.size(); ++d) {
    s += (d ? ", " : "") + (v[d] == ArrayFacts::kUnknown ? std::string("None") : std::to_string(v[d]));
  }
  return s + (v.size() == 1 ? ",)" : ")");
}

static std::string factsText(const ArrayFacts& f) {
  std::vector<std::string> parts;
  if (f.alignment != 0) parts.push_back("alignment=" + std::to_string(f.alignment));
  auto list = [&](const char* key, const auto& v) {
    if (v.empty()) return;
    parts.push_back(std::string(key) + "=" + tupleText(std::vector<int64_t>(v.begin(), v.end())));
  };
  list("stride_divisible_by", f.strideDivisibleBy);
  list("shape_divisible_by", f.shapeDivisibleBy);
  list("shape_constant", f.shapeConstant);
  list("stride_constant", f.strideConstant);
  if (parts.empty()) return "";
  std::string s = ".assume(";
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
  return s + ")";
}

// The facts in an ABI code: `q16` (alignment), `s8x1` (stride divisors), `h16x16`
// (extent divisors); letters and digits only.
static std::string factsCode(const ArrayFacts& f) {
  std::string s;
  if (f.raw) s += "r";
  if (f.alignment != 0) s += "q" + std::to_string(f.alignment);
  auto list = [&](char key, const std::vector<uint32_t>& v) {
    if (v.empty()) return;
    s += key;
    for (size_t d = 0; d < v.size(); ++d) s += (d ? "x" : "") + std::to_string(v[d]);
  };
  list('s', f.strideDivisibleBy);
  list('h', f.shapeDivisibleBy);
  // Constants (`u` unknown, `m` a minus) and a view's tile, padding and steps.
  auto constants = [&](char key, const std::vector<int64_t>& v) {
    if (v.empty()) return;
    s += key;
    for (size_t d = 0; d < v.size(); ++d) {
      s += d ? "x" : "";
      s += v[d] == ArrayFacts::kUnknown ? "u" : v[d] < 0 ? "m" + std::to_string(-v[d]) : std::to_string(v[d]);
    }
  };
  constants('k', f.shapeConstant);
  constants('t', f.strideConstant);
  if (f.view) {
    s += "v" + std::to_string(f.viewPadding);
    constants('w', f.viewTile);
    constants('z', f.viewSteps);
  }
  return s;
}

std::string TypeTable::name(TypeId id) const {
  const Type& t = get(id);
  switch (t.kind) {
    case TypeKind::Tile: {
      std::string s = "tile(" + dtypeName(t.element) + ", (";
      for (size_t i = 0; i < t.shape.size(); ++i) s += (i ? ", " : "") + std::to_string(t.shape[i]);
      return s + (t.shape.size() == 1 ? ",))" : "))");
    }
    case TypeKind::Array:
      if (t.facts.raw) return "RawArrayMemory(" + dtypeName(t.element) + ")";
      if (t.facts.view) {
        // cuTile's spelling: `TiledView[array(float32, 1d, C),tile_shape=(64,),...]`.
        static constexpr const char* kPadding[] = {"UNDETERMINED", "ZERO", "NEG_ZERO", "NAN", "POS_INF", "NEG_INF"};
        ArrayFacts base = t.facts;
        base.view = false;
        base.viewTile.clear();
        base.viewSteps.clear();
        return "TiledView[array(" + dtypeName(t.element) + ", " + std::to_string(t.ndim) + "d, " +
               layoutChar(t.layout) + ")" + factsText(base) + ",tile_shape=" + tupleText(t.facts.viewTile) +
               ",padding_mode=" + kPadding[t.facts.viewPadding % 6] +
               ",traversal_steps=" + tupleText(t.facts.viewSteps) + "]";
      }
      if (!t.shape.empty()) {
        // numba's NestedArray name: `nestedarray(int32, (20,))`.
        std::string s = "nestedarray(" + dtypeName(t.element) + ", (";
        for (size_t i = 0; i < t.shape.size(); ++i) s += (i ? ", " : "") + std::to_string(t.shape[i]);
        return s + (t.shape.size() == 1 ? ",))" : "))");
      }
      return "array(" + dtypeName(t.element) + ", " + std::to_string(t.ndim) + "d, " +
             layoutChar(t.layout) + ")" + factsText(t.facts);
    case TypeKind::Tuple: {
      if (!t.vectorName.empty()) return t.vectorName;
      if (t.fieldNames.size() == t.elements.size() + 1) {
        // A dataclass instance (sema/dataclasses.h): `FooBar(int32, float32)`.
        std::string s = t.fieldNames[0] + "(";
        for (size_t i = 0; i < t.elements.size(); ++i) s += (i ? ", " : "") + name(t.elements[i]);
        return s + ")";
      }
      bool uniform = !t.elements.empty() &&
                     std::all_of(t.elements.begin(), t.elements.end(),
                                 [&](TypeId e) { return e == t.elements[0]; });
      if (uniform) {
        return "UniTuple(" + name(t.elements[0]) + " x " + std::to_string(t.elements.size()) +
               ")";
      }
      std::string s = "Tuple(";
      for (size_t i = 0; i < t.elements.size(); ++i) {
        s += (i ? ", " : "") + name(t.elements[i]);
      }
      return s + ")";
    }
    case TypeKind::Pointer:
      return isNone(t.element) ? "voidptr" : "CPointer(" + name(t.element) + ")";
    case TypeKind::Record: {
      // numba's Record name: `Record(x[type=float32;offset=0],...;8;False)`.
      std::string s = "Record(";
      for (size_t i = 0; i < t.elements.size(); ++i) {
        s += (i ? "," : "") + t.fieldNames[i] + "[type=" + name(t.elements[i]) +
             ";offset=" + std::to_string(t.fieldOffsets[i]) + "]";
      }
      return s + ";" + std::to_string(t.size) + ";" + (t.aligned ? "True" : "False") + ")";
    }
    default:
      return dtypeName(id);
  }
}

std::string TypeTable::signatureName(TypeId id) const {
  const Type& t = get(id);
  switch (t.kind) {
    case TypeKind::Bool:
      return "boolean";
    case TypeKind::Array: {
      std::string s = dtypeName(t.element) + "[";
      for (unsigned d = 0; d < t.ndim; ++d) {
        s += d ? ", " : "";
        bool unit = (t.layout == Layout::C && d + 1 == t.ndim) ||
                    (t.layout == Layout::F && d == 0);
        s += unit ? "::1" : ":";
      }
      if (t.ndim == 0) s += "()";  // `int32[()]`, as --sig spells a 0-d array
      return s + "]" + factsText(t.facts);
    }
    case TypeKind::Tuple: {
      // A dataclass (sema/dataclasses.h) as --sig writes it: `Arg(int32, float32)`.
      bool dataclass = t.fieldNames.size() == t.elements.size() + 1;
      std::string s = dataclass ? t.fieldNames[0] + "(" : "Tuple(";
      for (size_t i = 0; i < t.elements.size(); ++i) {
        s += (i ? ", " : "") + signatureName(t.elements[i]);
      }
      return s + ")";
    }
    case TypeKind::None:
      return "void";
    case TypeKind::Pointer:
      return isNone(t.element) ? "voidptr" : "CPointer(" + signatureName(t.element) + ")";
    default:
      return dtypeName(id);
  }
}

std::string TypeTable::abiCode(TypeId id) const {
  const Type& t = get(id);
  switch (t.kind) {
    case TypeKind::None:
      return "v";
    case TypeKind::Bool:
      return "b1";
    case TypeKind::Int:
    {
      std::string s = t.isSigned ? "i" : "u";
      s += std::to_string(t.bits);
      return s;
    }
    case TypeKind::Float:
      if (t.format == FloatFormat::BFloat) return "bf16";
      if (t.format == FloatFormat::TFloat) return "tf32";
      if (t.format == FloatFormat::F8E4M3) return "f8e4m3";
      if (t.format == FloatFormat::F8E5M2) return "f8e5m2";
      if (t.format == FloatFormat::F8E8M0) return "f8e8m0";
      if (t.format == FloatFormat::F4E2M1) return "f4e2m1";
      return "f" + std::to_string(t.bits);
    case TypeKind::Complex:
      return "c" + std::to_string(t.bits);
    case TypeKind::Array:
    {
      std::string s = abiCode(t.element);
      s += 'a';
      s += std::to_string(t.ndim);
      s += layoutChar(t.layout);
      // A nested array's extents: `i32a1Cn20`, `f64a2Cn2x3`.
      for (size_t d = 0; d < t.shape.size(); ++d) s += (d ? "x" : "n") + std::to_string(t.shape[d]);
      return s + factsCode(t.facts);
    }
    case TypeKind::Tuple: {
      if (!t.vectorName.empty()) return "x" + abiCode(t.elements[0]) + std::to_string(t.elements.size());
      std::string s = "t" + std::to_string(t.elements.size());
      // A dataclass (sema/dataclasses.h): its class too (`D4Pair` then the fields).
      if (t.fieldNames.size() == t.elements.size() + 1) {
        s = "D" + std::to_string(t.fieldNames[0].size()) + t.fieldNames[0] + std::to_string(t.elements.size());
      }
      for (TypeId e : t.elements) {
        s += abiCode(e);
      }
      return s;
    }
    case TypeKind::Pointer:
      return "p" + abiCode(t.element);
    case TypeKind::Tile:
      return "?";
    case TypeKind::Record: {
      // r<fields>_<name length><name><code>o<offset>..._<size>[a]
      std::string s = "r" + std::to_string(t.elements.size());
      for (size_t i = 0; i < t.elements.size(); ++i) {
        s += "_" + std::to_string(t.fieldNames[i].size()) + t.fieldNames[i] +
             abiCode(t.elements[i]) + "o" + std::to_string(t.fieldOffsets[i]);
      }
      return s + "_" + std::to_string(t.size) + (t.aligned ? "a" : "");
    }
  }
  return "?";
}

unsigned TypeTable::byteSize(TypeId id) const {
  const Type& t = get(id);
  switch (t.kind) {
    case TypeKind::Bool:
      return 1;
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Complex:
      return t.bits / 8;
    case TypeKind::Record:
      return t.size;
    case TypeKind::Array:
      if (!t.shape.empty()) {
        unsigned n = byteSize(t.element);
        for (int64_t e : t.shape) n *= static_cast<unsigned>(e);
        return n;
      }
      return 8;
    default:
      return 8;
  }
}

unsigned TypeTable::naturalAlign(TypeId id) const {
  const Type& t = get(id);
  switch (t.kind) {
    case TypeKind::Complex:
      return t.bits / 16;
    case TypeKind::Array:
      return t.shape.empty() ? 8 : naturalAlign(t.element);
    case TypeKind::Record: {
      if (!t.aligned) return 1;
      unsigned align = 1;
      for (TypeId f : t.elements) align = std::max(align, naturalAlign(f));
      return align;
    }
    default:
      return byteSize(id);
  }
}

std::optional<TypeId> float8ByName(TypeTable& types, std::string_view name) {
  if (name == "float8_e4m3fn") return types.float8(FloatFormat::F8E4M3);
  if (name == "float8_e5m2") return types.float8(FloatFormat::F8E5M2);
  if (name == "float8_e8m0fnu") return types.float8(FloatFormat::F8E8M0);
  return std::nullopt;
}

std::optional<TypeId> scalarTypeByName(TypeTable& types, std::string_view n) {
  struct Entry {
    std::string_view name;
    TypeKind kind;
    unsigned bits;
    bool isSigned;
  };
  static constexpr Entry kEntries[] = {
      {"boolean", TypeKind::Bool, 1, false}, {"bool_", TypeKind::Bool, 1, false},
      {"b1", TypeKind::Bool, 1, false},      {"bool", TypeKind::Bool, 1, false},
      {"int8", TypeKind::Int, 8, true},      {"i1", TypeKind::Int, 8, true},
      {"int16", TypeKind::Int, 16, true},    {"i2", TypeKind::Int, 16, true},
      {"int32", TypeKind::Int, 32, true},    {"i4", TypeKind::Int, 32, true},
      {"int64", TypeKind::Int, 64, true},    {"i8", TypeKind::Int, 64, true},
      {"intp", TypeKind::Int, 64, true},     {"intc", TypeKind::Int, 32, true},
      {"int_", TypeKind::Int, 64, true},     {"byte", TypeKind::Int, 8, false},
      {"uint8", TypeKind::Int, 8, false},    {"u1", TypeKind::Int, 8, false},
      {"uint16", TypeKind::Int, 16, false},  {"u2", TypeKind::Int, 16, false},
      {"uint32", TypeKind::Int, 32, false},  {"u4", TypeKind::Int, 32, false},
      {"uint64", TypeKind::Int, 64, false},  {"u8", TypeKind::Int, 64, false},
      {"uintp", TypeKind::Int, 64, false},   {"uintc", TypeKind::Int, 32, false},
      {"float16", TypeKind::Float, 16, false}, {"f2", TypeKind::Float, 16, false},
      {"half", TypeKind::Float, 16, false},
      {"float32", TypeKind::Float, 32, false}, {"f4", TypeKind::Float, 32, false},
      {"float64", TypeKind::Float, 64, false}, {"f8", TypeKind::Float, 64, false},
      {"double", TypeKind::Float, 64, false},  {"float_", TypeKind::Float, 64, false},
      {"single", TypeKind::Float, 32, false},
      {"complex64", TypeKind::Complex, 64, false}, {"c8", TypeKind::Complex, 64, false},
      {"csingle", TypeKind::Complex, 64, false},
      {"complex128", TypeKind::Complex, 128, false}, {"c16", TypeKind::Complex, 128, false},
      {"complex_", TypeKind::Complex, 128, false}, {"cdouble", TypeKind::Complex, 128, false},
      {"none", TypeKind::None, 0, false},    {"void", TypeKind::None, 0, false},
  };
  for (const Entry& e : kEntries) {
    if (e.name == n) {
      switch (e.kind) {
        case TypeKind::Bool:
          return types.boolean();
        case TypeKind::Int:
          return types.intType(e.bits, e.isSigned);
        case TypeKind::Float:
          return types.floatType(e.bits);
        case TypeKind::Complex:
          return types.complexType(e.bits);
        default:
          return types.none();
      }
    }
  }
  return std::nullopt;
}

bool isUnsupportedTypeName(std::string_view n) {
  static constexpr std::string_view kNames[] = {
      "bfloat16", "datetime64", "timedelta64", "float128", "longdouble",
  };
  return std::find(std::begin(kNames), std::end(kNames), n) != std::end(kNames);
}

namespace {

// numba treats bool as a signed integer in integer operator typing.
bool signedLike(const Type& t) { return t.kind == TypeKind::Bool || t.isSigned; }

// The float type an operation of `a` and `b` (at least one a float) runs in:
// numba's safe conversions let bool and 8/16-bit integers join float32.
TypeId floatOperand(TypeTable& types, TypeId a, TypeId b) {
  const Type& ta = types.get(a);
  const Type& tb = types.get(b);
  auto width = [](const Type& t) -> unsigned {
    if (t.kind == TypeKind::Float) return t.bits;
    // numba: bool joins float16; 8/16-bit integers make float32.
    if (t.kind == TypeKind::Bool) return 16;
    if (t.bits <= 16) return 32;
    return 64;
  };
  return types.floatType(std::max(width(ta), width(tb)));
}

// The complex type `a` and `b` (at least one complex) meet in: NumPy's
// promotion, as numba's safe conversions (int64 + complex64 is complex128).
TypeId complexOperand(TypeTable& types, TypeId a, TypeId b) {
  auto partWidth = [&](TypeId id) -> unsigned {
    const Type& t = types.get(id);
    if (t.kind == TypeKind::Complex) return t.bits / 2;
    if (t.kind == TypeKind::Float) return t.bits;
    if (t.kind == TypeKind::Bool || t.bits <= 16) return 32;
    return 64;
  };
  return types.complexType(2 * std::max(partWidth(a), partWidth(b)));
}

}  // namespace

std::optional<OpTyping> binaryResultType(TypeTable& types, ArithOp op, TypeId lhs, TypeId rhs) {
  if (types.isScalar(lhs) && types.isScalar(rhs) &&
      (types.isComplex(lhs) || types.isComplex(rhs))) {
    // numba: + - * / ** on complex numbers (`**` of the joint complex type,
    // numba-cuda's cpow); `//`, `%` and the bitwise operators are errors.
    if (op != ArithOp::Add && op != ArithOp::Sub && op != ArithOp::Mul && op != ArithOp::TrueDiv &&
        op != ArithOp::Pow) {
      return std::nullopt;
    }
    TypeId c = complexOperand(types, lhs, rhs);
    return OpTyping{c, c, TypeId()};
  }
  if (!types.isNumber(lhs) || !types.isNumber(rhs)) {
    return std::nullopt;
  }
  const Type& l = types.get(lhs);
  const Type& r = types.get(rhs);
  bool bothIntegral = types.isIntegral(lhs) && types.isIntegral(rhs);
  if (bothIntegral) {
    if ((op == ArithOp::BitAnd || op == ArithOp::BitOr || op == ArithOp::BitXor) &&
        l.kind == TypeKind::Bool && r.kind == TypeKind::Bool) {
      return OpTyping{types.boolean(), types.boolean(), TypeId()};
    }
    if (op == ArithOp::TrueDiv) {
      return OpTyping{types.float64(), types.float64(), TypeId()};
    }
    if (op == ArithOp::LShift || op == ArithOp::RShift) {
      TypeId result = types.intType(64, signedLike(l));
      return OpTyping{result, result, TypeId()};
    }
    TypeId result = types.intType(64, signedLike(l) || signedLike(r));
    return OpTyping{result, result, op == ArithOp::Pow ? result : TypeId()};
  }
  switch (op) {
    case ArithOp::LShift:
    case ArithOp::RShift:
    case ArithOp::BitAnd:
    case ArithOp::BitOr:
    case ArithOp::BitXor:
      return std::nullopt;
    case ArithOp::Pow:
      if (l.kind == TypeKind::Float && types.isIntegral(rhs)) {
        // numba: (float, intp) -> float, computed by repeated multiplication
        // (float16 in float32, as numba-cuda).
        TypeId base = l.bits == 16 ? types.float32() : lhs;
        return OpTyping{base, base, types.int64()};
      }
      break;
    default:
      break;
  }
  TypeId operand = floatOperand(types, lhs, rhs);
  if (types.get(operand).bits == 16 && op != ArithOp::Add && op != ArithOp::Sub &&
      op != ArithOp::Mul && op != ArithOp::TrueDiv) {
    // numba-cuda: float16 has native + - * /; `//`, `%` and `**` compute in float32.
    operand = types.float32();
  }
  return OpTyping{operand, operand, TypeId()};
}

std::optional<TypeId> comparisonType(TypeTable& types, TypeId lhs, TypeId rhs) {
  if (types.isScalar(lhs) && types.isScalar(rhs) &&
      (types.isComplex(lhs) || types.isComplex(rhs))) {
    // Only == and != (the checker rejects the orderings).
    return complexOperand(types, lhs, rhs);
  }
  if (!types.isNumber(lhs) || !types.isNumber(rhs)) {
    return std::nullopt;
  }
  if (types.isBool(lhs) && types.isBool(rhs)) {
    return types.boolean();
  }
  if (types.isIntegral(lhs) && types.isIntegral(rhs)) {
    return types.intType(64, signedLike(types.get(lhs)) || signedLike(types.get(rhs)));
  }
  return floatOperand(types, lhs, rhs);
}

std::optional<TypeId> unifyTypes(TypeTable& types, TypeId a, TypeId b) {
  if (a == b) {
    return a;
  }
  const Type& ta = types.get(a);
  const Type& tb = types.get(b);
  if (types.isScalar(a) && types.isScalar(b) && (types.isComplex(a) || types.isComplex(b))) {
    return complexOperand(types, a, b);
  }
  if (types.isNumber(a) && types.isNumber(b)) {
    if (ta.kind == TypeKind::Bool) return b;
    if (tb.kind == TypeKind::Bool) return a;
    if (ta.kind == TypeKind::Float || tb.kind == TypeKind::Float) {
      auto width = [](const Type& t) -> unsigned {
        if (t.kind == TypeKind::Float) return t.bits;
        if (t.bits <= 8) return 16;
        return t.bits <= 16 ? 32 : 64;
      };
      return types.floatType(std::max(width(ta), width(tb)));
    }
    // Both integers: NumPy's promote_types.
    if (ta.isSigned == tb.isSigned) {
      return types.intType(std::max(ta.bits, tb.bits), ta.isSigned);
    }
    const Type& s = ta.isSigned ? ta : tb;
    const Type& u = ta.isSigned ? tb : ta;
    if (s.bits > u.bits) {
      return types.intType(s.bits, true);
    }
    if (u.bits < 64) {
      return types.intType(std::max<unsigned>(s.bits, u.bits * 2), true);
    }
    return types.float64();
  }
  if (ta.kind == TypeKind::Array && tb.kind == TypeKind::Array) {
    if (ta.element == tb.element && ta.ndim == tb.ndim) {
      return types.array(ta.element, ta.ndim, Layout::A);
    }
    return std::nullopt;
  }
  if (ta.kind == TypeKind::Tuple && tb.kind == TypeKind::Tuple &&
      ta.elements.size() == tb.elements.size()) {
    std::vector<TypeId> elements;
    std::vector<TypeId> ea = ta.elements;
    std::vector<TypeId> eb = tb.elements;
    for (size_t i = 0; i < ea.size(); ++i) {
      auto u = unifyTypes(types, ea[i], eb[i]);
      if (!u) {
        return std::nullopt;
      }
      elements.push_back(*u);
    }
    return types.tuple(std::move(elements));
  }
  return std::nullopt;
}

std::optional<TypeId> unaryResultType(TypeTable& types, UnaryOpKind op, TypeId operand) {
  const Type& t = types.get(operand);
  switch (op) {
    case UnaryOpKind::Not:
      return types.boolean();
    case UnaryOpKind::Invert:
      if (t.kind == TypeKind::Bool) return types.boolean();
      if (t.kind == TypeKind::Int) return types.intType(64, t.isSigned);
      return std::nullopt;
    case UnaryOpKind::UAdd:
    case UnaryOpKind::USub:
      if (t.kind == TypeKind::Bool) return types.int64();
      if (t.kind == TypeKind::Int) return types.intType(64, t.isSigned);
      if (t.kind == TypeKind::Float || t.kind == TypeKind::Complex) return operand;
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<TypeId> rangeType(TypeTable& types, const std::vector<TypeId>& args) {
  bool allSmallSigned = true;
  bool allUnsigned = true;
  for (TypeId a : args) {
    const Type& t = types.get(a);
    if (t.kind == TypeKind::Bool) {
      allUnsigned = false;
      continue;
    }
    if (t.kind != TypeKind::Int) {
      return std::nullopt;
    }
    allSmallSigned = allSmallSigned && t.isSigned && t.bits <= 32;
    allUnsigned = allUnsigned && !t.isSigned;
  }
  if (allSmallSigned) return types.int32();
  if (allUnsigned) return types.uint64();
  return types.int64();
}

}  // namespace frontend
