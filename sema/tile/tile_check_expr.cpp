// Expressions and the typing rules: names, operators, broadcasting, promotion.
#include "sema/tile/tile_check_internal.h"
#include "sema/const_instance.h"

#include "sema/scalar_convert.h"

namespace frontend::tile {

TV TileChecker::record(ExprId id, TV v) {
  switch (v.k) {
    case TV::K::Value:
      // A 0-d tile is a scalar (cuTile uses them alike: `ct.sum(t)`, `t.item()`,
      // `ct.full((), x)` go wherever a number goes); every thread holds it.
      if (types_.isTile(v.type) && types_.get(v.type).shape.empty()) v.type = types_.get(v.type).element;
      inst_.exprTypes[id.index] = v.type;
      inst_.constIndex[id.index] = -1;  // an AugAssign's target: read as a constant, now a value
      break;
    case TV::K::Const:
      inst_.constIndex[id.index] = static_cast<int32_t>(inst_.constants.size());
      inst_.constants.push_back(v.c);
      if (auto t = typeOfConstant(v.c, types_)) inst_.exprTypes[id.index] = *t;
      break;
    case TV::K::Entity:
      inst_.meanings[id.index] = ExprMeaning{v.ent, v.payload};
      break;
    case TV::K::Dict:
    case TV::K::Closure:
    case TV::K::Items:
    case TV::K::Bad:
      break;
  }
  return v;
}

std::string TileChecker::describe(const TV& v) const {
  switch (v.k) {
    case TV::K::Value: return nameOf(v.type);
    case TV::K::Const: return v.c.repr();
    case TV::K::Entity: return v.path;
    case TV::K::Dict: {
      std::string s = "{";
      for (size_t i = 0; i < v.keys.size(); ++i) s += (i ? ", '" : "'") + v.keys[i] + "': " + describe(v.items[i]);
      return s + "}";
    }
    case TV::K::Closure: return v.lambda.valid() ? "<lambda>" : "<function " + v.path + ">";
    case TV::K::Items: {
      std::string s = "(";
      for (size_t i = 0; i < v.items.size(); ++i) s += (i ? ", " : "") + describe(v.items[i]);
      return s + (v.items.size() == 1 ? ",)" : ")");
    }
    case TV::K::Bad: return "?";
  }
  return "?";
}

TV TileChecker::checkExpr(ExprId id) {
  const Expr& e = ast_.expr(id);
  switch (e.kind()) {
    case ExprKind::Constant: {
      bool ok = false;
      const ConstantValue& c = ast_.constantOf(id);
      ConstValue v;
      if (c.kind == ConstantKind::True || c.kind == ConstantKind::False) {
        v = ConstValue::ofBool(c.kind == ConstantKind::True);
        ok = true;
      } else if (c.kind == ConstantKind::Int && c.fitsInt64) {
        v = ConstValue::ofInt(c.intValue);
        ok = true;
      } else if (c.kind == ConstantKind::Float) {
        v = ConstValue::ofFloat(c.floatValue);
        ok = true;
      } else if (c.kind == ConstantKind::None) {
        ok = true;
      } else if (c.kind == ConstantKind::Str) {
        // A compile-time string (an enum's value, a comparison, a message).
        v.kind = ConstValue::Kind::Str;
        v.strValue = c.text;
        ok = true;
      }
      if (!ok) {
        diags_.error(loc(id), Diag::UnsupportedFeature, "this constant is not supported in tile kernels");
        return TV{};
      }
      return record(id, TV::constant(v));
    }
    case ExprKind::Name:
      return checkName(id, e.as<ast::Name>());
    case ExprKind::Attribute:
      return checkAttribute(id, e.as<ast::Attribute>());
    case ExprKind::Tuple: {
      ConstValue tuple;
      tuple.kind = ConstValue::Kind::Tuple;
      bool allConst = true;
      std::vector<TV> elements;
      bool functions = false;
      for (ExprId elt : ast_.list(e.as<ast::Tuple>().elts)) {
        // `(7, *a, 8)`: a starred tuple's elements, spliced in.
        const auto* star = ast_.expr(elt).dyn<ast::Starred>();
        TV v = checkExpr(star != nullptr ? star->value : elt);
        if (!v.ok()) return TV{};
        if (isAggregate(v) && star == nullptr) {
          functions = true;
          elements.push_back(v);
          continue;
        }
        elements.push_back(v);
        if (star != nullptr && !(v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Tuple) &&
            !(v.k == TV::K::Value && types_.isTuple(v.type))) {
          diags_.error(loc(elt), Diag::TileType, "`*` in a tuple takes a tuple, found `" + describe(v) + "`");
          return TV{};
        }
        if (v.k != TV::K::Const) {
          allConst = false;
        } else if (star != nullptr) {
          tuple.elements.insert(tuple.elements.end(), v.c.elements.begin(), v.c.elements.end());
        } else {
          tuple.elements.push_back(v.c);
        }
      }
      // A tuple holding functions (cuTile's tuples hold closures as any value).
      if (functions) return itemsOf(elements, e.range);
      if (allConst) return record(id, TV::constant(tuple));
      return runtimeTuple(id, e.as<ast::Tuple>());
    }
    case ExprKind::BinOp: {
      const auto& b = e.as<ast::BinOp>();
      return binaryOp(id, b.op, b.left, b.right);
    }
    case ExprKind::UnaryOp: {
      const auto& u = e.as<ast::UnaryOp>();
      return unaryOp(id, u.op, u.operand);
    }
    case ExprKind::Compare: {
      const auto& c = e.as<ast::Compare>();
      auto ops = ast_.list(c.ops);
      auto rights = ast_.list(c.comparators);
      if (ops.size() != 1) {
        diags_.error(loc(id), Diag::UnsupportedFeature,
                     "chained comparisons are not supported in tile kernels");
        return TV{};
      }
      return compareOp(id, ops[0], c.left, rights[0]);
    }
    case ExprKind::Call:
      return checkCall(id, e.as<ast::Call>());
    case ExprKind::Subscript: {
      // `array.shape[d]` (int32, as cuTile's array shapes), or an element
      // of a constant tuple.
      const auto& sub = e.as<ast::Subscript>();
      const auto* attr = ast_.expr(sub.value).dyn<ast::Attribute>();
      if (attr != nullptr && ast_.str(attr->attr) == "shape") {
        TV base = checkExpr(attr->value);
        if (!base.ok()) return TV{};
        if (base.k == TV::K::Value && types_.isArray(base.type) && !types_.get(base.type).facts.raw &&
            !types_.get(base.type).facts.view) {
          auto d = constInt(sub.slice, "the dimension of `shape[...]`");
          if (!d) return TV{};
          int64_t ndim = types_.get(base.type).ndim;
          if (*d < -ndim || *d >= ndim) {
            diags_.error(loc(sub.slice), Diag::IndexOutOfRange,
                         "dimension " + std::to_string(*d) + " of a " + std::to_string(ndim) + "-d array");
            return TV{};
          }
          inst_.arrayAttrs[sub.value.index] = ArrayAttr::Shape;
          // A specialisation constant (`.assume(shape_constant=...)`): a compile-time extent.
          if (int64_t n = types_.get(base.type).facts.shapeConst(static_cast<size_t>(*d < 0 ? *d + ndim : *d));
              n != ArrayFacts::kUnknown) {
            return record(id, TV::constant(ConstValue::ofInt(n)));
          }
          // A view with constant bounds along this axis: its extent, a constant.
          if (const auto* view = ast_.expr(attr->value).dyn<ast::Name>()) {
            auto e = viewExtents_.find(std::string(ast_.str(view->id)));
            if (e != viewExtents_.end() && static_cast<int64_t>(e->second.first) == (*d < 0 ? *d + ndim : *d)) {
              return record(id, TV::constant(ConstValue::ofInt(e->second.second)));
            }
          }
          return record(id, TV::value(types_.int32()));
        }
      }
      if (auto picked = pickFromTupleLiteral(id, sub)) return *picked;
      if (auto entry = moduleDictSubscript(id, sub)) return *entry;
      TV base = checkExpr(sub.value);
      if (!base.ok()) return TV{};
      if (base.k == TV::K::Const && isConstInstance(base.c)) {
        diags_.error(loc(id), Diag::TileType, "'" + constInstanceClass(base.c) + "' object is not subscriptable");
        return TV{};
      }
      if (base.k == TV::K::Const && base.c.kind == ConstValue::Kind::Tuple) {
        if (const auto* slice = ast_.expr(sub.slice).dyn<ast::Slice>()) {
          auto part = constSlice(base.c, *slice);
          return part ? record(id, TV::constant(*part)) : TV{};
        }
        auto i = constInt(sub.slice, "a tuple index");
        if (!i) return TV{};
        int64_t n = static_cast<int64_t>(base.c.elements.size());
        if (*i < -n || *i >= n) {
          diags_.error(loc(sub.slice), Diag::IndexOutOfRange, "tuple index out of range");
          return TV{};
        }
        return record(id, TV::constant(base.c.elements[static_cast<size_t>(*i < 0 ? *i + n : *i)]));
      }
      if (base.k == TV::K::Dict) return checkDictSubscript(id, sub, base);
      if (base.k == TV::K::Items) {
        auto i = constInt(sub.slice, "a tuple index");
        if (!i) return TV{};
        auto n = static_cast<int64_t>(base.items.size());
        if (*i < -n || *i >= n) {
          diags_.error(loc(sub.slice), Diag::IndexOutOfRange, "tuple index out of range");
          return TV{};
        }
        return base.items[static_cast<size_t>(*i < 0 ? *i + n : *i)];
      }
      if (isTileVal(base)) return checkTileSubscript(id, sub, base);
      if (base.k == TV::K::Value && isDataclassType(types_, base.type)) {
        TV index = checkExpr(sub.slice);
        if (!index.ok()) return TV{};
        TileArgPiece piece;
        if (index.k == TV::K::Value) piece.expr = sub.slice;
        if (index.k == TV::K::Const) piece.expr = sub.slice;
        return callDunder(id, base, sub.value, "__getitem__", {ArgItem{index, piece, ast_.expr(sub.slice).range}},
                          "index");
      }
      if (base.k == TV::K::Value && types_.isTuple(base.type)) return checkTupleSubscript(id, sub, base);
      diags_.error(loc(id), Diag::TileUnsupported, "indexing `" + describe(base) + "`",
                   ": load tiles with `ct.load`");
      return TV{};
    }
    case ExprKind::IfExp:
      return checkIfExp(id, e.as<ast::IfExp>());
    case ExprKind::BoolOp:
      return checkBoolOp(id, e.as<ast::BoolOp>());
    case ExprKind::Dict:
      return checkDictDisplay(id, e.as<ast::Dict>());
    case ExprKind::Lambda:
      return makeClosure(StmtId(), id, e.range);
    default:
      diags_.error(loc(id), Diag::UnsupportedFeature,
                   "this expression is not supported in tile kernels");
      return TV{};
  }
}

TV TileChecker::checkName(ExprId id, const ast::Name& n) {
  std::string name(ast_.str(n.id));
  if (auto d = dicts_.find(name); d != dicts_.end()) return readDict(id, d->second);
  if (auto f = closures_.find(name); f != closures_.end()) return f->second;
  if (auto c = consts_.find(name); c != consts_.end()) return record(id, TV::constant(c->second));
  if (auto v = vars_.find(name); v != vars_.end()) {
    if (readAmbiguous(id, name)) return TV{};
    noteRead(name);
    // A run-time variable that holds one constant on every path here (`t = n + 2` in one
    // branch, `t = 7` in the other): the constant, loosely typed as cuTile propagates it.
    if (auto k = known_.find(name); k != known_.end() && k->second.c) return record(id, TV::constant(*k->second.c));
    return record(id, TV::value(v->second));
  }
  if (auto v = entities_.find(name); v != entities_.end()) return record(id, v->second);
  if (failed_.count(name)) return TV{};
  if (tupleAliases_.count(name)) {
    diags_.error(loc(id), Diag::TileUnsupported, "reading `" + name + "`, a tuple that holds arrays,",
                 ": splice it into a call (`f(*" + name + ")`) or index the parameters it holds");
    return TV{};
  }
  if (assigned_.count(name)) {
    diags_.error(loc(id), Diag::UseBeforeAssign, name);
    return TV{};
  }
  const Entity* global = module_.lookup(name, fn_.scope);
  if (global == nullptr && name == "print") {  // `p = print`: Python's print, as ct.print
    TV v;
    v.k = TV::K::Entity;
    v.ent = Intrinsic::TileOp;
    v.payload = static_cast<uint32_t>(TileFn::Print);
    v.path = "print";
    return record(id, v);
  }
  if (global == nullptr) {
    diags_.error(loc(id), Diag::UndefinedName, name);
    return TV{};
  }
  const Entity& entity = *global;
  switch (entity.kind) {
    case Intrinsic::Constant: {
      // `-D d=Spot(1, 2)`: an instance of the class this function sees (sema/const_instance.h).
      auto c = resolveConstObject(ast_, module_, module_.constants[entity.payload], "-D", name, fn_.scope, diags_);
      return c ? record(id, TV::constant(*c)) : TV{};
    }
    case Intrinsic::MathConst:
      if (!isComplexMathConst(entity.payload)) {
        return record(id, TV::constant(ConstValue::ofFloat(mathConstValue(entity.payload))));
      }
      break;
    case Intrinsic::Module:
    case Intrinsic::TileOp:
    case Intrinsic::EnumClass:
    case Intrinsic::TypeObject: {
      TV v;
      v.k = TV::K::Entity;
      v.ent = entity.kind;
      v.payload = entity.payload;
      v.path = entity.path;
      return record(id, v);
    }
    case Intrinsic::NumpyFn:
      // `-D func=operator.add`, `from operator import add`: Python's operator functions are
      // values, as `operator.add` is (checkAttribute).
      if (entity.path.rfind("operator.", 0) == 0) {
        TV v;
        v.k = TV::K::Entity;
        v.ent = entity.kind;
        v.payload = entity.payload;
        v.path = entity.path;
        return record(id, v);
      }
      break;
    case Intrinsic::Function:
      diags_.error(loc(id), Diag::TileUnsupported, "calling other kernels or functions", "");
      return TV{};
    case Intrinsic::HostValue:
      if (isClassPayload(entity.payload)) return record(id, classValue(name, entity.payload));
      if (isInstancePayload(entity.payload)) return globalInstance(id, instanceCallOf(entity.payload));
      // A plain `def` named as a value (`forward(leaf, foo=4)`): calls can take it.
      if (entity.payload == 1) {
        if (auto def = module_.plainDef(name, fn_.scope)) return record(id, functionValue(name, *def));
      }
      diags_.error(loc(id), Diag::HostGlobal, name);
      return TV{};
    case Intrinsic::Conditional:
      diags_.error(loc(id), Diag::ConditionalGlobal, name, entity.payload);
      return TV{};
    case Intrinsic::EnclosingLocal:
      diags_.error(loc(id), Diag::EnclosingLocal, name, module_.scopes[entity.payload - 1].function);
      return TV{};
    default:
      break;
  }
  diags_.error(loc(id), Diag::TileUnsupported, "`" + entity.path + "`", "");
  return TV{};
}

TV TileChecker::checkAttribute(ExprId id, const ast::Attribute& a) {
  TV base = checkExpr(a.value);
  if (!base.ok()) return TV{};
  std::string attr(ast_.str(a.attr));
  if (base.k == TV::K::Entity && base.ent == Intrinsic::Module) {
    std::string path = base.path + "." + attr;
    if (auto entity = lookupEntity(path, types_)) {
      TV v;
      v.k = TV::K::Entity;
      v.ent = entity->kind;
      v.payload = entity->payload;
      v.path = path;
      if (v.ent == Intrinsic::MathConst && !isComplexMathConst(v.payload)) {
        return record(id, TV::constant(ConstValue::ofFloat(mathConstValue(v.payload))));
      }
      // Python's operator functions are values for `ct.reduce(x, axis, operator.add, 0)`.
      if (v.ent == Intrinsic::Module || v.ent == Intrinsic::TileOp || v.ent == Intrinsic::TypeObject ||
          (v.ent == Intrinsic::NumpyFn && base.path == "operator")) {
        return record(id, v);
      }
    }
    if (path == "cuda.tile.float8_e5m3fnu") {
      // cuTile's own check_dtype_support: this dtype needs sm_107 (and tileiras 13.4).
      diags_.error(loc(id), Diag::TileUnsupported,
                   "`ct.float8_e5m3fnu` (unsigned E5M3)",
                   ": cuTile accepts it from sm_107 on, an architecture pykc does not target yet");
      return TV{};
    }
    diags_.error(loc(id), Diag::UnknownAttribute, base.path, attr);
    return TV{};
  }
  if (base.k == TV::K::Entity && base.ent == Intrinsic::TileOp &&
      (base.payload == static_cast<uint32_t>(TileFn::PaddingMode) ||
       base.payload == static_cast<uint32_t>(TileFn::RoundingMode) ||
       base.payload == static_cast<uint32_t>(TileFn::MemoryOrder) ||
       base.payload == static_cast<uint32_t>(TileFn::MemoryScope))) {
    if (auto p = tileMemberByName(static_cast<TileFn>(base.payload), attr)) {
      TV v;
      v.k = TV::K::Entity;
      v.ent = Intrinsic::TileOp;
      v.payload = static_cast<uint32_t>(*p);
      v.path = base.path + "." + attr;
      return record(id, v);
    }
    diags_.error(loc(id), Diag::UnknownAttribute, base.path, attr);
    return TV{};
  }
  if (base.k == TV::K::Entity && base.ent == Intrinsic::EnumClass) {
    // `Color.RED`: the member, a constant.
    const EnumClass& cls = module_.enums[base.payload];
    for (size_t i = 0; i < cls.members.size(); ++i) {
      if (cls.members[i].first == attr) return record(id, TV::constant(cls.member(i, base.payload)));
    }
    diags_.error(loc(id), Diag::UnknownAttribute, base.path, attr);
    return TV{};
  }
  if (base.k == TV::K::Const && base.c.kind == ConstValue::Kind::Enum && (attr == "value" || attr == "name")) {
    if (attr == "value") return record(id, TV::constant(base.c.elements[0]));
    ConstValue n;
    n.kind = ConstValue::Kind::Str;
    n.strValue = base.c.strValue.substr(base.c.strValue.find('.') + 1);
    return record(id, TV::constant(n));
  }
  if (base.k == TV::K::Const && isConstInstance(base.c)) return constInstanceAttribute(id, attr, base.c);
  if (base.k == TV::K::Const && base.c.isNumber() && attr == "dtype") {
    // A number's dtype: a NumPy scalar's own (`np.int16(4).dtype`), else the type the
    // number takes in a tile kernel (int32 where it fits, float32, bool).
    std::optional<TypeId> t = base.c.scalarType.empty() ? weakType(base.c)
                                                        : scalarTypeByName(types_, base.c.scalarType);
    if (t) {
      TV v;
      v.k = TV::K::Entity;
      v.ent = Intrinsic::TypeObject;
      v.payload = t->index;
      v.path = types_.dtypeName(*t);
      return record(id, v);
    }
  }
  if (isClassTV(base)) return checkClassAttribute(id, attr, base);
  if (base.k == TV::K::Value && isDataclassType(types_, base.type)) {
    return checkInstanceAttribute(id, attr, base, a.value);
  }
  if (base.k == TV::K::Value) {
    const Type& t = types_.get(base.type);
    if ((t.kind == TypeKind::Array || t.kind == TypeKind::Tile) && attr == "dtype") {
      TV v;
      v.k = TV::K::Entity;
      v.ent = Intrinsic::TypeObject;
      v.payload = t.element.index;
      v.path = types_.dtypeName(t.element);
      return record(id, v);
    }
    if (t.kind == TypeKind::Array && t.facts.view) return viewAttribute(id, attr, base, a.value);
    if (t.kind == TypeKind::Array && t.facts.raw) {
      // RawArrayMemory: its dtype (above), element-offset access and atomics.
      TV v;
      v.k = TV::K::Entity;
      v.ent = Intrinsic::TileOp;
      v.path = attr;
      v.self = a.value;
      std::optional<TileFn> fn;
      if (attr == "load_offset") fn = TileFn::LoadOffset;
      if (attr == "store_offset") fn = TileFn::StoreOffset;
      static constexpr std::string_view kOffset = "_offset";
      if (!fn && attr.size() > kOffset.size() && attr.ends_with(kOffset) && attr.starts_with("atomic_")) {
        auto op = tileFnByName(attr.substr(0, attr.size() - kOffset.size()));
        if (op && isTileAtomic(*op)) fn = op;
      }
      if (fn) {
        v.payload = static_cast<uint32_t>(*fn);
        return record(id, v);
      }
      diags_.error(loc(id), Diag::UnknownAttribute, describe(base), attr);
      return TV{};
    }
    if (t.kind == TypeKind::Tile && attr == "shape") {
      ConstValue shape;
      shape.kind = ConstValue::Kind::Tuple;
      for (int64_t d : t.shape) shape.elements.push_back(ConstValue::ofInt(d));
      return record(id, TV::constant(shape));
    }
    if (t.kind == TypeKind::Tile && attr == "ndim") {
      return record(id, TV::constant(ConstValue::ofInt(static_cast<int64_t>(t.shape.size()))));
    }
    if (t.kind == TypeKind::Array && attr == "ndim") {
      return record(id, TV::constant(ConstValue::ofInt(t.ndim)));
    }
    if (t.kind == TypeKind::Array && (attr == "shape" || attr == "strides")) {
      // The extents (strides in elements) as a tuple of int32, as cuTile's arrays give them.
      inst_.arrayAttrs[id.index] = attr == "shape" ? ArrayAttr::Shape : ArrayAttr::Strides;
      return record(id, TV::value(types_.tuple(std::vector<TypeId>(static_cast<size_t>(t.ndim), types_.int32()))));
    }
    // Methods: the operation bound to its receiver (`x.slice`, `t.reshape`, `t.astype`).
    auto method = [&](TileFn fn) {
      TV v;
      v.k = TV::K::Entity;
      v.ent = Intrinsic::TileOp;
      v.payload = static_cast<uint32_t>(fn);
      v.path = attr;
      v.self = a.value;
      return record(id, v);
    };
    if (t.kind == TypeKind::Array && attr == "slice") return method(TileFn::ArraySlice);
    if (t.kind == TypeKind::Array && attr == "get_raw_memory") return method(TileFn::GetRawMemory);
    if (t.kind == TypeKind::Array && attr == "tiled_view") return method(TileFn::TiledView);
    if (t.kind == TypeKind::Tile && (attr == "reshape" || attr == "permute" || attr == "transpose" || attr == "extract" ||
                                      attr == "insert")) {
      return method(*tileFnByName(attr));
    }
    bool scalarOrTile = t.kind == TypeKind::Tile || types_.isNumber(base.type);
    if (scalarOrTile && attr == "item") return method(TileFn::Item);
    if (scalarOrTile && attr == "astype") return method(TileFn::Astype);
  }
  // A constant number's `astype` (`shape[1].astype(dtype)` of `ct.static_eval(x.shape)`):
  // cuTile's constants are 0-d values with a tile's methods.
  if (base.k == TV::K::Const && base.c.isNumber() && attr == "astype") {
    TV v;
    v.k = TV::K::Entity;
    v.ent = Intrinsic::TileOp;
    v.payload = static_cast<uint32_t>(TileFn::Astype);
    v.path = attr;
    v.self = a.value;
    return record(id, v);
  }
  diags_.error(loc(id), Diag::UnknownAttribute, describe(base), attr);
  return TV{};
}

TypeId TileChecker::elementOf(TypeId t) const {
  const Type& ty = types_.get(t);
  return ty.kind == TypeKind::Tile || ty.kind == TypeKind::Array ? ty.element : t;
}

std::optional<TypeId> TileChecker::strictType(const ConstValue& c) {
  if (c.scalarType.empty() || !c.isNumber()) return std::nullopt;
  return scalarTypeByName(types_, c.scalarType);
}

std::optional<ConstValue> TileChecker::retype(const ConstValue& c, TypeId dtype) {
  return convertNumberTo(c, types_.get(dtype), types_.name(dtype));
}

std::optional<TypeId> TileChecker::weakType(const ConstValue& c) {
  if (auto t = strictType(c)) return t;
  switch (c.kind) {
    case ConstValue::Kind::Bool: return types_.boolean();
    case ConstValue::Kind::Int:
      return c.intValue >= INT32_MIN && c.intValue <= INT32_MAX ? types_.int32() : types_.int64();
    case ConstValue::Kind::Float: return types_.float32();
    default: return std::nullopt;
  }
}

TypeId TileChecker::promoteDtypes(TypeId a, TypeId b) {
  if (a == b) return a;
  const Type& x = types_.get(a);
  const Type& y = types_.get(b);
  if (x.kind == TypeKind::Bool) return b;
  if (y.kind == TypeKind::Bool) return a;
  if (x.kind == TypeKind::Float && y.kind == TypeKind::Float) {
    // float16 with bfloat16 (neither holds the other), and the tensor-core
    // formats with anything else, meet in float32 or wider.
    if (x.format != FloatFormat::Ieee || y.format != FloatFormat::Ieee) {
      return x.bits == 64 || y.bits == 64 ? types_.float64() : types_.float32();
    }
    return x.bits >= y.bits ? a : b;
  }
  if (x.kind == TypeKind::Float) return a;
  if (y.kind == TypeKind::Float) return b;
  unsigned bits = std::max(x.bits, y.bits);
  return types_.intType(bits, x.isSigned || y.isSigned);
}

std::optional<TypeId> TileChecker::promote(const TV& l, const TV& r) {
  auto dtypeOf = [&](const TV& v) -> std::optional<TypeId> {
    if (v.k == TV::K::Value && !types_.isArray(v.type)) return elementOf(v.type);
    if (v.k == TV::K::Const) return strictType(v.c);
    return std::nullopt;
  };
  auto dl = dtypeOf(l);
  auto dr = dtypeOf(r);
  if (dl && dr) return promoteDtypes(*dl, *dr);
  if (l.k == TV::K::Const && dr) return weakWith(l.c, *dr);
  if (r.k == TV::K::Const && dl) return weakWith(r.c, *dl);
  if (l.k == TV::K::Const && r.k == TV::K::Const) {
    auto a = weakType(l.c);
    auto b = weakType(r.c);
    if (a && b) return promoteDtypes(*a, *b);
  }
  return std::nullopt;
}

std::optional<TypeId> TileChecker::weakWith(const ConstValue& c, TypeId other) {
  if (!c.isNumber()) return std::nullopt;
  if (c.kind == ConstValue::Kind::Float && !types_.isFloat(other)) return types_.float32();
  if (c.kind == ConstValue::Kind::Int && types_.isBool(other)) return types_.int32();
  return other;
}

std::vector<int64_t> TileChecker::shapeOf(const TV& v) const {
  if (v.k == TV::K::Value && types_.isTile(v.type)) return types_.get(v.type).shape;
  return {};
}

std::optional<std::vector<int64_t>> TileChecker::broadcastOf(const std::vector<TV>& vals, ExprId where) {
  std::vector<int64_t> out;
  for (const TV& v : vals) {
    if (v.k == TV::K::Value && types_.isArray(v.type)) {
      diags_.error(loc(where), Diag::TileType,
                   "arrays cannot take part in tile arithmetic: `ct.load` a tile first");
      return std::nullopt;
    }
    std::vector<int64_t> s = shapeOf(v);
    if (s.size() > out.size()) out.insert(out.begin(), s.size() - out.size(), 1);
    size_t off = out.size() - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[off + i];
      if (o == s[i] || s[i] == 1) continue;
      if (o == 1) {
        o = s[i];
        continue;
      }
      std::string text;
      for (const TV& w : vals) text += (text.empty() ? "" : " and ") + std::string("`") + describe(w) + "`";
      diags_.error(loc(where), Diag::TileShape, "shapes of " + text + " do not broadcast");
      return std::nullopt;
    }
  }
  return out;
}

