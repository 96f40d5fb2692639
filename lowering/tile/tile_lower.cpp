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

namespace lowering {

namespace {

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

struct ArrayArgs {
  llvm::Value* data = nullptr;
  std::vector<llvm::Value*> shape;
  std::vector<llvm::Value*> strides;
};

class TileLowering {
public:
  TileLowering(const frontend::Ast& ast, const frontend::TypedModule& typed,
               const frontend::FunctionInstance& inst, llvm::Function* function)
      : ast_(ast), typed_(typed), types_(const_cast<TypeTable&>(typed.module.types)), inst_(inst),
        fn_(typed.module.functions[inst.function]), function_(function),
        context_(function->getContext()), module_(*function->getParent()), b_(context_) {}

  // Lowers the helper instance `inst` inline into `parent`'s function (at its
  // insertion point), with its threads, thread id and shared scratch.
  TileLowering(TileLowering& parent, const frontend::FunctionInstance& inst)
      : ast_(parent.ast_), typed_(parent.typed_), types_(parent.types_), inst_(inst),
        fn_(typed_.module.functions[inst.function]), function_(parent.function_),
        context_(parent.context_), module_(parent.module_), b_(context_) {
    threads_ = parent.threads_;
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
  void setTarget(const TileTarget& target) {
    allowWgmma_ = target.wgmma;
    maxShared_ = target.maxSharedBytes;
  }
  uint32_t dynamicSharedBytes() const { return dynamicShared_; }
  // Kernels without matrix products (those ask for their own CTAs per SM):
  // 32 registers a thread, a full SM of 128-thread CTAs (docs/TILE.md,
  // "Register budget"; the link relaxes it where ptxas spills).
  uint32_t registerTarget() const { return hasProducts(inst_) ? 0 : kRegisterTarget; }

  uint32_t run() {
    threads_ = chooseThreads();
    wgmma_ = allowWgmma_ && threads_ == 256 && hasProducts(inst_);
    // Two CTAs per SM for tensor-core kernels whose accumulators fit in 64
    // registers a thread (128 registers in all); bigger ones get the SM alone,
    // and so do kernels chaining several products (flash attention: S = Q K^T,
    // the softmax, then P V: two accumulators and the softmax state are live).
    twoCtas_ = threads_ == 256 && productSites(inst_) <= 1;
    for (TypeId t : inst_.exprTypes) {
      if (!t.valid() || !types_.isTile(t)) continue;
      if (auto l = mmaLayoutOf(t); l && l->slots > 64) twoCtas_ = false;
    }
    maxVec_ = chooseMaxVec();
    auto* entry = llvm::BasicBlock::Create(context_, "entry", function_);
    b_.SetInsertPoint(entry);
    tid_ = b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x));
    // Parameters: arrays as pointer + shapes + strides, scalars by value.
    unsigned k = 0;
    for (size_t p = 0; p < inst_.argTypes.size(); ++p) {
      TypeId t = inst_.argTypes[p];
      const Type& ty = types_.get(t);
      const std::string& name = fn_.params[p];
      if (ty.kind == TypeKind::Array) {
        ArrayArgs a;
        a.data = function_->getArg(k++);
        for (unsigned d = 0; d < ty.ndim; ++d) a.shape.push_back(function_->getArg(k++));
        for (unsigned d = 0; d < ty.ndim; ++d) a.strides.push_back(function_->getArg(k++));
        arrays_[name] = a;
        continue;
      }
      llvm::Value* v = function_->getArg(k++);
      if (types_.isBool(t)) v = b_.CreateICmpNE(v, b_.getInt8(0));
      llvm::AllocaInst* slot = b_.CreateAlloca(llvmType(t), nullptr, name);
      b_.CreateStore(v, slot);
      vars_[{name, t.index}] = {slot};
    }
    const ast::FunctionDef& def = *ast_.stmt(fn_.stmt).functionDef();
    findMmaVars(ast_.list(def.body));
    lowerBody(ast_.list(def.body));
    if (!b_.GetInsertBlock()->getTerminator()) b_.CreateRetVoid();
    finishScratch();
    // Tell ptxas the block size (maxntid): it sizes registers for it.
    llvm::NamedMDNode* annotations = module_.getOrInsertNamedMetadata("nvvm.annotations");
    llvm::Metadata* md[] = {llvm::ValueAsMetadata::get(function_), llvm::MDString::get(context_, "maxntidx"),
                            llvm::ConstantAsMetadata::get(b_.getInt32(threads_))};
    annotations->addOperand(llvm::MDNode::get(context_, md));
    if (usesTensorCores_ && twoCtas_) {
      // Two CTAs per SM (128 registers a thread): a tensor-core main loop hides
      // its shared-memory and mma latencies with the other CTA's warps.
      llvm::Metadata* minBlocks[] = {llvm::ValueAsMetadata::get(function_), llvm::MDString::get(context_, "minctasm"),
                                     llvm::ConstantAsMetadata::get(b_.getInt32(2))};
      annotations->addOperand(llvm::MDNode::get(context_, minBlocks));
    }
    return threads_;
  }

private:
  // --- types and layouts --------------------------------------------------

  unsigned chooseThreads() const {
    int64_t most = largestTile(inst_);
    // Matrix products: 128 threads, or 256 (8 warps, each a 64x32 block of a
    // 128x128 accumulator) for tiles of 4096 elements and more.
    if (hasProducts(inst_)) return most >= 4096 ? 256u : 128u;
    // 16 elements per thread for the biggest tile (two 16-byte vectors of 16-bit
    // elements, four of 32-bit ones): a block of one row per CTA then keeps enough
    // bytes in flight per SM (docs/BENCHMARKS.md, "Tile kernels: bandwidth"). At
    // least 64 threads (two warps), at most 1024.
    return static_cast<unsigned>(std::clamp<int64_t>(most / 16, 64, 1024));
  }

  // The number of matrix products (ct.mma, ct.matmul, `@`) written in `inst`.
  unsigned productSites(const frontend::FunctionInstance& inst) const {
    unsigned n = 0;
    for (size_t i = 0; i < inst.exprTypes.size(); ++i) {
      if (!inst.exprTypes[i].valid()) continue;
      const frontend::ExprMeaning& m = inst.meanings[i];
      const frontend::Expr& e = ast_.expr(ExprId(static_cast<uint32_t>(i)));
      bool call = e.kind() == frontend::ExprKind::Call && m.kind == Intrinsic::TileOp &&
                  (static_cast<TileFn>(m.payload) == TileFn::Mma || static_cast<TileFn>(m.payload) == TileFn::Matmul);
      bool at = e.kind() == frontend::ExprKind::BinOp && e.as<ast::BinOp>().op == frontend::Operator::MatMult;
      n += call || at ? 1 : 0;
    }
    return n;
  }

  // Whether `inst` has a matrix product (ct.mma, ct.matmul, `@`).
  bool hasProducts(const frontend::FunctionInstance& inst) const {
    for (size_t i = 0; i < inst.exprTypes.size(); ++i) {
      if (!inst.exprTypes[i].valid()) continue;
      const frontend::ExprMeaning& m = inst.meanings[i];
      if (m.kind == Intrinsic::TileOp &&
          (static_cast<TileFn>(m.payload) == TileFn::Mma || static_cast<TileFn>(m.payload) == TileFn::Matmul)) {
        return true;
      }
      const frontend::Expr& e = ast_.expr(ExprId(static_cast<uint32_t>(i)));
      if (e.kind() == frontend::ExprKind::BinOp && e.as<ast::BinOp>().op == frontend::Operator::MatMult) return true;
    }
    return false;
  }

  // The most consecutive elements a thread holds per chunk: 16 bytes of the
  // narrowest element type the kernel's arrays hold (one 16-byte load or store
  // instruction each), at least 4, at most 16. One value for the whole kernel:
  // tiles of the same shape share a layout whatever their element type
  // (`astype` stays in registers).
  unsigned chooseMaxVec() const {
    unsigned narrowest = 16;
    for (TypeId t : inst_.argTypes) {
      const Type& ty = types_.get(t);
      if (ty.kind != TypeKind::Array || types_.isBool(ty.element)) continue;
      narrowest = std::min(narrowest, types_.byteSize(ty.element));
    }
    return std::clamp(16u / narrowest, 4u, 16u);
  }

  int64_t elementsOf(TypeId t) const {
    int64_t n = 1;
    for (int64_t d : types_.get(t).shape) n *= d;
    return n;
  }

  Layout layoutOf(TypeId t) const {
    Layout l;
    if (!types_.isTile(t)) return l;
    const Type& ty = types_.get(t);
    l.n = elementsOf(t);
    if (l.n == 1) return l;
    l.uniform = false;
    if (l.n < threads_) {
      l.partial = true;
      return l;
    }
    int64_t last = ty.shape.back();
    int64_t vec = std::min<int64_t>({maxVec_, l.n / threads_, last});
    l.vec = static_cast<unsigned>(std::max<int64_t>(vec, 1));
    l.slots = static_cast<unsigned>(l.n / threads_);
    return l;
  }

  // The mma accumulator layout of a 2-D tile, if the tile splits into one
  // block of at least 16x16 per warp (and at most 128 slots per thread).
  std::optional<Layout> mmaLayoutOf(TypeId t) const {
    if (!types_.isTile(t)) return std::nullopt;
    const std::vector<int64_t>& shape = types_.get(t).shape;
    if (shape.size() != 2) return std::nullopt;
    int64_t rows = shape[0], cols = shape[1];
    unsigned warps = threads_ / kWarp;
    if (wgmma_ && rows == 16 * warps && (cols == 64 || cols == 128 || cols == 256)) {
      // wgmma's accumulator (m64nNk16 per warpgroup): warp w owns rows 16w..16w+15
      // and every column, as 16x8 fragments.
      Layout l;
      l.wm = 16;
      l.wn = cols;
      l.n = rows * cols;
      l.slots = static_cast<unsigned>(l.n / threads_);
      l.uniform = false;
      l.vec = 2;
      l.mma = true;
      l.warpsN = 1;
      l.cols = cols;
      return l;
    }
    unsigned wmCount = 1, wnCount = 1;
    while (wmCount * wnCount < warps) {
      int64_t wm = rows / wmCount, wn = cols / wnCount;
      if (wm >= wn && wm >= 32) {
        wmCount *= 2;
      } else if (wn >= 32) {
        wnCount *= 2;
      } else if (wm >= 32) {
        wmCount *= 2;
      } else {
        return std::nullopt;
      }
    }
    Layout l;
    l.wm = rows / wmCount;
    l.wn = cols / wnCount;
    if (l.wm < 16 || l.wn < 16) return std::nullopt;
    l.n = rows * cols;
    l.slots = static_cast<unsigned>(l.n / threads_);
    if (l.slots > 128) return std::nullopt;
    l.uniform = false;
    l.vec = 2;
    l.mma = true;
    l.warpsN = wnCount;
    l.cols = cols;
    return l;
  }

  Layout layoutFor(TypeId t, bool mma) const { return mma ? *mmaLayoutOf(t) : layoutOf(t); }

  // The linear element index (i32) slot `s` of this thread holds.
  llvm::Value* elementIndex(const Layout& l, unsigned s) {
    if (l.uniform) return b_.getInt32(0);
    if (l.partial) return tid_;
    if (l.mma) {
      // Fragment f = (fm, fn) of the warp's block; c0/c1 at row g, columns
      // 2q, 2q+1; c2/c3 eight rows below (g = lane / 4, q = lane % 4).
      unsigned f = s / 4;
      unsigned j = s % 4;
      unsigned fragsN = static_cast<unsigned>(l.wn / 8);
      unsigned fm = f / fragsN;
      unsigned fn = f % fragsN;
      llvm::Value* warp = b_.CreateLShr(tid_, b_.getInt32(5));
      llvm::Value* lane = b_.CreateAnd(tid_, b_.getInt32(kWarp - 1));
      llvm::Value* wr = b_.CreateUDiv(warp, b_.getInt32(l.warpsN));
      llvm::Value* wc = b_.CreateURem(warp, b_.getInt32(l.warpsN));
      llvm::Value* row = b_.CreateAdd(b_.CreateMul(wr, b_.getInt32(static_cast<uint32_t>(l.wm))),
                                      b_.CreateLShr(lane, b_.getInt32(2)));
      row = b_.CreateAdd(row, b_.getInt32(fm * 16 + 8 * (j >> 1)));
      llvm::Value* col = b_.CreateAdd(b_.CreateMul(wc, b_.getInt32(static_cast<uint32_t>(l.wn))),
                                      b_.CreateShl(b_.CreateAnd(lane, b_.getInt32(3)), b_.getInt32(1)));
      col = b_.CreateAdd(col, b_.getInt32(fn * 8 + (j & 1)));
      return b_.CreateAdd(b_.CreateMul(row, b_.getInt32(static_cast<uint32_t>(l.cols))), col);
    }
    unsigned chunk = s / l.vec;
    unsigned lane = s % l.vec;
    llvm::Value* base = b_.CreateAdd(b_.getInt32(chunk * threads_), tid_);
    return b_.CreateAdd(b_.CreateMul(base, b_.getInt32(l.vec)), b_.getInt32(lane));
  }

  // Whether slot `s` holds an element (only partial layouts have empty slots).
  llvm::Value* slotValid(const Layout& l) {
    if (!l.partial) return b_.getTrue();
    return b_.CreateICmpULT(tid_, b_.getInt32(static_cast<uint32_t>(l.n)));
  }

  // The multi-index of linear element `e` in `shape` (powers of two).
  std::vector<llvm::Value*> multiIndex(llvm::Value* e, const std::vector<int64_t>& shape) {
    std::vector<llvm::Value*> idx(shape.size());
    int64_t inner = 1;
    for (size_t d = shape.size(); d-- > 0;) {
      llvm::Value* q = inner == 1 ? e : b_.CreateLShr(e, b_.getInt32(static_cast<uint32_t>(log2i(inner))));
      idx[d] = b_.CreateAnd(q, b_.getInt32(static_cast<uint32_t>(shape[d] - 1)));
      inner *= shape[d];
    }
    return idx;
  }

  static int64_t log2i(int64_t v) {
    int64_t r = 0;
    while ((int64_t(1) << r) < v) ++r;
    return r;
  }

  TypeId elementOf(TypeId t) const {
    const Type& ty = types_.get(t);
    return ty.kind == TypeKind::Tile || ty.kind == TypeKind::Array ? ty.element : t;
  }

  llvm::Type* llvmType(TypeId t) {
    const Type& ty = types_.get(t);
    switch (ty.kind) {
      case TypeKind::Bool: return b_.getInt1Ty();
      case TypeKind::Int: return b_.getIntNTy(ty.bits);
      case TypeKind::Float:
        if (ty.format == frontend::FloatFormat::BFloat) return b_.getBFloatTy();
        return ty.bits == 16 ? b_.getHalfTy() : ty.bits == 32 ? b_.getFloatTy() : b_.getDoubleTy();
      default: return llvmType(elementOf(t));
    }
  }

  llvm::Type* memoryType(TypeId t) { return types_.isBool(t) ? b_.getInt8Ty() : llvmType(t); }

  llvm::Function* intrinsic(llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Type*> tys = {}) {
    return llvm::Intrinsic::getDeclaration(&module_, id, tys);
  }

  // --- conversions --------------------------------------------------------

