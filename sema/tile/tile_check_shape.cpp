// Builtins, reductions and shape operations (reshape, permute, broadcast, cat).
#include "sema/const_eval.h"
#include "syntax/source.h"
#include "sema/tile/tile_check_internal.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace frontend::tile {

namespace {

// Python's float(str) on a literal: optional sign, "inf"/"infinity"/"nan" in any case,
// or a decimal or exponent number (underscores between digits), spaces around.
std::optional<double> parseFloatLiteral(std::string text) {
  auto space = [](char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v'; };
  while (!text.empty() && space(text.front())) text.erase(text.begin());
  while (!text.empty() && space(text.back())) text.pop_back();
  if (text.empty()) return std::nullopt;
  double sign = 1.0;
  std::string body = text;
  if (body[0] == '+' || body[0] == '-') {
    sign = body[0] == '-' ? -1.0 : 1.0;
    body.erase(body.begin());
  }
  std::string lower;
  for (char ch : body) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (lower == "inf" || lower == "infinity") return sign * std::numeric_limits<double>::infinity();
  if (lower == "nan") return std::copysign(std::numeric_limits<double>::quiet_NaN(), sign);
  std::string digits;
  for (size_t i = 0; i < body.size(); ++i) {
    char ch = body[i];
    if (ch == '_') {
      bool between = i > 0 && i + 1 < body.size() && std::isdigit(static_cast<unsigned char>(body[i - 1])) &&
                     std::isdigit(static_cast<unsigned char>(body[i + 1]));
      if (!between) return std::nullopt;
      continue;
    }
    if (!(std::isdigit(static_cast<unsigned char>(ch)) || ch == '.' || ch == 'e' || ch == 'E' || ch == '+' || ch == '-')) {
      return std::nullopt;
    }
    digits += ch;
  }
  if (digits.empty() || (!std::isdigit(static_cast<unsigned char>(digits[0])) && digits[0] != '.')) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size()) return std::nullopt;
  return sign * v;
}

}  // namespace

TV TileChecker::checkBuiltin(ExprId id, const ast::Call& c, const std::string& name) {
  auto args = ast_.list(c.args);
  if (!c.keywords.empty() || args.empty() || ((name == "abs" || name == "int" || name == "float") && args.size() != 1) ||
      ((name == "min" || name == "max") && args.size() < 2)) {
    diags_.error(loc(id), Diag::InvalidCall,
                 "`" + name + "` takes " +
                     (name == "min" || name == "max" ? "two or more scalars or tiles"
                      : name == "abs"                ? "one scalar or tile"
                                                     : "one scalar") +
                     " in tile kernels");
    return TV{};
  }
  if (name == "float" && ast_.expr(args[0]).kind() == ExprKind::Constant &&
      ast_.constantOf(args[0]).kind == ConstantKind::Str) {
    // float("inf"), float("-inf"), float("nan"), float("1.5"): a constant, as Python parses it.
    if (auto v = parseFloatLiteral(ast_.constantOf(args[0]).text)) return record(id, TV::constant(ConstValue::ofFloat(*v)));
    diags_.error(loc(args[0]), Diag::InvalidCall,
                 "could not convert string to float: '" + ast_.constantOf(args[0]).text + "'");
    return TV{};
  }
  std::vector<TV> vals;
  bool allConst = true;
  for (ExprId a : args) {
    TV v = checkExpr(a);
    if (!v.ok()) return TV{};
    bool tileOk = (name == "abs" || name == "min" || name == "max") && isTileVal(v);
    if (!(v.k == TV::K::Const && v.c.isNumber()) &&
        !(v.k == TV::K::Value && (types_.isNumber(v.type) || tileOk))) {
      diags_.error(loc(a), Diag::TileType,
                   "`" + name + "` takes scalars in tile kernels, found `" + describe(v) + "`" +
                       (isTileVal(v) ? " (use `ct.astype`)" : ""));
      return TV{};
    }
    allConst = allConst && v.k == TV::K::Const;
    vals.push_back(v);
  }
  inst_.callArguments[id.index] = std::vector<ExprId>(args.begin(), args.end());
  if (name == "min" || name == "max") {
    bool isMax = name == "max";
    if (allConst) {
      ConstValue best = vals[0].c;
      for (size_t i = 1; i < vals.size(); ++i) {
        auto better = foldCompare(isMax ? CmpOp::Gt : CmpOp::Lt, vals[i].c, best);
        if (better && better->boolValue) best = vals[i].c;
      }
      return record(id, TV::constant(best));
    }
    // On tiles (cuTile's samples: `max(m_i, row_max)`): elementwise, with
    // broadcasting, by the same rule per element.
    TV acc = vals[0];
    std::optional<TypeId> dtype;
    for (size_t i = 1; i < vals.size(); ++i) {
      dtype = promote(acc, vals[i]);
      if (!dtype) return TV{};
      acc = TV::value(*dtype);
    }
    auto shape = broadcastOf(vals, id);
    if (!shape) return TV{};
    if (types_.isBool(*dtype)) dtype = types_.int32();
    inst_.opTypes[id.index] = *dtype;
    inst_.meanings[id.index] = ExprMeaning{isMax ? Intrinsic::Max : Intrinsic::Min, 0};
    bool tile = std::any_of(vals.begin(), vals.end(), [&](const TV& v) { return isTileVal(v); });
    return record(id, TV::value(tile ? types_.tile(*dtype, *shape) : *dtype));
  }
  const TV& x = vals[0];
  if (name == "abs") {
    if (x.k == TV::K::Const) {
      if (x.c.kind == ConstValue::Kind::Float) return record(id, TV::constant(ConstValue::ofFloat(std::fabs(x.c.floatValue))));
      int64_t i = x.c.kind == ConstValue::Kind::Int ? x.c.intValue : int64_t(x.c.boolValue);
      return record(id, TV::constant(ConstValue::ofInt(i < 0 ? -i : i)));
    }
    TypeId dtype = elementOf(x.type);
    if (types_.isBool(dtype)) dtype = types_.int32();
    inst_.opTypes[id.index] = dtype;
    inst_.meanings[id.index] = ExprMeaning{Intrinsic::TileOp, static_cast<uint32_t>(TileFn::Abs)};
    return record(id, TV::value(isTileVal(x) ? types_.tile(dtype, types_.get(x.type).shape) : dtype));
  }
  bool toInt = name == "int";
  if (x.k == TV::K::Const) {
    if (toInt) {
      int64_t i = x.c.kind == ConstValue::Kind::Float  ? static_cast<int64_t>(x.c.floatValue)
                  : x.c.kind == ConstValue::Kind::Int ? x.c.intValue
                                                      : int64_t(x.c.boolValue);
      return record(id, TV::constant(ConstValue::ofInt(i)));
    }
    double d = x.c.kind == ConstValue::Kind::Float ? x.c.floatValue
               : x.c.kind == ConstValue::Kind::Int ? static_cast<double>(x.c.intValue)
                                                   : (x.c.boolValue ? 1.0 : 0.0);
    return record(id, TV::constant(ConstValue::ofFloat(d)));
  }
  // int(): integers keep their type, others give int32; float(): float32
  // (cuTile's default float), float64 stays.
  TypeId dtype;
  if (toInt) {
    dtype = types_.isInt(x.type) ? x.type : types_.int32();
  } else {
    dtype = types_.isFloat(x.type) && !types_.isNoArithmetic(x.type) ? x.type : types_.float32();
  }
  inst_.meanings[id.index] = ExprMeaning{Intrinsic::TileOp, static_cast<uint32_t>(TileFn::Astype)};
  return record(id, TV::value(dtype));
}

