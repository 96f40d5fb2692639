// The tile dialect's lowering (docs/TILE.md): the TileLowering class, one
// kernel instance at a time, and the values and layouts it works with.
// Private to lowering/tile/; the entry point is lowering/tile/tile_lower.h.
// Its member functions live in the tile_*.cpp files of this folder, one
// concern each (see the section comments below).
#pragma once

#include "lowering/float8.h"
#include "lowering/kernel_abi.h"
#include "lowering/scalar.h"
#include "lowering/tile/tile_lower.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ReplaceConstant.h>

#include <algorithm>
#include <array>
#include <functional>
#include <span>
#include <tuple>
#include <cassert>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "syntax/ast.h"
#include "sema/tile/tile_ops.h"
#include "sema/typed_module.h"

namespace lowering::tile {

using frontend::ConstValue;
using frontend::ExprId;
using frontend::Intrinsic;
using frontend::StmtId;
using frontend::TileFn;
using frontend::Type;
using frontend::TypeId;
using frontend::TypeKind;
using frontend::TypeTable;
namespace ast = frontend::ast;

constexpr unsigned kSharedAddressSpace = 3;
constexpr uint32_t kRegisterTarget = 32;
constexpr uint32_t kTwoCtaRegisters = 128;  // 65536 / (256 threads x 2 CTAs)
constexpr uint32_t kTwoCtaSpillBytes = 128;
constexpr unsigned kWarp = 32;

// How a tile's elements are spread over the CTA's threads (docs/TILE.md,
// "Mapping"). Element e is the row-major linear index in the tile.
//  - uniform (1 element): every thread holds it;
//  - partial (fewer elements than threads): thread t holds element t < n;
//  - full: thread t holds `slots` elements, in chunks of `vec` consecutive
//    elements: e = (chunk * threads + t) * vec + lane.
//  - mma: the accumulator layout of mma.sync m16n8 (mmaLayoutOf): the warps
//    tile the (rows, cols) tile in a warpsM x warpsN grid of (wm, wn) blocks;
//    a warp's block is made of 16x8 fragments, 4 slots each.
struct Layout {
  int64_t n = 1;
  unsigned slots = 1;
  unsigned vec = 1;
  bool uniform = true;
  bool partial = false;
  bool mma = false;
  unsigned warpsN = 1;
  int64_t wm = 0;
  int64_t wn = 0;
  int64_t cols = 0;
};

// Where bit i of the linear element index that a slot holds comes from
// (indexBits): bit `tidBit` of the thread id, or, where tidBit < 0, the
// constant `one`. Layouts of power-of-two shapes deal elements out by bits:
// a full layout's low bits are the slot's place in its chunk, the next ones
// the thread id, the high ones the chunk.
struct IndexBit {
  int tidBit = -1;
  bool one = false;
  bool operator==(const IndexBit&) const = default;
  int code() const { return tidBit >= 0 ? 2 + tidBit : one ? 1 : 0; }
};

// A reduced tile's values spread back over the layout of the tile it was
// reduced from, for the broadcast softmax, layer norm and RMS norm write
// (`x - ct.max(x, axis=1, keepdims=True)`): `slots` follow the layout of a
// tile of `shape`; its element e holds the reduced tile's element at e's
// multi-index with the reduced axes (those where `keep` is 1) at 0.
struct RowBroadcast {
  std::vector<int64_t> shape;
  std::vector<int64_t> keep;
  TypeId element;
  std::vector<llvm::Value*> slots;
};

// A lowered value: one llvm::Value per slot (a scalar has one), in the
// standard layout of its type or (mma) in the mma accumulator layout; splat:
// every slot holds the same value (any layout then fits).
struct TileVal {
  std::vector<llvm::Value*> slots;
  bool mma = false;
  bool splat = false;
};

// A 2-D tile in shared memory, row-major in 16-byte chunks, the chunks of
// each 128-byte line permuted (swizzled) so that ldmatrix and mma fragment
// reads are free of bank conflicts (smemOffset).
// Formats (smemOffset): Swizzled is pykc's own (for ldmatrix); the others are
// wgmma's canonical layouts (sm_90a): K-major rows of 64 or 128 bytes with the
// 64- or 128-byte swizzle, and MN-major (B read as K x N) in 64-column panels
// of 128-byte rows with the 128-byte swizzle. ldmatrix reads every format.
enum class SmemFormat { Swizzled, KMajor64, KMajor128, MNMajor128 };

struct SmemTile {
  llvm::Value* base = nullptr;  // i8 addrspace(3)*
  int64_t rows = 0;
  int64_t cols = 0;
  unsigned bytes = 2;  // of one element
  SmemFormat format = SmemFormat::Swizzled;
};

// A `ct.load` in a loop whose tile only feeds tensor-core products: copied
// with cp.async into a ring of shared-memory stages, `stages - 1` iterations
// ahead of its use (lowerPipelinedFor).
struct PipeLoad {
  std::string name;   // the variable the loop assigns it to
  ExprId call;        // the ct.load
  TypeId tileType;    // as loaded (the array's dtype)
  uint64_t offset = 0;  // within a stage
  uint64_t bytes = 0;
  SmemFormat format = SmemFormat::Swizzled;
};

// An array argument: the ABI's data pointer, extents and strides (lowering/kernel_abi.h),
// the layout's unit stride as the constant 1, and what its type's facts promise.
struct ArrayArgs : ArrayParams {
  frontend::ArrayFacts facts;
  // The kernel parameter it points into, where its data pointer does not say (an
  // array variable: every assignment's); nullptr: its data pointer's own.
  const llvm::Value* root = nullptr;
};

// A tuple kernel parameter (or one of its elements), flattened by the ABI: an array,
// a scalar (its value), or a tuple of these.
struct TupleArg {
  TypeId type;
  ArrayArgs array;
  llvm::Value* scalar = nullptr;
  std::vector<TupleArg> elements;
};

class TileLowering {
public:
  TileLowering(const frontend::Ast& ast, const frontend::TypedModule& typed,
               const frontend::FunctionInstance& inst, llvm::Function* function)
      : ast_(ast), typed_(typed), types_(const_cast<TypeTable&>(typed.module.types)), inst_(&inst),
        fn_(typed.module.functions[inst.function]), function_(function),
        context_(function->getContext()), module_(*function->getParent()), b_(context_) {}

  // Lowers the helper instance `inst` inline into `parent`'s function (at its
  // insertion point), with its threads, thread id and shared scratch.
  TileLowering(TileLowering& parent, const frontend::FunctionInstance& inst)
      : ast_(parent.ast_), typed_(parent.typed_), types_(parent.types_), inst_(&inst),
        fn_(typed_.module.functions[inst.function]), function_(parent.function_),
        context_(parent.context_), module_(parent.module_), b_(context_) {
    // Values cross between the two in the parent's layouts: the same choices.
    threads_ = parent.threads_;
    maxVec_ = parent.maxVec_;
    // A helper called inside a loop lowers its reductions as inside a loop.
    loopDepth_ = parent.loopDepth_;
    allowWgmma_ = parent.allowWgmma_;
    cvtRnTf32_ = parent.cvtRnTf32_;
    gridDependency_ = parent.gridDependency_;
    wgmma_ = parent.wgmma_;
    deferWgmma_ = parent.deferWgmma_;
    twoCtas_ = parent.twoCtas_;
    maxShared_ = parent.maxShared_;
    tid_ = parent.tid_;
    scratch_ = parent.scratch_;
    scratchBytes_ = parent.scratchBytes_;
    // Inside a pipelined loop, scratch uses go after the ring.
    pipeStage_ = parent.pipeStage_;
    ringInUse_ = parent.ringInUse_;
    // The parent's resident operands stay clear of its scratch uses; their
    // names are the parent's, not the helper's.
    residentBytes_ = parent.residentBytes_;
    b_.SetInsertPoint(parent.b_.GetInsertBlock());
  }

  // Hopper's wgmma for products whose operands the pipeline holds (sm_90a), and
  // the most shared memory a block may have.
  void setTarget(const TileTarget& target);
  uint32_t dynamicSharedBytes() const { return dynamicShared_; }
  // Kernels without matrix products (those ask for their own CTAs per SM):
  // 32 registers a thread, a full SM of 128-thread CTAs (docs/TILE.md,
  // "Register budget"; the link relaxes it where ptxas spills).
  // None where one statement reads tiles that hold the whole budget's
  // registers of a thread (registerDemand): ptxas would spill under it.
  // Tensor-core kernels of 256 threads with one product whose accumulator fits 64
  // registers a thread (twoCtas_): 128 registers, two CTAs per SM, so that a main loop
  // hides its shared-memory and mma latencies with the other CTA's warps; where ptxas
  // spills under it (a CUDA-core float32 product's operands), the link drops it.
  uint32_t registerTarget() const {
    if (hasProducts(*inst_)) return usesTensorCores_ && twoCtas_ ? kTwoCtaRegisters : 0;
    return registerDemand(*inst_) >= kRegisterTarget ? 0 : kRegisterTarget;
  }
  // The two-CTA budget keeps a few spilled registers (the bf16 128x128x32 product spills
  // 24 bytes under it on sm_90, 44 on sm_80, outside its main loop, and ran at 0.83x
  // cuBLAS so); a CUDA-core float32 product's 600 are dropped.
  uint32_t toleratedSpillBytes() const { return registerTarget() == kTwoCtaRegisters ? kTwoCtaSpillBytes : 0; }

  uint32_t run();

private:
  // --- types and layouts --------------------------------------------------

  unsigned chooseThreads() const;

