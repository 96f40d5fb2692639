// SIMT lowering: the function level, values and statements (lowering/simt/lower_internal.h).
#include "lowering/simt/lower_internal.h"

namespace lowering::simt {

// ---------------------------------------------------------------------------
// Function level

FunctionLowering::FunctionLowering(ModuleLowering& ml, const FunctionInstance& inst,
                                   llvm::Function* function)
    : ml_(ml), ast_(ml.ast()), inst_(inst), fn_(ml.typed().module.functions[inst.function]),
      function_(function), context_(ml.context()), builder_(ml.context()) {}

TypeTable& FunctionLowering::types() { return ml_.types(); }
llvm::Type* FunctionLowering::llvmType(TypeId t) { return ml_.llvmType(t); }
llvm::Type* FunctionLowering::memoryType(TypeId t) { return ml_.memoryType(t); }

llvm::Value* FunctionLowering::entryAlloca(llvm::Type* t, llvm::Value* count) {
  llvm::IRBuilder<> b(entry_, entry_->begin());
  return b.CreateAlloca(t, count);
}

void FunctionLowering::setLocation(const NodeRange& r) {
  if (subprogram_ == nullptr || r.lineno == 0) return;
  builder_.SetCurrentDebugLocation(
      llvm::DILocation::get(context_, r.lineno, r.colOffset + 1, subprogram_));
}

void FunctionLowering::run() {
  const Stmt& s = ast_.stmt(fn_.stmt);
  if (ml_.di() != nullptr) {
    llvm::DIBuilder& di = *ml_.di();
    auto* type = di.createSubroutineType(di.getOrCreateTypeArray({}));
    subprogram_ = di.createFunction(ml_.diFile(), fn_.name, inst_.symbol, ml_.diFile(),
                                    s.range.lineno, type, s.range.lineno,
                                    llvm::DINode::FlagPrototyped,
                                    llvm::DISubprogram::SPFlagDefinition |
                                        llvm::DISubprogram::SPFlagOptimized);
    function_->setSubprogram(subprogram_);
  }
  llvm::FastMathFlags flags;
  if (inst_.fastmath) {
    flags.setFast();
  } else {
    // numba-cuda compiles with NVVM's default -fma=1: a*b+c may become an fma.
    flags.setAllowContract(true);
  }
  builder_.setFastMathFlags(flags);
  entry_ = llvm::BasicBlock::Create(context_, "entry", function_);
  builder_.SetInsertPoint(entry_);
  // Variables, by name (deterministic).
  for (const auto& [name, type] : inst_.variables) {
    vars_[name] = builder_.CreateAlloca(llvmType(type), nullptr, name);
  }
  // Parameters.
  KernelParamReader reader(function_);
  for (size_t p = 0; p < inst_.argTypes.size(); ++p) {
    TypeId t = inst_.argTypes[p];
    llvm::Value* value;
    if (auto o = inst_.omitted.find(static_cast<uint32_t>(p)); o != inst_.omitted.end()) {
      // An omitted argument: its default, folded in (a None default has no variable).
      if (types().isNone(t)) continue;
      value = constant(o->second, t);
    } else if (!inst_.isKernel) {
      value = reader.take();
    } else {
      std::function<llvm::Value*(TypeId)> rebuild = [&](TypeId id) -> llvm::Value* {
        const Type& tt = types().get(id);
        switch (tt.kind) {
          case TypeKind::Bool:
            return reader.takeBool(builder_);
          case TypeKind::Array: {
            return makeArray(reader.takeArray(tt.ndim), id);
          }
          case TypeKind::Complex: {
            llvm::Value* agg = llvm::PoisonValue::get(llvmType(id));
            agg = builder_.CreateInsertValue(agg, reader.take(), 0);
            return builder_.CreateInsertValue(agg, reader.take(), 1);
          }
          case TypeKind::Tuple: {
            llvm::Value* agg = llvm::PoisonValue::get(llvmType(id));
            std::vector<TypeId> elements = tt.elements;
            for (unsigned e = 0; e < elements.size(); ++e) {
              agg = builder_.CreateInsertValue(agg, rebuild(elements[e]), e);
            }
            return agg;
          }
          default:
            return reader.take();
        }
      };
      value = rebuild(t);
    }
    if (p < fn_.params.size()) {
      auto it = vars_.find(fn_.params[p]);
      if (it != vars_.end()) {
        builder_.CreateStore(convert(value, t, inst_.variables.at(fn_.params[p])), it->second);
      }
    }
  }
  for (const ErrorSite& site : inst_.errorSites) {
    uint32_t code = ml_.nextErrorCode();
    errorCodes_[site.stmt] = code;
    errors.push_back(KernelInfo::Error{code, site.type, site.message, site.line});
  }
  const ast::FunctionDef& def = *s.functionDef();
  emitBody(ast_.list(def.body));
  if (!terminated()) {
    setLocation(s.range);
    if (function_->getReturnType()->isVoidTy()) {
      builder_.CreateRetVoid();
    } else if (inst_.optionalReturn) {
      returnOptional(nullptr);  // falling off the end returns None
    } else {
      builder_.CreateRet(llvm::Constant::getNullValue(function_->getReturnType()));
    }
  }
}

// A grid-wide barrier for cooperative launches (all blocks resident), as
// CUDA's cooperative groups do it: thread 0 of each block adds 1 to the
// counter, block (0,0,0) adds 2**31 - (blocks - 1), so the counter's top bit
// flips exactly when the last block arrives; each block waits for the flip.
void FunctionLowering::emitGridSync() {
  llvm::Module& m = ml_.module();
  auto barrier = [&] {
    builder_.CreateCall(llvm::Intrinsic::getDeclaration(&m, llvm::Intrinsic::nvvm_barrier0));
  };
  auto fence = [&] {
    builder_.CreateCall(llvm::Intrinsic::getDeclaration(&m, llvm::Intrinsic::nvvm_membar_gl));
  };
  barrier();
  llvm::Value* tid = builder_.CreateOr(
      builder_.CreateOr(threadIndexPart(Intrinsic::ThreadIdx, 0), threadIndexPart(Intrinsic::ThreadIdx, 1)),
      threadIndexPart(Intrinsic::ThreadIdx, 2));
  auto* master = llvm::BasicBlock::Create(context_, "gridsync.arrive", function_);
  auto* wait = llvm::BasicBlock::Create(context_, "gridsync.wait", function_);
  auto* done = llvm::BasicBlock::Create(context_, "gridsync.done", function_);
  builder_.CreateCondBr(builder_.CreateICmpEQ(tid, builder_.getInt32(0)), master, done);
  builder_.SetInsertPoint(master);
  llvm::Value* first = builder_.CreateICmpEQ(
      builder_.CreateOr(builder_.CreateOr(threadIndexPart(Intrinsic::BlockIdx, 0),
                                          threadIndexPart(Intrinsic::BlockIdx, 1)),
                        threadIndexPart(Intrinsic::BlockIdx, 2)),
      builder_.getInt32(0));
  llvm::Value* blocks = builder_.CreateMul(
      builder_.CreateMul(threadIndexPart(Intrinsic::GridDim, 0), threadIndexPart(Intrinsic::GridDim, 1)),
      threadIndexPart(Intrinsic::GridDim, 2));
  llvm::Value* add = builder_.CreateSelect(
      first, builder_.CreateSub(builder_.getInt32(0x80000000u), builder_.CreateSub(blocks, builder_.getInt32(1))),
      builder_.getInt32(1));
  llvm::GlobalVariable* counter = ml_.gridBarrier();
  fence();
  llvm::Value* old = builder_.CreateAtomicRMW(llvm::AtomicRMWInst::Add, counter, add, llvm::Align(4),
                                              llvm::AtomicOrdering::Monotonic, deviceScope());
  builder_.CreateBr(wait);
  builder_.SetInsertPoint(wait);
  llvm::LoadInst* current = builder_.CreateLoad(builder_.getInt32Ty(), counter);
  current->setVolatile(true);
  llvm::Value* flipped = builder_.CreateICmpNE(
      builder_.CreateAnd(builder_.CreateXor(old, current), builder_.getInt32(0x80000000u)),
      builder_.getInt32(0));
  auto* after = llvm::BasicBlock::Create(context_, "gridsync.arrived", function_);
  builder_.CreateCondBr(flipped, after, wait);
  builder_.SetInsertPoint(after);
  fence();
  builder_.CreateBr(done);
  builder_.SetInsertPoint(done);
  barrier();
}

// shfl.sync on 32-bit lanes; 64-bit values move as two halves.
llvm::Value* FunctionLowering::emitShuffle(Intrinsic kind, std::span<const ExprId> args) {
  using namespace llvm::Intrinsic;
  llvm::Module& m = ml_.module();
  llvm::Value* mask = emitExprAs(args[0], types().intType(32, false));
  TypeId valueType = typeOf(args[1]);
  llvm::Value* value = emitExpr(args[1]);
  llvm::Value* lane = emitExprAs(args[2], types().int32());
  ID ids[] = {nvvm_shfl_sync_idx_i32, nvvm_shfl_sync_up_i32, nvvm_shfl_sync_down_i32,
              nvvm_shfl_sync_bfly_i32};
  unsigned which = kind == Intrinsic::ShflSync     ? 0
                   : kind == Intrinsic::ShflUpSync ? 1
                   : kind == Intrinsic::ShflDownSync ? 2
                                                     : 3;
  // The clamp operand for a full 32-lane warp.
  llvm::Value* clamp = builder_.getInt32(which == 1 ? 0 : 0x1f);
  llvm::Function* shfl = llvm::Intrinsic::getDeclaration(&m, ids[which]);
  auto shuffle32 = [&](llvm::Value* v) {
    return builder_.CreateCall(shfl, {mask, v, lane, clamp});
  };
  llvm::Type* original = value->getType();
  unsigned bits = original->getPrimitiveSizeInBits();
  if (bits == 32) {
    llvm::Value* asInt = builder_.CreateBitCast(value, builder_.getInt32Ty());
    return builder_.CreateBitCast(shuffle32(asInt), original);
  }
  llvm::Value* asInt = builder_.CreateBitCast(value, builder_.getInt64Ty());
  llvm::Value* lo = shuffle32(builder_.CreateTrunc(asInt, builder_.getInt32Ty()));
  llvm::Value* hi = shuffle32(builder_.CreateTrunc(builder_.CreateLShr(asInt, 32), builder_.getInt32Ty()));
  llvm::Value* joined = builder_.CreateOr(
      builder_.CreateZExt(lo, builder_.getInt64Ty()),
      builder_.CreateShl(builder_.CreateZExt(hi, builder_.getInt64Ty()), 32));
  (void)valueType;
  return builder_.CreateBitCast(joined, original);
}

// match.any/all.sync on the value's bits (floats compare as bit patterns, as
// CUDA's __match_*_sync do). numba types the mask and the result int32.
llvm::Value* FunctionLowering::emitMatch(Intrinsic kind, std::span<const ExprId> args,
                                         TypeId valueType) {
  using namespace llvm::Intrinsic;
  llvm::Value* mask = emitExprAs(args[0], types().intType(32, false));
  llvm::Value* value = emitExprAs(args[1], valueType);
  bool wide = types().get(valueType).bits == 64;
  value = builder_.CreateBitCast(value, wide ? builder_.getInt64Ty() : builder_.getInt32Ty());
  ID iid = kind == Intrinsic::MatchAnySync ? (wide ? nvvm_match_any_sync_i64 : nvvm_match_any_sync_i32)
                                           : (wide ? nvvm_match_all_sync_i64p : nvvm_match_all_sync_i32p);
  llvm::Value* result = builder_.CreateCall(llvm::Intrinsic::getDeclaration(&ml_.module(), iid), {mask, value});
  if (kind == Intrinsic::MatchAnySync) return result;
  // {i32 mask, i1 predicate}: already the tuple's layout.
  return result;
}

// print(...) as numba-cuda does it (printimpl.py): one vprintf call whose
// format joins `%lld`/`%llu` (integers, widened to 64 bits), `%f` (floats, as
// double), `%s` (bools as True/False, string literals) and `(a, b)` for
// tuples with spaces, ending in a newline.
void FunctionLowering::emitPrint(std::span<const ExprId> args) {
  std::vector<std::string> formats;
  std::vector<llvm::Value*> values;
  std::function<std::string(llvm::Value*, TypeId)> item = [&](llvm::Value* v, TypeId t) -> std::string {
    const Type& tt = types().get(t);
    switch (tt.kind) {
      case TypeKind::Int:
        values.push_back(tt.isSigned ? builder_.CreateSExt(v, builder_.getInt64Ty())
                                     : builder_.CreateZExt(v, builder_.getInt64Ty()));
        return tt.isSigned ? "%lld" : "%llu";
      case TypeKind::Float:
        values.push_back(builder_.CreateFPExt(v, builder_.getDoubleTy()));
        return "%f";
      case TypeKind::Bool:
        values.push_back(builder_.CreateSelect(v, ml_.stringConstant("True", builder_),
                                               ml_.stringConstant("False", builder_)));
        return "%s";
      case TypeKind::Tuple: {
        std::vector<TypeId> elements = tt.elements;
        std::string out = "(";
        for (unsigned i = 0; i < elements.size(); ++i) {
          out += (i ? ", " : "") + item(builder_.CreateExtractValue(v, i), elements[i]);
        }
        return out + (elements.size() == 1 ? ",)" : ")");
      }
      default:
        assert(false && "the checker rejects this print argument");
        return "";
    }
  };
  for (ExprId a : args) {
    const Expr& e = ast_.expr(a);
    if (!typeOf(a).valid() && e.is<ast::Constant>()) {
      values.push_back(ml_.stringConstant(ast_.constantOf(a).text, builder_));
      formats.push_back("%s");
      continue;
    }
    formats.push_back(item(emitExpr(a), typeOf(a)));
  }
  std::string format;
  for (size_t k = 0; k < formats.size(); ++k) format += (k ? " " : "") + formats[k];
  format += "\n";
  llvm::Value* buffer = llvm::ConstantPointerNull::get(builder_.getPtrTy(0));
  if (!values.empty()) {
    std::vector<llvm::Type*> fields;
    for (llvm::Value* v : values) fields.push_back(v->getType());
    auto* type = llvm::StructType::get(context_, fields);
    llvm::Value* slot = entryAlloca(type);
    for (unsigned k = 0; k < values.size(); ++k) {
      builder_.CreateStore(values[k], builder_.CreateStructGEP(type, slot, k));
    }
    buffer = slot;
  }
  auto vprintf = ml_.module().getOrInsertFunction(
      "vprintf", llvm::FunctionType::get(builder_.getInt32Ty(),
                                         {builder_.getPtrTy(0), builder_.getPtrTy(0)}, false));
  builder_.CreateCall(vprintf, {ml_.stringConstant(format, builder_), buffer});
}

// cuda.fp16.*: native half arithmetic, comparisons and min/max (maxnum, as
// CUDA's __hmax); the transcendental ones through float32 libdevice, rounded
// back to half.
llvm::Value* FunctionLowering::emitFp16(Fp16Fn fn, std::span<const ExprId> args) {
  TypeId half = types().floatType(16);
  TypeId f32 = types().float32();
  std::vector<llvm::Value*> v;
  for (ExprId a : args) v.push_back(emitExprAs(a, half));
  auto viaFloat = [&](std::string_view base) {
    llvm::Value* x = builder_.CreateFPExt(v[0], builder_.getFloatTy());
    return builder_.CreateFPTrunc(callLibdevice(base, f32, {x}), builder_.getHalfTy());
  };
  switch (fn) {
    case Fp16Fn::Hadd: return builder_.CreateFAdd(v[0], v[1]);
    case Fp16Fn::Hsub: return builder_.CreateFSub(v[0], v[1]);
    case Fp16Fn::Hmul: return builder_.CreateFMul(v[0], v[1]);
    case Fp16Fn::Hdiv: return builder_.CreateFDiv(v[0], v[1]);
    case Fp16Fn::Hneg: return builder_.CreateFNeg(v[0]);
    case Fp16Fn::Habs: return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v[0]);
    case Fp16Fn::Hfma:
      return builder_.CreateIntrinsic(llvm::Intrinsic::fma, {v[0]->getType()}, {v[0], v[1], v[2]});
    case Fp16Fn::Hsin: return viaFloat("sin");
    case Fp16Fn::Hcos: return viaFloat("cos");
    case Fp16Fn::Hlog: return viaFloat("log");
    case Fp16Fn::Hlog2: return viaFloat("log2");
    case Fp16Fn::Hlog10: return viaFloat("log10");
    case Fp16Fn::Hexp: return viaFloat("exp");
    case Fp16Fn::Hexp2: return viaFloat("exp2");
    case Fp16Fn::Hexp10: return viaFloat("exp10");
    case Fp16Fn::Hsqrt: return viaFloat("sqrt");
    case Fp16Fn::Hrsqrt: return viaFloat("rsqrt");
    case Fp16Fn::Hrcp: {
      llvm::Value* x = builder_.CreateFPExt(v[0], builder_.getFloatTy());
      return builder_.CreateFPTrunc(builder_.CreateFDiv(llvm::ConstantFP::get(x->getType(), 1.0), x),
                                    builder_.getHalfTy());
    }
    case Fp16Fn::Hceil: return viaFloat("ceil");
    case Fp16Fn::Hfloor: return viaFloat("floor");
    case Fp16Fn::Hrint: return viaFloat("rint");
    case Fp16Fn::Htrunc: return viaFloat("trunc");
    case Fp16Fn::Heq: return builder_.CreateFCmpOEQ(v[0], v[1]);
    case Fp16Fn::Hne: return builder_.CreateFCmpONE(v[0], v[1]);
    case Fp16Fn::Hgt: return builder_.CreateFCmpOGT(v[0], v[1]);
    case Fp16Fn::Hge: return builder_.CreateFCmpOGE(v[0], v[1]);
    case Fp16Fn::Hlt: return builder_.CreateFCmpOLT(v[0], v[1]);
    case Fp16Fn::Hle: return builder_.CreateFCmpOLE(v[0], v[1]);
    case Fp16Fn::Hmax: return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, v[0], v[1]);
    case Fp16Fn::Hmin: return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, v[0], v[1]);
  }
  return v[0];
}

