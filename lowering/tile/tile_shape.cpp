// Helpers: tuples, shape operations (reshape, permute, broadcast, cat), argmax/argmin.
#include "lowering/tile/tile_lower_internal.h"
#include "sema/dataclasses.h"

#include <functional>

namespace lowering::tile {

int64_t TileLowering::largestTile(const frontend::FunctionInstance& inst) const {
  int64_t most = 1;
  for (TypeId t : inst.exprTypes) {
    if (t.valid() && types_.isTile(t)) most = std::max(most, elementsOf(t));
  }
  for (int32_t callee : inst.callees) {
    if (callee >= 0) most = std::max(most, largestTile(typed_.instances[static_cast<size_t>(callee)]));
  }
  for (const frontend::StaticUnroll& u : inst.unrolled) {
    for (const frontend::FunctionInstance& it : u.iterations) most = std::max(most, largestTile(it));
  }
  return most;
}

std::vector<llvm::Type*> TileLowering::slotTypes(TypeId t) {
  std::vector<llvm::Type*> out;
  if (types_.isTuple(t)) {
    for (TypeId e : std::vector<TypeId>(types_.get(t).elements)) {
      std::vector<llvm::Type*> more = slotTypes(e);
      out.insert(out.end(), more.begin(), more.end());
    }
    return out;
  }
  out.assign(layoutOf(t).slots, llvmType(elementOf(t)));
  return out;
}

TileVal TileLowering::evalTuple(ExprId id, TypeId to) {
  std::vector<TypeId> elements = types_.get(to).elements;
  TileVal out;
  auto append = [&](const TileVal& v) { out.slots.insert(out.slots.end(), v.slots.begin(), v.slots.end()); };
  if (const ConstValue* c = constOf(id)) {
    for (size_t i = 0; i < elements.size(); ++i) {
      TileVal v;
      v.slots.assign(layoutOf(elements[i]).slots, constantOf(c->elements[i], elements[i]));
      append(v);
    }
    return out;
  }
  if (const auto* tuple = ast_.expr(id).dyn<ast::Tuple>()) {
    size_t k = 0;  // the next element of `to` (a starred tuple fills several)
    for (ExprId elt : ast_.list(tuple->elts)) {
      if (const auto* star = ast_.expr(elt).dyn<ast::Starred>()) {
        const ConstValue* c = constOf(star->value);
        size_t n = c != nullptr ? c->elements.size() : types_.get(typeOf(star->value)).elements.size();
        TypeId part = types_.tuple(std::vector<TypeId>(elements.begin() + static_cast<std::ptrdiff_t>(k),
                                                       elements.begin() + static_cast<std::ptrdiff_t>(k + n)));
        append(evalTuple(star->value, part));
        k += n;
      } else {
        append(evalAs(elt, elements[k++]));
      }
    }
    return out;
  }
  TypeId from = typeOf(id);
  std::vector<TileVal> parts = tupleParts(eval(id), from);
  // Nested tuples element by element (spread takes one tile or number).
  std::function<TileVal(const TileVal&, TypeId, TypeId)> convertPart = [&](const TileVal& v, TypeId f, TypeId t) {
    if (!types_.isTuple(t)) return spread(v, f, t);
    if (f == t) return v;
    TileVal r;
    std::vector<TileVal> inner = tupleParts(v, f);
    const std::vector<TypeId> fe = types_.get(f).elements;
    const std::vector<TypeId> te = types_.get(t).elements;
    for (size_t k = 0; k < te.size(); ++k) {
      TileVal e = convertPart(inner[k], fe[k], te[k]);
      r.slots.insert(r.slots.end(), e.slots.begin(), e.slots.end());
    }
    return r;
  };
  const std::vector<TypeId> fromElements = types_.get(from).elements;
  for (size_t i = 0; i < elements.size(); ++i) append(convertPart(parts[i], fromElements[i], elements[i]));
  return out;
}

std::vector<TileVal> TileLowering::tupleParts(const TileVal& v, TypeId tupleType) {
  std::vector<TileVal> parts;
  size_t offset = 0;
  for (TypeId e : types_.get(tupleType).elements) {
    size_t n = slotTypes(e).size();
    TileVal part;
    part.slots.assign(v.slots.begin() + static_cast<std::ptrdiff_t>(offset),
                      v.slots.begin() + static_cast<std::ptrdiff_t>(offset + n));
    offset += n;
    parts.push_back(std::move(part));
  }
  return parts;
}

void TileLowering::lowerTupleAssign(ExprId target, ExprId value) {
  auto names = ast_.list(*unpackingTargets(ast_, target));
  if (const ConstValue* c = constOf(value)) {
    for (size_t i = 0; i < names.size(); ++i) {
      TypeId to = typeOf(names[i]);
      if (!to.valid() || constOf(names[i]) != nullptr) continue;
      TileVal v;
      v.slots.assign(layoutOf(to).slots, constantOf(c->elements[i], to));
      assignName(names[i], v, to);
    }
    return;
  }
  TypeId tt = typeOf(target);
  std::function<bool(TypeId)> holdsArray = [&](TypeId t) {
    if (types_.isArray(t)) return true;
    if (!types_.isTuple(t)) return false;
    for (TypeId e : types_.get(t).elements) {
      if (holdsArray(e)) return true;
    }
    return false;
  };
  if (tt.valid() && isTupleParamExpr(value) && holdsArray(tt)) {
    // `item, out = t` of a tuple parameter holding arrays: each name that element.
    TupleArg t = tupleValue(value);
    for (size_t i = 0; i < names.size(); ++i) {
      std::string name(ast_.str(ast_.expr(names[i]).as<ast::Name>().id));
      const TupleArg& e = t.elements[i];
      TypeId et = e.type;
      if (types_.isArray(et)) {
        ArrayArgs a = e.array;
        a.facts = types_.get(et).facts;
        assignArray(name, a);
      } else if (types_.isTuple(et)) {
        tuples_[name] = e;
      } else {
        TileVal v;
        tupleSlots(e, v);
        assignName(names[i], v, et);
      }
    }
    return;
  }
  if (!tt.valid() && !ast_.expr(value).is<ast::Tuple>()) {
    // Compile-time values unpacked (a tuple of functions): only what its calls do.
    lowerCompileTimeCalls(value);
    return;
  }
  if (!tt.valid()) {
    // A display unpacked element by element (sema's unpackDisplay): each value first.
    auto elts = ast_.list(ast_.expr(value).as<ast::Tuple>().elts);
    std::vector<std::pair<TileVal, ArrayArgs>> got(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
      TypeId to = typeOf(names[i]);
      if (!to.valid() || constOf(names[i]) != nullptr) continue;
      if (types_.isArray(to)) {
        got[i].second = arrayArg(elts[i]);
      } else {
        got[i].first = evalAs(elts[i], to);
      }
    }
    for (size_t i = 0; i < names.size(); ++i) {
      TypeId to = typeOf(names[i]);
      if (!to.valid() || constOf(names[i]) != nullptr) continue;
      if (types_.isArray(to)) {
        assignArray(std::string(ast_.str(ast_.expr(names[i]).as<ast::Name>().id)), got[i].second);
      } else {
        assignName(names[i], got[i].first, to);
      }
    }
    return;
  }
  std::vector<TileVal> parts = tupleParts(evalAs(value, tt), tt);
  for (size_t i = 0; i < names.size(); ++i) {
    if (constOf(names[i]) != nullptr) continue;  // a constant element (sema's knownOf)
    assignName(names[i], parts[i], types_.get(tt).elements[i]);
  }
}

void TileLowering::lowerCompileTimeCalls(ExprId e) {
  if (!e.valid() || constOf(e) != nullptr) return;
  const frontend::Expr& x = ast_.expr(e);
  if (const auto* c = x.dyn<ast::Call>()) {
    if (inst_->callees[e.index] >= 0 && !typeOf(e).valid()) {
      inlineHelper(e);
      return;
    }
    lowerCompileTimeCalls(c->func);
  } else if (const auto* s = x.dyn<ast::Subscript>()) {
    lowerCompileTimeCalls(s->value);
  } else if (const auto* t = x.dyn<ast::Tuple>()) {
    for (ExprId elt : ast_.list(t->elts)) lowerCompileTimeCalls(elt);
  }
}

TileVal TileLowering::inlineHelper(ExprId id, const std::vector<TileVal>* given,
                                   std::function<void(TileLowering&)>* onYield) {
  // A closure called through a compile-time expression (`make(t)[0](v)`): that first.
  if (given == nullptr) {
    if (const auto* call = ast_.expr(id).dyn<ast::Call>()) lowerCompileTimeCalls(call->func);
  }
  const frontend::FunctionInstance& helper = typed_.instances[static_cast<size_t>(inst_->callees[id.index])];
  const frontend::JitFunction& hf = typed_.module.functions[helper.function];
  std::vector<std::tuple<std::string, TileVal, TypeId>> values;
  std::vector<std::pair<std::string, ArrayArgs>> arrays;
  // `*args`, `**kwargs` and splices (docs/TILE.md, "Helper functions"): each parameter's
  // pieces; a tuple evaluated once however many of its elements are passed.
  auto pieces = inst_->helperArgs.find(id.index);
  std::map<uint32_t, TileVal> evaluated;
  std::vector<std::pair<std::string, TupleArg>> instances;
  for (size_t p = 0; p < helper.argTypes.size() && p < hf.params.size(); ++p) {
    TypeId pt = helper.argTypes[p];
    if (!pt.valid()) continue;
    if (frontend::isDataclassType(types_, pt) && holdsArrayType(pt) && (given == nullptr || p >= given->size())) {
      // A dataclass instance holding arrays: the parameter stands for the caller's.
      ExprId a = pieces != inst_->helperArgs.end() ? pieces->second[p].pieces[0].expr : arg(id, p);
      instances.emplace_back(hf.params[p], instanceTuple(a));
      continue;
    }
    if (given != nullptr && p < given->size()) {
      values.emplace_back(hf.params[p], (*given)[p], pt);
      continue;
    }
    if (pieces != inst_->helperArgs.end()) {
      const frontend::TileHelperArg& h = pieces->second[p];
      if (types_.isArray(pt)) {
        const frontend::TileArgPiece& a = h.pieces[0];
        arrays.emplace_back(hf.params[p], a.var.empty() ? arrayArg(a.expr) : namedArray(a.var, a.varType));
      } else if (h.packed) {
        TileVal v;
        const std::vector<TypeId>& elements = types_.get(pt).elements;
        for (size_t k = 0; k < elements.size(); ++k) {
          TileVal e = pieceValue(h.pieces[k], elements[k], evaluated);
          v.slots.insert(v.slots.end(), e.slots.begin(), e.slots.end());
        }
        values.emplace_back(hf.params[p], v, pt);
      } else {
        values.emplace_back(hf.params[p], pieceValue(h.pieces[0], pt, evaluated), pt);
      }
      continue;
    }
    ExprId a = arg(id, p);
    if (types_.isArray(pt)) {
      arrays.emplace_back(hf.params[p], arrayArg(a));
    } else {
      values.emplace_back(hf.params[p], evalAs(a, pt), pt);
    }
  }
  TileLowering child(*this, helper);
  child.accessed_ = accessed_;
  for (auto& [name, a] : arrays) child.arrays_[name] = a;
  for (auto& [name, t] : instances) child.tuples_[name] = t;
  for (auto& [name, v, pt] : values) {
    const auto& slots = child.storage(name, pt);
    for (size_t s = 0; s < slots.size(); ++s) child.b_.CreateStore(v.slots[s], slots[s]);
  }
  // Closures' run-time captures passed on (sema's hiddenArgs).
  if (auto hidden = inst_->hiddenArgs.find(id.index); hidden != inst_->hiddenArgs.end()) {
    for (const frontend::TileHiddenArg& h : hidden->second) {
      if (types_.isArray(h.type)) {
        child.arrays_[h.name] = h.piece.var.empty() ? arrayArg(h.piece.expr) : namedArray(h.piece.var, h.piece.varType);
        continue;
      }
      TileVal v = pieceValue(h.piece, h.type, evaluated);
      const auto& slots = child.storage(h.name, h.type);
      for (size_t s = 0; s < slots.size(); ++s) child.b_.CreateStore(v.slots[s], slots[s]);
    }
  }
  child.yieldHook_ = onYield;
  TileVal result = child.inlineBody();
  accessed_ = child.accessed_;
  scratch_ = child.scratch_;
  scratchBytes_ = std::max(scratchBytes_, child.scratchBytes_);
  usesTensorCores_ = usesTensorCores_ || child.usesTensorCores_;
  b_.SetInsertPoint(child.b_.GetInsertBlock());
  copyExports(child, id);
  return result;
}

void TileLowering::copyExports(TileLowering& child, ExprId id) {
  // A returned closure's captures of the helper's own values, kept here.
  if (auto exports = inst_->exports.find(id.index); exports != inst_->exports.end()) {
    for (const frontend::TileHiddenArg& e : exports->second) {
      if (types_.isArray(e.type)) {
        assignArray(e.name, child.namedArray(e.piece.var, e.type));
        continue;
      }
      TileVal v = child.namedValue(e.piece.var, e.type);
      const auto& slots = storage(e.name, e.type);
      for (size_t s = 0; s < slots.size(); ++s) b_.CreateStore(v.slots[s], slots[s]);
    }
  }
}

TileVal TileLowering::constantValue(const ConstValue& c, TypeId to) {
  TileVal v;
  if (types_.isTuple(to)) {
    const std::vector<TypeId>& elements = types_.get(to).elements;
    for (size_t k = 0; k < elements.size(); ++k) {
      TileVal e = constantValue(c.elements[k], elements[k]);
      v.slots.insert(v.slots.end(), e.slots.begin(), e.slots.end());
    }
    return v;
  }
  v.slots.assign(layoutOf(to).slots, constantOf(c, to));
  v.splat = true;
  return v;
}

TileVal TileLowering::pieceValue(const frontend::TileArgPiece& p, TypeId to, std::map<uint32_t, TileVal>& evaluated) {
  if (!p.var.empty()) {
    // A closure's capture: the variable as it holds now.
    TileVal v = namedValue(p.var, p.varType);
    if (types_.isTuple(to)) return v;
    return spread(v, p.varType, to);
  }
  if (p.path.empty()) return evalAs(p.expr, to);
  if (const ConstValue* c = constOf(p.expr)) {
    for (uint32_t k : p.path) c = &c->elements[k];
    return constantValue(*c, to);
  }
  TypeId t = typeOf(p.expr);
  auto it = evaluated.find(p.expr.index);
  if (it == evaluated.end()) it = evaluated.emplace(p.expr.index, eval(p.expr)).first;
  TileVal v = it->second;
  for (uint32_t k : p.path) {
    v = tupleParts(v, t)[k];
    t = types_.get(t).elements[k];
  }
  if (types_.isTuple(t)) return v;
  return spread(v, t, to);
}

std::span<const StmtId> TileLowering::functionBody() const {
  if (!fn_.stmt.valid()) return {};
  return ast_.list(ast_.stmt(fn_.stmt).functionDef()->body);
}

frontend::NodeRange TileLowering::functionRange() const {
  return fn_.stmt.valid() ? ast_.stmt(fn_.stmt).range : ast_.expr(fn_.lambda).range;
}

TileVal TileLowering::inlineBody() {
  TypeId rt = inst_->returnType;
  exit_ = llvm::BasicBlock::Create(context_, "inline.done", function_);
  // An array's slots are made at the first return (its pointer's type).
  std::vector<llvm::Type*> slots =
      types_.isNone(rt) || types_.isArray(rt) ? std::vector<llvm::Type*>{} : slotTypes(rt);
  for (llvm::Type* t : slots) returnSlots_.push_back(entryAlloca(t, fn_.name + ".ret"));
  findMmaVars(functionBody());
  lowerBody(functionBody());
  if (fn_.lambda.valid() && !b_.GetInsertBlock()->getTerminator()) {
    // A lambda: its expression is the result.
    ExprId value = ast_.expr(fn_.lambda).as<ast::Lambda>().body;
    if (!returnSlots_.empty()) {
      TileVal v = evalAs(value, rt);
      for (size_t s = 0; s < returnSlots_.size(); ++s) b_.CreateStore(v.slots[s], returnSlots_[s]);
    } else if (constOf(value) == nullptr && inst_->exprTypes[value.index].valid()) {
      eval(value);
    }
  }
  if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(exit_);
  b_.SetInsertPoint(exit_);
  TileVal out;
  for (llvm::AllocaInst* a : returnSlots_) out.slots.push_back(b_.CreateLoad(a->getAllocatedType(), a));
  return out;
}

void TileLowering::lowerInlineReturn(const ast::Return& r) {
  if (r.value.valid() && types_.isArray(inst_->returnType)) {
    ArrayArgs a = arrayArg(r.value);
    std::vector<llvm::Value*> parts{a.data};
    parts.insert(parts.end(), a.shape.begin(), a.shape.end());
    parts.insert(parts.end(), a.strides.begin(), a.strides.end());
    if (returnSlots_.empty()) {
      for (llvm::Value* x : parts) returnSlots_.push_back(entryAlloca(x->getType(), fn_.name + ".ret"));
    }
    for (size_t s = 0; s < parts.size(); ++s) b_.CreateStore(parts[s], returnSlots_[s]);
  } else if (r.value.valid() && !returnSlots_.empty()) {
    TileVal v = evalAs(r.value, inst_->returnType);
    for (size_t s = 0; s < returnSlots_.size(); ++s) b_.CreateStore(v.slots[s], returnSlots_[s]);
  }
  lowerExit(ExitKind::Return);
}

TileVal TileLowering::builtinMinMax(ExprId id, bool isMax) {
  TypeId t = inst_->opTypes[id.index];
  TypeId result = typeOf(id);
  TypeId opTile = types_.isTile(result) ? types_.tile(t, types_.get(result).shape) : t;
  auto it = inst_->callArguments.find(id.index);
  bool isFloat = types_.isFloat(t);
  bool isSigned = types_.get(t).isSigned;
  TileVal r;
  bool first = true;
  for (ExprId a : it->second) {
    TileVal v = evalAs(a, opTile);
    if (first) {
      r = v;
      first = false;
      continue;
    }
    r.splat = r.splat && v.splat;
    for (size_t s = 0; s < r.slots.size(); ++s) {
      llvm::Value* better;
      if (isFloat) {
        better = isMax ? b_.CreateFCmpOGT(v.slots[s], r.slots[s]) : b_.CreateFCmpOLT(v.slots[s], r.slots[s]);
      } else if (isSigned) {
        better = isMax ? b_.CreateICmpSGT(v.slots[s], r.slots[s]) : b_.CreateICmpSLT(v.slots[s], r.slots[s]);
      } else {
        better = isMax ? b_.CreateICmpUGT(v.slots[s], r.slots[s]) : b_.CreateICmpULT(v.slots[s], r.slots[s]);
      }
      r.slots[s] = b_.CreateSelect(better, v.slots[s], r.slots[s]);
    }
  }
  for (llvm::Value*& x : r.slots) x = convert(x, t, elementOf(result));
  return r;
}

TileVal TileLowering::ifExp(ExprId id, const ast::IfExp& e, TypeId t) {
  if (const ConstValue* c = constOf(e.test)) return evalAs(frontend::truthOf(*c) ? e.body : e.orelse, t);
  llvm::Value* cond = scalarAs(e.test, types_.boolean());
  TileVal x = evalAs(e.body, t);
  TileVal y = evalAs(e.orelse, t);
  for (size_t s = 0; s < x.slots.size(); ++s) x.slots[s] = b_.CreateSelect(cond, x.slots[s], y.slots[s]);
  (void)id;
  return x;
}

TileVal TileLowering::boolOp(const ast::BoolOp& bo) {
  llvm::Value* r = nullptr;
  for (ExprId v : ast_.list(bo.values)) {
    llvm::Value* x = scalarAs(v, types_.boolean());
    r = r == nullptr ? x : bo.op == frontend::BoolOpKind::And ? b_.CreateAnd(r, x) : b_.CreateOr(r, x);
  }
  return TileVal{{r}};
}

TileVal TileLowering::shapeOp(ExprId id, TileFn fn, TypeId t) {
  ExprId xe = arg(id, 0);
  TypeId xt = types_.tile(elementOf(t), types_.get(typeOf(xe)).shape);
  TileVal x = evalAs(xe, xt);
  if (fn == TileFn::Reshape || fn == TileFn::ExpandDims) {
    return relayout(x, xt, t, true, [](llvm::Value* e) { return e; });
  }
  const std::vector<int64_t>& in = types_.get(xt).shape;
  const std::vector<int64_t>& out = types_.get(t).shape;
  size_t n = in.size();
  std::vector<size_t> perm(n);
  for (size_t k = 0; k < n; ++k) perm[k] = k;
  if (fn == TileFn::Permute) {
    const ConstValue* axes = constOf(arg(id, 1));
    for (size_t k = 0; k < n; ++k) {
      int64_t a = axes->kind == ConstValue::Kind::Int ? axes->intValue : axes->elements[k].intValue;
      perm[k] = static_cast<size_t>(a < 0 ? a + static_cast<int64_t>(n) : a);
    }
  } else {
    int64_t a0 = constIntArg(id, 1, 0);
    int64_t a1 = constIntArg(id, 2, 1);
    if (a0 < 0) a0 += static_cast<int64_t>(n);
    if (a1 < 0) a1 += static_cast<int64_t>(n);
    std::swap(perm[static_cast<size_t>(a0)], perm[static_cast<size_t>(a1)]);
  }
  std::vector<int64_t> inStride(n);
  int64_t inner = 1;
  for (size_t d = n; d-- > 0;) {
    inStride[d] = inner;
    inner *= in[d];
  }
  return relayout(x, xt, t, false, [&](llvm::Value* e) {
    std::vector<llvm::Value*> oi = multiIndex(e, out);
    llvm::Value* src = b_.getInt32(0);
    // Output axis k is input axis perm[k].
    for (size_t k = 0; k < n; ++k) {
      if (in[perm[k]] == 1) continue;
      src = b_.CreateAdd(src, b_.CreateMul(oi[k], b_.getInt32(static_cast<uint32_t>(inStride[perm[k]]))));
    }
    return src;
  });
}

namespace {

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> stride(shape.size());
  int64_t inner = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    stride[d] = inner;
    inner *= shape[d];
  }
  return stride;
}

}  // namespace