  // The number of matrix products (ct.mma, ct.matmul, `@`) written in `inst`.
  unsigned productSites(const frontend::FunctionInstance& inst) const;

  // Whether `inst` has a matrix product (ct.mma, ct.matmul, `@`).
  bool hasProducts(const frontend::FunctionInstance& inst) const;

  // The most registers of a thread one simple statement of `inst` (or of a
  // helper it calls) reads as named tiles at once: per distinct tile name, its
  // slots, 64-bit elements two registers each, 16-bit ones half of one
  // (tile_register_demand.cpp). `c = a + b` with 16 float32 slots each: 32.
  uint32_t registerDemand(const frontend::FunctionInstance& inst) const;

  // The most consecutive elements a thread holds per chunk: 16 bytes of the
  // narrowest element type the kernel's arrays hold (one 16-byte load or store
  // instruction each), at least 4, at most 16. One value for the whole kernel:
  // tiles of the same shape share a layout whatever their element type
  // (`astype` stays in registers).
  unsigned chooseMaxVec() const;

  int64_t elementsOf(TypeId t) const;

  Layout layoutOf(TypeId t) const;

  // The mma accumulator layout of a 2-D tile, if the tile splits into one
  // block of at least 16x16 per warp (and at most 128 slots per thread).
  std::optional<Layout> mmaLayoutOf(TypeId t) const;

  Layout layoutFor(TypeId t, bool mma) const { return mma ? *mmaLayoutOf(t) : layoutOf(t); }

  // The linear element index (i32) slot `s` of this thread holds.
  llvm::Value* elementIndex(const Layout& l, unsigned s);

  // Whether slot `s` holds an element (only partial layouts have empty slots).
  llvm::Value* slotValid(const Layout& l);

  // The multi-index of linear element `e` in `shape` (powers of two).
  std::vector<llvm::Value*> multiIndex(llvm::Value* e, const std::vector<int64_t>& shape);

  static int64_t log2i(int64_t v);

  TypeId elementOf(TypeId t) const;

  llvm::Type* llvmType(TypeId t);

  llvm::Type* memoryType(TypeId t) { return types_.isBool(t) ? b_.getInt8Ty() : llvmType(t); }

  llvm::Function* intrinsic(llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Type*> tys = {});

  // --- conversions --------------------------------------------------------

  llvm::Value* convert(llvm::Value* v, TypeId from, TypeId to);

  llvm::Value* constantOf(const ConstValue& c, TypeId to);

  // --- expressions --------------------------------------------------------

  TypeId typeOf(ExprId id) const { return inst_->exprTypes[id.index]; }

  const ConstValue* constOf(ExprId id) const;
  // An AugAssign's target read as the constant it held before (augConstLeft).
  std::map<uint32_t, const ConstValue*> constOverride_;

  // `id`'s value spread over the layout of `to` and converted to `to`'s
  // element type (broadcasting through shared memory when the shapes differ).
  TileVal evalAs(ExprId id, TypeId to, bool mma = false);

  // A scalar (or the one element of a uniform tile) of `id`, as `to`.
  llvm::Value* scalarAs(ExprId id, TypeId to) { return evalAs(id, elementOf(to)).slots[0]; }

  TileVal spread(const TileVal& v, TypeId from, TypeId to, bool toMma = false);

  static std::vector<int64_t> stripOnes(const std::vector<int64_t>& shape);

  llvm::Value* clampIndex(llvm::Value* e, const Layout& l);

  // --- shared memory scratch ------------------------------------------------

  // The scratch buffer (at least `bytes`). Inside a pipelined loop the ring of
  // stages occupies its start, and scratch uses come after it.
  llvm::Value* scratch(uint64_t bytes);

  void finishScratch();

