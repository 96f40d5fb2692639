// cuTile's TiledView (sema/tile/tile_check_view.cpp): num_tiles and the atomic_store_*
// methods; arrays' specialisation constants (the extents and strides a kernel reads). Its load and store go through ct.load's and ct.store's paths
// (tile_memory.cpp), whose addressing takes the view's steps.
#include "lowering/tile/tile_lower_internal.h"

namespace lowering::tile {

void TileLowering::constantExtents(ArrayArgs& a) {
  for (size_t d = 0; d < a.shape.size(); ++d) {
    if (int64_t n = a.facts.shapeConst(d); n != frontend::ArrayFacts::kUnknown) a.shape[d] = b_.getInt64(n);
    if (int64_t s = a.facts.strideConst(d); s != frontend::ArrayFacts::kUnknown) a.strides[d] = b_.getInt64(s);
  }
}

TileVal TileLowering::viewNumTiles(ExprId id) {
  const ArrayArgs& a = arrayArg(arg(id, 0));
  const Type& view = types_.get(typeOf(arg(id, 0)));
  int64_t axis = constIntArg(id, 1, 0);
  if (axis < 0) axis += static_cast<int64_t>(a.shape.size());
  int64_t step = view.facts.viewSteps[static_cast<size_t>(axis)];
  llvm::Value* n = a.shape[static_cast<size_t>(axis)];
  llvm::Value* q = b_.CreateSDiv(b_.CreateAdd(n, b_.getInt64(step - 1)), b_.getInt64(step));
  return TileVal{{b_.CreateTrunc(q, b_.getInt32Ty())}};
}

void TileLowering::viewAtomic(ExprId id, TileFn fn) {
  const ArrayArgs& arr = arrayArg(arg(id, 0));
  TypeId tileType = inst_->opTypes[id.index];
  TypeId e = elementOf(tileType);
  Layout l = layoutOf(tileType);
  TileVal update = evalAs(arg(id, 2), tileType);
  Addressing a = addressing(id, tileType);
  llvm::AtomicRMWInst::BinOp op = rmwOp(fn, e);
  llvm::Type* mt = memoryType(e);
  llvm::Align align(types_.byteSize(e));
  // cuTile's TileAtomicRedView: relaxed, device scope.
  llvm::SyncScope::ID scope = context_.getOrInsertSyncScopeID("device");
  access(arr, true, 0);
  // Each element once: a one-element tile by thread 0, else each slot by its thread
  // (slotAddress leaves out the copies a small tile's layout repeats).
  unsigned slots = l.uniform ? 1 : l.slots;
  for (unsigned s = 0; s < slots; ++s) {
    auto [offset, inside] = slotAddress(arr, a, l, s);
    if (l.uniform) inside = b_.CreateAnd(inside, b_.CreateICmpEQ(tid_, b_.getInt32(0)));
    guarded(inside, [&, offset = offset] {
      b_.CreateAtomicRMW(op, b_.CreateGEP(mt, arr.data, offset), update.slots[s], align,
                         llvm::AtomicOrdering::Monotonic, scope);
    });
  }
}

}  // namespace lowering::tile