TileVal TileLowering::extract(ExprId id, TypeId t) {
  ExprId xe = arg(id, 0);
  TypeId xt = typeOf(xe);
  TileVal x = evalAs(xe, xt);
  const std::vector<int64_t>& in = types_.get(xt).shape;
  bool scalar = !types_.isTile(t);
  std::vector<int64_t> sub = scalar ? std::vector<int64_t>(in.size(), 1) : types_.get(t).shape;
  std::vector<int64_t> stride = rowMajorStrides(in);
  llvm::Value* first = subTileStart(arg(id, 1), in, sub);
  if (scalar) {
    TypeId e = elementOf(xt);
    llvm::Value* buffer = stage(x, xt, layoutFor(xt, x.mma));
    llvm::Value* v = b_.CreateLoad(memoryType(e), b_.CreateGEP(memoryType(e), buffer, first));
    if (types_.isBool(e)) v = b_.CreateICmpNE(v, b_.getInt8(0));
    return TileVal{{v}};
  }
  return relayout(x, xt, t, false, [&](llvm::Value* e) { return windowElement(first, e, sub, stride); });
}

llvm::Value* TileLowering::subTileStart(ExprId index, const std::vector<int64_t>& in, const std::vector<int64_t>& sub) {
  // Sub-tile counts are powers of two: a run-time index outside them wraps (cuTile
  // leaves it undefined) instead of reaching past the staged tile.
  std::vector<int64_t> stride = rowMajorStrides(in);
  std::vector<llvm::Value*> items = indexValues(index);
  llvm::Value* first = b_.getInt32(0);
  for (size_t d = 0; d < in.size(); ++d) {
    int64_t count = in[d] / sub[d];
    if (count == 1) continue;
    llvm::Value* i = b_.CreateTrunc(items[d], b_.getInt32Ty());
    i = b_.CreateAnd(i, b_.getInt32(static_cast<uint32_t>(count - 1)));
    first = b_.CreateAdd(first, b_.CreateMul(i, b_.getInt32(static_cast<uint32_t>(sub[d] * stride[d]))));
  }
  return first;
}

