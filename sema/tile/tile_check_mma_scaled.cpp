// ct.mma_scaled: block-scaled matrix multiply-accumulate, checked as cuTile's
// ops.mma_scaled_impl checks it (its order and its rules: _datatype's
// _mma_scaled_supported_dtypes, _verify_scaling_block_size, _matmul_broadcast_shape).
#include <algorithm>

#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

namespace {

bool isFormat(const Type& t, FloatFormat f) { return t.kind == TypeKind::Float && t.bits == 8 && t.format == f; }

// The operand dtypes: float8_e4m3fn, float8_e5m2, float4_e2m1fn.
bool scaledInput(const Type& t) {
  return isFormat(t, FloatFormat::F8E4M3) || isFormat(t, FloatFormat::F8E5M2) || isFormat(t, FloatFormat::F4E2M1);
}

// The scaling block sizes B (= K // K_s) cuTile allows for `data` scaled by `scale`,
// empty where the pair is not supported; every pair accumulates in float32.
// (cuTile's float8_e5m3fnu scales of float4_e2m1fn, Rubin's, are not a pykc dtype.)
std::vector<int64_t> blockSizes(const Type& d, const Type& s) {
  if (isFormat(d, FloatFormat::F4E2M1)) {
    if (isFormat(s, FloatFormat::F8E8M0)) return {16, 32};
    if (isFormat(s, FloatFormat::F8E4M3)) return {16};
    return {};
  }
  if (scaledInput(d) && isFormat(s, FloatFormat::F8E8M0)) return {32};
  return {};
}

std::string sizeSet(const std::vector<int64_t>& sizes) {
  std::string s = "{";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "}";
}

}  // namespace

TV TileChecker::checkMmaScaled(ExprId id, const ast::Call& c, const std::string& fname) {
  auto args = bindArgs(id, c, fname, {"x", "x_scale", "y", "y_scale", "acc"}, 5);
  if (!args) return TV{};
  static constexpr const char* kNames[] = {"x", "x_scale", "y", "y_scale", "acc"};
  TV v[5];
  for (size_t i = 0; i < 5; ++i) {
    v[i] = checkExpr((*args)[i]);
    if (!v[i].ok()) return TV{};
  }
  for (size_t i = 0; i < 5; ++i) {
    if (!isTileVal(v[i])) {
      diags_.error(loc((*args)[i]), Diag::TileType,
                   "`" + fname + "`'s `" + kNames[i] + "` must be a tile, found `" + describe(v[i]) + "`");
      return TV{};
    }
  }
  // cuTile's order: x, y, acc, x_scale, y_scale.
  for (size_t i : {0, 2, 4, 1, 3}) {
    const std::vector<int64_t>& shape = types_.get(v[i].type).shape;
    if (shape.size() != 2 && shape.size() != 3) {
      diags_.error(loc((*args)[i]), Diag::TileShape,
                   "`" + fname + "`'s `" + kNames[i] + "` must be 2-D or 3-D, found shape " + shapeText(shape));
      return TV{};
    }
  }
  const TV &x = v[0], &xs = v[1], &y = v[2], &ys = v[3], &acc = v[4];
  TypeId xd = elementOf(x.type), xsd = elementOf(xs.type), yd = elementOf(y.type), ysd = elementOf(ys.type);
  TypeId accd = elementOf(acc.type);
  auto fail = [&](size_t arg, Diag kind, const std::string& message) {
    diags_.error(loc((*args)[arg]), kind, "`" + fname + "`: " + message);
    return TV{};
  };
  if (xd != yd) {
    return fail(2, Diag::TileType,
                "x and y must have the same dtype, found `" + nameOf(xd) + "` and `" + nameOf(yd) + "`");
  }
  if (xsd != ysd) {
    return fail(3, Diag::TileType,
                "x_scale and y_scale must have the same dtype, found `" + nameOf(xsd) + "` and `" + nameOf(ysd) +
                    "`");
  }
  const Type& xt = types_.get(xd);
  if (!scaledInput(xt)) {
    return fail(0, Diag::TileType,
                "unsupported input dtype `" + nameOf(xd) +
                    "`; the supported input dtypes are float8_e4m3fn, float8_e5m2, float4_e2m1fn");
  }
  std::vector<int64_t> allowed = blockSizes(xt, types_.get(xsd));
  if (allowed.empty()) {
    bool f4 = isFormat(xt, FloatFormat::F4E2M1);
    return fail(1, Diag::TileType,
                "unsupported scale dtype `" + nameOf(xsd) + "` for input dtype `" + nameOf(xd) +
                    "`; the supported scale dtypes are " +
                    (f4 ? "float8_e8m0fnu, float8_e4m3fn" : "float8_e8m0fnu"));
  }
  if (accd != types_.float32()) {
    return fail(4, Diag::TileType, "unsupported acc dtype `" + nameOf(accd) + "`; expected float32");
  }
  // Each scale has its operand's shape but along K, which it splits into blocks of B.
  for (int side = 0; side < 2; ++side) {
    const TV& t = side == 0 ? x : y;
    const TV& s = side == 0 ? xs : ys;
    std::string name = side == 0 ? "x" : "y";
    std::string scaleName = name + "_scale";
    size_t where = side == 0 ? 1 : 3;
    const std::vector<int64_t>& ts = types_.get(t.type).shape;
    const std::vector<int64_t>& ss = types_.get(s.type).shape;
    size_t axis = side == 0 ? ts.size() - 1 : ts.size() - 2;
    bool match = ts.size() == ss.size();
    for (size_t d = 0; match && d < ts.size(); ++d) match = d == axis || ts[d] == ss[d];
    if (!match) {
      return fail(where, Diag::TileShape,
                  scaleName + " shape " + shapeText(ss) + " is not compatible with " + name + " shape " +
                      shapeText(ts) + ": all dimensions except the K axis " + std::to_string(axis) + " must match");
    }
    int64_t k = ts[axis], ks = ss[axis];
    int64_t block = k % ks == 0 ? k / ks : 0;
    if (std::find(allowed.begin(), allowed.end(), block) == allowed.end()) {
      std::string a = std::to_string(axis);
      return fail(where, Diag::TileShape,
                  "for dtype " + nameOf(xd) + " scaled by " + nameOf(xsd) + ", " + name + ".shape[" + a +
                      "] must be an exact multiple of " + scaleName + ".shape[" + a +
                      "] with scaling block size B = K // K_s in " + sizeSet(allowed) + ", found " + name +
                      ".shape[" + a + "] = " + std::to_string(k) + " and " + scaleName + ".shape[" + a +
                      "] = " + std::to_string(ks));
    }
  }
  auto product = matmulShapes(x, y, ast_.expr(id).range, "`" + fname + "`", true);
  if (!product) return TV{};
  if (types_.get(acc.type).shape != *product) {
    return fail(4, Diag::TileShape,
                "the accumulator's shape must be " + shapeText(*product) + ", found " +
                    shapeText(types_.get(acc.type).shape));
  }
  inst_.opTypes[id.index] = xd;
  return record(id, TV::value(acc.type));
}

}  // namespace frontend::tile
