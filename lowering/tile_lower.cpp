#include "lowering/tile_lower.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "frontend/tile_ops.h"
#include "frontend/typed_module.h"

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
constexpr unsigned kWarp = 32;

// How a tile's elements are spread over the CTA's threads (docs/TILE.md,
// "Mapping"). Element e is the row-major linear index in the tile.
//  - uniform (1 element): every thread holds it;
//  - partial (fewer elements than threads): thread t holds element t < n;
//  - full: thread t holds `slots` elements, in chunks of `vec` consecutive
//    elements: e = (chunk * threads + t) * vec + lane.
struct Layout {
  int64_t n = 1;
  unsigned slots = 1;
  unsigned vec = 1;
  bool uniform = true;
  bool partial = false;
};

// A lowered value: one llvm::Value per slot (a scalar has one).
struct TileVal {
  std::vector<llvm::Value*> slots;
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

  uint32_t run() {
    threads_ = chooseThreads();
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
    lowerBody(ast_.list(def.body));
    if (!b_.GetInsertBlock()->getTerminator()) b_.CreateRetVoid();
    finishScratch();
    // Tell ptxas the block size (maxntid): it sizes registers for it.
    llvm::NamedMDNode* annotations = module_.getOrInsertNamedMetadata("nvvm.annotations");
    llvm::Metadata* md[] = {llvm::ValueAsMetadata::get(function_), llvm::MDString::get(context_, "maxntidx"),
                            llvm::ConstantAsMetadata::get(b_.getInt32(threads_))};
    annotations->addOperand(llvm::MDNode::get(context_, md));
    return threads_;
  }

private:
  // --- types and layouts --------------------------------------------------