llvm::Align FunctionLowering::elementAlign(TypeId elementType) {
  // Complex numbers need only their parts' alignment (NumPy's).
  unsigned size = types().byteSize(elementType);
  return llvm::Align(types().isComplex(elementType) ? size / 2 : size);
}

llvm::Value* FunctionLowering::makeComplex(llvm::Value* re, llvm::Value* im, TypeId t) {
  llvm::Value* agg = llvm::PoisonValue::get(llvmType(t));
  agg = builder_.CreateInsertValue(agg, re, 0);
  return builder_.CreateInsertValue(agg, im, 1);
}

// + - * / ** of complex numbers (** in complex_math.cpp); division is CPython's
// (and numba's) _Py_c_quot: scaled by the larger part of the divisor; a zero
// divisor gives NaNs.
llvm::Value* FunctionLowering::complexArith(Operator op, llvm::Value* l, llvm::Value* r, TypeId t) {
  llvm::Value* a = builder_.CreateExtractValue(l, 0);
  llvm::Value* b = builder_.CreateExtractValue(l, 1);
  llvm::Value* c = builder_.CreateExtractValue(r, 0);
  llvm::Value* d = builder_.CreateExtractValue(r, 1);
  switch (op) {
    case Operator::Add:
      return makeComplex(builder_.CreateFAdd(a, c), builder_.CreateFAdd(b, d), t);
    case Operator::Sub:
      return makeComplex(builder_.CreateFSub(a, c), builder_.CreateFSub(b, d), t);
    case Operator::Mult:
      return makeComplex(builder_.CreateFSub(builder_.CreateFMul(a, c), builder_.CreateFMul(b, d)),
                         builder_.CreateFAdd(builder_.CreateFMul(a, d), builder_.CreateFMul(b, c)), t);
    case Operator::Pow: {
      ComplexParts p = lowerComplexPow(builder_, ml_.module(), ComplexParts{a, b},
                                       ComplexParts{c, d}, inst_.fastmath);
      return makeComplex(p.re, p.im, t);
    }
    default: {
      assert(op == Operator::Div && "the checker allows + - * / ** on complex numbers");
      llvm::Type* ft = a->getType();
      auto fabs = [&](llvm::Value* v) { return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); };
      llvm::Value* nan = llvm::ConstantFP::getNaN(ft);
      llvm::Value* zero = llvm::ConstantFP::get(ft, 0.0);
      llvm::Value* realBigger = builder_.CreateFCmpOGE(fabs(c), fabs(d));
      // |c| >= |d|: ratio = d / c.
      llvm::Value* ratio1 = builder_.CreateFDiv(d, c);
      llvm::Value* denom1 = builder_.CreateFAdd(c, builder_.CreateFMul(d, ratio1));
      llvm::Value* re1 = builder_.CreateFDiv(builder_.CreateFAdd(a, builder_.CreateFMul(b, ratio1)), denom1);
      llvm::Value* im1 = builder_.CreateFDiv(builder_.CreateFSub(b, builder_.CreateFMul(a, ratio1)), denom1);
      llvm::Value* cZero = builder_.CreateFCmpOEQ(c, zero);
      re1 = builder_.CreateSelect(cZero, nan, re1);
      im1 = builder_.CreateSelect(cZero, nan, im1);
      // Otherwise: ratio = c / d.
      llvm::Value* ratio2 = builder_.CreateFDiv(c, d);
      llvm::Value* denom2 = builder_.CreateFAdd(builder_.CreateFMul(c, ratio2), d);
      llvm::Value* re2 = builder_.CreateFDiv(builder_.CreateFAdd(builder_.CreateFMul(a, ratio2), b), denom2);
      llvm::Value* im2 = builder_.CreateFDiv(builder_.CreateFSub(builder_.CreateFMul(b, ratio2), a), denom2);
      llvm::Value* dZero = builder_.CreateFCmpOEQ(d, zero);
      re2 = builder_.CreateSelect(dZero, nan, re2);
      im2 = builder_.CreateSelect(dZero, nan, im2);
      return makeComplex(builder_.CreateSelect(realBigger, re1, re2),
                         builder_.CreateSelect(realBigger, im1, im2), t);
    }
  }
}

