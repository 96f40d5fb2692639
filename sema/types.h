#pragma once
// The types of kernel values (numba's type system, the part pykc supports):
// bool, int8..int64, uint8..uint64, float32, float64, arrays of those (any
// ndim, C/F/A layout), tuples, and `none` (void). Types are interned in a
// TypeTable and referred to by TypeId; equal types have equal ids.
//
// Also the typing rules numba applies to them (numba 0.61 / numba-cuda
// 0.30.4, measured with `numba.cuda.compile_ptx`): operator result types
// (`binaryResultType`), unification of a variable's assignments
// (`unifyTypes`, NumPy's promote_types), and conversions.
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "syntax/ast.h"

namespace frontend {

using TypeId = Id<struct TypeTag>;

// Pointer: numba's CPointer(T) (`voidptr` is a pointer to none), only for
// the arguments of `cuda.declare_device` functions (docs/INTEROP.md).
// Tile: a cuTile Python tile (docs/TILE.md), an immutable block-level value
// of a compile-time shape; never a kernel parameter.
// Record: a NumPy structured dtype (numba's `Record`), as an array element;
// its value is a reference to the record in the array (numba's semantics:
// `r = a[i]; r.x = 1` writes into `a`). A field may be a nested array (numba's
// `NestedArray`: an Array type with its fixed `shape`, C layout), whose value is
// an array viewing the record's bytes.
enum class TypeKind : uint8_t { None, Bool, Int, Float, Array, Tuple, Complex, Pointer, Tile, Record };
enum class Layout : uint8_t { C, F, A };
// A float's format: IEEE binary16/32/64, or a tensor-core format (bfloat16:
// 16 bits, 8 exponent bits; tfloat32: a float32 rounded to 10 mantissa bits).
// Only tile kernels have the tensor-core formats.
// Ieee: float16/32/64; BFloat: bfloat16; TFloat: tfloat32 (tensor-core operands);
// the 8-bit floats (OCP FP8, cuTile's): E4M3 `float8_e4m3fn` (no infinities, one NaN
// pattern), E5M2 `float8_e5m2` (IEEE-like), E8M0 `float8_e8m0fnu` (powers of two,
// unsigned: block scales); and OCP's 4-bit E2M1 `float4_e2m1fn` (no infinities or NaN,
// +-0..6), whose Type has bits 8: a tile holds one code per byte, in the low nibble;
// `ct.pack_to_bytes` packs two per byte (TypeTable::dataBits).
enum class FloatFormat : uint8_t { Ieee, BFloat, TFloat, F8E4M3, F8E5M2, F8E8M0, F4E2M1 };

// What is known at launch about an array argument beyond its layout (cuTile's
// specialisation facts; docs/TILE.md, "Array facts"): its base address is a
// multiple of `alignment` bytes, each stride a multiple of `strideDivisibleBy[d]`
// elements and each extent of `shapeDivisibleBy[d]`. 0 / empty: nothing known.
// Written in signatures as `float32[:, ::1].assume(alignment=16, ...)`.
struct ArrayFacts {
  uint32_t alignment = 0;
  std::vector<uint32_t> strideDivisibleBy;
  std::vector<uint32_t> shapeDivisibleBy;
  // cuTile's RawArrayMemory (`x.get_raw_memory()`): the array's base pointer, read and
  // written by element offset (1-D, no extent, unit stride). Not an array to ct.load.
  bool raw = false;
  // cuTile's specialisation constants (its ArrayConstraint's `shape_constant` and
  // `stride_constant`, which `ct.ArrayAnnotation(static_shape_dims=, static_stride_dims=)`
  // asks for): per dimension the extent (stride, in elements) every launch gives, or
  // kUnknown; empty: none. `x.shape[d]` / `x.strides[d]` are then compile-time constants.
  // Written `.assume(shape_constant=(16, None), stride_constant=(10, None))`.
  static constexpr int64_t kUnknown = INT64_MIN;
  std::vector<int64_t> shapeConstant;
  std::vector<int64_t> strideConstant;
  // cuTile's TiledView (`x.tiled_view(tile_shape, padding_mode=, traversal_steps=)`): the
  // array seen as a grid of tiles of `viewTile` (empty: 0-d tiles, one element each) whose
  // origins are `viewSteps` elements apart along each axis, padded with `viewPadding`
  // (cuTile's PaddingMode in its order: 0 UNDETERMINED, 1 ZERO, 2 NEG_ZERO, 3 NAN,
  // 4 POS_INF, 5 NEG_INF). No array to ct.load or `.shape`: only the view's own
  // attributes and methods.
  bool view = false;
  std::vector<int64_t> viewTile;
  std::vector<int64_t> viewSteps;
  uint32_t viewPadding = 0;

