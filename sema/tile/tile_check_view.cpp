// cuTile's TiledView: `array.tiled_view(tile_shape, padding_mode=, traversal_steps=)`, its
// attributes and its load/store/num_tiles/atomic_store_* methods (cuTile's
// _ir/ops.py: array_tiled_view_impl, tiled_view_load_impl, tiled_view_store_impl).
// A view is its array's value typed with ArrayFacts::view (sema/types.h).
#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

namespace {

ConstValue tupleOf(const std::vector<int64_t>& v) {
  ConstValue t;
  t.kind = ConstValue::Kind::Tuple;
  for (int64_t x : v) t.elements.push_back(ConstValue::ofInt(x));
  return t;
}

// The shape a view's tiles are read and written in: its tile shape, ones for a 0-d tile.
std::vector<int64_t> broadcastShape(const Type& view) {
  return view.facts.viewTile.empty() ? std::vector<int64_t>(view.ndim, 1) : view.facts.viewTile;
}

}  // namespace

TV TileChecker::checkTiledView(ExprId id, const ast::Call& c, ExprId self) {
  auto args = bindArgs(id, c, "tiled_view", {"self", "tile_shape", "padding_mode", "traversal_steps"}, 2, self);
  if (!args) return TV{};
  auto array = arrayArg((*args)[0]);
  if (!array) return TV{};
  const Type at = types_.get(*array);  // a copy: checking the arguments may add types
  const auto ndim = static_cast<int64_t>(at.ndim);
  auto tile = constShape((*args)[1]);
  if (!tile) return TV{};
  if (!tile->empty() && static_cast<int64_t>(tile->size()) != ndim) {
    diags_.error(loc((*args)[1]), Diag::TileShape,
                 "expected shape length to be " + std::to_string(ndim) + ", got " + std::to_string(tile->size()) +
                     " (the tile shape of a view of a " + std::to_string(ndim) + "-d array)");
    return TV{};
  }
  ArrayFacts facts = at.facts;
  facts.view = true;
  facts.viewTile = *tile;
  facts.viewPadding = 0;  // UNDETERMINED
  if (ExprId p = (*args)[2]; p.valid()) {
    if (!paddingArg(p)) return TV{};
    facts.viewPadding = inst_.meanings[p.index].payload - static_cast<uint32_t>(TileFn::PadUndetermined);
  }
  std::vector<int64_t> tileBroadcast = tile->empty() ? std::vector<int64_t>(static_cast<size_t>(ndim), 1) : *tile;
  facts.viewSteps = tileBroadcast;
  ExprId s = (*args)[3];
  TV v = s.valid() ? checkExpr(s) : TV::constant(ConstValue{});
  if (!v.ok()) return TV{};
  if (!(v.k == TV::K::Const && v.c.kind == ConstValue::Kind::None)) {
    // Any positive integers (no power of two needed), one per axis; one number for a 1-d array.
    std::vector<int64_t> steps;
    bool ints = v.k == TV::K::Const && (v.c.kind == ConstValue::Kind::Int || v.c.kind == ConstValue::Kind::Tuple);
    if (ints && v.c.kind == ConstValue::Kind::Int) steps.push_back(v.c.intValue);
    if (ints && v.c.kind == ConstValue::Kind::Tuple) {
      for (const ConstValue& e : v.c.elements) {
        ints = ints && e.kind == ConstValue::Kind::Int;
        steps.push_back(e.intValue);
      }
    }
    if (!ints) {
      diags_.error(loc(s), Diag::NotConstant, "`traversal_steps` (an integer or a tuple of integers)");
      return TV{};
    }
    if (static_cast<int64_t>(steps.size()) != ndim) {
      diags_.error(loc(s), Diag::TileShape,
                   "expected traversal_steps length to be " + std::to_string(ndim) + ", got " +
                       std::to_string(steps.size()));
      return TV{};
    }
    for (size_t d = 0; d < steps.size(); ++d) {
      if (steps[d] <= 0) {
        diags_.error(loc(s), Diag::TileShape,
                     "element " + std::to_string(d) + " of traversal_steps (" + std::to_string(steps[d]) +
                         ") is not positive");
        return TV{};
      }
    }
    facts.viewSteps = std::move(steps);
  }
  return record(id, TV::value(types_.array(at.element, at.ndim, at.layout, facts)));
}

