// ct.mma_scaled: block-scaled matrix multiply-accumulate. sm_90 has no block-scaled
// MMA (tcgen05.mma's kind::mxf8f6f4 / mxf4 are sm_100's), so each operand is decoded
// to float32 and multiplied by its scale (exact: a float8 or float4 value times a power
// of two, or times an e4m3 scale, fits float32's 24 bits unless it leaves float32's
// range), then the float32 product is summed from the accumulator on CUDA cores.
#include "lowering/tile/tile_lower_internal.h"

namespace lowering::tile {

TileVal TileLowering::scaledOperand(ExprId data, ExprId scale, size_t axis) {
  TypeId f32 = types_.float32();
  const std::vector<int64_t>& shape = types_.get(typeOf(data)).shape;
  const std::vector<int64_t>& scaleShape = types_.get(typeOf(scale)).shape;
  TypeId dt = types_.tile(f32, shape);
  TypeId st = types_.tile(f32, scaleShape);
  TileVal values = evalAs(data, dt);
  TileVal scales = evalAs(scale, st);
  // The scales staged row-major; element i of `data` reads the scale at i's index
  // with index[axis] divided by the block size.
  llvm::Value* buffer = stage(scales, st, layoutOf(st));
  int64_t block = shape[axis] / scaleShape[axis];
  std::vector<int64_t> strides(scaleShape.size());
  int64_t inner = 1;
  for (size_t d = scaleShape.size(); d-- > 0;) {
    strides[d] = inner;
    inner *= scaleShape[d];
  }
  Layout l = layoutOf(dt);
  llvm::Type* ft = b_.getFloatTy();
  TileVal out;
  for (unsigned s = 0; s < l.slots; ++s) {
    std::vector<llvm::Value*> mi = multiIndex(clampIndex(elementIndex(l, s), l), shape);
    llvm::Value* index = b_.getInt32(0);
    for (size_t d = 0; d < shape.size(); ++d) {
      llvm::Value* i = d == axis ? b_.CreateUDiv(mi[d], b_.getInt32(static_cast<uint32_t>(block))) : mi[d];
      index = b_.CreateAdd(index, b_.CreateMul(i, b_.getInt32(static_cast<uint32_t>(strides[d]))));
    }
    llvm::Value* factor = b_.CreateLoad(ft, b_.CreateGEP(ft, buffer, index));
    out.slots.push_back(b_.CreateFMul(values.slots[values.slots.size() == 1 ? 0 : s], factor));
  }
  barrier();  // the staged scales read before the scratch buffer is reused
  return out;
}

TileVal TileLowering::mmaScaled(ExprId id, TypeId t) {
  ExprId x = arg(id, 0), xScale = arg(id, 1), y = arg(id, 2), yScale = arg(id, 3);
  const std::vector<int64_t>& xs = types_.get(typeOf(x)).shape;
  const std::vector<int64_t>& ys = types_.get(typeOf(y)).shape;
  TileVal xv = scaledOperand(x, xScale, xs.size() - 1);
  TileVal yv = scaledOperand(y, yScale, ys.size() - 2);
  TileVal acc = evalAs(arg(id, 4), t);
  return batchedProductOf(xv, xs, yv, ys, t, types_.float32(), &acc);
}

}  // namespace lowering::tile