  bool empty() const {
    return alignment == 0 && strideDivisibleBy.empty() && shapeDivisibleBy.empty() && !raw &&
           shapeConstant.empty() && strideConstant.empty() && !view;
  }
  uint32_t strideDivisor(size_t d) const { return d < strideDivisibleBy.size() ? strideDivisibleBy[d] : 1; }
  uint32_t shapeDivisor(size_t d) const { return d < shapeDivisibleBy.size() ? shapeDivisibleBy[d] : 1; }
  // The constant extent (stride) of dimension d, or kUnknown.
  int64_t shapeConst(size_t d) const { return d < shapeConstant.size() ? shapeConstant[d] : kUnknown; }
  int64_t strideConst(size_t d) const { return d < strideConstant.size() ? strideConstant[d] : kUnknown; }
  // Whether the base is known to be a multiple of `bytes`.
  bool alignedTo(uint64_t bytes) const { return alignment != 0 && alignment % bytes == 0; }
  // One vector for Type::key: alignment, the stride and shape divisors, the constants
  // and the view's fields.
  std::vector<int64_t> packed() const;
};

struct Type {
  TypeKind kind = TypeKind::None;
  // Int/Float/Complex: the bit width (complex64: 64); Int: signedness.
  uint8_t bits = 0;
  bool isSigned = false;
  // Float: the format (bfloat16 has bits 16, tfloat32 bits 32).
  FloatFormat format = FloatFormat::Ieee;
  // Array: element type (a scalar), ndim >= 1 and layout. Pointer: the
  // pointee (a scalar, or none for voidptr).
  TypeId element;
  uint8_t ndim = 0;
  Layout layout = Layout::A;
  // Tuple: the element types. Record: the field types.
  std::vector<TypeId> elements;
  // Tile: the shape (powers of two; empty for a 0-d tile); `element` is the dtype.
  // Array: a nested array's fixed extents (a record field's), empty otherwise.
  std::vector<int64_t> shape;
  // Record: the field names and byte offsets, the itemsize, and whether the
  // dtype was made with `align=True`.
  std::vector<std::string> fieldNames;
  std::vector<uint32_t> fieldOffsets;
  uint32_t size = 0;
  bool aligned = false;
  // Tuple: a CUDA vector type's name (`float32x4`), empty for plain tuples.
  // A vector is a tuple of 1-4 elements of one type with `.x .y .z .w`.
  std::string vectorName;
  // Array: what is known at launch (normalised by TypeTable::array: no fact
  // that says nothing, none the layout already says).
  ArrayFacts facts;

  using Key = std::tuple<TypeKind, uint8_t, bool, FloatFormat, uint32_t, uint8_t, Layout, std::vector<TypeId>,
                         std::vector<int64_t>, std::vector<std::string>, std::vector<uint32_t>,
                         uint32_t, bool, std::string, std::vector<int64_t>>;
  Key key() const {
    return Key(kind, bits, isSigned, format, element.index, ndim, layout, elements, shape, fieldNames,
               fieldOffsets, size, aligned, vectorName, facts.packed());
  }
};

// Owns every type of one compilation. Not thread-safe; ids are stable.
class TypeTable {
public:
  TypeTable();

  TypeId intern(const Type& type);
  const Type& get(TypeId id) const { return types_[id.index]; }

