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

}  // namespace lowering::simt