  void barrier() {
    b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_barrier0));
    accessed_ = {};
  }

  // --- the order of a block's memory accesses (tile_ordering.cpp) ----------
  // A tile operation's elements are spread over the block's threads, and two
  // operations on one array need not spread them alike: an access that may touch
  // an element another thread of the block wrote (or read, for a write) since the
  // last barrier waits for a barrier first (cuTile runs a block's memory operations
  // in program order). `accessed_` holds those accesses by the array's kernel
  // parameter (nullptr: unknown, an array of a tuple say) with the access's shape:
  // a ct.load/ct.store tile type (the same type puts an element in the same thread,
  // and two tiles of one shape are equal or disjoint), kThreadZero for a single
  // element thread 0 writes, 0 for any other access.
  struct Accesses {
    std::map<const llvm::Value*, std::set<uint32_t>> reads, writes;
    bool empty() const { return reads.empty() && writes.empty(); }
    void add(const Accesses& o) {
      for (const auto& [r, s] : o.reads) reads[r].insert(s.begin(), s.end());
      for (const auto& [r, s] : o.writes) writes[r].insert(s.begin(), s.end());
    }
  };
  // An access of array `a` (`shape`: its tile type's index, or 0): a barrier first
  // where it may meet another thread's earlier access, one of them a write.
  void access(const ArrayArgs& a, bool write, uint32_t shape = 0);
  // What `body` (a loop's, its helpers' included) accesses: a loop's trip meets the
  // previous trip's accesses.
  Accesses accessesOf(std::span<const StmtId> body);
  // The shape of a ct.load/ct.store `call` (`fn`) for `access`.
  uint32_t accessShape(ExprId call, TileFn fn);
  // Whether instance `inst` (or a helper it calls) reads (kReads) and writes (kWrites) memory.
  static constexpr unsigned kReads = 1, kWrites = 2;
  unsigned instanceAccesses(const frontend::FunctionInstance& inst, int depth = 0) const;
  // The access shape of a single element written by thread 0 (a uniform store, scatter
  // or atomic): two of those never meet.
  static constexpr uint32_t kThreadZero = 0xffffffffu;
  // The kernel parameter `a` points into (nullptr: unknown).
  const llvm::Value* rootOf(const ArrayArgs& a) const;
  // The kernel parameter array variable `name` points into: the one every assignment
  // of the name in the function gives (views and raw memory of it), else nullptr.
  const llvm::Value* varRoot(const std::string& name);
  // The kernel parameter the array expression `e` points into, or nullptr.
  const llvm::Value* exprRoot(ExprId e, int depth = 0);
  std::map<std::string, const llvm::Value*> varRoots_;

  // Where a CTA-wide reduction's warps leave their partial results. Outside
  // loops each reduction has a buffer of its own, written once per CTA: no
  // barrier is needed before the write, only the one after it (a reduction
  // costs one barrier, not two). Inside a loop the reduction runs again, so it
  // takes the scratch buffer with a barrier before the write (earlier readers).
  llvm::Value* warpPartials(unsigned warps, llvm::Type* mt);

  // Writes every element of `v` (type `t`) to the scratch buffer in
  // row-major order; returns the buffer. Barriers before (earlier readers)
  // and after (the writes visible to all).
  llvm::Value* stage(const TileVal& v, TypeId t, const Layout& l);
  // v's slots into `buffer` at their element indices + `offset` (no barriers).
  void storeSlots(const TileVal& v, TypeId t, const Layout& l, llvm::Value* buffer, int64_t offset);

  template <class F>
  void guarded(llvm::Value* cond, F body);

  // `body()`'s value where `cond` holds, else `otherwise` (a value available
  // before the test), merged by a phi.
  template <class F>
  llvm::Value* guardedValue(llvm::Value* cond, llvm::Value* otherwise, const char* name, F body);

  // --- expression lowering ------------------------------------------------

  TileVal eval(ExprId id);
  // The variable `name` holding a `t` (a parameter, a local, a tuple parameter).
  TileVal namedValue(const std::string& name, TypeId t);

  TileVal binary(frontend::Operator op, ExprId left, ExprId right, TypeId opType, TypeId result, bool mma);

  // `x ** k`: square-and-multiply for a constant k in 0..16 (the checker's rule),
  // else libdevice's pow (float16 through float32).
  TileVal power(ExprId left, ExprId right, TypeId opType, TypeId opTile, bool mma);

  llvm::Value* arith(frontend::Operator op, llvm::Value* a, llvm::Value* c, TypeId t);

  ExprId arg(ExprId call, size_t i) const;

  int64_t constIntArg(ExprId call, size_t i, int64_t fallback) const;

  // The array an expression gives: a parameter, a local variable holding one,
  // or `array.slice(axis, start, stop)` of either (tile_memory.cpp).
  ArrayArgs arrayArg(ExprId e);
  // The array (view) the parameter or variable `name` holds, of type `t`.
  ArrayArgs namedArray(const std::string& name, TypeId t);
  // Tuple parameters (tile_tuple.cpp): read from the kernel's parameters; the value
  // of a tuple name or of `t[i]` (a run-time `i` selects among the elements); its
  // scalars flattened as a value's slots.
  TupleArg readTupleParam(KernelParamReader& reader, TypeId t);
  TupleArg tupleValue(ExprId e);
  // A dataclass instance holding arrays (tile_tuple.cpp): built here (`Cls(x, n)`, sema's
  // pieces) or a name, field or parameter holding one.
  TupleArg instanceTuple(ExprId e);
  bool holdsArrayType(TypeId t) const;
  // The TupleArg of type `t` over run-time slots (numbers, tuples of them) from `next`.
  TupleArg slotsTuple(TypeId t, const TileVal& v, size_t& next);
  TupleArg selectTuple(llvm::Value* take, const TupleArg& a, const TupleArg& b);
  void tupleSlots(const TupleArg& t, TileVal& out);
  bool isTupleParamExpr(ExprId e) const;
  // A run-time index into `n` elements as int64, negative ones counted from the end.
  llvm::Value* runtimeTupleIndex(ExprId slice, int64_t n);
  // `name = <array>`: the array's pointer, shape and strides kept in allocas
  // (mem2reg makes them values again), so that a view assigned in a branch or
  // loop reaches later uses.
  void assignArray(const std::string& name, const ArrayArgs& a);

  // The index expressions of an `index=` argument.
  std::vector<ExprId> indexItems(ExprId id) const;
  // An index argument's values as int64: a tuple literal's items, or a tuple held in a name.
  std::vector<llvm::Value*> indexValues(ExprId id);
  // `a = b = value` and `a: T = value` (tile_stmt.cpp).
  void lowerAssign(std::span<const ExprId> targets, ExprId value);

  TileVal call(ExprId id, const ast::Call& c);

  // The `rounding_mode=` argument at `position` of call `id` (the checker
  // allows a RoundingMode member or None); RN when absent or None.
  TileFn roundingMode(ExprId id, size_t position);

  // `ct.truediv(x, y, rounding_mode=, flush_to_zero=)` (the checker allows
  // the modes per dtype): `/` for none or RN without flush, else PTX's div
  // with that rounding (div.full, div.approx; .ftz for float32 when asked).
  // ct.truediv, ct.add, ct.sub, ct.mul with their rounding_mode= and flush_to_zero=.
  TileVal roundedArith(ExprId id, TileFn fn, TypeId t);

  TileVal unaryMath(ExprId id, TileFn fn, TypeId t);
  // unaryMath's operation on each of `slots` (element type `e`), in place.
  void unaryMathSlots(ExprId id, TileFn fn, TypeId e, std::vector<llvm::Value*>& slots);
  // `-x`, `~x`, `not x` (and ct.negative, ct.bitwise_not) of result type `t`.
  TileVal unary(frontend::UnaryOpKind op, ExprId operand, TypeId t, bool mma);
  // `left <cmp> right` at `id` (and ct.greater, ...): a bool tile or scalar `t`.
  TileVal compare(ExprId id, frontend::CmpOp cmp, ExprId left, ExprId right, TypeId t);
  // The cuTile functions that are operators (isTileOperatorFn).
  TileVal operatorFn(ExprId id, TileFn fn, TypeId t);
  // ct.isnan (a bool result from float operands) and ct.atan2.
  TileVal isnan(ExprId id, TypeId t);
  // ct.cumsum / ct.cumprod: inclusive scans along an axis, in order (tile_reduce.cpp).
  TileVal scan(ExprId id, TileFn fn, TypeId t);
  TileVal atan2(ExprId id, TypeId t);
  // libdevice's `base` function of dtype `e` on one element (float16 through float32).
  llvm::Value* libdevice(std::string_view base, TypeId e, std::initializer_list<llvm::Value*> args);

  // --- loads and stores ---------------------------------------------------

  struct Addressing {
    std::vector<llvm::Value*> tileIndex;  // i64 per dimension
    std::vector<int64_t> shape;
    // A TiledView's traversal_steps: tile i starts at element i * steps[d] (empty: at
    // i * shape[d], as ct.load's tiles).
    std::vector<int64_t> steps;
  };

  Addressing addressing(ExprId call, TypeId tileType);
  // The first element of the addressed tile along `d`: tileIndex * (step or extent).
  llvm::Value* tileOrigin(const Addressing& a, size_t d);

  // --- cuTile's TiledView (tile_view.cpp) ------------------------------------
  // An array parameter's constant extents and strides (`.assume(shape_constant=,
  // stride_constant=)`, checked at launch) replace the arguments' values.
  void constantExtents(ArrayArgs& a);
  // `tv.num_tiles(axis)`: ceil(extent / step), an int32.
  TileVal viewNumTiles(ExprId id);
  // `tv.atomic_store_*(index, update)`: one atomic per element of the tile inside the
  // array (relaxed, device scope, as cuTile's), the update broadcast to the tile.
  void viewAtomic(ExprId id, TileFn fn);
  // The atomicrmw operation of ct.atomic_* `fn` on elements of dtype `e`.
  llvm::AtomicRMWInst::BinOp rmwOp(TileFn fn, TypeId e) const;

  // Whether the whole tile lies inside the array (uniform across the CTA).
  llvm::Value* tileInside(const ArrayArgs& arr, const Addressing& a);

  // The element offset of slot `s` and whether it lies inside the array.
  std::pair<llvm::Value*, llvm::Value*> slotAddress(const ArrayArgs& arr, const Addressing& a,
                                                     const Layout& l, unsigned s);

  // slotAddress on the vector path (the array's last axis contiguous) where
  // the tile's last axis holds whole rounds of chunks (a
  // multiple of threads * vec elements): slot `s` of thread t is then element
  // (k_0, ..., k_last + t * vec) of the tile, with constant k for the slot. All
  // but the per-thread t * vec is uniform across the CTA, so the offset is a
  // uniform value plus t * vec * stride (one per thread for every slot), and the
  // test compares t * vec with a uniform bound: nothing per slot stays live
  // from a load to a later store (ptxas spilled such values under a register
  // budget rather than recompute them).
  std::pair<llvm::Value*, llvm::Value*> rowSlotAddress(const ArrayArgs& arr, const Addressing& a,
                                                        const Layout& l, unsigned s);

  llvm::Value* paddingValue(ExprId call, TypeId e, size_t at = 4);

  // Whether a tile inside the array can move `vec` elements per instruction: the
  // last axis contiguous, the other strides multiples of `vec`, and the data pointer
  // aligned to the vector's size (uniform across the CTA).
  llvm::Value* vectorizable(const ArrayArgs& arr, const Layout& l, unsigned size);

  // The code paths of a tile access (docs/TILE.md, "Mapping onto threads"), chosen
  // per block (the test is uniform):
  //  - with vectors (`vec` > 1, not bool) and a vectorizable array: chunk by chunk,
  //    one vector instruction when the chunk lies inside the array, else each of its
  //    elements checked (Path::Vector);
  //  - without vectors, the whole tile inside the array: no checks (Path::Inside);
  //  - otherwise each element checked (Path::Edge).
  // `emit(path)` emits one path and returns its values (one vector per chunk with
  // vectors, one value per slot without; empty for stores); the result merges them.
  // Vectors are merged whole: merged per element, LLVM sinks the paths' last loads
  // into the join and splits the vector path's last load.
  enum class Path { Vector, Inside, Edge };
  bool hasVectors(const Layout& l, TypeId e) const { return l.vec > 1 && !types_.isBool(e); }

  template <class Emit>
  std::vector<llvm::Value*> accessPaths(const ArrayArgs& arr, const Addressing& a, const Layout& l,
                                        TypeId e, Emit emit);

  // The offset of the chunk starting at slot `s` and whether all its `vec`
  // elements lie inside the array (a chunk never crosses the last axis).
  std::pair<llvm::Value*, llvm::Value*> chunkAddress(const ArrayArgs& arr, const Addressing& a,
                                                      const Layout& l, unsigned s);

  // Per chunk: `whole()` when the chunk lies inside the array, else `elements()`;
  // each returns the chunk's value (a vector) or null (stores). Returns the
  // merged values. Two uniform tests pick cheaper versions first: the whole
  // tile inside the array (every chunk whole, no test of its own), and a last
  // axis of whole chunks (its extent a multiple of `vec`, as a 1000-column
  // float16 row in a 1024 tile), where a chunk lies wholly inside or wholly
  // outside, so `outside()` (the padding, or nothing for stores) replaces the
  // per-element path. A row-per-CTA kernel is bound by instruction issue, and
  // the per-chunk tests and element paths were a fifth of a ragged float16
  // softmax's instructions (docs/TILE.md, "Mapping onto threads").
  template <class Whole, class Elements, class Outside>
  std::vector<llvm::Value*> perChunk(const ArrayArgs& arr, const Addressing& a, const Layout& l,
                                     Whole whole, Elements elements, Outside outside);

  template <class Whole, class Elements>
  std::vector<llvm::Value*> perChunkChecked(const ArrayArgs& arr, const Addressing& a, const Layout& l,
                                            Whole whole, Elements elements, bool wholeChunks = false);

  // `order=` of a load or store (the checker recorded the axes as a tuple):
  // view axis d is array axis order[d]; empty when absent or the identity.
  std::vector<size_t> accessOrder(ExprId call) const;

  // The tile of a permuted access in the array's own axis order: its type
  // and addressing (array axis order[d] takes view axis d's extent and index).
  std::pair<TypeId, Addressing> arrayOrder(const Addressing& view, TypeId e, const std::vector<size_t>& order);

  // Element e (linear) of a tile of shape `to` whose axis d is axis perm[d] of
  // a tile of shape `from`: its linear index in `from`.
  llvm::Value* permutedSource(llvm::Value* e, const std::vector<int64_t>& from, const std::vector<int64_t>& to,
                              const std::vector<size_t>& perm);

  TileVal load(ExprId id, TypeId t);

  TileVal loadTile(ExprId id, TypeId t, const Addressing& a);

  // Vectors of `vec` consecutive values, and back.
  std::vector<llvm::Value*> pack(const std::vector<llvm::Value*>& vals, unsigned vec);

  std::vector<llvm::Value*> unpack(const std::vector<llvm::Value*>& vectors);

  // One load per slot of `first`..`first + count - 1`: unchecked (`pad` null: the
  // tile lies inside), or each element checked against the array's shape, `pad`
  // where it lies outside.
  std::vector<llvm::Value*> loadElements(const ArrayArgs& arr, const Addressing& a, const Layout& l,
                                         TypeId e, llvm::Value* pad, unsigned first, unsigned count);

  void store(ExprId id);
  // ct.assert_ (tile_print.cpp): the block agrees on whether every element holds; where
  // one does not, thread 0 prints the message and every thread traps.
  void assertAll(ExprId id);
  // print / ct.print / ct.printf: the values evaluated by every thread (tiles staged in
  // shared memory), thread 0 prints the line (vprintf, 32 values a call).
  void emitPrint(ExprId id);
  // One vprintf call with `format` and `values` (already promoted as C varargs are).
  void printf(const std::string& format, const std::vector<llvm::Value*>& values);
  llvm::Value* stringConstant(const std::string& text);
  std::map<std::string, llvm::GlobalVariable*> strings_;

  // --- gather and scatter ---------------------------------------------------

  // ct.gather / ct.scatter (docs/TILE.md, "Gather and scatter"): each thread
  // handles its own elements of the indices' broadcast shape (the standard
  // layout, as elementwise operations), each index operand spread into that
  // layout as int64 (broadcasting as binary operations do), then one scalar
  // load or store per element, guarded by the bounds (0 <= index < extent on
  // every axis, with check_bounds) and the mask. The offset is the sum of
  // index * stride in 64 bits. Scatter's duplicate indices: plain stores, so
  // one of the values lands (which one is unspecified, as in cuTile).
  // The index operands of call `id` (argument 1) spread into the layout of
  // `shaped` (the indices' broadcast shape) as int64.
  std::vector<TileVal> indexOperands(ExprId id, TypeId shaped);

  // Slot `s`'s element offset in `arr` (the sum of index * stride, 64-bit)
  // and whether it is there to access: the slot holds an element (only
  // thread 0 when `firstThread`: one element for the whole CTA) and, with
  // `check`, 0 <= index < extent on every axis.
  std::pair<llvm::Value*, llvm::Value*> indexedAddress(const ArrayArgs& arr, const std::vector<TileVal>& index,
                                                       unsigned s, bool check, const Layout& l, bool firstThread);

  // Also RawArrayMemory's load_offset / store_offset: the base + offset (in elements),
  // unchecked, under the mask.
  TileVal gatherScatter(ExprId id, bool gather);
  // The loads (gather: the values, `value` where an element is masked off or out of
  // bounds) or stores (of `value`) at `index` (one int64 tile per array axis, in
  // layout `l`), guarded by `mask` and, with `check`, the bounds.
  TileVal indexedAccess(const ArrayArgs& arr, TypeId e, const Layout& l, const std::vector<TileVal>& index,
                        const std::optional<TileVal>& mask, bool check, bool gather, const TileVal& value);
  // ct.load_advanced_indexing / ct.store_advanced_indexing: a gather (scatter) whose
  // indices are the sparse axis's tile spread along its axis and, on every other axis,
  // the Slice's start plus the element's index there; out-of-bounds elements load the
  // padding mode's value (0 when undetermined) and are not stored.
  TileVal advancedIndexing(ExprId id, bool load);
  // `ct.load(array, index, shape=())`: the element at `index` (the padding value
  // outside the array), as a scalar.
  TileVal scalarLoad(ExprId id);

  // --- atomics --------------------------------------------------------------

  // ct.atomic_* (docs/TILE.md, "Atomics"): addressed as ct.gather; per
  // element one `atomicrmw` (`cmpxchg` for atomic_cas) with the call's
  // ordering and sync scope, under the bounds test, returning the old value.
  // An element out of bounds is not touched and reads as 0 (atomic_cas: the
  // expected value, as cuTile). Scalar indices: thread 0 runs the one atomic
  // and passes the old value to the CTA through shared memory.
  // LLVM 19's NVPTX back end ignores orderings and scopes;
  // backend/passes/nvptx_atomics.h turns those that are not relaxed device-scope
  // into PTX's `atom.sem.scope`.
  TileVal atomic(ExprId id, TileFn fn);

  // --- reductions ---------------------------------------------------------

  // cuTile's options of the reduction (or ct.maximum/minimum) being lowered, which
  // identity and combine follow: `rounding` 0 RN, 1 RZ, 2 RM, 3 RP (sum, prod on float32
  // and float64), `ftz` flush_to_zero (float32), `propagateNan` (max, min: NaN wins;
  // else NaN is ignored, the other operand taken, and NaN is the identity).
  struct ReduceFlags {
    int rounding = 0;
    bool ftz = false;
    bool propagateNan = false;
  };
  ReduceFlags reduceFlags_;
  // The options call `id` of `fn` gives (its keyword arguments, as the checker bound them).
  ReduceFlags reduceFlagsOf(ExprId id, TileFn fn);
  // Sets reduceFlags_ for a scope.
  struct FlagsScope {
    FlagsScope(TileLowering& l, ReduceFlags f) : lowering(l), saved(l.reduceFlags_) { l.reduceFlags_ = f; }
    ~FlagsScope() { lowering.reduceFlags_ = saved; }
    FlagsScope(const FlagsScope&) = delete;
    FlagsScope& operator=(const FlagsScope&) = delete;
    TileLowering& lowering;
    ReduceFlags saved;
  };

  llvm::Value* identity(TileFn fn, TypeId acc);

  llvm::Value* combine(TileFn fn, llvm::Value* a, llvm::Value* c, TypeId acc);

  // a + c or a * c of float32/float64 with NVVM's rounded intrinsics (`r` 0 RN, 1 RZ,
  // 2 RM, 3 RP; `ftz` float32 only); the plain operation for RN without flush.
  llvm::Value* roundedAddMul(bool mul, llvm::Value* a, llvm::Value* c, TypeId op, int r, bool ftz);

  llvm::Value* shuffleXor(llvm::Value* v, unsigned lane);

  // ct.sum/max/min along the last axis of a 2-D tile held in the mma
  // accumulator layout (flash attention's row max and row sum of the scores):
  // each thread combines the slots of its rows, the four lanes sharing a row
  // combine by shuffles, then the warps sharing rows through shared memory,
  // where the output's threads read their rows. nullopt: not such a reduction.
  std::optional<TileVal> mmaRowReduce(ExprId id, TileFn fn, TypeId t);

  TileVal reduce(ExprId id, TileFn fn, TypeId t);

  // --- reductions along axes in registers (tile_reduce_axis.cpp) ----------

  // The source of each bit of the element index slot `s` holds (low bit
  // first); nullopt for the mma layout and shapes that are not powers of two.
  std::optional<std::vector<IndexBit>> indexBits(const Layout& l, unsigned s) const;
  // The index whose bits `bits` give, for this thread (i32).
  llvm::Value* composeBits(const std::vector<IndexBit>& bits);
  // ct.sum/max/min of `x` (type `accTile`, the standard layout) along the
  // `reduced` axes into several elements (type `t`): each thread combines its
  // slots of one output element, lanes sharing an output element combine by
  // shuffles, and where warps share one (or the output's threads are not the
  // input's), one shared-memory exchange of partials with one barrier (two
  // inside loops) that every reader combines in the same order. The result
  // carries its broadcast back over x's layout (noteBroadcast). nullopt: the
  // layouts are not bit-dealt (mma, shapes not powers of two).
  std::optional<TileVal> axisReduce(TileFn fn, TypeId t, TypeId acc, TypeId accTile, const TileVal& x,
                                    const std::vector<bool>& reduced);
  // A buffer of `elements` values of `mt` for one reduction's partials:
  // its own outside loops (no barrier before the writes), else the scratch
  // buffer after a barrier.
  llvm::Value* reductionBuffer(uint64_t elements, llvm::Type* mt);

  // The broadcast form recorded for a value with exactly `v`'s slots.
  const RowBroadcast* broadcastOf(const TileVal& v) const;
  void noteBroadcast(const TileVal& v, RowBroadcast bc);
  // Elementwise results of values with broadcast forms (or uniform values:
  // splats, or those the caller knows to be one value, `second`) get the same
  // operation applied to those forms: `op(args)` per slot.
  template <class Op>
  void broadcastElementwise(const TileVal& out, TypeId outElement,
                            std::initializer_list<std::pair<const TileVal*, bool>> ins, Op op);
  // Whether `id` is one value for the whole CTA (a constant, a scalar, a one-element tile).
  bool uniformOperand(ExprId id) const { return constOf(id) != nullptr || layoutOf(typeOf(id)).uniform; }
  // `v` (type `from`) broadcast to `to` from its recorded broadcast form, or
  // where each of `to`'s slots finds its source element in a slot of the
  // same thread: no shared memory. nullopt: neither.
  std::optional<TileVal> spreadInRegisters(const TileVal& v, TypeId from, TypeId to);
  // Names assigned once in the function being lowered (a value bound to one
  // can stand for the name where the binding dominates: its block).
  bool assignedOnce(const std::string& name);

  // --- matrix products (docs/TILE.md, "Matrix products") --------------------

  // Whether `id`'s value is produced in the mma accumulator layout: a
  // tensor-core product, a variable holding one, or an elementwise operation
  // of one keeping its shape.
  bool isMmaExpr(ExprId id);

  // The variables assigned an mma-layout value anywhere (to a fixed point:
  // `c = acc.astype(...)` follows `acc = ct.mma(...)`).
  void findMmaVars(std::span<const StmtId> body);

  void markMmaVars(std::span<const StmtId> body);

  // The dtype the product of `x` and `y` reads its operands in.
  TypeId productInput(ExprId x, ExprId y) const;

  // Whether a product of these operands into a tile of type `result` runs on
  // tensor cores: float16/bfloat16 (m16n8k16) or tfloat32 (m16n8k8) in, float32
  // (or float16) accumulation, shapes that split into 16x16 warp blocks.
  bool tensorCores(ExprId x, ExprId y, TypeId result);

  // `ct.mma(x, y, acc)`.
  TileVal mmaCall(ExprId id);

  // `x @ y`, `ct.matmul(x, y)`: a product into zeros of the accumulation
  // dtype (float32 for 16-bit floats and tfloat32, int32 for 8-bit integers),
  // converted to the result's dtype.
  TileVal matmul(ExprId id, ExprId x, ExprId y);

  // acc + x @ y, `acc` (type accT) in the mma layout when `tc`.
  TileVal product(ExprId x, ExprId y, TileVal acc, TypeId accT, bool tc);

  void asmStatement(const std::string& text);

  // A wgmma shared-memory matrix descriptor: start address, leading and stride
  // byte offsets (in 16-byte units) and the swizzle mode (1: 128 bytes, 2: 64).
  llvm::Value* wgmmaDescriptor(llvm::Value* address, uint64_t lbo, uint64_t sbo, uint64_t swizzle);

  // acc (float32 registers in the wgmma layout) += A @ B with Hopper's
  // asynchronous warpgroup MMA: each warpgroup of 4 warps computes 64 rows with
  // `wgmma.mma_async.m64n<N>k16`, A from K-major and B from MN-major swizzled
  // shared memory, then waits for its group to finish.
  void wgmmaProduct(const SmemTile& a, const SmemTile& b, std::vector<llvm::Value*>& c, int64_t depth, int64_t n,
                    bool bf16);

  // Byte offset (i32) of element (r, c) of a swizzled shared tile: 16-byte
  // chunk L = r * C + c / perChunk is stored at chunk L ^ key, where key is
  // the row within an 8-row group (C >= 8 chunks per row) or the 128-byte
  // line's index (C < 8), so 8 rows of one chunk column hit 8 distinct
  // 16-byte bank groups.
  llvm::Value* smemOffset(const SmemTile& t, llvm::Value* r, llvm::Value* chunk);

  llvm::Value* smemElement(const SmemTile& t, llvm::Value* r, llvm::Value* c);

  // A's 16x16 fragment (rows fm * 16.., columns k0..) of a tile held in the
  // mma layout (`fragsN` 16x8 fragments per row block, 4 slots each: c0/c1 at
  // row g, c2/c3 at g + 8): a0 = (g, 2q..), a1 = (g + 8, 2q..), a2 = (g,
  // 2q + 8..), a3 = (g + 8, 2q + 8..) are the two fragments of columns k0 and
  // k0 + 8, two 16-bit values each.
  std::array<llvm::Value*, 4> registerAFragment(const std::vector<llvm::Value*>& x, unsigned fragsN, unsigned fm,
                                                int64_t k0);

  std::array<llvm::Value*, 4> unpack4(llvm::Value* v);

  // mma.sync `mma` of every A fragment with every B fragment into `acc` (4 floats per
  // pair, row-major over (A, B) fragments), operands bitcast to its parameter types.
  void mmaFragments(llvm::Function* mma, const std::vector<std::array<llvm::Value*, 4>>& af,
                    const std::vector<std::array<llvm::Value*, 2>>& bf, std::vector<llvm::Value*>& acc);

  // A's 16x16 fragment at rows r0.., columns k0..: ldmatrix.x4, lane l giving
  // the address of row r0 + l % 16, chunk k0 / 8 + l / 16.
  std::array<llvm::Value*, 4> ldmatrixA(const SmemTile& t, llvm::Value* r0, int64_t k0, llvm::Value* lane);

  // B's fragments for columns n0..n0+15 at rows k0..k0+15 (two n8 fragments):
  // ldmatrix.x4.trans, lane l giving row k0 + l % 8 + 8 * (l / 8 % 2), chunk
  // n0 / 8 + l / 16.
  std::array<llvm::Value*, 4> ldmatrixB(const SmemTile& t, int64_t k0, llvm::Value* n0, llvm::Value* lane);

  llvm::Value* loadTf32(const SmemTile& t, llvm::Value* r, llvm::Value* c);

  // tfloat32 m16n8k8 fragments: A a0 (g, q), a1 (g + 8, q), a2 (g, q + 4),
  // a3 (g + 8, q + 4); B b0 (k q, n g), b1 (k q + 4, n g).
  std::array<llvm::Value*, 4> tf32AFragment(const SmemTile& t, llvm::Value* r0, int64_t k0, llvm::Value* lane);

  std::array<llvm::Value*, 2> tf32BFragment(const SmemTile& t, int64_t k0, llvm::Value* n0, llvm::Value* lane);

  // The operand `e` if the pipeline holds it in shared memory.
  std::optional<SmemTile> pipelined(ExprId e);

  // Writes tile `e` (as type `t`) into the scratch buffer at `offset`, swizzled.
  // The caller places the barriers.
  SmemTile stageSwizzled(ExprId e, TypeId t, uint64_t offset);

  // A product operand's value as type `t`: in the mma layout when it is
  // produced in it (the bool), else in the standard layout.
  std::pair<TileVal, bool> operandValue(ExprId e, TypeId t);

  // Writes `v` (type `t`, mma layout when `mma`) into the scratch buffer at
  // `offset`, swizzled. The caller places the barriers.
  SmemTile writeSwizzled(const TileVal& v, TypeId t, bool mma, uint64_t offset);

  // The product on CUDA cores (float32, float64, integers, small or odd
  // shapes): both operands staged row-major, each accumulator element loops
  // over the depth.
  TileVal cudaCoreProduct(ExprId x, ExprId y, TileVal acc, TypeId accT, int64_t rows, int64_t depth,
                          int64_t cols);

  // --- software pipelining of tensor-core operand loads --------------------

  // Names assigned anywhere in `body` (recursively).
  void assignedNames(std::span<const StmtId> body, std::set<std::string>& out) const;

  // Visits every expression under `id` (pre-order).
  template <class F>
  void visitExpr(ExprId id, F& f) const;

  // Visits every expression the statements read (recursively).
  template <class F>
  void visitStmts(std::span<const StmtId> body, F& f) const;

  // The operands of a matrix product (`ct.mma`, `ct.matmul`, `@`), if `e` is one.
  bool productOperands(ExprId e, ExprId& x, ExprId& y) const;

  bool isTileCall(ExprId id, TileFn fn) const;

  // The loads of loop `f` worth pipelining (docs/TILE.md, "Matrix products"):
  // `x = ct.load(A, index=..., shape=...)` at the loop's top level, maybe with
  // `.astype` to its own dtype or to tfloat32, 2-D, zero padding, indices of
  // the loop variable and of names the loop does not assign, 16-bit or 32-bit
  // elements, 16-byte rows; `x` read nowhere in the kernel but as an operand
  // of tensor-core products in this loop.
  std::vector<PipeLoad> planPipeline(const ast::For& f);

  static constexpr uint64_t kStaticShared = 48 * 1024;
  // Stages of a pipelined loop, at most: 6 measured 5-10 % faster than 4 where
  // shared memory allows more (docs/BENCHMARKS.md, session 4), 8 no better.
  static constexpr uint64_t kMaxStages = 6;

  // Shared memory the products of loop `f` need for operands the pipeline does
  // not hold (staged per product, after the ring).
  uint64_t stagedBytes(const ast::For& f, const std::vector<PipeLoad>& pipes);

  // Issues the copies of every pipelined load for the iteration whose loop
  // variable is `value` into `stage` (i8 addrspace(3)*); `active` false fills
  // zeros without reading. cp.async of 16-byte chunks when the rows are
  // 16-byte aligned and contiguous, else element by element.
  // Whether pipelined load `p`'s rows are 16-byte aligned and contiguous (its
  // array's strides and data pointer: uniform, computed once before the loop).
  llvm::Value* pipeAligned(const PipeLoad& p);

  void issuePipe(const std::vector<PipeLoad>& pipes, bool aligned, llvm::Value* stage, llvm::Value* active);

  // --- statements ---------------------------------------------------------

  // The allocas of variable `name` holding type `t` (one per slot; a name
  // rebound to another type gets other allocas), made on first use.
  const std::vector<llvm::AllocaInst*>& storage(const std::string& name, TypeId t);

  void assignName(ExprId target, const TileVal& v, TypeId from);

  void lowerBody(std::span<const StmtId> body);

  void lowerStmt(StmtId id);

  // A product operand staged before the enclosing loop (stageResident), if `e`
  // names one.
  std::optional<SmemTile> residentOperand(ExprId e);

  // Before loop `f`: the 16-bit float operands of its tensor-core products
  // that name a variable the loop does not assign (flash attention's Q tile,
  // loaded before the loop) are written into swizzled shared memory once,
  // instead of in every iteration; the body's scratch uses come after them.
  // Returns the bytes reserved and the variables staged.
  std::pair<uint64_t, std::vector<std::pair<std::string, uint32_t>>> stageResident(const ast::For& f);

  void lowerFor(StmtId id, const ast::For& f);
  // Compile-time loops (tile_static.cpp): the unrolled loop at a For (StmtId index) or a
  // tuple comprehension (Call ExprId index) of the current instance, if any.
  const frontend::StaticUnroll* unrolledAt(uint32_t node, bool comprehension) const;
  void bindStatic(const std::vector<frontend::StaticBinding>& bindings);
  void lowerStaticFor(const frontend::StaticUnroll& u, const ast::For& f);
  TileVal staticTuple(const frontend::StaticUnroll& u, ExprId id);
  // `left + right` of two tuples: their values one after the other (`leftValue`: the
  // left's value when the caller has it).
  TileVal concatTuples(ExprId left, ExprId right, TypeId result, const TileVal* leftValue);
  // The types of `left` and `right` in `left + right` = `result` (both tuples).
  std::pair<TypeId, TypeId> concatParts(ExprId right, TypeId result);
  // ct.astile(value, dtype): each element selected from the value's leaves by its index.
  TileVal astile(ExprId id);
  // `x in t`, `t == u` of tuples (the checker's compareTuples): elementwise, numbers as
  // float64 or int64.
  struct ComparePart {
    bool isConst = false;
    ConstValue constant;
    TypeId type;
    TileVal value;
  };
  ComparePart comparePart(ExprId e);
  std::vector<ComparePart> compareItems(const ComparePart& p);
  llvm::Value* partsEqual(const ComparePart& a, const ComparePart& b);
  TileVal compareTuples(frontend::CmpOp cmp, ExprId left, ExprId right);
  void lowerWhile(const ast::While& w);
  // Whether `body` holds a break or continue of its own loop (not of loops inside it).
  bool exitsLoop(std::span<const StmtId> body) const;

  // --- `with` over @contextmanager generators (tile_with.cpp) ----------------
  // `with cm(args) [as name]: body`: the generator inlined as a helper whose `yield`
  // lowers the body here (yieldHook_); the body's `break`, `continue` and `return` go
  // through the generator's statements after the `yield` (its cleanup), then on.
  void lowerWith(const ast::With& w);
  // The generator's `yield [value]`: the value into the return slots, then the body.
  void lowerYield(ExprId value);
  // How a statement leaves a `with` body or a loop; the value is the tag a `with`'s cleanup
  // switches on (0: the body fell through).
  enum class ExitKind : uint32_t { FallThrough = 0, Break = 1, Continue = 2, Return = 3 };
  // `break`, `continue`, `return` (its value stored): through the cleanups of the `with`s
  // they leave, innermost first.
  void lowerExit(ExitKind kind);
  // A returned closure's (a yielded one's) captures of the helper's own values, copied
  // from `child` into this function's variables (sema's exports of call `id`).
  void copyExports(TileLowering& child, ExprId id);
  struct WithFrame {
    size_t loops = 0;  // loopExits_ when the `with` began
    llvm::BasicBlock* cleanup = nullptr;
    llvm::AllocaInst* tag = nullptr;
    std::set<ExitKind> used;
  };
  std::vector<WithFrame> withFrames_;
  std::function<void(TileLowering&)>* yieldHook_ = nullptr;

  // `opaqueTid`: the body reads the thread id anew (a volatile `mov %tid.x`)
  // so that LLVM does not hoist the body's per-slot address arithmetic out of
  // the loop: in a loop of tensor-core products and softmax-like steps
  // (flash attention) hundreds of such loop-invariant values would stay live
  // across the loop and spill.
  // A `for v in range(...)` loop's bounds (in the loop variable's type) and
  // the variable's slot, in the order the arguments are evaluated.
  struct RangeLoop {
    TypeId type;
    llvm::Value* start = nullptr;
    llvm::Value* stop = nullptr;
    llvm::Value* step = nullptr;
    std::string name;
    llvm::AllocaInst* var = nullptr;
  };
  RangeLoop rangeOf(StmtId id, const ast::For& f);

  void lowerLoop(StmtId id, const ast::For& f, bool opaqueTid = false);

  // A loop whose tensor-core operand loads are pipelined: `stages` shared
  // buffers; iteration j waits for its own copies (cp.async.wait_group
  // ahead - 1), synchronises the CTA and issues the copies of iteration
  // j + ahead into buffer (j + ahead) % stages before computing. ahead is
  // stages - 1 (the barrier ends every read of the buffer iteration j - 1 used),
  // or stages - 2 when wgmma products stay in flight across one iteration
  // (wgmma.wait_group 1 ends iteration j - 1's reads of iteration j - 2's buffer).
  bool lowerPipelinedFor(StmtId id, const ast::For& f);


  // --- helpers, tuples, shape operations, argmax/argmin (docs/TILE.md) ----

  // The largest tile of `inst` and of the helpers it calls.
  int64_t largestTile(const frontend::FunctionInstance& inst) const;

  // The llvm types of the slots of a value of type `t` (a tuple: its
  // elements' slots one after another).
  std::vector<llvm::Type*> slotTypes(TypeId t);

  // `id` as the tuple type `to`: each element spread and converted.
  TileVal evalTuple(ExprId id, TypeId to);
  // `Cls(args)` / `dataclasses.replace(...)`: the instance's fields (sema/dataclasses.h).
  TileVal dataclassInstance(ExprId id, TypeId t);

  // The slots of each element of tuple `v` (of type `tupleType`), in order.
  std::vector<TileVal> tupleParts(const TileVal& v, TypeId tupleType);

  // `a, b = value`.
  void lowerTupleAssign(ExprId target, ExprId value);

  // A helper function call, inlined: the arguments are evaluated here, the
  // helper's body is lowered by a TileLowering of the helper's instance that
  // shares this function, its threads and its shared-memory scratch; its
  // returns store into slots read after the body.
  // The helper calls inside `e`, a compile-time value (a closure, a tuple of them: `make(t)[0]`),
  // lowered for what they do (stores, the values a returned closure keeps).
  void lowerCompileTimeCalls(ExprId e);
  // `given`: the values of its first parameters (ct.reduce's combining function).
  // `onYield`: the helper is a @contextmanager generator entered by `with` (tile_with.cpp).
  TileVal inlineHelper(ExprId id, const std::vector<TileVal>* given = nullptr,
                       std::function<void(TileLowering&)>* onYield = nullptr);
  // After `Cls(...)` (a dataclass construction) is built: its class's __post_init__, inlined
  // with `self` the instance's value (null: one holding arrays, the call's TupleArg).
  void postInit(ExprId call, const TileVal* self);
  // The instances holding arrays whose __post_init__ is being inlined, by the building
  // call's ExprId index (instanceTuple gives them as they are, not built again).
  std::map<uint32_t, TupleArg> postInitSelf_;
  // `ct.reduce(x, axis, func, identity, keepdims=)` (tile_reduce_fn.cpp): the inputs staged
  // in shared memory, each output element folding its row from the identity with `func`
  // (inlined per step) or the operator sema recorded on it.
  TileVal customReduce(ExprId id, TypeId t);
  // Element `p.path` of what `p.expr` gives (a helper call's `*t` splice or `**kwargs`
  // value) as a `to`; each tuple evaluated once per call (`evaluated`).
  TileVal pieceValue(const frontend::TileArgPiece& p, TypeId to, std::map<uint32_t, TileVal>& evaluated);
  // A constant (a tuple too) as a value of `to`.
  TileVal constantValue(const ConstValue& c, TypeId to);

  // The body of an inlined helper; returns its result (empty for none). An array result:
  // its pointer, extents and strides.
  TileVal inlineBody();
  // The statements of this instance's function (none for a lambda) and its extent.
  std::span<const StmtId> functionBody() const;
  frontend::NodeRange functionRange() const;

  void lowerInlineReturn(const ast::Return& r);

  // Python's min/max over scalars: the first of equal values wins, and a
  // later value replaces the current one only when it compares greater
  // (smaller), so a NaN met first stays.
  // min(a, b, ...), max(...): on scalars, or elementwise on tiles (each
  // argument broadcast to the result's layout), by Python's rule per element.
  TileVal builtinMinMax(ExprId id, bool isMax);

  // `x if c else y` with a runtime scalar `c` (a compile-time `c` picks a side).
  TileVal ifExp(ExprId id, const ast::IfExp& e, TypeId t);

  // `a and b`, `a or b` on runtime scalars (bool result).
  TileVal boolOp(const ast::BoolOp& bo);

  // `v` (type `from`) in the layout of `to` (as many elements): element e of
  // `to` (row-major) takes element source(e) of `from`, through shared memory
  // unless both layouts place every element alike.
  template <class Source>
  TileVal relayout(const TileVal& v, TypeId from, TypeId to, bool identity, Source source);

  // reshape, expand_dims, `t[:, None]` (the row-major order is kept),
  // permute and transpose (elements move).
  TileVal shapeOp(ExprId id, TileFn fn, TypeId t);
  // ct.extract and ct.cat, through shared memory (each output element reads its source).
  TileVal extract(ExprId id, TypeId t);
  TileVal insert(ExprId id, TypeId t);
  // ct.extract / ct.insert: the row-major offset of the sub-tile at `index` (counted in
  // sub-tiles of `sub`) in a staged tile of shape `in`, and of element `e` (row-major in
  // `sub`) of that window.
  llvm::Value* subTileStart(ExprId index, const std::vector<int64_t>& in, const std::vector<int64_t>& sub);
  llvm::Value* windowElement(llvm::Value* first, llvm::Value* e, const std::vector<int64_t>& sub,
                             const std::vector<int64_t>& stride);
  // A tile of `t` read back from a row-major staged buffer in layout `l`.
  TileVal loadStaged(llvm::Value* buffer, TypeId t, const Layout& l);
  // pack_to_bytes / unpack_from_bytes: x's bytes staged in shared memory, read back as t.
  TileVal reinterpretBytes(ExprId id, TypeId t);
  TileVal cat(ExprId id, TypeId t);
  // ct.matmul / `@` with batch dimensions (NumPy's broadcasting), on CUDA cores
  // through shared memory: each output element sums over the depth.
  TileVal batchedProduct(ExprId x, ExprId y, TypeId t);
  // The same of operand values in `calc` (shapes xs, ys, in their plain layouts),
  // summing from `acc` (of t, plain layout) or from zero.
  TileVal batchedProductOf(const TileVal& xv, const std::vector<int64_t>& xs, const TileVal& yv,
                           const std::vector<int64_t>& ys, TypeId t, TypeId calc, const TileVal* acc);
  // `ct.mma_scaled(x, x_scale, y, y_scale, acc)` (tile_mma_scaled.cpp): the operands
  // decoded and scaled in float32 (exact), then that product from acc.
  TileVal mmaScaled(ExprId id, TypeId t);
  // Whether that product runs on tensor cores (2-D, its accumulator in the mma layout),
  // and that product (block by block, in the mma layout).
  bool scaledTensorCores(ExprId id, TypeId t);
  TileVal scaledProduct(ExprId id, TypeId t);
  // `data`'s values in float32 times its scales, `scale` repeated along `axis` (K).
  TileVal scaledOperand(ExprId data, ExprId scale, size_t axis);
  // The CUDA-core products' loop over the depth: slot s sums, from init[s],
  // buffer[xBase[s] + k] * buffer[yBase[s] + k * cols] for k < depth, in `calc`.
  std::vector<llvm::Value*> depthSums(llvm::Value* buffer, TypeId calc, const std::vector<llvm::Value*>& xBase,
                                      const std::vector<llvm::Value*>& yBase, int64_t cols, int64_t depth,
                                      const std::vector<llvm::Value*>& init, const char* name);

  // Whether candidate (b, ib) beats the current (a, ia) in an argmax
  // (argmin): a greater (smaller) value, or an equal one at a smaller index;
  // NaN beats every number (NumPy), the first NaN wins.
  llvm::Value* argBetter(bool isMax, TypeId e, llvm::Value* a, llvm::Value* ia, llvm::Value* c,
                         llvm::Value* ic);

  // ct.argmax / ct.argmin: over all elements (per thread, warp shuffles,
  // then warps through shared memory) or along one axis (staged in shared
  // memory, each output element loops over its axis).
  TileVal argReduce(ExprId id, TileFn fn, TypeId t);

  // float32 <-> tfloat32: rounding to 10 mantissa bits (cvt.rna.tf32.f32),
  // kept in a float register; tfloat32 to float32 is the same bits.
  llvm::Value* convertTf32(llvm::Value* v, TypeId from, TypeId to);
  // A float32's bits rounded to tfloat32, to nearest with ties to even (cuBLAS's TF32
  // and cuTile's; the 13 low bits unspecified): cvt.rn where the target has it
  // (`instruction`), else integer arithmetic. NaN stays NaN.
  llvm::Value* tf32Bits(llvm::Value* f, bool instruction);

  llvm::AllocaInst* entryAlloca(llvm::Type* t, const std::string& name);

  const frontend::Ast& ast_;
  const frontend::TypedModule& typed_;
  TypeTable& types_;
  // The instance whose side tables are read: the function's, or one iteration's of a
  // compile-time loop while that iteration is lowered.
  const frontend::FunctionInstance* inst_;
  Accesses accessed_;
  const frontend::JitFunction& fn_;
  llvm::Function* function_;
  llvm::LLVMContext& context_;
  llvm::Module& module_;
  llvm::IRBuilder<> b_;
  unsigned threads_ = 128;
  unsigned maxVec_ = 4;
  unsigned loopDepth_ = 0;  // loops (for, while) around the statement being lowered
  // Where `continue` and `break` go in each loop around the statement, innermost last.
  struct LoopExits {
    llvm::BasicBlock* next;
    llvm::BasicBlock* done;
  };
  std::vector<LoopExits> loopExits_;
  llvm::Value* tid_ = nullptr;
  std::map<std::string, ArrayArgs> arrays_;
  std::map<std::string, TupleArg> tuples_;
  // Local variables holding arrays (views): pointer, shape and stride slots.
  struct ArrayVar {
    llvm::AllocaInst* data = nullptr;
    std::vector<llvm::AllocaInst*> shape, strides;
  };
  std::map<std::string, ArrayVar> arrayVars_;
  std::map<std::pair<std::string, uint32_t>, std::vector<llvm::AllocaInst*>> vars_;
  llvm::GlobalVariable* scratch_ = nullptr;
  uint64_t scratchBytes_ = 0;
  // Variables (name, type) held in the mma accumulator layout.
  std::set<std::pair<std::string, uint32_t>> mmaVars_;
  // Pipelined loads of the loop being lowered: their current stage.
  std::map<std::string, SmemTile> pipeStage_;
  bool usesTensorCores_ = false;
  bool allowWgmma_ = false;
  bool cvtRnTf32_ = false;
  bool gridDependency_ = false;
  bool wgmma_ = false;
  bool deferWgmma_ = false;
  bool twoCtas_ = false;
  // The vector path of a load or store is being emitted (rowSlotAddress). The
  // element-by-element path keeps slotAddress's general form: its peak register
  // use (every element's address live at once) sets the kernel's count.
  bool vectorPath_ = false;
  uint32_t maxShared_ = 48 * 1024;
  uint32_t dynamicShared_ = 0;
  // Bytes of the ring at the scratch buffer's start while a pipelined loop's
  // body is lowered.
  uint64_t ringInUse_ = 0;
  // Loop-invariant tensor-core operands staged once before a loop (stageResident),
  // by variable; they occupy the scratch buffer's first residentBytes_ bytes
  // while the loop's body is lowered.
  std::map<std::pair<std::string, uint32_t>, SmemTile> resident_;
  uint64_t residentBytes_ = 0;
  // Broadcast forms of reductions' results (and of elementwise values of
  // them), by the values' slots.
  std::map<std::vector<llvm::Value*>, RowBroadcast> broadcasts_;
  // Values bound to names assigned once, innermost statement list last
  // (lowerBody drops those of a list when it ends).
  std::vector<std::pair<std::pair<std::string, uint32_t>, TileVal>> boundValues_;
  std::optional<std::map<std::string, unsigned>> assignments_;
  // An inlined helper: where its returns go.
  llvm::BasicBlock* exit_ = nullptr;
  std::vector<llvm::AllocaInst*> returnSlots_;
};