  TypeId none() const { return none_; }
  TypeId boolean() const { return bool_; }
  TypeId intType(unsigned bits, bool isSigned);
  TypeId floatType(unsigned bits);
  TypeId int32() { return intType(32, true); }
  TypeId int64() { return intType(64, true); }
  TypeId uint64() { return intType(64, false); }
  TypeId float32() { return floatType(32); }
  TypeId float64() { return floatType(64); }
  TypeId bfloat16();
  TypeId tfloat32();
  // An 8-bit float of `format` (F8E4M3, F8E5M2 or F8E8M0), or float4_e2m1fn (F4E2M1,
  // held in a byte as the 8-bit floats are).
  TypeId float8(FloatFormat format);
  bool isFloat4(TypeId t) const { return get(t).kind == TypeKind::Float && get(t).format == FloatFormat::F4E2M1; }
  // The bits of a value in packed memory (`ct.pack_to_bytes`): 4 for float4_e2m1fn, else `bits`.
  unsigned dataBits(TypeId t) const { return isFloat4(t) ? 4 : get(t).bits; }
  // A float of IEEE binary16 (float16).
  bool isHalf(TypeId t) const {
    const Type& x = get(t);
    return x.kind == TypeKind::Float && x.bits == 16 && x.format == FloatFormat::Ieee;
  }
  bool isBFloat16(TypeId t) const { return get(t).kind == TypeKind::Float && get(t).format == FloatFormat::BFloat; }
  bool isTFloat32(TypeId t) const { return get(t).kind == TypeKind::Float && get(t).format == FloatFormat::TFloat; }
  bool isFloat8(TypeId t) const { return get(t).kind == TypeKind::Float && get(t).bits == 8; }
  // tfloat32 and the 8-bit floats: tile dtypes without arithmetic (loads,
  // stores, astype and ct.mma operands).
  bool isNoArithmetic(TypeId t) const { return isTFloat32(t) || isFloat8(t); }
  // complex64 (bits 64) or complex128 (bits 128).
  TypeId complexType(unsigned bits);
  // The complex type whose parts are `part` (float32 -> complex64).
  TypeId complexOf(TypeId part) { return complexType(get(part).bits * 2); }
  // The float type of a complex's parts.
  TypeId complexPart(TypeId c) { return floatType(get(c).bits / 2); }
  TypeId array(TypeId element, unsigned ndim, Layout layout, const ArrayFacts& facts = {});
  // `array` without its facts (itself when it has none).
  TypeId withoutFacts(TypeId array);
  TypeId tuple(std::vector<TypeId> elements);
  // numba's NestedArray(element, shape): a record field holding a C-contiguous
  // array of fixed extents (`('password', '<i4', 20)`).
  TypeId nestedArray(TypeId element, std::vector<int64_t> shape);
  bool isNestedArray(TypeId t) const { return isArray(t) && !get(t).shape.empty(); }
  // A record of scalar (or nested-array) fields at the given offsets (NumPy's layout rules are
  // the caller's: makeRecord below).
  TypeId record(std::vector<std::string> names, std::vector<TypeId> fields,
                std::vector<uint32_t> offsets, uint32_t size, bool aligned);
  // The CUDA vector type `<dtype>x<count>` (numba-cuda's vector_types.py).
  TypeId vector(TypeId element, unsigned count);
  bool isVector(TypeId t) const { return isTuple(t) && !get(t).vectorName.empty(); }
  // CPointer(pointee); pointer(none()) is `voidptr`.
  TypeId pointer(TypeId pointee);
  // A tile of `element` (a number type) and `shape`.
  TypeId tile(TypeId element, std::vector<int64_t> shape);
  TypeId uniTuple(TypeId element, unsigned count) {
    return tuple(std::vector<TypeId>(count, element));
  }

  bool isNone(TypeId t) const { return get(t).kind == TypeKind::None; }
  bool isBool(TypeId t) const { return get(t).kind == TypeKind::Bool; }
  bool isInt(TypeId t) const { return get(t).kind == TypeKind::Int; }
  bool isFloat(TypeId t) const { return get(t).kind == TypeKind::Float; }
  bool isArray(TypeId t) const { return get(t).kind == TypeKind::Array; }
  // cuTile's TiledView (an array type whose facts say `view`).
  bool isTiledView(TypeId t) const { return isArray(t) && get(t).facts.view; }
  bool isTuple(TypeId t) const { return get(t).kind == TypeKind::Tuple; }
  bool isComplex(TypeId t) const { return get(t).kind == TypeKind::Complex; }
  bool isPointer(TypeId t) const { return get(t).kind == TypeKind::Pointer; }
  bool isTile(TypeId t) const { return get(t).kind == TypeKind::Tile; }
  bool isRecord(TypeId t) const { return get(t).kind == TypeKind::Record; }
  // The index of a record's field, or nullopt.
  std::optional<size_t> fieldIndex(TypeId record, std::string_view name) const;
  // Bool, Int or Float (real numbers: what most intrinsics accept).
  bool isNumber(TypeId t) const;
  // A number or a complex: what arrays hold and arithmetic accepts.
  bool isScalar(TypeId t) const { return isNumber(t) || isComplex(t); }
  // Int or Bool (what integer operators accept).
  bool isIntegral(TypeId t) const { return isInt(t) || isBool(t); }

