// Tuple parameters of tile kernels (docs/TILE.md, "Tuples of arrays"): `t[i]` with a
// constant index (any element), with a run-time integer (elements of one type), and
// `len(t)`, a constant.
#include <algorithm>
#include <functional>

#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

TV TileChecker::checkTupleSubscript(ExprId id, const ast::Subscript& sub, const TV& base) {
  ExprId root = sub.value;
  for (;;) {  // `t[0][1]`, `d.field[0]` (a dataclass parameter's field)
    if (const auto* s = ast_.expr(root).dyn<ast::Subscript>()) {
      root = s->value;
    } else if (const auto* a = ast_.expr(root).dyn<ast::Attribute>()) {
      root = a->value;
    } else {
      break;
    }
  }
  if (!ast_.expr(root).is<ast::Name>() && holdsArray(base.type)) {
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
    size_t k = static_cast<size_t>(i < 0 ? i + n : i);
    if (auto c = knownElement(sub.value, k)) return record(id, TV::constant(*c));
    return record(id, TV::value(elements[k]));
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

std::optional<ConstValue> TileChecker::constSlice(const ConstValue& tuple, const ast::Slice& slice) {
  auto bound = [&](ExprId e, const char* what) -> std::optional<std::optional<int64_t>> {
    if (!e.valid()) return std::optional<int64_t>{};
    TV v = checkExpr(e);
    if (!v.ok()) return std::nullopt;
    if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::None) return std::optional<int64_t>{};
    if (v.k == TV::K::Const && (v.c.kind == ConstValue::Kind::Int || v.c.kind == ConstValue::Kind::Bool)) {
      return std::optional<int64_t>{v.c.kind == ConstValue::Kind::Int ? v.c.intValue : int64_t(v.c.boolValue)};
    }
    diags_.error(loc(e), Diag::TileType,
                 std::string("the ") + what + " of a tuple slice must be a constant integer or None, found `" +
                     describe(v) + "`");
    return std::nullopt;
  };
  auto lower = bound(slice.lower, "start");
  auto upper = bound(slice.upper, "stop");
  auto step = bound(slice.step, "step");
  if (!lower || !upper || !step) return std::nullopt;
  int64_t n = static_cast<int64_t>(tuple.elements.size());
  int64_t by = step->value_or(1);
  if (by == 0) {
    diags_.error(loc(slice.step), Diag::InvalidCall, "slice step cannot be zero");
    return std::nullopt;
  }
  // Python's PySlice_AdjustIndices.
  auto adjust = [&](std::optional<int64_t> v, int64_t dflt) {
    if (!v) return dflt;
    int64_t i = *v < 0 ? *v + n : *v;
    if (by > 0) return std::clamp<int64_t>(i, 0, n);
    return std::clamp<int64_t>(i, -1, n - 1);
  };
  int64_t from = adjust(*lower, by > 0 ? 0 : n - 1);
  int64_t to = adjust(*upper, by > 0 ? n : -1);
  ConstValue out;
  out.kind = ConstValue::Kind::Tuple;
  for (int64_t i = from; by > 0 ? i < to : i > to; i += by) out.elements.push_back(tuple.elements[static_cast<size_t>(i)]);
  return out;
}

std::optional<TV> TileChecker::pickFromTupleLiteral(ExprId id, const ast::Subscript& sub) {
  const auto* tuple = ast_.expr(sub.value).dyn<ast::Tuple>();
  if (tuple == nullptr) return std::nullopt;
  auto elts = ast_.list(tuple->elts);
  for (ExprId e : elts) {
    if (!ast_.expr(e).is<ast::Name>() && !ast_.expr(e).is<ast::Attribute>()) return std::nullopt;
  }
  if (!ast_.expr(sub.slice).is<ast::Name>() && !ast_.expr(sub.slice).is<ast::Constant>()) return std::nullopt;
  TV index = checkExpr(sub.slice);
  if (!index.ok()) return TV{};  // reported
  if (index.k != TV::K::Const || index.c.kind != ConstValue::Kind::Int) return std::nullopt;
  int64_t n = static_cast<int64_t>(elts.size());
  int64_t i = index.c.intValue;
  if (i < -n || i >= n) return std::nullopt;  // the full check reports it
  TV v = checkExpr(elts[static_cast<size_t>(i < 0 ? i + n : i)]);
  if (!v.ok()) return TV{};  // reported
  if (v.k != TV::K::Entity && v.k != TV::K::Const) return std::nullopt;
  return record(id, v);
}

TV TileChecker::checkLen(ExprId id, const ast::Call& c) {
  auto args = ast_.list(c.args);
  if (args.size() != 1 || !c.keywords.empty()) {
    diags_.error(loc(id), Diag::InvalidCall, "`len` takes one tuple in tile kernels");
    return TV{};
  }
  TV v = checkExpr(args[0]);
  if (!v.ok()) return TV{};
  if (v.k == TV::K::Value && isDataclassType(types_, v.type)) {
    diags_.error(loc(args[0]), Diag::TileType, "object of type '" + dataclassName(types_, v.type) + "' has no len()");
    return TV{};
  }
  if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Tuple) {
    return record(id, TV::constant(ConstValue::ofInt(static_cast<int64_t>(v.c.elements.size()))));
  }
  if (v.k == TV::K::Value && types_.isTuple(v.type)) {
    return record(id, TV::constant(ConstValue::ofInt(static_cast<int64_t>(types_.get(v.type).elements.size()))));
  }
  if (v.k == TV::K::Dict) return record(id, TV::constant(ConstValue::ofInt(static_cast<int64_t>(v.keys.size()))));
  if (v.k == TV::K::Items) return record(id, TV::constant(ConstValue::ofInt(static_cast<int64_t>(v.items.size()))));
  if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Str) {
    // Python counts code points: the UTF-8 bytes that start one.
    int64_t n = 0;
    for (unsigned char ch : v.c.strValue) n += (ch & 0xC0) != 0x80;
    return record(id, TV::constant(ConstValue::ofInt(n)));
  }
  diags_.error(loc(args[0]), Diag::TileType,
               "`len` takes a tuple in tile kernels, found `" + describe(v) + "`" +
                   (v.k == TV::K::Value && types_.isArray(v.type) ? " (use `x.shape[0]`)" : ""));
  return TV{};
}