llvm::Value* TileLowering::windowElement(llvm::Value* first, llvm::Value* e, const std::vector<int64_t>& sub,
                                         const std::vector<int64_t>& stride) {
  std::vector<llvm::Value*> oi = multiIndex(e, sub);
  llvm::Value* at = first;
  for (size_t d = 0; d < sub.size(); ++d) {
    if (sub[d] == 1) continue;
    at = b_.CreateAdd(at, b_.CreateMul(oi[d], b_.getInt32(static_cast<uint32_t>(stride[d]))));
  }
  return at;
}

TileVal TileLowering::loadStaged(llvm::Value* buffer, TypeId t, const Layout& l) {
  TypeId e = elementOf(t);
  TileVal out;
  for (unsigned s = 0; s < l.slots; ++s) {
    llvm::Value* index = clampIndex(elementIndex(l, s), l);  // spare slots read a real element
    llvm::Value* v = b_.CreateLoad(memoryType(e), b_.CreateGEP(memoryType(e), buffer, index));
    if (types_.isBool(e)) v = b_.CreateICmpNE(v, b_.getInt8(0));
    out.slots.push_back(v);
  }
  return out;
}

TileVal TileLowering::insert(ExprId id, TypeId t) {
  // x staged in shared memory, y's elements written over its window, then read back.
  TileVal x = evalAs(arg(id, 0), t);
  Layout lx = layoutFor(t, x.mma);
  const std::vector<int64_t>& in = types_.get(t).shape;
  TypeId yt = inst_->opTypes[id.index];
  bool scalar = !types_.isTile(yt);
  std::vector<int64_t> sub = scalar ? std::vector<int64_t>(in.size(), 1) : types_.get(yt).shape;
  std::vector<int64_t> stride = rowMajorStrides(in);
  llvm::Value* first = subTileStart(arg(id, 1), in, sub);
  TypeId e = elementOf(t);
  llvm::Value* buffer = stage(x, t, lx);
  TileVal y = evalAs(arg(id, 2), scalar ? e : yt);
  Layout ly = layoutFor(scalar ? types_.tile(e, sub) : yt, y.mma);
  for (unsigned s = 0; s < ly.slots; ++s) {
    llvm::Value* v = y.slots[y.slots.size() == 1 ? 0 : s];
    if (types_.isBool(e)) v = b_.CreateZExt(v, b_.getInt8Ty());
    llvm::Value* p = b_.CreateGEP(memoryType(e), buffer, windowElement(first, elementIndex(ly, s), sub, stride));
    if (ly.partial) {
      guarded(slotValid(ly), [&] { b_.CreateStore(v, p); });
    } else {
      b_.CreateStore(v, p);
    }
  }
  barrier();
  TileVal out = loadStaged(buffer, t, lx);
  out.mma = x.mma;
  barrier();
  return out;
}