// cmath.<fn> on a complex value (real arguments converted): numba-cuda's
// cmathimpl algorithms (lowering/simt/complex_math.cpp), special values included.
llvm::Value* FunctionLowering::emitCmath(ExprId id, CmathFn fn, const ast::Call& c) {
  TypeId ct = inst_.opTypes[id.index];
  TypeId pt = types().complexPart(ct);
  llvm::Type* ft = llvmType(pt);
  auto args = ast_.list(c.args);
  auto lib = [&](std::string_view name, std::vector<llvm::Value*> a) { return callLibdevice(name, pt, std::move(a)); };
  auto fabs = [&](llvm::Value* v) { return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); };
  auto fromParts = [&](ComplexParts p) { return makeComplex(p.re, p.im, ct); };
  if (fn == CmathFn::Rect) {
    llvm::Value* r = emitExprAs(args[0], pt);
    llvm::Value* phi = emitExprAs(args[1], pt);
    return fromParts(lowerCmathRect(builder_, ml_.module(), r, phi, inst_.fastmath));
  }
  llvm::Value* z = emitExprAs(args[0], ct);
  llvm::Value* x = builder_.CreateExtractValue(z, 0);
  llvm::Value* y = builder_.CreateExtractValue(z, 1);
  llvm::Value* inf = llvm::ConstantFP::getInfinity(ft);
  switch (fn) {
    case CmathFn::Isnan:
      return builder_.CreateOr(builder_.CreateFCmpUNO(x, x), builder_.CreateFCmpUNO(y, y));
    case CmathFn::Isinf:
      return builder_.CreateOr(builder_.CreateFCmpOEQ(fabs(x), inf), builder_.CreateFCmpOEQ(fabs(y), inf));
    case CmathFn::Isfinite:
      return builder_.CreateAnd(builder_.CreateFCmpOLT(fabs(x), inf), builder_.CreateFCmpOLT(fabs(y), inf));
    case CmathFn::Phase:
      return lib("atan2", {y, x});
    case CmathFn::Polar: {
      llvm::Value* agg = llvm::PoisonValue::get(llvmType(typeOf(id)));
      agg = builder_.CreateInsertValue(agg, lib("hypot", {x, y}), 0);
      return builder_.CreateInsertValue(agg, lib("atan2", {y, x}), 1);
    }
    default:
      break;
  }
  llvm::Value* result =
      fromParts(lowerCmathUnary(builder_, ml_.module(), fn, ComplexParts{x, y}, inst_.fastmath));
  if (fn == CmathFn::Log && args.size() == 2) {
    // cmath.log(z, base): numba's cmath.log(z) / cmath.log(base).
    llvm::Value* base = emitExprAs(args[1], ct);
    ComplexParts b{builder_.CreateExtractValue(base, 0), builder_.CreateExtractValue(base, 1)};
    llvm::Value* logBase = fromParts(lowerCmathUnary(builder_, ml_.module(), fn, b, inst_.fastmath));
    result = complexArith(Operator::Div, result, logBase, ct);
  }
  return result;
}

