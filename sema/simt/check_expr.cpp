// Expressions (the checker: sema/simt/check_internal.h).
#include "sema/simt/check_internal.h"

namespace frontend::simt {

// --- expressions ------------------------------------------------------------------

Val FunctionChecker::checkExpr(ExprId id) {
  const Expr& e = ast_.expr(id);
  switch (e.kind()) {
    case ExprKind::Constant: {
      const ConstantValue& c = ast_.constantOf(id);
      switch (c.kind) {
        case ConstantKind::True:
        case ConstantKind::False:
          return record(id, constantVal(ConstValue::ofBool(c.kind == ConstantKind::True)));
        case ConstantKind::Int:
          if (auto v = integerLiteral(c)) return record(id, constantVal(std::move(*v)));
          error(e.range, Diag::UnsupportedFeature,
                "integer literal `" + c.literal + "` does not fit in uint64");
          return record(id, Val::bad());
        case ConstantKind::Float:
          return record(id, constantVal(ConstValue::ofFloat(c.floatValue)));
        case ConstantKind::None: {
          Val v;
          v.type = types().none();
          v.constant = ConstValue{};
          return record(id, v);
        }
        case ConstantKind::Str: {
          Val v;
          ConstValue s;
          s.kind = ConstValue::Kind::Str;
          s.strValue = c.text;
          v.constant = s;
          v.path = "'" + c.text + "'";
          return record(id, v);
        }
        case ConstantKind::Complex:
          // `2.5j`: complex128, as in numba.
          return record(id, constantVal(ConstValue::ofComplex(0, c.floatValue)));
        default:
          error(e.range, Diag::UnsupportedConstruct,
                c.kind == ConstantKind::Bytes ? "a bytes literal" : "`...`");
          return record(id, Val::bad());
      }
    }
    case ExprKind::Name:
      return record(id, checkName(id, e.as<ast::Name>()));
    case ExprKind::Attribute:
      return record(id, checkAttribute(id, e.as<ast::Attribute>()));
    case ExprKind::Call:
      return record(id, checkCall(id, e.as<ast::Call>()));
    case ExprKind::Subscript: {
      const auto& s = e.as<ast::Subscript>();
      return record(id, checkSubscript(id, s));
    }
    case ExprKind::BinOp:
      return record(id, checkBinOp(id, e.as<ast::BinOp>()));
    case ExprKind::UnaryOp: {
      const auto& u = e.as<ast::UnaryOp>();
      Val v = checkExpr(u.operand);
      if (!v.ok) return record(id, Val::bad());
      if (v.constant && v.isValue()) {
        if (auto folded = foldUnary(u.op, *v.constant)) {
          if (u.op == UnaryOpKind::Invert && v.constant->kind == ConstValue::Kind::Bool) {
            folded = ConstValue::ofBool(!v.constant->boolValue);
          }
          Val r = constantVal(*folded);
          if (r.type.valid() && (u.op == UnaryOpKind::Not || foldKeepsType(r, v, nullptr, std::nullopt))) {
            inst_.opTypes[id.index] = r.type;
            return record(id, r);
          }
        }
      }
      if (!v.isValue()) {
        error(e.range, Diag::BadUnaryOperand, spelling(u.op), textOf(u.operand));
        return record(id, Val::bad());
      }
      if (u.op == UnaryOpKind::Not) {
        if (!types().isNumber(v.type) && !types().isTuple(v.type) && !types().isNone(v.type)) {
          error(e.range, Diag::BadUnaryOperand, "not", typeName(v.type));
          return record(id, Val::bad());
        }
        inst_.opTypes[id.index] = v.type;
        return record(id, valueOf(types().boolean()));
      }
      auto t = unaryResultType(types(), u.op, v.type);
      if (!t) {
        error(e.range, Diag::BadUnaryOperand, spelling(u.op), typeName(v.type));
        return record(id, Val::bad());
      }
      inst_.opTypes[id.index] = *t;
      return record(id, valueOf(*t));
    }
    case ExprKind::Compare:
      return record(id, checkCompare(id, e.as<ast::Compare>()));
    case ExprKind::BoolOp: {
      const auto& b = e.as<ast::BoolOp>();
      std::optional<TypeId> result;
      bool ok = true;
      for (ExprId v : ast_.list(b.values)) {
        Val x = checkExpr(v);
        if (!x.isValue()) {
          if (x.ok) error(ast_.expr(v).range, Diag::InvalidCondition, textOf(v));
          ok = false;
          continue;
        }
        if (!types().isNumber(x.type)) {
          error(ast_.expr(v).range, Diag::MismatchedOperandTypes,
                b.op == BoolOpKind::And ? "and" : "or", typeName(x.type), "...");
          ok = false;
          continue;
        }
        if (!result) {
          result = x.type;
        } else if (auto u = unifyTypes(types(), *result, x.type)) {
          result = *u;
        } else {
          ok = false;
        }
      }
      if (!ok || !result) return record(id, Val::bad());
      inst_.opTypes[id.index] = *result;
      return record(id, valueOf(*result));
    }
    case ExprKind::IfExp: {
      const auto& i = e.as<ast::IfExp>();
      checkCondition(i.test);
      Val a = checkExpr(i.body);
      Val b = checkExpr(i.orelse);
      if (!a.isValue() || !b.isValue()) {
        if ((a.ok && !a.type.valid()) || (b.ok && !b.type.valid())) {
          error(e.range, Diag::InvalidType, "both branches of a conditional expression must be values");
        }
        return record(id, Val::bad());
      }
      auto u = unifyTypes(types(), a.type, b.type);
      if (!u) {
        error(e.range, Diag::MismatchedOperandTypes, "if-else", typeName(a.type), typeName(b.type));
        return record(id, Val::bad());
      }
      inst_.opTypes[id.index] = *u;
      return record(id, valueOf(*u));
    }
    case ExprKind::Tuple: {
      const auto& t = e.as<ast::Tuple>();
      std::vector<TypeId> elements;
      ConstValue constant;
      constant.kind = ConstValue::Kind::Tuple;
      bool allConst = true;
      bool ok = true;
      for (ExprId x : ast_.list(t.elts)) {
        Val v = checkExpr(x);
        if (!v.isValue()) {
          if (v.ok) {
            error(ast_.expr(x).range, Diag::InvalidType,
                  "tuple elements must be numbers, arrays or tuples, found `" + textOf(x) + "`");
          }
          ok = false;
          continue;
        }
        if (types().isNone(v.type)) {
          error(ast_.expr(x).range, Diag::InvalidType, "tuple elements cannot be `None`");
          ok = false;
          continue;
        }
        elements.push_back(v.type);
        if (v.constant) {
          constant.elements.push_back(*v.constant);
        } else {
          allConst = false;
        }
      }
      if (!ok) return record(id, Val::bad());
      Val v = valueOf(types().tuple(elements));
      if (allConst) v.constant = constant;
      return record(id, v);
    }
    case ExprKind::List:
      error(e.range, Diag::UnsupportedConstruct, "a list");
      return record(id, Val::bad());
    case ExprKind::Dict:
      error(e.range, Diag::UnsupportedConstruct, "a dict");
      return record(id, Val::bad());
    case ExprKind::Set:
      error(e.range, Diag::UnsupportedConstruct, "a set");
      return record(id, Val::bad());
    case ExprKind::ListComp:
    case ExprKind::SetComp:
    case ExprKind::DictComp:
      error(e.range, Diag::UnsupportedConstruct, "a comprehension");
      return record(id, Val::bad());
    case ExprKind::GeneratorExp:
      error(e.range, Diag::UnsupportedConstruct, "a generator expression");
      return record(id, Val::bad());
    case ExprKind::Lambda:
      error(e.range, Diag::UnsupportedConstruct, "`lambda`");
      return record(id, Val::bad());
    case ExprKind::Yield:
    case ExprKind::YieldFrom:
      error(e.range, Diag::UnsupportedConstruct, "`yield`");
      return record(id, Val::bad());
    case ExprKind::Await:
      error(e.range, Diag::UnsupportedConstruct, "`await`");
      return record(id, Val::bad());
    case ExprKind::JoinedStr:
    case ExprKind::FormattedValue:
      error(e.range, Diag::UnsupportedConstruct, "an f-string");
      return record(id, Val::bad());
    case ExprKind::NamedExpr:
      error(e.range, Diag::UnsupportedConstruct, "`:=`");
      return record(id, Val::bad());
    case ExprKind::Starred:
      error(e.range, Diag::UnsupportedConstruct, "`*` unpacking");
      return record(id, Val::bad());
    case ExprKind::Slice:
      error(e.range, Diag::UnsupportedFeature, "array slicing is not supported in kernels yet");
      return record(id, Val::bad());
  }
  return record(id, Val::bad());
}

// A module-level name's value in a kernel (a global, or a pasted attribute of a sibling
// module object); errors for host values at `range`.
Val FunctionChecker::globalVal(const Entity& entity, const std::string& name, const NodeRange& range) {
  Val v;
  v.path = entity.path;
  v.meaning = ExprMeaning{entity.kind, entity.payload};
  switch (entity.kind) {
    case Intrinsic::Constant:
      return constantVal(mc_.module().constants[entity.payload]);
    case Intrinsic::MathConst:
      if (isComplexMathConst(entity.payload)) {
        v.type = types().complexType(128);
        return v;
      }
      return constantVal(ConstValue::ofFloat(mathConstValue(entity.payload)));
    case Intrinsic::HostValue:
      if (entity.payload == 1) {
        error(range, Diag::UndecoratedFunction, name);
      } else if (auto it = mc_.module().measuredConstants.find(name);
                 entity.payload == 2 && it != mc_.module().measuredConstants.end()) {
        const auto& m = it->second;
        bool direct = m.defineName == name && m.scipyName != "physical_constants";
        error(range, Diag::MeasuredConstant, name, direct ? "is" : "is computed from", m.scipyName,
              m.defineName.empty() ? name : m.defineName);
      } else {
        error(range, Diag::HostGlobal, name);
      }
      return Val::bad();
    case Intrinsic::Conditional:
      error(range, Diag::ConditionalGlobal, name, entity.payload);
      return Val::bad();
    case Intrinsic::EnclosingLocal:
      error(range, Diag::EnclosingLocal, name, mc_.module().scopes[entity.payload - 1].function);
      return Val::bad();
    case Intrinsic::Laneid:
    case Intrinsic::Warpsize:
      v.type = types().int32();
      return v;
    case Intrinsic::ConstArray: {
      // numba freezes global arrays: constant memory, C order.
      const ConstArrayData& data = mc_.module().constArrays[entity.payload];
      v.type = types().array(data.element, static_cast<unsigned>(data.shape.size()), Layout::C);
      return v;
    }
    default:
      v.path = entity.kind == Intrinsic::Function ? name : entity.path;
      return v;
  }
}

std::optional<Val> FunctionChecker::omittedNone(const std::string& name, const NodeRange& range) {
  auto p = std::find(fn_.params.begin(), fn_.params.end(), name);
  auto o = inst_.omitted.find(static_cast<uint32_t>(p - fn_.params.begin()));
  if (p == fn_.params.end() || o == inst_.omitted.end() || o->second.kind != ConstValue::Kind::None) {
    return std::nullopt;
  }
  if (!constLocal(name)) {
    // Reported once (at the first use).
    if (reporting_ && failedNames_.insert(name).second) {
      error(range, Diag::UnsupportedFeature,
            "`" + name + "` is left out (its default is None) and assigned in the function: pykc "
            "types a parameter whose default is None only where the function does not assign it");
    }
    return Val::bad();
  }
  Val v;
  v.type = types().none();
  v.constant = ConstValue{};
  return v;
}

Val FunctionChecker::checkName(ExprId id, const ast::Name& n) {
  std::string name(ast_.str(n.id));
  const Expr& e = ast_.expr(id);
  if (locals_.count(name)) {
    if (auto ent = entityVars_.find(name); ent != entityVars_.end() && !vars_.count(name)) {
      return ent->second;
    }
    if (auto none = omittedNone(name, e.range)) return *none;
    auto it = vars_.find(name);
    if (it == vars_.end()) {
      if (reporting_ && !failedNames_.count(name)) error(e.range, Diag::UseBeforeAssign, name);
      return Val::bad();
    }
    Val v = valueOf(it->second);
    // A local defined once by a constant (or an omitted argument): its value is known.
    if (const ConstValue* c = constLocal(name)) v.constant = *c;
    return v;
  }
  if (const Entity* global = mc_.module().lookup(name, fn_.scope)) return globalVal(*global, name, e.range);
  struct Builtin {
    std::string_view name;
    Intrinsic kind;
  };
  static constexpr Builtin kBuiltins[] = {
      {"range", Intrinsic::Range}, {"min", Intrinsic::Min},     {"max", Intrinsic::Max},
      {"abs", Intrinsic::Abs},     {"len", Intrinsic::Len},     {"round", Intrinsic::Round},
      {"int", Intrinsic::Int},     {"float", Intrinsic::Float}, {"bool", Intrinsic::Bool},
      {"print", Intrinsic::Print}, {"enumerate", Intrinsic::Enumerate},
      {"zip", Intrinsic::Zip},     {"complex", Intrinsic::ComplexCtor}, {"pow", Intrinsic::Pow},
      {"breakpoint", Intrinsic::Breakpoint},
  };
  for (const Builtin& b : kBuiltins) {
    if (b.name == name) {
      Val v;
      v.meaning.kind = b.kind;
      v.path = name;
      return v;
    }
  }
  error(e.range, Diag::UndefinedName, name);
  return Val::bad();
}

Val FunctionChecker::checkAttribute(ExprId id, const ast::Attribute& a) {
  Val base = checkExpr(a.value);
  if (!base.ok) return Val::bad();
  std::string attr(ast_.str(a.attr));
  const Expr& e = ast_.expr(id);
  if (base.isValue() && types().isRecord(base.type)) return recordField(e.range, base.type, attr);
  if (base.isValue() && types().isVector(base.type)) {
    // A vector type's `.x .y .z .w` (read-only, as numba's attribute wrappers).
    const auto& elements = types().get(base.type).elements;
    size_t index = std::string_view("xyzw").find(attr);
    if (attr.size() == 1 && index < elements.size()) return valueOf(elements[index]);
    error(e.range, Diag::UnknownAttribute, typeName(base.type), attr);
    return Val::bad();
  }
  switch (base.meaning.kind) {
    case Intrinsic::ThreadIdx:
    case Intrinsic::BlockIdx:
    case Intrinsic::BlockDim:
    case Intrinsic::GridDim: {
      if (attr != "x" && attr != "y" && attr != "z") break;
      Val v = valueOf(types().int32());
      v.meaning = ExprMeaning{base.meaning.kind, static_cast<uint32_t>(attr[0] - 'x')};
      return v;
    }
    case Intrinsic::CffiFfi: {
      if (attr != "from_buffer") break;
      Val v;
      v.path = base.path + ".from_buffer";
      v.meaning = ExprMeaning{Intrinsic::FromBuffer, 0};
      return v;
    }
    case Intrinsic::ModuleObject: {
      // `core.f` of a sibling module object: the pasted `f`.
      const auto& pasted = mc_.module().moduleObjects[base.meaning.payload];
      const Entity* global = mc_.module().lookup(attr, 0);
      if (!pasted.count(attr) || global == nullptr) break;
      return globalVal(*global, base.path + "." + attr, e.range);
    }
    case Intrinsic::GridGroup: {
      if (attr != "sync") break;
      Val v;
      v.path = base.path + ".sync";
      v.meaning = ExprMeaning{Intrinsic::GridSync, 0};
      return v;
    }
    case Intrinsic::Module: {
      std::string path = base.path + "." + attr;
      auto entity = lookupEntity(path, types());
      if (!entity) break;
      Val v;
      v.path = path;
      v.meaning = ExprMeaning{entity->kind, entity->payload};
      if (entity->kind == Intrinsic::MathConst) {
        if (isComplexMathConst(entity->payload)) {
          v.type = types().complexType(128);  // cmath.infj, cmath.nanj
          return v;
        }
        Val c = constantVal(ConstValue::ofFloat(mathConstValue(entity->payload)));
        return c;
      }
      if (entity->kind == Intrinsic::Laneid || entity->kind == Intrinsic::Warpsize) {
        v.type = types().int32();
      }
      return v;
    }
    case Intrinsic::ConstArray:
    case Intrinsic::None: {
      if (!base.isValue()) break;
      if ((types().isInt(base.type) || types().isFloat(base.type)) && attr == "view") {
        Val v;
        v.meaning.kind = Intrinsic::ScalarView;
        v.path = textOf(a.value) + ".view";
        return v;
      }
      if (types().isScalar(base.type) && (attr == "real" || attr == "imag" || attr == "conjugate")) {
        // numba: numbers have .real/.imag/.conjugate() too (imag of a real is 0).
        TypeId part = types().isComplex(base.type) ? types().complexPart(base.type) : base.type;
        Val v = valueOf(attr == "conjugate" ? TypeId() : part);
        v.meaning.kind = attr == "real"   ? Intrinsic::ComplexReal
                         : attr == "imag" ? Intrinsic::ComplexImag
                                          : Intrinsic::ComplexConjugate;
        v.path = textOf(a.value) + "." + attr;
        if (attr == "conjugate") v.type = TypeId();
        return v;
      }
      if (types().isArray(base.type)) {
        const Type& t = types().get(base.type);
        if (attr == "shape" || attr == "strides") {
          inst_.arrayAttrs[id.index] = attr == "shape" ? ArrayAttr::Shape : ArrayAttr::Strides;
          return valueOf(types().uniTuple(types().int64(), t.ndim));
        }
        if (attr == "size") {
          inst_.arrayAttrs[id.index] = ArrayAttr::Size;
          return valueOf(types().int64());
        }
        if (attr == "ndim") {
          inst_.arrayAttrs[id.index] = ArrayAttr::Ndim;
          return constantVal(ConstValue::ofInt(t.ndim));
        }
        if (attr == "T") {
          // numba: the transpose reverses the dimensions (C <-> F).
          inst_.arrayAttrs[id.index] = ArrayAttr::Transpose;
          Layout l = t.ndim == 1 ? t.layout
                     : t.layout == Layout::C ? Layout::F
                     : t.layout == Layout::F ? Layout::C
                                             : Layout::A;
          return valueOf(types().array(t.element, t.ndim, l));
        }
        if (attr == "dtype") {
          // The element type as a dtype value (`cuda.shared.array(n, dtype=acts.dtype)`,
          // `acts.dtype.type(0)` as numba types them): a compile-time type object.
          Val v;
          v.path = textOf(a.value) + ".dtype";
          v.meaning = ExprMeaning{Intrinsic::TypeObject, t.element.index};
          return v;
        }
        if (attr == "flat" || attr == "itemsize" || attr == "nbytes") {
          error(e.range, Diag::UnsupportedFeature,
                "array attribute `" + attr + "` is not supported in kernels yet");
          return Val::bad();
        }
      }
      error(e.range, Diag::UnknownAttribute, typeName(base.type), attr);
      return Val::bad();
    }
    default:
      break;
  }
  error(e.range, Diag::UnknownAttribute, textOf(a.value), attr);
  return Val::bad();
}

bool FunctionChecker::checkArrayIndex(ExprId indexExpr, TypeId arrayType, const Val& index) {
  const Type& array = types().get(arrayType);
  const Expr& ie = ast_.expr(indexExpr);
  if (!index.isValue()) {
    if (index.ok) {
      error(ie.range, Diag::InvalidIndex, "array index must be an integer, found `" + textOf(indexExpr) + "`");
    }
    return false;
  }
  std::vector<TypeId> indices;
  if (types().isTuple(index.type)) {
    indices = types().get(index.type).elements;
  } else {
    indices.push_back(index.type);
  }
  for (TypeId t : indices) {
    if (!types().isInt(t)) {
      error(ie.range, Diag::InvalidIndex,
            "array index must be an integer, found `" + typeName(t) + "`");
      return false;
    }
  }
  if (indices.size() != array.ndim) {
    if (indices.size() < array.ndim) {
      error(ie.range, Diag::UnsupportedFeature,
            "indexing a " + std::to_string(array.ndim) + "-d array with " +
                plural(indices.size(), "index") +
                " (a view of the array) is not supported in kernels yet");
    } else {
      error(ie.range, Diag::InvalidIndex,
            "too many indices for `" + typeName(arrayType) + "`: found " +
                std::to_string(indices.size()));
    }
    return false;
  }
  return true;
}

// `a[i]`, `a[1:n]`, `a[:, j]`, `a[i, ::2]`: a view of the array. Integers
// drop a dimension, slices keep it, missing trailing indices are `:`. The
// layout follows numba (arraydecl.get_array_index_type).
Val FunctionChecker::checkArrayView(ExprId id, const ast::Subscript& s, TypeId arrayType) {
  const Type& at = types().get(arrayType);
  const Expr& slice = ast_.expr(s.slice);
  std::vector<ExprId> items;
  if (const auto* t = slice.dyn<ast::Tuple>()) {
    for (ExprId x : ast_.list(t->elts)) items.push_back(x);
  } else {
    items.push_back(s.slice);
  }
  if (items.size() > at.ndim) {
    error(slice.range, Diag::InvalidIndex,
          "too many indices for `" + typeName(arrayType) + "`: found " + std::to_string(items.size()));
    return Val::bad();
  }
  // Per explicit index: 0 an integer, 1 a slice without step, 2 a slice with a step.
  std::vector<int> kinds;
  bool ok = true;
  for (ExprId item : items) {
    const Expr& ie = ast_.expr(item);
    if (const auto* sl = ie.dyn<ast::Slice>()) {
      for (ExprId part : {sl->lower, sl->upper, sl->step}) {
        if (!part.valid()) continue;
        Val v = checkExpr(part);
        if (!v.ok) {
          ok = false;
        } else if (!v.isValue() || !types().isInt(v.type)) {
          error(ast_.expr(part).range, Diag::InvalidIndex,
                "slice bounds must be integers, found `" +
                    (v.isValue() ? typeName(v.type) : textOf(part)) + "`");
          ok = false;
        } else if (part == sl->step && v.constant && v.constant->kind == ConstValue::Kind::Int &&
                   v.constant->intValue == 0) {
          error(ast_.expr(part).range, Diag::InvalidIndex, "slice step cannot be zero");
          ok = false;
        }
      }
      record(item, Val::bad());
      kinds.push_back(sl->step.valid() ? 2 : 1);
      continue;
    }
    Val v = checkExpr(item);
    if (!v.ok) {
      ok = false;
    } else if (!v.isValue() || !types().isInt(v.type)) {
      error(ie.range, Diag::InvalidIndex,
            "array index must be an integer or a slice, found `" +
                (v.isValue() ? typeName(v.type) : textOf(item)) + "`");
      ok = false;
    }
    kinds.push_back(0);
  }
  if (!ok) return Val::bad();
  unsigned ndim = 0;
  for (int k : kinds) ndim += k != 0 ? 1 : 0;
  ndim += at.ndim - static_cast<unsigned>(items.size());
  if (ndim == 0) {
    // Only possible with integers for every dimension: an element.
    return valueOf(at.element);
  }
  auto keeps = [](int kind, bool innermost) { return kind == 0 || (innermost && kind == 1); };
  auto contiguous = [&](const std::vector<int>& outer) {
    for (size_t k = 0; k + 1 < outer.size(); ++k) {
      if (!keeps(outer[k], false)) return false;
    }
    return outer.empty() || keeps(outer.back(), true);
  };
  Layout layout = at.layout;
  bool full = items.size() == at.ndim;
  if (layout == Layout::C) {
    if (!contiguous(kinds)) layout = Layout::A;
  } else if (layout == Layout::F) {
    std::vector<int> reversed(kinds.rbegin(), kinds.rend());
    if (!full || !contiguous(reversed)) layout = Layout::A;
  }
  (void)id;
  return valueOf(types().array(at.element, ndim, layout));
}

Val FunctionChecker::checkSubscript(ExprId id, const ast::Subscript& s) {
  Val base = checkExpr(s.value);
  const Expr& e = ast_.expr(id);
  if (!base.ok) {
    checkExpr(s.slice);
    return Val::bad();
  }
  if (!base.isValue()) {
    checkExpr(s.slice);
    error(ast_.expr(s.value).range, Diag::NotIndexable, textOf(s.value));
    return Val::bad();
  }
  if (types().isRecord(base.type)) {
    // `r['x']`: a field named by a string literal, as numba requires.
    const Expr& key = ast_.expr(s.slice);
    if (!key.is<ast::Constant>() || ast_.constantOf(s.slice).kind != ConstantKind::Str) {
      checkExpr(s.slice);
      error(key.range, Diag::InvalidIndex,
            "a record is indexed by a field name (a string literal), found `" + textOf(s.slice) + "`");
      return Val::bad();
    }
    return recordField(e.range, base.type, ast_.constantOf(s.slice).text);
  }
  const Expr& slice = ast_.expr(s.slice);
  bool hasSlice = slice.is<ast::Slice>();
  if (const auto* t = slice.dyn<ast::Tuple>()) {
    for (ExprId x : ast_.list(t->elts)) hasSlice = hasSlice || ast_.expr(x).is<ast::Slice>();
  }
  if (types().isArray(base.type)) {
    unsigned ndim = types().get(base.type).ndim;
    if (hasSlice) return checkArrayView(id, s, base.type);
    if (const auto* t = slice.dyn<ast::Tuple>(); t != nullptr && t->elts.size < ndim) {
      return checkArrayView(id, s, base.type);
    }
    if (!slice.is<ast::Tuple>() && ndim > 1) {
      Val single = checkExpr(s.slice);
      if (single.isValue() && types().isInt(single.type)) return checkArrayView(id, s, base.type);
    }
  }
  Val index = checkExpr(s.slice);
  if (types().isArray(base.type)) {
    if (!index.ok) return Val::bad();
    if (!checkArrayIndex(s.slice, base.type, index)) return Val::bad();
    return valueOf(types().get(base.type).element);
  }
  if (types().isTuple(base.type)) {
    const std::vector<TypeId>& elements = types().get(base.type).elements;
    if (!index.ok) return Val::bad();
    if (index.constant && index.constant->kind == ConstValue::Kind::Int) {
      int64_t n = static_cast<int64_t>(elements.size());
      int64_t k = index.constant->intValue;
      if (k < 0) k += n;
      if (k < 0 || k >= n) {
        error(slice.range, Diag::IndexOutOfRange,
              "tuple index " + std::to_string(index.constant->intValue) +
                  " is out of range for `" + typeName(base.type) + "`");
        return Val::bad();
      }
      Val v = valueOf(elements[k]);
      if (base.constant && base.constant->kind == ConstValue::Kind::Tuple) {
        v.constant = base.constant->elements[k];
      }
      return v;
    }
    if (!index.isValue() || !types().isInt(index.type)) {
      error(slice.range, Diag::InvalidIndex, "tuple index must be an integer");
      return Val::bad();
    }
    bool uniform = !elements.empty() &&
                   std::all_of(elements.begin(), elements.end(),
                               [&](TypeId t) { return t == elements[0]; }) &&
                   types().isNumber(elements[0]);
    if (!uniform) {
      error(slice.range, Diag::InvalidIndex,
            "a tuple of mixed types (`" + typeName(base.type) +
                "`) can only be indexed with a constant");
      return Val::bad();
    }
    return valueOf(elements[0]);
  }
  error(ast_.expr(s.value).range, Diag::NotIndexable, typeName(base.type));
  (void)e;
  return Val::bad();
}

bool FunctionChecker::foldKeepsType(const Val& folded, const Val& l, const Val* r,
                                    std::optional<ArithOp> op) {
  auto natural = [&](const Val& v) {
    return v.constant && v.constant->scalarType.empty() &&
           typeOfConstant(*v.constant, types()) == std::optional<TypeId>(v.type);
  };
  // Python numbers (and locals typed as their values are): folded as Python computes.
  if (natural(l) && (r == nullptr || natural(*r))) return true;
  if (r == nullptr) return folded.type == l.type;
  if (!op) return false;
  auto typing = binaryResultType(types(), *op, l.type, r->type);
  return typing && typing->result == folded.type;
}

Val FunctionChecker::checkBinOp(ExprId id, const ast::BinOp& b) {
  Val l = checkExpr(b.left);
  Val r = checkExpr(b.right);
  const Expr& e = ast_.expr(id);
  if (!l.ok || !r.ok) return Val::bad();
  if (l.constant && r.constant && l.isValue() && r.isValue()) {
    if (auto folded = foldBinary(b.op, *l.constant, *r.constant)) {
      Val v = constantVal(*folded);
      if (v.type.valid() && foldKeepsType(v, l, &r, arithOf(b.op))) {
        inst_.opTypes[id.index] = v.type;
        return v;
      }
    }
  }
  if (!l.isValue() || !r.isValue()) {
    error(e.range, Diag::MismatchedOperandTypes, spelling(b.op),
          l.isValue() ? typeName(l.type) : textOf(b.left),
          r.isValue() ? typeName(r.type) : textOf(b.right));
    return Val::bad();
  }
  if (types().isArray(l.type) || types().isArray(r.type)) {
    error(e.range, Diag::MismatchedOperandTypes, spelling(b.op), typeName(l.type),
          typeName(r.type));
    if (reporting_) {
      // No position: the error above already points at the expression.
      diags_.note(Location{}, "array expressions are not supported in kernels: "
                              "compute element by element");
    }
    return Val::bad();
  }
  auto op = arithOf(b.op);
  std::optional<OpTyping> typing;
  if (op) typing = binaryResultType(types(), *op, l.type, r.type);
  if (!typing) {
    error(e.range, Diag::MismatchedOperandTypes, spelling(b.op), typeName(l.type),
          typeName(r.type));
    return Val::bad();
  }
  inst_.opTypes[id.index] = typing->operand;
  inst_.powExponentTypes[id.index] = typing->exponent;
  return valueOf(typing->result);
}

Val FunctionChecker::checkCompare(ExprId id, const ast::Compare& c) {
  Val left = checkExpr(c.left);
  auto ops = ast_.list(c.ops);
  auto comparators = ast_.list(c.comparators);
  bool ok = left.ok;
  std::optional<ConstValue> constant = ConstValue::ofBool(true);
  bool allConst = true;
  ExprId leftId = c.left;
  for (size_t k = 0; k < ops.size(); ++k) {
    Val right = checkExpr(comparators[k]);
    CmpOp op = ops[k];
    if (!left.ok || !right.ok) {
      ok = false;
    } else if (op == CmpOp::Is || op == CmpOp::IsNot) {
      bool lNone = left.isValue() && types().isNone(left.type);
      bool rNone = right.isValue() && types().isNone(right.type);
      ExprId maybe = isOptional(leftId) ? leftId : isOptional(comparators[k]) ? comparators[k] : ExprId();
      if (maybe.valid() && (lNone || rNone)) {
        error(ast_.expr(id).range, Diag::UnsupportedFeature,
              "`" + textOf(maybe) + "` may be None (numba's Optional: it comes from a device function "
              "that returns None on some paths); pykc uses such values only as numbers, where None "
              "ends the thread as numba's failed cast does: test for None inside that function");
        ok = false;
      } else if (!lNone && !rNone) {
        error(ast_.expr(id).range, Diag::UnsupportedFeature,
              "`is` compares with `None` only in kernels");
        ok = false;
      } else {
        // Values in kernels are never None unless they are the constant.
        bool same = lNone && rNone;
        ConstValue v = ConstValue::ofBool(op == CmpOp::Is ? same : !same);
        if (constant && constant->boolValue) constant = v;
      }
      inst_.opTypes[comparators[k].index] = types().boolean();
    } else if (op == CmpOp::In || op == CmpOp::NotIn) {
      error(ast_.expr(id).range, Diag::UnsupportedFeature, "`in` is not supported in kernels yet");
      ok = false;
    } else if (left.isValue() && right.isValue() && types().isScalar(left.type) &&
               types().isScalar(right.type) &&
               (types().isComplex(left.type) || types().isComplex(right.type))) {
      if (op != CmpOp::Eq && op != CmpOp::NotEq) {
        error(ast_.expr(id).range, Diag::MismatchedOperandTypes, spelling(op),
              typeName(left.type), typeName(right.type));
        ok = false;
      } else {
        inst_.opTypes[comparators[k].index] = *comparisonType(types(), left.type, right.type);
        allConst = false;
      }
    } else if (!left.isValue() || !right.isValue() || !types().isNumber(left.type) ||
               !types().isNumber(right.type)) {
      error(ast_.expr(id).range, Diag::MismatchedOperandTypes, spelling(op),
            left.isValue() ? typeName(left.type) : textOf(leftId),
            right.isValue() ? typeName(right.type) : textOf(comparators[k]));
      ok = false;
    } else {
      auto t = comparisonType(types(), left.type, right.type);
      inst_.opTypes[comparators[k].index] = *t;
      if (allConst && left.constant && right.constant) {
        auto folded = foldCompare(op, *left.constant, *right.constant);
        if (folded && constant && constant->boolValue) constant = folded;
        if (!folded) allConst = false;
      } else {
        allConst = false;
      }
    }
    left = right;
    leftId = comparators[k];
  }
  if (!ok) return Val::bad();
  Val v = valueOf(types().boolean());
  if (allConst && constant) v.constant = constant;
  return v;
}

}  // namespace frontend::simt