  llvm::Value* convert(llvm::Value* v, TypeId from, TypeId to) {
    from = elementOf(from);
    to = elementOf(to);
    if (from == to) return v;
    if (types_.isTFloat32(from) || types_.isTFloat32(to)) return convertTf32(v, from, to);
    const Type& f = types_.get(from);
    const Type& t = types_.get(to);
    llvm::Type* dst = llvmType(to);
    if (t.kind == TypeKind::Bool) {
      if (f.kind == TypeKind::Float) return b_.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));
      return b_.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
    }
    if (f.kind == TypeKind::Bool) {
      return t.kind == TypeKind::Float ? b_.CreateUIToFP(v, dst) : b_.CreateZExt(v, dst);
    }
    if (f.kind == TypeKind::Float && t.kind == TypeKind::Float) {
      if (f.bits == t.bits && f.bits == 16) {
        // float16 <-> bfloat16 through float32.
        return b_.CreateFPTrunc(b_.CreateFPExt(v, b_.getFloatTy()), dst);
      }
      return f.bits < t.bits ? b_.CreateFPExt(v, dst) : b_.CreateFPTrunc(v, dst);
    }
    if (f.kind == TypeKind::Int && t.kind == TypeKind::Float) {
      return f.isSigned ? b_.CreateSIToFP(v, dst) : b_.CreateUIToFP(v, dst);
    }
    if (f.kind == TypeKind::Float && t.kind == TypeKind::Int) {
      return t.isSigned ? b_.CreateFPToSI(v, dst) : b_.CreateFPToUI(v, dst);
    }
    return b_.CreateIntCast(v, dst, f.isSigned);
  }

  llvm::Value* constantOf(const ConstValue& c, TypeId to) {
    TypeId e = elementOf(to);
    llvm::Type* t = llvmType(e);
    double d = c.kind == ConstValue::Kind::Float ? c.floatValue
               : c.kind == ConstValue::Kind::Int ? static_cast<double>(c.intValue)
                                                 : (c.boolValue ? 1.0 : 0.0);
    if (types_.isFloat(e)) return llvm::ConstantFP::get(t, d);
    if (types_.isBool(e)) return b_.getInt1(d != 0);
    int64_t i = c.kind == ConstValue::Kind::Int ? c.intValue : static_cast<int64_t>(d);
    return llvm::ConstantInt::get(t, static_cast<uint64_t>(i), true);
  }

  // --- expressions --------------------------------------------------------

  TypeId typeOf(ExprId id) const { return inst_.exprTypes[id.index]; }

  const ConstValue* constOf(ExprId id) const {
    int32_t c = inst_.constIndex[id.index];
    return c >= 0 ? &inst_.constants[static_cast<size_t>(c)] : nullptr;
  }

  // `id`'s value spread over the layout of `to` and converted to `to`'s
  // element type (broadcasting through shared memory when the shapes differ).
  TileVal evalAs(ExprId id, TypeId to, bool mma = false) {
    if (types_.isTuple(to)) return evalTuple(id, to);
    if (const ConstValue* c = constOf(id)) {
      TileVal v;
      v.slots.assign(layoutFor(to, mma).slots, constantOf(*c, to));
      v.mma = mma;
      v.splat = true;
      return v;
    }
    TypeId from = typeOf(id);
    TileVal v = eval(id);
    return spread(v, from, to, mma);
  }

  // A scalar (or the one element of a uniform tile) of `id`, as `to`.
  llvm::Value* scalarAs(ExprId id, TypeId to) { return evalAs(id, elementOf(to)).slots[0]; }

  TileVal spread(const TileVal& v, TypeId from, TypeId to, bool toMma = false) {
    Layout lf = layoutFor(from, v.mma);
    Layout lt = layoutFor(to, toMma);
    TypeId fe = elementOf(from);
    TypeId te = elementOf(to);
    TileVal out;
    out.mma = toMma;
    if (v.splat) {
      out.splat = true;
      out.slots.assign(lt.slots, convert(v.slots[0], fe, te));
      return out;
    }
    // Shapes equal but for leading 1s ((n,) and (1, n)) share the layout.
    bool sameShape = types_.isTile(from) && types_.isTile(to) &&
                     stripOnes(types_.get(from).shape) == stripOnes(types_.get(to).shape) &&
                     lf.slots == lt.slots && lf.vec == lt.vec && lf.partial == lt.partial &&
                     lf.mma == lt.mma;
    if (lf.uniform || sameShape || !types_.isTile(to)) {
      for (unsigned s = 0; s < lt.slots; ++s) {
        out.slots.push_back(convert(v.slots[lf.uniform ? 0 : s], fe, te));
      }
      return out;
    }
    // Broadcast or another layout: through shared memory.
    llvm::Value* buffer = stage(v, from, lf);
    const std::vector<int64_t>& fs = types_.get(from).shape;
    const std::vector<int64_t>& ts = types_.get(to).shape;
    for (unsigned s = 0; s < lt.slots; ++s) {
      std::vector<llvm::Value*> mi = multiIndex(clampIndex(elementIndex(lt, s), lt), ts);
      llvm::Value* e = b_.getInt32(0);
      int64_t inner = 1;
      size_t off = ts.size() - fs.size();
      for (size_t d = fs.size(); d-- > 0;) {
        if (fs[d] != 1) e = b_.CreateAdd(e, b_.CreateMul(mi[d + off], b_.getInt32(static_cast<uint32_t>(inner))));
        inner *= fs[d];
      }
      llvm::Value* p = b_.CreateGEP(memoryType(fe), buffer, e);
      llvm::Value* x = b_.CreateLoad(memoryType(fe), p);
      if (types_.isBool(fe)) x = b_.CreateICmpNE(x, b_.getInt8(0));
      out.slots.push_back(convert(x, fe, te));
    }
    return out;
  }

  static std::vector<int64_t> stripOnes(const std::vector<int64_t>& shape) {
    size_t i = 0;
    while (i < shape.size() && shape[i] == 1) ++i;
    return std::vector<int64_t>(shape.begin() + static_cast<std::ptrdiff_t>(i), shape.end());
  }

  llvm::Value* clampIndex(llvm::Value* e, const Layout& l) {
    if (!l.partial) return e;
    return b_.CreateAnd(e, b_.getInt32(static_cast<uint32_t>(l.n - 1)));
  }

  // --- shared memory scratch ------------------------------------------------

  // The scratch buffer (at least `bytes`). Inside a pipelined loop the ring of
  // stages occupies its start, and scratch uses come after it.
  llvm::Value* scratch(uint64_t bytes) {
    uint64_t offset = residentBytes_ + (pipeStage_.empty() ? 0 : ringInUse_);
    scratchBytes_ = std::max(scratchBytes_, offset + bytes);
    if (scratch_ == nullptr) {
      auto* type = llvm::ArrayType::get(b_.getInt8Ty(), 1);
      scratch_ = new llvm::GlobalVariable(module_, type, false, llvm::GlobalValue::InternalLinkage,
                                          llvm::UndefValue::get(type), function_->getName() + ".placeholder",
                                          nullptr, llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
    }
    if (offset == 0) return scratch_;
    return b_.CreateGEP(b_.getInt8Ty(), scratch_, b_.getInt32(static_cast<uint32_t>(offset)));
  }

  void finishScratch() {
    if (scratch_ == nullptr) return;
    if (scratchBytes_ > kStaticShared && scratchBytes_ + 1024 <= maxShared_) {
      // Past 48 KiB: dynamic shared memory (the launch passes the bytes, docs/ABI.md),
      // its start rounded up to 1024 bytes in the entry block.
      auto* type = llvm::ArrayType::get(b_.getInt8Ty(), 0);
      auto* dynamic = new llvm::GlobalVariable(module_, type, false, llvm::GlobalValue::ExternalLinkage, nullptr,
                                               function_->getName() + "__tile_dynamic", nullptr,
                                               llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
      dynamic->setAlignment(llvm::Align(16));
      llvm::IRBuilder<> eb(&function_->getEntryBlock(), function_->getEntryBlock().begin());
      llvm::Value* address = eb.CreatePtrToInt(dynamic, eb.getInt32Ty());
      llvm::Value* pad = eb.CreateAnd(eb.CreateSub(eb.getInt32(1024), eb.CreateAnd(address, eb.getInt32(1023))),
                                      eb.getInt32(1023));
      llvm::Value* aligned = eb.CreateGEP(eb.getInt8Ty(), dynamic, pad, "tile_scratch");
      // Constant GEPs of the placeholder become instructions first.
      llvm::convertUsersOfConstantsToInstructions({scratch_});
      scratch_->replaceAllUsesWith(aligned);
      scratch_->eraseFromParent();
      dynamicShared_ = static_cast<uint32_t>(scratchBytes_ + 1024);
      return;
    }
    auto* type = llvm::ArrayType::get(b_.getInt8Ty(), scratchBytes_);
    auto* real = new llvm::GlobalVariable(module_, type, false, llvm::GlobalValue::InternalLinkage,
                                          llvm::UndefValue::get(type), function_->getName() + ".tile_scratch",
                                          nullptr, llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
    real->setAlignment(llvm::Align(1024));  // wgmma's swizzle patterns repeat every 1024 bytes
    scratch_->replaceAllUsesWith(real);
    scratch_->eraseFromParent();
  }

  void barrier() { b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_barrier0)); }

  // Where a CTA-wide reduction's warps leave their partial results. Outside
  // loops each reduction has a buffer of its own, written once per CTA: no
  // barrier is needed before the write, only the one after it (a reduction
  // costs one barrier, not two). Inside a loop the reduction runs again, so it
  // takes the scratch buffer with a barrier before the write (earlier readers).
  llvm::Value* warpPartials(unsigned warps, llvm::Type* mt) {
    uint64_t bytes = uint64_t(warps) * mt->getPrimitiveSizeInBits() / 8;
    if (loopDepth_ > 0) {
      llvm::Value* buffer = scratch(bytes);
      barrier();
      return buffer;
    }
    auto* type = llvm::ArrayType::get(mt, warps);
    auto* buffer = new llvm::GlobalVariable(module_, type, false, llvm::GlobalValue::InternalLinkage,
                                            llvm::UndefValue::get(type), function_->getName() + ".partials",
                                            nullptr, llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
    buffer->setAlignment(llvm::Align(16));
    return buffer;
  }

  // Writes every element of `v` (type `t`) to the scratch buffer in
  // row-major order; returns the buffer. Barriers before (earlier readers)
  // and after (the writes visible to all).
  llvm::Value* stage(const TileVal& v, TypeId t, const Layout& l) {
    TypeId e = elementOf(t);
    llvm::Value* buffer = scratch(static_cast<uint64_t>(l.n) * types_.byteSize(e));
    barrier();
    for (unsigned s = 0; s < l.slots; ++s) {
      llvm::Value* x = v.slots[s];
      if (types_.isBool(e)) x = b_.CreateZExt(x, b_.getInt8Ty());
      llvm::Value* p = b_.CreateGEP(memoryType(e), buffer, elementIndex(l, s));
      if (l.partial) {
        guarded(slotValid(l), [&] { b_.CreateStore(x, p); });
      } else {
        b_.CreateStore(x, p);
      }
    }
    barrier();
    return buffer;
  }

  template <class F>
  void guarded(llvm::Value* cond, F body) {
    auto* then = llvm::BasicBlock::Create(context_, "then", function_);
    auto* done = llvm::BasicBlock::Create(context_, "done", function_);
    b_.CreateCondBr(cond, then, done);
    b_.SetInsertPoint(then);
    body();
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  // `body()`'s value where `cond` holds, else `otherwise` (a value available
  // before the test), merged by a phi.
  template <class F>
  llvm::Value* guardedValue(llvm::Value* cond, llvm::Value* otherwise, const char* name, F body) {
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

  // --- expression lowering ------------------------------------------------

  TileVal eval(ExprId id) {
    const frontend::Expr& e = ast_.expr(id);
    TypeId t = typeOf(id);
    if (const ConstValue* c = constOf(id)) return TileVal{{constantOf(*c, t)}};
    switch (e.kind()) {
      case frontend::ExprKind::Name: {
        std::string name(ast_.str(e.as<ast::Name>().id));
        TileVal v;
        for (llvm::AllocaInst* a : storage(name, t)) v.slots.push_back(b_.CreateLoad(a->getAllocatedType(), a));
        v.mma = mmaVars_.count({name, t.index}) != 0;
        return v;
      }
      case frontend::ExprKind::BinOp: {
        const auto& bo = e.as<ast::BinOp>();
        if (bo.op == frontend::Operator::MatMult) return matmul(id, bo.left, bo.right);
        return binary(bo.op, bo.left, bo.right, inst_.opTypes[id.index], t, isMmaExpr(id));
      }
      case frontend::ExprKind::UnaryOp: {
        const auto& u = e.as<ast::UnaryOp>();
        TileVal v = evalAs(u.operand, t, isMmaExpr(id));
        for (llvm::Value*& x : v.slots) {
          if (u.op == frontend::UnaryOpKind::USub) {
            x = types_.isFloat(elementOf(t)) ? b_.CreateFNeg(x) : b_.CreateNeg(x);
          } else if (u.op == frontend::UnaryOpKind::Not) {
            x = b_.CreateNot(x);
          }
        }
        return v;
      }
      case frontend::ExprKind::Compare: {
        const auto& c = e.as<ast::Compare>();
        TypeId op = inst_.opTypes[id.index];
        TypeId opTile = types_.isTile(t) ? types_.tile(op, types_.get(t).shape) : op;
        bool m = isMmaExpr(id);
        TileVal l = evalAs(c.left, opTile, m);
        TileVal r = evalAs(ast_.list(c.comparators)[0], opTile, m);
        frontend::CmpOp cmp = ast_.list(c.ops)[0];
        bool isFloat = types_.isFloat(op);
        bool isSigned = types_.get(op).isSigned;
        TileVal out;
        out.mma = m;
        for (size_t s = 0; s < l.slots.size(); ++s) {
          llvm::CmpInst::Predicate p;
          switch (cmp) {
            case frontend::CmpOp::Eq: p = isFloat ? llvm::CmpInst::FCMP_OEQ : llvm::CmpInst::ICMP_EQ; break;
            case frontend::CmpOp::NotEq: p = isFloat ? llvm::CmpInst::FCMP_UNE : llvm::CmpInst::ICMP_NE; break;
            case frontend::CmpOp::Lt: p = isFloat ? llvm::CmpInst::FCMP_OLT : isSigned ? llvm::CmpInst::ICMP_SLT : llvm::CmpInst::ICMP_ULT; break;
            case frontend::CmpOp::LtE: p = isFloat ? llvm::CmpInst::FCMP_OLE : isSigned ? llvm::CmpInst::ICMP_SLE : llvm::CmpInst::ICMP_ULE; break;
            case frontend::CmpOp::Gt: p = isFloat ? llvm::CmpInst::FCMP_OGT : isSigned ? llvm::CmpInst::ICMP_SGT : llvm::CmpInst::ICMP_UGT; break;
            default: p = isFloat ? llvm::CmpInst::FCMP_OGE : isSigned ? llvm::CmpInst::ICMP_SGE : llvm::CmpInst::ICMP_UGE; break;
          }
          out.slots.push_back(isFloat ? b_.CreateFCmp(p, l.slots[s], r.slots[s]) : b_.CreateICmp(p, l.slots[s], r.slots[s]));
        }
        return out;
      }
      case frontend::ExprKind::Call: {
        if (inst_.callees[id.index] >= 0) return inlineHelper(id);
        Intrinsic kind = inst_.meanings[id.index].kind;
        if (kind == Intrinsic::Min || kind == Intrinsic::Max) return builtinMinMax(id, kind == Intrinsic::Max);
        return call(id, e.as<ast::Call>());
      }
      case frontend::ExprKind::IfExp:
        return ifExp(id, e.as<ast::IfExp>(), t);
      case frontend::ExprKind::BoolOp:
        return boolOp(e.as<ast::BoolOp>());
      case frontend::ExprKind::Subscript: {
        const auto& sub = e.as<ast::Subscript>();
        // t[:, None]: an axis of length 1 added.
        if (inst_.meanings[id.index].kind == Intrinsic::TileOp) {
          TypeId xt = types_.tile(elementOf(t), types_.get(typeOf(sub.value)).shape);
          return relayout(evalAs(sub.value, xt), xt, t, true, [](llvm::Value* x) { return x; });
        }
        // array.shape[d]
        ExprId arrayExpr = ast_.expr(sub.value).as<ast::Attribute>().value;
        const ArrayArgs& a = arrayArg(arrayExpr);
        int64_t d = constOf(sub.slice)->intValue;
        if (d < 0) d += static_cast<int64_t>(a.shape.size());
        return TileVal{{b_.CreateTrunc(a.shape[static_cast<size_t>(d)], b_.getInt32Ty())}};
      }
      default:
        break;
    }
    assert(false && "an expression the tile checker rejects");
    return TileVal{};
  }

  TileVal binary(frontend::Operator op, ExprId left, ExprId right, TypeId opType, TypeId result, bool mma) {
    TypeId opTile = types_.isTile(result) ? types_.tile(opType, types_.get(result).shape) : opType;
    if (op == frontend::Operator::Pow) return power(left, right, opType, opTile, mma);
    TileVal l = evalAs(left, opTile, mma);
    TileVal r = evalAs(right, opTile, mma);
    TileVal out;
    out.mma = mma;
    for (size_t s = 0; s < l.slots.size(); ++s) out.slots.push_back(arith(op, l.slots[s], r.slots[s], opType));
    return out;
  }

  // `x ** k`: square-and-multiply for a constant k in 0..16 (the checker's rule),
  // else libdevice's pow (float16 through float32).
  TileVal power(ExprId left, ExprId right, TypeId opType, TypeId opTile, bool mma) {
    TileVal x = evalAs(left, opTile, mma);
    x.splat = false;
    const ConstValue* k = constOf(right);
    bool isFloat = types_.isFloat(opType);
    if (k != nullptr && k->kind == ConstValue::Kind::Int && k->intValue >= 0 && k->intValue <= 16) {
      for (llvm::Value*& v : x.slots) {
        llvm::Value* result = constantOf(ConstValue::ofInt(1), opType);
        llvm::Value* base = v;
        for (int64_t e = k->intValue; e > 0; e >>= 1) {
          if (e & 1) result = isFloat ? b_.CreateFMul(result, base) : b_.CreateMul(result, base);
          if (e > 1) base = isFloat ? b_.CreateFMul(base, base) : b_.CreateMul(base, base);
        }
        v = result;
      }
      return x;
    }
    TileVal y = evalAs(right, opTile, mma);
    const Type& t = types_.get(opType);
    bool single = t.bits <= 32;
    llvm::Type* ct = single ? b_.getFloatTy() : b_.getDoubleTy();
    llvm::FunctionCallee pow = module_.getOrInsertFunction(single ? "__nv_powf" : "__nv_pow",
                                                           llvm::FunctionType::get(ct, {ct, ct}, false));
    for (size_t s = 0; s < x.slots.size(); ++s) {
      llvm::Value* a = t.bits == 16 ? b_.CreateFPExt(x.slots[s], ct) : x.slots[s];
      llvm::Value* c = t.bits == 16 ? b_.CreateFPExt(y.slots[s], ct) : y.slots[s];
      llvm::Value* r = b_.CreateCall(pow, {a, c});
      x.slots[s] = t.bits == 16 ? b_.CreateFPTrunc(r, llvmType(opType)) : r;
    }
    return x;
  }

  llvm::Value* arith(frontend::Operator op, llvm::Value* a, llvm::Value* c, TypeId t) {
    using frontend::Operator;
    const Type& ty = types_.get(t);
    bool isFloat = ty.kind == TypeKind::Float;
    switch (op) {
      case Operator::Add: return isFloat ? b_.CreateFAdd(a, c) : b_.CreateAdd(a, c);
      case Operator::Sub: return isFloat ? b_.CreateFSub(a, c) : b_.CreateSub(a, c);
      case Operator::Mult: return isFloat ? b_.CreateFMul(a, c) : b_.CreateMul(a, c);
      case Operator::Div: return b_.CreateFDiv(a, c);
      case Operator::BitAnd: return b_.CreateAnd(a, c);
      case Operator::BitOr: return b_.CreateOr(a, c);
      case Operator::BitXor: return b_.CreateXor(a, c);
      case Operator::FloorDiv:
      case Operator::Mod: {
        if (isFloat) {
          llvm::Value* q = b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, b_.CreateFDiv(a, c));
          return op == Operator::FloorDiv ? q : b_.CreateFSub(a, b_.CreateFMul(q, c));
        }
        if (!ty.isSigned) return op == Operator::FloorDiv ? b_.CreateUDiv(a, c) : b_.CreateURem(a, c);
        // Python's floor semantics for negative operands.
        llvm::Value* q = b_.CreateSDiv(a, c);
        llvm::Value* rem = b_.CreateSRem(a, c);
        llvm::Value* zero = llvm::ConstantInt::get(a->getType(), 0);
        llvm::Value* adjust = b_.CreateAnd(b_.CreateICmpNE(rem, zero),
                                           b_.CreateICmpNE(b_.CreateICmpSLT(rem, zero), b_.CreateICmpSLT(c, zero)));
        if (op == Operator::FloorDiv) return b_.CreateSub(q, b_.CreateZExt(adjust, a->getType()));
        return b_.CreateSelect(adjust, b_.CreateAdd(rem, c), rem);
      }
      default:
        break;
    }
    assert(false && "an operator the tile checker rejects");
    return a;
  }

  ExprId arg(ExprId call, size_t i) const {
    auto it = inst_.callArguments.find(call.index);
    assert(it != inst_.callArguments.end() && "tile calls have bound arguments");
    return i < it->second.size() ? it->second[i] : ExprId();
  }

  int64_t constIntArg(ExprId call, size_t i, int64_t fallback) const {
    ExprId a = arg(call, i);
    if (!a.valid()) return fallback;
    const ConstValue* c = constOf(a);
    if (c == nullptr) return fallback;
    return c->kind == ConstValue::Kind::Int ? c->intValue : c->boolValue ? 1 : 0;
  }

  const ArrayArgs& arrayArg(ExprId e) const {
    std::string name(ast_.str(ast_.expr(e).as<ast::Name>().id));
    return arrays_.at(name);
  }

  // The index expressions of an `index=` argument.
  std::vector<ExprId> indexItems(ExprId id) const {
    std::vector<ExprId> items;
    if (const auto* t = ast_.expr(id).dyn<ast::Tuple>()) {
      for (ExprId e : ast_.list(t->elts)) items.push_back(e);
    } else {
      items.push_back(id);
    }
    return items;
  }

  TileVal call(ExprId id, const ast::Call& c) {
    TypeId t = typeOf(id);
    auto fn = static_cast<TileFn>(inst_.meanings[id.index].payload);
    if (isTileAtomic(fn)) return atomic(id, fn);
    switch (fn) {
      case TileFn::Bid: {
        llvm::Intrinsic::ID ids[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                     llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                     llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
        return TileVal{{b_.CreateCall(intrinsic(ids[constIntArg(id, 0, 0)]))}};
      }
      case TileFn::NumBlocks: {
        llvm::Intrinsic::ID ids[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                                     llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                                     llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z};
        return TileVal{{b_.CreateCall(intrinsic(ids[constIntArg(id, 0, 0)]))}};
      }
      case TileFn::NumTiles: {
        const ArrayArgs& a = arrayArg(arg(id, 0));
        int64_t axis = constIntArg(id, 1, 0);
        if (axis < 0) axis += static_cast<int64_t>(a.shape.size());
        const ConstValue* shape = constOf(arg(id, 2));
        int64_t tile = shape->kind == ConstValue::Kind::Int ? shape->intValue
                                                            : shape->elements[static_cast<size_t>(axis)].intValue;
        llvm::Value* n = a.shape[static_cast<size_t>(axis)];
        llvm::Value* q = b_.CreateSDiv(b_.CreateAdd(n, b_.getInt64(tile - 1)), b_.getInt64(tile));
        return TileVal{{b_.CreateTrunc(q, b_.getInt32Ty())}};
      }
      case TileFn::Cdiv: {
        TypeId op = inst_.opTypes[id.index];
        llvm::Value* x = scalarAs(arg(id, 0), op);
        llvm::Value* y = scalarAs(arg(id, 1), op);
        llvm::Value* sum = b_.CreateSub(b_.CreateAdd(x, y), llvm::ConstantInt::get(x->getType(), 1));
        return TileVal{{arith(frontend::Operator::FloorDiv, sum, y, op)}};
      }
      case TileFn::Load:
        return load(id, t);
      case TileFn::Store:
        store(id);
        return TileVal{};
      case TileFn::Gather:
        return gatherScatter(id, true);
      case TileFn::Scatter:
        gatherScatter(id, false);
        return TileVal{};
      case TileFn::Full:
      case TileFn::Zeros:
      case TileFn::Ones: {
        Layout l = layoutOf(t);
        llvm::Value* v;
        if (fn == TileFn::Full) {
          v = scalarAs(arg(id, 1), elementOf(t));
        } else {
          v = constantOf(ConstValue::ofInt(fn == TileFn::Ones ? 1 : 0), t);
        }
        TileVal out;
        out.slots.assign(l.slots, v);
        out.splat = true;
        return out;
      }
      case TileFn::Arange: {
        Layout l = layoutOf(t);
        TileVal out;
        for (unsigned s = 0; s < l.slots; ++s) {
          out.slots.push_back(convert(elementIndex(l, s), types_.int32(), elementOf(t)));
        }
        return out;
      }
      case TileFn::Astype:
        return evalAs(arg(id, 0), t, isMmaExpr(id));
      case TileFn::Mma:
        return mmaCall(id);
      case TileFn::Matmul:
        return matmul(id, arg(id, 0), arg(id, 1));
      case TileFn::Sum:
      case TileFn::Max:
      case TileFn::Min:
        return reduce(id, fn, t);
      case TileFn::Argmax:
      case TileFn::Argmin:
        return argReduce(id, fn, t);
      case TileFn::Reshape:
      case TileFn::ExpandDims:
      case TileFn::Permute:
      case TileFn::Transpose:
        return shapeOp(id, fn, t);
      case TileFn::BroadcastTo:
        return evalAs(arg(id, 0), t);
      case TileFn::Truediv:
        return truediv(id, t);
      case TileFn::Where: {
        TypeId cond = types_.isTile(t) ? types_.tile(types_.boolean(), types_.get(t).shape) : types_.boolean();
        bool m = isMmaExpr(id);
        TileVal cv = evalAs(arg(id, 0), cond, m);
        TileVal x = evalAs(arg(id, 1), t, m);
        TileVal y = evalAs(arg(id, 2), t, m);
        x.splat = false;
        for (size_t s = 0; s < x.slots.size(); ++s) x.slots[s] = b_.CreateSelect(cv.slots[s], x.slots[s], y.slots[s]);
        return x;
      }
      case TileFn::Maximum:
      case TileFn::Minimum: {
        bool m = isMmaExpr(id);
        TileVal x = evalAs(arg(id, 0), t, m);
        TileVal y = evalAs(arg(id, 1), t, m);
        x.splat = x.splat && y.splat;
        for (size_t s = 0; s < x.slots.size(); ++s) x.slots[s] = combine(fn == TileFn::Maximum ? TileFn::Max : TileFn::Min, x.slots[s], y.slots[s], elementOf(t));
        return x;
      }
      default:
        return unaryMath(id, fn, t);
    }
  }

  // The `rounding_mode=` argument at `position` of call `id` (the checker
  // allows a RoundingMode member or None); RN when absent or None.
  TileFn roundingMode(ExprId id, size_t position) {
    ExprId r = arg(id, position);
    if (!r.valid() || inst_.meanings[r.index].kind != Intrinsic::TileOp) return TileFn::RoundRn;
    return static_cast<TileFn>(inst_.meanings[r.index].payload);
  }

  // `ct.truediv(x, y, rounding_mode=, flush_to_zero=)` (the checker allows
  // the modes per dtype): `/` for none or RN without flush, else PTX's div
  // with that rounding (div.full, div.approx; .ftz for float32 when asked).
  TileVal truediv(ExprId id, TypeId t) {
    TypeId op = inst_.opTypes[id.index];
    bool m = isMmaExpr(id);
    TypeId opTile = types_.isTile(t) ? types_.tile(op, types_.get(t).shape) : op;
    TileVal x = evalAs(arg(id, 0), opTile, m);
    TileVal y = evalAs(arg(id, 1), opTile, m);
    TileFn mode = roundingMode(id, 2);
    bool f32 = op == types_.float32();
    bool ftz = f32 && constIntArg(id, 3, 0) != 0;
    x.splat = x.splat && y.splat;
    auto divide = [&](llvm::Value* a, llvm::Value* c) -> llvm::Value* {
      using llvm::Intrinsic::ID;
      ID which = llvm::Intrinsic::not_intrinsic;
      switch (mode) {
        case TileFn::RoundRz: which = f32 ? (ftz ? llvm::Intrinsic::nvvm_div_rz_ftz_f : llvm::Intrinsic::nvvm_div_rz_f) : llvm::Intrinsic::nvvm_div_rz_d; break;
        case TileFn::RoundRm: which = f32 ? (ftz ? llvm::Intrinsic::nvvm_div_rm_ftz_f : llvm::Intrinsic::nvvm_div_rm_f) : llvm::Intrinsic::nvvm_div_rm_d; break;
        case TileFn::RoundRp: which = f32 ? (ftz ? llvm::Intrinsic::nvvm_div_rp_ftz_f : llvm::Intrinsic::nvvm_div_rp_f) : llvm::Intrinsic::nvvm_div_rp_d; break;
        case TileFn::RoundApprox: which = ftz ? llvm::Intrinsic::nvvm_div_approx_ftz_f : llvm::Intrinsic::nvvm_div_approx_f; break;
        case TileFn::RoundFull: {
          // div.full.f32 (no LLVM intrinsic in LLVM 19).
          auto* ft = llvm::FunctionType::get(b_.getFloatTy(), {b_.getFloatTy(), b_.getFloatTy()}, false);
          std::string text = std::string("div.full") + (ftz ? ".ftz" : "") + ".f32 $0, $1, $2;";
          return b_.CreateCall(llvm::InlineAsm::get(ft, text, "=f,f,f", false), {a, c});
        }
        default:
          if (ftz) which = llvm::Intrinsic::nvvm_div_rn_ftz_f;
          break;
      }
      if (which == llvm::Intrinsic::not_intrinsic) return arith(frontend::Operator::Div, a, c, op);
      return b_.CreateCall(intrinsic(which), {a, c});
    };
    for (size_t s = 0; s < x.slots.size(); ++s) x.slots[s] = divide(x.slots[s], y.slots[s]);
    if (op != elementOf(t)) {
      for (llvm::Value*& v : x.slots) v = convert(v, op, elementOf(t));
    }
    return x;
  }

  TileVal unaryMath(ExprId id, TileFn fn, TypeId t) {
    TypeId e = elementOf(t);
    TileVal x = evalAs(arg(id, 0), t, isMmaExpr(id));
    const Type& et = types_.get(e);
    if (fn == TileFn::Abs) {
      for (llvm::Value*& v : x.slots) {
        if (et.kind == TypeKind::Float) {
          v = b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v);
        } else if (et.isSigned) {
          v = b_.CreateSelect(b_.CreateICmpSLT(v, llvm::ConstantInt::get(v->getType(), 0)), b_.CreateNeg(v), v);
        }
      }
      return x;
    }
    if ((fn == TileFn::Exp2 || fn == TileFn::Rsqrt) && et.bits <= 32 && constIntArg(id, 1, 0) != 0) {
      // flush_to_zero=True: PTX's ex2.approx.ftz.f32 / rsqrt.approx.ftz.f32
      // (float16 through float32).
      llvm::Function* f = intrinsic(fn == TileFn::Exp2 ? llvm::Intrinsic::nvvm_ex2_approx_ftz_f
                                                       : llvm::Intrinsic::nvvm_rsqrt_approx_ftz_f);
      for (llvm::Value*& v : x.slots) {
        llvm::Value* a = et.bits == 16 ? b_.CreateFPExt(v, b_.getFloatTy()) : v;
        llvm::Value* r = b_.CreateCall(f, {a});
        v = et.bits == 16 ? b_.CreateFPTrunc(r, llvmType(e)) : r;
      }
      return x;
    }
    if (fn == TileFn::Exp && roundingMode(id, 1) == TileFn::RoundApprox) {
      // rounding_mode=APPROX (float32, the checker's rule): 2^(x * log2 e) with
      // PTX's ex2.approx.f32, as CUDA's __expf (without its flush to zero).
      llvm::Function* ex2 = intrinsic(llvm::Intrinsic::nvvm_ex2_approx_f);
      llvm::Value* log2e = llvm::ConstantFP::get(b_.getFloatTy(), 1.4426950408889634);
      for (llvm::Value*& v : x.slots) v = b_.CreateCall(ex2, {b_.CreateFMul(v, log2e)});
      return x;
    }
    std::string base;
    switch (fn) {
      case TileFn::Exp: base = "exp"; break;
      case TileFn::Exp2: base = "exp2"; break;
      case TileFn::Log: base = "log"; break;
      case TileFn::Log2: base = "log2"; break;
      case TileFn::Sqrt: base = "sqrt"; break;
      case TileFn::Rsqrt: base = "rsqrt"; break;
      case TileFn::Tanh: base = "tanh"; break;
      case TileFn::Sin: base = "sin"; break;
      default: base = "cos"; break;
    }
    // float16 computes in float32 (as CUDA's half math functions do).
    bool half = et.bits == 16;
    bool single = et.bits <= 32;
    llvm::Type* ct = single ? b_.getFloatTy() : b_.getDoubleTy();
    std::string name = "__nv_" + base + (single ? "f" : "");
    llvm::FunctionCallee f = module_.getOrInsertFunction(name, llvm::FunctionType::get(ct, {ct}, false));
    for (llvm::Value*& v : x.slots) {
      llvm::Value* a = half ? b_.CreateFPExt(v, ct) : v;
      llvm::Value* r = b_.CreateCall(f, {a});
      v = half ? b_.CreateFPTrunc(r, llvmType(e)) : r;
    }
    return x;
  }

  // --- loads and stores ---------------------------------------------------

  struct Addressing {
    std::vector<llvm::Value*> tileIndex;  // i64 per dimension
    std::vector<int64_t> shape;
  };

  Addressing addressing(ExprId call, TypeId tileType) {
    Addressing a;
    for (ExprId e : indexItems(arg(call, 1))) a.tileIndex.push_back(scalarAs(e, types_.int64()));
    a.shape = types_.get(tileType).shape;
    return a;
  }

  // Whether the whole tile lies inside the array (uniform across the CTA).
  llvm::Value* tileInside(const ArrayArgs& arr, const Addressing& a) {
    llvm::Value* inside = b_.getTrue();
    for (size_t d = 0; d < a.shape.size(); ++d) {
      llvm::Value* end = b_.CreateMul(b_.CreateAdd(a.tileIndex[d], b_.getInt64(1)), b_.getInt64(a.shape[d]));
      inside = b_.CreateAnd(inside, b_.CreateAnd(b_.CreateICmpSGE(a.tileIndex[d], b_.getInt64(0)),
                                                  b_.CreateICmpSLE(end, arr.shape[d])));
    }
    return inside;
  }

  // The element offset of slot `s` and whether it lies inside the array.
  std::pair<llvm::Value*, llvm::Value*> slotAddress(const ArrayArgs& arr, const Addressing& a,
                                                     const Layout& l, unsigned s) {
    if (vectorPath_ && !l.uniform && !l.partial && !l.mma && a.shape.back() % (int64_t(threads_) * l.vec) == 0) {
      return rowSlotAddress(arr, a, l, s);
    }
    std::vector<llvm::Value*> mi = multiIndex(clampIndex(elementIndex(l, s), l), a.shape);
    llvm::Value* offset = b_.getInt64(0);
    llvm::Value* inside = slotValid(l);
    for (size_t d = 0; d < a.shape.size(); ++d) {
      llvm::Value* g = b_.CreateAdd(b_.CreateMul(a.tileIndex[d], b_.getInt64(a.shape[d])),
                                    b_.CreateZExt(mi[d], b_.getInt64Ty()));
      inside = b_.CreateAnd(inside, b_.CreateICmpULT(g, arr.shape[d]));
      offset = b_.CreateAdd(offset, b_.CreateMul(g, arr.strides[d]));
    }
    return {offset, inside};
  }

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
                                                        const Layout& l, unsigned s) {
    int64_t element = int64_t(s / l.vec) * threads_ * l.vec + s % l.vec;
    size_t last = a.shape.size() - 1;
    llvm::Value* offset = b_.getInt64(0);
    llvm::Value* inside = b_.getTrue();
    int64_t inner = 1;
    for (size_t d = a.shape.size(); d-- > 0;) {
      int64_t k = (element / inner) & (a.shape[d] - 1);
      inner *= a.shape[d];
      // The tile's first element along d plus k: uniform.
      llvm::Value* g = b_.CreateAdd(b_.CreateMul(a.tileIndex[d], b_.getInt64(a.shape[d])), b_.getInt64(k));
      if (d != last) {
        inside = b_.CreateAnd(inside, b_.CreateICmpULT(g, arr.shape[d]));
      } else {
        // g + t*vec < shape, with g + t*vec < 0 exactly when g < 0 (t*vec < the
        // tile's length).
        llvm::Value* tv = b_.CreateZExt(b_.CreateMul(tid_, b_.getInt32(l.vec)), b_.getInt64Ty());
        inside = b_.CreateAnd(inside, b_.CreateAnd(b_.CreateICmpSGE(g, b_.getInt64(0)),
                                                   b_.CreateICmpSLT(tv, b_.CreateSub(arr.shape[d], g))));
        offset = b_.CreateAdd(offset, b_.CreateMul(tv, arr.strides[d]));
      }
      offset = b_.CreateAdd(offset, b_.CreateMul(g, arr.strides[d]));
    }
    return {offset, inside};
  }

  llvm::Value* paddingValue(ExprId call, TypeId e) {
    ExprId p = arg(call, 4);
    TileFn mode = TileFn::PadZero;
    if (p.valid()) mode = static_cast<TileFn>(inst_.meanings[p.index].payload);
    llvm::Type* t = llvmType(e);
    const Type& et = types_.get(e);
    if (et.kind == TypeKind::Float) {
      switch (mode) {
        case TileFn::PadNegZero: return llvm::ConstantFP::getNegativeZero(t);
        case TileFn::PadNan: return llvm::ConstantFP::getNaN(t);
        case TileFn::PadPosInf: return llvm::ConstantFP::getInfinity(t, false);
        case TileFn::PadNegInf: return llvm::ConstantFP::getInfinity(t, true);
        default: return llvm::ConstantFP::get(t, 0.0);
      }
    }
    if (et.kind == TypeKind::Int && mode == TileFn::PadPosInf) {
      return llvm::ConstantInt::get(t, et.isSigned ? llvm::APInt::getSignedMaxValue(et.bits) : llvm::APInt::getMaxValue(et.bits));
    }
    if (et.kind == TypeKind::Int && mode == TileFn::PadNegInf) {
      return llvm::ConstantInt::get(t, et.isSigned ? llvm::APInt::getSignedMinValue(et.bits) : llvm::APInt(et.bits, 0));
    }
    return llvm::Constant::getNullValue(t);
  }

  // Whether a tile inside the array can move `vec` elements per instruction: the
  // last axis contiguous, the other strides multiples of `vec`, and the data pointer
  // aligned to the vector's size (uniform across the CTA).
  llvm::Value* vectorizable(const ArrayArgs& arr, const Layout& l, unsigned size) {
    llvm::Value* ok = b_.CreateICmpEQ(arr.strides.back(), b_.getInt64(1));
    for (size_t d = 0; d + 1 < arr.strides.size(); ++d) {
      ok = b_.CreateAnd(ok, b_.CreateICmpEQ(b_.CreateAnd(arr.strides[d], b_.getInt64(l.vec - 1)),
                                            b_.getInt64(0)));
    }
    llvm::Value* address = b_.CreatePtrToInt(arr.data, b_.getInt64Ty());
    llvm::Value* misaligned = b_.CreateAnd(address, b_.getInt64(uint64_t(l.vec) * size - 1));
    return b_.CreateAnd(ok, b_.CreateICmpEQ(misaligned, b_.getInt64(0)));
  }

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
                                        TypeId e, Emit emit) {
    bool vectors = hasVectors(l, e);
    auto* join = llvm::BasicBlock::Create(context_, "tile.done", function_);
    auto* fast = llvm::BasicBlock::Create(context_, vectors ? "tile.vector" : "tile.inside", function_);
    auto* edge = llvm::BasicBlock::Create(context_, "tile.edge", function_);
    llvm::Value* test = vectors ? vectorizable(arr, l, types_.byteSize(e))
                                : b_.CreateAnd(tileInside(arr, a), b_.getInt1(!l.partial));
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

  // The offset of the chunk starting at slot `s` and whether all its `vec`
  // elements lie inside the array (a chunk never crosses the last axis).
  std::pair<llvm::Value*, llvm::Value*> chunkAddress(const ArrayArgs& arr, const Addressing& a,
                                                      const Layout& l, unsigned s) {
    auto [offset, first] = slotAddress(arr, a, l, s);
    llvm::Value* last = slotAddress(arr, a, l, s + l.vec - 1).second;
    return {offset, b_.CreateAnd(first, last)};
  }

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
    std::vector<llvm::Value*> some = perChunkChecked(arr, a, l, whole, elements);
    versions.push_back({b_.GetInsertBlock(), std::move(some)});
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
  std::vector<llvm::Value*> perChunkChecked(const ArrayArgs& arr, const Addressing& a, const Layout& l,
                                            Whole whole, Elements elements) {
    std::vector<llvm::Value*> out;
    for (unsigned s = 0; s < l.slots; s += l.vec) {
      auto [offset, inside] = chunkAddress(arr, a, l, s);
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

  // `order=` of a load or store (the checker recorded the axes as a tuple):
  // view axis d is array axis order[d]; empty when absent or the identity.
  std::vector<size_t> accessOrder(ExprId call) const {
    ExprId o = arg(call, 3);
    if (!o.valid()) return {};
    const ConstValue* axes = constOf(o);
    std::vector<size_t> order;
    bool identity = true;
    for (size_t d = 0; d < axes->elements.size(); ++d) {
      order.push_back(static_cast<size_t>(axes->elements[d].intValue));
      identity = identity && order.back() == d;
    }
    if (identity) order.clear();
    return order;
  }

  // The tile of a permuted access in the array's own axis order: its type
  // and addressing (array axis order[d] takes view axis d's extent and index).
  std::pair<TypeId, Addressing> arrayOrder(const Addressing& view, TypeId e, const std::vector<size_t>& order) {
    Addressing a;
    a.shape.assign(view.shape.size(), 1);
    a.tileIndex.assign(view.shape.size(), nullptr);
    for (size_t d = 0; d < order.size(); ++d) {
      a.shape[order[d]] = view.shape[d];
      a.tileIndex[order[d]] = view.tileIndex[d];
    }
    return {types_.tile(e, a.shape), a};
  }

  // Element e (linear) of a tile of shape `to` whose axis d is axis perm[d] of
  // a tile of shape `from`: its linear index in `from`.
  llvm::Value* permutedSource(llvm::Value* e, const std::vector<int64_t>& from, const std::vector<int64_t>& to,
                              const std::vector<size_t>& perm) {
    std::vector<int64_t> stride(from.size());
    int64_t inner = 1;
    for (size_t d = from.size(); d-- > 0;) {
      stride[d] = inner;
      inner *= from[d];
    }
    std::vector<llvm::Value*> oi = multiIndex(e, to);
    llvm::Value* src = b_.getInt32(0);
    for (size_t d = 0; d < to.size(); ++d) {
      if (to[d] == 1) continue;
      src = b_.CreateAdd(src, b_.CreateMul(oi[d], b_.getInt32(static_cast<uint32_t>(stride[perm[d]]))));
    }
    return src;
  }

  TileVal load(ExprId id, TypeId t) {
    std::vector<size_t> order = accessOrder(id);
    if (!order.empty()) {
      // `order=`: loaded in the array's axis order (whole chunks of its
      // contiguous axis), then permuted through shared memory.
      auto [at, a] = arrayOrder(addressing(id, t), elementOf(t), order);
      TileVal v = loadTile(id, at, a);
      const std::vector<int64_t>& from = types_.get(at).shape;
      const std::vector<int64_t>& to = types_.get(t).shape;
      return relayout(v, at, t, false, [&](llvm::Value* e) { return permutedSource(e, from, to, order); });
    }
    return loadTile(id, t, addressing(id, t));
  }

  TileVal loadTile(ExprId id, TypeId t, const Addressing& a) {
    const ArrayArgs& arr = arrayArg(arg(id, 0));
    TypeId e = elementOf(t);
    Layout l = layoutOf(t);
    llvm::Type* mt = memoryType(e);
    llvm::Value* pad = paddingValue(id, e);
    bool vectors = hasVectors(l, e);
    auto emit = [&](Path path) {
      if (path == Path::Vector) {
        auto* vt = llvm::FixedVectorType::get(mt, l.vec);
        return perChunk(
            arr, a, l,
            [&](unsigned, llvm::Value* offset) -> llvm::Value* {
              return b_.CreateAlignedLoad(vt, b_.CreateGEP(mt, arr.data, offset),
                                          llvm::Align(uint64_t(l.vec) * types_.byteSize(e)));
            },
            [&](unsigned s) { return pack(loadElements(arr, a, l, e, pad, s, l.vec), l.vec)[0]; },
            [&](unsigned) { return pack(std::vector<llvm::Value*>(l.vec, pad), l.vec)[0]; });
      }
      std::vector<llvm::Value*> vals =
          loadElements(arr, a, l, e, path == Path::Edge ? pad : nullptr, 0, l.slots);
      return vectors ? pack(vals, l.vec) : vals;
    };
    std::vector<llvm::Value*> merged = accessPaths(arr, a, l, e, emit);
    return TileVal{vectors ? unpack(merged) : merged};
  }

  // Vectors of `vec` consecutive values, and back.
  std::vector<llvm::Value*> pack(const std::vector<llvm::Value*>& vals, unsigned vec) {
    std::vector<llvm::Value*> out;
    auto* vt = llvm::FixedVectorType::get(vals[0]->getType(), vec);
    for (size_t s = 0; s < vals.size(); s += vec) {
      llvm::Value* v = llvm::PoisonValue::get(vt);
      for (unsigned k = 0; k < vec; ++k) v = b_.CreateInsertElement(v, vals[s + k], k);
      out.push_back(v);
    }
    return out;
  }

  std::vector<llvm::Value*> unpack(const std::vector<llvm::Value*>& vectors) {
    std::vector<llvm::Value*> out;
    for (llvm::Value* v : vectors) {
      auto* vt = llvm::cast<llvm::FixedVectorType>(v->getType());
      for (unsigned k = 0; k < vt->getNumElements(); ++k) out.push_back(b_.CreateExtractElement(v, k));
    }
    return out;
  }

  // One load per slot of `first`..`first + count - 1`: unchecked (`pad` null: the
  // tile lies inside), or each element checked against the array's shape, `pad`
  // where it lies outside.
  std::vector<llvm::Value*> loadElements(const ArrayArgs& arr, const Addressing& a, const Layout& l,
                                         TypeId e, llvm::Value* pad, unsigned first, unsigned count) {
    llvm::Type* mt = memoryType(e);
    auto loaded = [&](llvm::Value* x) {
      return types_.isBool(e) ? b_.CreateICmpNE(x, b_.getInt8(0)) : x;
    };
    std::vector<llvm::Value*> vals;
    for (unsigned s = first; s < first + count; ++s) {
      auto [offset, inside] = slotAddress(arr, a, l, s);
      if (pad == nullptr) {
        vals.push_back(loaded(b_.CreateLoad(mt, b_.CreateGEP(mt, arr.data, offset))));
        continue;
      }
      vals.push_back(guardedValue(inside, pad, "load", [&, offset = offset] {
        return loaded(b_.CreateLoad(mt, b_.CreateGEP(mt, arr.data, offset)));
      }));
    }
    return vals;
  }

  void store(ExprId id) {
    const ArrayArgs& arr = arrayArg(arg(id, 0));
    TypeId arrayType = typeOf(arg(id, 0));
    TypeId e = elementOf(arrayType);
    TypeId tileType = types_.tile(e, types_.get(typeOf(arg(id, 2))).shape);
    bool m = isMmaExpr(arg(id, 2));
    TileVal v = evalAs(arg(id, 2), tileType, m);
    Addressing a = addressing(id, tileType);
    if (std::vector<size_t> order = accessOrder(id); !order.empty()) {
      // `order=`: permuted into the array's axis order through shared memory.
      auto [at, aa] = arrayOrder(a, e, order);
      std::vector<size_t> inverse(order.size());
      for (size_t d = 0; d < order.size(); ++d) inverse[order[d]] = d;
      const std::vector<int64_t>& from = types_.get(tileType).shape;
      const std::vector<int64_t>& to = types_.get(at).shape;
      v = relayout(v, tileType, at, false, [&](llvm::Value* x) { return permutedSource(x, from, to, inverse); });
      tileType = at;
      a = aa;
      m = false;
    }
    Layout l = layoutFor(tileType, m);
    llvm::Type* mt = memoryType(e);
    auto value = [&](unsigned s) {
      llvm::Value* x = v.slots[s];
      return types_.isBool(e) ? b_.CreateZExt(x, b_.getInt8Ty()) : x;
    };
    if (l.uniform) {
      // One element: thread 0 writes it.
      auto [offset, inside] = slotAddress(arr, a, l, 0);
      guarded(b_.CreateAnd(inside, b_.CreateICmpEQ(tid_, b_.getInt32(0))),
              [&] { b_.CreateStore(value(0), b_.CreateGEP(mt, arr.data, offset)); });
      return;
    }
    // Slots `first`..`first + count - 1`, each checked unless `checked` is false.
    auto elements = [&](unsigned first, unsigned count, bool checked) {
      for (unsigned s = first; s < first + count; ++s) {
        auto [offset, inside] = slotAddress(arr, a, l, s);
        if (!checked) {
          b_.CreateStore(value(s), b_.CreateGEP(mt, arr.data, offset));
        } else {
          guarded(inside, [&] { b_.CreateStore(value(s), b_.CreateGEP(mt, arr.data, offset)); });
        }
      }
    };
    auto emit = [&](Path path) {
      if (path == Path::Vector) {
        auto* vt = llvm::FixedVectorType::get(mt, l.vec);
        perChunk(
            arr, a, l,
            [&](unsigned s, llvm::Value* offset) -> llvm::Value* {
              llvm::Value* vec = llvm::PoisonValue::get(vt);
              for (unsigned k = 0; k < l.vec; ++k) vec = b_.CreateInsertElement(vec, value(s + k), k);
              b_.CreateAlignedStore(vec, b_.CreateGEP(mt, arr.data, offset),
                                    llvm::Align(uint64_t(l.vec) * types_.byteSize(e)));
              return nullptr;
            },
            [&](unsigned s) -> llvm::Value* {
              elements(s, l.vec, true);
              return nullptr;
            },
            [&](unsigned) -> llvm::Value* { return nullptr; });
      } else {
        elements(0, l.slots, path == Path::Edge);
      }
      return std::vector<llvm::Value*>{};
    };
    accessPaths(arr, a, l, e, emit);
  }

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
  std::vector<TileVal> indexOperands(ExprId id, TypeId shaped) {
    TypeId indexType = types_.isTile(shaped) ? types_.tile(types_.int64(), types_.get(shaped).shape) : types_.int64();
    std::vector<TileVal> index;
    for (ExprId item : indexItems(arg(id, 1))) index.push_back(evalAs(item, indexType));
    return index;
  }

  // Slot `s`'s element offset in `arr` (the sum of index * stride, 64-bit)
  // and whether it is there to access: the slot holds an element (only
  // thread 0 when `firstThread`: one element for the whole CTA) and, with
  // `check`, 0 <= index < extent on every axis.
  std::pair<llvm::Value*, llvm::Value*> indexedAddress(const ArrayArgs& arr, const std::vector<TileVal>& index,
                                                       unsigned s, bool check, const Layout& l, bool firstThread) {
    llvm::Value* offset = b_.getInt64(0);
    llvm::Value* ok = firstThread ? b_.CreateICmpEQ(tid_, b_.getInt32(0)) : slotValid(l);
    for (size_t d = 0; d < index.size(); ++d) {
      llvm::Value* g = index[d].slots[s];
      if (check) ok = b_.CreateAnd(ok, b_.CreateICmpULT(g, arr.shape[d]));
      offset = b_.CreateAdd(offset, b_.CreateMul(g, arr.strides[d]));
    }
    return {offset, ok};
  }

  TileVal gatherScatter(ExprId id, bool gather) {
    const ArrayArgs& arr = arrayArg(arg(id, 0));
    TypeId e = elementOf(typeOf(arg(id, 0)));
    TypeId shaped = inst_.opTypes[id.index];
    bool tile = types_.isTile(shaped);
    Layout l = layoutOf(shaped);
    std::vector<TileVal> index = indexOperands(id, shaped);
    ExprId maskExpr = arg(id, gather ? 2 : 3);
    std::optional<TileVal> mask;
    if (maskExpr.valid()) {
      mask = evalAs(maskExpr, tile ? types_.tile(types_.boolean(), types_.get(shaped).shape) : types_.boolean());
    }
    bool check = constIntArg(id, 4, 1) != 0;
    TileVal value;
    if (gather) {
      if (arg(id, 3).valid()) {
        value = evalAs(arg(id, 3), shaped);
      } else {
        value.slots.assign(l.slots, llvm::Constant::getNullValue(llvmType(e)));
      }
    } else {
      value = evalAs(arg(id, 2), shaped);
    }
    llvm::Type* mt = memoryType(e);
    TileVal out;
    for (unsigned s = 0; s < l.slots; ++s) {
      // A scatter of one element: thread 0 stores it.
      auto [offset, ok] = indexedAddress(arr, index, s, check, l, !gather && l.uniform);
      if (mask) ok = b_.CreateAnd(ok, mask->slots[s]);
      auto* c = llvm::dyn_cast<llvm::ConstantInt>(ok);
      bool always = c != nullptr && c->isOne();
      if (!gather) {
        llvm::Value* x = value.slots[s];
        if (types_.isBool(e)) x = b_.CreateZExt(x, b_.getInt8Ty());
        if (always) {
          b_.CreateStore(x, b_.CreateGEP(mt, arr.data, offset));
        } else {
          guarded(ok, [&] { b_.CreateStore(x, b_.CreateGEP(mt, arr.data, offset)); });
        }
        continue;
      }
      auto loadAt = [&] {
        llvm::Value* x = b_.CreateLoad(mt, b_.CreateGEP(mt, arr.data, offset));
        return types_.isBool(e) ? b_.CreateICmpNE(x, b_.getInt8(0)) : x;
      };
      if (always) {
        out.slots.push_back(loadAt());
        continue;
      }
      out.slots.push_back(guardedValue(ok, value.slots[s], "gather", loadAt));
    }
    return out;
  }

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
  TileVal atomic(ExprId id, TileFn fn) {
    const ArrayArgs& arr = arrayArg(arg(id, 0));
    TypeId e = elementOf(typeOf(arg(id, 0)));
    TypeId shaped = inst_.opTypes[id.index];
    Layout l = layoutOf(shaped);
    std::vector<TileVal> index = indexOperands(id, shaped);
    bool cas = fn == TileFn::AtomicCas;
    TileVal update = evalAs(arg(id, 2), shaped);
    TileVal desired;
    if (cas) desired = evalAs(arg(id, 3), shaped);
    const size_t optionsAt = cas ? 4 : 3;
    bool check = constIntArg(id, optionsAt, 1) != 0;
    llvm::AtomicOrdering order = llvm::AtomicOrdering::AcquireRelease;
    if (ExprId o = arg(id, optionsAt + 1); o.valid()) {
      switch (static_cast<TileFn>(inst_.meanings[o.index].payload)) {
        case TileFn::OrderRelaxed:
          order = llvm::AtomicOrdering::Monotonic;
          break;
        case TileFn::OrderAcquire:
          order = llvm::AtomicOrdering::Acquire;
          break;
        case TileFn::OrderRelease:
          order = llvm::AtomicOrdering::Release;
          break;
        default:
          break;
      }
    }
    // DEVICE: "device"; BLOCK: "block"; SYS: LLVM's system scope.
    llvm::SyncScope::ID scope = context_.getOrInsertSyncScopeID("device");
    if (ExprId o = arg(id, optionsAt + 2); o.valid()) {
      auto which = static_cast<TileFn>(inst_.meanings[o.index].payload);
      if (which == TileFn::ScopeBlock) scope = context_.getOrInsertSyncScopeID("block");
      if (which == TileFn::ScopeSys) scope = llvm::SyncScope::System;
    }
    const Type& et = types_.get(e);
    bool isFloat = et.kind == TypeKind::Float;
    using Op = llvm::AtomicRMWInst::BinOp;
    Op op = Op::Xchg;
    switch (fn) {
      case TileFn::AtomicAdd:
        op = isFloat ? Op::FAdd : Op::Add;
        break;
      case TileFn::AtomicMax:
        op = et.isSigned ? Op::Max : Op::UMax;
        break;
      case TileFn::AtomicMin:
        op = et.isSigned ? Op::Min : Op::UMin;
        break;
      case TileFn::AtomicAnd:
        op = Op::And;
        break;
      case TileFn::AtomicOr:
        op = Op::Or;
        break;
      case TileFn::AtomicXor:
        op = Op::Xor;
        break;
      default:
        break;
    }
    llvm::Type* mt = memoryType(e);
    llvm::Align align(types_.byteSize(e));
    auto emit = [&](llvm::Value* p, unsigned s) -> llvm::Value* {
      if (!cas) return b_.CreateAtomicRMW(op, p, update.slots[s], align, order, scope);
      // cmpxchg compares bits: a float's goes through its integer type.
      llvm::Type* it = b_.getIntNTy(et.bits);
      llvm::Value* expected = isFloat ? b_.CreateBitCast(update.slots[s], it) : update.slots[s];
      llvm::Value* want = isFloat ? b_.CreateBitCast(desired.slots[s], it) : desired.slots[s];
      llvm::AtomicOrdering failure = order == llvm::AtomicOrdering::Release ? llvm::AtomicOrdering::Monotonic
                                     : order == llvm::AtomicOrdering::AcquireRelease ? llvm::AtomicOrdering::Acquire
                                                                                     : order;
      auto* x = b_.CreateAtomicCmpXchg(p, expected, want, align, order, failure, scope);
      llvm::Value* old = b_.CreateExtractValue(x, 0);
      return isFloat ? b_.CreateBitCast(old, mt) : old;
    };
    // An element not updated: 0, or atomic_cas's expected value.
    auto skipped = [&](unsigned s) -> llvm::Value* {
      return cas ? update.slots[s] : llvm::Constant::getNullValue(mt);
    };
    // Slot `s`'s atomic under its test; its old value (skipped(s) when not run).
    auto element = [&](unsigned s, bool firstThread) -> llvm::Value* {
      auto [offset, ok] = indexedAddress(arr, index, s, check, l, firstThread);
      llvm::Value* p = b_.CreateGEP(mt, arr.data, offset);
      auto* c = llvm::dyn_cast<llvm::ConstantInt>(ok);
      if (c != nullptr && c->isOne()) return emit(p, s);
      return guardedValue(ok, skipped(s), "atomic", [&] { return emit(p, s); });
    };
    TileVal out;
    if (!l.uniform) {
      for (unsigned s = 0; s < l.slots; ++s) out.slots.push_back(element(s, false));
      return out;
    }
    // One element for the CTA: thread 0 updates it and writes the old value
    // (or the skipped one) to shared memory for all.
    llvm::Value* buffer = scratch(types_.byteSize(e));
    barrier();
    llvm::Value* mine = element(0, true);
    guarded(b_.CreateICmpEQ(tid_, b_.getInt32(0)), [&] { b_.CreateStore(mine, buffer); });
    barrier();
    out.slots.push_back(b_.CreateLoad(mt, buffer));
    return out;
  }

  // --- reductions ---------------------------------------------------------

  llvm::Value* identity(TileFn fn, TypeId acc) {
    llvm::Type* t = llvmType(acc);
    const Type& at = types_.get(acc);
    if (fn == TileFn::Sum) return llvm::Constant::getNullValue(t);
    bool isMax = fn == TileFn::Max;
    if (at.kind == TypeKind::Float) return llvm::ConstantFP::getInfinity(t, isMax);
    if (at.kind == TypeKind::Bool) return b_.getInt1(!isMax);
    if (at.isSigned) {
      return llvm::ConstantInt::get(t, isMax ? llvm::APInt::getSignedMinValue(at.bits) : llvm::APInt::getSignedMaxValue(at.bits));
    }
    return llvm::ConstantInt::get(t, isMax ? llvm::APInt(at.bits, 0) : llvm::APInt::getMaxValue(at.bits));
  }

  llvm::Value* combine(TileFn fn, llvm::Value* a, llvm::Value* c, TypeId acc) {
    const Type& at = types_.get(acc);
    if (fn == TileFn::Sum) return at.kind == TypeKind::Float ? b_.CreateFAdd(a, c) : b_.CreateAdd(a, c);
    bool isMax = fn == TileFn::Max;
    if (at.kind == TypeKind::Float) {
      // NaN propagates (NumPy's max/min).
      return b_.CreateBinaryIntrinsic(isMax ? llvm::Intrinsic::maximum : llvm::Intrinsic::minimum, a, c);
    }
    if (at.kind == TypeKind::Bool) return isMax ? b_.CreateOr(a, c) : b_.CreateAnd(a, c);
    llvm::Intrinsic::ID id = at.isSigned ? (isMax ? llvm::Intrinsic::smax : llvm::Intrinsic::smin)
                                         : (isMax ? llvm::Intrinsic::umax : llvm::Intrinsic::umin);
    return b_.CreateBinaryIntrinsic(id, a, c);
  }

  llvm::Value* shuffleXor(llvm::Value* v, unsigned lane) {
    llvm::Function* shfl = intrinsic(llvm::Intrinsic::nvvm_shfl_sync_bfly_i32);
    llvm::Value* mask = b_.getInt32(0xffffffffu);
    llvm::Type* original = v->getType();
    unsigned bits = original->getPrimitiveSizeInBits();
    if (bits == 1) {
      llvm::Value* r = b_.CreateCall(shfl, {mask, b_.CreateZExt(v, b_.getInt32Ty()), b_.getInt32(lane), b_.getInt32(0x1f)});
      return b_.CreateTrunc(r, original);
    }
    if (bits <= 32) {
      llvm::Value* asInt = b_.CreateBitCast(v, b_.getIntNTy(bits));
      if (bits < 32) asInt = b_.CreateZExt(asInt, b_.getInt32Ty());
      llvm::Value* r = b_.CreateCall(shfl, {mask, asInt, b_.getInt32(lane), b_.getInt32(0x1f)});
      if (bits < 32) r = b_.CreateTrunc(r, b_.getIntNTy(bits));
      return b_.CreateBitCast(r, original);
    }
    llvm::Value* asInt = b_.CreateBitCast(v, b_.getInt64Ty());
    llvm::Value* lo = b_.CreateCall(shfl, {mask, b_.CreateTrunc(asInt, b_.getInt32Ty()), b_.getInt32(lane), b_.getInt32(0x1f)});
    llvm::Value* hi = b_.CreateCall(shfl, {mask, b_.CreateTrunc(b_.CreateLShr(asInt, 32), b_.getInt32Ty()), b_.getInt32(lane), b_.getInt32(0x1f)});
    llvm::Value* joined = b_.CreateOr(b_.CreateZExt(lo, b_.getInt64Ty()), b_.CreateShl(b_.CreateZExt(hi, b_.getInt64Ty()), 32));
    return b_.CreateBitCast(joined, original);
  }

  // ct.sum/max/min along the last axis of a 2-D tile held in the mma
  // accumulator layout (flash attention's row max and row sum of the scores):
  // each thread combines the slots of its rows, the four lanes sharing a row
  // combine by shuffles, then the warps sharing rows through shared memory,
  // where the output's threads read their rows. nullopt: not such a reduction.
  std::optional<TileVal> mmaRowReduce(ExprId id, TileFn fn, TypeId t) {
    ExprId xe = arg(id, 0);
    TypeId xt = typeOf(xe);
    const std::vector<int64_t>& xs = types_.get(xt).shape;
    ExprId axisExpr = arg(id, 1);
    const ConstValue* axis = axisExpr.valid() ? constOf(axisExpr) : nullptr;
    if (xs.size() != 2 || axis == nullptr || axis->kind != ConstValue::Kind::Int ||
        (axis->intValue != 1 && axis->intValue != -1) || !isMmaExpr(xe)) {
      return std::nullopt;
    }
    TypeId e = elementOf(t);
    TypeId acc = types_.get(e).kind == TypeKind::Float && types_.get(e).bits == 16 ? types_.float32() : e;
    if (types_.byteSize(acc) != 4) return std::nullopt;
    TypeId accTile = types_.tile(acc, xs);
    TileVal x = evalAs(xe, accTile, true);
    Layout l = *mmaLayoutOf(accTile);
    unsigned fragsN = static_cast<unsigned>(l.wn / 8);
    unsigned fragsM = static_cast<unsigned>(l.wm / 16);
    // Slot s: fragment (fm, fn) = divmod(s / 4, fragsN); slots 0, 1 at row g of
    // the fragment, 2, 3 at row g + 8 (g = lane / 4).
    std::vector<llvm::Value*> part(2 * fragsM, nullptr);
    for (unsigned s = 0; s < l.slots; ++s) {
      unsigned f = s / 4, fm = f / fragsN;
      llvm::Value*& p = part[fm * 2 + (s % 4) / 2];
      p = p == nullptr ? x.slots[s] : combine(fn, p, x.slots[s], acc);
    }
    for (llvm::Value*& p : part) {
      p = combine(fn, p, shuffleXor(p, 1), acc);
      p = combine(fn, p, shuffleXor(p, 2), acc);
    }
    int64_t rows = xs[0];
    llvm::Type* mt = memoryType(acc);
    llvm::Value* buffer = scratch(static_cast<uint64_t>(l.warpsN * rows) * types_.byteSize(acc));
    llvm::Value* warp = b_.CreateLShr(tid_, b_.getInt32(5));
    llvm::Value* lane = b_.CreateAnd(tid_, b_.getInt32(kWarp - 1));
    llvm::Value* g = b_.CreateLShr(lane, b_.getInt32(2));
    llvm::Value* wr = b_.CreateUDiv(warp, b_.getInt32(l.warpsN));
    llvm::Value* wc = b_.CreateURem(warp, b_.getInt32(l.warpsN));
    llvm::Value* rowBase = b_.CreateAdd(b_.CreateMul(wr, b_.getInt32(static_cast<uint32_t>(l.wm))), g);
    barrier();
    guarded(b_.CreateICmpEQ(b_.CreateAnd(lane, b_.getInt32(3)), b_.getInt32(0)), [&] {
      for (unsigned k = 0; k < part.size(); ++k) {
        llvm::Value* row = b_.CreateAdd(rowBase, b_.getInt32((k / 2) * 16 + (k % 2) * 8));
        llvm::Value* at = b_.CreateAdd(b_.CreateMul(wc, b_.getInt32(static_cast<uint32_t>(rows))), row);
        b_.CreateStore(part[k], b_.CreateGEP(mt, buffer, at));
      }
    });
    barrier();
    Layout lo = layoutOf(t);
    TileVal out;
    for (unsigned s = 0; s < lo.slots; ++s) {
      llvm::Value* row = clampIndex(elementIndex(lo, s), lo);
      llvm::Value* r = nullptr;
      for (unsigned w = 0; w < l.warpsN; ++w) {
        llvm::Value* at = b_.CreateAdd(row, b_.getInt32(static_cast<uint32_t>(w * rows)));
        llvm::Value* v = b_.CreateLoad(mt, b_.CreateGEP(mt, buffer, at));
        r = r == nullptr ? v : combine(fn, r, v, acc);
      }
      out.slots.push_back(convert(r, acc, e));
    }
    return out;
  }

  TileVal reduce(ExprId id, TileFn fn, TypeId t) {
    if (auto r = mmaRowReduce(id, fn, t)) return *r;
    ExprId xe = arg(id, 0);
    TypeId xt = typeOf(xe);
    TypeId e = elementOf(t);
    // float16 accumulates in float32.
    TypeId acc = types_.get(e).kind == TypeKind::Float && types_.get(e).bits == 16 ? types_.float32() : e;
    TypeId accTile = types_.tile(acc, types_.get(xt).shape);
    TileVal x = evalAs(xe, accTile);
    Layout lx = layoutOf(accTile);
    Layout lo = layoutOf(t);
    if (lo.n == 1) {
      // All elements into one: per thread, then across the warp (shuffles),
      // then across warps (shared memory); every thread gets the result.
      llvm::Value* r = identity(fn, acc);
      for (unsigned s = 0; s < lx.slots; ++s) {
        llvm::Value* v = x.slots[s];
        if (lx.partial) v = b_.CreateSelect(slotValid(lx), v, identity(fn, acc));
        r = combine(fn, r, v, acc);
      }
      for (unsigned lane = kWarp / 2; lane >= 1; lane /= 2) r = combine(fn, r, shuffleXor(r, lane), acc);
      unsigned warps = threads_ / kWarp;
      llvm::Type* mt = memoryType(acc);
      llvm::Value* buffer = warpPartials(warps, mt);
      llvm::Value* laneId = b_.CreateAnd(tid_, b_.getInt32(kWarp - 1));
      llvm::Value* warpId = b_.CreateLShr(tid_, b_.getInt32(5));
      llvm::Value* stored = types_.isBool(acc) ? b_.CreateZExt(r, b_.getInt8Ty()) : r;
      guarded(b_.CreateICmpEQ(laneId, b_.getInt32(0)),
              [&] { b_.CreateStore(stored, b_.CreateGEP(mt, buffer, warpId)); });
      barrier();
      llvm::Value* total = identity(fn, acc);
      for (unsigned w = 0; w < warps; ++w) {
        llvm::Value* v = b_.CreateLoad(mt, b_.CreateGEP(mt, buffer, b_.getInt32(w)));
        if (types_.isBool(acc)) v = b_.CreateICmpNE(v, b_.getInt8(0));
        total = combine(fn, total, v, acc);
      }
      return TileVal{{convert(total, acc, e)}};
    }
    // Reduced along some axes into several elements: stage the input, then
    // each output element loops over its reduced elements.
    llvm::Value* buffer = stage(x, accTile, lx);
    const std::vector<int64_t>& xs = types_.get(xt).shape;
    std::vector<bool> reduced(xs.size(), false);
    ExprId axisExpr = arg(id, 1);
    const ConstValue* axisConst = axisExpr.valid() ? constOf(axisExpr) : nullptr;
    if (axisConst == nullptr || axisConst->kind != ConstValue::Kind::Int) {
      reduced.assign(xs.size(), true);
    } else {
      int64_t a = axisConst->intValue;
      if (a < 0) a += static_cast<int64_t>(xs.size());
      reduced[static_cast<size_t>(a)] = true;
    }
    bool keepdims = constIntArg(id, 2, 0) != 0;
    int64_t count = 1;
    for (size_t d = 0; d < xs.size(); ++d) {
      if (reduced[d]) count *= xs[d];
    }
    std::vector<int64_t> os = types_.get(t).shape;
    llvm::Type* mt = memoryType(acc);
    TileVal out;
    for (unsigned s = 0; s < lo.slots; ++s) {
      std::vector<llvm::Value*> oi = multiIndex(clampIndex(elementIndex(lo, s), lo), os);
      // The input index of the output element with every reduced axis at 0.
      llvm::Value* base = b_.getInt32(0);
      std::vector<int64_t> xStride(xs.size());
      int64_t inner = 1;
      for (size_t d = xs.size(); d-- > 0;) {
        xStride[d] = inner;
        inner *= xs[d];
      }
      size_t od = 0;
      for (size_t d = 0; d < xs.size(); ++d) {
        if (!reduced[d]) {
          base = b_.CreateAdd(base, b_.CreateMul(oi[od], b_.getInt32(static_cast<uint32_t>(xStride[d]))));
          ++od;
        } else if (keepdims) {
          ++od;
        }
      }
      // Loop j over the reduced elements (row-major over the reduced axes).
      llvm::BasicBlock* pre = b_.GetInsertBlock();
      auto* body = llvm::BasicBlock::Create(context_, "reduce.loop", function_);
      auto* done = llvm::BasicBlock::Create(context_, "reduce.done", function_);
      b_.CreateBr(body);
      b_.SetInsertPoint(body);
      llvm::PHINode* j = b_.CreatePHI(b_.getInt32Ty(), 2);
      llvm::PHINode* r = b_.CreatePHI(llvmType(acc), 2);
      j->addIncoming(b_.getInt32(0), pre);
      r->addIncoming(identity(fn, acc), pre);
      llvm::Value* index = base;
      int64_t rin = 1;
      for (size_t d = xs.size(); d-- > 0;) {
        if (!reduced[d]) continue;
        llvm::Value* q = rin == 1 ? static_cast<llvm::Value*>(j) : b_.CreateLShr(j, b_.getInt32(static_cast<uint32_t>(log2i(rin))));
        llvm::Value* k = b_.CreateAnd(q, b_.getInt32(static_cast<uint32_t>(xs[d] - 1)));
        index = b_.CreateAdd(index, b_.CreateMul(k, b_.getInt32(static_cast<uint32_t>(xStride[d]))));
        rin *= xs[d];
      }
      llvm::Value* v = b_.CreateLoad(mt, b_.CreateGEP(mt, buffer, index));
      if (types_.isBool(acc)) v = b_.CreateICmpNE(v, b_.getInt8(0));
      llvm::Value* next = combine(fn, r, v, acc);
      llvm::Value* jn = b_.CreateAdd(j, b_.getInt32(1));
      j->addIncoming(jn, b_.GetInsertBlock());
      r->addIncoming(next, b_.GetInsertBlock());
      b_.CreateCondBr(b_.CreateICmpULT(jn, b_.getInt32(static_cast<uint32_t>(count))), body, done);
      b_.SetInsertPoint(done);
      out.slots.push_back(convert(next, acc, e));
    }
    return out;
  }

  // --- matrix products (docs/TILE.md, "Matrix products") --------------------

  // Whether `id`'s value is produced in the mma accumulator layout: a
  // tensor-core product, a variable holding one, or an elementwise operation
  // of one keeping its shape.
  bool isMmaExpr(ExprId id) {
    if (!id.valid() || constOf(id) != nullptr) return false;
    TypeId t = typeOf(id);
    if (!t.valid() || !types_.isTile(t) || !mmaLayoutOf(t)) return false;
    const frontend::Expr& e = ast_.expr(id);
    auto sameShapeMma = [&](ExprId operand) {
      TypeId ot = typeOf(operand);
      return operand.valid() && ot.valid() && types_.isTile(ot) &&
             types_.get(ot).shape == types_.get(t).shape && isMmaExpr(operand);
    };
    switch (e.kind()) {
      case frontend::ExprKind::Name:
        return mmaVars_.count({std::string(ast_.str(e.as<ast::Name>().id)), t.index}) != 0;
      case frontend::ExprKind::BinOp: {
        const auto& bo = e.as<ast::BinOp>();
        if (bo.op == frontend::Operator::MatMult) return tensorCores(bo.left, bo.right, t);
        return sameShapeMma(bo.left) || sameShapeMma(bo.right);
      }
      case frontend::ExprKind::UnaryOp:
        return sameShapeMma(e.as<ast::UnaryOp>().operand);
      case frontend::ExprKind::Compare: {
        const auto& c = e.as<ast::Compare>();
        return sameShapeMma(c.left) || sameShapeMma(ast_.list(c.comparators)[0]);
      }
      case frontend::ExprKind::Call: {
        if (inst_.meanings[id.index].kind != Intrinsic::TileOp) return false;
        auto fn = static_cast<TileFn>(inst_.meanings[id.index].payload);
        switch (fn) {
          case TileFn::Mma:
          case TileFn::Matmul:
            return tensorCores(arg(id, 0), arg(id, 1), t);
          case TileFn::Astype: case TileFn::Exp: case TileFn::Exp2: case TileFn::Log:
          case TileFn::Log2: case TileFn::Sqrt: case TileFn::Rsqrt: case TileFn::Tanh:
          case TileFn::Sin: case TileFn::Cos: case TileFn::Abs:
            return sameShapeMma(arg(id, 0));
          case TileFn::Where:
            return sameShapeMma(arg(id, 0)) || sameShapeMma(arg(id, 1)) || sameShapeMma(arg(id, 2));
          case TileFn::Maximum:
          case TileFn::Minimum:
          case TileFn::Truediv:
            return sameShapeMma(arg(id, 0)) || sameShapeMma(arg(id, 1));
          default:
            return false;
        }
      }
      default:
        return false;
    }
  }

  // The variables assigned an mma-layout value anywhere (to a fixed point:
  // `c = acc.astype(...)` follows `acc = ct.mma(...)`).
  void findMmaVars(std::span<const StmtId> body) {
    for (bool changed = true; changed;) {
      size_t before = mmaVars_.size();
      markMmaVars(body);
      changed = mmaVars_.size() != before;
    }
  }

  void markMmaVars(std::span<const StmtId> body) {
    for (StmtId id : body) {
      const frontend::Stmt& s = ast_.stmt(id);
      switch (s.kind()) {
        case frontend::StmtKind::Assign: {
          const auto& a = s.as<ast::Assign>();
          if (!isMmaExpr(a.value)) break;
          for (ExprId t : ast_.list(a.targets)) {
            const auto* n = ast_.expr(t).dyn<ast::Name>();
            TypeId tt = typeOf(t);
            if (n != nullptr && tt.valid() && mmaLayoutOf(tt)) mmaVars_.insert({std::string(ast_.str(n->id)), tt.index});
          }
          break;
        }
        case frontend::StmtKind::AugAssign: {
          const auto& a = s.as<ast::AugAssign>();
          const auto* n = ast_.expr(a.target).dyn<ast::Name>();
          TypeId tt = typeOf(a.target);
          if (n != nullptr && isMmaExpr(a.value) && tt.valid() && mmaLayoutOf(tt) &&
              types_.get(typeOf(a.value)).shape == types_.get(tt).shape) {
            mmaVars_.insert({std::string(ast_.str(n->id)), tt.index});
          }
          break;
        }
        case frontend::StmtKind::For:
          markMmaVars(ast_.list(s.as<ast::For>().body));
          break;
        case frontend::StmtKind::If:
          markMmaVars(ast_.list(s.as<ast::If>().body));
          markMmaVars(ast_.list(s.as<ast::If>().orelse));
          break;
        default:
          break;
      }
    }
  }

  // The dtype the product of `x` and `y` reads its operands in.
  TypeId productInput(ExprId x, ExprId y) const {
    TypeId a = elementOf(typeOf(x));
    TypeId b = elementOf(typeOf(y));
    if (a == b) return a;
    // ct.matmul promotes (the checker typed the result with the promoted dtype).
    return TypeId();
  }

  // Whether a product of these operands into a tile of type `result` runs on
  // tensor cores: float16/bfloat16 (m16n8k16) or tfloat32 (m16n8k8) in, float32
  // (or float16) accumulation, shapes that split into 16x16 warp blocks.
  bool tensorCores(ExprId x, ExprId y, TypeId result) {
    TypeId in = productInput(x, y);
    if (!in.valid()) in = elementOf(result);
    const std::vector<int64_t>& xs = types_.get(typeOf(x)).shape;
    int64_t k = xs.size() == 2 ? xs[1] : 0;
    bool halfIn = types_.isHalf(in) || types_.isBFloat16(in);
    if (!(halfIn && k % 16 == 0) && !(types_.isTFloat32(in) && k % 8 == 0)) return false;
    TypeId out = elementOf(result);
    if (out != types_.float32() && !types_.isHalf(out) && !types_.isBFloat16(out) && !types_.isTFloat32(out)) {
      return false;
    }
    return mmaLayoutOf(result).has_value();
  }

  // `ct.mma(x, y, acc)`.
  TileVal mmaCall(ExprId id) {
    TypeId t = typeOf(id);
    bool tc = isMmaExpr(id);
    TileVal acc = evalAs(arg(id, 2), t, tc);
    return product(arg(id, 0), arg(id, 1), acc, t, tc);
  }

  // `x @ y`, `ct.matmul(x, y)`: a product into zeros of the accumulation
  // dtype (float32 for 16-bit floats and tfloat32, int32 for 8-bit integers),
  // converted to the result's dtype.
  TileVal matmul(ExprId id, ExprId x, ExprId y) {
    TypeId t = typeOf(id);
    TypeId e = elementOf(t);
    const Type& et = types_.get(e);
    TypeId accE = et.kind == TypeKind::Int ? types_.int32() : et.bits == 64 ? e : types_.float32();
    TypeId accT = types_.tile(accE, types_.get(t).shape);
    bool tc = isMmaExpr(id);
    TileVal acc;
    acc.slots.assign(layoutFor(accT, tc).slots, llvm::Constant::getNullValue(llvmType(accE)));
    acc.mma = tc;
    acc.splat = true;
    TileVal r = product(x, y, acc, accT, tc);
    return spread(r, accT, t, tc);
  }

  // acc + x @ y, `acc` (type accT) in the mma layout when `tc`.
  TileVal product(ExprId x, ExprId y, TileVal acc, TypeId accT, bool tc) {
    TypeId xt = typeOf(x);
    TypeId yt = typeOf(y);
    TypeId in = productInput(x, y);
    if (!in.valid()) in = types_.get(accT).element;
    int64_t rows = types_.get(xt).shape[0];
    int64_t depth = types_.get(xt).shape[1];
    int64_t cols = types_.get(yt).shape[1];
    acc.splat = false;
    if (!tc) return cudaCoreProduct(x, y, acc, accT, rows, depth, cols);
    usesTensorCores_ = true;
    // Operands in swizzled shared memory: from the pipeline, or staged here.
    unsigned bytes = types_.byteSize(in);
    uint64_t xBytes = static_cast<uint64_t>(rows * depth) * bytes;
    std::optional<SmemTile> xs = pipelined(x), ys = pipelined(y);
    if (!xs) xs = residentOperand(x);
    if (!ys) ys = residentOperand(y);
    Layout l = *mmaLayoutOf(accT);
    // A left operand in the mma layout whose warps own the accumulator's rows
    // and all of its columns (the softmax's P times V, with sm_90a's layout)
    // is read as A fragments straight from its registers (FA2's reuse).
    std::vector<llvm::Value*> xRegs;
    if (!xs && isMmaExpr(x) && (types_.isHalf(in) || types_.isBFloat16(in)) && depth % 16 == 0) {
      TypeId xt1 = types_.tile(in, {rows, depth});
      auto lx = mmaLayoutOf(xt1);
      if (lx && lx->warpsN == 1 && l.warpsN == 1 && lx->wm == l.wm && lx->wn == depth) {
        xRegs = evalAs(x, xt1, true).slots;
      }
    }
    if ((!xs && xRegs.empty()) || !ys) {
      // Both operands are evaluated before anything is written: evaluating one
      // may pass through the scratch buffer (a relayout) that the staged
      // operands occupy. An operand in the mma layout (a softmax's P) is
      // written from that layout.
      TypeId xt2 = types_.tile(in, {rows, depth}), yt2 = types_.tile(in, {depth, cols});
      std::optional<std::pair<TileVal, bool>> xv, yv;
      if (!xs && xRegs.empty()) xv = operandValue(x, xt2);
      if (!ys) yv = operandValue(y, yt2);
      barrier();
      if (xv) xs = writeSwizzled(xv->first, xt2, xv->second, 0);
      if (yv) ys = writeSwizzled(yv->first, yt2, yv->second, (xBytes + 127) / 128 * 128);
      barrier();
    }
    TypeId accE = types_.get(accT).element;
    // Accumulate in float32.
    std::vector<llvm::Value*> c(acc.slots.size());
    for (size_t s = 0; s < c.size(); ++s) c[s] = convert(acc.slots[s], accE, types_.float32());
    bool kMajorA = xs && (xs->format == SmemFormat::KMajor64 || xs->format == SmemFormat::KMajor128);
    if (wgmma_ && kMajorA && ys->format == SmemFormat::MNMajor128 && l.warpsN == 1 && l.wm == 16 &&
        (types_.isHalf(in) || types_.isBFloat16(in))) {
      wgmmaProduct(*xs, *ys, c, depth, l.wn, types_.isBFloat16(in));
      TileVal out;
      out.mma = true;
      for (llvm::Value* v : c) out.slots.push_back(convert(v, types_.float32(), accE));
      return out;
    }
    bool tf32 = types_.isTFloat32(in);
    unsigned kStep = tf32 ? 8 : 16;
    unsigned fragsM = static_cast<unsigned>(l.wm / 16), fragsN = static_cast<unsigned>(l.wn / 8);
    llvm::Value* warp = b_.CreateLShr(tid_, b_.getInt32(5));
    llvm::Value* lane = b_.CreateAnd(tid_, b_.getInt32(kWarp - 1));
    llvm::Value* rowBase = b_.CreateMul(b_.CreateUDiv(warp, b_.getInt32(l.warpsN)), b_.getInt32(static_cast<uint32_t>(l.wm)));
    llvm::Value* colBase = b_.CreateMul(b_.CreateURem(warp, b_.getInt32(l.warpsN)), b_.getInt32(static_cast<uint32_t>(l.wn)));
    llvm::Function* mma = intrinsic(tf32 ? llvm::Intrinsic::nvvm_mma_m16n8k8_row_col_tf32
                                    : types_.isBFloat16(in) ? llvm::Intrinsic::nvvm_mma_m16n8k16_row_col_bf16
                                                            : llvm::Intrinsic::nvvm_mma_m16n8k16_row_col_f32_f32);
    llvm::FunctionType* mt = mma->getFunctionType();
    for (int64_t k0 = 0; k0 < depth; k0 += kStep) {
      std::vector<std::array<llvm::Value*, 4>> af(fragsM);
      std::vector<std::array<llvm::Value*, 2>> bf(fragsN);
      for (unsigned fm = 0; fm < fragsM; ++fm) {
        llvm::Value* r0 = b_.CreateAdd(rowBase, b_.getInt32(fm * 16));
        af[fm] = tf32              ? tf32AFragment(*xs, r0, k0, lane)
                 : !xRegs.empty() ? registerAFragment(xRegs, static_cast<unsigned>(depth / 8), fm, k0)
                                  : ldmatrixA(*xs, r0, k0, lane);
      }
      for (unsigned fn = 0; fn < fragsN; fn += tf32 ? 1 : 2) {
        llvm::Value* n0 = b_.CreateAdd(colBase, b_.getInt32(fn * 8));
        if (tf32) {
          bf[fn] = tf32BFragment(*ys, k0, n0, lane);
        } else {
          auto four = ldmatrixB(*ys, k0, n0, lane);
          bf[fn] = {four[0], four[1]};
          bf[fn + 1] = {four[2], four[3]};
        }
      }
      for (unsigned fm = 0; fm < fragsM; ++fm) {
        for (unsigned fn = 0; fn < fragsN; ++fn) {
          std::vector<llvm::Value*> args;
          for (llvm::Value* v : af[fm]) args.push_back(v);
          for (llvm::Value* v : bf[fn]) args.push_back(v);
          unsigned s0 = (fm * fragsN + fn) * 4;
          for (unsigned j = 0; j < 4; ++j) args.push_back(c[s0 + j]);
          for (size_t i = 0; i < args.size(); ++i) {
            llvm::Type* want = mt->getParamType(static_cast<unsigned>(i));
            if (args[i]->getType() != want) args[i] = b_.CreateBitCast(args[i], want);
          }
          llvm::Value* d = b_.CreateCall(mma, args);
          for (unsigned j = 0; j < 4; ++j) c[s0 + j] = b_.CreateExtractValue(d, j);
        }
      }
    }
    TileVal out;
    out.mma = true;
    for (llvm::Value* v : c) out.slots.push_back(convert(v, types_.float32(), accE));
    return out;
  }

  void asmStatement(const std::string& text) {
    auto* type = llvm::FunctionType::get(b_.getVoidTy(), false);
    b_.CreateCall(llvm::InlineAsm::get(type, text, "~{memory}", true), {});
  }

  // A wgmma shared-memory matrix descriptor: start address, leading and stride
  // byte offsets (in 16-byte units) and the swizzle mode (1: 128 bytes, 2: 64).
  llvm::Value* wgmmaDescriptor(llvm::Value* address, uint64_t lbo, uint64_t sbo, uint64_t swizzle) {
    llvm::Value* a = b_.CreateZExt(b_.CreateAnd(b_.CreateLShr(address, b_.getInt32(4)), b_.getInt32(0x3fff)),
                                   b_.getInt64Ty());
    uint64_t fixed = ((lbo >> 4) & 0x3fff) << 16 | ((sbo >> 4) & 0x3fff) << 32 | swizzle << 62;
    return b_.CreateOr(a, b_.getInt64(fixed));
  }

  // acc (float32 registers in the wgmma layout) += A @ B with Hopper's
  // asynchronous warpgroup MMA: each warpgroup of 4 warps computes 64 rows with
  // `wgmma.mma_async.m64n<N>k16`, A from K-major and B from MN-major swizzled
  // shared memory, then waits for its group to finish.
  void wgmmaProduct(const SmemTile& a, const SmemTile& b, std::vector<llvm::Value*>& c, int64_t depth, int64_t n,
                    bool bf16) {
    llvm::Value* warp = b_.CreateLShr(tid_, b_.getInt32(5));
    llvm::Value* group = b_.CreateLShr(warp, b_.getInt32(2));
    uint32_t rowBytes = static_cast<uint32_t>(a.cols * a.bytes);
    llvm::Value* aAddr = b_.CreatePtrToInt(a.base, b_.getInt32Ty());
    aAddr = b_.CreateAdd(aAddr, b_.CreateMul(group, b_.getInt32(64 * rowBytes)));
    llvm::Value* bAddr = b_.CreatePtrToInt(b.base, b_.getInt32Ty());
    uint64_t swizzleA = a.format == SmemFormat::KMajor128 ? 1 : 2;
    // B (MN-major): the leading byte offset steps between 64-column panels, the
    // stride byte offset between groups of 8 K rows (checked on the H200; the
    // other assignment gives wrong products).
    uint64_t panel = static_cast<uint64_t>(b.rows) * 128;
    size_t steps = static_cast<size_t>(depth / 16);
    std::string type = bf16 ? "bf16" : "f16";
    size_t regs = c.size();
    std::string text = "wgmma.fence.sync.aligned;\n";
    std::string outs;
    for (size_t i = 0; i < regs; ++i) outs += (i ? ", $" : "$") + std::to_string(i);
    std::vector<llvm::Value*> args(c.begin(), c.end());
    std::vector<llvm::Type*> argTypes(regs, b_.getFloatTy());
    std::string constraints;
    for (size_t i = 0; i < regs; ++i) constraints += (i ? ",=f" : "=f");
    for (size_t i = 0; i < regs; ++i) constraints += "," + std::to_string(i);
    for (size_t k = 0; k < steps; ++k) {
      llvm::Value* da = wgmmaDescriptor(b_.CreateAdd(aAddr, b_.getInt32(static_cast<uint32_t>(k * 32))), 16,
                                        8 * rowBytes, swizzleA);
      llvm::Value* db = wgmmaDescriptor(b_.CreateAdd(bAddr, b_.getInt32(static_cast<uint32_t>(k * 16 * 128))),
                                        panel, 1024, 1);
      size_t ia = 2 * regs + 2 * k, ib = ia + 1;
      args.push_back(da);
      args.push_back(db);
      argTypes.push_back(b_.getInt64Ty());
      argTypes.push_back(b_.getInt64Ty());
      constraints += ",l,l";
      text += "wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k16.f32." + type + "." + type + " {" + outs +
              "}, $" + std::to_string(ia) + ", $" + std::to_string(ib) + ", 1, 1, 1, 0, 1;\n";
    }
    // In a pipelined loop one group may stay in flight (lowerPipelinedFor).
    text += std::string("wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned ") +
            (deferWgmma_ ? "1;" : "0;");
    auto* structType = llvm::StructType::get(context_, std::vector<llvm::Type*>(regs, b_.getFloatTy()));
    auto* fnType = llvm::FunctionType::get(structType, argTypes, false);
    llvm::Value* r = b_.CreateCall(llvm::InlineAsm::get(fnType, text, constraints + ",~{memory}", true), args);
    for (size_t i = 0; i < regs; ++i) c[i] = b_.CreateExtractValue(r, static_cast<unsigned>(i));
  }

  // Byte offset (i32) of element (r, c) of a swizzled shared tile: 16-byte
  // chunk L = r * C + c / perChunk is stored at chunk L ^ key, where key is
  // the row within an 8-row group (C >= 8 chunks per row) or the 128-byte
  // line's index (C < 8), so 8 rows of one chunk column hit 8 distinct
  // 16-byte bank groups.
  llvm::Value* smemOffset(const SmemTile& t, llvm::Value* r, llvm::Value* chunk) {
    uint32_t perRow = static_cast<uint32_t>(t.cols * t.bytes / 16);
    switch (t.format) {
      case SmemFormat::KMajor64: {
        // 64-byte rows, chunk ^= (row / 2) % 4 (the 64-byte swizzle).
        llvm::Value* key = b_.CreateAnd(b_.CreateLShr(r, b_.getInt32(1)), b_.getInt32(3));
        return b_.CreateAdd(b_.CreateShl(r, b_.getInt32(6)), b_.CreateShl(b_.CreateXor(chunk, key), b_.getInt32(4)));
      }
      case SmemFormat::KMajor128: {
        llvm::Value* key = b_.CreateAnd(r, b_.getInt32(7));
        return b_.CreateAdd(b_.CreateShl(r, b_.getInt32(7)), b_.CreateShl(b_.CreateXor(chunk, key), b_.getInt32(4)));
      }
      case SmemFormat::MNMajor128: {
        // Panel chunk / 8 holds rows of 8 chunks (128 bytes), chunk ^= row % 8.
        llvm::Value* panel = b_.CreateLShr(chunk, b_.getInt32(3));
        llvm::Value* within = b_.CreateXor(b_.CreateAnd(chunk, b_.getInt32(7)), b_.CreateAnd(r, b_.getInt32(7)));
        llvm::Value* off = b_.CreateMul(panel, b_.getInt32(static_cast<uint32_t>(t.rows * 128)));
        off = b_.CreateAdd(off, b_.CreateShl(r, b_.getInt32(7)));
        return b_.CreateAdd(off, b_.CreateShl(within, b_.getInt32(4)));
      }
      case SmemFormat::Swizzled:
        break;
    }
    llvm::Value* linear = b_.CreateAdd(b_.CreateMul(r, b_.getInt32(perRow)), chunk);
    llvm::Value* key = perRow >= 8 ? b_.CreateAnd(r, b_.getInt32(7))
                                   : b_.CreateAnd(b_.CreateLShr(linear, b_.getInt32(3)), b_.getInt32(7));
    return b_.CreateShl(b_.CreateXor(linear, key), b_.getInt32(4));
  }

  llvm::Value* smemElement(const SmemTile& t, llvm::Value* r, llvm::Value* c) {
    uint32_t perChunk = 16 / t.bytes;
    llvm::Value* chunk = b_.CreateUDiv(c, b_.getInt32(perChunk));
    llvm::Value* within = b_.CreateMul(b_.CreateURem(c, b_.getInt32(perChunk)), b_.getInt32(t.bytes));
    llvm::Value* off = b_.CreateAdd(smemOffset(t, r, chunk), within);
    return b_.CreateGEP(b_.getInt8Ty(), t.base, off);
  }

  // A's 16x16 fragment (rows fm * 16.., columns k0..) of a tile held in the
  // mma layout (`fragsN` 16x8 fragments per row block, 4 slots each: c0/c1 at
  // row g, c2/c3 at g + 8): a0 = (g, 2q..), a1 = (g + 8, 2q..), a2 = (g,
  // 2q + 8..), a3 = (g + 8, 2q + 8..) are the two fragments of columns k0 and
  // k0 + 8, two 16-bit values each.
  std::array<llvm::Value*, 4> registerAFragment(const std::vector<llvm::Value*>& x, unsigned fragsN, unsigned fm,
                                                int64_t k0) {
    unsigned f0 = fm * fragsN + static_cast<unsigned>(k0 / 8);
    auto pair = [&](unsigned f, unsigned j) {
      auto* vt = llvm::FixedVectorType::get(x[0]->getType(), 2);
      llvm::Value* v = b_.CreateInsertElement(llvm::PoisonValue::get(vt), x[f * 4 + j], uint64_t(0));
      return b_.CreateInsertElement(v, x[f * 4 + j + 1], uint64_t(1));
    };
    return {pair(f0, 0), pair(f0, 2), pair(f0 + 1, 0), pair(f0 + 1, 2)};
  }

  std::array<llvm::Value*, 4> unpack4(llvm::Value* v) {
    return {b_.CreateExtractValue(v, 0), b_.CreateExtractValue(v, 1), b_.CreateExtractValue(v, 2),
            b_.CreateExtractValue(v, 3)};
  }

  // A's 16x16 fragment at rows r0.., columns k0..: ldmatrix.x4, lane l giving
  // the address of row r0 + l % 16, chunk k0 / 8 + l / 16.
  std::array<llvm::Value*, 4> ldmatrixA(const SmemTile& t, llvm::Value* r0, int64_t k0, llvm::Value* lane) {
    llvm::Value* r = b_.CreateAdd(r0, b_.CreateAnd(lane, b_.getInt32(15)));
    llvm::Value* chunk = b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(k0 / 8)), b_.CreateLShr(lane, b_.getInt32(4)));
    llvm::Value* p = b_.CreateGEP(b_.getInt8Ty(), t.base, smemOffset(t, r, chunk));
    return unpack4(b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_b16, {p->getType()}), {p}));
  }

  // B's fragments for columns n0..n0+15 at rows k0..k0+15 (two n8 fragments):
  // ldmatrix.x4.trans, lane l giving row k0 + l % 8 + 8 * (l / 8 % 2), chunk
  // n0 / 8 + l / 16.
  std::array<llvm::Value*, 4> ldmatrixB(const SmemTile& t, int64_t k0, llvm::Value* n0, llvm::Value* lane) {
    llvm::Value* r = b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(k0)), b_.CreateAnd(lane, b_.getInt32(15)));
    llvm::Value* chunk = b_.CreateAdd(b_.CreateLShr(n0, b_.getInt32(3)), b_.CreateLShr(lane, b_.getInt32(4)));
    llvm::Value* p = b_.CreateGEP(b_.getInt8Ty(), t.base, smemOffset(t, r, chunk));
    return unpack4(b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_trans_b16, {p->getType()}), {p}));
  }

  llvm::Value* loadTf32(const SmemTile& t, llvm::Value* r, llvm::Value* c) {
    llvm::Value* x = b_.CreateLoad(b_.getFloatTy(), smemElement(t, r, c));
    return b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_f2tf32_rna), {x});
  }

  // tfloat32 m16n8k8 fragments: A a0 (g, q), a1 (g + 8, q), a2 (g, q + 4),
  // a3 (g + 8, q + 4); B b0 (k q, n g), b1 (k q + 4, n g).
  std::array<llvm::Value*, 4> tf32AFragment(const SmemTile& t, llvm::Value* r0, int64_t k0, llvm::Value* lane) {
    llvm::Value* g = b_.CreateAdd(r0, b_.CreateLShr(lane, b_.getInt32(2)));
    llvm::Value* g8 = b_.CreateAdd(g, b_.getInt32(8));
    llvm::Value* q = b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(k0)), b_.CreateAnd(lane, b_.getInt32(3)));
    llvm::Value* q4 = b_.CreateAdd(q, b_.getInt32(4));
    return {loadTf32(t, g, q), loadTf32(t, g8, q), loadTf32(t, g, q4), loadTf32(t, g8, q4)};
  }

  std::array<llvm::Value*, 2> tf32BFragment(const SmemTile& t, int64_t k0, llvm::Value* n0, llvm::Value* lane) {
    llvm::Value* n = b_.CreateAdd(n0, b_.CreateLShr(lane, b_.getInt32(2)));
    llvm::Value* q = b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(k0)), b_.CreateAnd(lane, b_.getInt32(3)));
    return {loadTf32(t, q, n), loadTf32(t, b_.CreateAdd(q, b_.getInt32(4)), n)};
  }

  // The operand `e` if the pipeline holds it in shared memory.
  std::optional<SmemTile> pipelined(ExprId e) {
    const auto* n = ast_.expr(e).dyn<ast::Name>();
    if (n == nullptr) return std::nullopt;
    auto it = pipeStage_.find(std::string(ast_.str(n->id)));
    if (it == pipeStage_.end()) return std::nullopt;
    return it->second;
  }

  // Writes tile `e` (as type `t`) into the scratch buffer at `offset`, swizzled.
  // The caller places the barriers.
  SmemTile stageSwizzled(ExprId e, TypeId t, uint64_t offset) {
    auto [v, mma] = operandValue(e, t);
    return writeSwizzled(v, t, mma, offset);
  }

  // A product operand's value as type `t`: in the mma layout when it is
  // produced in it (the bool), else in the standard layout.
  std::pair<TileVal, bool> operandValue(ExprId e, TypeId t) {
    bool mma = isMmaExpr(e) && mmaLayoutOf(t).has_value();
    return {evalAs(e, t, mma), mma};
  }

  // Writes `v` (type `t`, mma layout when `mma`) into the scratch buffer at
  // `offset`, swizzled. The caller places the barriers.
  SmemTile writeSwizzled(const TileVal& v, TypeId t, bool mma, uint64_t offset) {
    Layout l = layoutFor(t, mma);
    const std::vector<int64_t>& shape = types_.get(t).shape;
    SmemTile st;
    st.rows = shape[0];
    st.cols = shape[1];
    st.bytes = types_.byteSize(elementOf(t));
    llvm::Value* buffer = scratch(offset + static_cast<uint64_t>(l.n) * st.bytes);
    st.base = b_.CreateGEP(b_.getInt8Ty(), buffer, b_.getInt32(static_cast<uint32_t>(offset)));
    llvm::Type* mt = llvmType(elementOf(t));
    for (unsigned s = 0; s < l.slots; ++s) {
      llvm::Value* el = clampIndex(elementIndex(l, s), l);
      llvm::Value* r = b_.CreateLShr(el, b_.getInt32(static_cast<uint32_t>(log2i(st.cols))));
      llvm::Value* c = b_.CreateAnd(el, b_.getInt32(static_cast<uint32_t>(st.cols - 1)));
      llvm::Value* x = v.slots[l.uniform ? 0 : s];
      if (x->getType() != mt) x = b_.CreateBitCast(x, mt);
      llvm::Value* p = smemElement(st, r, c);
      if (l.partial) {
        guarded(slotValid(l), [&] { b_.CreateStore(x, p); });
      } else {
        b_.CreateStore(x, p);
      }
    }
    return st;
  }

  // The product on CUDA cores (float32, float64, integers, small or odd
  // shapes): both operands staged row-major, each accumulator element loops
  // over the depth.
  TileVal cudaCoreProduct(ExprId x, ExprId y, TileVal acc, TypeId accT, int64_t rows, int64_t depth,
                          int64_t cols) {
    TypeId accE = types_.get(accT).element;
    const Type& ae = types_.get(accE);
    // Compute in the accumulator's dtype, float32 for 16-bit floats.
    TypeId calc = ae.kind == TypeKind::Float && ae.bits < 32 ? types_.float32()
                  : types_.isTFloat32(accE) ? types_.float32() : accE;
    TypeId xt = types_.tile(calc, {rows, depth});
    TypeId yt = types_.tile(calc, {depth, cols});
    unsigned bytes = types_.byteSize(calc);
    uint64_t yOffset = static_cast<uint64_t>(rows * depth) * bytes;
    llvm::Value* buffer = scratch(yOffset + static_cast<uint64_t>(depth * cols) * bytes);
    llvm::Type* ct = llvmType(calc);
    barrier();
    for (auto [e, t, off] : {std::tuple{x, xt, uint64_t(0)}, std::tuple{y, yt, yOffset}}) {
      Layout l = layoutOf(t);
      TileVal v = evalAs(e, t);
      for (unsigned s = 0; s < l.slots; ++s) {
        llvm::Value* index = b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(off / bytes)), clampIndex(elementIndex(l, s), l));
        llvm::Value* p = b_.CreateGEP(ct, buffer, index);
        llvm::Value* val = v.slots[l.uniform ? 0 : s];
        if (l.partial) {
          guarded(slotValid(l), [&] { b_.CreateStore(val, p); });
        } else {
          b_.CreateStore(val, p);
        }
      }
    }
    barrier();
    Layout la = layoutFor(accT, acc.mma);
    std::vector<llvm::Value*> rowIdx, colIdx, init;
    for (unsigned s = 0; s < la.slots; ++s) {
      llvm::Value* el = clampIndex(elementIndex(la, s), la);
      rowIdx.push_back(b_.CreateLShr(el, b_.getInt32(static_cast<uint32_t>(log2i(cols)))));
      colIdx.push_back(b_.CreateAnd(el, b_.getInt32(static_cast<uint32_t>(cols - 1))));
      init.push_back(convert(acc.slots[la.uniform ? 0 : s], accE, calc));
    }
    bool isFloat = types_.isFloat(calc);
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    auto* body = llvm::BasicBlock::Create(context_, "mma.k", function_);
    auto* done = llvm::BasicBlock::Create(context_, "mma.done", function_);
    b_.CreateBr(body);
    b_.SetInsertPoint(body);
    llvm::PHINode* k = b_.CreatePHI(b_.getInt32Ty(), 2);
    k->addIncoming(b_.getInt32(0), pre);
    std::vector<llvm::PHINode*> sums;
    std::vector<llvm::Value*> next;
    for (unsigned s = 0; s < la.slots; ++s) {
      llvm::PHINode* phi = b_.CreatePHI(ct, 2);
      phi->addIncoming(init[s], pre);
      sums.push_back(phi);
    }
    for (unsigned s = 0; s < la.slots; ++s) {
      llvm::PHINode* phi = sums[s];
      llvm::Value* a = b_.CreateLoad(ct, b_.CreateGEP(ct, buffer, b_.CreateAdd(b_.CreateMul(rowIdx[s], b_.getInt32(static_cast<uint32_t>(depth))), k)));
      llvm::Value* bv = b_.CreateLoad(ct, b_.CreateGEP(ct, buffer,
          b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(yOffset / bytes)),
                       b_.CreateAdd(b_.CreateMul(k, b_.getInt32(static_cast<uint32_t>(cols))), colIdx[s]))));
      next.push_back(isFloat ? b_.CreateIntrinsic(llvm::Intrinsic::fmuladd, {ct}, {a, bv, phi})
                             : b_.CreateAdd(b_.CreateMul(a, bv), phi));
    }
    llvm::Value* kn = b_.CreateAdd(k, b_.getInt32(1));
    llvm::BasicBlock* latch = b_.GetInsertBlock();
    k->addIncoming(kn, latch);
    for (unsigned s = 0; s < la.slots; ++s) sums[s]->addIncoming(next[s], latch);
    b_.CreateCondBr(b_.CreateICmpULT(kn, b_.getInt32(static_cast<uint32_t>(depth))), body, done);
    b_.SetInsertPoint(done);
    TileVal out;
    out.mma = acc.mma;
    for (unsigned s = 0; s < la.slots; ++s) out.slots.push_back(convert(next[s], calc, accE));
    return out;
  }

  // --- software pipelining of tensor-core operand loads --------------------

  // Names assigned anywhere in `body` (recursively).
  void assignedNames(std::span<const StmtId> body, std::set<std::string>& out) const {
    for (StmtId id : body) {
      const frontend::Stmt& s = ast_.stmt(id);
      switch (s.kind()) {
        case frontend::StmtKind::Assign:
          for (ExprId t : ast_.list(s.as<ast::Assign>().targets)) {
            if (const auto* n = ast_.expr(t).dyn<ast::Name>()) out.insert(std::string(ast_.str(n->id)));
          }
          break;
        case frontend::StmtKind::AugAssign:
          if (const auto* n = ast_.expr(s.as<ast::AugAssign>().target).dyn<ast::Name>()) {
            out.insert(std::string(ast_.str(n->id)));
          }
          break;
        case frontend::StmtKind::For: {
          const auto& f = s.as<ast::For>();
          if (const auto* n = ast_.expr(f.target).dyn<ast::Name>()) out.insert(std::string(ast_.str(n->id)));
          assignedNames(ast_.list(f.body), out);
          break;
        }
        case frontend::StmtKind::If:
          assignedNames(ast_.list(s.as<ast::If>().body), out);
          assignedNames(ast_.list(s.as<ast::If>().orelse), out);
          break;
        default:
          break;
      }
    }
  }

  // Visits every expression under `id` (pre-order).
  template <class F>
  void visitExpr(ExprId id, F& f) const {
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

  // Visits every expression the statements read (recursively).
  template <class F>
  void visitStmts(std::span<const StmtId> body, F& f) const {
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
        case frontend::StmtKind::If:
          visitExpr(s.as<ast::If>().test, f);
          visitStmts(ast_.list(s.as<ast::If>().body), f);
          visitStmts(ast_.list(s.as<ast::If>().orelse), f);
          break;
        default:
          break;
      }
    }
  }

  // The operands of a matrix product (`ct.mma`, `ct.matmul`, `@`), if `e` is one.
  bool productOperands(ExprId e, ExprId& x, ExprId& y) const {
    if (isTileCall(e, TileFn::Mma) || isTileCall(e, TileFn::Matmul)) {
      x = arg(e, 0);
      y = arg(e, 1);
      return true;
    }
    if (ast_.expr(e).kind() == frontend::ExprKind::BinOp &&
        ast_.expr(e).as<ast::BinOp>().op == frontend::Operator::MatMult) {
      x = ast_.expr(e).as<ast::BinOp>().left;
      y = ast_.expr(e).as<ast::BinOp>().right;
      return true;
    }
    return false;
  }

  bool isTileCall(ExprId id, TileFn fn) const {
    if (!id.valid() || ast_.expr(id).kind() != frontend::ExprKind::Call) return false;
    const frontend::ExprMeaning& m = inst_.meanings[id.index];
    return m.kind == Intrinsic::TileOp && static_cast<TileFn>(m.payload) == fn;
  }

  // The loads of loop `f` worth pipelining (docs/TILE.md, "Matrix products"):
  // `x = ct.load(A, index=..., shape=...)` at the loop's top level, maybe with
  // `.astype` to its own dtype or to tfloat32, 2-D, zero padding, indices of
  // the loop variable and of names the loop does not assign, 16-bit or 32-bit
  // elements, 16-byte rows; `x` read nowhere in the kernel but as an operand
  // of tensor-core products in this loop.
  std::vector<PipeLoad> planPipeline(const ast::For& f) {
    std::vector<PipeLoad> out;
    std::set<std::string> assigned;
    assignedNames(ast_.list(f.body), assigned);
    std::string loopVar(ast_.str(ast_.expr(f.target).as<ast::Name>().id));
    // Operand uses of each name in tensor-core products of the loop.
    std::map<std::string, int> operandUses;
    std::map<std::string, int> roles;
    auto countOperands = [&](ExprId e) {
      ExprId x, y;
      if (!productOperands(e, x, y)) return;
      if (!isMmaExpr(e)) return;
      int role = 1;  // 1: left (A), 2: right (B)
      for (ExprId o : {x, y}) {
        if (const auto* n = ast_.expr(o).dyn<ast::Name>()) {
          std::string nm(ast_.str(n->id));
          ++operandUses[nm];
          roles[nm] |= role;
        }
        role = 2;
      }
    };
    visitStmts(ast_.list(f.body), countOperands);
    // All reads of each name in the whole kernel.
    std::map<std::string, int> reads;
    auto countReads = [&](ExprId e) {
      if (const auto* n = ast_.expr(e).dyn<ast::Name>()) {
        if (inst_.exprTypes[e.index].valid()) ++reads[std::string(ast_.str(n->id))];
      }
    };
    const ast::FunctionDef& def = *ast_.stmt(fn_.stmt).functionDef();
    visitStmts(ast_.list(def.body), countReads);
    uint64_t stageBytes = 0;
    std::set<std::string> seen;
    for (StmtId id : ast_.list(f.body)) {
      const frontend::Stmt& s = ast_.stmt(id);
      if (s.kind() != frontend::StmtKind::Assign) continue;
      const auto& a = s.as<ast::Assign>();
      if (ast_.list(a.targets).size() != 1) continue;
      const auto* n = ast_.expr(ast_.list(a.targets)[0]).dyn<ast::Name>();
      if (n == nullptr) continue;
      std::string name(ast_.str(n->id));
      ExprId value = a.value;
      TypeId target = typeOf(ast_.list(a.targets)[0]);
      if (isTileCall(value, TileFn::Astype)) value = arg(value, 0);
      if (!isTileCall(value, TileFn::Load)) continue;
      // A load with `order=` permutes its tile (not a plain copy of array rows).
      if (!accessOrder(value).empty()) continue;
      TypeId loaded = typeOf(value);
      TypeId le = elementOf(loaded);
      TypeId te = elementOf(target);
      bool sameType = le == te;
      bool toTf32 = le == types_.float32() && types_.isTFloat32(te);
      bool halfType = types_.isHalf(le) || types_.isBFloat16(le);
      if (!(sameType && halfType) && !toTf32) continue;
      const std::vector<int64_t>& shape = types_.get(loaded).shape;
      if (shape.size() != 2 || shape[1] * types_.byteSize(le) < 16) continue;
      // Zero padding only (what cp.async's zero fill gives).
      ExprId pad = arg(value, 4);
      if (pad.valid()) {
        auto mode = static_cast<TileFn>(inst_.meanings[pad.index].payload);
        if (mode != TileFn::PadZero && mode != TileFn::PadUndetermined) continue;
      }
      if (ast_.expr(arg(value, 0)).kind() != frontend::ExprKind::Name) continue;
      bool pure = true;
      auto indexNames = [&](ExprId e) {
        if (const auto* in = ast_.expr(e).dyn<ast::Name>()) {
          std::string nm(ast_.str(in->id));
          if (nm != loopVar && assigned.count(nm) && inst_.exprTypes[e.index].valid()) pure = false;
        }
      };
      visitExpr(arg(value, 1), indexNames);
      if (!pure || seen.count(name)) continue;
      // Used only as a product operand in this loop, assigned only here.
      int uses = operandUses.count(name) ? operandUses[name] : 0;
      if (uses == 0 || reads[name] != uses) continue;
      seen.insert(name);
      PipeLoad p;
      p.name = name;
      p.call = value;
      p.tileType = loaded;
      p.bytes = static_cast<uint64_t>(shape[0] * shape[1]) * types_.byteSize(le);
      uint64_t rowBytes = static_cast<uint64_t>(shape[1]) * types_.byteSize(le);
      if (wgmma_ && halfType && sameType) {
        // wgmma's canonical layouts: A K-major, B MN-major (docs/TILE.md).
        if (roles[name] == 1 && rowBytes == 64) p.format = SmemFormat::KMajor64;
        if (roles[name] == 1 && rowBytes == 128) p.format = SmemFormat::KMajor128;
        if (roles[name] == 2 && rowBytes % 128 == 0 && shape[0] % 16 == 0) p.format = SmemFormat::MNMajor128;
      }
      p.offset = stageBytes;
      stageBytes += (p.bytes + 1023) / 1024 * 1024;
      out.push_back(p);
    }
    // A name assigned twice in the loop is not a simple stream.
    for (const PipeLoad& p : out) {
      int count = 0;
      for (StmtId id : ast_.list(f.body)) {
        std::set<std::string> names;
        assignedNames(std::span<const StmtId>(&id, 1), names);
        count += static_cast<int>(names.count(p.name));
      }
      if (count != 1) return {};
    }
    return out;
  }

  static constexpr uint64_t kStaticShared = 48 * 1024;
  // Stages of a pipelined loop, at most: 6 measured 5-10 % faster than 4 where
  // shared memory allows more (docs/BENCHMARKS.md, session 4), 8 no better.
  static constexpr uint64_t kMaxStages = 6;

  // Shared memory the products of loop `f` need for operands the pipeline does
  // not hold (staged per product, after the ring).
  uint64_t stagedBytes(const ast::For& f, const std::vector<PipeLoad>& pipes) {
    uint64_t most = 0;
    auto visit = [&](ExprId e) {
      ExprId x, y;
      if (!productOperands(e, x, y)) return;
      uint64_t bytes = 0;
      for (ExprId o : {x, y}) {
        const auto* n = ast_.expr(o).dyn<ast::Name>();
        bool held = n != nullptr && std::any_of(pipes.begin(), pipes.end(), [&](const PipeLoad& p) {
                      return p.name == ast_.str(n->id);
                    });
        if (!held) bytes += (static_cast<uint64_t>(elementsOf(typeOf(o))) * 4 + 127) / 128 * 128;
      }
      most = std::max(most, bytes);
    };
    visitStmts(ast_.list(f.body), visit);
    return std::min(most, kStaticShared);
  }

  // Issues the copies of every pipelined load for the iteration whose loop
  // variable is `value` into `stage` (i8 addrspace(3)*); `active` false fills
  // zeros without reading. cp.async of 16-byte chunks when the rows are
  // 16-byte aligned and contiguous, else element by element.
  // Whether pipelined load `p`'s rows are 16-byte aligned and contiguous (its
  // array's strides and data pointer: uniform, computed once before the loop).
  llvm::Value* pipeAligned(const PipeLoad& p) {
    const ArrayArgs& arr = arrayArg(arg(p.call, 0));
    unsigned perChunk = 16 / types_.byteSize(elementOf(p.tileType));
    llvm::Value* ok = b_.CreateICmpEQ(arr.strides[1], b_.getInt64(1));
    ok = b_.CreateAnd(ok, b_.CreateICmpEQ(b_.CreateAnd(arr.strides[0], b_.getInt64(perChunk - 1)), b_.getInt64(0)));
    return b_.CreateAnd(ok, b_.CreateICmpEQ(b_.CreateAnd(b_.CreatePtrToInt(arr.data, b_.getInt64Ty()), b_.getInt64(15)),
                                            b_.getInt64(0)));
  }

  void issuePipe(const std::vector<PipeLoad>& pipes, bool aligned, llvm::Value* stage, llvm::Value* active) {
    for (const PipeLoad& p : pipes) {
      const ArrayArgs& arr = arrayArg(arg(p.call, 0));
      Addressing a = addressing(p.call, p.tileType);
      TypeId e = elementOf(p.tileType);
      unsigned bytes = types_.byteSize(e);
      SmemTile t;
      t.base = b_.CreateGEP(b_.getInt8Ty(), stage, b_.getInt32(static_cast<uint32_t>(p.offset)));
      t.rows = a.shape[0];
      t.cols = a.shape[1];
      t.bytes = bytes;
      t.format = p.format;
      unsigned perChunk = 16 / bytes;
      llvm::Value* row0 = b_.CreateMul(a.tileIndex[0], b_.getInt64(t.rows));
      llvm::Value* col0 = b_.CreateMul(a.tileIndex[1], b_.getInt64(t.cols));
      llvm::Value* ok = b_.getInt1(aligned);
      auto* async = llvm::BasicBlock::Create(context_, "pipe.async", function_);
      auto* sync = llvm::BasicBlock::Create(context_, "pipe.sync", function_);
      auto* done = llvm::BasicBlock::Create(context_, "pipe.done", function_);
      b_.CreateCondBr(ok, async, sync);
      // cp.async: chunk q of the tile, q = it * threads + tid.
      b_.SetInsertPoint(async);
      int64_t chunks = t.rows * t.cols / perChunk;
      int64_t perRow = t.cols / perChunk;
      // A tile wholly inside its array (every tile but the last along each
      // axis; uniform across the CTA): no bounds checks, no zero fill, and
      // the addresses a fixed step apart (docs/TILE.md, "Matrix products").
      if (threads_ % perRow == 0) {
        llvm::Value* inside = b_.CreateAnd(
            active, b_.CreateAnd(b_.CreateICmpSLE(b_.CreateAdd(row0, b_.getInt64(t.rows)), arr.shape[0]),
                                 b_.CreateICmpSLE(b_.CreateAdd(col0, b_.getInt64(t.cols)), arr.shape[1])));
        auto* whole = llvm::BasicBlock::Create(context_, "pipe.whole", function_);
        auto* edge = llvm::BasicBlock::Create(context_, "pipe.edge", function_);
        b_.CreateCondBr(inside, whole, edge);
        b_.SetInsertPoint(whole);
        llvm::Value* r = b_.CreateUDiv(tid_, b_.getInt32(static_cast<uint32_t>(perRow)));
        llvm::Value* cc = b_.CreateURem(tid_, b_.getInt32(static_cast<uint32_t>(perRow)));
        llvm::Value* first = b_.CreateAdd(b_.CreateMul(b_.CreateAdd(row0, b_.CreateZExt(r, b_.getInt64Ty())), arr.strides[0]),
                                          b_.CreateAdd(col0, b_.CreateZExt(b_.CreateMul(cc, b_.getInt32(perChunk)), b_.getInt64Ty())));
        llvm::Value* src = b_.CreateAddrSpaceCast(b_.CreateGEP(llvmType(e), arr.data, first),
                                                  llvm::PointerType::get(context_, 1));
        uint32_t rowsPerPass = static_cast<uint32_t>(threads_ / perRow);
        llvm::Value* pass = b_.CreateMul(arr.strides[0], b_.getInt64(rowsPerPass));
        for (int64_t base = 0; base < chunks; base += threads_) {
          auto body = [&] {
            llvm::Value* rr = b_.CreateAdd(r, b_.getInt32(static_cast<uint32_t>(base / perRow)));
            llvm::Value* dst = b_.CreateGEP(b_.getInt8Ty(), t.base, smemOffset(t, rr, cc));
            b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_cp_async_cg_shared_global_16), {dst, src});
          };
          if (base + threads_ <= chunks) {
            body();
          } else {
            guarded(b_.CreateICmpULT(b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(base)), tid_),
                                     b_.getInt32(static_cast<uint32_t>(chunks))), body);
          }
          if (base + threads_ < chunks) src = b_.CreateGEP(llvmType(e), src, pass);
        }
        b_.CreateBr(done);
        b_.SetInsertPoint(edge);
      }
      for (int64_t base = 0; base < chunks; base += threads_) {
        llvm::Value* q = b_.CreateAdd(b_.getInt32(static_cast<uint32_t>(base)), tid_);
        auto body = [&] {
          llvm::Value* r = b_.CreateUDiv(q, b_.getInt32(static_cast<uint32_t>(perRow)));
          llvm::Value* cc = b_.CreateURem(q, b_.getInt32(static_cast<uint32_t>(perRow)));
          llvm::Value* gr = b_.CreateAdd(row0, b_.CreateZExt(r, b_.getInt64Ty()));
          llvm::Value* gc = b_.CreateAdd(col0, b_.CreateZExt(b_.CreateMul(cc, b_.getInt32(perChunk)), b_.getInt64Ty()));
          llvm::Value* left = b_.CreateSub(arr.shape[1], gc);
          llvm::Value* n = b_.CreateSelect(b_.CreateICmpSLT(left, b_.getInt64(perChunk)), left, b_.getInt64(perChunk));
          llvm::Value* valid = b_.CreateAnd(active, b_.CreateAnd(b_.CreateICmpSLT(gr, arr.shape[0]),
                                                                 b_.CreateICmpSGT(n, b_.getInt64(0))));
          n = b_.CreateSelect(valid, n, b_.getInt64(0));
          llvm::Value* offset = b_.CreateSelect(valid, b_.CreateAdd(b_.CreateMul(gr, arr.strides[0]), gc), b_.getInt64(0));
          llvm::Value* src = b_.CreateAddrSpaceCast(b_.CreateGEP(llvmType(e), arr.data, offset),
                                                    llvm::PointerType::get(context_, 1));
          llvm::Value* dst = b_.CreateGEP(b_.getInt8Ty(), t.base, smemOffset(t, r, cc));
          llvm::Value* size = b_.CreateTrunc(b_.CreateMul(n, b_.getInt64(bytes)), b_.getInt32Ty());
          b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_cp_async_cg_shared_global_16_s), {dst, src, size});
        };
        if (base + threads_ <= chunks) {
          body();
        } else {
          guarded(b_.CreateICmpULT(q, b_.getInt32(static_cast<uint32_t>(chunks))), body);
        }
      }
      b_.CreateBr(done);
      // Element by element (unaligned or strided arrays), in a rolled loop
      // (q = tid, tid + threads, ...) so that nothing per element stays live
      // across the pipelined loop.
      b_.SetInsertPoint(sync);
      int64_t count = t.rows * t.cols;
      llvm::Type* mt = llvmType(e);
      {
        llvm::BasicBlock* pre = b_.GetInsertBlock();
        auto* loop = llvm::BasicBlock::Create(context_, "pipe.sync.loop", function_);
        auto* exit = llvm::BasicBlock::Create(context_, "pipe.sync.exit", function_);
        b_.CreateCondBr(b_.CreateICmpULT(tid_, b_.getInt32(static_cast<uint32_t>(count))), loop, exit);
        b_.SetInsertPoint(loop);
        llvm::PHINode* q = b_.CreatePHI(b_.getInt32Ty(), 2);
        q->addIncoming(tid_, pre);
        llvm::Value* r = b_.CreateLShr(q, b_.getInt32(static_cast<uint32_t>(log2i(t.cols))));
        llvm::Value* c = b_.CreateAnd(q, b_.getInt32(static_cast<uint32_t>(t.cols - 1)));
        llvm::Value* gr = b_.CreateAdd(row0, b_.CreateZExt(r, b_.getInt64Ty()));
        llvm::Value* gc = b_.CreateAdd(col0, b_.CreateZExt(c, b_.getInt64Ty()));
        llvm::Value* valid = b_.CreateAnd(active, b_.CreateAnd(b_.CreateICmpSLT(gr, arr.shape[0]),
                                                               b_.CreateICmpSLT(gc, arr.shape[1])));
        llvm::Value* dst = smemElement(t, r, c);
        llvm::BasicBlock* before = b_.GetInsertBlock();
        auto* then = llvm::BasicBlock::Create(context_, "pipe.elem", function_);
        auto* next = llvm::BasicBlock::Create(context_, "pipe.next", function_);
        b_.CreateCondBr(valid, then, next);
        b_.SetInsertPoint(then);
        llvm::Value* offset = b_.CreateAdd(b_.CreateMul(gr, arr.strides[0]), b_.CreateMul(gc, arr.strides[1]));
        llvm::Value* x = b_.CreateLoad(mt, b_.CreateGEP(mt, arr.data, offset));
        b_.CreateBr(next);
        b_.SetInsertPoint(next);
        llvm::PHINode* phi = b_.CreatePHI(mt, 2);
        phi->addIncoming(x, then);
        phi->addIncoming(llvm::Constant::getNullValue(mt), before);
        b_.CreateStore(phi, dst);
        llvm::Value* qn = b_.CreateAdd(q, b_.getInt32(threads_));
        q->addIncoming(qn, b_.GetInsertBlock());
        llvm::BranchInst* latch =
            b_.CreateCondBr(b_.CreateICmpULT(qn, b_.getInt32(static_cast<uint32_t>(count))), loop, exit);
        llvm::MDNode* disable = llvm::MDNode::get(context_, {llvm::MDString::get(context_, "llvm.loop.unroll.disable")});
        llvm::MDNode* loopId = llvm::MDNode::getDistinct(context_, {nullptr, disable});
        loopId->replaceOperandWith(0, loopId);
        latch->setMetadata(llvm::LLVMContext::MD_loop, loopId);
        b_.SetInsertPoint(exit);
      }
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
    }
    b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_cp_async_commit_group));
  }

  // --- statements ---------------------------------------------------------

  // The allocas of variable `name` holding type `t` (one per slot; a name
  // rebound to another type gets other allocas), made on first use.
  const std::vector<llvm::AllocaInst*>& storage(const std::string& name, TypeId t) {
    auto key = std::make_pair(name, t.index);
    auto it = vars_.find(key);
    if (it != vars_.end()) return it->second;
    std::vector<llvm::AllocaInst*> slots;
    unsigned count = layoutOf(t).slots;
    for (unsigned s = 0; s < count; ++s) slots.push_back(entryAlloca(llvmType(elementOf(t)), name));
    return vars_[key] = slots;
  }

  void assignName(ExprId target, const TileVal& v, TypeId from) {
    std::string name(ast_.str(ast_.expr(target).as<ast::Name>().id));
    TypeId to = typeOf(target);
    if (!to.valid() || constOf(target) != nullptr) return;  // a compile-time constant
    TileVal c = spread(v, from, to, mmaVars_.count({name, to.index}) != 0);
    const auto& slots = storage(name, to);
    for (size_t s = 0; s < slots.size(); ++s) b_.CreateStore(c.slots[s], slots[s]);
  }

  void lowerBody(std::span<const StmtId> body) {
    for (StmtId id : body) {
      if (b_.GetInsertBlock()->getTerminator()) return;
      lowerStmt(id);
    }
  }

  void lowerStmt(StmtId id) {
    const frontend::Stmt& s = ast_.stmt(id);
    switch (s.kind()) {
      case frontend::StmtKind::Assign: {
        const auto& a = s.as<ast::Assign>();
        ExprId target = ast_.list(a.targets)[0];
        if (ast_.expr(target).is<ast::Tuple>()) {
          lowerTupleAssign(target, a.value);
          return;
        }
        TypeId to = typeOf(target);
        if (!to.valid() || constOf(target) != nullptr) return;
        if (const auto* n = ast_.expr(target).dyn<ast::Name>()) {
          // A load the pipeline already copies into shared memory.
          if (pipeStage_.count(std::string(ast_.str(n->id)))) return;
        }
        TileVal v = evalAs(a.value, to, isMmaExpr(a.value));
        for (ExprId t : ast_.list(a.targets)) assignName(t, v, to);
        return;
      }
      case frontend::StmtKind::AugAssign: {
        const auto& a = s.as<ast::AugAssign>();
        TypeId result = inst_.stmtResultTypes[id.index];
        bool m = isMmaExpr(a.target);
        TileVal v = binary(a.op, a.target, a.value, inst_.stmtOpTypes[id.index], result, m);
        assignName(a.target, v, result);
        return;
      }
      case frontend::StmtKind::Expr: {
        ExprId e = s.as<ast::ExprStmt>().value;
        if (constOf(e) == nullptr) eval(e);
        return;
      }
      case frontend::StmtKind::Return:
        if (exit_ != nullptr) {
          lowerInlineReturn(s.as<ast::Return>());
          return;
        }
        b_.CreateRetVoid();
        return;
      case frontend::StmtKind::For:
        if (!lowerPipelinedFor(id, s.as<ast::For>())) lowerFor(id, s.as<ast::For>());
        return;
      case frontend::StmtKind::If: {
        const auto& i = s.as<ast::If>();
        if (const ConstValue* c = constOf(i.test)) {
          // Decided at compile time: only the taken branch was typed.
          lowerBody(ast_.list(frontend::truthOf(*c) ? i.body : i.orelse));
          return;
        }
        llvm::Value* cond = scalarAs(i.test, types_.boolean());
        auto* then = llvm::BasicBlock::Create(context_, "if.then", function_);
        auto* other = llvm::BasicBlock::Create(context_, "if.else", function_);
        auto* done = llvm::BasicBlock::Create(context_, "if.done", function_);
        b_.CreateCondBr(cond, then, other);
        b_.SetInsertPoint(then);
        lowerBody(ast_.list(i.body));
        if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(done);
        b_.SetInsertPoint(other);
        lowerBody(ast_.list(i.orelse));
        if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(done);
        b_.SetInsertPoint(done);
        return;
      }
      default:
        return;
    }
  }

  // A product operand staged before the enclosing loop (stageResident), if `e`
  // names one.
  std::optional<SmemTile> residentOperand(ExprId e) {
    const auto* n = ast_.expr(e).dyn<ast::Name>();
    if (n == nullptr) return std::nullopt;
    auto it = resident_.find({std::string(ast_.str(n->id)), typeOf(e).index});
    if (it == resident_.end()) return std::nullopt;
    return it->second;
  }

  // Before loop `f`: the 16-bit float operands of its tensor-core products
  // that name a variable the loop does not assign (flash attention's Q tile,
  // loaded before the loop) are written into swizzled shared memory once,
  // instead of in every iteration; the body's scratch uses come after them.
  // Returns the bytes reserved and the variables staged.
  std::pair<uint64_t, std::vector<std::pair<std::string, uint32_t>>> stageResident(const ast::For& f) {
    std::set<std::string> assigned;
    assignedNames(ast_.list(f.body), assigned);
    std::vector<std::pair<ExprId, std::pair<std::string, uint32_t>>> operands;
    std::set<std::pair<std::string, uint32_t>> seen;
    auto visit = [&](ExprId e) {
      ExprId x, y;
      if (!productOperands(e, x, y) || !isMmaExpr(e) || !productInput(x, y).valid()) return;
      for (ExprId o : {x, y}) {
        const auto* n = ast_.expr(o).dyn<ast::Name>();
        if (n == nullptr || pipelined(o) || residentOperand(o)) continue;
        std::string name(ast_.str(n->id));
        TypeId t = typeOf(o);
        TypeId el = elementOf(t);
        if (assigned.count(name) || !(types_.isHalf(el) || types_.isBFloat16(el))) continue;
        if (seen.insert({name, t.index}).second) operands.push_back({o, {name, t.index}});
      }
    };
    visitStmts(ast_.list(f.body), visit);
    if (operands.empty()) return {};
    uint64_t offset = 0;
    std::vector<std::pair<std::pair<std::string, uint32_t>, SmemTile>> staged;
    barrier();
    for (const auto& [o, key] : operands) {
      TypeId t = typeOf(o);
      staged.push_back({key, stageSwizzled(o, t, offset)});
      offset += (static_cast<uint64_t>(elementsOf(t)) * types_.byteSize(elementOf(t)) + 1023) / 1024 * 1024;
    }
    barrier();
    std::vector<std::pair<std::string, uint32_t>> keys;
    for (auto& [key, st] : staged) {
      resident_[key] = st;
      keys.push_back(key);
    }
    residentBytes_ += offset;
    return {offset, keys};
  }

  void lowerFor(StmtId id, const ast::For& f) {
    auto [reserved, keys] = stageResident(f);
    bool products = false;
    auto visit = [&](ExprId e) {
      ExprId x, y;
      products = products || (productOperands(e, x, y) && isMmaExpr(e));
    };
    visitStmts(ast_.list(f.body), visit);
    lowerLoop(id, f, products);
    residentBytes_ -= reserved;
    for (const auto& key : keys) resident_.erase(key);
  }

  // `opaqueTid`: the body reads the thread id anew (a volatile `mov %tid.x`)
  // so that LLVM does not hoist the body's per-slot address arithmetic out of
  // the loop: in a loop of tensor-core products and softmax-like steps
  // (flash attention) hundreds of such loop-invariant values would stay live
  // across the loop and spill.
  void lowerLoop(StmtId id, const ast::For& f, bool opaqueTid = false) {
    const auto& call = ast_.expr(f.iter).as<ast::Call>();
    auto args = ast_.list(call.args);
    TypeId it = inst_.rangeTypes[id.index];
    llvm::Value* start = args.size() >= 2 ? scalarAs(args[0], it) : constantOf(ConstValue::ofInt(0), it);
    llvm::Value* stop = scalarAs(args.size() >= 2 ? args[1] : args[0], it);
    llvm::Value* step = args.size() == 3 ? scalarAs(args[2], it) : constantOf(ConstValue::ofInt(1), it);
    std::string name(ast_.str(ast_.expr(f.target).as<ast::Name>().id));
    llvm::AllocaInst* var = storage(name, it)[0];
    llvm::AllocaInst* counter = entryAlloca(llvmType(it), name + ".next");
    b_.CreateStore(start, counter);
    auto* head = llvm::BasicBlock::Create(context_, "for.head", function_);
    auto* body = llvm::BasicBlock::Create(context_, "for.body", function_);
    auto* done = llvm::BasicBlock::Create(context_, "for.done", function_);
    b_.CreateBr(head);
    b_.SetInsertPoint(head);
    llvm::Value* i = b_.CreateLoad(llvmType(it), counter);
    llvm::Value* zero = llvm::ConstantInt::get(i->getType(), 0);
    llvm::Value* more = b_.CreateSelect(b_.CreateICmpSGT(step, zero), b_.CreateICmpSLT(i, stop), b_.CreateICmpSGT(i, stop));
    b_.CreateCondBr(more, body, done);
    b_.SetInsertPoint(body);
    b_.CreateStore(i, var);
    b_.CreateStore(b_.CreateAdd(i, step), counter);
    llvm::Value* savedTid = tid_;
    if (opaqueTid) {
      auto* type = llvm::FunctionType::get(b_.getInt32Ty(), false);
      tid_ = b_.CreateCall(llvm::InlineAsm::get(type, "mov.u32 $0, %tid.x;", "=r", true), {});
    }
    ++loopDepth_;
    lowerBody(ast_.list(f.body));
    --loopDepth_;
    tid_ = savedTid;
    if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(head);
    b_.SetInsertPoint(done);
  }

  // A loop whose tensor-core operand loads are pipelined: `stages` shared
  // buffers; iteration j waits for its own copies (cp.async.wait_group
  // ahead - 1), synchronises the CTA and issues the copies of iteration
  // j + ahead into buffer (j + ahead) % stages before computing. ahead is
  // stages - 1 (the barrier ends every read of the buffer iteration j - 1 used),
  // or stages - 2 when wgmma products stay in flight across one iteration
  // (wgmma.wait_group 1 ends iteration j - 1's reads of iteration j - 2's buffer).
  bool lowerPipelinedFor(StmtId id, const ast::For& f) {
    if (!pipeStage_.empty()) return false;
    std::vector<PipeLoad> pipes = planPipeline(f);
    if (pipes.empty()) return false;
    uint64_t stageBytes = 0;
    for (const PipeLoad& p : pipes) stageBytes = std::max(stageBytes, p.offset + (p.bytes + 127) / 128 * 128);
    // Two CTAs per SM share its shared memory (docs/TILE.md, "Matrix products").
    uint64_t budget = twoCtas_ ? std::max<uint64_t>(kStaticShared, std::min<uint64_t>(maxShared_, (maxShared_ + 1024) / 2 - 2048))
                               : maxShared_ - 2048;
    uint64_t staged = stagedBytes(f, pipes);
    uint64_t stages = staged >= budget ? 0 : std::min<uint64_t>(kMaxStages, (budget - staged) / stageBytes);
    if (stages < 2) return false;
    bool wgmmaLoop = wgmma_ && std::any_of(pipes.begin(), pipes.end(), [](const PipeLoad& p) {
      return p.format == SmemFormat::MNMajor128;
    });
    // One wgmma group stays in flight across iterations (docs/BENCHMARKS.md).
    bool defer = wgmmaLoop && stages >= 3;
    uint64_t ahead = defer ? stages - 2 : stages - 1;
    // The ring of stages is the scratch buffer's start; while the body is
    // lowered, its other scratch uses come after it (ringInUse_).
    llvm::Value* ring = scratch(stages * stageBytes);
    auto stageBase = [&](llvm::Value* index) {
      return b_.CreateGEP(b_.getInt8Ty(), ring, b_.CreateMul(index, b_.getInt32(static_cast<uint32_t>(stageBytes))));
    };
    const auto& call = ast_.expr(f.iter).as<ast::Call>();
    auto args = ast_.list(call.args);
    TypeId it = inst_.rangeTypes[id.index];
    llvm::Value* start = args.size() >= 2 ? scalarAs(args[0], it) : constantOf(ConstValue::ofInt(0), it);
    llvm::Value* stop = scalarAs(args.size() >= 2 ? args[1] : args[0], it);
    llvm::Value* step = args.size() == 3 ? scalarAs(args[2], it) : constantOf(ConstValue::ofInt(1), it);
    std::string name(ast_.str(ast_.expr(f.target).as<ast::Name>().id));
    llvm::AllocaInst* var = storage(name, it)[0];
    llvm::Value* zero = llvm::ConstantInt::get(start->getType(), 0);
    llvm::Value* up = b_.CreateICmpSGT(step, zero);
    auto inRange = [&](llvm::Value* v) {
      return b_.CreateSelect(up, b_.CreateICmpSLT(v, stop), b_.CreateICmpSGT(v, stop));
    };
    auto nth = [&](llvm::Value* from, uint64_t k) {
      return b_.CreateAdd(from, b_.CreateMul(step, llvm::ConstantInt::get(start->getType(), k)));
    };
    // Two versions of the loop, chosen once: cp.async when every operand's
    // rows are 16-byte aligned and contiguous, else element-wise copies.
    llvm::Value* allAligned = b_.getTrue();
    for (const PipeLoad& p : pipes) allAligned = b_.CreateAnd(allAligned, pipeAligned(p));
    auto* fast = llvm::BasicBlock::Create(context_, "pipe.fast", function_);
    auto* slow = llvm::BasicBlock::Create(context_, "pipe.slow", function_);
    auto* join = llvm::BasicBlock::Create(context_, "pipe.join", function_);
    b_.CreateCondBr(allAligned, fast, slow);
    llvm::AllocaInst* counter = entryAlloca(llvmType(it), name + ".next");
    llvm::AllocaInst* iteration = entryAlloca(b_.getInt32Ty(), name + ".iteration");
    for (bool aligned : {true, false}) {
      b_.SetInsertPoint(aligned ? fast : slow);
      // Prologue: iterations 0 .. ahead - 1.
      for (uint64_t k = 0; k < ahead; ++k) {
        llvm::Value* v = nth(start, k);
        b_.CreateStore(v, var);
        issuePipe(pipes, aligned, stageBase(b_.getInt32(static_cast<uint32_t>(k))), inRange(v));
      }
      b_.CreateStore(start, counter);
      b_.CreateStore(b_.getInt32(0), iteration);
      auto* head = llvm::BasicBlock::Create(context_, "pipe.head", function_);
      auto* body = llvm::BasicBlock::Create(context_, "pipe.body", function_);
      auto* done = llvm::BasicBlock::Create(context_, "pipe.exit", function_);
      b_.CreateBr(head);
      b_.SetInsertPoint(head);
      llvm::Value* i = b_.CreateLoad(llvmType(it), counter);
      b_.CreateCondBr(inRange(i), body, done);
      b_.SetInsertPoint(body);
      b_.CreateStore(b_.CreateAdd(i, step), counter);
      llvm::Value* j = b_.CreateLoad(b_.getInt32Ty(), iteration);
      b_.CreateStore(b_.CreateAdd(j, b_.getInt32(1)), iteration);
      b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_cp_async_wait_group), {b_.getInt32(static_cast<uint32_t>(ahead - 1))});
      if (std::any_of(pipes.begin(), pipes.end(), [](const PipeLoad& p) { return p.format != SmemFormat::Swizzled; })) {
        // wgmma reads shared memory through the async proxy: order the copies' writes.
        asmStatement("fence.proxy.async.shared::cta;");
      }
      barrier();
      llvm::Value* aheadValue = nth(i, ahead);
      b_.CreateStore(aheadValue, var);
      llvm::Value* aheadStage = b_.CreateURem(b_.CreateAdd(j, b_.getInt32(static_cast<uint32_t>(ahead))),
                                              b_.getInt32(static_cast<uint32_t>(stages)));
      issuePipe(pipes, aligned, stageBase(aheadStage), inRange(aheadValue));
      b_.CreateStore(i, var);
      llvm::Value* current = stageBase(b_.CreateURem(j, b_.getInt32(static_cast<uint32_t>(stages))));
      for (const PipeLoad& p : pipes) {
        SmemTile t;
        t.base = b_.CreateGEP(b_.getInt8Ty(), current, b_.getInt32(static_cast<uint32_t>(p.offset)));
        t.rows = types_.get(p.tileType).shape[0];
        t.cols = types_.get(p.tileType).shape[1];
        t.bytes = types_.byteSize(elementOf(p.tileType));
        t.format = p.format;
        pipeStage_[p.name] = t;
      }
      ringInUse_ = stages * stageBytes;
      deferWgmma_ = defer;
      lowerBody(ast_.list(f.body));
      deferWgmma_ = false;
      pipeStage_.clear();
      ringInUse_ = 0;
      if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(head);
      b_.SetInsertPoint(done);
      // The group left in flight ends on this version's own exit: waiting
      // where the versions join lets ptxas see the other version's
      // accumulator copies inside the group and serialise every wgmma (C7514).
      if (defer) asmStatement("wgmma.wait_group.sync.aligned 0;");
      b_.CreateBr(join);
    }
    b_.SetInsertPoint(join);
    b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_cp_async_wait_group), {b_.getInt32(0)});
    return true;
  }


  // --- helpers, tuples, shape operations, argmax/argmin (docs/TILE.md) ----

  // The largest tile of `inst` and of the helpers it calls.
  int64_t largestTile(const frontend::FunctionInstance& inst) const {
    int64_t most = 1;
    for (TypeId t : inst.exprTypes) {
      if (t.valid() && types_.isTile(t)) most = std::max(most, elementsOf(t));
    }
    for (int32_t callee : inst.callees) {
      if (callee >= 0) most = std::max(most, largestTile(typed_.instances[static_cast<size_t>(callee)]));
    }
    return most;
  }

  // The llvm types of the slots of a value of type `t` (a tuple: its
  // elements' slots one after another).
  std::vector<llvm::Type*> slotTypes(TypeId t) {
    std::vector<llvm::Type*> out;
    if (types_.isTuple(t)) {
      for (TypeId e : std::vector<TypeId>(types_.get(t).elements)) {
        std::vector<llvm::Type*> more = slotTypes(e);
        out.insert(out.end(), more.begin(), more.end());
      }
      return out;
    }
    out.assign(layoutOf(t).slots, llvmType(elementOf(t)));
    return out;
  }

  // `id` as the tuple type `to`: each element spread and converted.
  TileVal evalTuple(ExprId id, TypeId to) {
    std::vector<TypeId> elements = types_.get(to).elements;
    TileVal out;
    auto append = [&](const TileVal& v) { out.slots.insert(out.slots.end(), v.slots.begin(), v.slots.end()); };
    if (const ConstValue* c = constOf(id)) {
      for (size_t i = 0; i < elements.size(); ++i) {
        TileVal v;
        v.slots.assign(layoutOf(elements[i]).slots, constantOf(c->elements[i], elements[i]));
        append(v);
      }
      return out;
    }
    if (const auto* tuple = ast_.expr(id).dyn<ast::Tuple>()) {
      auto elts = ast_.list(tuple->elts);
      for (size_t i = 0; i < elements.size(); ++i) append(evalAs(elts[i], elements[i]));
      return out;
    }
    TypeId from = typeOf(id);
    std::vector<TileVal> parts = tupleParts(eval(id), from);
    for (size_t i = 0; i < elements.size(); ++i) append(spread(parts[i], types_.get(from).elements[i], elements[i]));
    return out;
  }

  // The slots of each element of tuple `v` (of type `tupleType`), in order.
  std::vector<TileVal> tupleParts(const TileVal& v, TypeId tupleType) {
    std::vector<TileVal> parts;
    size_t offset = 0;
    for (TypeId e : types_.get(tupleType).elements) {
      size_t n = slotTypes(e).size();
      TileVal part;
      part.slots.assign(v.slots.begin() + static_cast<std::ptrdiff_t>(offset),
                        v.slots.begin() + static_cast<std::ptrdiff_t>(offset + n));
      offset += n;
      parts.push_back(std::move(part));
    }
    return parts;
  }

  // `a, b = value`.
  void lowerTupleAssign(ExprId target, ExprId value) {
    auto names = ast_.list(ast_.expr(target).as<ast::Tuple>().elts);
    if (const ConstValue* c = constOf(value)) {
      for (size_t i = 0; i < names.size(); ++i) {
        TypeId to = typeOf(names[i]);
        if (!to.valid() || constOf(names[i]) != nullptr) continue;
        TileVal v;
        v.slots.assign(layoutOf(to).slots, constantOf(c->elements[i], to));
        assignName(names[i], v, to);
      }
      return;
    }
    TypeId tt = typeOf(target);
    std::vector<TileVal> parts = tupleParts(evalAs(value, tt), tt);
    for (size_t i = 0; i < names.size(); ++i) assignName(names[i], parts[i], types_.get(tt).elements[i]);
  }

  // A helper function call, inlined: the arguments are evaluated here, the
  // helper's body is lowered by a TileLowering of the helper's instance that
  // shares this function, its threads and its shared-memory scratch; its
  // returns store into slots read after the body.
  TileVal inlineHelper(ExprId id) {
    const frontend::FunctionInstance& helper = typed_.instances[static_cast<size_t>(inst_.callees[id.index])];
    const frontend::JitFunction& hf = typed_.module.functions[helper.function];
    std::vector<std::tuple<std::string, TileVal, TypeId>> values;
    std::vector<std::pair<std::string, ArrayArgs>> arrays;
    for (size_t p = 0; p < helper.argTypes.size() && p < hf.params.size(); ++p) {
      TypeId pt = helper.argTypes[p];
      if (!pt.valid()) continue;
      ExprId a = arg(id, p);
      if (types_.isArray(pt)) {
        arrays.emplace_back(hf.params[p], arrayArg(a));
      } else {
        values.emplace_back(hf.params[p], evalAs(a, pt), pt);
      }
    }
    TileLowering child(*this, helper);
    for (auto& [name, a] : arrays) child.arrays_[name] = a;
    for (auto& [name, v, pt] : values) {
      const auto& slots = child.storage(name, pt);
      for (size_t s = 0; s < slots.size(); ++s) child.b_.CreateStore(v.slots[s], slots[s]);
    }
    TileVal result = child.inlineBody();
    scratch_ = child.scratch_;
    scratchBytes_ = std::max(scratchBytes_, child.scratchBytes_);
    usesTensorCores_ = usesTensorCores_ || child.usesTensorCores_;
    b_.SetInsertPoint(child.b_.GetInsertBlock());
    return result;
  }

  // The body of an inlined helper; returns its result (empty for none).
  TileVal inlineBody() {
    TypeId rt = inst_.returnType;
    exit_ = llvm::BasicBlock::Create(context_, "inline.done", function_);
    std::vector<llvm::Type*> slots = types_.isNone(rt) ? std::vector<llvm::Type*>{} : slotTypes(rt);
    for (llvm::Type* t : slots) returnSlots_.push_back(entryAlloca(t, fn_.name + ".ret"));
    const ast::FunctionDef& def = *ast_.stmt(fn_.stmt).functionDef();
    findMmaVars(ast_.list(def.body));
    lowerBody(ast_.list(def.body));
    if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(exit_);
    b_.SetInsertPoint(exit_);
    TileVal out;
    for (llvm::AllocaInst* a : returnSlots_) out.slots.push_back(b_.CreateLoad(a->getAllocatedType(), a));
    return out;
  }

  void lowerInlineReturn(const ast::Return& r) {
    if (r.value.valid() && !returnSlots_.empty()) {
      TileVal v = evalAs(r.value, inst_.returnType);
      for (size_t s = 0; s < returnSlots_.size(); ++s) b_.CreateStore(v.slots[s], returnSlots_[s]);
    }
    b_.CreateBr(exit_);
  }

  // Python's min/max over scalars: the first of equal values wins, and a
  // later value replaces the current one only when it compares greater
  // (smaller), so a NaN met first stays.
  // min(a, b, ...), max(...): on scalars, or elementwise on tiles (each
  // argument broadcast to the result's layout), by Python's rule per element.
  TileVal builtinMinMax(ExprId id, bool isMax) {
    TypeId t = inst_.opTypes[id.index];
    TypeId result = typeOf(id);
    TypeId opTile = types_.isTile(result) ? types_.tile(t, types_.get(result).shape) : t;
    auto it = inst_.callArguments.find(id.index);
    bool isFloat = types_.isFloat(t);
    bool isSigned = types_.get(t).isSigned;
    TileVal r;
    bool first = true;
    for (ExprId a : it->second) {
      TileVal v = evalAs(a, opTile);
      if (first) {
        r = v;
        first = false;
        continue;
      }
      r.splat = r.splat && v.splat;
      for (size_t s = 0; s < r.slots.size(); ++s) {
        llvm::Value* better;
        if (isFloat) {
          better = isMax ? b_.CreateFCmpOGT(v.slots[s], r.slots[s]) : b_.CreateFCmpOLT(v.slots[s], r.slots[s]);
        } else if (isSigned) {
          better = isMax ? b_.CreateICmpSGT(v.slots[s], r.slots[s]) : b_.CreateICmpSLT(v.slots[s], r.slots[s]);
        } else {
          better = isMax ? b_.CreateICmpUGT(v.slots[s], r.slots[s]) : b_.CreateICmpULT(v.slots[s], r.slots[s]);
        }
        r.slots[s] = b_.CreateSelect(better, v.slots[s], r.slots[s]);
      }
    }
    for (llvm::Value*& x : r.slots) x = convert(x, t, elementOf(result));
    return r;
  }

  // `x if c else y` with a runtime scalar `c` (a compile-time `c` picks a side).
  TileVal ifExp(ExprId id, const ast::IfExp& e, TypeId t) {
    if (const ConstValue* c = constOf(e.test)) return evalAs(frontend::truthOf(*c) ? e.body : e.orelse, t);
    llvm::Value* cond = scalarAs(e.test, types_.boolean());
    TileVal x = evalAs(e.body, t);
    TileVal y = evalAs(e.orelse, t);
    for (size_t s = 0; s < x.slots.size(); ++s) x.slots[s] = b_.CreateSelect(cond, x.slots[s], y.slots[s]);
    (void)id;
    return x;
  }

  // `a and b`, `a or b` on runtime scalars (bool result).
  TileVal boolOp(const ast::BoolOp& bo) {
    llvm::Value* r = nullptr;
    for (ExprId v : ast_.list(bo.values)) {
      llvm::Value* x = scalarAs(v, types_.boolean());
      r = r == nullptr ? x : bo.op == frontend::BoolOpKind::And ? b_.CreateAnd(r, x) : b_.CreateOr(r, x);
    }
    return TileVal{{r}};
  }

  // `v` (type `from`) in the layout of `to` (as many elements): element e of
  // `to` (row-major) takes element source(e) of `from`, through shared memory
  // unless both layouts place every element alike.
  template <class Source>
  TileVal relayout(const TileVal& v, TypeId from, TypeId to, bool identity, Source source) {
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

  // reshape, expand_dims, `t[:, None]` (the row-major order is kept),
  // permute and transpose (elements move).
  TileVal shapeOp(ExprId id, TileFn fn, TypeId t) {
    ExprId xe = arg(id, 0);
    TypeId xt = types_.tile(elementOf(t), types_.get(typeOf(xe)).shape);
    TileVal x = evalAs(xe, xt);
    if (fn == TileFn::Reshape || fn == TileFn::ExpandDims) {
      return relayout(x, xt, t, true, [](llvm::Value* e) { return e; });
    }
    const std::vector<int64_t>& in = types_.get(xt).shape;
    const std::vector<int64_t>& out = types_.get(t).shape;
    size_t n = in.size();
    std::vector<size_t> perm(n);
    for (size_t k = 0; k < n; ++k) perm[k] = k;
    if (fn == TileFn::Permute) {
      const ConstValue* axes = constOf(arg(id, 1));
      for (size_t k = 0; k < n; ++k) {
        int64_t a = axes->kind == ConstValue::Kind::Int ? axes->intValue : axes->elements[k].intValue;
        perm[k] = static_cast<size_t>(a < 0 ? a + static_cast<int64_t>(n) : a);
      }
    } else {
      int64_t a0 = constIntArg(id, 1, 0);
      int64_t a1 = constIntArg(id, 2, 1);
      if (a0 < 0) a0 += static_cast<int64_t>(n);
      if (a1 < 0) a1 += static_cast<int64_t>(n);
      std::swap(perm[static_cast<size_t>(a0)], perm[static_cast<size_t>(a1)]);
    }
    std::vector<int64_t> inStride(n);
    int64_t inner = 1;
    for (size_t d = n; d-- > 0;) {
      inStride[d] = inner;
      inner *= in[d];
    }
    return relayout(x, xt, t, false, [&](llvm::Value* e) {
      std::vector<llvm::Value*> oi = multiIndex(e, out);
      llvm::Value* src = b_.getInt32(0);
      // Output axis k is input axis perm[k].
      for (size_t k = 0; k < n; ++k) {
        if (in[perm[k]] == 1) continue;
        src = b_.CreateAdd(src, b_.CreateMul(oi[k], b_.getInt32(static_cast<uint32_t>(inStride[perm[k]]))));
      }
      return src;
    });
  }

  // Whether candidate (b, ib) beats the current (a, ia) in an argmax
  // (argmin): a greater (smaller) value, or an equal one at a smaller index;
  // NaN beats every number (NumPy), the first NaN wins.
  llvm::Value* argBetter(bool isMax, TypeId e, llvm::Value* a, llvm::Value* ia, llvm::Value* c,
                         llvm::Value* ic) {
    const Type& et = types_.get(e);
    llvm::Value* earlier = b_.CreateICmpSLT(ic, ia);
    if (et.kind == TypeKind::Float) {
      llvm::Value* aNan = b_.CreateFCmpUNO(a, a);
      llvm::Value* cNan = b_.CreateFCmpUNO(c, c);
      llvm::Value* beats = isMax ? b_.CreateFCmpOGT(c, a) : b_.CreateFCmpOLT(c, a);
      llvm::Value* ties = b_.CreateAnd(b_.CreateFCmpOEQ(c, a), earlier);
      llvm::Value* number = b_.CreateAnd(b_.CreateNot(aNan), b_.CreateOr(beats, ties));
      llvm::Value* nan = b_.CreateOr(b_.CreateNot(aNan), earlier);
      return b_.CreateSelect(cNan, nan, number);
    }
    bool isSigned = et.kind == TypeKind::Int && et.isSigned;
    llvm::Value* beats = isMax ? (isSigned ? b_.CreateICmpSGT(c, a) : b_.CreateICmpUGT(c, a))
                               : (isSigned ? b_.CreateICmpSLT(c, a) : b_.CreateICmpULT(c, a));
    return b_.CreateOr(beats, b_.CreateAnd(b_.CreateICmpEQ(c, a), earlier));
  }

  // ct.argmax / ct.argmin: over all elements (per thread, warp shuffles,
  // then warps through shared memory) or along one axis (staged in shared
  // memory, each output element loops over its axis).
  TileVal argReduce(ExprId id, TileFn fn, TypeId t) {
    bool isMax = fn == TileFn::Argmax;
    ExprId xe = arg(id, 0);
    TypeId xt = typeOf(xe);
    TypeId e = elementOf(xt);
    TileVal x = evalAs(xe, xt);
    Layout lx = layoutOf(xt);
    Layout lo = layoutOf(t);
    llvm::Type* vt = llvmType(e);
    llvm::Value* noIndex = b_.getInt32(INT32_MAX);
    const std::vector<int64_t>& xs = types_.get(xt).shape;
    ExprId axisExpr = arg(id, 1);
    const ConstValue* axisConst = axisExpr.valid() ? constOf(axisExpr) : nullptr;
    bool all = axisConst == nullptr || axisConst->kind != ConstValue::Kind::Int;
    if (all) {
      // An empty slot (partial layouts) has no index: it never wins.
      llvm::Value* best = x.slots[0];
      llvm::Value* at = b_.CreateSelect(slotValid(lx), elementIndex(lx, 0), noIndex);
      for (unsigned s = 1; s < lx.slots; ++s) {
        llvm::Value* i = elementIndex(lx, s);
        llvm::Value* take = argBetter(isMax, e, best, at, x.slots[s], i);
        best = b_.CreateSelect(take, x.slots[s], best);
        at = b_.CreateSelect(take, i, at);
      }
      auto merge = [&](llvm::Value* c, llvm::Value* ic) {
        // A candidate without an index never wins; one with an index beats none.
        llvm::Value* take = b_.CreateAnd(b_.CreateICmpNE(ic, noIndex),
                                         b_.CreateOr(b_.CreateICmpEQ(at, noIndex), argBetter(isMax, e, best, at, c, ic)));
        best = b_.CreateSelect(take, c, best);
        at = b_.CreateSelect(take, ic, at);
      };
      if (!lx.uniform) {
        for (unsigned lane = kWarp / 2; lane >= 1; lane /= 2) {
          llvm::Value* c = shuffleXor(best, lane);
          llvm::Value* ic = shuffleXor(at, lane);
          merge(c, ic);
        }
        unsigned warps = threads_ / kWarp;
        uint64_t valueBytes = static_cast<uint64_t>(warps) * 8;
        llvm::Value* buffer = scratch(valueBytes + uint64_t(warps) * 4);
        llvm::Type* mt = memoryType(e);
        barrier();
        llvm::Value* laneId = b_.CreateAnd(tid_, b_.getInt32(kWarp - 1));
        llvm::Value* warpId = b_.CreateLShr(tid_, b_.getInt32(5));
        llvm::Value* indices = b_.CreateGEP(b_.getInt8Ty(), buffer, b_.getInt64(valueBytes));
        llvm::Value* stored = types_.isBool(e) ? b_.CreateZExt(best, b_.getInt8Ty()) : best;
        guarded(b_.CreateICmpEQ(laneId, b_.getInt32(0)), [&] {
          b_.CreateStore(stored, b_.CreateGEP(mt, buffer, warpId));
          b_.CreateStore(at, b_.CreateGEP(b_.getInt32Ty(), indices, warpId));
        });
        barrier();
        best = llvm::UndefValue::get(vt);
        at = noIndex;
        for (unsigned w = 0; w < warps; ++w) {
          llvm::Value* c = b_.CreateLoad(mt, b_.CreateGEP(mt, buffer, b_.getInt32(w)));
          if (types_.isBool(e)) c = b_.CreateICmpNE(c, b_.getInt8(0));
          llvm::Value* ic = b_.CreateLoad(b_.getInt32Ty(), b_.CreateGEP(b_.getInt32Ty(), indices, b_.getInt32(w)));
          merge(c, ic);
        }
      }
      return TileVal{{at}};
    }
    // Along one axis.
    llvm::Value* buffer = stage(x, xt, layoutFor(xt, x.mma));
    int64_t axis = axisConst->intValue;
    if (axis < 0) axis += static_cast<int64_t>(xs.size());
    size_t ax = static_cast<size_t>(axis);
    bool keepdims = constIntArg(id, 2, 0) != 0;
    std::vector<int64_t> xStride(xs.size());
    int64_t inner = 1;
    for (size_t d = xs.size(); d-- > 0;) {
      xStride[d] = inner;
      inner *= xs[d];
    }
    std::vector<int64_t> os = types_.get(t).shape;
    llvm::Type* mt = memoryType(e);
    TileVal out;
    for (unsigned s = 0; s < lo.slots; ++s) {
      std::vector<llvm::Value*> oi = multiIndex(clampIndex(elementIndex(lo, s), lo), os);
      llvm::Value* base = b_.getInt32(0);
      size_t od = 0;
      for (size_t d = 0; d < xs.size(); ++d) {
        if (d != ax) {
          base = b_.CreateAdd(base, b_.CreateMul(oi[od], b_.getInt32(static_cast<uint32_t>(xStride[d]))));
          ++od;
        } else if (keepdims) {
          ++od;
        }
      }
      auto load = [&](llvm::Value* j) {
        llvm::Value* index = b_.CreateAdd(base, b_.CreateMul(j, b_.getInt32(static_cast<uint32_t>(xStride[ax]))));
        llvm::Value* v = b_.CreateLoad(mt, b_.CreateGEP(mt, buffer, index));
        return types_.isBool(e) ? b_.CreateICmpNE(v, b_.getInt8(0)) : v;
      };
      llvm::Value* first = load(b_.getInt32(0));
      if (xs[ax] == 1) {
        out.slots.push_back(b_.getInt32(0));
        continue;
      }
      llvm::BasicBlock* pre = b_.GetInsertBlock();
      auto* body = llvm::BasicBlock::Create(context_, "argreduce.loop", function_);
      auto* done = llvm::BasicBlock::Create(context_, "argreduce.done", function_);
      b_.CreateBr(body);
      b_.SetInsertPoint(body);
      llvm::PHINode* j = b_.CreatePHI(b_.getInt32Ty(), 2);
      llvm::PHINode* best = b_.CreatePHI(vt, 2);
      llvm::PHINode* at = b_.CreatePHI(b_.getInt32Ty(), 2);
      j->addIncoming(b_.getInt32(1), pre);
      best->addIncoming(first, pre);
      at->addIncoming(b_.getInt32(0), pre);
      llvm::Value* c = load(j);
      llvm::Value* take = argBetter(isMax, e, best, at, c, j);
      llvm::Value* nextBest = b_.CreateSelect(take, c, best);
      llvm::Value* nextAt = b_.CreateSelect(take, j, at);
      llvm::Value* jn = b_.CreateAdd(j, b_.getInt32(1));
      j->addIncoming(jn, b_.GetInsertBlock());
      best->addIncoming(nextBest, b_.GetInsertBlock());
      at->addIncoming(nextAt, b_.GetInsertBlock());
      b_.CreateCondBr(b_.CreateICmpULT(jn, b_.getInt32(static_cast<uint32_t>(xs[ax]))), body, done);
      b_.SetInsertPoint(done);
      out.slots.push_back(nextAt);
    }
    return out;
  }

  // float32 <-> tfloat32: rounding to 10 mantissa bits (cvt.rna.tf32.f32),
  // kept in a float register; tfloat32 to float32 is the same bits.
  llvm::Value* convertTf32(llvm::Value* v, TypeId from, TypeId to) {
    if (types_.isTFloat32(from)) {
      return convert(v, types_.float32(), to);
    }
    llvm::Value* f = convert(v, from, types_.float32());
    llvm::Value* bits = b_.CreateCall(intrinsic(llvm::Intrinsic::nvvm_f2tf32_rna), {f});
    // The 13 bits below tfloat32's mantissa are not specified by PTX: clear them, so
    // that the value reads as a float32 too.
    bits = b_.CreateAnd(bits, b_.getInt32(0xffffe000u));
    return b_.CreateBitCast(bits, b_.getFloatTy());
  }

  llvm::AllocaInst* entryAlloca(llvm::Type* t, const std::string& name) {
    llvm::IRBuilder<> eb(&function_->getEntryBlock(), function_->getEntryBlock().begin());
    return eb.CreateAlloca(t, nullptr, name);
  }

  const frontend::Ast& ast_;
  const frontend::TypedModule& typed_;
  TypeTable& types_;
  const frontend::FunctionInstance& inst_;
  const frontend::JitFunction& fn_;
  llvm::Function* function_;
  llvm::LLVMContext& context_;
  llvm::Module& module_;
  llvm::IRBuilder<> b_;
  unsigned threads_ = 128;
  unsigned maxVec_ = 4;
  unsigned loopDepth_ = 0;  // for-loops around the statement being lowered
  llvm::Value* tid_ = nullptr;
  std::map<std::string, ArrayArgs> arrays_;
  std::map<std::pair<std::string, uint32_t>, std::vector<llvm::AllocaInst*>> vars_;
  llvm::GlobalVariable* scratch_ = nullptr;
  uint64_t scratchBytes_ = 0;
  // Variables (name, type) held in the mma accumulator layout.
  std::set<std::pair<std::string, uint32_t>> mmaVars_;
  // Pipelined loads of the loop being lowered: their current stage.
  std::map<std::string, SmemTile> pipeStage_;
  bool usesTensorCores_ = false;
  bool allowWgmma_ = false;
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
  // An inlined helper: where its returns go.
  llvm::BasicBlock* exit_ = nullptr;
  std::vector<llvm::AllocaInst*> returnSlots_;
};

}  // namespace

TileKernelShape lowerTileKernel(const frontend::Ast& ast, const frontend::TypedModule& typed,
                                const frontend::FunctionInstance& inst, llvm::Function* function,
                                const TileTarget& target) {
  TileLowering lowering(ast, typed, inst, function);
  lowering.setTarget(target);
  TileKernelShape shape;
  shape.threads = lowering.run();
  shape.dynamicSharedBytes = lowering.dynamicSharedBytes();
  shape.registerTarget = lowering.registerTarget();
  return shape;
}

}  // namespace lowering
