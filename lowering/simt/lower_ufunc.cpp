// SIMT lowering: NumPy's ufuncs with an output array (`np.sin(x, out)`), an
// element loop over the output (lowering/simt/lower_internal.h).
#include "lowering/simt/lower_internal.h"

namespace lowering::simt {

// The checker put the inputs and the output array, in that order, in
// callArguments and the loop type in opTypes. Array inputs are broadcast onto
// the output (a shape that does not broadcast fails as a slice store's does,
// before any element is written); numbers are read once. Elements go in C
// order, each input read at the output's index before the result is stored,
// so `np.sin(x, x)` works in place.
llvm::Value* FunctionLowering::emitUfunc(ExprId id, MathFn fn) {
  const std::vector<ExprId>& operands = inst_.callArguments.at(id.index);
  TypeId operand = inst_.opTypes[id.index];
  ExprId outExpr = operands.back();
  TypeId outType = typeOf(outExpr);
  TypeId outElement = types().get(outType).element;
  struct Input {
    llvm::Value* value = nullptr;  // a number, or the array
    TypeId type;                   // its type, or the array's element type
    bool array = false;
    ArrayParts parts;
    std::vector<llvm::Value*> strides;
  };
  std::vector<Input> inputs;
  for (size_t k = 0; k + 1 < operands.size(); ++k) {
    Input in;
    in.value = emitExpr(operands[k]);
    in.type = typeOf(operands[k]);
    inputs.push_back(std::move(in));
  }
  llvm::Value* outValue = emitExpr(outExpr);
  ArrayParts dst = arrayParts(outValue, outType);
  llvm::Value* mismatch = builder_.getFalse();
  for (Input& in : inputs) {
    if (!types().isArray(in.type)) continue;
    in.array = true;
    in.parts = arrayParts(in.value, in.type);
    in.strides = broadcastStrides(in.parts, in.type, dst.shape, mismatch);
    in.type = types().get(in.type).element;
  }
  sliceShapeFailure(mismatch);
  bool predicate = fn == MathFn::Isnan || fn == MathFn::Isinf || fn == MathFn::Isfinite;
  TypeId result = predicate ? types().boolean() : operand;
  LoopNest nest = openLoopNest(dst.shape);
  std::vector<llvm::Value*> index = loopIndices(nest);
  std::vector<llvm::Value*> args;
  std::vector<TypeId> argTypes;
  for (const Input& in : inputs) {
    llvm::Value* v = in.value;
    if (in.array) {
      llvm::Value* at = builder_.CreateGEP(memoryType(in.type), in.parts.data,
                                           linearOffset(index, in.strides));
      v = loadElement(at, in.type);
    }
    args.push_back(v);
    argTypes.push_back(in.type);
  }
  llvm::Value* r = mathOnValues(fn, operand, result, std::move(args), argTypes);
  llvm::Value* at = builder_.CreateGEP(memoryType(outElement), dst.data, linearOffset(index, dst.strides));
  storeElement(at, convert(r, result, outElement), outElement);
  closeLoopNest(nest);
  return outValue;
}

// np.add & co. as the operators of the same meaning; np.maximum/np.minimum
// propagate NaN (either operand NaN: NaN), np.fmax/np.fmin ignore it (NaN only
// when both are); np.sign is -1, 0 or 1 (NaN for NaN, +0.0 for either zero).
llvm::Value* FunctionLowering::emitNumpyFn(NumpyFn fn, std::span<const ExprId> args, TypeId opType,
                                           TypeId exponent, TypeId result) {
  static constexpr Operator kOps[] = {Operator::Add,    Operator::Sub,      Operator::Mult,
                                      Operator::Div,    Operator::FloorDiv, Operator::Mod,
                                      Operator::Pow,    Operator::LShift,   Operator::RShift,
                                      Operator::BitAnd, Operator::BitOr,    Operator::BitXor};
  const Type& ot = types().get(opType);
  bool isFloat = ot.kind == TypeKind::Float;
  llvm::Value* a = emitExprAs(args[0], opType);
  if (fn <= NumpyFn::BitwiseXor) {
    llvm::Value* b = emitExprAs(args[1], exponent.valid() ? exponent : opType);
    return convert(emitArith(kOps[static_cast<unsigned>(fn)], a, b, opType, exponent), opType, result);
  }
  switch (fn) {
    case NumpyFn::Maximum:
    case NumpyFn::Minimum:
    case NumpyFn::Fmax:
    case NumpyFn::Fmin: {
      llvm::Value* b = emitExprAs(args[1], opType);
      bool max = fn == NumpyFn::Maximum || fn == NumpyFn::Fmax;
      // `a >= b` (or `<=`) keeps `a`, else `b`: a NaN `b` gives `b`.
      llvm::Value* keepA = emitCmp(max ? CmpOp::GtE : CmpOp::LtE, a, b, opType);
      llvm::Value* r = builder_.CreateSelect(keepA, a, b);
      if (isFloat) {
        bool propagate = fn == NumpyFn::Maximum || fn == NumpyFn::Minimum;
        // maximum: a NaN `a` gives `a`; fmax: a NaN `b` gives `a`.
        llvm::Value* nan = propagate ? builder_.CreateFCmpUNO(a, a) : builder_.CreateFCmpUNO(b, b);
        r = builder_.CreateSelect(nan, a, r);
      }
      return r;
    }
    case NumpyFn::Negative:
      if (ot.kind == TypeKind::Complex) {
        return makeComplex(builder_.CreateFNeg(builder_.CreateExtractValue(a, 0)),
                           builder_.CreateFNeg(builder_.CreateExtractValue(a, 1)), opType);
      }
      return isFloat ? builder_.CreateFNeg(a) : builder_.CreateNeg(a);
    case NumpyFn::Positive:
      return a;
    case NumpyFn::Square:
      return emitArith(Operator::Mult, a, a, opType, TypeId());
    case NumpyFn::Sign: {
      llvm::Type* ty = a->getType();
      if (isFloat) {
        llvm::Value* zero = llvm::ConstantFP::get(ty, 0.0);
        llvm::Value* r = builder_.CreateSelect(builder_.CreateFCmpOLT(a, zero),
                                               llvm::ConstantFP::get(ty, -1.0), zero);
        r = builder_.CreateSelect(builder_.CreateFCmpOGT(a, zero), llvm::ConstantFP::get(ty, 1.0), r);
        return builder_.CreateSelect(builder_.CreateFCmpUNO(a, a), a, r);
      }
      llvm::Value* zero = llvm::ConstantInt::get(ty, 0);
      if (!ot.isSigned) {
        return builder_.CreateZExt(builder_.CreateICmpNE(a, zero), ty);
      }
      llvm::Value* pos = builder_.CreateZExt(builder_.CreateICmpSGT(a, zero), ty);
      llvm::Value* neg = builder_.CreateZExt(builder_.CreateICmpSLT(a, zero), ty);
      return builder_.CreateSub(pos, neg);
    }
    default:
      return a;
  }
}

}  // namespace lowering::simt