// A module-level array literal: its `.const` global, as a C-ordered array value.
llvm::Value* FunctionLowering::constArray(uint32_t index, TypeId arrayType) {
  const ConstArrayData& data = ml_.typed().module.constArrays[index];
  llvm::GlobalVariable* g = ml_.constArrayGlobal(index);
  ArrayParts parts;
  parts.data = builder_.CreateAddrSpaceCast(g, builder_.getPtrTy(0));
  std::vector<int64_t> strides(data.shape.size(), 1);
  for (size_t d = data.shape.size(); d-- > 1;) strides[d - 1] = strides[d] * data.shape[d];
  for (size_t d = 0; d < data.shape.size(); ++d) {
    parts.shape.push_back(builder_.getInt64(data.shape[d]));
    parts.strides.push_back(builder_.getInt64(strides[d]));
  }
  return makeArray(parts, arrayType);
}

// `view[...] = value`: a loop nest over the view storing the scalar, or the
// element of `value` (an array of the same dimensions) at the same indices.
// numba's setitem on a view (`fancy_setslice`), or with `update` its in-place
// ufunc: a number is broadcast; an array is broadcast onto the view (missing
// leading dimensions and extents of 1 repeat with stride 0; extra leading
// dimensions must have extent 1), any other shape difference fails before an
// element is written. Elements go in C order; an overlapping source array is
// read as it is being written (numba copies it first for `=`).
void FunctionLowering::storeSlice(llvm::Value* view, TypeId viewType, llvm::Value* value,
                                  TypeId valueType, const SliceUpdate* update) {
  const Type& vt = types().get(viewType);
  TypeId element = vt.element;
  ArrayParts dst = arrayParts(view, viewType);
  bool fromArray = types().isArray(valueType);
  ArrayParts src;
  TypeId srcElement;
  std::vector<llvm::Value*> srcStrides;
  llvm::Value* tupleItems = nullptr;
  if (fromArray) {
    src = arrayParts(value, valueType);
    srcElement = types().get(valueType).element;
    llvm::Value* mismatch = builder_.getFalse();
    srcStrides = broadcastStrides(src, valueType, dst.shape, mismatch);
    sliceShapeFailure(mismatch);
  } else if (types().isTuple(valueType)) {
    // A tuple of one type into a 1-d view: its elements, converted, in a local
    // array indexed by the loop.
    const auto& elts = types().get(valueType).elements;
    auto* items = llvm::ArrayType::get(memoryType(element), elts.size());
    tupleItems = entryAlloca(items);
    for (unsigned k = 0; k < elts.size(); ++k) {
      llvm::Value* e = convert(builder_.CreateExtractValue(value, k), elts[k], element);
      storeElement(builder_.CreateConstGEP2_64(items, tupleItems, 0, k), e, element);
    }
    sliceShapeFailure(builder_.CreateICmpNE(dst.shape[0], builder_.getInt64(elts.size())));
  } else if (!update) {
    value = convert(value, valueType, element);
  }
  LoopNest nest = openLoopNest(dst.shape);
  std::vector<llvm::Value*> index = loopIndices(nest);
  llvm::Value* dstOffset = linearOffset(index, dst.strides);
  llvm::Value* item = value;
  TypeId itemType = valueType;
  if (fromArray) {
    llvm::Value* srcOffset = linearOffset(index, srcStrides);
    item = loadElement(builder_.CreateGEP(memoryType(srcElement), src.data, srcOffset), srcElement);
    itemType = srcElement;
    if (!update) item = convert(item, srcElement, element);
  } else if (tupleItems) {
    item = loadElement(builder_.CreateGEP(memoryType(element), tupleItems, index[0]), element);
    itemType = element;
  }
  llvm::Value* dstPtr = builder_.CreateGEP(memoryType(element), dst.data, dstOffset);
  if (update) {
    llvm::Value* l = convert(loadElement(dstPtr, element), element, update->opType);
    TypeId rhsType = update->exponent.valid() ? update->exponent : update->opType;
    llvm::Value* r = convert(item, itemType, rhsType);
    llvm::Value* result = emitArith(update->op, l, r, update->opType, update->exponent);
    item = convert(result, update->resultType, element);
  }
  storeElement(dstPtr, item, element);
  closeLoopNest(nest);
}

// The strides that read `src` at the indices of an array of `shape` as NumPy
// broadcasts it (missing leading dimensions and extents of 1 repeat with stride
// 0; extra leading dimensions must have extent 1); a shape that does not
// broadcast sets `mismatch`. The unit stride `src`'s layout promises becomes a
// constant.
std::vector<llvm::Value*> FunctionLowering::broadcastStrides(ArrayParts& src, TypeId srcType,
                                                             const std::vector<llvm::Value*>& shape,
                                                             llvm::Value*& mismatch) {
  const Type& st = types().get(srcType);
  if (st.layout == Layout::C) src.strides[st.ndim - 1] = builder_.getInt64(1);
  if (st.layout == Layout::F) src.strides[0] = builder_.getInt64(1);
  unsigned ndim = static_cast<unsigned>(shape.size());
  std::vector<llvm::Value*> strides(ndim, builder_.getInt64(0));
  llvm::Value* one = builder_.getInt64(1);
  int extra = static_cast<int>(st.ndim) - static_cast<int>(ndim);
  for (int d = 0; d < extra; ++d) {
    mismatch = builder_.CreateOr(mismatch, builder_.CreateICmpNE(src.shape[d], one));
  }
  for (unsigned j = 0; j < ndim; ++j) {
    int sd = static_cast<int>(j) + extra;
    if (sd < 0) continue;  // a missing leading dimension: stride 0
    llvm::Value* same = builder_.CreateICmpEQ(src.shape[sd], shape[j]);
    llvm::Value* unit = builder_.CreateICmpEQ(src.shape[sd], one);
    strides[j] = builder_.CreateSelect(same, src.strides[sd], builder_.getInt64(0));
    mismatch = builder_.CreateOr(mismatch, builder_.CreateNot(builder_.CreateOr(same, unit)));
  }
  return strides;
}

