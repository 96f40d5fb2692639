// Expression lowering: values spread over layouts, operators, calls to elementwise operations.
#include "lowering/tile/tile_lower_internal.h"
#include "sema/dataclasses.h"

namespace lowering::tile {

const ConstValue* TileLowering::constOf(ExprId id) const {
  if (auto o = constOverride_.find(id.index); o != constOverride_.end()) return o->second;
  int32_t c = inst_->constIndex[id.index];
  return c >= 0 ? &inst_->constants[static_cast<size_t>(c)] : nullptr;
}

TileVal TileLowering::evalAs(ExprId id, TypeId to, bool mma) {
  if (types_.isTuple(to)) return evalTuple(id, to);
  if (const ConstValue* c = constOf(id)) {
    TileVal v;
    v.slots.assign(layoutFor(to, mma).slots, constantOf(*c, to));
    v.mma = mma;
    v.splat = true;
    return v;
  }
  TypeId from = typeOf(id);
  TileVal v = eval(id);
  return spread(v, from, to, mma);
}

TileVal TileLowering::spread(const TileVal& v, TypeId from, TypeId to, bool toMma) {
  Layout lf = layoutFor(from, v.mma);
  Layout lt = layoutFor(to, toMma);
  TypeId fe = elementOf(from);
  TypeId te = elementOf(to);
  TileVal out;
  out.mma = toMma;
  if (v.splat) {
    out.splat = true;
    out.slots.assign(lt.slots, convert(v.slots[0], fe, te));
    return out;
  }
  // Shapes equal but for leading 1s ((n,) and (1, n)) share the layout.
  bool sameShape = types_.isTile(from) && types_.isTile(to) &&
                   stripOnes(types_.get(from).shape) == stripOnes(types_.get(to).shape) &&
                   lf.slots == lt.slots && lf.vec == lt.vec && lf.partial == lt.partial &&
                   lf.mma == lt.mma;
  if (lf.uniform || sameShape || !types_.isTile(to)) {
    for (unsigned s = 0; s < lt.slots; ++s) {
      out.slots.push_back(convert(v.slots[lf.uniform ? 0 : s], fe, te));
    }
    // A converted reduction result keeps its broadcast form (converted).
    if (sameShape && !toMma && fe != te) {
      broadcastElementwise(out, te, {{&v, false}}, [&](const std::vector<llvm::Value*>& a) { return convert(a[0], fe, te); });
    }
    return out;
  }
  if (!toMma) {
    if (auto r = spreadInRegisters(v, from, to)) return *r;
  }
  // Broadcast or another layout: through shared memory.
  llvm::Value* buffer = stage(v, from, lf);
  const std::vector<int64_t>& fs = types_.get(from).shape;
  const std::vector<int64_t>& ts = types_.get(to).shape;
  for (unsigned s = 0; s < lt.slots; ++s) {
    std::vector<llvm::Value*> mi = multiIndex(clampIndex(elementIndex(lt, s), lt), ts);
    llvm::Value* e = b_.getInt32(0);
    int64_t inner = 1;
    size_t off = ts.size() - fs.size();
    for (size_t d = fs.size(); d-- > 0;) {
      if (fs[d] != 1) e = b_.CreateAdd(e, b_.CreateMul(mi[d + off], b_.getInt32(static_cast<uint32_t>(inner))));
      inner *= fs[d];
    }
    llvm::Value* p = b_.CreateGEP(memoryType(fe), buffer, e);
    llvm::Value* x = b_.CreateLoad(memoryType(fe), p);
    if (types_.isBool(fe)) x = b_.CreateICmpNE(x, b_.getInt8(0));
    out.slots.push_back(convert(x, fe, te));
  }
  return out;
}

std::vector<int64_t> TileLowering::stripOnes(const std::vector<int64_t>& shape) {
  size_t i = 0;
  while (i < shape.size() && shape[i] == 1) ++i;
  return std::vector<int64_t>(shape.begin() + static_cast<std::ptrdiff_t>(i), shape.end());
}

llvm::Value* TileLowering::clampIndex(llvm::Value* e, const Layout& l) {
  if (!l.partial) return e;
  return b_.CreateAnd(e, b_.getInt32(static_cast<uint32_t>(l.n - 1)));
}

TileVal TileLowering::namedValue(const std::string& name, TypeId t) {
  TileVal v;
  if (auto it = tuples_.find(name); it != tuples_.end()) {
    tupleSlots(it->second, v);
    return v;
  }
  // A name assigned once whose value has a broadcast form: that value.
  for (size_t i = boundValues_.size(); i-- > 0;) {
    if (boundValues_[i].first == std::make_pair(name, t.index)) return boundValues_[i].second;
  }
  for (llvm::AllocaInst* a : storage(name, t)) v.slots.push_back(b_.CreateLoad(a->getAllocatedType(), a));
  v.mma = mmaVars_.count({name, t.index}) != 0;
  return v;
}

TileVal TileLowering::eval(ExprId id) {
  const frontend::Expr& e = ast_.expr(id);
  TypeId t = typeOf(id);
  if (const ConstValue* c = constOf(id)) return TileVal{{constantOf(*c, t)}};
  switch (e.kind()) {
    case frontend::ExprKind::Name:
      if (inst_->meanings[id.index].kind == Intrinsic::HostValue &&
          frontend::isClassPayload(inst_->meanings[id.index].payload)) {
        return dataclassInstance(id, t);  // a module-level instance (`fb = FooBar(2, 7)`)
      }
      return namedValue(std::string(ast_.str(e.as<ast::Name>().id)), t);
    case frontend::ExprKind::BinOp: {
      const auto& bo = e.as<ast::BinOp>();
      if (bo.op == frontend::Operator::MatMult) return matmul(id, bo.left, bo.right);
      return binary(bo.op, bo.left, bo.right, inst_->opTypes[id.index], t, isMmaExpr(id));
    }
    case frontend::ExprKind::UnaryOp: {
      const auto& u = e.as<ast::UnaryOp>();
      return unary(u.op, u.operand, t, isMmaExpr(id));
    }
    case frontend::ExprKind::Compare: {
      const auto& c = e.as<ast::Compare>();
      return compare(id, ast_.list(c.ops)[0], c.left, ast_.list(c.comparators)[0], t);
    }
    case frontend::ExprKind::Call: {
      if (inst_->callees[id.index] >= 0) return inlineHelper(id);
      if (const frontend::StaticUnroll* u = unrolledAt(id.index, true)) return staticTuple(*u, id);
      Intrinsic kind = inst_->meanings[id.index].kind;
      if (kind == Intrinsic::Min || kind == Intrinsic::Max) return builtinMinMax(id, kind == Intrinsic::Max);
      if (kind == Intrinsic::Print) {
        emitPrint(id);
        return TileVal{};
      }
      if (kind == Intrinsic::HostValue && frontend::isClassPayload(inst_->meanings[id.index].payload)) {
        if (holdsArrayType(t)) {  // `Cls(x)` alone: only its __post_init__ does something
          instanceTuple(id);
          return TileVal{};
        }
        TileVal v = dataclassInstance(id, t);
        postInit(id, &v);
        return v;
      }
      return call(id, e.as<ast::Call>());
    }
    case frontend::ExprKind::Attribute: {
      if (inst_->callees[id.index] >= 0) return inlineHelper(id);  // a dataclass property
      if (TypeId bt = typeOf(e.as<ast::Attribute>().value); frontend::isDataclassType(types_, bt)) {
        if (isTupleParamExpr(id)) {  // a field of a dataclass parameter
          TileVal v;
          tupleSlots(tupleValue(id), v);
          return v;
        }
        auto k = frontend::dataclassField(types_, bt, std::string(ast_.str(e.as<ast::Attribute>().attr)));
        return tupleParts(evalTuple(e.as<ast::Attribute>().value, bt), bt)[*k];
      }
      // `array.shape` / `array.strides` as a tuple of int32.
      const ArrayArgs a = arrayArg(e.as<ast::Attribute>().value);
      bool shape = inst_->arrayAttrs[id.index] == frontend::ArrayAttr::Shape;
      TileVal v;
      for (llvm::Value* x : shape ? a.shape : a.strides) v.slots.push_back(b_.CreateTrunc(x, b_.getInt32Ty()));
      return v;
    }
    case frontend::ExprKind::IfExp:
      return ifExp(id, e.as<ast::IfExp>(), t);
    case frontend::ExprKind::BoolOp:
      return boolOp(e.as<ast::BoolOp>());
    case frontend::ExprKind::Subscript: {
      if (inst_->callees[id.index] >= 0) return inlineHelper(id);  // a dataclass's __getitem__
      const auto& sub = e.as<ast::Subscript>();
      // t[:, None]: an axis of length 1 added.
      if (inst_->meanings[id.index].kind == Intrinsic::TileOp) {
        TypeId xt = types_.tile(elementOf(t), types_.get(typeOf(sub.value)).shape);
        return relayout(evalAs(sub.value, xt), xt, t, true, [](llvm::Value* x) { return x; });
      }
      if (isTupleParamExpr(sub.value)) {  // an element of a tuple parameter
        TileVal v;
        tupleSlots(tupleValue(id), v);
        return v;
      }
      if (TypeId bt = typeOf(sub.value); bt.valid() && types_.isTuple(bt)) {
        // An element of a tuple value (a variable): a constant index takes its part, a
        // run-time one selects among the (one-typed) parts.
        std::vector<TileVal> parts = tupleParts(evalTuple(sub.value, bt), bt);
        auto n = static_cast<int64_t>(parts.size());
        if (const ConstValue* c = constOf(sub.slice)) {
          int64_t k = c->kind == ConstValue::Kind::Bool ? int64_t(c->boolValue) : c->intValue;
          return parts[static_cast<size_t>(k < 0 ? k + n : k)];
        }
        llvm::Value* i = runtimeTupleIndex(sub.slice, n);
        TileVal out = parts.front();
        for (int64_t k = 1; k < n; ++k) {
          llvm::Value* take = b_.CreateICmpEQ(i, b_.getInt64(k));
          for (size_t s = 0; s < out.slots.size(); ++s) {
            out.slots[s] = b_.CreateSelect(take, parts[static_cast<size_t>(k)].slots[s], out.slots[s]);
          }
        }
        return out;
      }
      // array.shape[d]
      ExprId arrayExpr = ast_.expr(sub.value).as<ast::Attribute>().value;
      const ArrayArgs& a = arrayArg(arrayExpr);
      int64_t d = constOf(sub.slice)->intValue;
      if (d < 0) d += static_cast<int64_t>(a.shape.size());
      return TileVal{{b_.CreateTrunc(a.shape[static_cast<size_t>(d)], b_.getInt32Ty())}};
    }
    default:
      break;
  }
  assert(false && "an expression the tile checker rejects");
  return TileVal{};
}

TileVal TileLowering::dataclassInstance(ExprId id, TypeId t) {
  // Its fields in order (sema's pieces: an argument, a default, a field of another instance).
  const frontend::TileHelperArg& h = inst_->helperArgs.at(id.index)[0];
  const std::vector<TypeId>& elements = types_.get(t).elements;
  std::map<uint32_t, TileVal> evaluated;
  TileVal out;
  for (size_t k = 0; k < elements.size(); ++k) {
    TileVal v = pieceValue(h.pieces[k], elements[k], evaluated);
    out.slots.insert(out.slots.end(), v.slots.begin(), v.slots.end());
  }
  return out;
}

void TileLowering::postInit(ExprId call, const TileVal* self) {
  // Sema's checkPostInit: the class's __post_init__ recorded at the call's `func`, `self`
  // the instance just built (an instance holding arrays: the call's TupleArg).
  ExprId f = ast_.expr(call).as<ast::Call>().func;
  if (inst_->callees[f.index] < 0) return;
  std::vector<TileVal> given;
  if (self != nullptr) given.push_back(*self);
  inlineHelper(f, self != nullptr ? &given : nullptr);
}

std::pair<TypeId, TypeId> TileLowering::concatParts(ExprId right, TypeId result) {
  std::vector<TypeId> all = types_.get(result).elements;
  const ConstValue* c = constOf(right);
  size_t rightCount = c != nullptr ? c->elements.size() : types_.get(typeOf(right)).elements.size();
  auto split = all.begin() + static_cast<std::ptrdiff_t>(all.size() - rightCount);
  return {types_.tuple(std::vector<TypeId>(all.begin(), split)), types_.tuple(std::vector<TypeId>(split, all.end()))};
}

TileVal TileLowering::concatTuples(ExprId left, ExprId right, TypeId result, const TileVal* leftValue) {
  auto [lt, rt] = concatParts(right, result);
  TileVal out = leftValue != nullptr ? *leftValue : evalTuple(left, lt);
  TileVal r = evalTuple(right, rt);
  out.slots.insert(out.slots.end(), r.slots.begin(), r.slots.end());
  return out;
}

TileVal TileLowering::binary(frontend::Operator op, ExprId left, ExprId right, TypeId opType, TypeId result, bool mma) {
  if (types_.isTuple(result)) return concatTuples(left, right, result, nullptr);
  TypeId opTile = types_.isTile(result) ? types_.tile(opType, types_.get(result).shape) : opType;
  if (op == frontend::Operator::Pow) return power(left, right, opType, opTile, mma);
  TileVal l = evalAs(left, opTile, mma);
  TileVal r = evalAs(right, opTile, mma);
  TileVal out;
  out.mma = mma;
  for (size_t s = 0; s < l.slots.size(); ++s) out.slots.push_back(arith(op, l.slots[s], r.slots[s], opType));
  if (types_.isTile(result) && elementOf(result) == opType) {
    broadcastElementwise(out, opType, {{&l, uniformOperand(left)}, {&r, uniformOperand(right)}},
                         [&](const std::vector<llvm::Value*>& a) { return arith(op, a[0], a[1], opType); });
  }
  return out;
}

TileVal TileLowering::unary(frontend::UnaryOpKind op, ExprId operand, TypeId t, bool mma) {
  TileVal v = evalAs(operand, t, mma);
  for (llvm::Value*& x : v.slots) {
    if (op == frontend::UnaryOpKind::USub) {
      x = types_.isFloat(elementOf(t)) ? b_.CreateFNeg(x) : b_.CreateNeg(x);
    } else if (op == frontend::UnaryOpKind::Not || op == frontend::UnaryOpKind::Invert) {
      x = b_.CreateNot(x);  // i1 for `not`, every bit for `~`
    }
  }
  return v;
}

TileVal TileLowering::compare(ExprId id, frontend::CmpOp cmp, ExprId left, ExprId right, TypeId t) {
  TypeId op = inst_->opTypes[id.index];
  if (op.valid() && types_.isTuple(op)) return compareTuples(cmp, left, right);
  TypeId opTile = types_.isTile(t) ? types_.tile(op, types_.get(t).shape) : op;
  bool m = isMmaExpr(id);
  TileVal l = evalAs(left, opTile, m);
  TileVal r = evalAs(right, opTile, m);
  bool isFloat = types_.isFloat(op);
  bool isSigned = types_.get(op).isSigned;
  TileVal out;
  out.mma = m;
  for (size_t s = 0; s < l.slots.size(); ++s) {
    llvm::CmpInst::Predicate p;
    switch (cmp) {
      case frontend::CmpOp::Eq: p = isFloat ? llvm::CmpInst::FCMP_OEQ : llvm::CmpInst::ICMP_EQ; break;
      case frontend::CmpOp::NotEq: p = isFloat ? llvm::CmpInst::FCMP_UNE : llvm::CmpInst::ICMP_NE; break;
      case frontend::CmpOp::Lt: p = isFloat ? llvm::CmpInst::FCMP_OLT : isSigned ? llvm::CmpInst::ICMP_SLT : llvm::CmpInst::ICMP_ULT; break;
      case frontend::CmpOp::LtE: p = isFloat ? llvm::CmpInst::FCMP_OLE : isSigned ? llvm::CmpInst::ICMP_SLE : llvm::CmpInst::ICMP_ULE; break;
      case frontend::CmpOp::Gt: p = isFloat ? llvm::CmpInst::FCMP_OGT : isSigned ? llvm::CmpInst::ICMP_SGT : llvm::CmpInst::ICMP_UGT; break;
      default: p = isFloat ? llvm::CmpInst::FCMP_OGE : isSigned ? llvm::CmpInst::ICMP_SGE : llvm::CmpInst::ICMP_UGE; break;
    }
    out.slots.push_back(isFloat ? b_.CreateFCmp(p, l.slots[s], r.slots[s]) : b_.CreateICmp(p, l.slots[s], r.slots[s]));
  }
  return out;
}

TileVal TileLowering::operatorFn(ExprId id, TileFn fn, TypeId t) {
  frontend::TileOperator o = frontend::tileOperatorOf(fn);
  switch (o.kind) {
    case frontend::TileOperator::Kind::Unary: return unary(o.unary, arg(id, 0), t, isMmaExpr(id));
    case frontend::TileOperator::Kind::Compare: return compare(id, o.compare, arg(id, 0), arg(id, 1), t);
    default: return binary(o.binary, arg(id, 0), arg(id, 1), inst_->opTypes[id.index], t, isMmaExpr(id));
  }
}

TileVal TileLowering::isnan(ExprId id, TypeId t) {
  TypeId op = inst_->opTypes[id.index];
  TileVal x = evalAs(arg(id, 0), types_.isTile(t) ? types_.tile(op, types_.get(t).shape) : op, isMmaExpr(id));
  for (llvm::Value*& v : x.slots) v = b_.CreateFCmpUNO(v, v);
  return x;
}

TileVal TileLowering::atan2(ExprId id, TypeId t) {
  TypeId e = elementOf(t);
  bool m = isMmaExpr(id);
  TileVal y = evalAs(arg(id, 0), t, m);
  TileVal x = evalAs(arg(id, 1), t, m);
  y.splat = y.splat && x.splat;
  for (size_t s = 0; s < y.slots.size(); ++s) y.slots[s] = libdevice("atan2", e, {y.slots[s], x.slots[s]});
  return y;
}

llvm::Value* TileLowering::libdevice(std::string_view base, TypeId e, std::initializer_list<llvm::Value*> args) {
  // float16 computes in float32 (as CUDA's half math functions do).
  unsigned bits = types_.get(e).bits;
  std::vector<llvm::Value*> wide;
  for (llvm::Value* a : args) wide.push_back(bits == 16 ? b_.CreateFPExt(a, b_.getFloatTy()) : a);
  llvm::Value* r = callLibdevice(b_, module_, base, bits <= 32, wide);
  return bits == 16 ? b_.CreateFPTrunc(r, llvmType(e)) : r;
}

TileVal TileLowering::power(ExprId left, ExprId right, TypeId opType, TypeId opTile, bool mma) {
  TileVal x = evalAs(left, opTile, mma);
  x.splat = false;
  const ConstValue* k = constOf(right);
  bool isFloat = types_.isFloat(opType);
  if (k != nullptr && k->kind == ConstValue::Kind::Int && k->intValue >= 0 && k->intValue <= 16) {
    for (llvm::Value*& v : x.slots) {
      llvm::Value* result = constantOf(ConstValue::ofInt(1), opType);
      llvm::Value* base = v;
      for (int64_t e = k->intValue; e > 0; e >>= 1) {
        if (e & 1) result = isFloat ? b_.CreateFMul(result, base) : b_.CreateMul(result, base);
        if (e > 1) base = isFloat ? b_.CreateFMul(base, base) : b_.CreateMul(base, base);
      }
      v = result;
    }
    return x;
  }
  TileVal y = evalAs(right, opTile, mma);
  for (size_t s = 0; s < x.slots.size(); ++s) x.slots[s] = libdevice("pow", opType, {x.slots[s], y.slots[s]});
  return x;
}

llvm::Value* TileLowering::arith(frontend::Operator op, llvm::Value* a, llvm::Value* c, TypeId t) {
  using frontend::Operator;
  const Type& ty = types_.get(t);
  bool isFloat = ty.kind == TypeKind::Float;
  switch (op) {
    case Operator::Add: return isFloat ? b_.CreateFAdd(a, c) : b_.CreateAdd(a, c);
    case Operator::Sub: return isFloat ? b_.CreateFSub(a, c) : b_.CreateSub(a, c);
    case Operator::Mult: return isFloat ? b_.CreateFMul(a, c) : b_.CreateMul(a, c);
    case Operator::Div: return b_.CreateFDiv(a, c);
    case Operator::BitAnd: return b_.CreateAnd(a, c);
    case Operator::BitOr: return b_.CreateOr(a, c);
    case Operator::BitXor: return b_.CreateXor(a, c);
    case Operator::LShift:
    case Operator::RShift: {
      // Shifts by the width or more (or by a negative count) give 0, or the
      // sign for an arithmetic right shift, as NumPy's shifts: never poison.
      llvm::Value* width = llvm::ConstantInt::get(c->getType(), ty.bits);
      llvm::Value* inRange = b_.CreateICmpULT(c, width);
      if (op == Operator::LShift) {
        return b_.CreateSelect(inRange, b_.CreateShl(a, c), llvm::ConstantInt::get(a->getType(), 0));
      }
      if (ty.isSigned) {
        llvm::Value* count = b_.CreateSelect(inRange, c, llvm::ConstantInt::get(c->getType(), ty.bits - 1));
        return b_.CreateAShr(a, count);
      }
      return b_.CreateSelect(inRange, b_.CreateLShr(a, c), llvm::ConstantInt::get(a->getType(), 0));
    }
    case Operator::FloorDiv:
    case Operator::Mod: {
      if (isFloat) {
        // cuTile's rule (ct.floordiv: floor(x / y)), not CPython's divmod,
        // which numba's SIMT kernels follow.
        llvm::Value* q = b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, b_.CreateFDiv(a, c));
        return op == Operator::FloorDiv ? q : b_.CreateFSub(a, b_.CreateFMul(q, c));
      }
      return integerFloorDivMod(b_, a, c, ty.isSigned, op == Operator::Mod);
    }
    default:
      break;
  }
  assert(false && "an operator the tile checker rejects");
  return a;
}

