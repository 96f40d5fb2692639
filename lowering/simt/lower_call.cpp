// SIMT lowering: calls to numba.cuda intrinsics, math and device functions (emitCall) (lowering/simt/lower_internal.h).
#include "lowering/simt/lower_internal.h"

namespace lowering::simt {

llvm::Value* FunctionLowering::emitCall(ExprId id, const ast::Call& c) {
  bool discard = std::exchange(discardResult_, false);
  const ExprMeaning& m = inst_.meanings[c.func.index];
  TypeId t = typeOf(id);
  auto args = ast_.list(c.args);
  TypeId opType = inst_.opTypes[id.index];
  if (isAtomic(m.kind)) return emitAtomic(id, m.kind, c);
  switch (m.kind) {
    case Intrinsic::Function: {
      int32_t callee = inst_.callees[id.index];
      assert(callee >= 0 && "device calls are resolved");
      const FunctionInstance& target = ml_.typed().instances[callee];
      std::vector<ExprId> ordered(args.begin(), args.end());
      if (auto it = inst_.callArguments.find(id.index); it != inst_.callArguments.end()) {
        ordered = it->second;
      }
      std::vector<llvm::Value*> values;
      for (size_t k = 0; k < ordered.size(); ++k) {
        // Omitted arguments are folded into the callee.
        if (!target.isOmitted(k)) values.push_back(emitExprAs(ordered[k], target.argTypes[k]));
      }
      llvm::CallInst* call = builder_.CreateCall(ml_.function(callee), values);
      if (!target.optionalReturn) return call;
      // numba's Optional used as a value: None ends the thread (the failed cast's
      // exception), unless the statement discards the result.
      if (!discard) {
        auto* none = llvm::BasicBlock::Create(context_, "optional.none", function_);
        auto* some = llvm::BasicBlock::Create(context_, "optional.value", function_);
        builder_.CreateCondBr(builder_.CreateExtractValue(call, 1), none, some,
                              llvm::MDBuilder(context_).createBranchWeights(1, 1 << 20));
        builder_.SetInsertPoint(none);
        endThread();
        builder_.SetInsertPoint(some);
      }
      return builder_.CreateExtractValue(call, 0);
    }
    case Intrinsic::ExternFunction:
      return emitExternCall(ml_.typed().module.externs[m.payload], args);
    case Intrinsic::FromBuffer:
      // The array's data pointer (field 0 of the array value).
      return builder_.CreateExtractValue(emitExpr(args[0]), 0);
    case Intrinsic::TypeObject:
    case Intrinsic::Int:
    case Intrinsic::Float:
    case Intrinsic::Bool:
      return emitExprAs(args[0], opType);
    case Intrinsic::ScalarView: {
      ExprId base = ast_.expr(c.func).as<ast::Attribute>().value;
      return builder_.CreateBitCast(emitExpr(base), llvmType(t));
    }
    case Intrinsic::ComplexConjugate: {
      ExprId base = ast_.expr(c.func).as<ast::Attribute>().value;
      llvm::Value* v = emitExpr(base);
      if (!types().isComplex(typeOf(base))) return v;
      return makeComplex(builder_.CreateExtractValue(v, 0),
                         builder_.CreateFNeg(builder_.CreateExtractValue(v, 1)), t);
    }
    case Intrinsic::ComplexCtor: {
      llvm::Type* part = llvmType(opType);
      llvm::Value* re = args.empty() ? llvm::ConstantFP::get(part, 0.0) : emitExprAs(args[0], opType);
      llvm::Value* im = args.size() < 2 ? llvm::ConstantFP::get(part, 0.0) : emitExprAs(args[1], opType);
      return makeComplex(re, im, t);
    }
    case Intrinsic::Cmath:
      return emitCmath(id, static_cast<CmathFn>(m.payload), c);
    case Intrinsic::Pow: {
      TypeId exponent = inst_.powExponentTypes[id.index];
      llvm::Value* l = emitExprAs(args[0], opType);
      llvm::Value* r = emitExprAs(args[1], exponent.valid() ? exponent : opType);
      return convert(emitArith(Operator::Pow, l, r, opType, exponent), opType, t);
    }
    case Intrinsic::Fp16:
      return emitFp16(static_cast<Fp16Fn>(m.payload), args);
    case Intrinsic::VectorCtor: {
      // The arguments' elements in order, numbers converted to the base type.
      TypeId element = types().get(t).elements[0];
      std::vector<llvm::Value*> parts;
      for (ExprId arg : args) {
        TypeId at = typeOf(arg);
        llvm::Value* v = emitExpr(arg);
        if (types().isVector(at)) {
          for (unsigned k = 0; k < types().get(at).elements.size(); ++k) {
            parts.push_back(builder_.CreateExtractValue(v, k));
          }
        } else {
          parts.push_back(convert(v, at, element));
        }
      }
      llvm::Value* vector = llvm::PoisonValue::get(llvmType(t));
      for (unsigned k = 0; k < parts.size(); ++k) {
        vector = builder_.CreateInsertValue(vector, parts[k], k);
      }
      return vector;
    }
    case Intrinsic::Random: {
      auto fn = static_cast<RandomFn>(m.payload);
      if (fn == RandomFn::ToUnitFloat32 || fn == RandomFn::ToUnitFloat64) {
        return lowerRandom(builder_, ml_.module(), fn, XoroshiroState{},
                           emitExprAs(args[0], types().uint64()));
      }
      // states[index] (numba's getitem: negative indices wrap), its fields.
      TypeId statesType = typeOf(args[0]);
      llvm::Value* states = emitExpr(args[0]);
      llvm::Value* index = emitExpr(args[1]);
      llvm::Value* seed = args.size() > 2 ? emitExprAs(args[2], types().uint64()) : nullptr;
      llvm::Value* element = elementPointerOf(states, statesType, index, typeOf(args[1]));
      TypeId rec = types().get(statesType).element;
      const Type& rt = types().get(rec);
      auto field = [&](const char* name) {
        return builder_.CreateConstInBoundsGEP1_64(
            builder_.getInt8Ty(), element, rt.fieldOffsets[*types().fieldIndex(rec, name)]);
      };
      return lowerRandom(builder_, ml_.module(), fn, XoroshiroState{field("s0"), field("s1")},
                         seed);
    }
    case Intrinsic::CacheLoad:
    case Intrinsic::CacheStore: {
      TypeId targetType = typeOf(args[0]);
      TypeId element = types().get(targetType).element;
      llvm::Value* ptr;
      if (types().isPointer(targetType)) {
        llvm::Value* base = emitExpr(args[0]);
        llvm::Value* index = convert(emitExpr(args[1]), typeOf(args[1]), types().int64());
        ptr = builder_.CreateGEP(memoryType(element), base, index);
      } else {
        ptr = elementPointer(args[0], args[1], element);
      }
      if (m.kind == Intrinsic::CacheLoad) {
        return lowerCacheLoad(builder_, cacheLoadOperator(m.payload), ptr, llvmType(element));
      }
      lowerCacheStore(builder_, cacheStoreOperator(m.payload), ptr, emitExprAs(args[2], element));
      return nullptr;
    }
    case Intrinsic::Libdevice: {
      LibdeviceSignature sig = libdeviceSignature(m.payload, types());
      LibdeviceCallTypes callTypes;
      callTypes.result = types().isNone(sig.result) ? nullptr : llvmType(sig.result);
      for (TypeId p : sig.params) callTypes.params.push_back(llvmType(p));
      callTypes.output = sig.output;
      callTypes.value = llvmType(t);
      std::vector<llvm::Value*> values;
      for (size_t k = 0; k < args.size(); ++k) values.push_back(emitExprAs(args[k], sig.args[k]));
      return lowerLibdeviceCall(builder_, ml_.module(), libdeviceFn(m.payload).name, callTypes,
                                values);
    }
    case Intrinsic::Abs: {
      if (types().isComplex(opType)) {
        llvm::Value* z = emitExprAs(args[0], opType);
        return callLibdevice("hypot", types().complexPart(opType),
                             {builder_.CreateExtractValue(z, 0), builder_.CreateExtractValue(z, 1)});
      }
      llvm::Value* v = emitExprAs(args[0], opType);
      if (types().isFloat(opType)) return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v);
      if (!types().get(opType).isSigned) return v;
      llvm::Value* negative = builder_.CreateICmpSLT(v, llvm::ConstantInt::get(v->getType(), 0));
      return builder_.CreateSelect(negative, builder_.CreateNeg(v), v);
    }
    case Intrinsic::Min:
    case Intrinsic::Max: {
      // Python: keep the first extreme value (NaN compares false).
      llvm::Value* result = emitExprAs(args[0], opType);
      for (size_t k = 1; k < args.size(); ++k) {
        llvm::Value* v = emitExprAs(args[k], opType);
        llvm::Value* better = emitCmp(m.kind == Intrinsic::Max ? CmpOp::Gt : CmpOp::Lt, v, result, opType);
        result = builder_.CreateSelect(better, v, result);
      }
      return result;
    }
    case Intrinsic::Len: {
      llvm::Value* array = emitExpr(args[0]);
      return builder_.CreateExtractValue(array, {1u, 0u});
    }
    case Intrinsic::Round: {
      llvm::Value* v = emitExprAs(args[0], opType);
      if (!types().isFloat(opType)) return convert(v, opType, t);
      if (args.size() == 1) {
        llvm::Value* r = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::rint, v);
        return convert(r, opType, t);
      }
      // numba's round(x, ndigits): scale by 10**|ndigits|, round half to even.
      llvm::Value* digits = emitExprAs(args[1], types().int64());
      llvm::Value* ten = llvm::ConstantFP::get(v->getType(), 10.0);
      llvm::Value* negative = builder_.CreateICmpSLT(digits, builder_.getInt64(0));
      llvm::Value* magnitude = builder_.CreateSelect(negative, builder_.CreateNeg(digits), digits);
      llvm::Value* scale = builder_.CreateCall(ml_.powHelper(opType, types().int64()), {ten, magnitude});
      llvm::Value* up = builder_.CreateFDiv(
          builder_.CreateUnaryIntrinsic(llvm::Intrinsic::rint, builder_.CreateFMul(v, scale)), scale);
      llvm::Value* down = builder_.CreateFMul(
          builder_.CreateUnaryIntrinsic(llvm::Intrinsic::rint, builder_.CreateFDiv(v, scale)), scale);
      return builder_.CreateSelect(negative, down, up);
    }
    case Intrinsic::NumpyFn:
      return emitNumpyFn(static_cast<NumpyFn>(m.payload), args, opType, inst_.powExponentTypes[id.index], t);
    case Intrinsic::Math: {
      if (types().isArray(t)) return emitUfunc(id, static_cast<MathFn>(m.payload));
      llvm::Value* v = emitMath(id, static_cast<MathFn>(m.payload), c);
      // float16 results are computed in float32.
      if (types().isFloat(t) && types().get(t).bits == 16 && !v->getType()->isHalfTy()) {
        v = builder_.CreateFPTrunc(v, llvmType(t));
      }
      return v;
    }
    case Intrinsic::Grid:
    case Intrinsic::Gridsize: {
      unsigned n = inst_.meanings[id.index].payload;
      bool size = m.kind == Intrinsic::Gridsize;
      if (n == 1) return gridPart(size, 0);
      llvm::Value* agg = llvm::PoisonValue::get(llvmType(t));
      for (unsigned d = 0; d < n; ++d) agg = builder_.CreateInsertValue(agg, gridPart(size, d), d);
      return agg;
    }
    case Intrinsic::Syncthreads:
      builder_.CreateCall(llvm::Intrinsic::getDeclaration(&ml_.module(), llvm::Intrinsic::nvvm_barrier0));
      return nullptr;
    case Intrinsic::ThisGrid:
      return nullptr;
    case Intrinsic::ShflSync:
    case Intrinsic::ShflUpSync:
    case Intrinsic::ShflDownSync:
    case Intrinsic::ShflXorSync:
      return emitShuffle(m.kind, args);
    case Intrinsic::AllSync:
    case Intrinsic::AnySync:
    case Intrinsic::EqSync:
    case Intrinsic::BallotSync: {
      llvm::Value* mask = emitExprAs(args[0], types().intType(32, false));
      llvm::Value* pred = emitExprAs(args[1], types().boolean());
      llvm::Intrinsic::ID iid = m.kind == Intrinsic::AllSync   ? llvm::Intrinsic::nvvm_vote_all_sync
                                : m.kind == Intrinsic::AnySync ? llvm::Intrinsic::nvvm_vote_any_sync
                                : m.kind == Intrinsic::EqSync  ? llvm::Intrinsic::nvvm_vote_uni_sync
                                                               : llvm::Intrinsic::nvvm_vote_ballot_sync;
      return builder_.CreateCall(llvm::Intrinsic::getDeclaration(&ml_.module(), iid), {mask, pred});
    }
    case Intrinsic::Activemask: {
      auto* type = llvm::FunctionType::get(builder_.getInt32Ty(), false);
      auto* code = llvm::InlineAsm::get(type, "activemask.b32 $0;", "=r", /*hasSideEffects=*/true);
      return builder_.CreateCall(type, code);
    }
    case Intrinsic::LanemaskLt:
      return builder_.CreateCall(
          llvm::Intrinsic::getDeclaration(&ml_.module(), llvm::Intrinsic::nvvm_read_ptx_sreg_lanemask_lt));
    case Intrinsic::Popc:
    case Intrinsic::Clz:
    case Intrinsic::Ffs:
    case Intrinsic::Brev: {
      llvm::Value* v = emitExprAs(args[0], opType);
      llvm::Type* it = v->getType();
      if (m.kind == Intrinsic::Popc) return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, v);
      if (m.kind == Intrinsic::Clz) {
        return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, v, builder_.getFalse());
      }
      if (m.kind == Intrinsic::Brev) {
        if (it->getIntegerBitWidth() < 32) v = builder_.CreateZExt(v, builder_.getInt32Ty());
        return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::bitreverse, v);
      }
      // ffs: 1-based position of the lowest set bit, 0 for 0.
      llvm::Value* tz = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, v, builder_.getTrue());
      llvm::Value* pos = builder_.CreateAdd(builder_.CreateZExtOrTrunc(tz, builder_.getInt32Ty()),
                                            builder_.getInt32(1));
      return builder_.CreateSelect(builder_.CreateICmpEQ(v, llvm::ConstantInt::get(it, 0)),
                                   builder_.getInt32(0), pos);
    }
    case Intrinsic::Fma: {
      llvm::Value* a = emitExprAs(args[0], opType);
      llvm::Value* b = emitExprAs(args[1], opType);
      llvm::Value* c = emitExprAs(args[2], opType);
      return builder_.CreateIntrinsic(llvm::Intrinsic::fma, {a->getType()}, {a, b, c});
    }
    case Intrinsic::Cbrt:
      return callLibdevice("cbrt", opType, {emitExprAs(args[0], opType)});
    case Intrinsic::GridSync:
      ml_.noteCooperative(inst_);
      emitGridSync();
      return nullptr;
    case Intrinsic::SyncthreadsCount:
    case Intrinsic::SyncthreadsAnd:
    case Intrinsic::SyncthreadsOr: {
      llvm::Value* pred = builder_.CreateZExt(emitExprAs(args[0], types().boolean()), builder_.getInt32Ty());
      llvm::Intrinsic::ID iid = m.kind == Intrinsic::SyncthreadsCount ? llvm::Intrinsic::nvvm_barrier0_popc
                                : m.kind == Intrinsic::SyncthreadsAnd ? llvm::Intrinsic::nvvm_barrier0_and
                                                                      : llvm::Intrinsic::nvvm_barrier0_or;
      return builder_.CreateCall(llvm::Intrinsic::getDeclaration(&ml_.module(), iid), {pred});
    }
    case Intrinsic::Syncwarp: {
      llvm::Value* mask = args.empty() ? builder_.getInt32(0xffffffffu)
                                       : emitExprAs(args[0], types().intType(32, false));
      builder_.CreateCall(llvm::Intrinsic::getDeclaration(&ml_.module(), llvm::Intrinsic::nvvm_bar_warp_sync), {mask});
      return nullptr;
    }
    case Intrinsic::Threadfence:
    case Intrinsic::ThreadfenceBlock:
    case Intrinsic::ThreadfenceSystem: {
      llvm::Intrinsic::ID iid = m.kind == Intrinsic::Threadfence ? llvm::Intrinsic::nvvm_membar_gl
                                : m.kind == Intrinsic::ThreadfenceBlock ? llvm::Intrinsic::nvvm_membar_cta
                                                                        : llvm::Intrinsic::nvvm_membar_sys;
      builder_.CreateCall(llvm::Intrinsic::getDeclaration(&ml_.module(), iid));
      return nullptr;
    }
    case Intrinsic::SharedArray:
    case Intrinsic::LocalArray:
      return emitArrayAlloc(id, m.kind, c);
    case Intrinsic::MatchAnySync:
    case Intrinsic::MatchAllSync:
      return emitMatch(m.kind, args, opType);
    case Intrinsic::ConstArrayLike:
      return emitExpr(args[0]);
    case Intrinsic::Print:
      emitPrint(args);
      return nullptr;
    case Intrinsic::Selp: {
      llvm::Value* pred = emitExprAs(args[0], types().boolean());
      llvm::Value* a = emitExprAs(args[1], opType);
      llvm::Value* b = emitExprAs(args[2], opType);
      return builder_.CreateSelect(pred, a, b);
    }
    case Intrinsic::Breakpoint: {
      // numba-cuda's `brkpt` stops a kernel under cuda-gdb; pykc emits it only in
      // kernels built for debugging (debug=True), elsewhere breakpoint() is a no-op.
      if (!fn_.options.debug) return nullptr;
      auto* type = llvm::FunctionType::get(builder_.getVoidTy(), false);
      builder_.CreateCall(type, llvm::InlineAsm::get(type, "brkpt;", "", /*hasSideEffects=*/true));
      return nullptr;
    }
    case Intrinsic::Nanosleep: {
      llvm::Value* ns = emitExprAs(args[0], types().intType(32, false));
      auto* type = llvm::FunctionType::get(builder_.getVoidTy(), {builder_.getInt32Ty()}, false);
      auto* code = llvm::InlineAsm::get(type, "nanosleep.u32 $0;", "r", /*hasSideEffects=*/true);
      builder_.CreateCall(type, code, {ns});
      return nullptr;
    }
    default:
      break;
  }
  assert(false && "the checker rejects this call");
  return nullptr;
}

}  // namespace lowering::simt