// Member templates (used from several of the tile_*.cpp files).

template <class F>
void TileLowering::guarded(llvm::Value* cond, F body) {
  auto* then = llvm::BasicBlock::Create(context_, "then", function_);
  auto* done = llvm::BasicBlock::Create(context_, "done", function_);
  b_.CreateCondBr(cond, then, done);
  b_.SetInsertPoint(then);
  body();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
}

template <class F>
llvm::Value* TileLowering::guardedValue(llvm::Value* cond, llvm::Value* otherwise, const char* name, F body) {
  llvm::BasicBlock* before = b_.GetInsertBlock();
  auto* then = llvm::BasicBlock::Create(context_, std::string(name) + ".elem", function_);
  auto* done = llvm::BasicBlock::Create(context_, std::string(name) + ".next", function_);
  b_.CreateCondBr(cond, then, done);
  b_.SetInsertPoint(then);
  llvm::Value* x = body();
  llvm::BasicBlock* ran = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  llvm::PHINode* phi = b_.CreatePHI(x->getType(), 2);
  phi->addIncoming(x, ran);
  phi->addIncoming(otherwise, before);
  return phi;
}

template <class Emit>
std::vector<llvm::Value*> TileLowering::accessPaths(const ArrayArgs& arr, const Addressing& a, const Layout& l,
                                      TypeId e, Emit emit) {
  // A strided view's tiles start at multiples of its steps: vectors only where those keep
  // the chunks aligned.
  bool vectors = hasVectors(l, e) && (a.steps.empty() || a.steps.back() % l.vec == 0);
  llvm::Value* test = vectors ? vectorizable(arr, l, types_.byteSize(e))
                              : b_.CreateAnd(tileInside(arr, a), b_.getInt1(!l.partial));
  if (auto* known = llvm::dyn_cast<llvm::ConstantInt>(test)) {
    // The array's layout and facts decide: one path.
    bool fastPath = known->isOne();
    vectorPath_ = vectors && fastPath;
    std::vector<llvm::Value*> v = emit(!fastPath ? Path::Edge : vectors ? Path::Vector : Path::Inside);
    vectorPath_ = false;
    return v;
  }
  auto* join = llvm::BasicBlock::Create(context_, "tile.done", function_);
  auto* fast = llvm::BasicBlock::Create(context_, vectors ? "tile.vector" : "tile.inside", function_);
  auto* edge = llvm::BasicBlock::Create(context_, "tile.edge", function_);
  b_.CreateCondBr(test, fast, edge);
  b_.SetInsertPoint(fast);
  vectorPath_ = vectors;
  std::vector<llvm::Value*> v = emit(vectors ? Path::Vector : Path::Inside);
  vectorPath_ = false;
  llvm::BasicBlock* fastEnd = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(edge);
  std::vector<llvm::Value*> q = emit(Path::Edge);
  llvm::BasicBlock* edgeEnd = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
  std::vector<llvm::Value*> out;
  for (size_t s = 0; s < v.size(); ++s) {
    llvm::PHINode* phi = b_.CreatePHI(v[s]->getType(), 2);
    phi->addIncoming(v[s], fastEnd);
    phi->addIncoming(q[s], edgeEnd);
    out.push_back(phi);
  }
  return out;
}