std::optional<std::vector<bool>> TileChecker::reducedAxes(ExprId axisExpr, const TV& x, bool tupleAxes) {
  size_t nd = types_.get(x.type).shape.size();
  std::vector<bool> reduced(nd, true);
  if (!axisExpr.valid()) return reduced;
  TV axis = checkExpr(axisExpr);
  if (!axis.ok()) return std::nullopt;
  if (axis.k == TV::K::Const && axis.c.kind == ConstValue::Kind::None) return reduced;
  // An integer, or (reductions) a tuple of them: `ct.max(x, axis=(1, 2))`.
  std::vector<ConstValue> axes{axis.c};
  if (axis.k == TV::K::Const && axis.c.kind == ConstValue::Kind::Tuple && tupleAxes) axes = axis.c.elements;
  bool ints = axis.k == TV::K::Const;
  for (const ConstValue& a : axes) ints = ints && a.kind == ConstValue::Kind::Int;
  const char* kinds = tupleAxes ? "an integer, a tuple of integers or None" : "one axis (an integer) or None";
  if (axis.k != TV::K::Const) {
    diags_.error(loc(axisExpr), Diag::NotConstant, std::string("the axis (") + kinds + ")");
    return std::nullopt;
  }
  if (!ints) {
    diags_.error(loc(axisExpr), Diag::TileType,
                 std::string("the axis must be ") + kinds + ", found `" + axis.c.repr() + "`");
    return std::nullopt;
  }
  int64_t n = static_cast<int64_t>(nd);
  reduced.assign(nd, false);
  for (const ConstValue& c : axes) {
    int64_t a = c.intValue;
    if (a < -n || a >= n) {
      diags_.error(loc(axisExpr), Diag::TileShape,
                   "axis " + std::to_string(a) + " is out of range for `" + describe(x) + "`");
      return std::nullopt;
    }
    size_t d = static_cast<size_t>(a < 0 ? a + n : a);
    if (reduced[d]) {
      diags_.error(loc(axisExpr), Diag::TileShape, "axis " + std::to_string(a) + " is given twice");
      return std::nullopt;
    }
    reduced[d] = true;
  }
  return reduced;
}

