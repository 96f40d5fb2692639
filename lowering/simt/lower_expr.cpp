// SIMT lowering: expressions (lowering/simt/lower_internal.h).
#include "lowering/simt/lower_internal.h"

namespace lowering::simt {

// --- expressions ---------------------------------------------------------------------

llvm::Value* FunctionLowering::emitCondition(ExprId id) {
  int32_t c = inst_.constIndex[id.index];
  if (c >= 0) return builder_.getInt1(truthOf(inst_.constants[c]));
  llvm::Value* v = emitExpr(id);
  return truth(v, typeOf(id));
}

llvm::Value* FunctionLowering::emitExpr(ExprId id) {
  TypeId t = typeOf(id);
  int32_t c = inst_.constIndex[id.index];
  if (c >= 0 && t.valid() && !types().isArray(t)) {
    return constant(inst_.constants[c], t);
  }
  const Expr& e = ast_.expr(id);
  if (!t.valid()) {
    // A compile-time object (a module, `cuda.cg.this_grid()`): no value.
    if (e.is<ast::Call>()) emitCall(id, e.as<ast::Call>());
    return nullptr;
  }
  switch (e.kind()) {
    case ExprKind::Name: {
      const ExprMeaning& m = inst_.meanings[id.index];
      if (m.kind == Intrinsic::Laneid) {
        return specialRegister(llvm::Intrinsic::nvvm_read_ptx_sreg_laneid, 0, 32);
      }
      if (m.kind == Intrinsic::Warpsize) return builder_.getInt32(32);
      if (m.kind == Intrinsic::ConstArray) return constArray(m.payload, t);
      if (m.kind == Intrinsic::MathConst) return complexMathConst(m.payload, t);
      std::string name(ast_.str(e.as<ast::Name>().id));
      llvm::AllocaInst* slot = vars_.at(name);
      return builder_.CreateLoad(slot->getAllocatedType(), slot, name);
    }
    case ExprKind::Constant:
      if (types().isComplex(t)) {
        llvm::Type* part = llvmType(types().complexPart(t));
        return makeComplex(llvm::ConstantFP::get(part, 0.0),
                           llvm::ConstantFP::get(part, ast_.constantOf(id).floatValue), t);
      }
      return constant(ConstValue{}, t);
    case ExprKind::Attribute:
      return emitAttribute(id, e.as<ast::Attribute>());
    case ExprKind::Subscript:
      return emitSubscript(id, e.as<ast::Subscript>());
    case ExprKind::Call:
      return emitCall(id, e.as<ast::Call>());
    case ExprKind::BinOp: {
      const auto& b = e.as<ast::BinOp>();
      TypeId opType = inst_.opTypes[id.index];
      TypeId exponent = inst_.powExponentTypes[id.index];
      llvm::Value* l = emitExprAs(b.left, opType);
      llvm::Value* r = emitExprAs(b.right, exponent.valid() ? exponent : opType);
      return convert(emitArith(b.op, l, r, opType, exponent), opType, t);
    }
    case ExprKind::UnaryOp:
      return emitUnary(id, e.as<ast::UnaryOp>());
    case ExprKind::Compare:
      return emitCompare(id, e.as<ast::Compare>());
    case ExprKind::BoolOp:
      return emitBoolOp(id, e.as<ast::BoolOp>());
    case ExprKind::IfExp:
      return emitIfExp(id, e.as<ast::IfExp>());
    case ExprKind::Tuple: {
      const auto& tuple = e.as<ast::Tuple>();
      llvm::Value* agg = llvm::PoisonValue::get(llvmType(t));
      unsigned i = 0;
      for (ExprId x : ast_.list(tuple.elts)) {
        agg = builder_.CreateInsertValue(agg, emitExpr(x), i++);
      }
      return agg;
    }
    default:
      assert(false && "the checker rejects this expression");
      return llvm::PoisonValue::get(llvmType(t));
  }
}

llvm::Value* FunctionLowering::emitArith(Operator op, llvm::Value* l, llvm::Value* r,
                                         TypeId opType, TypeId exponentType) {
  const Type& t = types().get(opType);
  if (t.kind == TypeKind::Complex) return complexArith(op, l, r, opType);
  bool isFloat = t.kind == TypeKind::Float;
  bool isSigned = t.kind == TypeKind::Int ? t.isSigned : true;
  // Signed integer +, - and * carry `nsw`, as numba's `_int_arith_flags` emits
  // them: LLVM can then prove indices like `k + tx` non-negative and drop the
  // negative-index wrap-around from loops.
  bool nsw = !isFloat && isSigned;
  switch (op) {
    case Operator::Add:
      return isFloat ? builder_.CreateFAdd(l, r) : builder_.CreateAdd(l, r, "", false, nsw);
    case Operator::Sub:
      return isFloat ? builder_.CreateFSub(l, r) : builder_.CreateSub(l, r, "", false, nsw);
    case Operator::Mult:
      return isFloat ? builder_.CreateFMul(l, r) : builder_.CreateMul(l, r, "", false, nsw);
    case Operator::Div:
      if (inst_.fastmath && t.bits == 32) {
        // numba's fastmath=True compiles with NVVM's -prec-div=0.
        return callLibdevice("fast_fdivide", opType, {l, r});
      }
      return builder_.CreateFDiv(l, r);
    case Operator::FloorDiv:
    case Operator::Mod: {
      bool mod = op == Operator::Mod;
      if (isFloat) return floatDivmod(l, r, opType, mod);
      return integerFloorDivMod(builder_, l, r, isSigned, mod);
    }
    case Operator::Pow:
      if (exponentType.valid()) {
        return builder_.CreateCall(ml_.powHelper(opType, exponentType), {l, r});
      }
      return callLibdevice(inst_.fastmath && t.bits == 32 ? "fast_pow" : "pow", opType, {l, r});
    case Operator::LShift:
      return builder_.CreateShl(l, r);
    case Operator::RShift:
      return isSigned ? builder_.CreateAShr(l, r) : builder_.CreateLShr(l, r);
    case Operator::BitAnd:
      return builder_.CreateAnd(l, r);
    case Operator::BitOr:
      return builder_.CreateOr(l, r);
    case Operator::BitXor:
      return builder_.CreateXor(l, r);
    case Operator::MatMult:
      break;
  }
  assert(false && "the checker rejects @");
  return l;
}

// CPython's float_divmod: the floor quotient or the modulo with the sign of
// the divisor.
llvm::Value* FunctionLowering::floatDivmod(llvm::Value* a, llvm::Value* b, TypeId t, bool wantMod) {
  llvm::Type* ft = a->getType();
  llvm::Value* zero = llvm::ConstantFP::get(ft, 0.0);
  llvm::Value* mod = callLibdevice("fmod", t, {a, b});
  if (wantMod) {
    llvm::Value* nonzero = builder_.CreateFCmpUNE(mod, zero);
    llvm::Value* signsDiffer = builder_.CreateXor(builder_.CreateFCmpOLT(b, zero),
                                                  builder_.CreateFCmpOLT(mod, zero));
    llvm::Value* adjusted = builder_.CreateSelect(builder_.CreateAnd(nonzero, signsDiffer),
                                                  builder_.CreateFAdd(mod, b), mod);
    llvm::Value* signedZero = callLibdevice("copysign", t, {zero, b});
    return builder_.CreateSelect(nonzero, adjusted, signedZero);
  }
  llvm::Value* div = builder_.CreateFDiv(builder_.CreateFSub(a, mod), b);
  llvm::Value* nonzero = builder_.CreateFCmpUNE(mod, zero);
  llvm::Value* signsDiffer = builder_.CreateXor(builder_.CreateFCmpOLT(b, zero),
                                                builder_.CreateFCmpOLT(mod, zero));
  div = builder_.CreateSelect(builder_.CreateAnd(nonzero, signsDiffer),
                              builder_.CreateFSub(div, llvm::ConstantFP::get(ft, 1.0)), div);
  llvm::Value* floorDiv = callLibdevice("floor", t, {div});
  llvm::Value* bump = builder_.CreateFCmpOGT(builder_.CreateFSub(div, floorDiv),
                                             llvm::ConstantFP::get(ft, 0.5));
  floorDiv = builder_.CreateSelect(bump, builder_.CreateFAdd(floorDiv, llvm::ConstantFP::get(ft, 1.0)),
                                   floorDiv);
  llvm::Value* divZero = builder_.CreateFCmpOEQ(div, zero);
  llvm::Value* signedZero = callLibdevice("copysign", t, {zero, builder_.CreateFDiv(a, b)});
  return builder_.CreateSelect(divZero, signedZero, floorDiv);
}

llvm::Value* FunctionLowering::emitCmp(CmpOp op, llvm::Value* l, llvm::Value* r, TypeId opType) {
  const Type& t = types().get(opType);
  if (t.kind == TypeKind::Complex) {
    llvm::Value* re = builder_.CreateExtractValue(l, 0);
    llvm::Value* im = builder_.CreateExtractValue(l, 1);
    llvm::Value* re2 = builder_.CreateExtractValue(r, 0);
    llvm::Value* im2 = builder_.CreateExtractValue(r, 1);
    if (op == CmpOp::Eq) {
      return builder_.CreateAnd(builder_.CreateFCmpOEQ(re, re2), builder_.CreateFCmpOEQ(im, im2));
    }
    return builder_.CreateOr(builder_.CreateFCmpUNE(re, re2), builder_.CreateFCmpUNE(im, im2));
  }
  if (t.kind == TypeKind::Float) {
    switch (op) {
      case CmpOp::Eq: return builder_.CreateFCmpOEQ(l, r);
      case CmpOp::NotEq: return builder_.CreateFCmpUNE(l, r);
      case CmpOp::Lt: return builder_.CreateFCmpOLT(l, r);
      case CmpOp::LtE: return builder_.CreateFCmpOLE(l, r);
      case CmpOp::Gt: return builder_.CreateFCmpOGT(l, r);
      case CmpOp::GtE: return builder_.CreateFCmpOGE(l, r);
      default: break;
    }
  } else {
    bool isSigned = t.kind == TypeKind::Int && t.isSigned;
    switch (op) {
      case CmpOp::Eq: return builder_.CreateICmpEQ(l, r);
      case CmpOp::NotEq: return builder_.CreateICmpNE(l, r);
      case CmpOp::Lt: return isSigned ? builder_.CreateICmpSLT(l, r) : builder_.CreateICmpULT(l, r);
      case CmpOp::LtE: return isSigned ? builder_.CreateICmpSLE(l, r) : builder_.CreateICmpULE(l, r);
      case CmpOp::Gt: return isSigned ? builder_.CreateICmpSGT(l, r) : builder_.CreateICmpUGT(l, r);
      case CmpOp::GtE: return isSigned ? builder_.CreateICmpSGE(l, r) : builder_.CreateICmpUGE(l, r);
      default: break;
    }
  }
  assert(false && "the checker rejects this comparison");
  return builder_.getFalse();
}

llvm::Value* FunctionLowering::emitCompare(ExprId id, const ast::Compare& c) {
  auto ops = ast_.list(c.ops);
  auto comparators = ast_.list(c.comparators);
  TypeId leftType = typeOf(c.left);
  llvm::Value* left = emitExpr(c.left);
  if (ops.size() == 1) {
    if (ops[0] == CmpOp::Is || ops[0] == CmpOp::IsNot) {
      emitExpr(comparators[0]);
      return builder_.getInt1(ops[0] == CmpOp::IsNot);
    }
    TypeId opType = inst_.opTypes[comparators[0].index];
    llvm::Value* right = emitExpr(comparators[0]);
    return emitCmp(ops[0], convert(left, leftType, opType),
                   convert(right, typeOf(comparators[0]), opType), opType);
  }
  // Chained: short-circuits like `a < b and b < c`, evaluating b once.
  auto* done = llvm::BasicBlock::Create(context_, "cmp.end", function_);
  std::vector<std::pair<llvm::Value*, llvm::BasicBlock*>> incoming;
  for (size_t k = 0; k < ops.size(); ++k) {
    TypeId opType = inst_.opTypes[comparators[k].index];
    llvm::Value* right = emitExpr(comparators[k]);
    TypeId rightType = typeOf(comparators[k]);
    llvm::Value* result;
    if (ops[k] == CmpOp::Is || ops[k] == CmpOp::IsNot) {
      result = builder_.getInt1(ops[k] == CmpOp::IsNot);
    } else {
      result = emitCmp(ops[k], convert(left, leftType, opType), convert(right, rightType, opType),
                       opType);
    }
    if (k + 1 == ops.size()) {
      incoming.push_back({result, builder_.GetInsertBlock()});
      builder_.CreateBr(done);
      break;
    }
    auto* next = llvm::BasicBlock::Create(context_, "cmp.next", function_);
    incoming.push_back({builder_.getFalse(), builder_.GetInsertBlock()});
    builder_.CreateCondBr(result, next, done);
    builder_.SetInsertPoint(next);
    left = right;
    leftType = rightType;
  }
  builder_.SetInsertPoint(done);
  llvm::PHINode* phi = builder_.CreatePHI(builder_.getInt1Ty(), static_cast<unsigned>(incoming.size()));
  for (auto& [v, bb] : incoming) phi->addIncoming(v, bb);
  (void)id;
  return phi;
}

llvm::Value* FunctionLowering::emitBoolOp(ExprId id, const ast::BoolOp& b) {
  TypeId result = inst_.opTypes[id.index];
  auto values = ast_.list(b.values);
  auto* done = llvm::BasicBlock::Create(context_, b.op == BoolOpKind::And ? "and.end" : "or.end",
                                        function_);
  std::vector<std::pair<llvm::Value*, llvm::BasicBlock*>> incoming;
  for (size_t k = 0; k < values.size(); ++k) {
    llvm::Value* v = emitExpr(values[k]);
    llvm::Value* converted = convert(v, typeOf(values[k]), result);
    if (k + 1 == values.size()) {
      incoming.push_back({converted, builder_.GetInsertBlock()});
      builder_.CreateBr(done);
      break;
    }
    llvm::Value* t = truth(v, typeOf(values[k]));
    auto* next = llvm::BasicBlock::Create(context_, "bool.next", function_);
    incoming.push_back({converted, builder_.GetInsertBlock()});
    if (b.op == BoolOpKind::And) {
      builder_.CreateCondBr(t, next, done);
    } else {
      builder_.CreateCondBr(t, done, next);
    }
    builder_.SetInsertPoint(next);
  }
  builder_.SetInsertPoint(done);
  llvm::PHINode* phi = builder_.CreatePHI(llvmType(result), static_cast<unsigned>(incoming.size()));
  for (auto& [v, bb] : incoming) phi->addIncoming(v, bb);
  return phi;
}

llvm::Value* FunctionLowering::emitIfExp(ExprId id, const ast::IfExp& i) {
  TypeId result = inst_.opTypes[id.index];
  llvm::Value* cond = emitCondition(i.test);
  auto* then = llvm::BasicBlock::Create(context_, "cond.true", function_);
  auto* otherwise = llvm::BasicBlock::Create(context_, "cond.false", function_);
  auto* done = llvm::BasicBlock::Create(context_, "cond.end", function_);
  builder_.CreateCondBr(cond, then, otherwise);
  builder_.SetInsertPoint(then);
  llvm::Value* a = emitExprAs(i.body, result);
  llvm::BasicBlock* thenEnd = builder_.GetInsertBlock();
  builder_.CreateBr(done);
  builder_.SetInsertPoint(otherwise);
  llvm::Value* b = emitExprAs(i.orelse, result);
  llvm::BasicBlock* elseEnd = builder_.GetInsertBlock();
  builder_.CreateBr(done);
  builder_.SetInsertPoint(done);
  llvm::PHINode* phi = builder_.CreatePHI(llvmType(result), 2);
  phi->addIncoming(a, thenEnd);
  phi->addIncoming(b, elseEnd);
  return phi;
}

llvm::Value* FunctionLowering::emitUnary(ExprId id, const ast::UnaryOp& u) {
  TypeId operandType = typeOf(u.operand);
  TypeId opType = inst_.opTypes[id.index];
  if (u.op == UnaryOpKind::Not) {
    return builder_.CreateNot(truth(emitExpr(u.operand), operandType));
  }
  llvm::Value* v = emitExprAs(u.operand, opType);
  const Type& t = types().get(opType);
  switch (u.op) {
    case UnaryOpKind::UAdd:
      return v;
    case UnaryOpKind::USub:
      if (t.kind == TypeKind::Complex) {
        return makeComplex(builder_.CreateFNeg(builder_.CreateExtractValue(v, 0)),
                           builder_.CreateFNeg(builder_.CreateExtractValue(v, 1)), opType);
      }
      return t.kind == TypeKind::Float ? builder_.CreateFNeg(v) : builder_.CreateNeg(v);
    case UnaryOpKind::Invert:
      return builder_.CreateNot(v);
    default:
      return v;
  }
}

llvm::Value* FunctionLowering::specialRegister(llvm::Intrinsic::ID id, uint64_t lo, uint64_t hi) {
  llvm::Function* f = llvm::Intrinsic::getDeclaration(&ml_.module(), id);
  llvm::CallInst* call = builder_.CreateCall(f);
  llvm::MDBuilder md(context_);
  call->setMetadata(llvm::LLVMContext::MD_range,
                    md.createRange(llvm::APInt(32, lo), llvm::APInt(32, hi)));
  return call;
}

llvm::Value* FunctionLowering::threadIndexPart(Intrinsic kind, unsigned dim) {
  using namespace llvm::Intrinsic;
  switch (kind) {
    case Intrinsic::ThreadIdx: {
      ID ids[] = {nvvm_read_ptx_sreg_tid_x, nvvm_read_ptx_sreg_tid_y, nvvm_read_ptx_sreg_tid_z};
      return specialRegister(ids[dim], 0, dim == 2 ? 64 : 1024);
    }
    case Intrinsic::BlockDim: {
      ID ids[] = {nvvm_read_ptx_sreg_ntid_x, nvvm_read_ptx_sreg_ntid_y, nvvm_read_ptx_sreg_ntid_z};
      return specialRegister(ids[dim], 1, dim == 2 ? 65 : 1025);
    }
    case Intrinsic::BlockIdx: {
      ID ids[] = {nvvm_read_ptx_sreg_ctaid_x, nvvm_read_ptx_sreg_ctaid_y,
                  nvvm_read_ptx_sreg_ctaid_z};
      return specialRegister(ids[dim], 0, dim == 0 ? 0x7fffffffu : 65535);
    }
    default: {
      ID ids[] = {nvvm_read_ptx_sreg_nctaid_x, nvvm_read_ptx_sreg_nctaid_y,
                  nvvm_read_ptx_sreg_nctaid_z};
      return specialRegister(ids[dim], 1, dim == 0 ? 0x80000000u : 65536);
    }
  }
}

// cuda.grid / cuda.gridsize for one dimension, in int64 (numba#9229).
llvm::Value* FunctionLowering::gridPart(bool size, unsigned dim) {
  llvm::Type* i64 = builder_.getInt64Ty();
  if (size) {
    llvm::Value* ntid = builder_.CreateZExt(threadIndexPart(Intrinsic::BlockDim, dim), i64);
    llvm::Value* nctaid = builder_.CreateZExt(threadIndexPart(Intrinsic::GridDim, dim), i64);
    return builder_.CreateMul(ntid, nctaid, "", true, true);
  }
  llvm::Value* tid = builder_.CreateZExt(threadIndexPart(Intrinsic::ThreadIdx, dim), i64);
  llvm::Value* ctaid = builder_.CreateZExt(threadIndexPart(Intrinsic::BlockIdx, dim), i64);
  llvm::Value* ntid = builder_.CreateZExt(threadIndexPart(Intrinsic::BlockDim, dim), i64);
  return builder_.CreateAdd(builder_.CreateMul(ctaid, ntid, "", true, true), tid, "", true, true);
}

llvm::Value* FunctionLowering::emitAttribute(ExprId id, const ast::Attribute& a) {
  const ExprMeaning& m = inst_.meanings[id.index];
  TypeId fieldType;
  if (llvm::Value* field = recordFieldTarget(id, fieldType)) return loadField(field, fieldType);
  if (TypeId base = typeOf(a.value); base.valid() && types().isVector(base)) {
    std::string_view attr = ast_.str(a.attr);
    return builder_.CreateExtractValue(emitExpr(a.value),
                                       static_cast<unsigned>(std::string_view("xyzw").find(attr)));
  }
  switch (m.kind) {
    case Intrinsic::ThreadIdx:
    case Intrinsic::BlockIdx:
    case Intrinsic::BlockDim:
    case Intrinsic::GridDim:
      return threadIndexPart(m.kind, m.payload);
    case Intrinsic::Laneid:
      return specialRegister(llvm::Intrinsic::nvvm_read_ptx_sreg_laneid, 0, 32);
    case Intrinsic::Warpsize:
      return builder_.getInt32(32);
    case Intrinsic::MathConst:
      return complexMathConst(m.payload, typeOf(id));
    case Intrinsic::ComplexReal:
    case Intrinsic::ComplexImag: {
      TypeId baseType = typeOf(a.value);
      llvm::Value* v = emitExpr(a.value);
      if (types().isComplex(baseType)) return builder_.CreateExtractValue(v, m.kind == Intrinsic::ComplexReal ? 0 : 1);
      if (m.kind == Intrinsic::ComplexReal) return v;
      return llvm::Constant::getNullValue(llvmType(baseType));
    }
    default:
      break;
  }
  ArrayAttr attr = inst_.arrayAttrs[id.index];
  TypeId arrayType = typeOf(a.value);
  llvm::Value* array = emitExpr(a.value);
  ArrayParts parts = arrayParts(array, arrayType);
  const Type& at = types().get(arrayType);
  switch (attr) {
    case ArrayAttr::Shape:
    case ArrayAttr::Strides: {
      llvm::Value* agg = llvm::PoisonValue::get(llvmType(typeOf(id)));
      for (unsigned d = 0; d < at.ndim; ++d) {
        llvm::Value* v = parts.shape[d];
        if (attr == ArrayAttr::Strides) {
          // numba reports strides in bytes.
          v = builder_.CreateMul(parts.strides[d],
                                 builder_.getInt64(types().byteSize(at.element)));
        }
        agg = builder_.CreateInsertValue(agg, v, d);
      }
      return agg;
    }
    case ArrayAttr::Transpose: {
      // The unit stride the layout promises.
      if (at.layout == Layout::C) parts.strides[at.ndim - 1] = builder_.getInt64(1);
      if (at.layout == Layout::F) parts.strides[0] = builder_.getInt64(1);
      ArrayParts t;
      t.data = parts.data;
      t.shape.assign(parts.shape.rbegin(), parts.shape.rend());
      t.strides.assign(parts.strides.rbegin(), parts.strides.rend());
      return makeArray(t, typeOf(id));
    }
    case ArrayAttr::Size: {
      llvm::Value* size = builder_.getInt64(1);
      for (llvm::Value* s : parts.shape) size = builder_.CreateMul(size, s);
      return size;
    }
    default:
      return builder_.getInt64(at.ndim);
  }
}

llvm::Value* FunctionLowering::wrapIndex(llvm::Value* index, TypeId indexType, llvm::Value* extent) {
  const Type& t = types().get(indexType);
  llvm::Type* i64 = builder_.getInt64Ty();
  if (!t.isSigned) return builder_.CreateZExt(index, i64);
  llvm::Value* wide = builder_.CreateSExt(index, i64);
  // numba: a negative index counts from the end. When LLVM can prove the
  // index non-negative (cuda.grid, range loops) the select folds away.
  llvm::Value* negative = builder_.CreateICmpSLT(wide, builder_.getInt64(0));
  return builder_.CreateSelect(negative, builder_.CreateAdd(wide, extent), wide);
}

llvm::Value* FunctionLowering::elementPointerOf(llvm::Value* array, TypeId arrayType,
                                                llvm::Value* index, TypeId indexType) {
  const Type& at = types().get(arrayType);
  ArrayParts parts = arrayParts(array, arrayType);
  std::vector<std::pair<llvm::Value*, TypeId>> indices;
  if (types().isTuple(indexType)) {
    std::vector<TypeId> elements = types().get(indexType).elements;
    for (unsigned i = 0; i < elements.size(); ++i) {
      indices.push_back({builder_.CreateExtractValue(index, i), elements[i]});
    }
  } else {
    indices.push_back({index, indexType});
  }
  llvm::Value* offset = nullptr;
  for (unsigned d = 0; d < at.ndim; ++d) {
    llvm::Value* i = wrapIndex(indices[d].first, indices[d].second, parts.shape[d]);
    bool unit = (at.layout == Layout::C && d + 1 == at.ndim) || (at.layout == Layout::F && d == 0);
    llvm::Value* term = unit ? i : builder_.CreateMul(i, parts.strides[d]);
    offset = offset ? builder_.CreateAdd(offset, term) : term;
  }
  if (offset == nullptr) return parts.data;  // a 0-d array: `x[()]`
  return builder_.CreateGEP(memoryType(at.element), parts.data, offset);
}

llvm::Value* FunctionLowering::elementPointer(ExprId arrayExpr, ExprId indexExpr,
                                              TypeId& elementType) {
  TypeId arrayType = typeOf(arrayExpr);
  llvm::Value* array = emitExpr(arrayExpr);
  llvm::Value* index = emitExpr(indexExpr);
  elementType = types().get(arrayType).element;
  return elementPointerOf(array, arrayType, index, typeOf(indexExpr));
}

llvm::Value* FunctionLowering::fieldPointer(ExprId recordExpr, std::string_view name,
                                            TypeId& fieldType) {
  TypeId recordType = typeOf(recordExpr);
  llvm::Value* base = emitExpr(recordExpr);
  const Type& rt = types().get(recordType);
  size_t index = *types().fieldIndex(recordType, name);
  fieldType = rt.elements[index];
  unsigned natural = types().naturalAlign(fieldType);
  bool keeps = rt.fieldOffsets[index] % natural == 0 && rt.size % natural == 0;
  fieldAlign_ = llvm::Align(rt.aligned || keeps ? natural : 1);
  return builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), base, rt.fieldOffsets[index]);
}