template <class Whole, class Elements, class Outside>
std::vector<llvm::Value*> TileLowering::perChunk(const ArrayArgs& arr, const Addressing& a, const Layout& l,
                                   Whole whole, Elements elements, Outside outside) {
  if (l.partial || l.uniform) return perChunkChecked(arr, a, l, whole, elements);
  struct Version {
    llvm::BasicBlock* end;
    std::vector<llvm::Value*> values;
  };
  std::vector<Version> versions;
  auto* done = llvm::BasicBlock::Create(context_, "tile.chunks.done", function_);
  auto branch = [&](llvm::Value* test, const char* name, auto emit) {
    auto* taken = llvm::BasicBlock::Create(context_, name, function_);
    auto* rest = llvm::BasicBlock::Create(context_, "tile.chunks", function_);
    b_.CreateCondBr(test, taken, rest);
    b_.SetInsertPoint(taken);
    std::vector<llvm::Value*> values = emit();
    versions.push_back({b_.GetInsertBlock(), std::move(values)});
    b_.CreateBr(done);
    b_.SetInsertPoint(rest);
  };
  // Whole chunks only (each inside or outside the array) where the last extent
  // is a multiple of the vector width; the facts may say it always is.
  std::vector<llvm::Value*> rest;
  if (arr.facts.shapeDivisor(arr.shape.size() - 1) % l.vec == 0) {
    rest = perChunkChecked(arr, a, l, whole, outside, true);
  } else {
    branch(tileInside(arr, a), "tile.whole", [&] {
      std::vector<llvm::Value*> all;
      for (unsigned s = 0; s < l.slots; s += l.vec) {
        if (llvm::Value* w = whole(s, chunkAddress(arr, a, l, s).first)) all.push_back(w);
      }
      return all;
    });
    llvm::Value* wholeChunks =
        b_.CreateICmpEQ(b_.CreateURem(arr.shape.back(), b_.getInt64(l.vec)), b_.getInt64(0));
    branch(wholeChunks, "tile.whole.chunks", [&] { return perChunkChecked(arr, a, l, whole, outside); });
    rest = perChunkChecked(arr, a, l, whole, elements);
  }
  versions.push_back({b_.GetInsertBlock(), std::move(rest)});
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  std::vector<llvm::Value*> out;
  for (size_t s = 0; s < versions[0].values.size(); ++s) {
    llvm::PHINode* phi = b_.CreatePHI(versions[0].values[s]->getType(), static_cast<unsigned>(versions.size()));
    for (const Version& v : versions) phi->addIncoming(v.values[s], v.end);
    out.push_back(phi);
  }
  return out;
}