std::optional<std::pair<TV, std::vector<int64_t>>> TileChecker::reduction(ExprId id, const ast::Call& c,
                                                              const std::string& fname, TileFn fn) {
  // cuTile's keyword-only options: sum/prod round (`rounding_mode`, `flush_to_zero`),
  // max/min flush and choose NaN's fate (`propagate_nan`), argmax/argmin the latter.
  bool sums = fn == TileFn::Sum || fn == TileFn::Prod;
  bool extrema = fn == TileFn::Max || fn == TileFn::Min;
  auto args = sums      ? bindArgs(id, c, fname, {"x", "axis", "keepdims", "rounding_mode", "flush_to_zero"}, 1)
              : extrema ? bindArgs(id, c, fname, {"x", "axis", "keepdims", "flush_to_zero", "propagate_nan"}, 1)
                        : bindArgs(id, c, fname, {"x", "axis", "keepdims", "propagate_nan"}, 1);
  if (!args) return std::nullopt;
  TV x = checkExpr((*args)[0]);
  if (!x.ok()) return std::nullopt;
  if (!isTileVal(x)) {
    diags_.error(loc((*args)[0]), Diag::TileType, "`" + fname + "` reduces a tile, found `" + describe(x) + "`");
    return std::nullopt;
  }
  TypeId dtype = elementOf(x.type);
  if (types_.isNoArithmetic(dtype)) {
    tf32Only(id, dtype);
    return std::nullopt;
  }
  if (!reductionOptions(*args, fname, fn, dtype)) return std::nullopt;
  auto reduced = reducedAxes((*args)[1], x, sums || extrema);
  if (!reduced) return std::nullopt;
  bool keepdims = false;
  if ((*args)[2].valid()) {
    auto k = constInt((*args)[2], "`keepdims`");
    if (!k) return std::nullopt;
    keepdims = *k != 0;
  }
  const std::vector<int64_t>& shape = types_.get(x.type).shape;
  std::vector<int64_t> out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (!(*reduced)[i]) {
      out.push_back(shape[i]);
    } else if (keepdims) {
      out.push_back(1);
    }
  }
  return std::make_pair(x, out);
}

bool TileChecker::reductionOptions(const std::vector<ExprId>& args, const std::string& fname, TileFn fn, TypeId dtype) {
  bool sums = fn == TileFn::Sum || fn == TileFn::Prod;
  bool extrema = fn == TileFn::Max || fn == TileFn::Min;
  size_t ftzAt = sums ? 4 : extrema ? 3 : 0;
  size_t nanAt = extrema ? 4 : sums ? 0 : 3;
  if (nanAt && args[nanAt].valid() && !constBool(args[nanAt], "`propagate_nan`")) return false;
  if (ftzAt && args[ftzAt].valid()) {
    auto ftz = constBool(args[ftzAt], "`flush_to_zero`");
    if (!ftz) return false;
    if (*ftz && dtype != types_.float32()) {
      diags_.error(loc(args[ftzAt]), Diag::TileType,
                   "`" + fname + "` flushes to zero on float32 only, found `" + nameOf(dtype) + "`");
      return false;
    }
  }
  if (sums && args[3].valid()) {
    std::optional<TileFn> mode;
    if (!roundingModeArg(args[3], mode)) return false;
    bool ieee = mode && (*mode == TileFn::RoundRz || *mode == TileFn::RoundRm || *mode == TileFn::RoundRp);
    if (mode && *mode != TileFn::RoundRn && !(ieee && (dtype == types_.float32() || dtype == types_.float64()))) {
      diags_.error(loc(args[3]), Diag::TileUnsupported,
                   "`" + fname + "` with `rounding_mode=RoundingMode." + std::string(tileFnName(*mode)) + "` on `" +
                       nameOf(dtype) + "`",
                   ieee ? " (float32 and float64 only)" : " (reductions take RN, RZ, RM or RP)");
      return false;
    }
  }
  return true;
}

TV TileChecker::checkArgReduce(ExprId id, const ast::Call& c, const std::string& fname, TileFn fn) {
  auto r = reduction(id, c, fname, fn);
  if (!r) return TV{};
  return record(id, TV::value(types_.tile(types_.int32(), r->second)));
}

TV TileChecker::tf32Only(ExprId id, TypeId dtype) {
  if (dtype.valid() && types_.isFloat4(dtype)) {
    diags_.error(loc(id), Diag::TileType,
                 "`float4_e2m1fn` tiles are unpacked, packed, converted and `ct.mma_scaled` operands, "
                 "without arithmetic: convert with `.astype(ct.float32)` first");
    return TV{};
  }
  if (dtype.valid() && types_.isFloat8(dtype)) {
    diags_.error(loc(id), Diag::TileType,
                 "`" + types_.dtypeName(dtype) + "` tiles are loaded, stored, converted and `ct.mma` operands, "
                 "without arithmetic: convert with `.astype(ct.float32)` first");
    return TV{};
  }
  diags_.error(loc(id), Diag::TileType,
               "tfloat32 tiles are `ct.mma` operands only: convert with `.astype(ct.float32)` first");
  return TV{};
}

std::optional<std::vector<int64_t>> TileChecker::constInts(ExprId id, const char* what) {
  TV v = checkExpr(id);
  if (!v.ok()) return std::nullopt;
  std::vector<int64_t> out;
  if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Int) return std::vector<int64_t>{v.c.intValue};
  if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Tuple) {
    for (const ConstValue& e : v.c.elements) {
      if (e.kind != ConstValue::Kind::Int) break;
      out.push_back(e.intValue);
    }
    if (out.size() == v.c.elements.size()) return out;
  }
  diags_.error(loc(id), Diag::NotConstant, std::string(what) + " (a tuple of integers)");
  return std::nullopt;
}