llvm::Value* FunctionLowering::loadField(llvm::Value* ptr, TypeId fieldType) {
  if (types().isNestedArray(fieldType)) {
    // numba's NestedArray: a C-contiguous view of the record's bytes, its extents
    // and strides (in elements) constants.
    const Type& nt = types().get(fieldType);
    ArrayParts parts;
    parts.data = ptr;
    int64_t stride = 1;
    parts.shape.resize(nt.ndim);
    parts.strides.resize(nt.ndim);
    for (unsigned d = nt.ndim; d-- > 0;) {
      parts.shape[d] = builder_.getInt64(nt.shape[d]);
      parts.strides[d] = builder_.getInt64(stride);
      stride *= nt.shape[d];
    }
    return makeArray(parts, fieldType);
  }
  llvm::LoadInst* load = builder_.CreateLoad(memoryType(fieldType), ptr);
  load->setAlignment(fieldAlign_);
  if (types().isBool(fieldType)) return builder_.CreateICmpNE(load, builder_.getInt8(0));
  return load;
}

void FunctionLowering::storeField(llvm::Value* ptr, llvm::Value* value, TypeId fieldType) {
  if (types().isBool(fieldType)) value = builder_.CreateZExt(value, builder_.getInt8Ty());
  builder_.CreateStore(value, ptr)->setAlignment(fieldAlign_);
}