TypeId TileChecker::make(TypeId dtype, const std::vector<int64_t>& shape, const TV& a, const TV& b) {
  if (isTileVal(a) || isTileVal(b)) return types_.tile(dtype, shape);
  return dtype;
}

std::optional<std::vector<int64_t>> TileChecker::matmulShapes(const TV& x, const TV& y, const NodeRange& range,
                                                             const std::string& what, bool batched) {
  for (const TV* v : {&x, &y}) {
    if (v->k != TV::K::Value || !types_.isTile(v->type)) {
      diags_.error(loc(range), Diag::TileType, what + " takes tiles, found `" + describe(*v) + "`");
      return std::nullopt;
    }
    size_t n = types_.get(v->type).shape.size();
    if (n < 2 || (!batched && n != 2)) {
      diags_.error(loc(range), Diag::TileUnsupported, what + " of " + std::to_string(n) + "-D tiles",
                   batched ? " (tiles of 2 or more dimensions: a batch of matrices)" : " (2-D tiles only)");
      return std::nullopt;
    }
  }
  const auto& xs = types_.get(x.type).shape;
  const auto& ys = types_.get(y.type).shape;
  if (xs[xs.size() - 1] != ys[ys.size() - 2]) {
    diags_.error(loc(range), Diag::TileShape,
                 what + ": the shapes `" + describe(x) + "` and `" + describe(y) +
                     "` do not agree (the left's columns must equal the right's rows)");
    return std::nullopt;
  }
  // The batch dimensions broadcast as NumPy's matmul does.
  size_t nb = std::max(xs.size(), ys.size()) - 2;
  std::vector<int64_t> out(nb, 1);
  for (const std::vector<int64_t>* s : {&xs, &ys}) {
    size_t off = nb - (s->size() - 2);
    for (size_t i = 0; i + 2 < s->size(); ++i) {
      int64_t& o = out[off + i];
      int64_t d = (*s)[i];
      if (o == d || d == 1) continue;
      if (o != 1) {
        diags_.error(loc(range), Diag::TileShape,
                     what + ": the batch dimensions of `" + describe(x) + "` and `" + describe(y) +
                         "` do not broadcast");
        return std::nullopt;
      }
      o = d;
    }
  }
  out.push_back(xs[xs.size() - 2]);
  out.push_back(ys[ys.size() - 1]);
  return out;
}