TV TileChecker::checkShapeOp(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname, ExprId self) {
  std::string name = self.valid() ? std::string(tileFnName(fn)) : fname;
  std::optional<std::vector<ExprId>> args;
  switch (fn) {
    case TileFn::Reshape:
    case TileFn::BroadcastTo: args = bindArgs(id, c, name, {"x", "shape"}, 2, self); break;
    case TileFn::Permute: args = bindArgs(id, c, name, {"x", "axes"}, 2, self); break;
    case TileFn::Transpose: args = bindArgs(id, c, name, {"x", "axis0", "axis1"}, 1, self); break;
    default: args = bindArgs(id, c, name, {"x", "axis"}, 2, self); break;
  }
  if (!args) return TV{};
  TV x = checkExpr((*args)[0]);
  if (!x.ok()) return TV{};
  // A scalar is a 0-d tile: it can be reshaped, broadcast and given axes.
  bool scalar = x.k == TV::K::Value && types_.isNumber(x.type) &&
                (fn == TileFn::Reshape || fn == TileFn::BroadcastTo || fn == TileFn::ExpandDims);
  if (scalar) x.type = types_.tile(x.type, {});
  if (!isTileVal(x)) {
    diags_.error(loc((*args)[0]), Diag::TileType, "`" + name + "` takes a tile, found `" + describe(x) + "`");
    return TV{};
  }
  TypeId dtype = types_.get(x.type).element;
  std::vector<int64_t> in = types_.get(x.type).shape;
  int64_t n = static_cast<int64_t>(in.size());
  int64_t count = 1;
  for (int64_t d : in) count *= d;
  std::vector<int64_t> out;
  auto fail = [&](ExprId where, const std::string& message) {
    diags_.error(loc(where), Diag::TileShape, message);
    return TV{};
  };
  switch (fn) {
    case TileFn::Reshape: {
      auto shape = constInts((*args)[1], "the shape");
      if (!shape) return TV{};
      int64_t known = 1;
      int64_t infer = -1;
      for (size_t i = 0; i < shape->size(); ++i) {
        int64_t d = (*shape)[i];
        if (d == -1 && infer < 0) {
          infer = static_cast<int64_t>(i);
        } else if (!isPow2(d)) {
          return fail((*args)[1], "tile dimensions must be powers of two (one may be -1), found " + std::to_string(d));
        } else {
          known *= d;
        }
      }
      out = *shape;
      if (infer >= 0 && known <= count) out[static_cast<size_t>(infer)] = count / known;
      int64_t total = 1;
      for (int64_t d : out) total *= d;
      if (total != count) {
        return fail((*args)[1], "cannot reshape `" + describe(x) + "` (" + std::to_string(count) +
                                    " elements) to " + ConstValue(constOfShape(*shape)).repr());
      }
      break;
    }
    case TileFn::Permute: {
      auto axes = constInts((*args)[1], "the axes");
      if (!axes) return TV{};
      std::vector<bool> seen(in.size(), false);
      bool ok = static_cast<int64_t>(axes->size()) == n;
      for (int64_t a : *axes) {
        if (!ok) break;
        if (a < 0) a += n;
        ok = a >= 0 && a < n && !seen[static_cast<size_t>(a)];
        if (ok) {
          seen[static_cast<size_t>(a)] = true;
          out.push_back(in[static_cast<size_t>(a)]);
        }
      }
      if (!ok) return fail((*args)[1], "the axes must be a permutation of the " + std::to_string(n) + " axes of `" + describe(x) + "`");
      break;
    }
    case TileFn::Transpose: {
      int64_t a0 = 0;
      int64_t a1 = 1;
      if ((*args)[1].valid() != (*args)[2].valid() || (!(*args)[1].valid() && n != 2)) {
        return fail(id, "`" + name + "` of a " + std::to_string(n) +
                            "-d tile needs both `axis0` and `axis1` (only 2-d tiles default to swapping their axes)");
      }
      if ((*args)[1].valid()) {
        auto x0 = constInt((*args)[1], "`axis0`");
        auto x1 = constInt((*args)[2], "`axis1`");
        if (!x0 || !x1) return TV{};
        a0 = *x0 < 0 ? *x0 + n : *x0;
        a1 = *x1 < 0 ? *x1 + n : *x1;
        if (a0 < 0 || a0 >= n || a1 < 0 || a1 >= n) return fail(id, "the axes are out of range for `" + describe(x) + "`");
      }
      out = in;
      std::swap(out[static_cast<size_t>(a0)], out[static_cast<size_t>(a1)]);
      break;
    }
    case TileFn::BroadcastTo: {
      auto shape = constShape((*args)[1]);
      if (!shape) return TV{};
      out = *shape;
      bool ok = out.size() >= in.size();
      for (size_t i = 0; ok && i < in.size(); ++i) {
        int64_t have = in[in.size() - 1 - i];
        ok = have == 1 || have == out[out.size() - 1 - i];
      }
      if (!ok) return fail((*args)[1], "cannot broadcast `" + describe(x) + "` to " + ConstValue(constOfShape(out)).repr());
      break;
    }
    default: {
      auto axis = constInt((*args)[1], "the axis");
      if (!axis) return TV{};
      int64_t a = *axis < 0 ? *axis + n + 1 : *axis;
      if (a < 0 || a > n) return fail((*args)[1], "axis " + std::to_string(*axis) + " is out of range for `" + describe(x) + "`");
      out = in;
      out.insert(out.begin() + a, 1);
      break;
    }
  }
  return record(id, TV::value(types_.tile(dtype, out)));
}