TileVal TileLowering::reinterpretBytes(ExprId id, TypeId t) {
  TypeId from = inst_->opTypes[id.index];
  Layout lx = layoutOf(from);
  llvm::Value* buffer = stage(evalAs(arg(id, 0), from), from, lx);
  bool pack = types_.isFloat4(elementOf(from));
  if (!pack && !types_.isFloat4(elementOf(t))) {
    TileVal out = loadStaged(buffer, t, layoutOf(t));
    barrier();
    return out;
  }
  // float4_e2m1fn: staged one code per byte; packed two per byte, element 2j in byte j's
  // low nibble and 2j + 1 in its high nibble (cuTile's and PyTorch's float4_e2m1fn_x2).
  Layout l = layoutOf(t);
  llvm::Type* i8 = b_.getInt8Ty();
  TileVal out;
  for (unsigned s = 0; s < l.slots; ++s) {
    llvm::Value* index = clampIndex(elementIndex(l, s), l);
    llvm::Value* v;
    if (pack) {
      llvm::Value* first = b_.CreateShl(index, b_.getInt32(1));
      llvm::Value* lo = b_.CreateLoad(i8, b_.CreateGEP(i8, buffer, first));
      llvm::Value* hi = b_.CreateLoad(i8, b_.CreateGEP(i8, buffer, b_.CreateAdd(first, b_.getInt32(1))));
      v = b_.CreateOr(b_.CreateAnd(lo, b_.getInt8(0xF)), b_.CreateShl(hi, b_.getInt8(4)));
    } else {
      llvm::Value* byte = b_.CreateLoad(i8, b_.CreateGEP(i8, buffer, b_.CreateLShr(index, b_.getInt32(1))));
      llvm::Value* shift = b_.CreateTrunc(b_.CreateShl(b_.CreateAnd(index, b_.getInt32(1)), b_.getInt32(2)), i8);
      v = b_.CreateAnd(b_.CreateLShr(byte, shift), b_.getInt8(0xF));
    }
    out.slots.push_back(v);
  }
  barrier();
  return out;
}