TV TileChecker::viewAttribute(ExprId id, const std::string& attr, const TV& base, ExprId self) {
  const Type& t = types_.get(base.type);
  if (attr == "tile_shape") return record(id, TV::constant(tupleOf(t.facts.viewTile)));
  if (attr == "traversal_steps") return record(id, TV::constant(tupleOf(t.facts.viewSteps)));
  std::optional<TileFn> fn;
  if (attr == "load") fn = TileFn::ViewLoad;
  if (attr == "store") fn = TileFn::ViewStore;
  if (attr == "num_tiles") fn = TileFn::ViewNumTiles;
  static constexpr std::string_view kPrefix = "atomic_store_";
  if (attr.starts_with(kPrefix)) {
    auto op = tileFnByName("atomic_" + attr.substr(kPrefix.size()));
    if (op && isTileAtomic(*op) && *op != TileFn::AtomicXchg && *op != TileFn::AtomicCas) fn = op;
  }
  if (!fn) {
    diags_.error(loc(id), Diag::UnknownAttribute, describe(base), attr);
    return TV{};
  }
  TV v;
  v.k = TV::K::Entity;
  v.ent = Intrinsic::TileOp;
  v.payload = static_cast<uint32_t>(*fn);
  v.path = attr;
  v.self = self;
  return record(id, v);
}

TV TileChecker::checkViewCall(ExprId id, const ast::Call& c, TileFn fn, ExprId self) {
  TV view = checkExpr(self);
  if (!view.ok()) return TV{};
  const Type vt = types_.get(view.type);
  if (fn == TileFn::ViewNumTiles) {
    auto args = bindArgs(id, c, "num_tiles", {"self", "axis"}, 2, self);
    if (!args) return TV{};
    auto axis = constInt((*args)[1], "the axis of `num_tiles`");
    if (!axis) return TV{};
    if (*axis < -int64_t(vt.ndim) || *axis >= int64_t(vt.ndim)) {
      diags_.error(loc((*args)[1]), Diag::IndexOutOfRange,
                   "axis " + std::to_string(*axis) + " of a view of a " + std::to_string(vt.ndim) + "-d array");
      return TV{};
    }
    // The tiles' origins are traversal_steps apart: ceil(extent / step) of them.
    auto d = static_cast<size_t>(*axis < 0 ? *axis + vt.ndim : *axis);
    if (int64_t n = vt.facts.shapeConst(d); n != ArrayFacts::kUnknown) {
      int64_t step = vt.facts.viewSteps[d];
      return record(id, TV::constant(ConstValue::ofInt((n + step - 1) / step)));
    }
    return record(id, TV::value(types_.int32()));
  }
  bool load = fn == TileFn::ViewLoad;
  const size_t positional = load ? 1 : 2;
  auto given = ast_.list(c.args);
  if (given.size() > positional) {
    diags_.error(loc(given[positional]), Diag::InvalidCall,
                 std::string("`") + (load ? "load" : "store") + "` of a tiled view takes " +
                     std::to_string(positional) + " positional argument" + (load ? "" : "s") +
                     " (`check_bounds`, `latency` and `allow_tma` are keyword-only)");
    return TV{};
  }
  auto args = load ? bindArgs(id, c, "load", {"self", "index", "check_bounds", "latency", "allow_tma"}, 2, self)
                   : bindArgs(id, c, "store", {"self", "index", "tile", "check_bounds", "latency", "allow_tma"}, 3, self);
  if (!args) return TV{};
  size_t k = load ? 2 : 3;
  ExprId checkBounds = (*args)[k], latency = (*args)[k + 1], allowTma = (*args)[k + 2];
  // ct.load's slots (array, index, shape, order, padding_mode, latency, allow_tma,
  // check_bounds) and ct.store's (array, index, tile, order, latency, allow_tma,
  // check_bounds): the lowering reads the view's shape, steps and padding from its type.
  inst_.callArguments[id.index] = load ? std::vector<ExprId>{self, (*args)[1], {}, {}, {}, latency, allowTma, checkBounds}
                                       : std::vector<ExprId>{self, (*args)[1], (*args)[2], {}, latency, allowTma,
                                                             checkBounds};
  if (!tileIndex((*args)[1], vt.ndim)) return TV{};
  // check_bounds=False promises the tile is inside the array: pykc checks anyway.
  if (checkBounds.valid() && !constBool(checkBounds, "`check_bounds`")) return TV{};
  // latency= and allow_tma= are scheduling hints: checked, then ignored.
  for (ExprId h : {latency, allowTma}) {
    if (h.valid() && !isNoneConst(h) && !constInt(h, load ? "a load hint" : "a store hint")) return TV{};
  }
  const std::vector<int64_t>& tile = vt.facts.viewTile;
  if (load) {
    // A 0-d tile is a scalar (cuTile reshapes the (1, ..., 1) tile it loads to ()).
    TypeId result = tile.empty() ? vt.element : types_.tile(vt.element, tile);
    inst_.opTypes[id.index] = result;
    return record(id, TV::value(result));
  }
  TV value = checkExpr((*args)[2]);
  if (!value.ok()) return TV{};
  bool number = (value.k == TV::K::Const && value.c.isNumber()) ||
                (value.k == TV::K::Value && (types_.isTile(value.type) || types_.isNumber(value.type)));
  if (!number) {
    diags_.error(loc((*args)[2]), Diag::TileType, "expected a tile or a number, found `" + describe(value) + "`");
    return TV{};
  }
  if (!broadcastsTo(value, tile)) {
    diags_.error(loc((*args)[2]), Diag::TileShape,
                 "tile shape " + shapeText(shapeOf(value)) + " is not broadcastable to the tiled view's tile shape " +
                     shapeText(tile));
    return TV{};
  }
  if (!implicitlyCasts(value, vt.element)) {
    diags_.error(loc((*args)[2]), Diag::TileType,
                 "the stored tile (`" + describe(value) + "`) is incompatible with the tiled view's dtype `" +
                     types_.dtypeName(vt.element) + "`");
    return TV{};
  }
  // Stored as a tile of the view's (broadcast) tile shape and dtype.
  inst_.opTypes[id.index] = types_.tile(vt.element, broadcastShape(vt));
  effects_ = true;
  return TV::value(types_.none());
}