namespace {

// The nesting of a constant (its shape, every level rectangular; a number: ()), or nullopt.
std::optional<std::vector<int64_t>> constNesting(const ConstValue& c) {
  if (c.kind != ConstValue::Kind::Tuple) {
    return c.isNumber() ? std::optional(std::vector<int64_t>()) : std::nullopt;
  }
  std::optional<std::vector<int64_t>> inner;
  for (const ConstValue& e : c.elements) {
    auto s = constNesting(e);
    if (!s || (inner && *inner != *s)) return std::nullopt;
    inner = std::move(s);
  }
  std::vector<int64_t> out{static_cast<int64_t>(c.elements.size())};
  if (inner) out.insert(out.end(), inner->begin(), inner->end());
  return out;
}

}  // namespace

bool TileChecker::astileShape(ExprId e, std::vector<int64_t>& shape, size_t depth, std::vector<TypeId>& leaves) {
  const auto* t = ast_.expr(e).dyn<ast::Tuple>();
  auto mismatch = [&]() {
    diags_.error(loc(e), Diag::TileShape, "`ct.astile` takes nested tuples of one shape (a tile's), found a ragged one");
    return false;
  };
  if (t != nullptr) {
    auto elts = ast_.list(t->elts);
    auto n = static_cast<int64_t>(elts.size());
    if (depth < shape.size() && shape[depth] != n) return mismatch();
    if (depth == shape.size()) shape.push_back(n);
    for (ExprId x : elts) {
      if (!astileShape(x, shape, depth + 1, leaves)) return false;
    }
    return true;
  }
  TV v = checkExpr(e);
  if (!v.ok()) return false;
  if (v.k == TV::K::Const) {
    auto nesting = constNesting(v.c);
    if (!nesting) {
      diags_.error(loc(e), Diag::TileType, "`ct.astile` takes numbers and nested tuples of them, found `" + describe(v) + "`");
      return false;
    }
    const std::vector<int64_t>& inner = *nesting;
    for (size_t i = 0; i < inner.size(); ++i) {
      size_t d = depth + i;
      if (d < shape.size() && shape[d] != inner[i]) return mismatch();
      if (d == shape.size()) shape.push_back(inner[i]);
    }
    if (depth + inner.size() != shape.size()) return mismatch();
    std::function<void(const ConstValue&)> add = [&](const ConstValue& c) {
      if (c.kind == ConstValue::Kind::Tuple) {
        for (const ConstValue& x : c.elements) add(x);
      } else if (auto w = weakType(c)) {
        leaves.push_back(*w);
      }
    };
    add(v.c);
    return true;
  }
  if (v.k == TV::K::Value && types_.isNumber(v.type)) {
    if (depth != shape.size()) return mismatch();
    leaves.push_back(v.type);
    return true;
  }
  if (v.k == TV::K::Value && types_.isTuple(v.type) && !holdsArray(v.type)) {
    // A tuple of run-time numbers held in a name: one level of the nesting.
    std::vector<TypeId> elements = types_.get(v.type).elements;
    auto n = static_cast<int64_t>(elements.size());
    if (depth < shape.size() && shape[depth] != n) return mismatch();
    if (depth == shape.size()) shape.push_back(n);
    for (TypeId el : elements) {
      if (!types_.isNumber(el) || depth + 1 != shape.size()) {
        diags_.error(loc(e), Diag::TileType,
                     "`ct.astile` takes a tuple of numbers here, found `" + describe(v) + "`");
        return false;
      }
      leaves.push_back(el);
    }
    return true;
  }
  diags_.error(loc(e), Diag::TileType,
               "`ct.astile` takes numbers, scalars and nested tuples of them, found `" + describe(v) + "`");
  return false;
}