// A loop nest over the indices of `shape`, C order (the last index innermost);
// the builder is left in the innermost body.
FunctionLowering::LoopNest FunctionLowering::openLoopNest(const std::vector<llvm::Value*>& shape) {
  llvm::Type* i64 = builder_.getInt64Ty();
  LoopNest nest;
  for (llvm::Value* extent : shape) {
    auto* counter = llvm::cast<llvm::AllocaInst>(entryAlloca(i64));
    builder_.CreateStore(builder_.getInt64(0), counter);
    auto* header = llvm::BasicBlock::Create(context_, "slice.cond", function_);
    auto* body = llvm::BasicBlock::Create(context_, "slice.body", function_);
    auto* exit = llvm::BasicBlock::Create(context_, "slice.end", function_);
    builder_.CreateBr(header);
    builder_.SetInsertPoint(header);
    builder_.CreateCondBr(builder_.CreateICmpSLT(builder_.CreateLoad(i64, counter), extent), body,
                          exit);
    builder_.SetInsertPoint(body);
    nest.counters.push_back(counter);
    nest.latches.push_back(header);
    nest.exits.push_back(exit);
  }
  return nest;
}

std::vector<llvm::Value*> FunctionLowering::loopIndices(const LoopNest& nest) {
  std::vector<llvm::Value*> index;
  for (llvm::AllocaInst* counter : nest.counters) {
    index.push_back(builder_.CreateLoad(builder_.getInt64Ty(), counter));
  }
  return index;
}

llvm::Value* FunctionLowering::linearOffset(const std::vector<llvm::Value*>& index,
                                            const std::vector<llvm::Value*>& strides) {
  llvm::Value* offset = builder_.getInt64(0);
  for (size_t d = 0; d < index.size(); ++d) {
    offset = builder_.CreateAdd(offset, builder_.CreateMul(index[d], strides[d]));
  }
  return offset;
}

void FunctionLowering::closeLoopNest(const LoopNest& nest) {
  llvm::Type* i64 = builder_.getInt64Ty();
  for (size_t d = nest.counters.size(); d-- > 0;) {
    llvm::Value* i = builder_.CreateLoad(i64, nest.counters[d]);
    builder_.CreateStore(builder_.CreateAdd(i, builder_.getInt64(1), "", true, true), nest.counters[d]);
    builder_.CreateBr(nest.latches[d]);
    builder_.SetInsertPoint(nest.exits[d]);
  }
}

// A failed shape check of a slice assignment is numba's ValueError: reported
// through `pykc_error` in debug=True kernels; otherwise the thread ends, as
// numba's kernels return with the exception unchecked (a device function ends
// the thread with PTX `exit`, where numba returns through every caller).
void FunctionLowering::sliceShapeFailure(llvm::Value* mismatch) {
  if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(mismatch); c && c->isZero()) return;
  auto* fail = llvm::BasicBlock::Create(context_, "slice.shape_error", function_);
  auto* ok = llvm::BasicBlock::Create(context_, "slice.shape_ok", function_);
  builder_.CreateCondBr(mismatch, fail, ok,
                        llvm::MDBuilder(context_).createBranchWeights(1, 1 << 20));
  builder_.SetInsertPoint(fail);
  if (errorCodes_.count(currentStmt_)) {
    reportError(currentStmt_);
  } else {
    endThread();
  }
  builder_.SetInsertPoint(ok);
}

void FunctionLowering::returnOptional(llvm::Value* value) {
  auto* type = llvm::cast<llvm::StructType>(function_->getReturnType());
  llvm::Value* out = llvm::PoisonValue::get(type);
  out = builder_.CreateInsertValue(out, value != nullptr ? value : llvm::Constant::getNullValue(type->getElementType(0)), 0);
  out = builder_.CreateInsertValue(out, builder_.getInt1(value == nullptr), 1);
  builder_.CreateRet(out);
}

void FunctionLowering::endThread() {
  if (inst_.isKernel) {
    builder_.CreateRetVoid();
    return;
  }
  auto* exitTy = llvm::FunctionType::get(builder_.getVoidTy(), false);
  builder_.CreateCall(llvm::InlineAsm::get(exitTy, "exit;", "", true));
  builder_.CreateUnreachable();
}

// debug=True: the first failing site's code goes into `pykc_error` (later ones
// leave it), then the thread ends, as numba's kernels return with the
// exception stored for the host.
void FunctionLowering::reportError(uint32_t stmt) {
  builder_.CreateAtomicCmpXchg(ml_.errorWord(), builder_.getInt32(0),
                               builder_.getInt32(errorCodes_.at(stmt)), llvm::Align(4),
                               llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic, deviceScope());
  endThread();
}

// --- values ------------------------------------------------------------------------

llvm::Value* FunctionLowering::constant(const ConstValue& c, TypeId t) {
  const Type& type = types().get(t);
  switch (type.kind) {
    case TypeKind::Bool:
      return builder_.getInt1(truthOf(c));
    case TypeKind::Int: {
      int64_t v = c.kind == ConstValue::Kind::Bool  ? c.boolValue
                  : c.kind == ConstValue::Kind::Int ? c.intValue
                                                    : static_cast<int64_t>(c.floatValue);
      return llvm::ConstantInt::get(llvmType(t), static_cast<uint64_t>(v), type.isSigned);
    }
    case TypeKind::Float: {
      double v = c.kind == ConstValue::Kind::Bool  ? (c.boolValue ? 1.0 : 0.0)
                 : c.kind == ConstValue::Kind::Int ? static_cast<double>(c.intValue)
                                                   : c.floatValue;
      return llvm::ConstantFP::get(llvmType(t), v);
    }
    case TypeKind::Complex: {
      double v = c.kind == ConstValue::Kind::Bool  ? (c.boolValue ? 1.0 : 0.0)
                 : c.kind == ConstValue::Kind::Int ? static_cast<double>(c.intValue)
                                                   : c.floatValue;
      double im = c.kind == ConstValue::Kind::Complex ? c.imagValue : 0.0;
      llvm::Type* part = llvmType(types().complexPart(t));
      return llvm::ConstantStruct::get(llvm::cast<llvm::StructType>(llvmType(t)),
                                       {llvm::ConstantFP::get(part, v), llvm::ConstantFP::get(part, im)});
    }
    case TypeKind::Tuple: {
      std::vector<llvm::Constant*> elements;
      std::vector<TypeId> ets = type.elements;
      for (size_t i = 0; i < ets.size(); ++i) {
        elements.push_back(llvm::cast<llvm::Constant>(constant(c.elements[i], ets[i])));
      }
      return llvm::ConstantStruct::get(llvm::cast<llvm::StructType>(llvmType(t)), elements);
    }
    default:
      return llvm::PoisonValue::get(llvmType(t));
  }
}

llvm::Value* FunctionLowering::convert(llvm::Value* v, TypeId from, TypeId to) {
  if (from == to || !from.valid() || !to.valid()) return v;
  const Type& f = types().get(from);
  const Type& t = types().get(to);
  llvm::Type* target = llvmType(to);
  if (t.kind == TypeKind::Bool) return truth(v, from);
  if (t.kind == TypeKind::Complex) {
    TypeId part = types().complexPart(to);
    llvm::Value* re;
    llvm::Value* im;
    if (f.kind == TypeKind::Complex) {
      TypeId fromPart = types().complexPart(from);
      re = convert(builder_.CreateExtractValue(v, 0), fromPart, part);
      im = convert(builder_.CreateExtractValue(v, 1), fromPart, part);
    } else {
      re = convert(v, from, part);
      im = llvm::ConstantFP::get(llvmType(part), 0.0);
    }
    return makeComplex(re, im, to);
  }
  bool scalarTarget = t.kind == TypeKind::Int || t.kind == TypeKind::Float;
  switch (f.kind) {
    case TypeKind::Bool:
    case TypeKind::Int:
    case TypeKind::Float:
      if (scalarTarget) return convertScalar(builder_, v, f, t);
      break;
    case TypeKind::Array:
      // All layouts share one representation.
      return v;
    case TypeKind::Tuple: {
      if (t.kind != TypeKind::Tuple) break;
      std::vector<TypeId> fe = f.elements;
      std::vector<TypeId> te = t.elements;
      llvm::Value* agg = llvm::PoisonValue::get(target);
      for (unsigned i = 0; i < fe.size(); ++i) {
        llvm::Value* e = builder_.CreateExtractValue(v, i);
        agg = builder_.CreateInsertValue(agg, convert(e, fe[i], te[i]), i);
      }
      return agg;
    }
    default:
      break;
  }
  assert(false && "conversion the checker should have rejected");
  return v;
}