// ct.extract / ct.insert: `sub` divides x's shape, and each constant item of `index` is
// inside the grid of sub-tiles (`shapeAt` is where the shape is written).
bool TileChecker::subTileGridOk(ExprId index, ExprId shapeAt, const char* shapeNoun, const TV& x,
                                const std::vector<int64_t>& sub) {
  const std::vector<int64_t>& in = types_.get(x.type).shape;
  std::vector<ExprId> items;
  if (const auto* t = ast_.expr(index).dyn<ast::Tuple>()) {
    for (ExprId e : ast_.list(t->elts)) items.push_back(e);
  } else {
    items.push_back(index);
  }
  for (size_t d = 0; d < in.size(); ++d) {
    if (sub[d] <= 0 || in[d] % sub[d] != 0) {
      diags_.error(loc(shapeAt), Diag::TileShape,
                   std::string("the ") + shapeNoun + " " + ConstValue(constOfShape(sub)).repr() + " does not divide `" +
                       describe(x) + "` along axis " + std::to_string(d));
      return false;
    }
    TV item = checkExpr(items[d]);
    if (item.k == TV::K::Const && item.c.kind == ConstValue::Kind::Int &&
        (item.c.intValue < 0 || item.c.intValue >= in[d] / sub[d])) {
      diags_.error(loc(items[d]), Diag::TileShape,
                   "sub-tile index " + std::to_string(item.c.intValue) + " is out of range along axis " +
                       std::to_string(d) + ": `" + describe(x) + "` holds " + std::to_string(in[d] / sub[d]) +
                       " sub-tiles of " + std::to_string(sub[d]) + " there");
      return false;
    }
  }
  return true;
}

TV TileChecker::checkExtract(ExprId id, const ast::Call& c, const std::string& fname, ExprId self) {
  auto args = bindArgs(id, c, self.valid() ? "extract" : fname, {"x", "index", "shape"}, 3, self);
  if (!args) return TV{};
  TV x = checkExpr((*args)[0]);
  if (!x.ok()) return TV{};
  if (!isTileVal(x)) {
    diags_.error(loc((*args)[0]), Diag::TileType, "`" + fname + "` takes a tile, found `" + describe(x) + "`");
    return TV{};
  }
  const std::vector<int64_t> in = types_.get(x.type).shape;
  TypeId dtype = types_.get(x.type).element;
  bool ok = tileIndex((*args)[1], static_cast<unsigned>(in.size()));
  auto shape = constShape((*args)[2]);
  if (!ok || !shape) return TV{};
  // shape=(): the one element at `index`, a scalar (cuTile's 0-d tile).
  std::vector<int64_t> sub = shape->empty() ? std::vector<int64_t>(in.size(), 1) : *shape;
  if (sub.size() != in.size()) {
    diags_.error(loc((*args)[2]), Diag::TileShape,
                 "the sub-tile shape has " + std::to_string(sub.size()) + " dimension(s), but `" + describe(x) +
                     "` has " + std::to_string(in.size()));
    return TV{};
  }
  if (!subTileGridOk((*args)[1], (*args)[2], "sub-tile shape", x, sub)) return TV{};
  if (shape->empty()) {
    inst_.opTypes[id.index] = dtype;
    return record(id, TV::value(dtype));
  }
  return record(id, TV::value(types_.tile(dtype, sub)));
}