template <class Whole, class Elements>
std::vector<llvm::Value*> TileLowering::perChunkChecked(const ArrayArgs& arr, const Addressing& a, const Layout& l,
                                          Whole whole, Elements elements, bool wholeChunks) {
  std::vector<llvm::Value*> out;
  for (unsigned s = 0; s < l.slots; s += l.vec) {
    auto [offset, inside] = wholeChunks ? slotAddress(arr, a, l, s) : chunkAddress(arr, a, l, s);
    auto* wholeBlock = llvm::BasicBlock::Create(context_, "chunk.whole", function_);
    auto* partBlock = llvm::BasicBlock::Create(context_, "chunk.part", function_);
    auto* done = llvm::BasicBlock::Create(context_, "chunk.done", function_);
    b_.CreateCondBr(inside, wholeBlock, partBlock);
    b_.SetInsertPoint(wholeBlock);
    llvm::Value* w = whole(s, offset);
    llvm::BasicBlock* wholeEnd = b_.GetInsertBlock();
    b_.CreateBr(done);
    b_.SetInsertPoint(partBlock);
    llvm::Value* p = elements(s);
    llvm::BasicBlock* partEnd = b_.GetInsertBlock();
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    if (w != nullptr) {
      llvm::PHINode* phi = b_.CreatePHI(w->getType(), 2);
      phi->addIncoming(w, wholeEnd);
      phi->addIncoming(p, partEnd);
      out.push_back(phi);
    }
  }
  return out;
}