bool TileChecker::matmulInput(const Type& t) {
  if (t.kind == TypeKind::Float) return true;  // f16, bf16, f32, tf32, f64
  return t.kind == TypeKind::Int && t.bits == 8;
}

std::optional<TypeId> TileChecker::matmulType(const TV& x, const TV& y, const NodeRange& range,
                                 const std::string& what) {
  auto shape = matmulShapes(x, y, range, what, true);
  if (!shape) return std::nullopt;
  TypeId dtype = promoteDtypes(elementOf(x.type), elementOf(y.type));
  if (!matmulInput(types_.get(dtype))) {
    diags_.error(loc(range), Diag::TileType,
                 what + " of `" + types_.dtypeName(dtype) +
                     "` tiles: matrix products take float16, bfloat16, float32, tfloat32, "
                     "float64, int8 or uint8");
    return std::nullopt;
  }
  return types_.tile(dtype, *shape);
}

std::optional<TypeId> TileChecker::mmaType(const TV& x, const TV& y, const TV& acc, const NodeRange& range) {
  // Batched (3-D and more) products run on CUDA cores, as ct.matmul's do.
  auto product = matmulShapes(x, y, range, "`ct.mma`", true);
  if (!product) return std::nullopt;
  if (acc.k != TV::K::Value || !types_.isTile(acc.type)) {
    diags_.error(loc(range), Diag::TileType, "`ct.mma`'s accumulator must be a tile, found `" + describe(acc) + "`");
    return std::nullopt;
  }
  TypeId in = elementOf(x.type);
  // int8 with uint8 (either order; cuTile's test_mma_mixed_int_uint): the integer
  // tensor-core forms take mixed signedness; ct.matmul still refuses to promote them.
  auto eightBit = [&](TypeId t) { return types_.get(t).kind == TypeKind::Int && types_.get(t).bits == 8; };
  bool mixedInt8 = eightBit(in) && eightBit(elementOf(y.type));
  if (in != elementOf(y.type) && !mixedInt8) {
    diags_.error(loc(range), Diag::TileType,
                 "`ct.mma` takes operands of one dtype (it does not promote), found `" +
                     types_.dtypeName(in) + "` and `" + types_.dtypeName(elementOf(y.type)) + "`");
    return std::nullopt;
  }
  const std::vector<int64_t>& shape = *product;
  if (types_.get(acc.type).shape != shape) {
    diags_.error(loc(range), Diag::TileShape,
                 "`ct.mma`'s accumulator `" + describe(acc) + "` must have the product's shape `" +
                     nameOf(types_.tile(elementOf(acc.type), shape)) + "`");
    return std::nullopt;
  }
  TypeId out = elementOf(acc.type);
  const Type& it = types_.get(in);
  if (it.kind == TypeKind::Float && it.format == FloatFormat::F8E8M0) {
    diags_.error(loc(range), Diag::TileType,
                 "`ct.mma` of `float8_e8m0fnu` tiles: E8M0 holds block scales (ct.mma_scaled's), "
                 "not matrix values; products take float8_e4m3fn or float8_e5m2");
    return std::nullopt;
  }
  if (types_.isFloat4(in)) {
    diags_.error(loc(range), Diag::TileType,
                 "`ct.mma` of `float4_e2m1fn` tiles: float4 operands take block scales (ct.mma_scaled)");
    return std::nullopt;
  }
  const Type& ot = types_.get(out);
  bool ok = false;
  std::string allowed;
  if (types_.isHalf(in)) {
    ok = types_.isHalf(out) || out == types_.float32();
    allowed = "float16 or float32";
  } else if (it.kind == TypeKind::Float && it.bits == 64) {
    ok = out == in;
    allowed = "float64";
  } else if (it.kind == TypeKind::Float) {  // bfloat16, float32, tfloat32
    ok = out == types_.float32();
    allowed = "float32";
  } else if (it.kind == TypeKind::Int && it.bits == 8) {
    ok = ot.kind == TypeKind::Int && ot.bits == 32 && ot.isSigned;
    allowed = "int32";
  } else {
    diags_.error(loc(range), Diag::TileType,
                 "`ct.mma` of `" + types_.dtypeName(in) +
                     "` tiles: it takes float16, bfloat16, float32, tfloat32, float64, int8 or uint8");
    return std::nullopt;
  }
  if (!ok) {
    diags_.error(loc(range), Diag::TileType,
                 "`ct.mma` of `" + types_.dtypeName(in) + "` tiles accumulates in " + allowed +
                     ", not `" + types_.dtypeName(out) + "`");
    return std::nullopt;
  }
  return acc.type;
}