// `ct.insert(x, index, y)` / `x.insert(index, y)`: x with the sub-tile at `index` (counted
// in sub-tiles of y's shape, as ct.extract counts) replaced by y, a tile of x's dtype whose
// shape divides x's, or a number (one element).
TV TileChecker::checkInsert(ExprId id, const ast::Call& c, const std::string& fname, ExprId self) {
  auto args = bindArgs(id, c, self.valid() ? "insert" : fname, {"x", "index", "y"}, 3, self);
  if (!args) return TV{};
  TV x = checkExpr((*args)[0]);
  TV y = checkExpr((*args)[2]);
  if (!x.ok() || !y.ok()) return TV{};
  if (!isTileVal(x)) {
    diags_.error(loc((*args)[0]), Diag::TileType, "`" + fname + "` inserts into a tile, found `" + describe(x) + "`");
    return TV{};
  }
  const std::vector<int64_t> in = types_.get(x.type).shape;
  TypeId dtype = types_.get(x.type).element;
  std::vector<int64_t> sub(in.size(), 1);
  if (isTileVal(y)) {
    sub = types_.get(y.type).shape;
    if (types_.get(y.type).element != dtype) {
      diags_.error(loc((*args)[2]), Diag::TileType,
                   "`" + fname + "` inserts a tile of `" + describe(x) + "`'s dtype, found `" + describe(y) +
                       "`: convert it with `astype`");
      return TV{};
    }
  } else if (!(y.k == TV::K::Const && y.c.isNumber()) && !(y.k == TV::K::Value && types_.isNumber(y.type))) {
    diags_.error(loc((*args)[2]), Diag::TileType, "`" + fname + "` inserts a tile or a number, found `" + describe(y) + "`");
    return TV{};
  }
  if (sub.size() != in.size()) {
    diags_.error(loc((*args)[2]), Diag::TileShape,
                 "the inserted tile has " + std::to_string(sub.size()) + " dimension(s), but `" + describe(x) + "` has " +
                     std::to_string(in.size()));
    return TV{};
  }
  if (!tileIndex((*args)[1], static_cast<unsigned>(in.size()))) return TV{};
  if (!subTileGridOk((*args)[1], (*args)[2], "inserted shape", x, sub)) return TV{};
  inst_.opTypes[id.index] = isTileVal(y) ? y.type : dtype;
  return record(id, TV::value(x.type));
}

// `ct.pack_to_bytes(x)`: x's bytes, row-major, as a 1-D uint8 tile; `ct.unpack_from_bytes(b,
// dtype)`: a 1-D uint8 tile's bytes as a 1-D tile of dtype. opTypes holds x as a tile.
TV TileChecker::checkBytes(ExprId id, const ast::Call& c, const std::string& fname, bool pack) {
  auto args = pack ? bindArgs(id, c, fname, {"x"}, 1) : bindArgs(id, c, fname, {"x", "dtype"}, 2);
  if (!args) return TV{};
  TV x = checkExpr((*args)[0]);
  if (!x.ok()) return TV{};
  bool value = x.k == TV::K::Value && (isTileVal(x) || types_.isNumber(x.type));
  if (!value) {
    diags_.error(loc((*args)[0]), Diag::TileType,
                 "`" + fname + "` takes a tile or a run-time scalar, found `" + describe(x) + "`");
    return TV{};
  }
  TypeId from = isTileVal(x) ? types_.get(x.type).element : x.type;
  std::vector<int64_t> shape = isTileVal(x) ? types_.get(x.type).shape : std::vector<int64_t>{};
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  TypeId to = types_.intType(8, false);
  if (!pack) {
    auto dtype = dtypeArg((*args)[1]);
    if (!dtype) return TV{};
    to = *dtype;
    if (from != types_.intType(8, false) || shape.size() != 1) {
      diags_.error(loc((*args)[0]), Diag::TileType,
                   "`" + fname + "` takes a 1-D tile of uint8 (what `ct.pack_to_bytes` gives), found `" +
                       describe(x) + "`");
      return TV{};
    }
  }
  TypeId odd = pack ? from : to;
  if (types_.isBool(odd) || types_.isTFloat32(odd)) {
    diags_.error(loc(pack ? (*args)[0] : (*args)[1]), Diag::TileType,
                 "`" + fname + "` takes numeric dtypes (no bools), found `" + nameOf(odd) + "`");
    return TV{};
  }
  // float4_e2m1fn packs two per byte, the first in the low nibble.
  int64_t bits = count * types_.dataBits(from);
  int64_t outBits = types_.dataBits(to);
  if (bits % 8 != 0) {
    diags_.error(loc(id), Diag::TileShape,
                 "`" + fname + "` of an odd number (" + std::to_string(count) + ") of `" + nameOf(from) +
                     "` elements: they pack two per byte");
    return TV{};
  }
  if (bits % outBits != 0 || bits < outBits) {
    diags_.error(loc(id), Diag::TileShape,
                 "`" + fname + "`: " + std::to_string(bits / 8) + " bytes do not make whole `" + nameOf(to) +
                     "` elements (" + std::to_string(outBits / 8) + " bytes each)");
    return TV{};
  }
  if (shape.empty()) shape = {1};
  inst_.opTypes[id.index] = types_.tile(from, shape);
  return record(id, TV::value(types_.tile(to, {bits / outBits})));
}

