// `ct.reduce(x, axis, func, identity, keepdims=False)`: a reduction whose combining step is
// the kernel's own function (docs/TILE.md, "Closures").
#include "lowering/tile/tile_lower_internal.h"

namespace lowering::tile {

TileVal TileLowering::customReduce(ExprId id, TypeId t) {
  ExprId xe = arg(id, 0);
  ExprId fe = arg(id, 2);
  TypeId common = inst_->opTypes[id.index];
  const std::vector<int64_t> xs = types_.get(common).shape;
  // The inputs: one tile, or a tuple of them, each broadcast to the common shape.
  std::vector<TypeId> dtypes;
  std::vector<TileVal> inputs;
  TypeId xt = typeOf(xe);
  if (xt.valid() && types_.isTuple(xt)) {
    std::vector<TypeId> elements;
    for (TypeId e : std::vector<TypeId>(types_.get(xt).elements)) {
      dtypes.push_back(elementOf(e));
      elements.push_back(types_.tile(elementOf(e), xs));
    }
    TypeId all = types_.tuple(elements);
    inputs = tupleParts(evalTuple(xe, all), all);
  } else {
    dtypes.push_back(elementOf(common));
    inputs.push_back(evalAs(xe, common));
  }
  size_t n = dtypes.size();
  // The identities (constants, sema checked them).
  const ConstValue* ic = constOf(arg(id, 3));
  std::vector<ConstValue> identities = n == 1 ? std::vector<ConstValue>{*ic} : ic->elements;
  int64_t axis = constIntArg(id, 1, 0);
  if (axis < 0) axis += static_cast<int64_t>(xs.size());
  bool keepdims = constIntArg(id, 4, 0) != 0;
  // Stage every input, one after another in the scratch buffer.
  std::vector<uint64_t> offsets;
  uint64_t bytes = 0;
  int64_t elements = 1;
  for (int64_t d : xs) elements *= d;
  for (TypeId d : dtypes) {
    uint64_t size = types_.byteSize(d);
    bytes = (bytes + size - 1) / size * size;
    offsets.push_back(bytes);
    bytes += static_cast<uint64_t>(elements) * size;
  }
  llvm::Value* base = scratch(bytes);
  std::vector<llvm::Value*> buffers;
  barrier();
  for (size_t i = 0; i < n; ++i) {
    buffers.push_back(b_.CreateGEP(b_.getInt8Ty(), base, b_.getInt32(static_cast<uint32_t>(offsets[i]))));
    TypeId ti = types_.tile(dtypes[i], xs);
    storeSlots(inputs[i], ti, layoutOf(ti), buffers.back(), 0);
  }
  barrier();
  // The combining function's own scratch uses go after the staged inputs.
  residentBytes_ += (bytes + 15) / 16 * 16;
  std::vector<int64_t> os;
  for (size_t d = 0; d < xs.size(); ++d) {
    if (static_cast<int64_t>(d) != axis) {
      os.push_back(xs[d]);
    } else if (keepdims) {
      os.push_back(1);
    }
  }
  std::vector<int64_t> xStride(xs.size());
  int64_t inner = 1;
  for (size_t d = xs.size(); d-- > 0;) {
    xStride[d] = inner;
    inner *= xs[d];
  }
  int64_t count = xs[static_cast<size_t>(axis)];
  auto builtin = static_cast<TileFn>(inst_->meanings[fe.index].payload);
  bool isBuiltin = inst_->meanings[fe.index].kind == Intrinsic::TileOp;
  const frontend::FunctionInstance* helper =
      isBuiltin ? nullptr : &typed_.instances[static_cast<size_t>(inst_->callees[fe.index])];
  TypeId outTile = types_.tile(dtypes[0], os);
  Layout lo = os.empty() ? layoutOf(dtypes[0]) : layoutOf(outTile);
  std::vector<TileVal> outs(n);
  for (unsigned s = 0; s < lo.slots; ++s) {
    std::vector<llvm::Value*> oi = os.empty() ? std::vector<llvm::Value*>{}
                                              : multiIndex(clampIndex(elementIndex(lo, s), lo), os);
    // The input index of the output element at position 0 of the reduced axis.
    llvm::Value* start = b_.getInt32(0);
    size_t od = 0;
    for (size_t d = 0; d < xs.size(); ++d) {
      if (static_cast<int64_t>(d) != axis) {
        start = b_.CreateAdd(start, b_.CreateMul(oi[od], b_.getInt32(static_cast<uint32_t>(xStride[d]))));
        ++od;
      } else if (keepdims) {
        ++od;
      }
    }
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    auto* body = llvm::BasicBlock::Create(context_, "reduce.fn.loop", function_);
    auto* done = llvm::BasicBlock::Create(context_, "reduce.fn.done", function_);
    b_.CreateBr(body);
    b_.SetInsertPoint(body);
    llvm::PHINode* j = b_.CreatePHI(b_.getInt32Ty(), 2);
    j->addIncoming(b_.getInt32(0), pre);
    std::vector<llvm::PHINode*> acc;
    for (size_t i = 0; i < n; ++i) {
      acc.push_back(b_.CreatePHI(llvmType(dtypes[i]), 2));
      acc.back()->addIncoming(constantOf(identities[i], dtypes[i]), pre);
    }
    llvm::Value* index =
        b_.CreateAdd(start, b_.CreateMul(j, b_.getInt32(static_cast<uint32_t>(xStride[static_cast<size_t>(axis)]))));
    std::vector<llvm::Value*> next;
    if (isBuiltin) {
      llvm::Type* mt = memoryType(dtypes[0]);
      llvm::Value* v = b_.CreateLoad(mt, b_.CreateGEP(mt, buffers[0], index));
      if (types_.isBool(dtypes[0])) v = b_.CreateICmpNE(v, b_.getInt8(0));
      next.push_back(combine(builtin, acc[0], v, dtypes[0]));
    } else {
      // func(*accumulated, *element): the accumulated values first (cuTile's lhs).
      std::vector<TileVal> given;
      for (size_t i = 0; i < n; ++i) given.push_back(TileVal{{acc[i]}});
      for (size_t i = 0; i < n; ++i) {
        llvm::Type* mt = memoryType(dtypes[i]);
        llvm::Value* v = b_.CreateLoad(mt, b_.CreateGEP(mt, buffers[i], index));
        if (types_.isBool(dtypes[i])) v = b_.CreateICmpNE(v, b_.getInt8(0));
        given.push_back(TileVal{{v}});
      }
      // Parameters typed otherwise (a Python number's weak type) take the value converted.
      for (size_t p = 0; p < given.size() && p < helper->argTypes.size(); ++p) {
        TypeId pt = helper->argTypes[p];
        TypeId from = dtypes[p % n];
        if (pt.valid() && pt != from) given[p].slots[0] = convert(given[p].slots[0], from, pt);
      }
      TileVal r = inlineHelper(fe, &given);
      TypeId rt = helper->returnType;
      std::vector<TypeId> parts = n == 1 ? std::vector<TypeId>{rt} : std::vector<TypeId>(types_.get(rt).elements);
      std::vector<TileVal> values = n == 1 ? std::vector<TileVal>{r} : tupleParts(r, rt);
      for (size_t i = 0; i < n; ++i) next.push_back(convert(values[i].slots[0], elementOf(parts[i]), dtypes[i]));
    }
    llvm::Value* jn = b_.CreateAdd(j, b_.getInt32(1));
    llvm::BasicBlock* end = b_.GetInsertBlock();
    j->addIncoming(jn, end);
    for (size_t i = 0; i < n; ++i) acc[i]->addIncoming(next[i], end);
    b_.CreateCondBr(b_.CreateICmpULT(jn, b_.getInt32(static_cast<uint32_t>(count))), body, done);
    b_.SetInsertPoint(done);
    for (size_t i = 0; i < n; ++i) outs[i].slots.push_back(next[i]);
  }
  residentBytes_ -= (bytes + 15) / 16 * 16;
  if (n == 1) return outs[0];
  TileVal all;
  for (const TileVal& o : outs) all.slots.insert(all.slots.end(), o.slots.begin(), o.slots.end());
  (void)t;
  return all;
}

}  // namespace lowering::tile
