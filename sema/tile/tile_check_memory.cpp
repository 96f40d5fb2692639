// Gather, scatter and atomics: indexed targets and memory order/scope arguments.
#include "sema/tile/tile_check_internal.h"

namespace frontend::tile {

std::optional<TileChecker::IndexedTarget> TileChecker::indexedTarget(ExprId array, ExprId indices, const std::string& fname,
                                                                     bool raw) {
  TV a = checkExpr(array);
  if (!a.ok()) return std::nullopt;
  if (a.k != TV::K::Value || !types_.isArray(a.type) || types_.get(a.type).facts.raw != raw) {
    diags_.error(loc(array), Diag::TileType,
                 "`" + fname + "` takes an array as its first argument, found `" + describe(a) + "`");
    return std::nullopt;
  }
  const Type& at = types_.get(a.type);
  TypeId element = at.element;
  std::vector<ExprId> items;
  bool tuple = false;
  // A name holding a tuple of indices (`idx = (rows, cols)`): its elements' types.
  std::vector<TypeId> held;
  if (const auto* t = ast_.expr(indices).dyn<ast::Tuple>()) {
    tuple = true;
    for (ExprId e : ast_.list(t->elts)) items.push_back(e);
  } else if (ast_.expr(indices).is<ast::Name>() || ast_.expr(indices).is<ast::Attribute>() ||
             ast_.expr(indices).is<ast::Subscript>()) {
    // A name, a dataclass field (`d.idx`) or a tuple's element holding a tuple of indices.
    TV v = checkExpr(indices);
    if (!v.ok()) return std::nullopt;
    bool constTuple = v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Tuple &&
                      std::all_of(v.c.elements.begin(), v.c.elements.end(),
                                  [](const ConstValue& c) { return c.kind == ConstValue::Kind::Int; });
    if (constTuple) {
      tuple = true;
      for (size_t k = 0; k < v.c.elements.size(); ++k) held.push_back(types_.int32());
      items.assign(held.size(), indices);
    } else if (v.k == TV::K::Value && types_.isTuple(v.type)) {
      tuple = true;
      held = types_.get(v.type).elements;
      items.assign(held.size(), indices);
    } else {
      items.push_back(indices);
    }
  } else {
    items.push_back(indices);
  }
  if (items.size() != at.ndim) {
    diags_.error(loc(indices), Diag::TileShape,
                 "`" + fname + "` on a " + std::to_string(at.ndim) + "-D array needs " +
                     (at.ndim == 1 ? std::string("1 index") : std::to_string(at.ndim) + " indices") +
                     ", one per axis, found " + (tuple ? std::to_string(items.size()) : "one") +
                     (at.ndim > 1 && !tuple ? " (pass a tuple)" : ""));
    return std::nullopt;
  }
  std::vector<TV> indexVals;
  for (size_t d = 0; d < items.size(); ++d) {
    TV v = held.empty() ? checkExpr(items[d]) : TV::value(held[d]);
    if (!v.ok()) return std::nullopt;
    bool integer = (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Int) ||
                   (v.k == TV::K::Value && (types_.isTile(v.type) || types_.isNumber(v.type)) &&
                    types_.isInt(elementOf(v.type)));
    if (!integer) {
      diags_.error(loc(items[d]), Diag::TileType,
                   "the index for axis " + std::to_string(d) + " of `" + fname +
                       "` must be an integer tile or scalar, found `" + describe(v) + "`");
      return std::nullopt;
    }
    indexVals.push_back(v);
  }
  auto shape = broadcastOf(indexVals, indices);
  if (!shape) return std::nullopt;
  return IndexedTarget{element, *shape};
}

TV TileChecker::checkGatherScatter(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname) {
  bool gather = fn == TileFn::Gather;
  size_t positional = gather ? 2 : 3;
  auto given = ast_.list(c.args);
  if (given.size() > positional) {
    diags_.error(loc(given[positional]), Diag::InvalidCall,
                 "`" + fname + "` takes " + std::to_string(positional) + " positional arguments (" +
                     (gather ? "`mask`, `padding_value`, `check_bounds` and `latency`"
                             : "`mask`, `check_bounds` and `latency`") +
                     " are keyword-only)");
    return TV{};
  }
  auto args = gather
                  ? bindArgs(id, c, fname, {"array", "indices", "mask", "padding_value", "check_bounds", "latency"}, 2)
                  : bindArgs(id, c, fname, {"array", "indices", "value", "mask", "check_bounds", "latency"}, 3);
  if (!args) return TV{};
  const size_t maskAt = gather ? 2 : 3;
  const size_t checkAt = 4;
  // `mask=None`, `padding_value=None`: as if absent.
  for (size_t i : {maskAt, size_t(3)}) {
    if ((*args)[i].valid() && isNoneConst((*args)[i]) && (i == maskAt || gather)) {
      inst_.callArguments[id.index][i] = ExprId();
      (*args)[i] = ExprId();
    }
  }
  auto target = indexedTarget((*args)[0], (*args)[1], fname);
  if (!target) return TV{};
  TypeId element = target->element;
  const std::vector<int64_t>* shape = &target->shape;
  TypeId result = shape->empty() ? element : types_.tile(element, *shape);
  if (!gather && !valueOperand((*args)[2], fname, "the value", *shape, element)) return TV{};
  if ((*args)[maskAt].valid() && !maskOperand((*args)[maskAt], fname, *shape)) return TV{};
  if (gather && (*args)[3].valid() && !valueOperand((*args)[3], fname, "the padding value", *shape, element)) {
    return TV{};
  }
  if ((*args)[checkAt].valid() && !constBool((*args)[checkAt], "`check_bounds=`")) {
    return TV{};
  }
  // latency= is a scheduling hint: checked, then ignored.
  if ((*args)[5].valid() && !isNoneConst((*args)[5]) && !constInt((*args)[5], "`latency=`")) return TV{};
  inst_.opTypes[id.index] = result;
  if (gather) return record(id, TV::value(result));
  effects_ = true;
  return TV::value(types_.none());
}

bool TileChecker::maskOperand(ExprId e, const std::string& fname, const std::vector<int64_t>& shape) {
  auto m = tileOrScalar(e);
  if (!m) return false;
  bool isBool = m->k == TV::K::Const ? m->c.kind == ConstValue::Kind::Bool : types_.isBool(elementOf(m->type));
  if (!isBool) {
    diags_.error(loc(e), Diag::TileType,
                 "`mask=` of `" + fname + "` must be a bool tile or scalar, found `" + describe(*m) + "`");
    return false;
  }
  if (!broadcastsTo(*m, shape)) {
    diags_.error(loc(e), Diag::TileShape,
                 "the mask `" + describe(*m) + "` does not broadcast to the indices' shape " + shapeText(shape));
    return false;
  }
  return true;
}

bool TileChecker::isSliceCall(ExprId e) {
  const auto* call = ast_.expr(e).dyn<ast::Call>();
  if (call == nullptr) return false;
  TV f = checkExpr(call->func);
  return f.k == TV::K::Entity && f.ent == Intrinsic::TileOp && f.payload == static_cast<uint32_t>(TileFn::Slice);
}

TV TileChecker::checkAdvancedIndexing(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname) {
  bool load = fn == TileFn::LoadAdvancedIndexing;
  size_t positional = load ? 2 : 3;
  auto given = ast_.list(c.args);
  if (given.size() > positional) {
    diags_.error(loc(given[positional]), Diag::InvalidCall,
                 "`" + fname + "` takes " + std::to_string(positional) + " positional arguments (" +
                     (load ? "`padding_mode`, `latency` and `allow_tma`" : "`latency` and `allow_tma`") +
                     " are keyword-only)");
    return TV{};
  }
  auto args = load ? bindArgs(id, c, fname, {"array", "indices", "padding_mode", "latency", "allow_tma"}, 2)
                   : bindArgs(id, c, fname, {"array", "indices", "tile", "latency", "allow_tma"}, 3);
  if (!args) return TV{};
  auto array = arrayArg((*args)[0]);
  if (!array) return TV{};
  const Type& at = types_.get(*array);
  ExprId indices = (*args)[1];
  const auto* tuple = ast_.expr(indices).dyn<ast::Tuple>();
  auto items = tuple != nullptr ? ast_.list(tuple->elts) : std::span<const ExprId>();
  if (tuple == nullptr || items.size() != at.ndim) {
    diags_.error(loc(indices), Diag::TileShape,
                 "`" + fname + "` on a " + std::to_string(at.ndim) + "-D array needs a tuple of " +
                     std::to_string(at.ndim) +
                     " indices, one per axis: one 1-D integer tile and `ct.Slice(start, length)` for the others");
    return TV{};
  }
  std::vector<int64_t> shape;
  int sparse = -1;
  for (size_t d = 0; d < items.size(); ++d) {
    ExprId item = items[d];
    if (isSliceCall(item)) {
      const auto& sc = *ast_.expr(item).dyn<ast::Call>();
      auto sargs = bindArgs(item, sc, "ct.Slice", {"start", "length"}, 2);
      if (!sargs || !intScalar((*sargs)[0], "the start of `ct.Slice`")) return TV{};
      auto length = constInt((*sargs)[1], "the length of `ct.Slice`");
      if (!length) return TV{};
      if (!isPow2(*length)) {
        diags_.error(loc((*sargs)[1]), Diag::TileShape,
                     "the length of `ct.Slice` must be a power of two, found " + std::to_string(*length));
        return TV{};
      }
      shape.push_back(*length);
      continue;
    }
    TV v = checkExpr(item);
    if (!v.ok()) return TV{};
    bool intTile = isTileVal(v) && types_.get(v.type).shape.size() == 1 && types_.isInt(elementOf(v.type));
    if (!intTile) {
      diags_.error(loc(item), Diag::TileType,
                   "the index for axis " + std::to_string(d) + " of `" + fname +
                       "` must be a 1-D integer tile or `ct.Slice(start, length)`, found `" + describe(v) + "`");
      return TV{};
    }
    if (sparse >= 0) {
      diags_.error(loc(item), Diag::TileType,
                   "`" + fname + "` takes exactly one integer tile among its indices (axis " +
                       std::to_string(sparse) + " has one already); give the other axes as `ct.Slice(start, length)`");
      return TV{};
    }
    sparse = static_cast<int>(d);
    shape.push_back(types_.get(v.type).shape[0]);
  }
  if (sparse < 0) {
    diags_.error(loc(indices), Diag::TileType,
                 "`" + fname + "` needs one 1-D integer tile among its indices (the axis it gathers along); "
                 "with only `ct.Slice`s use `ct.load`/`ct.store`");
    return TV{};
  }
  TypeId result = types_.tile(at.element, shape);
  if (load && (*args)[2].valid() && !paddingArg((*args)[2])) return TV{};
  if (!load && !valueOperand((*args)[2], fname, "the tile", shape, at.element)) return TV{};
  // latency= and allow_tma= are scheduling hints: checked, then ignored.
  for (size_t i : {size_t(3), size_t(4)}) {
    if ((*args)[i].valid() && !isNoneConst((*args)[i]) && !constInt((*args)[i], "a load/store hint")) return TV{};
  }
  inst_.opTypes[id.index] = result;
  if (load) return record(id, TV::value(result));
  effects_ = true;
  return TV::value(types_.none());
}

bool TileChecker::memoryArg(ExprId e, bool order, const std::string& fname) {
  TV m = checkExpr(e);
  if (!m.ok()) return false;
  const char* what = order ? "ct.MemoryOrder" : "ct.MemoryScope";
  bool member = m.k == TV::K::Entity && m.ent == Intrinsic::TileOp &&
                (order ? isTileMemoryOrder(m.payload) : isTileMemoryScope(m.payload));
  if (!member) {
    diags_.error(loc(e), Diag::TileType,
                 std::string("`") + (order ? "memory_order" : "memory_scope") + "=` of `" + fname +
                     "` must be a constant `" + what + "` member, found `" + describe(m) + "`");
    return false;
  }
  auto which = static_cast<TileFn>(m.payload);
  if (which == TileFn::OrderWeak) {
    diags_.error(loc(e), Diag::TileType,
                 "`" + fname + "` cannot take `MemoryOrder.WEAK` (an atomic needs RELAXED, ACQUIRE, RELEASE or ACQ_REL)");
    return false;
  }
  if (which == TileFn::ScopeNone) {
    diags_.error(loc(e), Diag::TileType,
                 "`" + fname + "` cannot take `MemoryScope.NONE` (an atomic needs BLOCK, DEVICE or SYS)");
    return false;
  }
  return true;
}

TV TileChecker::checkAtomic(ExprId id, const ast::Call& c, TileFn fn, const std::string& fname, ExprId self) {
  bool cas = fn == TileFn::AtomicCas;
  bool raw = self.valid();
  size_t positional = (cas ? 4 : 3) - (raw ? 1 : 0);
  auto given = ast_.list(c.args);
  if (given.size() > positional) {
    diags_.error(loc(given[positional]), Diag::InvalidCall,
                 "`" + fname + "` takes " + std::to_string(positional) + " positional arguments (" +
                     (raw ? "`mask`" : "`check_bounds`") + ", `memory_order` and `memory_scope` are keyword-only)");
    return TV{};
  }
  for (KeywordId kid : ast_.list(c.keywords)) {
    const Keyword& k = ast_.keyword(kid);
    if (!k.arg.valid()) continue;
    std::string key(ast_.str(k.arg));
    if (key == "array" || key == "indices" || key == "update" || key == "offset" ||
        (cas && (key == "expected" || key == "desired"))) {
      diags_.error(loc(k.value), Diag::InvalidCall, "`" + fname + "`'s `" + key + "` is positional-only");
      return TV{};
    }
  }
  const char* check = raw ? "mask" : "check_bounds";
  auto args = cas ? bindArgs(id, c, fname, {"array", "indices", "expected", "desired", check, "memory_order", "memory_scope"},
                             4, self)
                  : bindArgs(id, c, fname, {"array", "indices", "update", check, "memory_order", "memory_scope"}, 3, self);
  if (!args) return TV{};
  const size_t checkAt = cas ? 4 : 3;
  if (raw && (*args)[checkAt].valid() && isNoneConst((*args)[checkAt])) {
    inst_.callArguments[id.index][checkAt] = ExprId();
    (*args)[checkAt] = ExprId();
  }
  auto target = indexedTarget((*args)[0], (*args)[1], fname, raw);
  if (!target) return TV{};
  TypeId e = target->element;
  const Type& et = types_.get(e);
  bool int3264 = et.kind == TypeKind::Int && (et.bits == 32 || et.bits == 64);
  bool float3264 = e == types_.float32() || e == types_.float64();
  bool allowed = int3264;
  const char* takes = "int32, int64, uint32 and uint64";
  if (fn == TileFn::AtomicAdd) {
    allowed = int3264 || float3264 || e == types_.floatType(16);
    takes = "int32, int64, uint32, uint64, float16, float32 and float64";
  } else if (fn == TileFn::AtomicXchg || cas) {
    allowed = int3264 || float3264;
    takes = "int32, int64, uint32, uint64, float32 and float64";
  }
  if (!allowed) {
    diags_.error(loc((*args)[0]), Diag::TileType,
                 "`" + fname + "` does not take an array of `" + nameOf(e) + "` (it takes " + takes + ")" +
                     (fn == TileFn::AtomicAdd && e == types_.bfloat16() ? "; bfloat16 is not supported by pykc yet"
                                                                        : ""));
    return TV{};
  }
  const size_t valueEnd = cas ? 4 : 3;
  const char* names[] = {"the update", "the expected value", "the desired value"};
  for (size_t i = 2; i < valueEnd; ++i) {
    const char* what = cas ? names[i - 1] : names[0];
    if (!valueOperand((*args)[i], fname, what, target->shape, e)) return TV{};
    bool bitwise = fn == TileFn::AtomicAnd || fn == TileFn::AtomicOr || fn == TileFn::AtomicXor;
    TV v = checkExpr((*args)[i]);
    if (bitwise && v.k == TV::K::Value && elementOf(v.type) != e) {
      diags_.error(loc((*args)[i]), Diag::TileType,
                   "`" + fname + "` needs an update of the array's dtype `" + nameOf(e) + "`, found `" + describe(v) +
                       "` (use `.astype`)");
      return TV{};
    }
  }
  if (raw && (*args)[checkAt].valid() && !maskOperand((*args)[checkAt], fname, target->shape)) return TV{};
  if (!raw && (*args)[checkAt].valid() && !constBool((*args)[checkAt], "`check_bounds=`")) return TV{};
  if ((*args)[checkAt + 1].valid() && !memoryArg((*args)[checkAt + 1], true, fname)) return TV{};
  if ((*args)[checkAt + 2].valid() && !memoryArg((*args)[checkAt + 2], false, fname)) return TV{};
  TypeId result = target->shape.empty() ? e : types_.tile(e, target->shape);
  inst_.opTypes[id.index] = result;
  effects_ = true;
  return record(id, TV::value(result));
}

TV TileChecker::checkArraySlice(ExprId id, const ast::Call& c, ExprId self) {
  auto args = bindArgs(id, c, "slice", {"self", "axis", "start", "stop"}, 4, self);
  if (!args) return TV{};
  auto at = arrayArg((*args)[0]);
  if (!at) return TV{};
  const Type& t = types_.get(*at);
  auto axis = constInt((*args)[1], "the `axis` of `slice`");
  if (!axis) return TV{};
  int64_t ndim = t.ndim;
  if (*axis < -ndim || *axis >= ndim) {
    diags_.error(loc((*args)[1]), Diag::IndexOutOfRange,
                 "axis " + std::to_string(*axis) + " of a " + std::to_string(ndim) + "-d array");
    return TV{};
  }
  size_t d = static_cast<size_t>(*axis < 0 ? *axis + ndim : *axis);
  if (!intScalar((*args)[2], "the `start` of `slice`") || !intScalar((*args)[3], "the `stop` of `slice`")) {
    return TV{};
  }
  TV start = checkExpr((*args)[2]), stop = checkExpr((*args)[3]);
  if (start.k == TV::K::Const && stop.k == TV::K::Const && start.c.kind == ConstValue::Kind::Int &&
      stop.c.kind == ConstValue::Kind::Int && stop.c.intValue >= start.c.intValue) {
    sliceExtents_[id.index] = {d, stop.c.intValue - start.c.intValue};
  }
  // The view starts `start` elements into the axis: its base is no longer known
  // to be aligned, nor its extent along the axis to be a multiple of anything.
  ArrayFacts facts = t.facts;
  facts.alignment = 0;
  if (d < facts.shapeDivisibleBy.size()) facts.shapeDivisibleBy[d] = 1;
  bool none = true;
  for (uint32_t v : facts.shapeDivisibleBy) none = none && v <= 1;
  if (none) facts.shapeDivisibleBy.clear();
  return record(id, TV::value(types_.array(t.element, t.ndim, t.layout, facts)));
}

}  // namespace frontend::tile