ExprId TileLowering::arg(ExprId call, size_t i) const {
  // A call the checker did not type (in the branch a compile-time `if` left out, which
  // whole-body walks such as varRoot still visit) has no bound arguments: none.
  auto it = inst_->callArguments.find(call.index);
  if (it == inst_->callArguments.end()) return ExprId();
  return i < it->second.size() ? it->second[i] : ExprId();
}

int64_t TileLowering::constIntArg(ExprId call, size_t i, int64_t fallback) const {
  ExprId a = arg(call, i);
  if (!a.valid()) return fallback;
  const ConstValue* c = constOf(a);
  if (c == nullptr) return fallback;
  return c->kind == ConstValue::Kind::Int ? c->intValue : c->boolValue ? 1 : 0;
}


std::vector<ExprId> TileLowering::indexItems(ExprId id) const {
  std::vector<ExprId> items;
  if (const auto* t = ast_.expr(id).dyn<ast::Tuple>()) {
    for (ExprId e : ast_.list(t->elts)) items.push_back(e);
  } else {
    items.push_back(id);
  }
  return items;
}

std::vector<llvm::Value*> TileLowering::indexValues(ExprId id) {
  TypeId t = typeOf(id);
  if (ast_.expr(id).kind() == frontend::ExprKind::Name && t.valid() && types_.isTuple(t)) {
    std::vector<TypeId> wide(types_.get(t).elements.size(), types_.int64());
    return evalAs(id, types_.tuple(wide)).slots;
  }
  std::vector<llvm::Value*> out;
  for (ExprId e : indexItems(id)) out.push_back(scalarAs(e, types_.int64()));
  return out;
}