TV TileChecker::checkAstile(ExprId id, const ast::Call& c, const std::string& fname) {
  auto args = bindArgs(id, c, fname, {"value", "dtype"}, 1);
  if (!args) return TV{};
  std::vector<int64_t> shape;
  std::vector<TypeId> leaves;
  if (!astileShape((*args)[0], shape, 0, leaves)) return TV{};
  for (int64_t d : shape) {
    if (!isPow2(d)) {
      diags_.error(loc((*args)[0]), Diag::TileShape,
                   "tuple length " + std::to_string(d) + " in `ct.astile`'s value is not a power of 2");
      return TV{};
    }
  }
  TypeId dtype;
  if ((*args)[1].valid()) {
    auto d = dtypeArg((*args)[1]);
    if (!d) return TV{};
    dtype = *d;
  } else {
    for (TypeId l : leaves) dtype = dtype.valid() ? promoteDtypes(dtype, l) : l;
    if (!dtype.valid()) dtype = types_.int32();
  }
  inst_.opTypes[id.index] = dtype;
  return record(id, TV::value(shape.empty() ? dtype : types_.tile(dtype, shape)));
}

std::vector<TV> TileChecker::tupleItems(const TV& v, ExprId display) const {
  std::vector<TV> out;
  if (const auto* t = display.valid() ? ast_.expr(display).dyn<ast::Tuple>() : nullptr; t != nullptr && v.k == TV::K::Value) {
    auto elts = ast_.list(t->elts);
    bool plain = std::none_of(elts.begin(), elts.end(), [&](ExprId e) { return ast_.expr(e).is<ast::Starred>(); });
    if (plain && elts.size() == types_.get(v.type).elements.size()) {
      for (ExprId e : elts) {
        int32_t c = inst_.constIndex[e.index];
        out.push_back(c >= 0 ? TV::constant(inst_.constants[static_cast<size_t>(c)]) : TV::value(inst_.exprTypes[e.index]));
      }
      return out;
    }
  }
  if (v.k == TV::K::Const) {
    for (const ConstValue& e : v.c.elements) out.push_back(TV::constant(e));
  } else {
    const std::vector<TypeId>& elements = types_.get(v.type).elements;
    for (size_t i = 0; i < elements.size(); ++i) {
      auto c = display.valid() ? knownElement(display, i) : std::nullopt;
      out.push_back(c ? TV::constant(*c) : TV::value(elements[i]));
    }
  }
  return out;
}

std::optional<bool> TileChecker::staticEquals(const TV& a, const TV& b, bool& ok) {
  auto isNumber = [&](const TV& v) {
    return (v.k == TV::K::Const && v.c.isNumber()) || (v.k == TV::K::Value && types_.isNumber(v.type));
  };
  for (const TV* v : {&a, &b}) {
    if (!isTupleTV(*v) && !isNumber(*v)) {
      ok = false;
      return std::nullopt;
    }
  }
  if (isTupleTV(a) != isTupleTV(b)) return false;  // a number never equals a tuple
  if (!isTupleTV(a)) {
    if (a.k == TV::K::Const && b.k == TV::K::Const) {
      auto eq = foldCompare(CmpOp::Eq, a.c, b.c);
      return eq && truthOf(*eq);
    }
    return std::nullopt;
  }
  std::vector<TV> x = tupleItems(a), y = tupleItems(b);
  if (x.size() != y.size()) return false;
  bool allKnown = true;
  for (size_t i = 0; i < x.size(); ++i) {
    auto e = staticEquals(x[i], y[i], ok);
    if (!ok) return std::nullopt;
    if (e && !*e) return false;
    allKnown = allKnown && e.has_value();
  }
  return allKnown ? std::optional<bool>(true) : std::nullopt;
}

TV TileChecker::compareTuples(ExprId id, CmpOp op, const TV& l, const TV& r, ExprId right) {
  bool ok = true;
  std::optional<bool> result;
  bool membership = op == CmpOp::In || op == CmpOp::NotIn;
  if (membership) {
    if (!isTupleTV(r) || (r.k == TV::K::Value && holdsArray(r.type))) {
      diags_.error(loc(id), Diag::MismatchedOperandTypes, std::string(spelling(op)), describe(l), describe(r));
      return TV{};
    }
    // A known match decides it (comparisons have no effects); else every element must be
    // known unequal for a constant False.
    bool runtimeSeen = false;
    result = false;
    for (const TV& e : tupleItems(r, right)) {
      auto eq = staticEquals(l, e, ok);
      if (!ok) break;
      if (eq && *eq) {
        result = true;
        break;
      }
      if (!eq) runtimeSeen = true;
    }
    if (ok && runtimeSeen && result == false) result.reset();
    if (result && op == CmpOp::NotIn) result = !*result;
  } else if (op == CmpOp::Eq || op == CmpOp::NotEq) {
    result = staticEquals(l, r, ok);
    if (result && op == CmpOp::NotEq) result = !*result;
  } else {
    ok = false;
  }
  if (!ok) {
    diags_.error(loc(id), Diag::MismatchedOperandTypes, std::string(spelling(op)), describe(l), describe(r));
    return TV{};
  }
  if (result) return record(id, TV::constant(ConstValue::ofBool(*result)));
  inst_.opTypes[id.index] = types_.tuple({});
  return record(id, TV::value(types_.boolean()));
}

}  // namespace frontend::tile
