// Tuple parameters of tile kernels (docs/TILE.md, "Tuples of arrays"): the ABI passes
// their elements flattened (docs/ABI.md); the kernel keeps them as a tree of arrays and
// scalars, indexes it with constants, and selects among uniform elements with a run-time
// index (a chain of selects: one compare per element).
#include <functional>

#include "lowering/tile/tile_lower_internal.h"
#include "sema/dataclasses.h"

namespace lowering::tile {

TupleArg TileLowering::readTupleParam(KernelParamReader& reader, TypeId t) {
  TupleArg out;
  out.type = t;
  const Type& ty = types_.get(t);
  if (ty.kind == TypeKind::Tuple) {
    for (TypeId e : ty.elements) out.elements.push_back(readTupleParam(reader, e));
  } else if (ty.kind == TypeKind::Array) {
    static_cast<ArrayParams&>(out.array) = reader.takeArray(ty.ndim);
    if (ty.layout == frontend::Layout::C && ty.ndim > 0) out.array.strides.back() = b_.getInt64(1);
    if (ty.layout == frontend::Layout::F && ty.ndim > 0) out.array.strides.front() = b_.getInt64(1);
    out.array.facts = ty.facts;
    constantExtents(out.array);
  } else {
    out.scalar = types_.isBool(t) ? reader.takeBool(b_) : reader.take();
  }
  return out;
}

bool TileLowering::holdsArrayType(TypeId t) const {
  if (types_.isArray(t)) return true;
  if (!types_.isTuple(t)) return false;
  for (TypeId e : types_.get(t).elements) {
    if (holdsArrayType(e)) return true;
  }
  return false;
}

TupleArg TileLowering::slotsTuple(TypeId t, const TileVal& v, size_t& next) {
  TupleArg out;
  out.type = t;
  if (types_.isTuple(t)) {
    for (TypeId e : types_.get(t).elements) out.elements.push_back(slotsTuple(e, v, next));
  } else {
    out.scalar = v.slots[next++];
  }
  return out;
}

TupleArg TileLowering::instanceTuple(ExprId e) {
  const frontend::ExprMeaning& m = inst_->meanings[e.index];
  if (!(ast_.expr(e).is<ast::Call>() && m.kind == Intrinsic::HostValue && frontend::isClassPayload(m.payload))) {
    return tupleValue(e);
  }
  // The instance its own __post_init__ is given as `self` (below).
  if (auto it = postInitSelf_.find(e.index); it != postInitSelf_.end()) return it->second;
  // `Cls(x, n)` (sema's buildInstance): each field from its piece.
  TypeId t = typeOf(e);
  const frontend::TileHelperArg& h = inst_->helperArgs.at(e.index)[0];
  const std::vector<TypeId>& elements = types_.get(t).elements;
  std::map<uint32_t, TileVal> evaluated;
  TupleArg out;
  out.type = t;
  for (size_t k = 0; k < elements.size(); ++k) {
    TupleArg f;
    f.type = elements[k];
    if (types_.isArray(elements[k])) {
      f.array = arrayArg(h.pieces[k].expr);
      f.array.facts = types_.get(elements[k]).facts;
    } else {
      TileVal v = pieceValue(h.pieces[k], elements[k], evaluated);
      size_t next = 0;
      f = slotsTuple(elements[k], v, next);
    }
    out.elements.push_back(f);
  }
  postInitSelf_[e.index] = out;
  postInit(e, nullptr);
  postInitSelf_.erase(e.index);
  return out;
}

bool TileLowering::isTupleParamExpr(ExprId e) const {
  const frontend::Expr& x = ast_.expr(e);
  if (const auto* n = x.dyn<ast::Name>()) return tuples_.count(std::string(ast_.str(n->id))) != 0;
  if (const auto* s = x.dyn<ast::Subscript>()) return isTupleParamExpr(s->value);
  if (const auto* a = x.dyn<ast::Attribute>()) {
    return frontend::isDataclassType(types_, typeOf(a->value)) && isTupleParamExpr(a->value);
  }
  return false;
}

TupleArg TileLowering::selectTuple(llvm::Value* take, const TupleArg& a, const TupleArg& b) {
  TupleArg out = b;
  if (a.scalar != nullptr) {
    out.scalar = b_.CreateSelect(take, a.scalar, b.scalar);
  } else if (a.array.data != nullptr) {
    out.array.data = b_.CreateSelect(take, a.array.data, b.array.data);
    for (size_t d = 0; d < a.array.shape.size(); ++d) {
      out.array.shape[d] = b_.CreateSelect(take, a.array.shape[d], b.array.shape[d]);
      out.array.strides[d] = b_.CreateSelect(take, a.array.strides[d], b.array.strides[d]);
    }
  } else {
    for (size_t i = 0; i < a.elements.size(); ++i) out.elements[i] = selectTuple(take, a.elements[i], b.elements[i]);
  }
  return out;
}

TupleArg TileLowering::tupleValue(ExprId e) {
  const frontend::Expr& x = ast_.expr(e);
  if (const auto* n = x.dyn<ast::Name>()) return tuples_.at(std::string(ast_.str(n->id)));
  if (const auto* a = x.dyn<ast::Attribute>()) {  // a dataclass parameter's field
    TupleArg base = tupleValue(a->value);
    auto i = frontend::dataclassField(types_, typeOf(a->value), std::string(ast_.str(a->attr)));
    return base.elements[*i];
  }
  const auto& sub = x.as<ast::Subscript>();
  TupleArg base = tupleValue(sub.value);
  auto n = static_cast<int64_t>(base.elements.size());
  if (const ConstValue* c = constOf(sub.slice)) {
    int64_t i = c->kind == ConstValue::Kind::Bool ? int64_t(c->boolValue) : c->intValue;
    return base.elements[static_cast<size_t>(i < 0 ? i + n : i)];
  }
  // The checker made the elements one type.
  llvm::Value* i = runtimeTupleIndex(sub.slice, n);
  TupleArg out = base.elements.front();
  for (int64_t k = 1; k < n; ++k) {
    out = selectTuple(b_.CreateICmpEQ(i, b_.getInt64(k)), base.elements[static_cast<size_t>(k)], out);
  }
  return out;
}

llvm::Value* TileLowering::runtimeTupleIndex(ExprId slice, int64_t n) {
  llvm::Value* i = scalarAs(slice, types_.int64());
  return b_.CreateSelect(b_.CreateICmpSLT(i, b_.getInt64(0)), b_.CreateAdd(i, b_.getInt64(n)), i);
}

void TileLowering::tupleSlots(const TupleArg& t, TileVal& out) {
  if (t.scalar != nullptr) {
    out.slots.push_back(t.scalar);
    return;
  }
  assert(t.array.data == nullptr && "the checker keeps arrays out of values");
  for (const TupleArg& e : t.elements) tupleSlots(e, out);
}

TileVal TileLowering::astile(ExprId id) {
  TypeId t = typeOf(id);
  TypeId e = inst_->opTypes[id.index];
  // The leaves in row-major order, each converted to the tile's dtype.
  std::vector<llvm::Value*> leaves;
  std::function<void(const ConstValue&)> addConst = [&](const ConstValue& c) {
    if (c.kind == ConstValue::Kind::Tuple) {
      for (const ConstValue& x : c.elements) addConst(x);
    } else {
      leaves.push_back(constantOf(c, e));
    }
  };
  std::function<void(ExprId)> walk = [&](ExprId x) {
    if (const auto* tuple = ast_.expr(x).dyn<ast::Tuple>()) {
      for (ExprId y : ast_.list(tuple->elts)) walk(y);
    } else if (const ConstValue* c = constOf(x)) {
      addConst(*c);
    } else if (types_.isTuple(typeOf(x))) {
      std::vector<TypeId> elements = types_.get(typeOf(x)).elements;
      std::vector<TileVal> parts = tupleParts(eval(x), typeOf(x));
      for (size_t i = 0; i < parts.size(); ++i) leaves.push_back(convert(parts[i].slots[0], elements[i], e));
    } else {
      leaves.push_back(convert(eval(x).slots[0], typeOf(x), e));
    }
  };
  walk(arg(id, 0));
  if (!types_.isTile(t)) return TileVal{{leaves[0]}};
  Layout l = layoutOf(t);
  TileVal out;
  for (unsigned s = 0; s < l.slots; ++s) {
    llvm::Value* index = elementIndex(l, s);
    llvm::Value* v = leaves[0];
    for (size_t k = 1; k < leaves.size(); ++k) {
      v = b_.CreateSelect(b_.CreateICmpEQ(index, b_.getInt32(static_cast<uint32_t>(k))), leaves[k], v);
    }
    out.slots.push_back(v);
  }
  return out;
}

TileLowering::ComparePart TileLowering::comparePart(ExprId e) {
  ComparePart p;
  if (const ConstValue* c = constOf(e)) {
    p.constant = *c;
    p.isConst = true;
    return p;
  }
  p.type = typeOf(e);
  p.value = types_.isTuple(p.type) ? evalTuple(e, p.type) : eval(e);
  return p;
}

std::vector<TileLowering::ComparePart> TileLowering::compareItems(const ComparePart& p) {
  std::vector<ComparePart> out;
  if (p.isConst) {
    for (const ConstValue& c : p.constant.elements) {
      ComparePart e;
      e.constant = c;
      e.isConst = true;
      out.push_back(std::move(e));
    }
    return out;
  }
  std::vector<TypeId> elements = types_.get(p.type).elements;
  std::vector<TileVal> parts = tupleParts(p.value, p.type);
  for (size_t i = 0; i < parts.size(); ++i) {
    ComparePart e;
    e.type = elements[i];
    e.value = parts[i];
    out.push_back(std::move(e));
  }
  return out;
}

llvm::Value* TileLowering::partsEqual(const ComparePart& a, const ComparePart& b) {
  auto tuple = [&](const ComparePart& p) {
    return p.isConst ? p.constant.kind == ConstValue::Kind::Tuple : types_.isTuple(p.type);
  };
  if (a.isConst && b.isConst) {
    auto eq = frontend::foldCompare(frontend::CmpOp::Eq, a.constant, b.constant);
    return b_.getInt1(eq && frontend::truthOf(*eq));
  }
  if (tuple(a) != tuple(b)) return b_.getInt1(false);
  if (tuple(a)) {
    std::vector<ComparePart> x = compareItems(a), y = compareItems(b);
    if (x.size() != y.size()) return b_.getInt1(false);
    llvm::Value* all = b_.getInt1(true);
    for (size_t i = 0; i < x.size(); ++i) all = b_.CreateAnd(all, partsEqual(x[i], y[i]));
    return all;
  }
  // Numbers: compared as float64 when either is a float, else as int64.
  auto isFloat = [&](const ComparePart& p) {
    return p.isConst ? p.constant.kind == ConstValue::Kind::Float : types_.isFloat(p.type);
  };
  TypeId common = isFloat(a) || isFloat(b) ? types_.float64() : types_.int64();
  auto value = [&](const ComparePart& p) {
    return p.isConst ? constantOf(p.constant, common) : convert(p.value.slots[0], p.type, common);
  };
  llvm::Value* x = value(a);
  llvm::Value* y = value(b);
  return types_.isFloat(common) ? b_.CreateFCmpOEQ(x, y) : b_.CreateICmpEQ(x, y);
}

TileVal TileLowering::compareTuples(frontend::CmpOp cmp, ExprId left, ExprId right) {
  ComparePart l = comparePart(left), r = comparePart(right);
  llvm::Value* out;
  if (cmp == frontend::CmpOp::In || cmp == frontend::CmpOp::NotIn) {
    out = b_.getInt1(false);
    for (const ComparePart& e : compareItems(r)) out = b_.CreateOr(out, partsEqual(l, e));
  } else {
    out = partsEqual(l, r);
  }
  if (cmp == frontend::CmpOp::NotIn || cmp == frontend::CmpOp::NotEq) out = b_.CreateNot(out);
  return TileVal{{out}};
}

}  // namespace lowering::tile