TV TileChecker::checkCat(ExprId id, const ast::Call& c, const std::string& fname) {
  auto args = bindArgs(id, c, fname, {"tiles", "axis"}, 2);
  if (!args) return TV{};
  const auto* pair = ast_.expr((*args)[0]).dyn<ast::Tuple>();
  std::vector<ExprId> items;
  if (pair != nullptr) {
    for (ExprId e : ast_.list(pair->elts)) items.push_back(e);
  }
  // A pair of tiles, or one (`ct.cat((x,), axis)` is x itself: cuTile's test_cat).
  if (items.size() != 1 && items.size() != 2) {
    diags_.error(loc((*args)[0]), Diag::TileType,
                 "`" + fname + "` joins a pair of tiles written as a tuple, `(x, y)`" +
                     (pair != nullptr ? ", found " + std::to_string(items.size()) + " element(s)" : std::string()));
    return TV{};
  }
  std::vector<TV> tiles;
  for (ExprId e : items) tiles.push_back(checkExpr(e));
  for (const TV& v : tiles) {
    if (!v.ok()) return TV{};
  }
  for (size_t k = 0; k < tiles.size(); ++k) {
    if (!isTileVal(tiles[k])) {
      diags_.error(loc(items[k]), Diag::TileType, "`" + fname + "` takes tiles, found `" + describe(tiles[k]) + "`");
      return TV{};
    }
  }
  const TV& x = tiles[0];
  if (tiles.size() == 2 && x.type != tiles[1].type) {
    // Powers of two all: the result is one only when both halves have one shape.
    diags_.error(loc((*args)[0]), Diag::TileShape,
                 "`" + fname + "` joins two tiles of the same shape and dtype, found `" + describe(x) + "` and `" +
                     describe(tiles[1]) + "`");
    return TV{};
  }
  auto axis = tileAxis((*args)[1], x);
  if (!axis) return TV{};
  if (tiles.size() == 1) return record(id, TV::value(x.type));
  std::vector<int64_t> out = types_.get(x.type).shape;
  out[static_cast<size_t>(*axis)] *= 2;
  return record(id, TV::value(types_.tile(types_.get(x.type).element, out)));
}

std::optional<int64_t> TileChecker::tileAxis(ExprId axisExpr, const TV& x) {
  auto axis = constInt(axisExpr, "the axis");
  if (!axis) return std::nullopt;
  int64_t n = static_cast<int64_t>(types_.get(x.type).shape.size());
  if (*axis < -n || *axis >= n) {
    diags_.error(loc(axisExpr), Diag::TileShape,
                 "axis " + std::to_string(*axis) + " is out of range for `" + describe(x) + "`");
    return std::nullopt;
  }
  return *axis < 0 ? *axis + n : *axis;
}

ConstValue TileChecker::constOfShape(const std::vector<int64_t>& shape) {
  ConstValue v;
  v.kind = ConstValue::Kind::Tuple;
  for (int64_t d : shape) v.elements.push_back(ConstValue::ofInt(d));
  return v;
}

std::optional<ConstValue> TileChecker::hostConstant(ExprId e) {
  auto local = [&](const std::string& name) {
    ConstEvalLocal l;
    if (auto c = consts_.find(name); c != consts_.end()) {
      l.kind = ConstEvalLocal::Kind::Constant;
      l.value = c->second;
    } else if (vars_.count(name) || entities_.count(name) || failed_.count(name) || assigned_.count(name)) {
      l.kind = ConstEvalLocal::Kind::Runtime;
    }
    return l;
  };
  return evalHostConstant(ast_, module_, fn_.scope, local, e);
}

std::optional<std::string> TileChecker::hostFString(ExprId e) {
  const auto* j = ast_.expr(e).dyn<ast::JoinedStr>();
  if (j == nullptr) return std::nullopt;
  std::string out;
  for (ExprId piece : ast_.list(j->values)) {
    if (const auto* f = ast_.expr(piece).dyn<ast::FormattedValue>()) {
      if (f->formatSpec.valid()) return std::nullopt;
      auto v = hostConstant(f->value);
      if (!v) return std::nullopt;
      out += v->kind == ConstValue::Kind::Str && f->conversion != 'r' ? v->strValue : v->repr();
    } else if (ast_.expr(piece).kind() == ExprKind::Constant && ast_.constantOf(piece).kind == ConstantKind::Str) {
      out += ast_.constantOf(piece).text;
    } else {
      return std::nullopt;
    }
  }
  return out;
}

bool TileChecker::checkHostEffect(ExprId value) {
  const auto* c = ast_.expr(value).dyn<ast::Call>();
  if (c == nullptr || ast_.list(c->args).size() != 1 || !c->keywords.empty()) return false;
  const auto* inner = ast_.expr(ast_.list(c->args)[0]).dyn<ast::Call>();
  const auto* method = inner ? ast_.expr(inner->func).dyn<ast::Attribute>() : nullptr;
  const auto* target = method ? ast_.expr(method->value).dyn<ast::Name>() : nullptr;
  if (target == nullptr) return false;
  static const std::set<std::string_view> kMutators = {"append", "extend", "insert", "add", "update"};
  if (!kMutators.count(ast_.str(method->attr))) return false;
  const std::string name(ast_.str(target->id));
  if (consts_.count(name) || vars_.count(name) || entities_.count(name) || failed_.count(name) ||
      assigned_.count(name) || dicts_.count(name)) {
    return false;
  }
  const Entity* e = module_.lookup(name, fn_.scope);
  bool host = e != nullptr && (e->kind == Intrinsic::EnclosingLocal || (e->kind == Intrinsic::HostValue && e->payload == 0));
  if (!host) return false;
  // Only `ct.static_eval(...)` itself, as a statement: what it gives is not used.
  TV callee = checkExpr(c->func);
  if (!callee.ok() || callee.k != TV::K::Entity || callee.ent != Intrinsic::TileOp ||
      static_cast<TileFn>(callee.payload) != TileFn::StaticEval) {
    return false;
  }
  // cuTile runs the host code when it compiles (`type_string.append(repr(x))` records what
  // the kernel was compiled for); the kernel does not depend on it. pykc runs no host code.
  std::string where = e->kind == Intrinsic::EnclosingLocal ? "a local of `" + module_.scopes[e->payload - 1].function + "`"
                                                             : "a module variable";
  diags_.warning(loc(value), Diag::UnsupportedFeature,
                 "`" + name + "." + std::string(ast_.str(method->attr)) + "(...)` inside `ct.static_eval` changes `" +
                     name + "`, " + where + ", when cuTile compiles the kernel: pykc runs no host code, so `" + name +
                     "` stays as it is (the kernel does not depend on it)");
  record(value, TV::constant(ConstValue{}));
  return true;
}