TileVal TileLowering::cat(ExprId id, TypeId t) {
  std::vector<ExprId> items = indexItems(arg(id, 0));
  if (items.size() == 1) return evalAs(items[0], t);
  TypeId ht = typeOf(items[0]);
  TypeId e = elementOf(t);
  TileVal x = evalAs(items[0], ht);
  TileVal y = evalAs(items[1], ht);
  const std::vector<int64_t>& half = types_.get(ht).shape;
  const std::vector<int64_t>& out = types_.get(t).shape;
  size_t axis = 0;
  while (axis + 1 < out.size() && out[axis] == half[axis]) ++axis;
  std::vector<int64_t> stride = rowMajorStrides(half);
  Layout lx = layoutFor(ht, x.mma);
  Layout ly = layoutFor(ht, y.mma);
  // x at [0, n), y at [n, 2n), each row-major; every output element reads its own.
  llvm::Value* buffer = scratch(2 * static_cast<uint64_t>(lx.n) * types_.byteSize(e));
  barrier();
  storeSlots(x, ht, lx, buffer, 0);
  storeSlots(y, ht, ly, buffer, lx.n);
  barrier();
  Layout lt = layoutOf(t);
  TileVal r;
  for (unsigned s = 0; s < lt.slots; ++s) {
    std::vector<llvm::Value*> oi = multiIndex(clampIndex(elementIndex(lt, s), lt), out);
    llvm::Value* h = b_.getInt32(static_cast<uint32_t>(half[axis]));
    llvm::Value* second = b_.CreateICmpUGE(oi[axis], h);
    llvm::Value* src = b_.CreateSelect(second, b_.getInt32(static_cast<uint32_t>(lx.n)), b_.getInt32(0));
    oi[axis] = b_.CreateSelect(second, b_.CreateSub(oi[axis], h), oi[axis]);
    for (size_t d = 0; d < out.size(); ++d) {
      if (half[d] == 1) continue;
      src = b_.CreateAdd(src, b_.CreateMul(oi[d], b_.getInt32(static_cast<uint32_t>(stride[d]))));
    }
    llvm::Value* v = b_.CreateLoad(memoryType(e), b_.CreateGEP(memoryType(e), buffer, src));
    if (types_.isBool(e)) v = b_.CreateICmpNE(v, b_.getInt8(0));
    r.slots.push_back(v);
  }
  return r;
}

