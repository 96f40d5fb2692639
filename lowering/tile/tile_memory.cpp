// Memory: ct.load / ct.store addressing and paths, gather and scatter, atomics.
#include "lowering/tile/tile_lower_internal.h"

namespace lowering::tile {

ArrayArgs TileLowering::namedArray(const std::string& name, TypeId t) {
  if (auto it = arrays_.find(name); it != arrays_.end()) return it->second;
  const ArrayVar& v = arrayVars_.at(name);
  ArrayArgs a;
  a.data = b_.CreateLoad(v.data->getAllocatedType(), v.data);
  for (llvm::AllocaInst* s : v.shape) a.shape.push_back(b_.CreateLoad(b_.getInt64Ty(), s));
  for (llvm::AllocaInst* s : v.strides) a.strides.push_back(b_.CreateLoad(b_.getInt64Ty(), s));
  a.facts = types_.get(t).facts;
  a.root = varRoot(name);
  return a;
}

ArrayArgs TileLowering::arrayArg(ExprId e) {
  const frontend::Expr& x = ast_.expr(e);
  if (const auto* n = x.dyn<ast::Name>()) return namedArray(std::string(ast_.str(n->id)), typeOf(e));
  if (const auto* ie = x.dyn<ast::IfExp>()) {
    // `a if C else b` with a compile-time C (sema typed the side it picks).
    const ConstValue* c = constOf(ie->test);
    assert(c != nullptr && "an array chosen at compile time");
    bool take = c->kind == ConstValue::Kind::Bool ? c->boolValue
                : c->kind == ConstValue::Kind::Float ? c->floatValue != 0.0
                : c->kind == ConstValue::Kind::None ? false
                : c->kind == ConstValue::Kind::Str ? !c->strValue.empty()
                : c->kind == ConstValue::Kind::Tuple ? !c->elements.empty()
                                                     : c->intValue != 0;
    return arrayArg(take ? ie->body : ie->orelse);
  }
  if (inst_->callees[e.index] >= 0) {
    // A helper returning an array (a view): its pointer, extents and strides.
    TileVal v = inlineHelper(e);
    ArrayArgs a;
    unsigned ndim = types_.get(typeOf(e)).ndim;
    a.data = v.slots[0];
    for (unsigned d = 0; d < ndim; ++d) a.shape.push_back(v.slots[1 + d]);
    for (unsigned d = 0; d < ndim; ++d) a.strides.push_back(v.slots[1 + ndim + d]);
    a.facts = types_.get(typeOf(e)).facts;
    return a;
  }
  if (x.is<ast::Subscript>() || x.is<ast::Attribute>()) {  // `t[i]`, `d.x` of a tuple (dataclass) parameter
    ArrayArgs a = tupleValue(e).array;
    a.facts = types_.get(typeOf(e)).facts;
    return a;
  }
  if (static_cast<TileFn>(inst_->meanings[e.index].payload) == TileFn::TiledView) {
    // A TiledView: its array (the tile shape, steps and padding are in its type).
    ArrayArgs a = arrayArg(arg(e, 0));
    a.facts = types_.get(typeOf(e)).facts;
    return a;
  }
  if (static_cast<TileFn>(inst_->meanings[e.index].payload) == TileFn::GetRawMemory) {
    // RawArrayMemory: the base, one axis of unit stride and no extent (offsets are unchecked).
    ArrayArgs a = arrayArg(arg(e, 0));
    a.shape.assign(1, b_.getInt64(INT64_MAX));
    a.strides.assign(1, b_.getInt64(1));
    a.facts = types_.get(typeOf(e)).facts;
    return a;
  }
  // `array.slice(axis, start, stop)`: the base moves `start` elements along
  // the axis, whose extent becomes `stop - start`; nothing is copied.
  assert(static_cast<TileFn>(inst_->meanings[e.index].payload) == TileFn::ArraySlice);
  ArrayArgs a = arrayArg(arg(e, 0));
  int64_t axis = constIntArg(e, 1, 0);
  size_t d = static_cast<size_t>(axis < 0 ? axis + int64_t(a.shape.size()) : axis);
  llvm::Value* start = scalarAs(arg(e, 2), types_.int64());
  llvm::Value* stop = scalarAs(arg(e, 3), types_.int64());
  TypeId t = typeOf(e);
  a.data = b_.CreateGEP(memoryType(types_.get(t).element), a.data, b_.CreateMul(start, a.strides[d]));
  a.shape[d] = b_.CreateSub(stop, start);
  a.facts = types_.get(t).facts;
  return a;
}

void TileLowering::assignArray(const std::string& name, const ArrayArgs& a) {
  auto [it, fresh] = arrayVars_.try_emplace(name);
  ArrayVar& v = it->second;
  if (fresh) {
    v.data = entryAlloca(a.data->getType(), name + ".data");
    for (size_t d = 0; d < a.shape.size(); ++d) {
      v.shape.push_back(entryAlloca(b_.getInt64Ty(), name + ".shape"));
      v.strides.push_back(entryAlloca(b_.getInt64Ty(), name + ".stride"));
    }
  }
  b_.CreateStore(a.data, v.data);
  for (size_t d = 0; d < a.shape.size(); ++d) {
    b_.CreateStore(a.shape[d], v.shape[d]);
    b_.CreateStore(a.strides[d], v.strides[d]);
  }
}

TileLowering::Addressing TileLowering::addressing(ExprId call, TypeId tileType) {
  Addressing a;
  a.tileIndex = indexValues(arg(call, 1));
  a.shape = types_.get(tileType).shape;
  // A TiledView whose steps are not its tile shape (a strided view).
  const frontend::ArrayFacts& f = types_.get(typeOf(arg(call, 0))).facts;
  if (f.view && f.viewSteps != a.shape && f.viewSteps.size() == a.shape.size()) a.steps = f.viewSteps;
  return a;
}

llvm::Value* TileLowering::tileOrigin(const Addressing& a, size_t d) {
  return b_.CreateMul(a.tileIndex[d], b_.getInt64(a.steps.empty() ? a.shape[d] : a.steps[d]));
}

llvm::Value* TileLowering::tileInside(const ArrayArgs& arr, const Addressing& a) {
  llvm::Value* inside = b_.getTrue();
  for (size_t d = 0; d < a.shape.size(); ++d) {
    llvm::Value* end = b_.CreateAdd(tileOrigin(a, d), b_.getInt64(a.shape[d]));
    inside = b_.CreateAnd(inside, b_.CreateAnd(b_.CreateICmpSGE(a.tileIndex[d], b_.getInt64(0)),
                                                b_.CreateICmpSLE(end, arr.shape[d])));
  }
  return inside;
}

std::pair<llvm::Value*, llvm::Value*> TileLowering::slotAddress(const ArrayArgs& arr, const Addressing& a,
                                                   const Layout& l, unsigned s) {
  if (vectorPath_ && !l.uniform && !l.partial && !l.mma && a.shape.back() % (int64_t(threads_) * l.vec) == 0) {
    return rowSlotAddress(arr, a, l, s);
  }
  std::vector<llvm::Value*> mi = multiIndex(clampIndex(elementIndex(l, s), l), a.shape);
  llvm::Value* offset = b_.getInt64(0);
  llvm::Value* inside = slotValid(l);
  for (size_t d = 0; d < a.shape.size(); ++d) {
    llvm::Value* g = b_.CreateAdd(tileOrigin(a, d), b_.CreateZExt(mi[d], b_.getInt64Ty()));
    inside = b_.CreateAnd(inside, b_.CreateICmpULT(g, arr.shape[d]));
    offset = b_.CreateAdd(offset, b_.CreateMul(g, arr.strides[d]));
  }
  return {offset, inside};
}

std::pair<llvm::Value*, llvm::Value*> TileLowering::rowSlotAddress(const ArrayArgs& arr, const Addressing& a,
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
    llvm::Value* g = b_.CreateAdd(tileOrigin(a, d), b_.getInt64(k));
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

llvm::Value* TileLowering::paddingValue(ExprId call, TypeId e, size_t at) {
  ExprId p = arg(call, at);
  TileFn mode = TileFn::PadZero;
  if (p.valid()) mode = static_cast<TileFn>(inst_->meanings[p.index].payload);
  // A TiledView's load: the view's padding mode (UNDETERMINED reads as ZERO, as ct.load's).
  if (const frontend::ArrayFacts& f = types_.get(typeOf(arg(call, 0))).facts; !p.valid() && f.view) {
    mode = static_cast<TileFn>(static_cast<uint32_t>(TileFn::PadUndetermined) + f.viewPadding);
  }
  llvm::Type* t = llvmType(e);
  const Type& et = types_.get(e);
  if (types_.isFloat8(e)) {
    // The 8-bit floats' codes (E4M3 has no infinities: its largest finite value).
    double v = mode == TileFn::PadNegZero ? -0.0
             : mode == TileFn::PadNan ? std::nan("")
             : mode == TileFn::PadPosInf ? HUGE_VAL
             : mode == TileFn::PadNegInf ? -HUGE_VAL : 0.0;
    return llvm::ConstantInt::get(t, float8Code(v, et.format));
  }
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

llvm::Value* TileLowering::vectorizable(const ArrayArgs& arr, const Layout& l, unsigned size) {
  // Each test the array's facts answer is left out; a constant where all are.
  llvm::Value* ok = b_.CreateICmpEQ(arr.strides.back(), b_.getInt64(1));
  for (size_t d = 0; d + 1 < arr.strides.size(); ++d) {
    if (arr.facts.strideDivisor(d) % l.vec == 0) continue;
    ok = b_.CreateAnd(ok, b_.CreateICmpEQ(b_.CreateAnd(arr.strides[d], b_.getInt64(l.vec - 1)),
                                          b_.getInt64(0)));
  }
  if (arr.facts.alignedTo(uint64_t(l.vec) * size)) return ok;
  llvm::Value* address = b_.CreatePtrToInt(arr.data, b_.getInt64Ty());
  llvm::Value* misaligned = b_.CreateAnd(address, b_.getInt64(uint64_t(l.vec) * size - 1));
  return b_.CreateAnd(ok, b_.CreateICmpEQ(misaligned, b_.getInt64(0)));
}

std::pair<llvm::Value*, llvm::Value*> TileLowering::chunkAddress(const ArrayArgs& arr, const Addressing& a,
                                                    const Layout& l, unsigned s) {
  auto [offset, first] = slotAddress(arr, a, l, s);
  llvm::Value* last = slotAddress(arr, a, l, s + l.vec - 1).second;
  return {offset, b_.CreateAnd(first, last)};
}

std::vector<size_t> TileLowering::accessOrder(ExprId call) const {
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

std::pair<TypeId, TileLowering::Addressing> TileLowering::arrayOrder(const Addressing& view, TypeId e, const std::vector<size_t>& order) {
  Addressing a;
  a.shape.assign(view.shape.size(), 1);
  a.tileIndex.assign(view.shape.size(), nullptr);
  if (!view.steps.empty()) a.steps.assign(view.shape.size(), 1);
  for (size_t d = 0; d < order.size(); ++d) {
    a.shape[order[d]] = view.shape[d];
    a.tileIndex[order[d]] = view.tileIndex[d];
    if (!view.steps.empty()) a.steps[order[d]] = view.steps[d];
  }
  return {types_.tile(e, a.shape), a};
}

llvm::Value* TileLowering::permutedSource(llvm::Value* e, const std::vector<int64_t>& from, const std::vector<int64_t>& to,
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

TileVal TileLowering::load(ExprId id, TypeId t) {
  std::vector<size_t> order = accessOrder(id);
  access(arrayArg(arg(id, 0)), false, accessShape(id, TileFn::Load));
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

TileVal TileLowering::loadTile(ExprId id, TypeId t, const Addressing& a) {
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

std::vector<llvm::Value*> TileLowering::pack(const std::vector<llvm::Value*>& vals, unsigned vec) {
  std::vector<llvm::Value*> out;
  auto* vt = llvm::FixedVectorType::get(vals[0]->getType(), vec);
  for (size_t s = 0; s < vals.size(); s += vec) {
    llvm::Value* v = llvm::PoisonValue::get(vt);
    for (unsigned k = 0; k < vec; ++k) v = b_.CreateInsertElement(v, vals[s + k], k);
    out.push_back(v);
  }
  return out;
}

std::vector<llvm::Value*> TileLowering::unpack(const std::vector<llvm::Value*>& vectors) {
  std::vector<llvm::Value*> out;
  for (llvm::Value* v : vectors) {
    auto* vt = llvm::cast<llvm::FixedVectorType>(v->getType());
    for (unsigned k = 0; k < vt->getNumElements(); ++k) out.push_back(b_.CreateExtractElement(v, k));
  }
  return out;
}

std::vector<llvm::Value*> TileLowering::loadElements(const ArrayArgs& arr, const Addressing& a, const Layout& l,
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

void TileLowering::store(ExprId id) {
  const ArrayArgs& arr = arrayArg(arg(id, 0));
  uint32_t shape = accessShape(id, TileFn::Store);
  TypeId arrayType = typeOf(arg(id, 0));
  TypeId e = elementOf(arrayType);
  TypeId valueType = typeOf(arg(id, 2));
  // A scalar is stored as a tile of ones of the array's rank.
  TypeId tileType = types_.isTile(valueType) ? types_.tile(e, types_.get(valueType).shape)
                                             : types_.tile(e, std::vector<int64_t>(types_.get(arrayType).ndim, 1));
  // A TiledView's store: the value broadcast to the view's tile (sema's opType).
  if (types_.get(arrayType).facts.view) tileType = inst_->opTypes[id.index];
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
  access(arr, true, shape);
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

std::vector<TileVal> TileLowering::indexOperands(ExprId id, TypeId shaped) {
  TypeId indexType = types_.isTile(shaped) ? types_.tile(types_.int64(), types_.get(shaped).shape) : types_.int64();
  std::vector<TileVal> index;
  ExprId indices = arg(id, 1);
  TypeId held = typeOf(indices);
  if (const ConstValue* c = constOf(indices); c != nullptr && c->kind == ConstValue::Kind::Tuple) {
    // A constant tuple of indices held in a name or a field (`d.idx`).
    for (const ConstValue& e : c->elements) index.push_back(constantValue(e, indexType));
    return index;
  }
  if (!ast_.expr(indices).is<ast::Tuple>() && held.valid() && types_.isTuple(held)) {
    // A name holding the tuple: its elements in order, each spread to the indices' shape.
    size_t n = types_.get(held).elements.size();
    TileVal all = evalAs(indices, types_.tuple(std::vector<TypeId>(n, indexType)));
    unsigned per = layoutOf(indexType).slots;
    for (size_t d = 0; d < n; ++d) {
      TileVal v;
      v.slots.assign(all.slots.begin() + static_cast<std::ptrdiff_t>(d * per),
                     all.slots.begin() + static_cast<std::ptrdiff_t>((d + 1) * per));
      index.push_back(std::move(v));
    }
    return index;
  }
  for (ExprId item : indexItems(indices)) index.push_back(evalAs(item, indexType));
  return index;
}

std::pair<llvm::Value*, llvm::Value*> TileLowering::indexedAddress(const ArrayArgs& arr, const std::vector<TileVal>& index,
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

TileVal TileLowering::gatherScatter(ExprId id, bool gather) {
  const ArrayArgs& arr = arrayArg(arg(id, 0));
  TypeId e = elementOf(typeOf(arg(id, 0)));
  TypeId shaped = inst_->opTypes[id.index];
  bool tile = types_.isTile(shaped);
  Layout l = layoutOf(shaped);
  std::vector<TileVal> index = indexOperands(id, shaped);
  ExprId maskExpr = arg(id, gather ? 2 : 3);
  std::optional<TileVal> mask;
  if (maskExpr.valid()) {
    mask = evalAs(maskExpr, tile ? types_.tile(types_.boolean(), types_.get(shaped).shape) : types_.boolean());
  }
  // A RawArrayMemory's load_offset/store_offset (the same arguments up to the mask and
  // padding value): unchecked offsets, and no check_bounds (their argument 4 is latency=).
  bool check = !types_.get(typeOf(arg(id, 0))).facts.raw && constIntArg(id, 4, 1) != 0;
  TileVal value;
  if (gather) {
    access(arr, false);
    if (arg(id, 3).valid()) {
      value = evalAs(arg(id, 3), shaped);
    } else {
      value.slots.assign(l.slots, llvm::Constant::getNullValue(llvmType(e)));
    }
  } else {
    value = evalAs(arg(id, 2), shaped);
    access(arr, true, l.uniform ? kThreadZero : 0);
  }
  return indexedAccess(arr, e, l, index, mask, check, gather, value);
}

TileVal TileLowering::indexedAccess(const ArrayArgs& arr, TypeId e, const Layout& l, const std::vector<TileVal>& index,
                                    const std::optional<TileVal>& mask, bool check, bool gather,
                                    const TileVal& value) {
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

TileVal TileLowering::advancedIndexing(ExprId id, bool load) {
  const ArrayArgs& arr = arrayArg(arg(id, 0));
  TypeId e = elementOf(typeOf(arg(id, 0)));
  TypeId shaped = inst_->opTypes[id.index];
  const std::vector<int64_t> shape = types_.get(shaped).shape;
  Layout l = layoutOf(shaped);
  TypeId indexType = types_.tile(types_.int64(), shape);
  std::vector<TileVal> index;
  std::vector<ExprId> items = indexItems(arg(id, 1));
  for (size_t d = 0; d < items.size(); ++d) {
    const auto* call = ast_.expr(items[d]).dyn<ast::Call>();
    bool slice = call != nullptr && inst_->meanings[call->func.index].kind == Intrinsic::TileOp &&
                 inst_->meanings[call->func.index].payload == static_cast<uint32_t>(TileFn::Slice);
    if (!slice) {
      // The sparse axis: element i of the index tile at every element whose index on axis d is i.
      TypeId from = types_.tile(types_.int64(), {shape[d]});
      TileVal sparse = evalAs(items[d], from);
      index.push_back(relayout(sparse, from, indexType, false,
                               [&, d](llvm::Value* el) { return multiIndex(el, shape)[d]; }));
      continue;
    }
    // A dense axis: start + the element's index on axis d.
    llvm::Value* start = scalarAs(arg(items[d], 0), types_.int64());
    TileVal v;
    for (unsigned s = 0; s < l.slots; ++s) {
      llvm::Value* at = multiIndex(clampIndex(elementIndex(l, s), l), shape)[d];
      v.slots.push_back(b_.CreateAdd(start, b_.CreateZExt(at, b_.getInt64Ty())));
    }
    index.push_back(v);
  }
  TileVal value;
  if (load) {
    value.slots.assign(l.slots, paddingValue(id, e, 2));
    access(arr, false);
  } else {
    value = evalAs(arg(id, 2), shaped);
    access(arr, true);
  }
  return indexedAccess(arr, e, l, index, std::nullopt, true, load, value);
}

TileVal TileLowering::scalarLoad(ExprId id) {
  const ArrayArgs& arr = arrayArg(arg(id, 0));
  TypeId e = elementOf(typeOf(arg(id, 0)));
  Layout l = layoutOf(e);
  std::vector<TileVal> index = indexOperands(id, e);
  // A TiledView of 0-d tiles: element i * steps[d] along each axis.
  if (const frontend::ArrayFacts& f = types_.get(typeOf(arg(id, 0))).facts; f.view) {
    for (size_t d = 0; d < index.size() && d < f.viewSteps.size(); ++d) {
      if (f.viewSteps[d] != 1) index[d].slots[0] = b_.CreateMul(index[d].slots[0], b_.getInt64(f.viewSteps[d]));
    }
  }
  access(arr, false);
  auto [offset, ok] = indexedAddress(arr, index, 0, true, l, false);
  llvm::Type* mt = memoryType(e);
  return TileVal{{guardedValue(ok, paddingValue(id, e), "load", [&, offset = offset] {
    llvm::Value* x = b_.CreateLoad(mt, b_.CreateGEP(mt, arr.data, offset));
    return types_.isBool(e) ? b_.CreateICmpNE(x, b_.getInt8(0)) : x;
  })}};
}

llvm::AtomicRMWInst::BinOp TileLowering::rmwOp(TileFn fn, TypeId e) const {
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
  return op;
}

TileVal TileLowering::atomic(ExprId id, TileFn fn) {
  const ArrayArgs& arr = arrayArg(arg(id, 0));
  TypeId e = elementOf(typeOf(arg(id, 0)));
  TypeId shaped = inst_->opTypes[id.index];
  Layout l = layoutOf(shaped);
  std::vector<TileVal> index = indexOperands(id, shaped);
  bool cas = fn == TileFn::AtomicCas;
  TileVal update = evalAs(arg(id, 2), shaped);
  TileVal desired;
  if (cas) desired = evalAs(arg(id, 3), shaped);
  const size_t optionsAt = cas ? 4 : 3;
  // A RawArrayMemory's atomics take `mask=` where ct.atomic_* take `check_bounds=`.
  bool raw = types_.get(typeOf(arg(id, 0))).facts.raw;
  bool check = !raw && constIntArg(id, optionsAt, 1) != 0;
  std::optional<TileVal> mask;
  if (ExprId m = arg(id, optionsAt); raw && m.valid()) {
    mask = evalAs(m, types_.isTile(shaped) ? types_.tile(types_.boolean(), types_.get(shaped).shape)
                                           : types_.boolean());
  }
  llvm::AtomicOrdering order = llvm::AtomicOrdering::AcquireRelease;
  if (ExprId o = arg(id, optionsAt + 1); o.valid()) {
    switch (static_cast<TileFn>(inst_->meanings[o.index].payload)) {
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
    auto which = static_cast<TileFn>(inst_->meanings[o.index].payload);
    if (which == TileFn::ScopeBlock) scope = context_.getOrInsertSyncScopeID("block");
    if (which == TileFn::ScopeSys) scope = llvm::SyncScope::System;
  }
  const Type& et = types_.get(e);
  bool isFloat = et.kind == TypeKind::Float;
  llvm::AtomicRMWInst::BinOp op = rmwOp(fn, e);
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
    if (mask) ok = b_.CreateAnd(ok, mask->slots[s]);
    llvm::Value* p = b_.CreateGEP(mt, arr.data, offset);
    auto* c = llvm::dyn_cast<llvm::ConstantInt>(ok);
    if (c != nullptr && c->isOne()) return emit(p, s);
    return guardedValue(ok, skipped(s), "atomic", [&] { return emit(p, s); });
  };
  // A releasing atomic publishes the block's earlier writes: all threads' writes first.
  bool releases = order == llvm::AtomicOrdering::Release || order == llvm::AtomicOrdering::AcquireRelease;
  if (releases && !accessed_.writes.empty()) barrier();
  // One element: thread 0 updates it (and a barrier shares the old value).
  access(arr, true, l.uniform ? kThreadZero : 0);
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

}  // namespace lowering::tile