llvm::Value* FunctionLowering::truth(llvm::Value* v, TypeId t) {
  const Type& type = types().get(t);
  switch (type.kind) {
    case TypeKind::Bool:
      return v;
    case TypeKind::Int:
      return builder_.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
    case TypeKind::Float:
      // NaN is true in Python.
      return builder_.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));
    case TypeKind::Tuple:
      return builder_.getInt1(!type.elements.empty());
    case TypeKind::Tile:
      llvm_unreachable("tiles are lowered by tile_lower.cpp");
    case TypeKind::Complex: {
      llvm::Value* zero = llvm::ConstantFP::get(llvmType(types().complexPart(t)), 0.0);
      return builder_.CreateOr(builder_.CreateFCmpUNE(builder_.CreateExtractValue(v, 0), zero),
                               builder_.CreateFCmpUNE(builder_.CreateExtractValue(v, 1), zero));
    }
    case TypeKind::None:
      return builder_.getFalse();
    case TypeKind::Pointer:
      return builder_.CreateIsNotNull(v);
    case TypeKind::Array:
    case TypeKind::Record:
      break;
  }
  assert(false && "the checker rejects arrays as conditions");
  return builder_.getTrue();
}

ArrayParts FunctionLowering::arrayParts(llvm::Value* array, TypeId t) {
  const Type& type = types().get(t);
  ArrayParts parts;
  parts.data = builder_.CreateExtractValue(array, 0);
  for (unsigned d = 0; d < type.ndim; ++d) {
    parts.shape.push_back(builder_.CreateExtractValue(array, {1u, d}));
    parts.strides.push_back(builder_.CreateExtractValue(array, {2u, d}));
  }
  return parts;
}

llvm::Value* FunctionLowering::makeArray(const ArrayParts& parts, TypeId t) {
  llvm::Value* agg = llvm::PoisonValue::get(llvmType(t));
  agg = builder_.CreateInsertValue(agg, parts.data, 0);
  for (unsigned d = 0; d < parts.shape.size(); ++d) {
    agg = builder_.CreateInsertValue(agg, parts.shape[d], {1u, d});
    agg = builder_.CreateInsertValue(agg, parts.strides[d], {2u, d});
  }
  return agg;
}

// --- statements ----------------------------------------------------------------------

void FunctionLowering::emitBlock(llvm::BasicBlock* block, StmtList body, llvm::BasicBlock* next) {
  builder_.SetInsertPoint(block);
  emitBody(ast_.list(body));
  if (terminated()) return;
  // A dead end does not reach `next` (which may then be dead itself).
  if (deadEnd()) {
    builder_.CreateUnreachable();
  } else {
    builder_.CreateBr(next);
  }
}

void FunctionLowering::emitBody(std::span<const StmtId> body) {
  for (StmtId id : body) {
    // Dead code is not typed (FunctionChecker::neverFallsThrough): nothing to emit.
    if (deadEnd()) return;
    emitStmt(id);
  }
}

void FunctionLowering::storeTarget(ExprId target, llvm::Value* value, TypeId type) {
  const Expr& t = ast_.expr(target);
  if (const auto* n = t.dyn<ast::Name>()) {
    std::string name(ast_.str(n->id));
    auto it = vars_.find(name);
    // A name bound to a compile-time object (`g = cuda.cg.this_grid()`).
    if (it == vars_.end()) return;
    builder_.CreateStore(convert(value, type, inst_.variables.at(name)), it->second);
    return;
  }
  if (t.is<ast::Tuple>() || t.is<ast::List>()) {
    auto elts = t.is<ast::Tuple>() ? ast_.list(t.as<ast::Tuple>().elts)
                                   : ast_.list(t.as<ast::List>().elts);
    std::vector<TypeId> elements = types().get(type).elements;
    // Python evaluates the whole value, then assigns left to right.
    for (unsigned i = 0; i < elts.size(); ++i) {
      storeTarget(elts[i], builder_.CreateExtractValue(value, i), elements[i]);
    }
    return;
  }
  TypeId fieldType;
  if (llvm::Value* field = recordFieldTarget(target, fieldType)) {
    storeField(field, convert(value, type, fieldType), fieldType);
    return;
  }
  if (const auto* s = t.dyn<ast::Subscript>()) {
    if (types().isArray(typeOf(target))) {
      storeSlice(emitArrayView(target, *s), typeOf(target), value, type);
      return;
    }
    TypeId elementType;
    llvm::Value* ptr = elementPointer(s->value, s->slice, elementType);
    storeElement(ptr, convert(value, type, elementType), elementType);
    return;
  }
  assert(false && "the checker rejects other targets");
}