llvm::Value* FunctionLowering::recordFieldTarget(ExprId target, TypeId& fieldType) {
  const Expr& t = ast_.expr(target);
  auto isRecord = [&](ExprId e) {
    TypeId type = typeOf(e);
    return type.valid() && types().isRecord(type);
  };
  if (const auto* a = t.dyn<ast::Attribute>()) {
    if (!isRecord(a->value)) return nullptr;
    return fieldPointer(a->value, ast_.str(a->attr), fieldType);
  }
  if (const auto* s = t.dyn<ast::Subscript>()) {
    if (!isRecord(s->value)) return nullptr;
    return fieldPointer(s->value, ast_.constantOf(s->slice).text, fieldType);
  }
  return nullptr;
}

llvm::Value* FunctionLowering::loadElement(llvm::Value* ptr, TypeId elementType) {
  // A record element's value is its address.
  if (types().isRecord(elementType)) return ptr;
  llvm::Type* mt = memoryType(elementType);
  llvm::LoadInst* load = builder_.CreateLoad(mt, ptr);
  load->setAlignment(elementAlign(elementType));
  if (types().isBool(elementType)) return builder_.CreateICmpNE(load, builder_.getInt8(0));
  return load;
}

void FunctionLowering::storeElement(llvm::Value* ptr, llvm::Value* value, TypeId elementType) {
  if (types().isRecord(elementType)) {
    // numba's setitem of a record (`a[i] = r`): the record's bytes are copied (a
    // record value is the address of its record).
    llvm::Align align(types().naturalAlign(elementType));
    builder_.CreateMemCpy(ptr, align, value, align, types().byteSize(elementType));
    return;
  }
  if (types().isBool(elementType)) value = builder_.CreateZExt(value, builder_.getInt8Ty());
  llvm::StoreInst* store = builder_.CreateStore(value, ptr);
  store->setAlignment(elementAlign(elementType));
}

