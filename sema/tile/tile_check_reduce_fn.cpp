// `ct.reduce(x, axis, func, identity, *, keepdims=False)`: a reduction whose combining
// step is the kernel's own function (a closure, a lambda, a helper) or an operator
// (cuTile's reduce_impl; docs/TILE.md, "Closures").
#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

TV TileChecker::checkCustomReduce(ExprId id, const ast::Call& c, const std::string& fname) {
  auto args = bindArgs(id, c, fname, {"x", "axis", "func", "identity", "keepdims"}, 4);
  if (!args) return TV{};
  ExprId xe = (*args)[0], axisExpr = (*args)[1], fe = (*args)[2], ie = (*args)[3], ke = (*args)[4];
  TV x = checkExpr(xe);
  if (!x.ok()) return TV{};
  bool tupleMode = isTupleTV(x);
  std::vector<TV> inputs = tupleMode ? tupleItems(x, xe) : std::vector<TV>{x};
  if (inputs.empty()) {
    diags_.error(loc(xe), Diag::TileType, "`" + fname + "` needs at least one input tile");
    return TV{};
  }
  for (const TV& v : inputs) {
    if (!isTileVal(v) || types_.get(v.type).shape.empty()) {
      diags_.error(loc(xe), Diag::TileType,
                   "`" + fname + "` reduces a tile or a tuple of tiles, found `" + describe(tupleMode ? v : x) + "`");
      return TV{};
    }
  }
  auto shape = broadcastOf(inputs, xe);
  if (!shape) return TV{};
  auto axis = constInt(axisExpr, "the axis");
  if (!axis) return TV{};
  auto ndim = static_cast<int64_t>(shape->size());
  if (*axis < -ndim || *axis >= ndim) {
    diags_.error(loc(axisExpr), Diag::TileShape,
                 "axis " + std::to_string(*axis) + " is out of range for a tile of shape " + shapeText(*shape));
    return TV{};
  }
  size_t a = static_cast<size_t>(*axis < 0 ? *axis + ndim : *axis);
  bool keepdims = false;
  if (ke.valid()) {
    auto k = constBool(ke, "keepdims");
    if (!k) return TV{};
    keepdims = *k;
  }
  // The identities: one constant number per input (cuTile: require_constant_scalar).
  TV iv = checkExpr(ie);
  if (!iv.ok()) return TV{};
  std::vector<ConstValue> identities;
  if (tupleMode && iv.k == TV::K::Const && iv.c.kind == ConstValue::Kind::Tuple) identities = iv.c.elements;
  if (!tupleMode && iv.k == TV::K::Const) identities = {iv.c};
  bool numbers = identities.size() == inputs.size();
  for (const ConstValue& v : identities) numbers = numbers && v.isNumber();
  if (!numbers) {
    diags_.error(loc(ie), Diag::TileType,
                 "the identity of `" + fname + "` must be " +
                     (tupleMode ? "a tuple of " + std::to_string(inputs.size()) + " constant numbers"
                                : std::string("a constant number")) +
                     ", found `" + describe(iv) + "`");
    return TV{};
  }
  // The combining function, typed for a 0-d value of each input and then another.
  TV f = checkExpr(fe);
  if (!f.ok()) return TV{};
  std::vector<TypeId> dtypes;
  for (const TV& v : inputs) dtypes.push_back(types_.get(v.type).element);
  size_t n = inputs.size();
  TV result;
  std::optional<TileFn> builtin;
  if (f.k == TV::K::Entity && f.ent == Intrinsic::TileOp) {
    auto op = static_cast<TileFn>(f.payload);
    if (op == TileFn::Add || op == TileFn::Mul || op == TileFn::Maximum || op == TileFn::Minimum) {
      builtin = op == TileFn::Add ? TileFn::Sum : op == TileFn::Mul ? TileFn::Prod : op == TileFn::Maximum ? TileFn::Max : TileFn::Min;
    }
  } else if (f.k == TV::K::Entity && f.ent == Intrinsic::NumpyFn && f.path.rfind("operator.", 0) == 0) {
    if (f.path == "operator.add") builtin = TileFn::Sum;
    if (f.path == "operator.mul") builtin = TileFn::Prod;
  }
  if (builtin) {
    if (n != 1) {
      diags_.error(loc(fe), Diag::TileType,
                   "`" + describe(f) + "` combines one value with another; a tuple of " + std::to_string(n) +
                       " tiles needs a function of " + std::to_string(2 * n) + " values");
      return TV{};
    }
    inst_.meanings[fe.index] = ExprMeaning{Intrinsic::TileOp, static_cast<uint32_t>(*builtin)};
    result = TV::value(dtypes[0]);
  } else if (f.k == TV::K::Closure || isFunctionValue(f)) {
    TV fn = f.k == TV::K::Closure && f.live == scope_ ? freezeClosure(f, ast_.expr(id).range) : f;
    if (!fn.ok()) return TV{};
    const Arguments& params =
        fn.k == TV::K::Closure ? closureArguments(fn) : ast_.arguments(ast_.stmt(fn.def).functionDef()->args);
    size_t positional = ast_.list(params.posonlyargs).size() + ast_.list(params.args).size();
    if (positional != 2 * n || params.vararg.valid() || params.kwarg.valid() || !ast_.list(params.kwonlyargs).empty()) {
      diags_.error(loc(fe), Diag::TileType,
                   "the function `" + fn.path + "` given to `" + fname + "` must take " + std::to_string(2 * n) +
                       " positional parameters (" + std::to_string(n) + " for the values combined so far, " +
                       std::to_string(n) + " for the next), found " + std::to_string(positional));
      return TV{};
    }
    std::vector<TV> values;
    std::vector<TileHelperArg> lowered;
    for (size_t side = 0; side < 2; ++side) {
      for (TypeId d : dtypes) {
        values.push_back(TV::value(d));
        TileHelperArg l;
        l.pieces.emplace_back();
        lowered.push_back(std::move(l));
      }
    }
    uint32_t function;
    if (fn.k == TV::K::Closure) {
      function = closureFunction(fn);
      for (size_t i = 0; i < fn.keys.size(); ++i) {
        if (fn.keys[i][0] == '=') continue;
        values.push_back(fn.items[i]);
        TileHelperArg l;
        l.pieces.push_back(fn.pieces[i]);
        lowered.push_back(std::move(l));
      }
    } else {
      function = helperFunction(fn.def, fn.path, fn.defScope);
    }
    result = instantiateHelper(fe, function, fn.path, values, lowered, false);
    if (!result.ok()) return TV{};
  } else {
    diags_.error(loc(fe), Diag::TileType,
                 "`" + fname + "` combines with a function (a `def`, a lambda, operator.add/mul, ct.add, ct.mul, "
                 "ct.maximum, ct.minimum), found `" + describe(f) + "`");
    return TV{};
  }
  // What the function gives: one 0-d value per input (cuTile converts it to the input's dtype).
  std::vector<TV> outs = n == 1 ? std::vector<TV>{result} : (isTupleTV(result) ? tupleItems(result) : std::vector<TV>{});
  if (outs.size() != n) {
    diags_.error(loc(fe), Diag::TileType,
                 "the reduction function must return " +
                     (n == 1 ? std::string("one value") : "a tuple of " + std::to_string(n) + " values") +
                     " (one per input), found `" + describe(result) + "`");
    return TV{};
  }
  for (size_t i = 0; i < n; ++i) {
    bool scalar = outs[i].k == TV::K::Value && types_.isNumber(outs[i].type);
    if (!scalar || !convertsTo(outs[i], dtypes[i])) {
      diags_.error(loc(fe), Diag::TileType,
                   "the reduction function returned `" + describe(outs[i]) + "`" +
                       (n > 1 ? " at position " + std::to_string(i) : std::string()) + " where a 0-d `" +
                       nameOf(dtypes[i]) + "` value was expected");
      return TV{};
    }
  }
  std::vector<int64_t> out;
  for (size_t d = 0; d < shape->size(); ++d) {
    if (d != a) {
      out.push_back((*shape)[d]);
    } else if (keepdims) {
      out.push_back(1);
    }
  }
  // Lowering reads the inputs' common shape here (a tile of the first input's dtype).
  inst_.opTypes[id.index] = types_.tile(dtypes[0], *shape);
  if (!tupleMode) return record(id, TV::value(types_.tile(dtypes[0], out)));
  std::vector<TypeId> tiles;
  for (TypeId d : dtypes) tiles.push_back(out.empty() ? d : types_.tile(d, out));
  return record(id, TV::value(types_.tuple(tiles)));
}

}  // namespace frontend::tile