TV TileChecker::checkStatic(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname) {
  if (fn == TileFn::StaticEval) {
    auto args = bindArgs(id, c, fname, {"expr"}, 1);
    if (!args) return TV{};
    // As the host evaluates it (`sum(t)`, a module function's result), else typed.
    if (auto host = hostConstant((*args)[0])) return record(id, TV::constant(*host));
    TV v = checkExpr((*args)[0]);
    if (!v.ok()) return TV{};
    // A run-time value passes through (cuTile's `ct.static_eval(tup[1])`, `a if N else b`)
    // when the expression computes nothing on the device: no tile function or helper runs.
    if (v.k == TV::K::Value) {
      const NodeRange& r = ast_.expr((*args)[0]).range;
      auto inside = [&](const NodeRange& x) {
        auto before = [](uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) {
          return l1 < l2 || (l1 == l2 && c1 <= c2);
        };
        return before(r.lineno, r.colOffset, x.lineno, x.colOffset) &&
               before(x.endLineno, x.endColOffset, r.endLineno, r.endColOffset);
      };
      for (uint32_t i = 0; i < inst_.meanings.size(); ++i) {
        const Expr& e = ast_.expr(ExprId{i});
        const auto* call = e.dyn<ast::Call>();
        // Operators as functions (`ct.add`, `operator.add`, `ct.maximum`) compute nothing
        // a compile-time evaluation could not: cuTile allows them (pure expressions).
        bool pure = call != nullptr && inst_.meanings[i].kind == Intrinsic::TileOp &&
                    isPureTileFn(static_cast<TileFn>(inst_.meanings[i].payload));
        bool runs = call != nullptr && !pure && (inst_.meanings[i].kind == Intrinsic::TileOp ||
                                                 (i < inst_.callees.size() && inst_.callees[i] >= 0));
        if (!runs || !inside(e.range)) continue;
        std::string callee = "a function";
        if (const auto* a = ast_.expr(call->func).dyn<ast::Attribute>()) callee = std::string(ast_.str(a->attr));
        if (const auto* n = ast_.expr(call->func).dyn<ast::Name>()) callee = std::string(ast_.str(n->id));
        diags_.error(loc(ExprId{i}), Diag::TileType,
                     "`" + callee + "()` cannot run inside `" + fname +
                         "`: its argument is evaluated at compile time, where nothing runs on the device");
        return TV{};
      }
    }
    return record(id, v);
  }
  auto args = bindArgs(id, c, fname, {"condition", "message"}, 1);
  if (!args) return TV{};
  auto host = hostConstant((*args)[0]);
  TV v = host ? TV::constant(*host) : checkExpr((*args)[0]);
  if (!v.ok()) return TV{};
  if (v.k != TV::K::Const || !v.c.isNumber()) {
    diags_.error(loc((*args)[0]), Diag::NotConstant,
                 "the condition of `" + fname + "` (here `" + describe(v) + "`)");
    return TV{};
  }
  std::string message;
  if (ExprId m = (*args)[1]; m.valid() && !truthOf(v.c)) {
    // The message matters only when the assertion fails: a string (an f-string shows
    // its text as written).
    if (ast_.expr(m).kind() == ExprKind::Constant && ast_.constantOf(m).kind == ConstantKind::Str) {
      if (!ast_.constantOf(m).text.empty()) message = ": " + ast_.constantOf(m).text;
    } else if (auto text = hostFString(m)) {
      message = ": " + *text;
    } else if (ast_.expr(m).kind() == ExprKind::JoinedStr) {
      const NodeRange& r = ast_.expr(m).range;
      if (const SourceFile* src = ast_.source(); src != nullptr && r.endLineno <= src->lineCount()) {
        uint32_t from = src->lineStart(r.lineno) + r.colOffset, to = src->lineStart(r.endLineno) + r.endColOffset;
        message = ": " + std::string(src->text().substr(from, to - from));
      }
    } else {
      diags_.error(loc(m), Diag::TileType, "the message of `" + fname + "` must be a string");
      return TV{};
    }
  }
  if (!truthOf(v.c)) {
    diags_.error(loc(id), Diag::StaticAssertFailed, message);
    return TV{};
  }
  return record(id, TV::constant(ConstValue{}));
}

}  // namespace frontend::tile