template <class F>
void TileLowering::visitExpr(ExprId id, F& f) const {
  if (!id.valid()) return;
  f(id);
  const frontend::Expr& e = ast_.expr(id);
  switch (e.kind()) {
    case frontend::ExprKind::BinOp:
      visitExpr(e.as<ast::BinOp>().left, f);
      visitExpr(e.as<ast::BinOp>().right, f);
      break;
    case frontend::ExprKind::UnaryOp:
      visitExpr(e.as<ast::UnaryOp>().operand, f);
      break;
    case frontend::ExprKind::Compare:
      visitExpr(e.as<ast::Compare>().left, f);
      for (ExprId c : ast_.list(e.as<ast::Compare>().comparators)) visitExpr(c, f);
      break;
    case frontend::ExprKind::Call:
      visitExpr(e.as<ast::Call>().func, f);
      for (ExprId a : ast_.list(e.as<ast::Call>().args)) visitExpr(a, f);
      for (frontend::KeywordId k : ast_.list(e.as<ast::Call>().keywords)) visitExpr(ast_.keyword(k).value, f);
      break;
    case frontend::ExprKind::Attribute:
      visitExpr(e.as<ast::Attribute>().value, f);
      break;
    case frontend::ExprKind::Subscript:
      visitExpr(e.as<ast::Subscript>().value, f);
      visitExpr(e.as<ast::Subscript>().slice, f);
      break;
    case frontend::ExprKind::Tuple:
      for (ExprId x : ast_.list(e.as<ast::Tuple>().elts)) visitExpr(x, f);
      break;
    case frontend::ExprKind::IfExp:
      visitExpr(e.as<ast::IfExp>().test, f);
      visitExpr(e.as<ast::IfExp>().body, f);
      visitExpr(e.as<ast::IfExp>().orelse, f);
      break;
    default:
      break;
  }
}