TV TileChecker::binaryOp(ExprId id, Operator op, ExprId left, ExprId right) {
  TV l = checkExpr(left);
  TV r = checkExpr(right);
  TV v = binary(op, l, r, ast_.expr(id).range, right);
  if (v.ok() && v.k == TV::K::Value) inst_.opTypes[id.index] = lastOpType_;
  return record(id, v);
}

TV TileChecker::unaryOp(ExprId id, UnaryOpKind op, ExprId operand) {
  TV x = checkExpr(operand);
  if (!x.ok()) return TV{};
  if (x.k == TV::K::Const) {
    if (auto f = foldUnary(op, x.c)) {
      if (op != UnaryOpKind::Not) {
        if (auto strict = strictType(x.c)) f = retype(*f, *strict);
      }
      if (f) return record(id, TV::constant(*f));
    }
  } else if (x.k == TV::K::Value && !types_.isArray(x.type)) {
    TypeId e = elementOf(x.type);
    if (types_.isNoArithmetic(e)) return tf32Only(id, e);
    bool ok = (op == UnaryOpKind::USub || op == UnaryOpKind::UAdd) ? !types_.isBool(e)
            : op == UnaryOpKind::Not                               ? types_.isBool(x.type)
                                                                   : !types_.isFloat(e);  // ~: integers and bools
    if (ok) {
      inst_.opTypes[id.index] = op == UnaryOpKind::Not ? x.type : e;
      return record(id, x);
    }
  }
  diags_.error(loc(id), Diag::BadUnaryOperand, std::string(spelling(op)), describe(x));
  return TV{};
}