void FunctionLowering::emitStmt(StmtId id) {
  const Stmt& s = ast_.stmt(id);
  currentStmt_ = id.index;
  setLocation(s.range);
  switch (s.kind()) {
    case StmtKind::Assign: {
      const auto& a = s.as<ast::Assign>();
      llvm::Value* v = emitExpr(a.value);
      for (ExprId t : ast_.list(a.targets)) {
        setLocation(s.range);
        storeTarget(t, v, typeOf(a.value));
      }
      return;
    }
    case StmtKind::AnnAssign: {
      const auto& a = s.as<ast::AnnAssign>();
      if (!a.value.valid()) return;
      llvm::Value* v = emitExpr(a.value);
      storeTarget(a.target, v, typeOf(a.value));
      return;
    }
    case StmtKind::AugAssign: {
      const auto& a = s.as<ast::AugAssign>();
      const Expr& target = ast_.expr(a.target);
      TypeId opType = inst_.stmtOpTypes[id.index];
      TypeId resultType = inst_.stmtResultTypes[id.index];
      TypeId exponent = inst_.stmtPowExponentTypes[id.index];
      if (const auto* n = target.dyn<ast::Name>()) {
        std::string name(ast_.str(n->id));
        TypeId varType = inst_.variables.at(name);
        llvm::AllocaInst* slot = vars_.at(name);
        llvm::Value* current = builder_.CreateLoad(slot->getAllocatedType(), slot);
        llvm::Value* rhs = emitExpr(a.value);
        llvm::Value* l = convert(current, varType, opType);
        llvm::Value* r = convert(rhs, typeOf(a.value), exponent.valid() ? exponent : opType);
        llvm::Value* result = emitArith(a.op, l, r, opType, exponent);
        builder_.CreateStore(convert(result, resultType, varType), slot);
        return;
      }
      TypeId fieldType;
      if (llvm::Value* field = recordFieldTarget(a.target, fieldType)) {
        llvm::Align align = fieldAlign_;
        llvm::Value* rhs = emitExpr(a.value);
        fieldAlign_ = align;
        llvm::Value* l = convert(loadField(field, fieldType), fieldType, opType);
        llvm::Value* r = convert(rhs, typeOf(a.value), exponent.valid() ? exponent : opType);
        llvm::Value* result = emitArith(a.op, l, r, opType, exponent);
        fieldAlign_ = align;
        storeField(field, convert(result, resultType, fieldType), fieldType);
        return;
      }
      const auto& sub = target.as<ast::Subscript>();
      if (types().isArray(typeOf(a.target))) {
        // `a[1:3] += x`: numba's in-place ufunc on the view.
        llvm::Value* view = emitArrayView(a.target, sub);
        llvm::Value* rhs = emitExpr(a.value);
        SliceUpdate update{a.op, opType, resultType, exponent};
        storeSlice(view, typeOf(a.target), rhs, typeOf(a.value), &update);
        return;
      }
      TypeId elementType;
      llvm::Value* ptr = elementPointer(sub.value, sub.slice, elementType);
      llvm::Value* rhs = emitExpr(a.value);
      llvm::Value* current = loadElement(ptr, elementType);
      llvm::Value* l = convert(current, elementType, opType);
      llvm::Value* r = convert(rhs, typeOf(a.value), exponent.valid() ? exponent : opType);
      llvm::Value* result = emitArith(a.op, l, r, opType, exponent);
      storeElement(ptr, convert(result, resultType, elementType), elementType);
      return;
    }
    case StmtKind::For:
      emitFor(id, s.as<ast::For>());
      return;
    case StmtKind::While: {
      const auto& w = s.as<ast::While>();
      auto* header = llvm::BasicBlock::Create(context_, "while.cond", function_);
      auto* body = llvm::BasicBlock::Create(context_, "while.body", function_);
      auto* exit = llvm::BasicBlock::Create(context_, "while.end", function_);
      // `while ... else`: the else body runs when the condition fails, not after `break`.
      auto* otherwise = w.orelse.empty() ? exit : llvm::BasicBlock::Create(context_, "while.else", function_);
      builder_.CreateBr(header);
      builder_.SetInsertPoint(header);
      builder_.CreateCondBr(emitCondition(w.test), body, otherwise);
      builder_.SetInsertPoint(body);
      loops_.push_back(LoopTargets{header, exit});
      emitBody(ast_.list(w.body));
      loops_.pop_back();
      if (!terminated()) builder_.CreateBr(header);
      if (otherwise != exit) emitBlock(otherwise, w.orelse, exit);
      builder_.SetInsertPoint(exit);
      return;
    }
    case StmtKind::If: {
      const auto& i = s.as<ast::If>();
      if (int32_t c = inst_.constIndex[i.test.index]; c >= 0) {
        // A constant condition: the checker typed only the branch it takes.
        auto* taken = llvm::BasicBlock::Create(context_, "if.const", function_);
        auto* merge = llvm::BasicBlock::Create(context_, "if.end", function_);
        builder_.CreateBr(taken);
        emitBlock(taken, truthOf(inst_.constants[c]) ? i.body : i.orelse, merge);
        builder_.SetInsertPoint(merge);
        return;
      }
      auto* then = llvm::BasicBlock::Create(context_, "if.then", function_);
      auto* otherwise = i.orelse.empty() ? nullptr
                                         : llvm::BasicBlock::Create(context_, "if.else", function_);
      auto* merge = llvm::BasicBlock::Create(context_, "if.end", function_);
      builder_.CreateCondBr(emitCondition(i.test), then, otherwise ? otherwise : merge);
      emitBlock(then, i.body, merge);
      if (otherwise) emitBlock(otherwise, i.orelse, merge);
      builder_.SetInsertPoint(merge);
      return;
    }
    case StmtKind::Return: {
      const auto& r = s.as<ast::Return>();
      if (function_->getReturnType()->isVoidTy()) {
        if (r.value.valid()) emitExpr(r.value);
        builder_.CreateRetVoid();
        return;
      }
      if (inst_.optionalReturn) {
        bool none = !r.value.valid() || types().isNone(typeOf(r.value));
        returnOptional(none ? nullptr : emitExprAs(r.value, inst_.returnType));
        return;
      }
      assert(r.value.valid() && "the checker types value returns");
      builder_.CreateRet(emitExprAs(r.value, inst_.returnType));
      return;
    }
    case StmtKind::Assert: {
      if (!errorCodes_.count(id.index)) return;
      const auto& a = s.as<ast::Assert>();
      auto* fail = llvm::BasicBlock::Create(context_, "assert.fail", function_);
      auto* ok = llvm::BasicBlock::Create(context_, "assert.ok", function_);
      builder_.CreateCondBr(emitCondition(a.test), ok, fail);
      builder_.SetInsertPoint(fail);
      reportError(id.index);
      builder_.SetInsertPoint(ok);
      return;
    }
    case StmtKind::Raise:
      if (errorCodes_.count(id.index)) {
        reportError(id.index);
        return;
      }
      // Without debug=True numba ignores the exception: the thread ends (from a device
      // function too: numba returns through every caller, which runs nothing more).
      endThread();
      return;
    case StmtKind::Expr: {
      const auto& e = s.as<ast::ExprStmt>();
      if (ast_.expr(e.value).is<ast::Constant>()) return;
      discardResult_ = ast_.expr(e.value).is<ast::Call>();
      emitExpr(e.value);
      discardResult_ = false;
      return;
    }
    case StmtKind::Break:
      builder_.CreateBr(loops_.back().breakBlock);
      return;
    case StmtKind::Continue:
      builder_.CreateBr(loops_.back().continueBlock);
      return;
    case StmtKind::Pass:
      return;
    default:
      assert(false && "the checker rejects this statement");
      return;
  }
}

// range(a[, b[, c]]) inside zip/enumerate: its start, step and length (int64).
void FunctionLowering::rangeParts(const ast::Call& call, TypeId t, llvm::Value*& start,
                                  llvm::Value*& step, llvm::Value*& length) {
  auto args = ast_.list(call.args);
  llvm::Type* i64 = builder_.getInt64Ty();
  auto arg = [&](ExprId e) { return convert(emitExprAs(e, t), t, types().int64()); };
  start = llvm::ConstantInt::get(i64, 0);
  step = llvm::ConstantInt::get(i64, 1);
  llvm::Value* stop;
  if (args.size() == 1) {
    stop = arg(args[0]);
  } else {
    start = arg(args[0]);
    stop = arg(args[1]);
    if (args.size() == 3) step = arg(args[2]);
  }
  llvm::Value* zero = builder_.getInt64(0);
  llvm::Value* one = builder_.getInt64(1);
  llvm::Value* up = builder_.CreateSDiv(
      builder_.CreateSub(builder_.CreateAdd(builder_.CreateSub(stop, start), step), one), step);
  llvm::Value* down = builder_.CreateSDiv(
      builder_.CreateAdd(builder_.CreateSub(builder_.CreateSub(start, stop), step), builder_.CreateNeg(one)),
      builder_.CreateNeg(step));
  llvm::Value* n = builder_.CreateSelect(builder_.CreateICmpSGT(step, zero), up, down);
  length = builder_.CreateSelect(builder_.CreateICmpSGT(n, zero), n, zero);
}