llvm::Value* TileLowering::argBetter(bool isMax, TypeId e, llvm::Value* a, llvm::Value* ia, llvm::Value* c,
                       llvm::Value* ic) {
  const Type& et = types_.get(e);
  llvm::Value* earlier = b_.CreateICmpSLT(ic, ia);
  if (et.kind == TypeKind::Float) {
    llvm::Value* aNan = b_.CreateFCmpUNO(a, a);
    llvm::Value* cNan = b_.CreateFCmpUNO(c, c);
    llvm::Value* beats = isMax ? b_.CreateFCmpOGT(c, a) : b_.CreateFCmpOLT(c, a);
    llvm::Value* ties = b_.CreateAnd(b_.CreateFCmpOEQ(c, a), earlier);
    // Two NaNs tie (the earlier index wins). cuTile's propagate_nan=True: NaN beats every
    // number (NumPy's argmax); by default a number beats NaN.
    if (reduceFlags_.propagateNan) {
      llvm::Value* number = b_.CreateAnd(b_.CreateNot(aNan), b_.CreateOr(beats, ties));
      llvm::Value* nan = b_.CreateOr(b_.CreateNot(aNan), earlier);
      return b_.CreateSelect(cNan, nan, number);
    }
    llvm::Value* number = b_.CreateOr(aNan, b_.CreateOr(beats, ties));
    llvm::Value* nan = b_.CreateAnd(aNan, earlier);
    return b_.CreateSelect(cNan, nan, number);
  }
  bool isSigned = et.kind == TypeKind::Int && et.isSigned;
  llvm::Value* beats = isMax ? (isSigned ? b_.CreateICmpSGT(c, a) : b_.CreateICmpUGT(c, a))
                             : (isSigned ? b_.CreateICmpSLT(c, a) : b_.CreateICmpULT(c, a));
  return b_.CreateOr(beats, b_.CreateAnd(b_.CreateICmpEQ(c, a), earlier));
}

