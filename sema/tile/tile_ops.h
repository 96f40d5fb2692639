#pragma once
// The names of cuTile Python's `cuda.tile` module that pykc knows
// (docs/TILE.md): the payload of Intrinsic::TileOp entities.
#include <cstdint>
#include <optional>
#include <string_view>

#include "syntax/ast.h"

namespace frontend {

#define PYKC_TILE_FNS(X)                                                                   \
  X(Kernel, "kernel") X(Constant, "Constant") X(Launch, "launch")                          \
  X(Bid, "bid") X(NumBlocks, "num_blocks") X(NumTiles, "num_tiles") X(Cdiv, "cdiv")         \
  X(Load, "load") X(Store, "store") X(Gather, "gather") X(Scatter, "scatter")                \
  X(Full, "full") X(Zeros, "zeros") X(Ones, "ones") X(Arange, "arange") X(Astype, "astype") \
  X(Sum, "sum") X(Prod, "prod") X(Max, "max") X(Min, "min") X(Argmax, "argmax") X(Argmin, "argmin")         \
  X(Reshape, "reshape") X(Permute, "permute") X(Transpose, "transpose")                    \
  X(Extract, "extract") X(Cat, "cat")                                                      \
  X(BroadcastTo, "broadcast_to") X(ExpandDims, "expand_dims") X(ByTarget, "ByTarget")      \
  X(Exp, "exp") X(Exp2, "exp2") X(Log, "log") X(Log2, "log2") X(Sqrt, "sqrt")               \
  X(Rsqrt, "rsqrt") X(Tanh, "tanh") X(Sin, "sin") X(Cos, "cos") X(Abs, "abs")               \
  X(Where, "where") X(Maximum, "maximum") X(Minimum, "minimum")                            \
  X(Mma, "mma") X(Matmul, "matmul") X(Truediv, "truediv")                                  \
  X(Add, "add") X(Sub, "sub") X(Mul, "mul")                                                \
  X(PaddingMode, "PaddingMode") X(RoundingMode, "RoundingMode")                           \
  X(AtomicAdd, "atomic_add") X(AtomicMax, "atomic_max") X(AtomicMin, "atomic_min")          \
  X(AtomicAnd, "atomic_and") X(AtomicOr, "atomic_or") X(AtomicXor, "atomic_xor")            \
  X(AtomicXchg, "atomic_xchg") X(AtomicCas, "atomic_cas")                                  \
  X(MemoryOrder, "MemoryOrder") X(MemoryScope, "MemoryScope")                              \
  X(Floordiv, "floordiv") X(Mod, "mod") X(Pow, "pow") X(BitwiseAnd, "bitwise_and")           \
  X(BitwiseOr, "bitwise_or") X(BitwiseXor, "bitwise_xor") X(BitwiseLshift, "bitwise_lshift") \
  X(BitwiseRshift, "bitwise_rshift") X(BitwiseNot, "bitwise_not") X(Negative, "negative")    \
  X(Greater, "greater") X(GreaterEqual, "greater_equal") X(Less, "less")                     \
  X(LessEqual, "less_equal") X(Equal, "equal") X(NotEqual, "not_equal")                      \
  X(Floor, "floor") X(Ceil, "ceil") X(Tan, "tan") X(Sinh, "sinh") X(Cosh, "cosh")             \
  X(Isnan, "isnan") X(Atan2, "atan2") X(Cumsum, "cumsum") X(Cumprod, "cumprod")        \
  X(StaticAssert, "static_assert") X(StaticEval, "static_eval") X(EnsureConstant, "ensure_constant") X(Bitcast, "bitcast") X(Insert, "insert") \
  X(PackToBytes, "pack_to_bytes") X(UnpackFromBytes, "unpack_from_bytes") X(Assert, "assert_") \
  X(Print, "print") X(Printf, "printf")                                                   \
  X(LoadAdvancedIndexing, "load_advanced_indexing") X(StoreAdvancedIndexing, "store_advanced_indexing") \
  X(Slice, "Slice")                                                                        \
  X(GridDepLaunch, "grid_dependency_control_launch_dependents")                            \
  X(GridDepWait, "grid_dependency_control_wait") X(StaticIter, "static_iter") X(Astile, "astile") \
  X(MmaScaled, "mma_scaled") X(Reduce, "reduce")

enum class TileFn : uint16_t {
#define PYKC_X(N, S) N,
  PYKC_TILE_FNS(PYKC_X)
#undef PYKC_X
  // cuTile's ct.PaddingMode members (payload of `ct.PaddingMode.X`).
  PadUndetermined, PadZero, PadNegZero, PadNan, PadPosInf, PadNegInf,
  // cuTile's ct.RoundingMode members (payload of `ct.RoundingMode.X`).
  RoundRn, RoundRz, RoundRm, RoundRp, RoundFull, RoundApprox, RoundRzi,
  // cuTile's ct.MemoryOrder members (payload of `ct.MemoryOrder.X`).
  OrderWeak, OrderRelaxed, OrderAcquire, OrderRelease, OrderAcqRel,
  // cuTile's ct.MemoryScope members (payload of `ct.MemoryScope.X`).
  ScopeNone, ScopeBlock, ScopeDevice, ScopeSys,
  // Methods that are no `ct.` function: `t.item()`, `array.slice(axis, start, stop)`,
  // `array.get_raw_memory()` and its RawArrayMemory's `load_offset`/`store_offset`;
  // `array.tiled_view(...)` and its TiledView's `load`, `store`, `num_tiles`.
  Item, ArraySlice, GetRawMemory, LoadOffset, StoreOffset, TiledView, ViewLoad, ViewStore, ViewNumTiles,
};

inline bool isTilePadding(uint32_t payload) {
  return payload >= static_cast<uint32_t>(TileFn::PadUndetermined) &&
         payload <= static_cast<uint32_t>(TileFn::PadNegInf);
}
inline bool isTileRounding(uint32_t payload) {
  return payload >= static_cast<uint32_t>(TileFn::RoundRn) &&
         payload <= static_cast<uint32_t>(TileFn::RoundRzi);
}

inline bool isTileMemoryOrder(uint32_t payload) {
  return payload >= static_cast<uint32_t>(TileFn::OrderWeak) &&
         payload <= static_cast<uint32_t>(TileFn::OrderAcqRel);
}
inline bool isTileMemoryScope(uint32_t payload) {
  return payload >= static_cast<uint32_t>(TileFn::ScopeNone) &&
         payload <= static_cast<uint32_t>(TileFn::ScopeSys);
}
// cuTile's functions that are Python operators (`ct.floordiv(x, y)` is
// `x // y`, `ct.negative(x)` is `-x`, `ct.greater(x, y)` is `x > y`): typed and
// lowered as the operator on their two (one) arguments.
inline bool isTileOperatorFn(TileFn fn) { return fn >= TileFn::Floordiv && fn <= TileFn::NotEqual; }

// Operators as functions: what `ct.static_eval` may apply to run-time values.
inline bool isPureTileFn(TileFn fn) {
  return isTileOperatorFn(fn) || fn == TileFn::Add || fn == TileFn::Sub || fn == TileFn::Mul ||
         fn == TileFn::Truediv || fn == TileFn::Maximum || fn == TileFn::Minimum;
}

// The operator an operator function is: the checker types it and the lowering
// emits it as that operator.
struct TileOperator {
  enum class Kind : uint8_t { Unary, Binary, Compare } kind = Kind::Binary;
  UnaryOpKind unary = UnaryOpKind::USub;
  Operator binary = Operator::Add;
  CmpOp compare = CmpOp::Eq;
};
inline TileOperator tileOperatorOf(TileFn fn) {
  using K = TileOperator::Kind;
  auto un = [](UnaryOpKind u) { return TileOperator{K::Unary, u, Operator::Add, CmpOp::Eq}; };
  auto bin = [](Operator o) { return TileOperator{K::Binary, UnaryOpKind::USub, o, CmpOp::Eq}; };
  auto cmp = [](CmpOp c) { return TileOperator{K::Compare, UnaryOpKind::USub, Operator::Add, c}; };
  switch (fn) {
    case TileFn::Negative: return un(UnaryOpKind::USub);
    case TileFn::BitwiseNot: return un(UnaryOpKind::Invert);
    case TileFn::Greater: return cmp(CmpOp::Gt);
    case TileFn::GreaterEqual: return cmp(CmpOp::GtE);
    case TileFn::Less: return cmp(CmpOp::Lt);
    case TileFn::LessEqual: return cmp(CmpOp::LtE);
    case TileFn::Equal: return cmp(CmpOp::Eq);
    case TileFn::NotEqual: return cmp(CmpOp::NotEq);
    case TileFn::Floordiv: return bin(Operator::FloorDiv);
    case TileFn::Mod: return bin(Operator::Mod);
    case TileFn::Pow: return bin(Operator::Pow);
    case TileFn::BitwiseAnd: return bin(Operator::BitAnd);
    case TileFn::BitwiseOr: return bin(Operator::BitOr);
    case TileFn::BitwiseXor: return bin(Operator::BitXor);
    case TileFn::BitwiseLshift: return bin(Operator::LShift);
    default: return bin(Operator::RShift);  // BitwiseRshift
  }
}

inline bool isTileAtomic(TileFn fn) { return fn >= TileFn::AtomicAdd && fn <= TileFn::AtomicCas; }
// The operations that read memory (atomics write it too).
inline bool isTileRead(TileFn fn) {
  return isTileAtomic(fn) || fn == TileFn::Load || fn == TileFn::Gather || fn == TileFn::LoadOffset ||
         fn == TileFn::LoadAdvancedIndexing || fn == TileFn::ViewLoad;
}
// The operations that write memory (atomics read it too).
inline bool isTileWrite(TileFn fn) {
  return isTileAtomic(fn) || fn == TileFn::Store || fn == TileFn::Scatter || fn == TileFn::StoreOffset ||
         fn == TileFn::StoreAdvancedIndexing || fn == TileFn::ViewStore;
}

// The `cuda.tile.<name>` function or namespace, or nullopt.
std::optional<TileFn> tileFnByName(std::string_view name);
// The member `<name>` of the enum namespace `ns` (PaddingMode, RoundingMode,
// MemoryOrder, MemoryScope), or nullopt.
std::optional<TileFn> tileMemberByName(TileFn ns, std::string_view name);
// The Python name (`load`, `ZERO`, `APPROX`).
std::string_view tileFnName(TileFn fn);

}  // namespace frontend