// Python's slice.indices(n) and the resulting length, in int64.
static void sliceBounds(llvm::IRBuilder<>& b, llvm::Value* n, llvm::Value* lower, llvm::Value* upper,
                        llvm::Value* step, llvm::Value*& start, llvm::Value*& length) {
  llvm::Value* zero = b.getInt64(0);
  llvm::Value* minusOne = b.getInt64(-1);
  llvm::Value* negative = b.CreateICmpSLT(step, zero);
  auto clamp = [&](llvm::Value* v) {
    llvm::Value* wrapped = b.CreateSelect(b.CreateICmpSLT(v, zero), b.CreateAdd(v, n), v);
    llvm::Value* low = b.CreateSelect(negative, minusOne, zero);
    llvm::Value* high = b.CreateSelect(negative, b.CreateSub(n, b.getInt64(1)), n);
    wrapped = b.CreateSelect(b.CreateICmpSLT(wrapped, zero), low, wrapped);
    return b.CreateSelect(b.CreateICmpSGE(wrapped, n), high, wrapped);
  };
  start = lower ? clamp(lower) : b.CreateSelect(negative, b.CreateSub(n, b.getInt64(1)), zero);
  llvm::Value* stop = upper ? clamp(upper) : b.CreateSelect(negative, minusOne, n);
  llvm::Value* one = b.getInt64(1);
  llvm::Value* up = b.CreateSelect(
      b.CreateICmpSGT(stop, start),
      b.CreateAdd(b.CreateSDiv(b.CreateSub(b.CreateSub(stop, start), one), step), one), zero);
  llvm::Value* down = b.CreateSelect(
      b.CreateICmpSGT(start, stop),
      b.CreateAdd(b.CreateSDiv(b.CreateSub(b.CreateSub(start, stop), one), b.CreateNeg(step)), one),
      zero);
  length = b.CreateSelect(negative, down, up);
}

