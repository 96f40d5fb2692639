// ct.mma_scaled: block-scaled matrix multiply-accumulate. sm_90 has no block-scaled
// MMA (tcgen05.mma's kind::mxf8f6f4 / mxf4 are sm_100's). 2-D products whose
// accumulator takes the mma layout run on tensor cores block by block: every float8 and
// float4 value is a float16, so each scaling block's product x_b @ y_b is mma.sync's
// float16 product with float32 accumulation (exact products), and it joins the
// accumulator times x_scale[i, b] * y_scale[b, j] (the scales' product is exact). Other
// products (batched, small) decode each operand to float32 times its scale (exact but
// past float32's range) and sum on CUDA cores.
#include <algorithm>

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

bool TileLowering::scaledTensorCores(ExprId id, TypeId t) {
  const std::vector<int64_t>& xs = types_.get(typeOf(arg(id, 0))).shape;
  const std::vector<int64_t>& ys = types_.get(typeOf(arg(id, 2))).shape;
  if (xs.size() != 2 || ys.size() != 2 || types_.get(t).shape.size() != 2) return false;
  // Blocks (16 or 32) hold whole k16 steps.
  int64_t block = xs[1] / types_.get(typeOf(arg(id, 1))).shape[1];
  return xs[1] % 16 == 0 && block % 16 == 0 && mmaLayoutOf(t).has_value();
}

