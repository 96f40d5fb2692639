// Reductions over tile axes (warp shuffles, CTA partials in shared memory).
#include "lowering/tile/tile_lower_internal.h"

namespace lowering::tile {

llvm::Value* TileLowering::identity(TileFn fn, TypeId acc) {
  llvm::Type* t = llvmType(acc);
  const Type& at = types_.get(acc);
  if (fn == TileFn::Sum) return llvm::Constant::getNullValue(t);
  if (fn == TileFn::Prod && at.kind == TypeKind::Float && at.bits == 8) return llvm::ConstantInt::get(t, float8Code(1.0, at.format));
  if (fn == TileFn::Prod) return at.kind == TypeKind::Float ? llvm::ConstantFP::get(t, 1.0) : llvm::ConstantInt::get(t, 1);
  bool isMax = fn == TileFn::Max;
  if (at.kind == TypeKind::Float && at.bits == 8) return llvm::ConstantInt::get(t, float8Code(isMax ? -HUGE_VAL : HUGE_VAL, at.format));
  // NaN-ignoring max/min (maxnum): NaN is the identity, so a row of NaNs stays NaN.
  if (at.kind == TypeKind::Float && !reduceFlags_.propagateNan) return llvm::ConstantFP::getNaN(t);
  if (at.kind == TypeKind::Float) return llvm::ConstantFP::getInfinity(t, isMax);
  if (at.kind == TypeKind::Bool) return b_.getInt1(!isMax);
  if (at.isSigned) {
    return llvm::ConstantInt::get(t, isMax ? llvm::APInt::getSignedMinValue(at.bits) : llvm::APInt::getSignedMaxValue(at.bits));
  }
  return llvm::ConstantInt::get(t, isMax ? llvm::APInt(at.bits, 0) : llvm::APInt::getMaxValue(at.bits));
}

llvm::Value* TileLowering::combine(TileFn fn, llvm::Value* a, llvm::Value* c, TypeId acc) {
  const Type& at = types_.get(acc);
  const ReduceFlags& f = reduceFlags_;
  bool rounded = at.kind == TypeKind::Float && (at.bits == 32 || at.bits == 64) && (f.rounding != 0 || f.ftz);
  if (fn == TileFn::Sum || fn == TileFn::Prod) {
    if (rounded) return roundedAddMul(fn == TileFn::Prod, a, c, acc, f.rounding, f.ftz && at.bits == 32);
    if (fn == TileFn::Sum) return at.kind == TypeKind::Float ? b_.CreateFAdd(a, c) : b_.CreateAdd(a, c);
    return at.kind == TypeKind::Float ? b_.CreateFMul(a, c) : b_.CreateMul(a, c);
  }
  bool isMax = fn == TileFn::Max;
  if (at.kind == TypeKind::Float) {
    if (f.ftz && at.bits == 32) {
      // PTX's max.ftz / max.ftz.NaN.f32.
      llvm::Intrinsic::ID id = isMax ? (f.propagateNan ? llvm::Intrinsic::nvvm_fmax_ftz_nan_f : llvm::Intrinsic::nvvm_fmax_ftz_f)
                                     : (f.propagateNan ? llvm::Intrinsic::nvvm_fmin_ftz_nan_f : llvm::Intrinsic::nvvm_fmin_ftz_f);
      return b_.CreateCall(intrinsic(id), {a, c});
    }
    // cuTile's propagate_nan=True: NaN wins (IEEE maximum); by default NaN is ignored
    // and the other operand taken (maxnum, PTX's max.f32).
    llvm::Intrinsic::ID id = f.propagateNan ? (isMax ? llvm::Intrinsic::maximum : llvm::Intrinsic::minimum)
                                            : (isMax ? llvm::Intrinsic::maxnum : llvm::Intrinsic::minnum);
    return b_.CreateBinaryIntrinsic(id, a, c);
  }
  if (at.kind == TypeKind::Bool) return isMax ? b_.CreateOr(a, c) : b_.CreateAnd(a, c);
  llvm::Intrinsic::ID id = at.isSigned ? (isMax ? llvm::Intrinsic::smax : llvm::Intrinsic::smin)
                                       : (isMax ? llvm::Intrinsic::umax : llvm::Intrinsic::umin);
  return b_.CreateBinaryIntrinsic(id, a, c);
}

llvm::Value* TileLowering::shuffleXor(llvm::Value* v, unsigned lane) {
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

std::optional<TileVal> TileLowering::mmaRowReduce(ExprId id, TileFn fn, TypeId t) {
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

TileLowering::ReduceFlags TileLowering::reduceFlagsOf(ExprId id, TileFn fn) {
  ReduceFlags f;
  switch (fn) {
    case TileFn::Sum:
    case TileFn::Prod: {
      TileFn mode = roundingMode(id, 3);
      f.rounding = mode == TileFn::RoundRz ? 1 : mode == TileFn::RoundRm ? 2 : mode == TileFn::RoundRp ? 3 : 0;
      f.ftz = constIntArg(id, 4, 0) != 0;
      break;
    }
    case TileFn::Max:
    case TileFn::Min:
      f.ftz = constIntArg(id, 3, 0) != 0;
      f.propagateNan = constIntArg(id, 4, 0) != 0;
      break;
    case TileFn::Maximum:
    case TileFn::Minimum:
      f.ftz = constIntArg(id, 2, 0) != 0;
      f.propagateNan = constIntArg(id, 3, 0) != 0;
      break;
    case TileFn::Argmax:
    case TileFn::Argmin:
      f.propagateNan = constIntArg(id, 3, 0) != 0;
      break;
    default:
      break;
  }
  return f;
}

TileVal TileLowering::reduce(ExprId id, TileFn fn, TypeId t) {
  FlagsScope flags(*this, reduceFlagsOf(id, fn));
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
  if (lx.uniform) {
    // One element, which every thread holds (not one per thread): it is the result.
    return TileVal{{convert(combine(fn, identity(fn, acc), x.slots[0], acc), acc, e)}};
  }
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
  const std::vector<int64_t>& xs = types_.get(xt).shape;
  std::vector<bool> reduced(xs.size(), false);
  ExprId axisExpr = arg(id, 1);
  const ConstValue* axisConst = axisExpr.valid() ? constOf(axisExpr) : nullptr;
  if (axisConst == nullptr || (axisConst->kind != ConstValue::Kind::Int && axisConst->kind != ConstValue::Kind::Tuple)) {
    reduced.assign(xs.size(), true);
  } else {
    // One axis, or a tuple of them (`axis=(1, 2)`).
    std::vector<ConstValue> axes{*axisConst};
    if (axisConst->kind == ConstValue::Kind::Tuple) axes = axisConst->elements;
    for (const ConstValue& c : axes) {
      int64_t a = c.intValue;
      if (a < 0) a += static_cast<int64_t>(xs.size());
      reduced[static_cast<size_t>(a)] = true;
    }
  }
  // Reduced along some axes into several elements: in registers and shuffles
  // (tile_reduce_axis.cpp); else stage the input, then each output element
  // loops over its reduced elements.
  if (auto r = axisReduce(fn, t, acc, accTile, x, reduced)) return *r;
  llvm::Value* buffer = stage(x, accTile, lx);
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

}  // namespace lowering::tile

namespace lowering::tile {

TileVal TileLowering::scan(ExprId id, TileFn fn, TypeId t) {
  TypeId e = elementOf(t);
  const Type& et = types_.get(e);
  // Computed in float32 for 16-bit floats (as the sums of reductions are), else the dtype.
  TypeId calc = et.kind == TypeKind::Float && et.bits < 32 ? types_.float32() : e;
  llvm::Type* ct = llvmType(calc);
  const std::vector<int64_t>& shape = types_.get(t).shape;
  int64_t n = static_cast<int64_t>(shape.size());
  int64_t axis = constIntArg(id, 1, 0);
  if (axis < 0) axis += n;
  bool reverse = constIntArg(id, 2, 0) != 0;
  int64_t len = shape[static_cast<size_t>(axis)];
  int64_t stride = 1;
  for (int64_t d = axis + 1; d < n; ++d) stride *= shape[static_cast<size_t>(d)];
  TypeId ct_t = types_.tile(calc, shape);
  TileVal x = evalAs(arg(id, 0), ct_t);
  Layout l = layoutOf(ct_t);
  llvm::Value* buffer = scratch(static_cast<uint64_t>(elementsOf(ct_t)) * types_.byteSize(calc));
  barrier();
  storeSlots(x, ct_t, l, buffer, 0);
  barrier();
  // Each slot walks its line along the axis in order (from the start, or from the end
  // for reverse=True), taking the elements up to and including its own.
  std::vector<llvm::Value*> base, pos;
  for (unsigned s = 0; s < l.slots; ++s) {
    llvm::Value* idx = clampIndex(elementIndex(l, s), l);
    std::vector<llvm::Value*> mi = multiIndex(idx, shape);
    pos.push_back(mi[static_cast<size_t>(axis)]);
    base.push_back(b_.CreateSub(idx, b_.CreateMul(mi[static_cast<size_t>(axis)], b_.getInt32(static_cast<uint32_t>(stride)))));
  }
  bool isFloat = types_.isFloat(calc);
  auto combine = [&](llvm::Value* a, llvm::Value* c) -> llvm::Value* {
    if (fn == TileFn::Cumsum) return isFloat ? b_.CreateFAdd(a, c) : b_.CreateAdd(a, c);
    return isFloat ? b_.CreateFMul(a, c) : b_.CreateMul(a, c);
  };
  llvm::Value* identity = fn == TileFn::Cumsum ? llvm::Constant::getNullValue(ct)
                        : isFloat ? llvm::ConstantFP::get(ct, 1.0) : llvm::ConstantInt::get(ct, 1);
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  auto* body = llvm::BasicBlock::Create(context_, "scan.k", function_);
  auto* done = llvm::BasicBlock::Create(context_, "scan.done", function_);
  b_.CreateBr(body);
  b_.SetInsertPoint(body);
  llvm::PHINode* i = b_.CreatePHI(b_.getInt32Ty(), 2);
  i->addIncoming(b_.getInt32(0), pre);
  std::vector<llvm::PHINode*> accs;
  for (unsigned s = 0; s < l.slots; ++s) {
    accs.push_back(b_.CreatePHI(ct, 2));
    accs.back()->addIncoming(identity, pre);
  }
  llvm::Value* k = reverse ? b_.CreateSub(b_.getInt32(static_cast<uint32_t>(len - 1)), i) : i;
  std::vector<llvm::Value*> next;
  for (unsigned s = 0; s < l.slots; ++s) {
    llvm::Value* acc = accs[s];
    llvm::Value* at = b_.CreateAdd(base[s], b_.CreateMul(k, b_.getInt32(static_cast<uint32_t>(stride))));
    llvm::Value* v = b_.CreateLoad(ct, b_.CreateGEP(ct, buffer, at));
    llvm::Value* take = reverse ? b_.CreateICmpUGE(k, pos[s]) : b_.CreateICmpULE(k, pos[s]);
    next.push_back(b_.CreateSelect(take, combine(acc, v), acc));
  }
  llvm::Value* in = b_.CreateAdd(i, b_.getInt32(1));
  llvm::BasicBlock* latch = b_.GetInsertBlock();
  i->addIncoming(in, latch);
  for (unsigned s = 0; s < l.slots; ++s) accs[s]->addIncoming(next[s], latch);
  b_.CreateCondBr(b_.CreateICmpULT(in, b_.getInt32(static_cast<uint32_t>(len))), body, done);
  b_.SetInsertPoint(done);
  barrier();  // the scratch buffer is reused by what follows
  TileVal out;
  for (unsigned s = 0; s < l.slots; ++s) out.slots.push_back(convert(next[s], calc, e));
  return out;
}

}  // namespace lowering::tile