TV TileChecker::compareOp(ExprId id, CmpOp op, ExprId left, ExprId right) {
  TV l = checkExpr(left);
  TV r = checkExpr(right);
  if (!l.ok() || !r.ok()) return TV{};
  if (l.k == TV::K::Dict || r.k == TV::K::Dict) return compareDicts(id, op, l, r);
  if (l.k == TV::K::Entity || r.k == TV::K::Entity) return compareEntities(id, op, l, r);
  if (l.k == TV::K::Const && r.k == TV::K::Const) {
    if (auto f = foldCompare(op, l.c, r.c)) return record(id, TV::constant(*f));
  }
  if (op == CmpOp::In || op == CmpOp::NotIn || isTupleTV(l) || isTupleTV(r)) return compareTuples(id, op, l, r, right);
  auto operand = promote(l, r);
  auto shape = broadcastOf({l, r}, id);
  if (!operand || !shape || op == CmpOp::Is || op == CmpOp::IsNot || op == CmpOp::In || op == CmpOp::NotIn) {
    if (shape) {
      diags_.error(loc(id), Diag::MismatchedOperandTypes, std::string(spelling(op)), describe(l), describe(r));
    }
    return TV{};
  }
  if (types_.isNoArithmetic(*operand)) return tf32Only(id, *operand);
  inst_.opTypes[id.index] = *operand;
  return record(id, TV::value(make(types_.boolean(), *shape, l, r)));
}