llvm::Value* FunctionLowering::emitArrayView(ExprId id, const ast::Subscript& s) {
  TypeId baseType = typeOf(s.value);
  const Type& bt = types().get(baseType);
  ArrayParts base = arrayParts(emitExpr(s.value), baseType);
  // The unit stride a layout promises.
  if (bt.layout == Layout::C) base.strides[bt.ndim - 1] = builder_.getInt64(1);
  if (bt.layout == Layout::F) base.strides[0] = builder_.getInt64(1);
  std::vector<ExprId> items;
  const Expr& slice = ast_.expr(s.slice);
  if (const auto* t = slice.dyn<ast::Tuple>()) {
    for (ExprId x : ast_.list(t->elts)) items.push_back(x);
  } else {
    items.push_back(s.slice);
  }
  ArrayParts view;
  llvm::Value* offset = builder_.getInt64(0);
  for (unsigned d = 0; d < bt.ndim; ++d) {
    if (d >= items.size()) {
      view.shape.push_back(base.shape[d]);
      view.strides.push_back(base.strides[d]);
      continue;
    }
    const Expr& item = ast_.expr(items[d]);
    if (const auto* sl = item.dyn<ast::Slice>()) {
      auto part = [&](ExprId e) -> llvm::Value* {
        return e.valid() ? emitExprAs(e, types().int64()) : nullptr;
      };
      llvm::Value* lower = part(sl->lower);
      llvm::Value* upper = part(sl->upper);
      llvm::Value* step = sl->step.valid() ? part(sl->step) : builder_.getInt64(1);
      llvm::Value* start;
      llvm::Value* length;
      sliceBounds(builder_, base.shape[d], lower, upper, step, start, length);
      offset = builder_.CreateAdd(offset, builder_.CreateMul(start, base.strides[d]));
      view.shape.push_back(length);
      view.strides.push_back(builder_.CreateMul(base.strides[d], step));
      continue;
    }
    llvm::Value* index = wrapIndex(emitExpr(items[d]), typeOf(items[d]), base.shape[d]);
    offset = builder_.CreateAdd(offset, builder_.CreateMul(index, base.strides[d]));
  }
  view.data = builder_.CreateGEP(memoryType(bt.element), base.data, offset);
  return makeArray(view, typeOf(id));
}