TileVal TileLowering::argReduce(ExprId id, TileFn fn, TypeId t) {
  FlagsScope flags(*this, reduceFlagsOf(id, fn));
  bool isMax = fn == TileFn::Argmax;
  ExprId xe = arg(id, 0);
  TypeId xt = typeOf(xe);
  TypeId e = elementOf(xt);
  TileVal x = evalAs(xe, xt);
  Layout lx = layoutOf(xt);
  Layout lo = layoutOf(t);
  llvm::Type* vt = llvmType(e);
  llvm::Value* noIndex = b_.getInt32(INT32_MAX);
  const std::vector<int64_t>& xs = types_.get(xt).shape;
  ExprId axisExpr = arg(id, 1);
  const ConstValue* axisConst = axisExpr.valid() ? constOf(axisExpr) : nullptr;
  bool all = axisConst == nullptr || axisConst->kind != ConstValue::Kind::Int;
  if (all) {
    // An empty slot (partial layouts) has no index: it never wins.
    llvm::Value* best = x.slots[0];
    llvm::Value* at = b_.CreateSelect(slotValid(lx), elementIndex(lx, 0), noIndex);
    for (unsigned s = 1; s < lx.slots; ++s) {
      llvm::Value* i = elementIndex(lx, s);
      llvm::Value* take = argBetter(isMax, e, best, at, x.slots[s], i);
      best = b_.CreateSelect(take, x.slots[s], best);
      at = b_.CreateSelect(take, i, at);
    }
    auto merge = [&](llvm::Value* c, llvm::Value* ic) {
      // A candidate without an index never wins; one with an index beats none.
      llvm::Value* take = b_.CreateAnd(b_.CreateICmpNE(ic, noIndex),
                                       b_.CreateOr(b_.CreateICmpEQ(at, noIndex), argBetter(isMax, e, best, at, c, ic)));
      best = b_.CreateSelect(take, c, best);
      at = b_.CreateSelect(take, ic, at);
    };
    if (!lx.uniform) {
      for (unsigned lane = kWarp / 2; lane >= 1; lane /= 2) {
        llvm::Value* c = shuffleXor(best, lane);
        llvm::Value* ic = shuffleXor(at, lane);
        merge(c, ic);
      }
      unsigned warps = threads_ / kWarp;
      uint64_t valueBytes = static_cast<uint64_t>(warps) * 8;
      llvm::Value* buffer = scratch(valueBytes + uint64_t(warps) * 4);
      llvm::Type* mt = memoryType(e);
      barrier();
      llvm::Value* laneId = b_.CreateAnd(tid_, b_.getInt32(kWarp - 1));
      llvm::Value* warpId = b_.CreateLShr(tid_, b_.getInt32(5));
      llvm::Value* indices = b_.CreateGEP(b_.getInt8Ty(), buffer, b_.getInt64(valueBytes));
      llvm::Value* stored = types_.isBool(e) ? b_.CreateZExt(best, b_.getInt8Ty()) : best;
      guarded(b_.CreateICmpEQ(laneId, b_.getInt32(0)), [&] {
        b_.CreateStore(stored, b_.CreateGEP(mt, buffer, warpId));
        b_.CreateStore(at, b_.CreateGEP(b_.getInt32Ty(), indices, warpId));
      });
      barrier();
      best = llvm::UndefValue::get(vt);
      at = noIndex;
      for (unsigned w = 0; w < warps; ++w) {
        llvm::Value* c = b_.CreateLoad(mt, b_.CreateGEP(mt, buffer, b_.getInt32(w)));
        if (types_.isBool(e)) c = b_.CreateICmpNE(c, b_.getInt8(0));
        llvm::Value* ic = b_.CreateLoad(b_.getInt32Ty(), b_.CreateGEP(b_.getInt32Ty(), indices, b_.getInt32(w)));
        merge(c, ic);
      }
    }
    return TileVal{{at}};
  }
  // Along one axis.
  llvm::Value* buffer = stage(x, xt, layoutFor(xt, x.mma));
  int64_t axis = axisConst->intValue;
  if (axis < 0) axis += static_cast<int64_t>(xs.size());
  size_t ax = static_cast<size_t>(axis);
  bool keepdims = constIntArg(id, 2, 0) != 0;
  std::vector<int64_t> xStride(xs.size());
  int64_t inner = 1;
  for (size_t d = xs.size(); d-- > 0;) {
    xStride[d] = inner;
    inner *= xs[d];
  }
  std::vector<int64_t> os = types_.get(t).shape;
  llvm::Type* mt = memoryType(e);
  TileVal out;
  for (unsigned s = 0; s < lo.slots; ++s) {
    std::vector<llvm::Value*> oi = multiIndex(clampIndex(elementIndex(lo, s), lo), os);
    llvm::Value* base = b_.getInt32(0);
    size_t od = 0;
    for (size_t d = 0; d < xs.size(); ++d) {
      if (d != ax) {
        base = b_.CreateAdd(base, b_.CreateMul(oi[od], b_.getInt32(static_cast<uint32_t>(xStride[d]))));
        ++od;
      } else if (keepdims) {
        ++od;
      }
    }
    auto load = [&](llvm::Value* j) {
      llvm::Value* index = b_.CreateAdd(base, b_.CreateMul(j, b_.getInt32(static_cast<uint32_t>(xStride[ax]))));
      llvm::Value* v = b_.CreateLoad(mt, b_.CreateGEP(mt, buffer, index));
      return types_.isBool(e) ? b_.CreateICmpNE(v, b_.getInt8(0)) : v;
    };
    llvm::Value* first = load(b_.getInt32(0));
    if (xs[ax] == 1) {
      out.slots.push_back(b_.getInt32(0));
      continue;
    }
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    auto* body = llvm::BasicBlock::Create(context_, "argreduce.loop", function_);
    auto* done = llvm::BasicBlock::Create(context_, "argreduce.done", function_);
    b_.CreateBr(body);
    b_.SetInsertPoint(body);
    llvm::PHINode* j = b_.CreatePHI(b_.getInt32Ty(), 2);
    llvm::PHINode* best = b_.CreatePHI(vt, 2);
    llvm::PHINode* at = b_.CreatePHI(b_.getInt32Ty(), 2);
    j->addIncoming(b_.getInt32(1), pre);
    best->addIncoming(first, pre);
    at->addIncoming(b_.getInt32(0), pre);
    llvm::Value* c = load(j);
    llvm::Value* take = argBetter(isMax, e, best, at, c, j);
    llvm::Value* nextBest = b_.CreateSelect(take, c, best);
    llvm::Value* nextAt = b_.CreateSelect(take, j, at);
    llvm::Value* jn = b_.CreateAdd(j, b_.getInt32(1));
    j->addIncoming(jn, b_.GetInsertBlock());
    best->addIncoming(nextBest, b_.GetInsertBlock());
    at->addIncoming(nextAt, b_.GetInsertBlock());
    b_.CreateCondBr(b_.CreateICmpULT(jn, b_.getInt32(static_cast<uint32_t>(xs[ax]))), body, done);
    b_.SetInsertPoint(done);
    out.slots.push_back(nextAt);
  }
  return out;
}