TV TileChecker::binary(Operator op, const TV& l, const TV& r, const NodeRange& range, ExprId where) {
  if (!l.ok() || !r.ok()) return TV{};
  if (op == Operator::MatMult) {
    auto t = matmulType(l, r, range);
    if (!t) return TV{};
    lastOpType_ = types_.get(*t).element;
    return TV::value(*t);
  }
  if (l.k == TV::K::Const && r.k == TV::K::Const) {
    if (auto f = foldBinary(op, l.c, r.c)) {
      if (!strictType(l.c) && !strictType(r.c)) return TV::constant(*f);
      // A strictly typed constant (`ct.int16(2)`) keeps computing in its dtype, as a
      // scalar of that dtype would: `n + ct.int16(2)` is an int16 constant.
      if (auto dtype = promote(l, r)) {
        TypeId d = *dtype;
        bool bitwise = op == Operator::BitAnd || op == Operator::BitOr || op == Operator::BitXor;
        if (types_.isBool(d) && !bitwise) d = types_.int32();
        if (op == Operator::Div && !types_.isFloat(d)) d = types_.float32();
        if (auto typed = retype(*f, d)) return TV::constant(*typed);
      }
    }
    diags_.error(loc(range), Diag::MismatchedOperandTypes, std::string(spelling(op)), l.c.repr(),
                 r.c.repr());
    return TV{};
  }
  if ((l.k == TV::K::Value && isDataclassType(types_, l.type)) || (r.k == TV::K::Value && isDataclassType(types_, r.type))) {
    diags_.error(loc(range), Diag::MismatchedOperandTypes, std::string(spelling(op)), describe(l), describe(r));
    return TV{};
  }
  auto tupleOf = [&](const TV& v) -> std::optional<TypeId> {
    if (v.k == TV::K::Const && v.c.kind == ConstValue::Kind::Tuple) return runtimeTypeOf(v.c);
    if (v.k == TV::K::Value && types_.isTuple(v.type) && !holdsArray(v.type)) return v.type;
    return std::nullopt;
  };
  auto lt = tupleOf(l), rt = tupleOf(r);
  if (op == Operator::Add && lt && rt) {
    // Tuple concatenation (`acc += (t, t * 2)` in a compile-time loop).
    std::vector<TypeId> elements = types_.get(*lt).elements;
    for (TypeId e : types_.get(*rt).elements) elements.push_back(e);
    lastOpType_ = TypeId();
    return TV::value(types_.tuple(elements));
  }
  if (isTupleTV(l) || isTupleTV(r)) {  // tuples only concatenate (`+`)
    diags_.error(loc(range), Diag::MismatchedOperandTypes, std::string(spelling(op)), describe(l), describe(r));
    return TV{};
  }
  auto shape = broadcastOf({l, r}, where);
  if (!shape) return TV{};
  auto operand = promote(l, r);
  if (operand && types_.isNoArithmetic(*operand)) {
    tf32Only(where, *operand);
    return TV{};
  }
  bool supported = op == Operator::Add || op == Operator::Sub || op == Operator::Mult ||
                   op == Operator::Div || op == Operator::FloorDiv || op == Operator::Mod ||
                   op == Operator::BitAnd || op == Operator::BitOr || op == Operator::BitXor ||
                   op == Operator::LShift || op == Operator::RShift || op == Operator::Pow;
  if (op == Operator::Pow && operand) {
    // `x ** k` with a constant k in 0..16: repeated multiplication in x's dtype;
    // any other exponent: a float power (integers computed in float32).
    bool smallInt = r.k == TV::K::Const && r.c.kind == ConstValue::Kind::Int &&
                    r.c.intValue >= 0 && r.c.intValue <= 16;
    TypeId dtype = *operand;
    if (types_.isBool(dtype)) dtype = types_.int32();
    if (!smallInt && !types_.isFloat(dtype)) dtype = types_.float32();
    lastOpType_ = dtype;
    return TV::value(make(dtype, *shape, l, r));
  }
  if (!operand || !supported) {
    diags_.error(loc(range), Diag::MismatchedOperandTypes, std::string(spelling(op)), describe(l),
                 describe(r));
    return TV{};
  }
  TypeId dtype = *operand;
  bool shift = op == Operator::LShift || op == Operator::RShift;
  bool bitwise = op == Operator::BitAnd || op == Operator::BitOr || op == Operator::BitXor;
  if ((bitwise || shift) && types_.isFloat(dtype)) {
    diags_.error(loc(range), Diag::MismatchedOperandTypes, std::string(spelling(op)), describe(l),
                 describe(r));
    return TV{};
  }
  if (types_.isBool(dtype) && !bitwise) dtype = types_.int32();
  if (op == Operator::Div && !types_.isFloat(dtype)) dtype = types_.float32();
  lastOpType_ = dtype;
  return TV::value(make(dtype, *shape, l, r));
}

}  // namespace frontend::tile