llvm::Value* FunctionLowering::emitSubscript(ExprId id, const ast::Subscript& s) {
  TypeId baseType = typeOf(s.value);
  TypeId fieldType;
  if (llvm::Value* field = recordFieldTarget(id, fieldType)) return loadField(field, fieldType);
  if (types().isArray(baseType) && types().isArray(typeOf(id))) return emitArrayView(id, s);
  if (types().isArray(baseType)) {
    TypeId elementType;
    llvm::Value* ptr = elementPointer(s.value, s.slice, elementType);
    return loadElement(ptr, elementType);
  }
  // A tuple.
  llvm::Value* tuple = emitExpr(s.value);
  const Type& tt = types().get(baseType);
  int32_t c = inst_.constIndex[s.slice.index];
  if (c >= 0 && inst_.constants[c].kind == ConstValue::Kind::Int) {
    int64_t n = static_cast<int64_t>(tt.elements.size());
    int64_t k = inst_.constants[c].intValue;
    if (k < 0) k += n;
    return builder_.CreateExtractValue(tuple, static_cast<unsigned>(k));
  }
  // A dynamic index into a tuple of one type: through memory.
  llvm::Type* elementType = llvmType(tt.elements[0]);
  unsigned n = static_cast<unsigned>(tt.elements.size());
  llvm::Value* slot = entryAlloca(llvm::ArrayType::get(elementType, n));
  for (unsigned i = 0; i < n; ++i) {
    builder_.CreateStore(builder_.CreateExtractValue(tuple, i),
                         builder_.CreateConstGEP2_32(llvm::ArrayType::get(elementType, n), slot, 0, i));
  }
  llvm::Value* index = wrapIndex(emitExpr(s.slice), typeOf(s.slice), builder_.getInt64(n));
  llvm::Value* ptr = builder_.CreateGEP(elementType, slot, index);
  (void)id;
  return builder_.CreateLoad(elementType, ptr);
}

llvm::Value* FunctionLowering::callLibdevice(std::string_view base, TypeId t,
                                             std::vector<llvm::Value*> args) {
  return lowering::callLibdevice(builder_, ml_.module(), base, types().get(t).bits == 32, args, llvmType(t));
}

llvm::Value* FunctionLowering::emitMath(ExprId id, MathFn fn, const ast::Call& c) {
  TypeId operand = inst_.opTypes[id.index];
  auto argList = ast_.list(c.args);
  std::vector<llvm::Value*> args;
  std::vector<TypeId> argTypes;
  for (ExprId a : argList) {
    args.push_back(emitExpr(a));
    argTypes.push_back(typeOf(a));
  }
  return mathOnValues(fn, operand, typeOf(id), std::move(args), argTypes);
}

llvm::Value* FunctionLowering::mathOnValues(MathFn fn, TypeId operand, TypeId result,
                                            std::vector<llvm::Value*> args,
                                            const std::vector<TypeId>& argTypes) {
  llvm::Type* ft = llvmType(operand);
  switch (fn) {
    case MathFn::Isnan:
    case MathFn::Isinf:
    case MathFn::Isfinite: {
      if (!types().isFloat(argTypes[0])) return builder_.getInt1(fn == MathFn::Isfinite);
      llvm::Value* x = args[0];
      if (fn == MathFn::Isnan) return builder_.CreateFCmpUNO(x, x);
      llvm::Value* ax = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
      llvm::Value* inf = llvm::ConstantFP::getInfinity(x->getType());
      return fn == MathFn::Isinf ? builder_.CreateFCmpOEQ(ax, inf) : builder_.CreateFCmpOLT(ax, inf);
    }
    case MathFn::Degrees:
      return builder_.CreateFMul(convert(args[0], argTypes[0], operand),
                                 llvm::ConstantFP::get(ft, 180.0 / M_PI));
    case MathFn::Radians:
      return builder_.CreateFMul(convert(args[0], argTypes[0], operand),
                                 llvm::ConstantFP::get(ft, M_PI / 180.0));
    case MathFn::Ldexp: {
      llvm::Value* e = convert(args[1], argTypes[1], types().int32());
      return callLibdevice("ldexp", operand, {convert(args[0], argTypes[0], operand), e});
    }
    case MathFn::Frexp:
    case MathFn::Modf: {
      llvm::Value* x = convert(args[0], argTypes[0], operand);
      bool frexp = fn == MathFn::Frexp;
      llvm::Type* outType = frexp ? builder_.getInt32Ty() : ft;
      llvm::Value* out = entryAlloca(outType);
      llvm::Value* first = callLibdevice(frexp ? "frexp" : "modf", operand, {x, out});
      llvm::Value* second = builder_.CreateLoad(outType, out);
      llvm::Value* agg = llvm::PoisonValue::get(llvmType(result));
      agg = builder_.CreateInsertValue(agg, first, 0);
      return builder_.CreateInsertValue(agg, second, 1);
    }
    case MathFn::Log:
      if (args.size() == 2) {
        llvm::Value* x = callLibdevice("log", operand, {convert(args[0], argTypes[0], operand)});
        llvm::Value* b = callLibdevice("log", operand, {convert(args[1], argTypes[1], operand)});
        return builder_.CreateFDiv(x, b);
      }
      break;
    case MathFn::Fabs:
      return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs,
                                           convert(args[0], argTypes[0], operand));
    default:
      break;
  }
  for (size_t k = 0; k < args.size(); ++k) args[k] = convert(args[k], argTypes[k], operand);
  std::string base(kMathInfo[static_cast<unsigned>(fn)].libdevice);
  if (inst_.fastmath && types().get(operand).bits == 32) {
    // numba's fastmath=True: libdevice's fast single-precision variants and
    // an approximate square root (NVVM's -prec-sqrt=0).
    switch (fn) {
      case MathFn::Sin: case MathFn::Cos: case MathFn::Tan: case MathFn::Exp:
      case MathFn::Log: case MathFn::Log2: case MathFn::Log10: case MathFn::Pow:
      case MathFn::Tanh:
        base = "fast_" + base;
        break;
      case MathFn::Sqrt:
        return builder_.CreateCall(
            llvm::Intrinsic::getDeclaration(&ml_.module(), llvm::Intrinsic::nvvm_sqrt_approx_f),
            {args[0]});
      default:
        break;
    }
  }
  return callLibdevice(base, operand, args);
}