namespace frontend::tile {

TV TileChecker::checkRawMemory(ExprId id, const ast::Call& c, ExprId self) {
  auto args = bindArgs(id, c, "get_raw_memory", {"self"}, 1, self);
  if (!args) return TV{};
  auto at = arrayArg((*args)[0]);
  if (!at) return TV{};
  ArrayFacts raw;
  raw.raw = true;
  return record(id, TV::value(types_.array(types_.get(*at).element, 1, Layout::C, raw)));
}

TV TileChecker::checkRawAccess(ExprId id, const ast::Call& c, TileFn fn, ExprId self) {
  bool load = fn == TileFn::LoadOffset;
  std::string fname(tileFnName(fn));
  size_t positional = load ? 1 : 2;
  auto given = ast_.list(c.args);
  if (given.size() > positional) {
    diags_.error(loc(given[positional]), Diag::InvalidCall,
                 "`" + fname + "` takes " + std::to_string(positional) + " positional argument" +
                     (load ? " (`mask`, `padding_value` and `latency` are" : "s (`mask` and `latency` are") +
                     " keyword-only)");
    return TV{};
  }
  auto args = load ? bindArgs(id, c, fname, {"self", "offset", "mask", "padding_value", "latency"}, 2, self)
                   : bindArgs(id, c, fname, {"self", "offset", "value", "mask", "latency"}, 3, self);
  if (!args) return TV{};
  const size_t maskAt = load ? 2 : 3;
  for (size_t i : {maskAt, size_t(load ? 3 : 4)}) {
    if ((*args)[i].valid() && isNoneConst((*args)[i])) {
      inst_.callArguments[id.index][i] = ExprId();
      (*args)[i] = ExprId();
    }
  }
  TV mem = checkExpr((*args)[0]);
  if (!mem.ok()) return TV{};
  TypeId element = types_.get(mem.type).element;
  auto offset = tileOrScalar((*args)[1]);
  if (!offset) return TV{};
  bool integer = offset->k == TV::K::Const ? offset->c.kind == ConstValue::Kind::Int
                                           : types_.isInt(elementOf(offset->type));
  if (!integer) {
    diags_.error(loc((*args)[1]), Diag::TileType,
                 "the offset of `" + fname + "` must be an integer tile or scalar, found `" + describe(*offset) + "`");
    return TV{};
  }
  std::vector<int64_t> shape;
  if (isTileVal(*offset)) shape = types_.get(offset->type).shape;
  TypeId result = shape.empty() ? element : types_.tile(element, shape);
  if (!load && !valueOperand((*args)[2], fname, "the value", shape, element)) return TV{};
  if ((*args)[maskAt].valid() && !maskOperand((*args)[maskAt], fname, shape)) return TV{};
  if (load && (*args)[3].valid() && !valueOperand((*args)[3], fname, "the padding value", shape, element)) {
    return TV{};
  }
  // latency= is a scheduling hint: checked, then ignored.
  ExprId latency = (*args)[load ? 4 : 4];
  if (latency.valid() && !constInt(latency, "`latency=`")) return TV{};
  inst_.opTypes[id.index] = result;
  if (load) return record(id, TV::value(result));
  effects_ = true;
  return TV::value(types_.none());
}

}  // namespace frontend::tile