TileVal TileLowering::scaledProduct(ExprId id, TypeId t) {
  usesTensorCores_ = true;
  ExprId x = arg(id, 0), xScale = arg(id, 1), y = arg(id, 2), yScale = arg(id, 3);
  TypeId f16 = types_.floatType(16), f32 = types_.float32();
  int64_t rows = types_.get(typeOf(x)).shape[0], depth = types_.get(typeOf(x)).shape[1];
  int64_t cols = types_.get(typeOf(y)).shape[1];
  int64_t ks = types_.get(typeOf(xScale)).shape[1], block = depth / ks;
  TileVal acc = evalAs(arg(id, 4), t, true);
  // Everything is evaluated before anything is written (an evaluation may pass through
  // the scratch buffer): the operands as float16, the scales as float32.
  TypeId xt = types_.tile(f16, {rows, depth}), yt = types_.tile(f16, {depth, cols});
  TypeId xst = types_.tile(f32, {rows, ks}), yst = types_.tile(f32, {ks, cols});
  TileVal xv = evalAs(x, xt), yv = evalAs(y, yt);
  TileVal xsv = evalAs(xScale, xst), ysv = evalAs(yScale, yst);
  uint64_t yOffset = (static_cast<uint64_t>(rows * depth) * 2 + 127) / 128 * 128;
  uint64_t sOffset = yOffset + (static_cast<uint64_t>(depth * cols) * 2 + 127) / 128 * 128;
  int64_t xsFirst = static_cast<int64_t>(sOffset / 4), ysFirst = xsFirst + rows * ks;
  llvm::Value* buffer = scratch(static_cast<uint64_t>(ysFirst + ks * cols) * 4);
  barrier();
  SmemTile xsm = writeSwizzled(xv, xt, false, 0);
  SmemTile ysm = writeSwizzled(yv, yt, false, yOffset);
  storeSlots(xsv, xst, layoutOf(xst), buffer, xsFirst);
  storeSlots(ysv, yst, layoutOf(yst), buffer, ysFirst);
  barrier();
  Layout l = *mmaLayoutOf(t);
  std::vector<llvm::Value*> total(acc.slots.size()), part(acc.slots.size());
  for (size_t s = 0; s < total.size(); ++s) total[s] = acc.slots[acc.slots.size() == 1 ? 0 : s];
  // Each slot's row and column, for its scales.
  std::vector<llvm::Value*> rowOf(total.size()), colOf(total.size());
  for (unsigned s = 0; s < total.size(); ++s) {
    llvm::Value* el = clampIndex(elementIndex(l, s), l);
    rowOf[s] = b_.CreateLShr(el, b_.getInt32(static_cast<uint32_t>(log2i(cols))));
    colOf[s] = b_.CreateAnd(el, b_.getInt32(static_cast<uint32_t>(cols - 1)));
  }
  unsigned fragsM = static_cast<unsigned>(l.wm / 16), fragsN = static_cast<unsigned>(l.wn / 8);
  llvm::Value* warp = b_.CreateLShr(tid_, b_.getInt32(5));
  llvm::Value* lane = b_.CreateAnd(tid_, b_.getInt32(kWarp - 1));
  llvm::Value* rowBase = b_.CreateMul(b_.CreateUDiv(warp, b_.getInt32(l.warpsN)), b_.getInt32(static_cast<uint32_t>(l.wm)));
  llvm::Value* colBase = b_.CreateMul(b_.CreateURem(warp, b_.getInt32(l.warpsN)), b_.getInt32(static_cast<uint32_t>(l.wn)));
  llvm::Function* mma = intrinsic(llvm::Intrinsic::nvvm_mma_m16n8k16_row_col_f32_f32);
  llvm::Type* ft = b_.getFloatTy();
  llvm::Value* zero = llvm::ConstantFP::get(ft, 0.0);
  for (int64_t b0 = 0; b0 < depth; b0 += block) {
    std::fill(part.begin(), part.end(), zero);
    for (int64_t k0 = b0; k0 < b0 + block; k0 += 16) {
      std::vector<std::array<llvm::Value*, 4>> af(fragsM);
      std::vector<std::array<llvm::Value*, 2>> bf(fragsN);
      for (unsigned fm = 0; fm < fragsM; ++fm) {
        af[fm] = ldmatrixA(xsm, b_.CreateAdd(rowBase, b_.getInt32(fm * 16)), k0, lane);
      }
      for (unsigned fn = 0; fn < fragsN; fn += 2) {
        auto four = ldmatrixB(ysm, k0, b_.CreateAdd(colBase, b_.getInt32(fn * 8)), lane);
        bf[fn] = {four[0], four[1]};
        bf[fn + 1] = {four[2], four[3]};
      }
      mmaFragments(mma, af, bf, part);
    }
    // total += part * x_scale[row, b] * y_scale[b, col].
    llvm::Value* b = b_.getInt32(static_cast<uint32_t>(b0 / block));
    for (size_t s = 0; s < total.size(); ++s) {
      llvm::Value* xi = b_.CreateAdd(b_.CreateMul(rowOf[s], b_.getInt32(static_cast<uint32_t>(ks))), b);
      llvm::Value* yi = b_.CreateAdd(b_.CreateMul(b, b_.getInt32(static_cast<uint32_t>(cols))), colOf[s]);
      llvm::Value* sx = b_.CreateLoad(ft, b_.CreateGEP(ft, buffer, b_.CreateAdd(xi, b_.getInt32(static_cast<uint32_t>(xsFirst)))));
      llvm::Value* sy = b_.CreateLoad(ft, b_.CreateGEP(ft, buffer, b_.CreateAdd(yi, b_.getInt32(static_cast<uint32_t>(ysFirst)))));
      total[s] = b_.CreateIntrinsic(llvm::Intrinsic::fmuladd, {ft}, {part[s], b_.CreateFMul(sx, sy), total[s]});
    }
  }
  TileVal out;
  out.mma = true;
  out.slots = std::move(total);
  return out;
}

TileVal TileLowering::mmaScaled(ExprId id, TypeId t) {
  if (isMmaExpr(id)) return scaledProduct(id, t);
  ExprId x = arg(id, 0), xScale = arg(id, 1), y = arg(id, 2), yScale = arg(id, 3);
  const std::vector<int64_t>& xs = types_.get(typeOf(x)).shape;
  const std::vector<int64_t>& ys = types_.get(typeOf(y)).shape;
  TileVal xv = scaledOperand(x, xScale, xs.size() - 1);
  TileVal yv = scaledOperand(y, yScale, ys.size() - 2);
  TileVal acc = evalAs(arg(id, 4), t);
  return batchedProductOf(xv, xs, yv, ys, t, types_.float32(), &acc);
}

}  // namespace lowering::tile