// numba's float atomic max/min (cudadrv/nvvm.py, ir_numba_atomic_minmax): a
// CAS loop. max/min leave the element alone when it or the value is NaN;
// nanmax/nanmin ignore a NaN value and replace a NaN element. Returns the
// value first loaded, as numba does.
llvm::Value* FunctionLowering::emitFloatMinMax(llvm::Value* ptr, llvm::Value* value, bool isMax,
                                               bool nan) {
  llvm::Type* ft = value->getType();
  llvm::Type* it = builder_.getIntNTy(ft->getPrimitiveSizeInBits());
  llvm::Align align(ft->getPrimitiveSizeInBits() / 8);
  llvm::LoadInst* initial = builder_.CreateLoad(ft, ptr);
  initial->setVolatile(true);
  initial->setAlignment(align);
  llvm::Value* early = builder_.CreateFCmpUNO(value, nan ? value : initial);
  llvm::BasicBlock* start = builder_.GetInsertBlock();
  auto* check = llvm::BasicBlock::Create(context_, "atomic.check", function_);
  auto* attempt = llvm::BasicBlock::Create(context_, "atomic.attempt", function_);
  auto* done = llvm::BasicBlock::Create(context_, "atomic.done", function_);
  builder_.CreateCondBr(early, done, check);
  builder_.SetInsertPoint(check);
  llvm::PHINode* current = builder_.CreatePHI(ft, 2);
  current->addIncoming(initial, start);
  llvm::Value* again;
  if (nan) {
    again = isMax ? builder_.CreateFCmpULT(current, value) : builder_.CreateFCmpUGT(current, value);
  } else {
    again = isMax ? builder_.CreateFCmpOLT(current, value) : builder_.CreateFCmpOGT(current, value);
  }
  builder_.CreateCondBr(again, attempt, done);
  builder_.SetInsertPoint(attempt);
  auto* cas = builder_.CreateAtomicCmpXchg(ptr, builder_.CreateBitCast(current, it),
                                           builder_.CreateBitCast(value, it), align,
                                           llvm::AtomicOrdering::Monotonic,
                                           llvm::AtomicOrdering::Monotonic, deviceScope());
  current->addIncoming(builder_.CreateBitCast(builder_.CreateExtractValue(cas, 0), ft), attempt);
  builder_.CreateBr(check);
  builder_.SetInsertPoint(done);
  return initial;
}

llvm::Value* FunctionLowering::emitAtomic(ExprId id, Intrinsic kind, const ast::Call& c) {
  auto argList = ast_.list(c.args);
  TypeId element;
  llvm::Value* ptr;
  size_t valueArg = 2;
  if (kind == Intrinsic::AtomicCompareAndSwap) {
    // compare_and_swap(array, old, value): element 0.
    TypeId arrayType = typeOf(argList[0]);
    element = types().get(arrayType).element;
    ptr = arrayParts(emitExpr(argList[0]), arrayType).data;
    valueArg = 1;
  } else {
    ptr = elementPointer(argList[0], argList[1], element);
  }
  const Type& et = types().get(element);
  bool isFloat = et.kind == TypeKind::Float;
  llvm::Value* value = emitExprAs(argList[valueArg], element);
  llvm::Align align(types().byteSize(element));
  if (isFloat && (kind == Intrinsic::AtomicMax || kind == Intrinsic::AtomicMin ||
                  kind == Intrinsic::AtomicNanMax || kind == Intrinsic::AtomicNanMin)) {
    return emitFloatMinMax(ptr, value,
                           kind == Intrinsic::AtomicMax || kind == Intrinsic::AtomicNanMax,
                           kind == Intrinsic::AtomicNanMax || kind == Intrinsic::AtomicNanMin);
  }
  if (kind == Intrinsic::AtomicCas || kind == Intrinsic::AtomicCompareAndSwap) {
    llvm::Value* desired = emitExprAs(argList[valueArg + 1], element);
    auto* cas = builder_.CreateAtomicCmpXchg(ptr, value, desired, align,
                                             llvm::AtomicOrdering::Monotonic,
                                             llvm::AtomicOrdering::Monotonic, deviceScope());
    return builder_.CreateExtractValue(cas, 0);
  }
  if ((kind == Intrinsic::AtomicInc || kind == Intrinsic::AtomicDec) && et.bits == 32) {
    // LLVM 19's NVPTX back end expands udec_wrap into a CAS loop; PTX has
    // atom.inc/dec.u32 (numba uses them), with generic addressing.
    auto* type = llvm::FunctionType::get(builder_.getInt32Ty(),
                                         {builder_.getPtrTy(0), builder_.getInt32Ty()}, false);
    auto* code = llvm::InlineAsm::get(
        type, kind == Intrinsic::AtomicInc ? "atom.inc.u32 $0, [$1], $2;" : "atom.dec.u32 $0, [$1], $2;",
        "=r,l,r,~{memory}", /*hasSideEffects=*/true);
    return builder_.CreateCall(type, code, {ptr, value});
  }
  using Op = llvm::AtomicRMWInst::BinOp;
  Op op;
  switch (kind) {
    case Intrinsic::AtomicAdd: op = isFloat ? Op::FAdd : Op::Add; break;
    case Intrinsic::AtomicSub: op = isFloat ? Op::FSub : Op::Sub; break;
    case Intrinsic::AtomicMax:
    case Intrinsic::AtomicNanMax: op = et.isSigned ? Op::Max : Op::UMax; break;
    case Intrinsic::AtomicMin:
    case Intrinsic::AtomicNanMin: op = et.isSigned ? Op::Min : Op::UMin; break;
    case Intrinsic::AtomicAnd: op = Op::And; break;
    case Intrinsic::AtomicOr: op = Op::Or; break;
    case Intrinsic::AtomicXor: op = Op::Xor; break;
    case Intrinsic::AtomicExch: op = Op::Xchg; break;
    case Intrinsic::AtomicInc: op = Op::UIncWrap; break;
    case Intrinsic::AtomicDec: op = Op::UDecWrap; break;
    default: op = Op::Add; break;
  }
  (void)id;
  return builder_.CreateAtomicRMW(op, ptr, value, align, llvm::AtomicOrdering::Monotonic, deviceScope());
}