template <class F>
void TileLowering::visitStmts(std::span<const StmtId> body, F& f) const {
  for (StmtId id : body) {
    const frontend::Stmt& s = ast_.stmt(id);
    switch (s.kind()) {
      case frontend::StmtKind::Assign:  // targets are not visited (not reads)
        visitExpr(s.as<ast::Assign>().value, f);
        break;
      case frontend::StmtKind::AugAssign:
        visitExpr(s.as<ast::AugAssign>().target, f);
        visitExpr(s.as<ast::AugAssign>().value, f);
        break;
      case frontend::StmtKind::Expr:
        visitExpr(s.as<ast::ExprStmt>().value, f);
        break;
      case frontend::StmtKind::For:
        visitExpr(s.as<ast::For>().iter, f);
        visitStmts(ast_.list(s.as<ast::For>().body), f);
        break;
      case frontend::StmtKind::While:
        visitExpr(s.as<ast::While>().test, f);
        visitStmts(ast_.list(s.as<ast::While>().body), f);
        break;
      case frontend::StmtKind::If:
        visitExpr(s.as<ast::If>().test, f);
        visitStmts(ast_.list(s.as<ast::If>().body), f);
        visitStmts(ast_.list(s.as<ast::If>().orelse), f);
        break;
      case frontend::StmtKind::With:
        for (frontend::WithItemId w : ast_.list(s.as<ast::With>().items)) visitExpr(ast_.withItem(w).contextExpr, f);
        visitStmts(ast_.list(s.as<ast::With>().body), f);
        break;
      default:
        break;
    }
  }
}

template <class Op>
void TileLowering::broadcastElementwise(const TileVal& out, TypeId outElement,
                                        std::initializer_list<std::pair<const TileVal*, bool>> ins, Op op) {
  if (out.mma) return;
  const RowBroadcast* form = nullptr;
  std::vector<const RowBroadcast*> forms;
  for (auto [in, uniform] : ins) {
    const RowBroadcast* b = broadcastOf(*in);
    if (b == nullptr) {
      if (!(uniform || in->splat) || in->mma || in->slots.empty()) return;
    } else if (form != nullptr && (b->shape != form->shape || b->keep != form->keep)) {
      return;
    } else {
      form = b;
    }
    forms.push_back(b);
  }
  if (form == nullptr) return;
  RowBroadcast r{form->shape, form->keep, outElement, {}};
  std::map<std::vector<llvm::Value*>, llvm::Value*> done;
  for (size_t s = 0; s < form->slots.size(); ++s) {
    std::vector<llvm::Value*> args;
    size_t i = 0;
    for (auto [in, uniform] : ins) {
      args.push_back(forms[i] != nullptr ? forms[i]->slots[s] : in->slots[0]);
      ++i;
    }
    auto [it, fresh] = done.try_emplace(args, nullptr);
    if (fresh) it->second = op(args);
    r.slots.push_back(it->second);
  }
  noteBroadcast(out, std::move(r));
}

template <class Source>
TileVal TileLowering::relayout(const TileVal& v, TypeId from, TypeId to, bool identity, Source source) {
  Layout lf = layoutFor(from, v.mma);
  Layout lt = layoutOf(to);
  if (identity && lf.slots == lt.slots && lf.vec == lt.vec && lf.partial == lt.partial &&
      lf.uniform == lt.uniform && !lf.mma) {
    return v;
  }
  TypeId e = elementOf(to);
  llvm::Value* buffer = stage(v, from, lf);
  TileVal out;
  for (unsigned s = 0; s < lt.slots; ++s) {
    llvm::Value* index = source(clampIndex(elementIndex(lt, s), lt));
    llvm::Value* x = b_.CreateLoad(memoryType(e), b_.CreateGEP(memoryType(e), buffer, index));
    if (types_.isBool(e)) x = b_.CreateICmpNE(x, b_.getInt8(0));
    out.slots.push_back(x);
  }
  return out;
}

}  // namespace lowering::tile