  unsigned chooseThreads() const {
    int64_t most = 1;
    for (TypeId t : inst_.exprTypes) {
      if (t.valid() && types_.isTile(t)) most = std::max(most, elementsOf(t));
    }
    // 16 elements per thread for the biggest tile (two 16-byte vectors of 16-bit
    // elements, four of 32-bit ones): a block of one row per CTA then keeps enough
    // bytes in flight per SM (docs/BENCHMARKS.md, "Tile kernels: bandwidth"). At
    // least 64 threads (two warps), at most 1024.
    return static_cast<unsigned>(std::clamp<int64_t>(most / 16, 64, 1024));
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

  // The linear element index (i32) slot `s` of this thread holds.
  llvm::Value* elementIndex(const Layout& l, unsigned s) {
    if (l.uniform) return b_.getInt32(0);
    if (l.partial) return tid_;
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
  TileVal evalAs(ExprId id, TypeId to) {
    if (const ConstValue* c = constOf(id)) {
      TileVal v;
      v.slots.assign(layoutOf(to).slots, constantOf(*c, to));
      return v;
    }
    TypeId from = typeOf(id);
    TileVal v = eval(id);
    return spread(v, from, to);
  }

  // A scalar (or the one element of a uniform tile) of `id`, as `to`.
  llvm::Value* scalarAs(ExprId id, TypeId to) { return evalAs(id, elementOf(to)).slots[0]; }

  TileVal spread(const TileVal& v, TypeId from, TypeId to) {
    Layout lf = layoutOf(from);
    Layout lt = layoutOf(to);
    TypeId fe = elementOf(from);
    TypeId te = elementOf(to);
    TileVal out;
    // Shapes equal but for leading 1s ((n,) and (1, n)) share the layout.
    bool sameShape = types_.isTile(from) && types_.isTile(to) &&
                     stripOnes(types_.get(from).shape) == stripOnes(types_.get(to).shape) &&
                     lf.slots == lt.slots && lf.vec == lt.vec && lf.partial == lt.partial;
    if (lf.uniform || sameShape || !types_.isTile(to)) {
      for (unsigned s = 0; s < lt.slots; ++s) {
        out.slots.push_back(convert(v.slots[lf.uniform ? 0 : s], fe, te));
      }
      return out;
    }
    // Broadcast: through shared memory.
    llvm::Value* buffer = stage(v, from);
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

  llvm::Value* scratch(uint64_t bytes) {
    scratchBytes_ = std::max(scratchBytes_, bytes);
    if (scratch_ == nullptr) {
      auto* type = llvm::ArrayType::get(b_.getInt8Ty(), 1);
      scratch_ = new llvm::GlobalVariable(module_, type, false, llvm::GlobalValue::InternalLinkage,
                                          llvm::UndefValue::get(type), function_->getName() + ".placeholder",
                                          nullptr, llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
    }
    return scratch_;
  }

  void finishScratch() {
    if (scratch_ == nullptr) return;
    auto* type = llvm::ArrayType::get(b_.getInt8Ty(), scratchBytes_);
    auto* real = new llvm::GlobalVariable(module_, type, false, llvm::GlobalValue::InternalLinkage,
                                          llvm::UndefValue::get(type), function_->getName() + ".tile_scratch",
                                          nullptr, llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
    real->setAlignment(llvm::Align(16));
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
  llvm::Value* stage(const TileVal& v, TypeId t) {
    TypeId e = elementOf(t);
    Layout l = layoutOf(t);
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
        return v;
      }
      case frontend::ExprKind::BinOp: {
        const auto& bo = e.as<ast::BinOp>();
        return binary(bo.op, bo.left, bo.right, inst_.opTypes[id.index], t);
      }
      case frontend::ExprKind::UnaryOp: {
        const auto& u = e.as<ast::UnaryOp>();
        TileVal v = evalAs(u.operand, t);
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
        TileVal l = evalAs(c.left, opTile);
        TileVal r = evalAs(ast_.list(c.comparators)[0], opTile);
        frontend::CmpOp cmp = ast_.list(c.ops)[0];
        bool isFloat = types_.isFloat(op);
        bool isSigned = types_.get(op).isSigned;
        TileVal out;
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
      case frontend::ExprKind::Call:
        return call(id, e.as<ast::Call>());
      case frontend::ExprKind::Subscript: {
        // array.shape[d]
        const auto& sub = e.as<ast::Subscript>();
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

  TileVal binary(frontend::Operator op, ExprId left, ExprId right, TypeId opType, TypeId result) {
    TypeId opTile = types_.isTile(result) ? types_.tile(opType, types_.get(result).shape) : opType;
    if (op == frontend::Operator::Pow) return power(left, right, opType, opTile);
    TileVal l = evalAs(left, opTile);
    TileVal r = evalAs(right, opTile);
    TileVal out;
    for (size_t s = 0; s < l.slots.size(); ++s) out.slots.push_back(arith(op, l.slots[s], r.slots[s], opType));
    return out;
  }

  // `x ** k`: square-and-multiply for a constant k in 0..16 (the checker's rule),
  // else libdevice's pow (float16 through float32).
  TileVal power(ExprId left, ExprId right, TypeId opType, TypeId opTile) {
    TileVal x = evalAs(left, opTile);
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
    TileVal y = evalAs(right, opTile);
    const Type& t = types_.get(opType);
    bool single = t.bits <= 32;
    llvm::Type* ct = single ? b_.getFloatTy() : b_.getDoubleTy();
    llvm::FunctionCallee pow = module_.getOrInsertFunction(single ? "__nv_powf" : "__nv_pow",
                                                           llvm::FunctionType::get(ct, {ct, ct}, false));
    for (size_t s = 0; s < x.slots.size(); ++s) {
      llvm::Value* a = t.bits == 16 ? b_.CreateFPExt(x.slots[s], ct) : x.slots[s];
      llvm::Value* c = t.bits == 16 ? b_.CreateFPExt(y.slots[s], ct) : y.slots[s];
      llvm::Value* r = b_.CreateCall(pow, {a, c});
      x.slots[s] = t.bits == 16 ? b_.CreateFPTrunc(r, b_.getHalfTy()) : r;
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
        return evalAs(arg(id, 0), t);
      case TileFn::Sum:
      case TileFn::Max:
      case TileFn::Min:
        return reduce(id, fn, t);
      case TileFn::Where: {
        TypeId cond = types_.isTile(t) ? types_.tile(types_.boolean(), types_.get(t).shape) : types_.boolean();
        TileVal cv = evalAs(arg(id, 0), cond);
        TileVal x = evalAs(arg(id, 1), t);
        TileVal y = evalAs(arg(id, 2), t);
        for (size_t s = 0; s < x.slots.size(); ++s) x.slots[s] = b_.CreateSelect(cv.slots[s], x.slots[s], y.slots[s]);
        return x;
      }
      case TileFn::Maximum:
      case TileFn::Minimum: {
        TileVal x = evalAs(arg(id, 0), t);
        TileVal y = evalAs(arg(id, 1), t);
        for (size_t s = 0; s < x.slots.size(); ++s) x.slots[s] = combine(fn == TileFn::Maximum ? TileFn::Max : TileFn::Min, x.slots[s], y.slots[s], elementOf(t));
        return x;
      }
      default:
        return unaryMath(id, fn, t);
    }
  }

  TileVal unaryMath(ExprId id, TileFn fn, TypeId t) {
    TypeId e = elementOf(t);
    TileVal x = evalAs(arg(id, 0), t);
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
      v = half ? b_.CreateFPTrunc(r, b_.getHalfTy()) : r;
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
    std::vector<llvm::Value*> v = emit(vectors ? Path::Vector : Path::Inside);
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
  // merged values.
  template <class Whole, class Elements>
  std::vector<llvm::Value*> perChunk(const ArrayArgs& arr, const Addressing& a, const Layout& l,
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

  TileVal load(ExprId id, TypeId t) {
    const ArrayArgs& arr = arrayArg(arg(id, 0));
    TypeId e = elementOf(t);
    Layout l = layoutOf(t);
    Addressing a = addressing(id, t);
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
            [&](unsigned s) { return pack(loadElements(arr, a, l, e, pad, s, l.vec), l.vec)[0]; });
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
      llvm::BasicBlock* before = b_.GetInsertBlock();
      auto* then = llvm::BasicBlock::Create(context_, "load.elem", function_);
      auto* done = llvm::BasicBlock::Create(context_, "load.next", function_);
      b_.CreateCondBr(inside, then, done);
      b_.SetInsertPoint(then);
      llvm::Value* x = loaded(b_.CreateLoad(mt, b_.CreateGEP(mt, arr.data, offset)));
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
      llvm::PHINode* phi = b_.CreatePHI(llvmType(e), 2);
      phi->addIncoming(x, then);
      phi->addIncoming(pad, before);
      vals.push_back(phi);
    }
    return vals;
  }

  void store(ExprId id) {
    const ArrayArgs& arr = arrayArg(arg(id, 0));
    TypeId arrayType = typeOf(arg(id, 0));
    TypeId e = elementOf(arrayType);
    TypeId tileType = types_.tile(e, types_.get(typeOf(arg(id, 2))).shape);
    TileVal v = evalAs(arg(id, 2), tileType);
    Layout l = layoutOf(tileType);
    Addressing a = addressing(id, tileType);
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
            });
      } else {
        elements(0, l.slots, path == Path::Edge);
      }
      return std::vector<llvm::Value*>{};
    };
    accessPaths(arr, a, l, e, emit);
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

  TileVal reduce(ExprId id, TileFn fn, TypeId t) {
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
    llvm::Value* buffer = stage(x, accTile);
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
    TileVal c = spread(v, from, to);
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
        TypeId to = typeOf(target);
        if (!to.valid() || constOf(target) != nullptr) return;
        TileVal v = evalAs(a.value, to);
        for (ExprId t : ast_.list(a.targets)) assignName(t, v, to);
        return;
      }
      case frontend::StmtKind::AugAssign: {
        const auto& a = s.as<ast::AugAssign>();
        TypeId result = inst_.stmtResultTypes[id.index];
        TileVal v = binary(a.op, a.target, a.value, inst_.stmtOpTypes[id.index], result);
        assignName(a.target, v, result);
        return;
      }
      case frontend::StmtKind::Expr: {
        ExprId e = s.as<ast::ExprStmt>().value;
        if (constOf(e) == nullptr) eval(e);
        return;
      }
      case frontend::StmtKind::Return:
        b_.CreateRetVoid();
        return;
      case frontend::StmtKind::For:
        lowerFor(id, s.as<ast::For>());
        return;
      case frontend::StmtKind::If: {
        const auto& i = s.as<ast::If>();
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

  void lowerFor(StmtId id, const ast::For& f) {
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
    ++loopDepth_;
    lowerBody(ast_.list(f.body));
    --loopDepth_;
    if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(head);
    b_.SetInsertPoint(done);
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
};

}  // namespace

uint32_t lowerTileKernel(const frontend::Ast& ast, const frontend::TypedModule& typed,
                         const frontend::FunctionInstance& inst, llvm::Function* function) {
  TileLowering lowering(ast, typed, inst, function);
  return lowering.run();
}

}  // namespace lowering