llvm::Value* FunctionLowering::emitArrayAlloc(ExprId id, Intrinsic kind, const ast::Call& c) {
  TypeId arrayType = typeOf(id);
  const Type& at = types().get(arrayType);
  // The shape: the first positional argument or `shape=`.
  ExprId shapeExpr;
  auto args = ast_.list(c.args);
  if (!args.empty()) shapeExpr = args[0];
  for (KeywordId k : ast_.list(c.keywords)) {
    const Keyword& kw = ast_.keyword(k);
    if (ast_.str(kw.arg) == "shape" && !shapeExpr.valid()) shapeExpr = kw.value;
  }
  int32_t ci = inst_.constIndex[shapeExpr.index];
  assert(ci >= 0 && "the checker folds shapes");
  const ConstValue& shape = inst_.constants[ci];
  std::vector<int64_t> dims;
  if (shape.kind == ConstValue::Kind::Int) {
    dims.push_back(shape.intValue);
  } else {
    for (const ConstValue& d : shape.elements) dims.push_back(d.intValue);
  }
  llvm::Type* elementType = memoryType(at.element);
  unsigned itemSize = types().byteSize(at.element);
  ArrayParts parts;
  int64_t total = 1;
  for (int64_t d : dims) total *= d;
  if (kind == Intrinsic::SharedArray && dims.size() == 1 && dims[0] == 0) {
    // Dynamic shared memory: as long as the launch's dynamic size allows.
    ml_.noteDynamicShared(inst_);
    llvm::GlobalVariable* g = ml_.dynamicShared();
    parts.data = builder_.CreateAddrSpaceCast(g, builder_.getPtrTy(0));
    auto* asmType = llvm::FunctionType::get(builder_.getInt32Ty(), false);
    auto* smem = llvm::InlineAsm::get(asmType, "mov.u32 $0, %dynamic_smem_size;", "=r", false);
    llvm::Value* bytes = builder_.CreateZExt(builder_.CreateCall(asmType, smem), builder_.getInt64Ty());
    parts.shape.push_back(builder_.CreateUDiv(bytes, builder_.getInt64(itemSize)));
    parts.strides.push_back(builder_.getInt64(1));
    return makeArray(parts, arrayType);
  }
  llvm::Type* storage = llvm::ArrayType::get(elementType, static_cast<uint64_t>(total));
  if (kind == Intrinsic::SharedArray) {
    std::string name = "pykc_shared_" + inst_.symbol + "_" + std::to_string(sharedCounter_++);
    auto* g = new llvm::GlobalVariable(ml_.module(), storage, false,
                                       llvm::GlobalValue::InternalLinkage,
                                       llvm::UndefValue::get(storage), name, nullptr,
                                       llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
    // 16 bytes, as nvcc aligns __shared__ arrays: nvJitLink compiles PTX
    // relocatably and cannot raise a global's alignment itself, so only this
    // lets it use 128-bit shared loads (LDS.128) on rows of the array
    // (docs/BENCHMARKS.md: the 16x16 matmul ran 1.23x faster).
    g->setAlignment(llvm::Align(std::max<unsigned>(itemSize, 16)));
    parts.data = builder_.CreateAddrSpaceCast(g, builder_.getPtrTy(0));
  } else {
    auto* slot = llvm::cast<llvm::AllocaInst>(entryAlloca(storage));
    slot->setAlignment(llvm::Align(std::max<unsigned>(itemSize, 16)));
    parts.data = slot;
  }
  // C order.
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) strides[d - 1] = strides[d] * dims[d];
  for (size_t d = 0; d < dims.size(); ++d) {
    parts.shape.push_back(builder_.getInt64(dims[d]));
    parts.strides.push_back(builder_.getInt64(strides[d]));
  }
  return makeArray(parts, arrayType);
}

llvm::Value* FunctionLowering::emitExternCall(const ExternFunction& fn,
                                              std::span<const ExprId> args) {
  // numba's ABI (docs/INTEROP.md): `int symbol(ret* out, args...)`, the
  // status ignored (a foreign function cannot raise), the result read back
  // from a local slot. The call stays a call: the body is in another module.
  llvm::Type* ptr = llvm::PointerType::get(context_, 0);
  if (fn.cAbi) {
    // abi="c": `ret symbol(args...)`, the result in registers.
    std::vector<llvm::Type*> params;
    for (TypeId a : fn.args) params.push_back(llvmType(a));
    bool isBool = types().isBool(fn.returnType);
    llvm::Type* ret = isBool ? builder_.getInt8Ty() : llvmType(fn.returnType);
    auto* type = llvm::FunctionType::get(ret, params, false);
    llvm::FunctionCallee callee = ml_.module().getOrInsertFunction(fn.symbol, type);
    std::vector<llvm::Value*> values;
    for (size_t k = 0; k < args.size(); ++k) {
      values.push_back(types().isPointer(fn.args[k]) ? emitExpr(args[k])
                                                     : emitExprAs(args[k], fn.args[k]));
    }
    llvm::CallInst* call = builder_.CreateCall(callee, values);
    if (isBool) return builder_.CreateICmpNE(call, builder_.getInt8(0));
    return call;
  }
  std::vector<llvm::Type*> params{ptr};
  for (TypeId a : fn.args) params.push_back(llvmType(a));
  auto* type = llvm::FunctionType::get(builder_.getInt32Ty(), params, false);
  llvm::FunctionCallee callee = ml_.module().getOrInsertFunction(fn.symbol, type);
  bool isVoid = types().isNone(fn.returnType);
  llvm::Type* slotType = isVoid ? builder_.getInt8Ty() : memoryType(fn.returnType);
  llvm::Value* slot = entryAlloca(slotType);
  std::vector<llvm::Value*> values{slot};
  for (size_t k = 0; k < args.size(); ++k) {
    if (types().isPointer(fn.args[k])) {
      values.push_back(emitExpr(args[k]));
    } else {
      values.push_back(emitExprAs(args[k], fn.args[k]));
    }
  }
  llvm::CallInst* call = builder_.CreateCall(callee, values);
  // A void function's value is the (void) call, as for device functions.
  if (isVoid) return call;
  llvm::Value* result = builder_.CreateLoad(slotType, slot);
  if (types().isBool(fn.returnType)) {
    result = builder_.CreateICmpNE(result, llvm::ConstantInt::get(slotType, 0));
  }
  return result;
}

}  // namespace lowering::simt