  // numba's spelling, as in its error messages and signatures: `float32`,
  // `bool`, `array(float32, 1d, C)`, `tile(float32, (1, 1024))`, `UniTuple(int64 x 2)`, `Tuple(int32, float64)`.
  std::string name(TypeId t) const;
  // The signature-string spelling: `float32[::1]`, `int64[:, :]`, `boolean`,
  // `float32[::1, :]`, `UniTuple(int64, 2)`, `Tuple(int32, float64)`.
  std::string signatureName(TypeId t) const;
  // NumPy's dtype name of a scalar (`bool`, `int32`, `float32`).
  std::string dtypeName(TypeId t) const;
  // The ABI code of docs/ABI.md (`f32`, `b1`, `f32a1C`, `t2i64i64`).
  std::string abiCode(TypeId t) const;
  // Size in bytes of a scalar in memory (bool is one byte), a record, or a
  // nested array (its elements).
  unsigned byteSize(TypeId t) const;
  // The alignment NumPy gives a record field or array element of type `t`: a
  // scalar's size (a complex's part), a nested array's element's, an aligned
  // record's largest field's, 1 for a packed record.
  unsigned naturalAlign(TypeId t) const;

private:
  // A deque: references get() returned stay valid while later types are interned
  // (checkers hold one across calls that intern tuple and tile types).
  std::deque<Type> types_;
  std::map<Type::Key, uint32_t> index_;
  TypeId none_;
  TypeId bool_;
};

// A numba type name as written in signatures and as a module attribute
// (`float32`, `f4`, `int64`, `intp`, `boolean`, `b1`, `bool_`, `uint8`, ...),
// or std::nullopt. `none`/`void` give the None type.
std::optional<TypeId> scalarTypeByName(TypeTable& types, std::string_view name);

// cuTile's and PyTorch's 8-bit float names (`float8_e4m3fn`, `float8_e5m2`,
// `float8_e8m0fnu`), or std::nullopt: tile kernels only. Not `float4_e2m1fn`: no array
// holds it (PyTorch's float4_e2m1fn_x2 packs two per byte; cuTile takes uint8 arrays).
std::optional<TypeId> float8ByName(TypeTable& types, std::string_view name);

// A NumPy structured dtype of scalar (or nested-array) fields, laid out as NumPy does: packed,
// or with `aligned` each field at a multiple of its size and the itemsize a
// multiple of the largest one.
TypeId makeRecord(TypeTable& types, const std::vector<std::pair<std::string, TypeId>>& fields,
                  bool aligned);

// Whether `name` is a numba or NumPy scalar type pykc knows but does not
// support (`float16`, `complex64`, ...), for a better message.
bool isUnsupportedTypeName(std::string_view name);

// --- numba's typing rules --------------------------------------------------

// The operators typed by binaryResultType.
enum class ArithOp : uint8_t {
  Add, Sub, Mul, TrueDiv, FloorDiv, Mod, Pow, LShift, RShift, BitAnd, BitOr, BitXor,
};

// The result type of `lhs op rhs` for scalar operands, and the type both
// operands are converted to before the operation (`operand`), or nullopt when
// numba rejects the combination. Integer operations happen in 64 bits
// (int64 if either side is signed, else uint64); floats follow numba's
// safe conversions (int8/16 and uint8/16 fit float32, wider ints need
// float64); `/` of integers is float64; `**` of a float and an int keeps the
// float (integer power).
struct OpTyping {
  TypeId result;
  TypeId operand;
  // Pow only: the exponent's type when it stays an integer (float ** int).
  TypeId exponent;
};
std::optional<OpTyping> binaryResultType(TypeTable& types, ArithOp op, TypeId lhs, TypeId rhs);

// The type two scalars are compared in (result is bool), or nullopt.
std::optional<TypeId> comparisonType(TypeTable& types, TypeId lhs, TypeId rhs);

// The common type of two values that meet in one variable, a conditional
// expression, `min`/`max` or `and`/`or` (NumPy's promote_types for numbers,
// elementwise for tuples, equality for arrays), or nullopt.
std::optional<TypeId> unifyTypes(TypeTable& types, TypeId a, TypeId b);

// The type of `-x`, `+x`, `~x` for a scalar x, or nullopt.
std::optional<TypeId> unaryResultType(TypeTable& types, UnaryOpKind op, TypeId operand);

// The iteration variable's type of `range(args...)` (int32 for small signed
// ints, uint64 when all are unsigned, else int64), or nullopt for non-integers.
std::optional<TypeId> rangeType(TypeTable& types, const std::vector<TypeId>& args);

}  // namespace frontend