// `for x in array/tuple/enumerate(...)/zip(...)`: a hidden int64 counter up to
// the shortest source's length; each source's item is computed from it.
void FunctionLowering::emitIterFor(StmtId id, const ast::For& f, const ForIteration& plan) {
  llvm::Type* i64 = builder_.getInt64Ty();
  struct Source {
    const IterSource* source;
    llvm::Value* value = nullptr;     // array or tuple
    llvm::Value* tupleSlot = nullptr;  // tuple elements in memory
    llvm::Value* start = nullptr;      // range
    llvm::Value* step = nullptr;
    llvm::Value* first = nullptr;      // enumerate(...) inside zip: its start
  };
  std::vector<Source> sources;
  llvm::Value* count = nullptr;
  for (const IterSource& src : plan.sources) {
    Source s{&src};
    llvm::Value* length;
    const TypeId element = src.enumerated ? src.inner : src.element;
    if (src.kind == IterSource::Kind::Range) {
      rangeParts(ast_.expr(src.expr).as<ast::Call>(), element, s.start, s.step, length);
    } else if (src.kind == IterSource::Kind::Array) {
      s.value = emitExpr(src.expr);
      length = builder_.CreateExtractValue(s.value, {1u, 0u});
    } else {
      s.value = emitExpr(src.expr);
      unsigned n = static_cast<unsigned>(types().get(typeOf(src.expr)).elements.size());
      llvm::Type* et = llvmType(element);
      auto* arrayType = llvm::ArrayType::get(et, n);
      s.tupleSlot = entryAlloca(arrayType);
      for (unsigned i = 0; i < n; ++i) {
        builder_.CreateStore(builder_.CreateExtractValue(s.value, i),
                             builder_.CreateConstGEP2_32(arrayType, s.tupleSlot, 0, i));
      }
      length = builder_.getInt64(n);
    }
    count = count ? builder_.CreateSelect(builder_.CreateICmpSLT(length, count), length, count)
                  : length;
    if (src.enumerated) {
      s.first = src.start.valid() ? emitExprAs(src.start, types().int64()) : builder_.getInt64(0);
    }
    sources.push_back(s);
  }
  llvm::Value* first = builder_.getInt64(0);
  if (plan.enumerateStart.valid()) first = emitExprAs(plan.enumerateStart, types().int64());
  llvm::AllocaInst* counter = llvm::cast<llvm::AllocaInst>(entryAlloca(i64));
  builder_.CreateStore(builder_.getInt64(0), counter);
  auto* header = llvm::BasicBlock::Create(context_, "iter.cond", function_);
  auto* body = llvm::BasicBlock::Create(context_, "iter.body", function_);
  auto* latch = llvm::BasicBlock::Create(context_, "iter.inc", function_);
  auto* exit = llvm::BasicBlock::Create(context_, "iter.end", function_);
  builder_.CreateBr(header);
  builder_.SetInsertPoint(header);
  llvm::Value* i = builder_.CreateLoad(i64, counter);
  auto* otherwise = f.orelse.empty() ? exit : llvm::BasicBlock::Create(context_, "iter.else", function_);
  builder_.CreateCondBr(builder_.CreateICmpSLT(i, count), body, otherwise);
  builder_.SetInsertPoint(body);
  std::vector<llvm::Value*> items;
  for (Source& s : sources) {
    const IterSource& src = *s.source;
    const TypeId element = src.enumerated ? src.inner : src.element;
    switch (src.kind) {
      case IterSource::Kind::Range:
        items.push_back(convert(builder_.CreateAdd(s.start, builder_.CreateMul(i, s.step)),
                                types().int64(), element));
        break;
      case IterSource::Kind::Tuple:
        items.push_back(builder_.CreateLoad(llvmType(element),
                                            builder_.CreateGEP(llvmType(element), s.tupleSlot, i)));
        break;
      case IterSource::Kind::Array: {
        TypeId arrayType = typeOf(src.expr);
        if (!types().isArray(element)) {
          items.push_back(loadElement(elementPointerOf(s.value, arrayType, i, types().int64()),
                                      element));
          break;
        }
        // A row: drop the first dimension.
        ArrayParts parts = arrayParts(s.value, arrayType);
        ArrayParts row;
        row.data = builder_.CreateGEP(memoryType(types().get(arrayType).element), parts.data,
                                      builder_.CreateMul(i, parts.strides[0]));
        row.shape.assign(parts.shape.begin() + 1, parts.shape.end());
        row.strides.assign(parts.strides.begin() + 1, parts.strides.end());
        if (types().get(arrayType).layout == Layout::C) row.strides.back() = builder_.getInt64(1);
        items.push_back(makeArray(row, element));
        break;
      }
    }
    if (src.enumerated) {  // (count, item)
      llvm::Value* pair = llvm::PoisonValue::get(llvmType(src.element));
      pair = builder_.CreateInsertValue(pair, builder_.CreateAdd(s.first, i), 0);
      items.back() = builder_.CreateInsertValue(pair, items.back(), 1);
    }
  }
  llvm::Value* item = items[0];
  if (plan.zip) {
    item = llvm::PoisonValue::get(llvmType(types().tuple([&] {
      std::vector<TypeId> e;
      for (const IterSource& src : plan.sources) e.push_back(src.element);
      return e;
    }())));
    for (unsigned k = 0; k < items.size(); ++k) item = builder_.CreateInsertValue(item, items[k], k);
  }
  if (plan.enumerate) {
    llvm::Value* pair = llvm::PoisonValue::get(llvmType(plan.item));
    pair = builder_.CreateInsertValue(pair, builder_.CreateAdd(first, i), 0);
    item = builder_.CreateInsertValue(pair, item, 1);
  }
  storeTarget(f.target, item, plan.item);
  loops_.push_back(LoopTargets{latch, exit});
  emitBody(ast_.list(f.body));
  loops_.pop_back();
  if (!terminated()) builder_.CreateBr(latch);
  builder_.SetInsertPoint(latch);
  setLocation(ast_.stmt(id).range);
  builder_.CreateStore(builder_.CreateAdd(builder_.CreateLoad(i64, counter), builder_.getInt64(1), "",
                                          true, true),
                       counter);
  builder_.CreateBr(header);
  emitLoopElse(f, otherwise, exit);
  builder_.SetInsertPoint(exit);
}

void FunctionLowering::emitFor(StmtId id, const ast::For& f) {
  if (auto it = inst_.iterations.find(id.index); it != inst_.iterations.end()) {
    emitIterFor(id, f, it->second);
    return;
  }
  const auto& call = ast_.expr(f.iter).as<ast::Call>();
  auto args = ast_.list(call.args);
  TypeId t = inst_.rangeTypes[id.index];
  llvm::Type* lt = llvmType(t);
  bool isSigned = types().get(t).isSigned;
  llvm::Value* start = llvm::ConstantInt::get(lt, 0);
  llvm::Value* step = llvm::ConstantInt::get(lt, 1);
  llvm::Value* stop;
  bool stepKnown = true;
  int64_t stepValue = 1;
  if (args.size() == 1) {
    stop = emitExprAs(args[0], t);
  } else {
    start = emitExprAs(args[0], t);
    stop = emitExprAs(args[1], t);
    if (args.size() == 3) {
      step = emitExprAs(args[2], t);
      int32_t c = inst_.constIndex[args[2].index];
      stepKnown = c >= 0 && inst_.constants[c].kind == ConstValue::Kind::Int;
      if (stepKnown) stepValue = inst_.constants[c].intValue;
    }
  }
  llvm::AllocaInst* counter = llvm::cast<llvm::AllocaInst>(entryAlloca(lt));
  builder_.CreateStore(start, counter);
  auto* header = llvm::BasicBlock::Create(context_, "for.cond", function_);
  auto* body = llvm::BasicBlock::Create(context_, "for.body", function_);
  auto* latch = llvm::BasicBlock::Create(context_, "for.inc", function_);
  auto* exit = llvm::BasicBlock::Create(context_, "for.end", function_);
  builder_.CreateBr(header);
  builder_.SetInsertPoint(header);
  llvm::Value* current = builder_.CreateLoad(lt, counter);
  llvm::Value* cond;
  auto upward = [&] {
    return isSigned ? builder_.CreateICmpSLT(current, stop) : builder_.CreateICmpULT(current, stop);
  };
  if (!isSigned || (stepKnown && stepValue > 0)) {
    cond = upward();
  } else if (stepKnown && stepValue < 0) {
    cond = builder_.CreateICmpSGT(current, stop);
  } else {
    llvm::Value* positive = builder_.CreateICmpSGT(step, llvm::ConstantInt::get(lt, 0));
    cond = builder_.CreateSelect(positive, upward(), builder_.CreateICmpSGT(current, stop));
  }
  auto* otherwise = f.orelse.empty() ? exit : llvm::BasicBlock::Create(context_, "for.else", function_);
  builder_.CreateCondBr(cond, body, otherwise);
  builder_.SetInsertPoint(body);
  storeTarget(f.target, current, t);
  loops_.push_back(LoopTargets{latch, exit});
  emitBody(ast_.list(f.body));
  loops_.pop_back();
  if (!terminated()) builder_.CreateBr(latch);
  builder_.SetInsertPoint(latch);
  setLocation(ast_.stmt(id).range);
  llvm::Value* again = builder_.CreateLoad(lt, counter);
  // The counter never passes `stop` by more than one step, so with a signed
  // type the increment cannot wrap unless `stop` is within a step of the
  // type's limit (as in numba, which computes the same sum).
  builder_.CreateStore(builder_.CreateAdd(again, step, "", false, isSigned), counter);
  builder_.CreateBr(header);
  emitLoopElse(f, otherwise, exit);
  builder_.SetInsertPoint(exit);
}

// `for ... else`: the else body runs when the iteration ends, not after `break`.
void FunctionLowering::emitLoopElse(const ast::For& f, llvm::BasicBlock* otherwise,
                                    llvm::BasicBlock* exit) {
  if (otherwise == exit) return;
  builder_.SetInsertPoint(otherwise);
  emitBody(ast_.list(f.orelse));
  if (!terminated()) builder_.CreateBr(exit);
}

}  // namespace lowering::simt