TileVal TileLowering::call(ExprId id, const ast::Call& c) {
  TypeId t = typeOf(id);
  auto fn = static_cast<TileFn>(inst_->meanings[id.index].payload);
  if (isTileAtomic(fn) && types_.isTiledView(typeOf(arg(id, 0)))) {
    viewAtomic(id, fn);
    return TileVal{};
  }
  if (isTileAtomic(fn)) return atomic(id, fn);
  switch (fn) {
    case TileFn::Bid: {
      llvm::Intrinsic::ID ids[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                   llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                   llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
      return TileVal{{b_.CreateCall(intrinsic(ids[constIntArg(id, 0, 0)]))}};
    }
    case TileFn::NumBlocks: {
      llvm::Intrinsic::ID ids[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                                   llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                                   llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z};
      return TileVal{{b_.CreateCall(intrinsic(ids[constIntArg(id, 0, 0)]))}};
    }
    case TileFn::NumTiles: {
      const ArrayArgs& a = arrayArg(arg(id, 0));
      int64_t axis = constIntArg(id, 1, 0);
      if (axis < 0) axis += static_cast<int64_t>(a.shape.size());
      const ConstValue* shape = constOf(arg(id, 2));
      int64_t tile = shape->kind == ConstValue::Kind::Int ? shape->intValue
                     : shape->elements.empty()               ? 1  // shape=(): one element a tile
                                                             : shape->elements[static_cast<size_t>(axis)].intValue;
      llvm::Value* n = a.shape[static_cast<size_t>(axis)];
      llvm::Value* q = b_.CreateSDiv(b_.CreateAdd(n, b_.getInt64(tile - 1)), b_.getInt64(tile));
      return TileVal{{b_.CreateTrunc(q, b_.getInt32Ty())}};
    }
    case TileFn::Cdiv: {
      TypeId op = inst_->opTypes[id.index];
      llvm::Value* x = scalarAs(arg(id, 0), op);
      llvm::Value* y = scalarAs(arg(id, 1), op);
      llvm::Value* sum = b_.CreateSub(b_.CreateAdd(x, y), llvm::ConstantInt::get(x->getType(), 1));
      return TileVal{{arith(frontend::Operator::FloorDiv, sum, y, op)}};
    }
    case TileFn::Load:
    case TileFn::ViewLoad:
      return types_.isTile(t) ? load(id, t) : scalarLoad(id);
    case TileFn::Store:
    case TileFn::ViewStore:
      store(id);
      return TileVal{};
    case TileFn::ViewNumTiles:
      return viewNumTiles(id);
    case TileFn::Astile:
      return astile(id);
    case TileFn::GridDepLaunch:
    case TileFn::GridDepWait:
      // Without programmatic dependent launch (before sm_90) a kernel starts after the
      // previous one ends: both are no-ops there, as they are when launched without PDL.
      if (gridDependency_) {
        asmStatement(fn == TileFn::GridDepWait ? "griddepcontrol.wait;" : "griddepcontrol.launch_dependents;");
      }
      return TileVal{};
    case TileFn::Assert:
      assertAll(id);
      return TileVal{};
    case TileFn::Print:
    case TileFn::Printf:
      emitPrint(id);
      return TileVal{};
    case TileFn::Gather:
    case TileFn::LoadOffset:
      return gatherScatter(id, true);
    case TileFn::Scatter:
    case TileFn::StoreOffset:
      gatherScatter(id, false);
      return TileVal{};
    case TileFn::LoadAdvancedIndexing:
      return advancedIndexing(id, true);
    case TileFn::StoreAdvancedIndexing:
      advancedIndexing(id, false);
      return TileVal{};
    case TileFn::Full:
    case TileFn::Zeros:
    case TileFn::Ones: {
      Layout l = layoutOf(t);
      llvm::Value* v;
      if (fn == TileFn::Full) {
        v = scalarAs(arg(id, 1), elementOf(t));
      } else {
        v = constantOf(ConstValue::ofInt(fn == TileFn::Ones ? 1 : 0), t);
      }
      TileVal out;
      out.slots.assign(l.slots, v);
      out.splat = true;
      return out;
    }
    case TileFn::Arange: {
      Layout l = layoutOf(t);
      TypeId e = elementOf(t);
      ExprId start = arg(id, 2), step = arg(id, 3);
      llvm::Value* first = start.valid() ? scalarAs(start, e) : nullptr;
      llvm::Value* stride = step.valid() ? scalarAs(step, e) : nullptr;
      TileVal out;
      for (unsigned s = 0; s < l.slots; ++s) {
        llvm::Value* v = convert(elementIndex(l, s), types_.int32(), e);
        if (stride != nullptr) v = arith(frontend::Operator::Mult, v, stride, e);
        if (first != nullptr) v = arith(frontend::Operator::Add, first, v, e);
        out.slots.push_back(v);
      }
      return out;
    }
    case TileFn::Astype:
      return evalAs(arg(id, 0), t, isMmaExpr(id));
    case TileFn::Mma:
      return mmaCall(id);
    case TileFn::Matmul:
      return matmul(id, arg(id, 0), arg(id, 1));
    case TileFn::Sum:
    case TileFn::Prod:
    case TileFn::Max:
    case TileFn::Min:
      return reduce(id, fn, t);
    case TileFn::Argmax:
    case TileFn::Argmin:
      return argReduce(id, fn, t);
    case TileFn::Reshape:
    case TileFn::ExpandDims:
    case TileFn::Permute:
    case TileFn::Transpose:
      return shapeOp(id, fn, t);
    case TileFn::Insert:
      return insert(id, t);
    case TileFn::PackToBytes:
    case TileFn::UnpackFromBytes:
      return reinterpretBytes(id, t);
    case TileFn::MmaScaled:
      return mmaScaled(id, t);
    case TileFn::Extract:
      return extract(id, t);
    case TileFn::Cat:
      return cat(id, t);
    case TileFn::BroadcastTo:
      return evalAs(arg(id, 0), t);
    case TileFn::Truediv:
    case TileFn::Add:
    case TileFn::Sub:
    case TileFn::Mul:
      return roundedArith(id, fn, t);
    case TileFn::Where: {
      TypeId cond = types_.isTile(t) ? types_.tile(types_.boolean(), types_.get(t).shape) : types_.boolean();
      bool m = isMmaExpr(id);
      TileVal cv = evalAs(arg(id, 0), cond, m);
      TileVal x = evalAs(arg(id, 1), t, m);
      TileVal y = evalAs(arg(id, 2), t, m);
      x.splat = false;
      for (size_t s = 0; s < x.slots.size(); ++s) x.slots[s] = b_.CreateSelect(cv.slots[s], x.slots[s], y.slots[s]);
      return x;
    }
    case TileFn::Isnan:
      return isnan(id, t);
    case TileFn::Bitcast: {
      TypeId from = inst_->opTypes[id.index];
      TileVal x = evalAs(arg(id, 0), types_.isTile(t) ? types_.tile(from, types_.get(t).shape) : from, isMmaExpr(id));
      llvm::Type* to = llvmType(elementOf(t));
      for (llvm::Value*& v : x.slots) v = b_.CreateBitCast(v, to);
      return x;
    }
    case TileFn::Cumsum:
    case TileFn::Cumprod:
      return scan(id, fn, t);
    case TileFn::Reduce:
      return customReduce(id, t);
    case TileFn::Item:
      return evalAs(arg(id, 0), t);  // one element: every thread holds it
    case TileFn::StaticEval:
      return evalAs(arg(id, 0), t);  // a run-time value passed through (`ct.static_eval(tup[1])`)
    case TileFn::Atan2:
      return atan2(id, t);
    case TileFn::Maximum:
    case TileFn::Minimum: {
      FlagsScope flags(*this, reduceFlagsOf(id, fn));
      bool m = isMmaExpr(id);
      TileVal x = evalAs(arg(id, 0), t, m);
      TileVal y = evalAs(arg(id, 1), t, m);
      x.splat = x.splat && y.splat;
      for (size_t s = 0; s < x.slots.size(); ++s) x.slots[s] = combine(fn == TileFn::Maximum ? TileFn::Max : TileFn::Min, x.slots[s], y.slots[s], elementOf(t));
      return x;
    }
    default:
      if (isTileOperatorFn(fn)) return operatorFn(id, fn, t);
      return unaryMath(id, fn, t);
  }
}

TileFn TileLowering::roundingMode(ExprId id, size_t position) {
  ExprId r = arg(id, position);
  if (!r.valid() || inst_->meanings[r.index].kind != Intrinsic::TileOp) return TileFn::RoundRn;
  return static_cast<TileFn>(inst_->meanings[r.index].payload);
}

llvm::Value* TileLowering::roundedAddMul(bool mul, llvm::Value* a, llvm::Value* c, TypeId op, int r, bool ftz) {
  bool f64 = op == types_.float64();
  if (r == 0 && !ftz) return mul ? b_.CreateFMul(a, c) : b_.CreateFAdd(a, c);
  using llvm::Intrinsic::ID;
  // NVVM's rounded float32/float64 intrinsics: {rn, rz, rm, rp} x {f, ftz f, d}.
  struct Rounded {
    ID f[4], ftz[4], d[4];
  };
  static const Rounded kAdd{{llvm::Intrinsic::nvvm_add_rn_f, llvm::Intrinsic::nvvm_add_rz_f, llvm::Intrinsic::nvvm_add_rm_f,
                             llvm::Intrinsic::nvvm_add_rp_f},
                            {llvm::Intrinsic::nvvm_add_rn_ftz_f, llvm::Intrinsic::nvvm_add_rz_ftz_f,
                             llvm::Intrinsic::nvvm_add_rm_ftz_f, llvm::Intrinsic::nvvm_add_rp_ftz_f},
                            {llvm::Intrinsic::nvvm_add_rn_d, llvm::Intrinsic::nvvm_add_rz_d, llvm::Intrinsic::nvvm_add_rm_d,
                             llvm::Intrinsic::nvvm_add_rp_d}};
  static const Rounded kMul{{llvm::Intrinsic::nvvm_mul_rn_f, llvm::Intrinsic::nvvm_mul_rz_f, llvm::Intrinsic::nvvm_mul_rm_f,
                             llvm::Intrinsic::nvvm_mul_rp_f},
                            {llvm::Intrinsic::nvvm_mul_rn_ftz_f, llvm::Intrinsic::nvvm_mul_rz_ftz_f,
                             llvm::Intrinsic::nvvm_mul_rm_ftz_f, llvm::Intrinsic::nvvm_mul_rp_ftz_f},
                            {llvm::Intrinsic::nvvm_mul_rn_d, llvm::Intrinsic::nvvm_mul_rz_d, llvm::Intrinsic::nvvm_mul_rm_d,
                             llvm::Intrinsic::nvvm_mul_rp_d}};
  const Rounded& table = mul ? kMul : kAdd;
  ID which = f64 ? table.d[r] : ftz ? table.ftz[r] : table.f[r];
  return b_.CreateCall(intrinsic(which), {a, c});
}

TileVal TileLowering::roundedArith(ExprId id, TileFn fn, TypeId t) {
  TypeId op = inst_->opTypes[id.index];
  bool m = isMmaExpr(id);
  TypeId opTile = types_.isTile(t) ? types_.tile(op, types_.get(t).shape) : op;
  TileVal x = evalAs(arg(id, 0), opTile, m);
  TileVal y = evalAs(arg(id, 1), opTile, m);
  TileFn mode = roundingMode(id, 2);
  bool f32 = op == types_.float32();
  bool f64 = op == types_.float64();
  bool ftz = f32 && constIntArg(id, 3, 0) != 0;
  x.splat = x.splat && y.splat;
  using llvm::Intrinsic::ID;
  int r = mode == TileFn::RoundRz ? 1 : mode == TileFn::RoundRm ? 2 : mode == TileFn::RoundRp ? 3 : 0;
  auto combineOne = [&](llvm::Value* a, llvm::Value* c) -> llvm::Value* {
    ID which = llvm::Intrinsic::not_intrinsic;
    if (fn == TileFn::Truediv) {
      switch (mode) {
        case TileFn::RoundRz: which = f32 ? (ftz ? llvm::Intrinsic::nvvm_div_rz_ftz_f : llvm::Intrinsic::nvvm_div_rz_f) : llvm::Intrinsic::nvvm_div_rz_d; break;
        case TileFn::RoundRm: which = f32 ? (ftz ? llvm::Intrinsic::nvvm_div_rm_ftz_f : llvm::Intrinsic::nvvm_div_rm_f) : llvm::Intrinsic::nvvm_div_rm_d; break;
        case TileFn::RoundRp: which = f32 ? (ftz ? llvm::Intrinsic::nvvm_div_rp_ftz_f : llvm::Intrinsic::nvvm_div_rp_f) : llvm::Intrinsic::nvvm_div_rp_d; break;
        case TileFn::RoundApprox: which = ftz ? llvm::Intrinsic::nvvm_div_approx_ftz_f : llvm::Intrinsic::nvvm_div_approx_f; break;
        case TileFn::RoundFull: {
          // div.full.f32 (no LLVM intrinsic in LLVM 19).
          auto* ft = llvm::FunctionType::get(b_.getFloatTy(), {b_.getFloatTy(), b_.getFloatTy()}, false);
          std::string text = std::string("div.full") + (ftz ? ".ftz" : "") + ".f32 $0, $1, $2;";
          return b_.CreateCall(llvm::InlineAsm::get(ft, text, "=f,f,f", false), {a, c});
        }
        default:
          if (ftz) which = llvm::Intrinsic::nvvm_div_rn_ftz_f;
          break;
      }
      if (which == llvm::Intrinsic::not_intrinsic) return arith(frontend::Operator::Div, a, c, op);
      return b_.CreateCall(intrinsic(which), {a, c});
    }
    frontend::Operator o = fn == TileFn::Add ? frontend::Operator::Add
                         : fn == TileFn::Sub ? frontend::Operator::Sub : frontend::Operator::Mult;
    // The plain operator where it means the same (RN without flush, or not a float32/64).
    if ((r == 0 && !ftz) || !(f32 || f64)) return arith(o, a, c, op);
    // a - b is a + (-b) under every rounding (negation is exact).
    if (fn == TileFn::Sub) c = b_.CreateFNeg(c);
    return roundedAddMul(fn == TileFn::Mul, a, c, op, r, ftz);
  };
  for (size_t s = 0; s < x.slots.size(); ++s) x.slots[s] = combineOne(x.slots[s], y.slots[s]);
  if (op != elementOf(t)) {
    for (llvm::Value*& v : x.slots) v = convert(v, op, elementOf(t));
  }
  return x;
}

TileVal TileLowering::unaryMath(ExprId id, TileFn fn, TypeId t) {
  TypeId e = elementOf(t);
  TileVal x = evalAs(arg(id, 0), t, isMmaExpr(id));
  TileVal in = x;
  unaryMathSlots(id, fn, e, x.slots);
  broadcastElementwise(x, e, {{&in, false}}, [&](const std::vector<llvm::Value*>& a) {
    std::vector<llvm::Value*> one{a[0]};
    unaryMathSlots(id, fn, e, one);
    return one[0];
  });
  return x;
}

void TileLowering::unaryMathSlots(ExprId id, TileFn fn, TypeId e, std::vector<llvm::Value*>& slots) {
  const Type& et = types_.get(e);
  if (fn == TileFn::Abs) {
    for (llvm::Value*& v : slots) {
      if (et.kind == TypeKind::Float) {
        v = b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v);
      } else if (et.isSigned) {
        v = b_.CreateSelect(b_.CreateICmpSLT(v, llvm::ConstantInt::get(v->getType(), 0)), b_.CreateNeg(v), v);
      }
    }
    return;
  }
  if ((fn == TileFn::Exp2 || fn == TileFn::Rsqrt) && et.bits <= 32 && constIntArg(id, 1, 0) != 0) {
    // flush_to_zero=True: PTX's ex2.approx.ftz.f32 / rsqrt.approx.ftz.f32
    // (float16 through float32).
    llvm::Function* f = intrinsic(fn == TileFn::Exp2 ? llvm::Intrinsic::nvvm_ex2_approx_ftz_f
                                                     : llvm::Intrinsic::nvvm_rsqrt_approx_ftz_f);
    for (llvm::Value*& v : slots) {
      llvm::Value* a = et.bits == 16 ? b_.CreateFPExt(v, b_.getFloatTy()) : v;
      llvm::Value* r = b_.CreateCall(f, {a});
      v = et.bits == 16 ? b_.CreateFPTrunc(r, llvmType(e)) : r;
    }
    return;
  }
  if (fn == TileFn::Exp && roundingMode(id, 1) == TileFn::RoundApprox) {
    // rounding_mode=APPROX (float32, the checker's rule): 2^(x * log2 e) with
    // PTX's ex2.approx.f32, as CUDA's __expf (without its flush to zero).
    llvm::Function* ex2 = intrinsic(llvm::Intrinsic::nvvm_ex2_approx_f);
    llvm::Value* log2e = llvm::ConstantFP::get(b_.getFloatTy(), 1.4426950408889634);
    for (llvm::Value*& v : slots) v = b_.CreateCall(ex2, {b_.CreateFMul(v, log2e)});
    return;
  }
  if (fn == TileFn::Floor || fn == TileFn::Ceil) {  // floats (the checker's rule)
    auto which = fn == TileFn::Floor ? llvm::Intrinsic::floor : llvm::Intrinsic::ceil;
    for (llvm::Value*& v : slots) v = b_.CreateUnaryIntrinsic(which, v);
    return;
  }
  if (fn == TileFn::Tanh && roundingMode(id, 1) == TileFn::RoundApprox) {
    // rounding_mode=APPROX (float32): PTX's tanh.approx.f32 (sm_75 and later).
    auto* ft = llvm::FunctionType::get(b_.getFloatTy(), {b_.getFloatTy()}, false);
    auto* asmTanh = llvm::InlineAsm::get(ft, "tanh.approx.f32 $0, $1;", "=f,f", false);
    for (llvm::Value*& v : slots) v = b_.CreateCall(asmTanh, {v});
    return;
  }
  if (fn == TileFn::Sqrt && et.bits == 32) {
    TileFn mode = roundingMode(id, 1);
    bool ftz = constIntArg(id, 2, 0) != 0;
    using llvm::Intrinsic::ID;
    ID which = llvm::Intrinsic::not_intrinsic;
    switch (mode) {
      case TileFn::RoundRz: which = ftz ? llvm::Intrinsic::nvvm_sqrt_rz_ftz_f : llvm::Intrinsic::nvvm_sqrt_rz_f; break;
      case TileFn::RoundRm: which = ftz ? llvm::Intrinsic::nvvm_sqrt_rm_ftz_f : llvm::Intrinsic::nvvm_sqrt_rm_f; break;
      case TileFn::RoundRp: which = ftz ? llvm::Intrinsic::nvvm_sqrt_rp_ftz_f : llvm::Intrinsic::nvvm_sqrt_rp_f; break;
      case TileFn::RoundApprox: which = ftz ? llvm::Intrinsic::nvvm_sqrt_approx_ftz_f : llvm::Intrinsic::nvvm_sqrt_approx_f; break;
      default: if (ftz) which = llvm::Intrinsic::nvvm_sqrt_rn_ftz_f; break;
    }
    if (which != llvm::Intrinsic::not_intrinsic) {
      for (llvm::Value*& v : slots) v = b_.CreateCall(intrinsic(which), {v});
      return;
    }
  }
  std::string base;
  switch (fn) {
    case TileFn::Exp: base = "exp"; break;
    case TileFn::Tan: base = "tan"; break;
    case TileFn::Sinh: base = "sinh"; break;
    case TileFn::Cosh: base = "cosh"; break;
    case TileFn::Exp2: base = "exp2"; break;
    case TileFn::Log: base = "log"; break;
    case TileFn::Log2: base = "log2"; break;
    case TileFn::Sqrt: base = "sqrt"; break;
    case TileFn::Rsqrt: base = "rsqrt"; break;
    case TileFn::Tanh: base = "tanh"; break;
    case TileFn::Sin: base = "sin"; break;
    default: base = "cos"; break;
  }
  for (llvm::Value*& v : slots) v = libdevice(base, e, {v});
  return;
}

}  // namespace lowering::tile