TV TileChecker::checkViewAtomic(ExprId id, const ast::Call& c, TileFn fn, ExprId self) {
  std::string fname = "atomic_store_" + std::string(tileFnName(fn)).substr(7);
  for (KeywordId kid : ast_.list(c.keywords)) {
    diags_.error(loc(ast_.keyword(kid).range), Diag::InvalidCall,
                 "`" + fname + "` takes its index and update positionally (`tv." + fname + "(index, update)`)");
    return TV{};
  }
  auto args = bindArgs(id, c, fname, {"self", "index", "update"}, 3, self);
  if (!args) return TV{};
  TV view = checkExpr(self);
  if (!view.ok()) return TV{};
  const Type vt = types_.get(view.type);
  TypeId e = vt.element;
  const Type& et = types_.get(e);
  // cuTile's dtypes (tiled_view_atomic_store_rmw_impl): 32- and 64-bit integers, and for
  // add the floats (bfloat16 needs sm_90's atomic, which pykc does not emit yet).
  bool int3264 = et.kind == TypeKind::Int && (et.bits == 32 || et.bits == 64);
  bool allowed = int3264 || (fn == TileFn::AtomicAdd && (e == types_.float32() || e == types_.float64() ||
                                                          e == types_.floatType(16)));
  if (!allowed) {
    diags_.error(loc(id), Diag::TileType,
                 "unsupported tiled view dtype `" + nameOf(e) + "` for `" + fname + "` (it takes int32, int64, " +
                     "uint32 and uint64" + (fn == TileFn::AtomicAdd ? ", float16, float32 and float64)" : ")"));
    return TV{};
  }
  if (!tileIndex((*args)[1], vt.ndim)) return TV{};
  TV update = checkExpr((*args)[2]);
  if (!update.ok()) return TV{};
  if (!broadcastsTo(update, vt.facts.viewTile)) {
    diags_.error(loc((*args)[2]), Diag::TileShape,
                 "update shape " + shapeText(shapeOf(update)) +
                     " is not broadcastable to the tiled view's tile shape " + shapeText(vt.facts.viewTile));
    return TV{};
  }
  if (!valueOperand((*args)[2], fname, "the update", vt.facts.viewTile, e)) return TV{};
  bool bitwise = fn == TileFn::AtomicAnd || fn == TileFn::AtomicOr || fn == TileFn::AtomicXor;
  if (bitwise && update.k == TV::K::Value && elementOf(update.type) != e) {
    diags_.error(loc((*args)[2]), Diag::TileType,
                 "`" + fname + "` needs an update dtype to exactly match the target dtype `" + nameOf(e) +
                     "`, found `" + describe(update) + "` (use `.astype`)");
    return TV{};
  }
  inst_.opTypes[id.index] = types_.tile(e, broadcastShape(vt));
  effects_ = true;
  return TV::value(types_.none());
}

}  // namespace frontend::tile