llvm::Value* TileLowering::convertTf32(llvm::Value* v, TypeId from, TypeId to) {
  if (types_.isTFloat32(from)) {
    return convert(v, types_.float32(), to);
  }
  llvm::Value* f = convert(v, from, types_.float32());
  // Integer rounding here (once per element; the tile simulator runs it too).
  llvm::Value* bits = tf32Bits(f, false);
  // The 13 bits below tfloat32's mantissa are left unspecified: clear them, so that
  // the value reads as a float32 too.
  bits = b_.CreateAnd(bits, b_.getInt32(0xffffe000u));
  return b_.CreateBitCast(bits, b_.getFloatTy());
}

llvm::Value* TileLowering::tf32Bits(llvm::Value* f, bool instruction) {
  if (instruction) {
    auto* type = llvm::FunctionType::get(b_.getInt32Ty(), {b_.getFloatTy()}, false);
    return b_.CreateCall(llvm::InlineAsm::get(type, "cvt.rn.tf32.f32 $0, $1;", "=r,f", false), {f});
  }
  llvm::Value* bits = b_.CreateBitCast(f, b_.getInt32Ty());
  // + 0xfff, + 1 more where the kept part is odd: ties go to the even neighbour.
  llvm::Value* odd = b_.CreateAnd(b_.CreateLShr(bits, 13), b_.getInt32(1));
  llvm::Value* rounded = b_.CreateAdd(bits, b_.CreateAdd(b_.getInt32(0xfff), odd));
  llvm::Value* finite = b_.CreateICmpNE(b_.CreateAnd(bits, b_.getInt32(0x7f800000u)), b_.getInt32(0x7f800000u));
  llvm::Value* out = b_.CreateSelect(finite, rounded, bits);
  // A NaN whose payload lies in the dropped bits would read as an infinity.
  return b_.CreateSelect(b_.CreateFCmpUNO(f, f), b_.getInt32(0x7fffe000u), out);
}

llvm::AllocaInst* TileLowering::entryAlloca(llvm::Type* t, const std::string& name) {
  llvm::IRBuilder<> eb(&function_->getEntryBlock(), function_->getEntryBlock().begin());
  return eb.CreateAlloca(t, nullptr, name);
}

}  // namespace lowering::tile
