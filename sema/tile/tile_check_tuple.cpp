// Tuple parameters of tile kernels (docs/TILE.md, "Tuples of arrays"): `t[i]` with a
// constant index (any element), with a run-time integer (elements of one type), and
// `len(t)`, a constant.
#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

TV TileChecker::checkTupleSubscript(ExprId id, const ast::Subscript& sub, const TV& base) {
  ExprId root = sub.value;
  while (const auto* s = ast_.expr(root).dyn<ast::Subscript>()) root = s->value;
  if (!ast_.expr(root).is<ast::Name>()) {
    diags_.error(loc(id), Diag::TileUnsupported, "indexing `" + describe(base) + "` here",
                 ": index a tuple parameter, or unpack the tuple (`a, b = ...`)");
    return TV{};
  }
  const std::vector<TypeId> elements = types_.get(base.type).elements;
  int64_t n = static_cast<int64_t>(elements.size());
  TV index = checkExpr(sub.slice);
  if (!index.ok()) return TV{};
  if (index.k == TV::K::Const && (index.c.kind == ConstValue::Kind::Int || index.c.kind == ConstValue::Kind::Bool)) {
    int64_t i = index.c.kind == ConstValue::Kind::Int ? index.c.intValue : int64_t(index.c.boolValue);
    if (i < -n || i >= n) {
      diags_.error(loc(sub.slice), Diag::IndexOutOfRange,
                   "tuple index " + std::to_string(i) + " out of range for `" + describe(base) + "`");
      return TV{};
    }
    return record(id, TV::value(elements[static_cast<size_t>(i < 0 ? i + n : i)]));
  }
  if (index.k != TV::K::Value || !types_.isInt(index.type) || types_.isTile(index.type)) {
    diags_.error(loc(sub.slice), Diag::TileType,
                 "a tuple index must be an integer, found `" + describe(index) + "`");
    return TV{};
  }
  for (TypeId e : elements) {
    if (e != elements.front()) {
      diags_.error(loc(sub.slice), Diag::TileType,
                   "a run-time index needs a tuple whose elements have one type, found `" +
                       describe(base) + "`: index it with a constant");
      return TV{};
    }
  }
  if (elements.empty()) {
    diags_.error(loc(sub.slice), Diag::IndexOutOfRange, "indexing an empty tuple");
    return TV{};
  }
  return record(id, TV::value(elements.front()));
}

TV TileChecker::checkLen(ExprId id, const ast::Call& c) {
  auto args = ast_.list(c.args);
  if (args.size() != 1 || !c.keywords.empty()) {
    diags_.error(loc(id), Diag::InvalidCall, "`len` takes one tuple in tile kernels");
    return TV{};
  }
  TV v = checkExpr(args[0]);
  if (!v.ok()) return TV{};
  if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Tuple) {
    return record(id, TV::constant(ConstValue::ofInt(static_cast<int64_t>(v.c.elements.size()))));
  }
  if (v.k == TV::K::Value && types_.isTuple(v.type)) {
    return record(id, TV::constant(ConstValue::ofInt(static_cast<int64_t>(types_.get(v.type).elements.size()))));
  }
  diags_.error(loc(args[0]), Diag::TileType,
               "`len` takes a tuple in tile kernels, found `" + describe(v) + "`" +
                   (v.k == TV::K::Value && types_.isArray(v.type) ? " (use `x.shape[0]`)" : ""));
  return TV{};
}

}  // namespace frontend::tile
