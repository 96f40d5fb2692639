#include "lowering/simt/xoroshiro.h"

#include <cmath>
#include <string>

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace lowering {

namespace {

using frontend::RandomFn;

class Xoroshiro {
public:
  Xoroshiro(llvm::IRBuilderBase& b, llvm::Module& m, XoroshiroState s)
      : b_(b), m_(m), s_(s), u64_(b.getInt64Ty()) {}

  llvm::Value* load(llvm::Value* p) { return b_.CreateAlignedLoad(u64_, p, llvm::Align(8)); }
  void store(llvm::Value* v, llvm::Value* p) { b_.CreateAlignedStore(v, p, llvm::Align(8)); }
  llvm::Value* c(uint64_t v) { return llvm::ConstantInt::get(u64_, v); }

  // rotl(x, k) = (x << k) | (x >> (64 - k)).
  llvm::Value* rotl(llvm::Value* x, uint64_t k) {
    return b_.CreateOr(b_.CreateShl(x, c(k)), b_.CreateLShr(x, c(64 - k)));
  }

  // xoroshiro128p_next: returns s0 + s1 and advances the state.
  llvm::Value* next() {
    llvm::Value* s0 = load(s_.s0);
    llvm::Value* s1 = load(s_.s1);
    llvm::Value* result = b_.CreateAdd(s0, s1);
    s1 = b_.CreateXor(s1, s0);
    store(b_.CreateXor(b_.CreateXor(rotl(s0, 55), s1), b_.CreateShl(s1, c(14))), s_.s0);
    store(rotl(s1, 36), s_.s1);
    return result;
  }

  // init_xoroshiro128p_state: SplitMix64 of the seed into both words.
  void init(llvm::Value* seed) {
    llvm::Value* z = b_.CreateAdd(seed, c(0x9E3779B97F4A7C15ULL));
    z = b_.CreateMul(b_.CreateXor(z, b_.CreateLShr(z, c(30))), c(0xBF58476D1CE4E5B9ULL));
    z = b_.CreateMul(b_.CreateXor(z, b_.CreateLShr(z, c(27))), c(0x94D049BB133111EBULL));
    z = b_.CreateXor(z, b_.CreateLShr(z, c(31)));
    store(z, s_.s0);
    store(z, s_.s1);
  }

  // xoroshiro128p_jump: 2**64 steps, numba's loop over the 128 bits of
  // (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922).
  void jump() {
    llvm::Function* f = b_.GetInsertBlock()->getParent();
    llvm::LLVMContext& ctx = m_.getContext();
    llvm::BasicBlock* entry = b_.GetInsertBlock();
    auto* loop = llvm::BasicBlock::Create(ctx, "jump.loop", f);
    auto* take = llvm::BasicBlock::Create(ctx, "jump.take", f);
    auto* step = llvm::BasicBlock::Create(ctx, "jump.step", f);
    auto* done = llvm::BasicBlock::Create(ctx, "jump.done", f);
    b_.CreateBr(loop);

    b_.SetInsertPoint(loop);
    llvm::PHINode* i = b_.CreatePHI(u64_, 2);
    llvm::PHINode* acc0 = b_.CreatePHI(u64_, 2);
    llvm::PHINode* acc1 = b_.CreatePHI(u64_, 2);
    i->addIncoming(c(0), entry);
    acc0->addIncoming(c(0), entry);
    acc1->addIncoming(c(0), entry);
    llvm::Value* word = b_.CreateSelect(b_.CreateICmpULT(i, c(64)), c(0xBEAC0467EBA5FACBULL),
                                        c(0xD86B048B86AA9922ULL));
    llvm::Value* bit = b_.CreateAnd(b_.CreateLShr(word, b_.CreateAnd(i, c(63))), c(1));
    b_.CreateCondBr(b_.CreateICmpNE(bit, c(0)), take, step);

    b_.SetInsertPoint(take);
    llvm::Value* t0 = b_.CreateXor(acc0, load(s_.s0));
    llvm::Value* t1 = b_.CreateXor(acc1, load(s_.s1));
    b_.CreateBr(step);

    b_.SetInsertPoint(step);
    llvm::PHINode* n0 = b_.CreatePHI(u64_, 2);
    llvm::PHINode* n1 = b_.CreatePHI(u64_, 2);
    n0->addIncoming(acc0, loop);
    n0->addIncoming(t0, take);
    n1->addIncoming(acc1, loop);
    n1->addIncoming(t1, take);
    next();
    llvm::Value* i1 = b_.CreateAdd(i, c(1));
    i->addIncoming(i1, step);
    acc0->addIncoming(n0, step);
    acc1->addIncoming(n1, step);
    b_.CreateCondBr(b_.CreateICmpULT(i1, c(128)), loop, done);

    b_.SetInsertPoint(done);
    store(n0, s_.s0);
    store(n1, s_.s1);
  }

  // uint64_to_unit_float64: (x >> 11) * (1.0 / 2**53).
  llvm::Value* unit64(llvm::Value* x) {
    llvm::Value* v = b_.CreateUIToFP(b_.CreateLShr(x, c(11)), b_.getDoubleTy());
    return b_.CreateFMul(v, llvm::ConstantFP::get(b_.getDoubleTy(), std::ldexp(1.0, -53)));
  }
  // uint64_to_unit_float32: float32(uint64_to_unit_float64(x)).
  llvm::Value* unit32(llvm::Value* x) { return b_.CreateFPTrunc(unit64(x), b_.getFloatTy()); }

  llvm::Value* libdevice(const char* name, llvm::Value* x) {
    auto callee = m_.getOrInsertFunction(name, llvm::FunctionType::get(x->getType(), {x->getType()},
                                                                        false));
    return b_.CreateCall(callee, {x});
  }

  // xoroshiro128p_normal_float32/64: Box-Muller on two float32 uniforms,
  // z0 = sqrt(-2 * log(u1)) * cos(2 pi * u2); log(u1) is float32 in both
  // (numba types math.log(float32) as float32).
  llvm::Value* normal(bool f64) {
    llvm::Value* u1 = unit32(next());
    llvm::Value* u2 = unit32(next());
    llvm::Value* logU1 = libdevice("__nv_logf", u1);
    llvm::Type* t = f64 ? b_.getDoubleTy() : b_.getFloatTy();
    if (f64) {
      logU1 = b_.CreateFPExt(logU1, t);
      u2 = b_.CreateFPExt(u2, t);
    }
    // TWO_PI_FLOAT32 = np.float32(2 * math.pi), TWO_PI_FLOAT64 = np.float64(2 * math.pi).
    double twoPi = f64 ? 2 * M_PI : static_cast<double>(static_cast<float>(2 * M_PI));
    llvm::Value* radius = libdevice(f64 ? "__nv_sqrt" : "__nv_sqrtf",
                                    b_.CreateFMul(llvm::ConstantFP::get(t, -2.0), logU1));
    llvm::Value* angle = libdevice(f64 ? "__nv_cos" : "__nv_cosf",
                                   b_.CreateFMul(llvm::ConstantFP::get(t, twoPi), u2));
    return b_.CreateFMul(radius, angle);
  }

private:
  llvm::IRBuilderBase& b_;
  llvm::Module& m_;
  XoroshiroState s_;
  llvm::Type* u64_;
};

}  // namespace

llvm::Value* lowerRandom(llvm::IRBuilderBase& b, llvm::Module& module, RandomFn fn,
                         XoroshiroState state, llvm::Value* seed) {
  Xoroshiro x(b, module, state);
  switch (fn) {
    case RandomFn::Next:
      return x.next();
    case RandomFn::Jump:
      x.jump();
      return nullptr;
    case RandomFn::InitState:
      x.init(seed);
      return nullptr;
    case RandomFn::UniformFloat32:
      return x.unit32(x.next());
    case RandomFn::UniformFloat64:
      return x.unit64(x.next());
    case RandomFn::NormalFloat32:
      return x.normal(false);
    case RandomFn::NormalFloat64:
      return x.normal(true);
    case RandomFn::ToUnitFloat32:
      return x.unit32(seed);
    case RandomFn::ToUnitFloat64:
      return x.unit64(seed);
  }
  return nullptr;
}

}  // namespace lowering
